"""Issue 13, part 3: bots, clocks and the clean-up run in exactly one process — the one holding
PostgreSQL's advisory lock — and move to another when its lease connection dies."""

from __future__ import annotations

import logging
import time
from pathlib import Path

import psycopg
import pytest
from sqlalchemy.engine import make_url

from app.rooms.lease import LOCK_KEY
from tests.conftest import Player
from tests.scale.conftest import (
    LEASE,
    Instance,
    a_legal_move,
    instances,
    scale_settings,
    wait_for,
)


def holder_of(pair: list[Instance]) -> tuple[Instance, Instance]:
    """(the instance holding the lease, the other), once exactly one holds it."""
    holders = wait_for(lambda: [i for i in pair if i.state.lease.held], 5, "a holder")
    assert len(holders) == 1, "one holder at a time"
    (holder,) = holders
    return holder, next(i for i in pair if i is not holder)


def refused_bot_moves(caplog: pytest.LogCaptureFixture) -> list[str]:
    return [r.getMessage() for r in caplog.records
            if r.name == "canopy.bots" and "not taken" in r.getMessage()]


def bot_game(through: Instance) -> tuple[Player, int]:
    """A two-seat room started through ``through`` whose person then hands their seat to a
    bot: bots play both seats from then on."""
    ana = Player(through.client, "Ana")
    rid = ana.post("/api/rooms", {"game": "arboretum", "players": 2}).json()["id"]
    assert ana.post(f"/api/rooms/{rid}/bots", {"seat": 1}).status_code == 200
    assert ana.post(f"/api/rooms/{rid}/start").status_code == 200
    assert ana.post(f"/api/rooms/{rid}/hand-over").status_code == 200
    return ana, rid


def test_only_the_holder_s_bots_move_one_move_per_bot_turn(
        pair: list[Instance], caplog: pytest.LogCaptureFixture) -> None:
    """The game is started and handed to bots through the instance without the lease: the
    holder hears of it and plays every bot turn; nobody else tries (no 409 at all)."""
    caplog.set_level(logging.INFO, logger="canopy.bots")
    holder, other = holder_of(pair)
    ana, rid = bot_game(other)
    result = wait_for(lambda: other.get(ana, f"/api/rooms/{rid}/state").json()["result"], 60,
                      "the end of the bots' game")
    assert result["winners"]
    log = holder.get(ana, f"/api/rooms/{rid}/log").json()
    assert log["version"] == other.get(ana, f"/api/rooms/{rid}/state").json()["version"]
    assert refused_bot_moves(caplog) == []
    assert holder.state.lease.held and not other.state.lease.held
    assert not other.state.rooms.bots._tasks, "the other instance drove no bot"


def _terminate_lease_session(database_url: str) -> int:
    """End the session holding the lease from the server's side (what PostgreSQL does to a
    dead client's session); returns its backend's pid."""
    conninfo = make_url(database_url).set(drivername="postgresql").render_as_string(False)
    with psycopg.connect(conninfo, autocommit=True) as admin:
        row = admin.execute(
            "SELECT pid FROM pg_locks WHERE locktype = 'advisory' AND granted"
            " AND database = (SELECT oid FROM pg_database WHERE datname = current_database())"
            " AND ((classid::bigint << 32) | objid::bigint) = %s", (LOCK_KEY,)).fetchone()
        assert row is not None, "somebody holds the lease"
        admin.execute("SELECT pg_terminate_backend(%s)", (row[0],))
        return int(row[0])


def test_when_the_holder_s_lease_session_dies_the_other_takes_over_and_the_bots_go_on(
        shared_database: str, redis_url: str, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.INFO, logger="canopy.bots")
    paced = scale_settings(shared_database, redis_url, bot_delay=0.02)
    with instances(paced, paced) as pair:
        holder, other = holder_of(pair)
        ana, rid = bot_game(other)

        def version() -> int:
            return int(other.get(ana, f"/api/rooms/{rid}/state").json()["version"])

        wait_for(lambda: version() >= 8, 20, "the bots under way")
        _terminate_lease_session(shared_database)
        wait_for(lambda: not holder.state.lease.held, 5, "the old holder stepping down")
        assert not holder.state.rooms.bots._tasks, "its bots stopped at once"
        took_over = time.monotonic()
        wait_for(lambda: other.state.lease.held, 10 * LEASE + 2, "the other taking over")
        assert time.monotonic() - took_over < 5 * LEASE + 1
        at = version()
        wait_for(lambda: version() >= at + 8, 20, "the bots going on")
        assert not holder.state.lease.held, "one holder at a time"
        assert len(refused_bot_moves(caplog)) <= 1, "at most the move in flight at the switch"


class Skewed:
    """Real time, plus ``offset`` seconds (both instances read the same one)."""

    def __init__(self) -> None:
        self.offset = 0.0

    def __call__(self) -> float:
        return time.time() + self.offset


def test_the_holder_re_arms_the_clocks_after_a_move_made_elsewhere(
        pair: list[Instance]) -> None:
    """A one-minute clock; the time jumps 59.4 s and Ana moves through the instance without
    the lease. Only the holder arms timers, and it re-arms this room's for the new reading on
    hearing of that move: 0.6 s later the seat out of time goes to a bot."""
    holder, other = holder_of(pair)
    clock = Skewed()
    for instance in pair:
        instance.state.rooms.clock = clock
    ana, bo = Player(other.client, "Ana"), Player(other.client, "Bo")
    rid = ana.post("/api/rooms", {"game": "arboretum", "players": 2,
                                  "clock": {"minutes": 1, "increment": 0}}).json()["id"]
    assert bo.post(f"/api/rooms/{rid}/join").status_code == 200
    assert ana.post(f"/api/rooms/{rid}/start").status_code == 200
    wait_for(lambda: rid in holder.state.rooms.timekeeper._timers, 5, "the holder's timer")
    clock.offset += 59.4
    player, move, at = a_legal_move(other, [ana, bo], rid)
    assert player is ana
    assert other.post(ana, f"/api/rooms/{rid}/moves",
                      {"move": move, "expected_version": at}).status_code == 200
    seats = wait_for(lambda: (s := other.get(bo, f"/api/rooms/{rid}/state").json()["seats"])
                     [0]["bot"] and s, 5, "Ana's seat handed to a bot")
    assert seats[0]["person"] and seats[1]["bot"] is None
    assert not other.state.rooms.timekeeper._timers, "no timer outside the holder"


def test_one_process_always_holds_the_lease_on_sqlite(tmp_path: Path, redis_url: str) -> None:
    """SQLite is one machine's file: no advisory lock, the process runs its timers."""
    from app.rooms.lease import AlwaysHeld

    with instances(scale_settings(f"sqlite:///{tmp_path / 'one.db'}", redis_url)) as (only,):
        assert isinstance(only.state.lease, AlwaysHeld) and only.state.lease.held
