"""The clean-up (``app/lobby/cleanup.py``): rooms never started and idle for ROOM_IDLE_HOURS go
with their seats, players without a seat anywhere and older than PLAYER_IDLE_DAYS go (and their
tokens with them), everything started stays — a finished game stays replayable.

Rooms and players are made through the real API; the clock is faked: ``sweep`` gets ``now``
explicitly and the rows' timestamps are set back by hand where a test needs a past, and the
background loop reads a clock the test turns."""

from __future__ import annotations

import logging
import sqlite3
import time
from collections.abc import Callable
from datetime import UTC, datetime, timedelta, timezone
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import update
from sqlmodel import Session, col, select

from app.config import Settings
from app.lobby.cleanup import as_utc, last_change, run_cleanup, sweep
from app.main import create_app
from app.models import Move, Player, Room, Seat
from tests.api.test_game import play_to_the_end
from tests.conftest import Player as ApiPlayer
from tests.conftest import bearer, started_room
from tests.hardening.support import check_stored, read_games

ROOM_IDLE = timedelta(hours=24)
PLAYER_IDLE = timedelta(days=90)


@pytest.fixture
def now() -> datetime:
    """The fake clock's time: an hour from now, so that every row made by the test is older."""
    return datetime.now(UTC) + timedelta(hours=1)


def engine_of(client: TestClient) -> Any:
    return client.app.state.engine  # type: ignore[attr-defined]


def run_sweep(client: TestClient, now: datetime) -> tuple[int, int]:
    return sweep(engine_of(client), now, ROOM_IDLE, PLAYER_IDLE)


def set_room_time(client: TestClient, room_id: int, created: datetime,
                  joined: dict[int, datetime] | None = None) -> None:
    """Set a room's creation time and its seats' join times (by seat index; every seat not
    named joined when the room was created)."""
    joined = joined or {}
    with Session(engine_of(client)) as session:
        session.execute(update(Room).where(col(Room.id) == room_id).values(created=created))
        for seat in session.exec(select(Seat).where(Seat.room_id == room_id)):
            seat.joined = joined.get(seat.index, created)
            session.add(seat)
        session.commit()


def set_player_created(client: TestClient, player_id: int, created: datetime) -> None:
    with Session(engine_of(client)) as session:
        session.execute(update(Player).where(col(Player.id) == player_id)
                        .values(created=created))
        session.commit()


def seats_of(client: TestClient, room_id: int) -> list[Seat]:
    with Session(engine_of(client)) as session:
        return list(session.exec(select(Seat).where(Seat.room_id == room_id)))


def player_ids(client: TestClient) -> set[int]:
    with Session(engine_of(client)) as session:
        return {p.id for p in session.exec(select(Player)) if p.id is not None}


def new_room(owner: ApiPlayer, *others: ApiPlayer, seats: int = 3) -> int:
    room = owner.post("/api/rooms", {"game": "arboretum", "players": seats})
    assert room.status_code == 201, room.text
    rid = int(room.json()["id"])
    for other in others:
        assert other.post(f"/api/rooms/{rid}/join").status_code == 200
    return rid


# -- the time helper ----------------------------------------------------------------------------


def test_as_utc_reads_naive_as_utc_and_converts_aware():
    naive = datetime(2024, 3, 1, 12, 0, 0, 500)
    assert as_utc(naive) == datetime(2024, 3, 1, 12, 0, 0, 500, tzinfo=UTC)
    assert as_utc(naive).tzinfo is UTC
    paris = datetime(2024, 3, 1, 13, 0, tzinfo=timezone(timedelta(hours=1)))
    assert as_utc(paris) == datetime(2024, 3, 1, 12, 0, tzinfo=UTC)
    assert as_utc(paris).tzinfo is UTC
    aware = datetime(2024, 3, 1, 12, 0, tzinfo=UTC)
    assert as_utc(aware) is aware or as_utc(aware) == aware
    # naive and aware values compare once both went through it (plain ``<`` would raise)
    assert as_utc(naive) > as_utc(paris)
    with pytest.raises(TypeError):
        _ = naive < paris


@pytest.mark.sqlite_only("reads the stored text of a moment straight from the SQLite file")
def test_the_database_keeps_utc_and_as_utc_reads_it_back(client, players):
    """What SQLModel stores from ``datetime.now(UTC)`` is UTC without an offset in SQLite; read
    raw (naive) or through the ORM, ``as_utc`` gives the same instant."""
    ana = players[0]
    rid = new_room(ana)
    noon_paris = datetime(2024, 3, 1, 13, 0, tzinfo=timezone(timedelta(hours=1)))
    set_room_time(client, rid, noon_paris)
    with Session(engine_of(client)) as session:
        room = session.get(Room, rid)
        assert room is not None
        orm_created = room.created
        player = session.get(Player, ana.id)
        assert player is not None
        orm_player = player.created
    db_path = engine_of(client).url.database
    with sqlite3.connect(db_path) as raw:
        (text,) = raw.execute("SELECT created FROM room WHERE id = ?", (rid,)).fetchone()
    assert text.startswith("2024-03-01 12:00:00")  # stored as UTC, no offset
    raw_created = datetime.fromisoformat(text)
    assert raw_created.tzinfo is None
    assert as_utc(raw_created) == as_utc(orm_created) == datetime(2024, 3, 1, 12, tzinfo=UTC)
    assert abs(as_utc(orm_player) - datetime.now(UTC)) < timedelta(minutes=5)
    room_seen = Room(code="x", game_id="arboretum", players=2, created_by=1,
                     created=datetime(2024, 1, 1, 10, 0))  # naive: UTC
    seat = Seat(room_id=1, index=1, joined=datetime(2024, 1, 1, 12, 0, tzinfo=UTC))
    assert last_change(room_seen, [seat]) == datetime(2024, 1, 1, 12, 0, tzinfo=UTC)
    assert last_change(room_seen, []) == datetime(2024, 1, 1, 10, 0, tzinfo=UTC)


# -- rooms -----------------------------------------------------------------------------------


def test_an_unstarted_room_idle_25_hours_goes_with_its_seats_one_idle_23_stays(
        client, players, now):
    ana, bo, cai, _ = players
    old = new_room(ana, bo)
    recent = new_room(cai)
    set_room_time(client, old, now - timedelta(hours=25))
    set_room_time(client, recent, now - timedelta(hours=23))
    assert len(seats_of(client, old)) == 2

    assert run_sweep(client, now) == (1, 0)
    assert ana.get(f"/api/rooms/{old}").status_code == 404
    assert seats_of(client, old) == []
    assert ana.get(f"/api/rooms/{recent}").json()["status"] == "lobby"
    assert len(seats_of(client, recent)) == 1
    assert old not in [r["id"] for r in client.get("/api/rooms").json()]
    # the people of the removed room are fresh players: they stay, and can play on
    assert ana.get("/api/players/me").status_code == 200
    assert bo.post(f"/api/rooms/{old}/join").status_code == 404
    assert new_room(ana, bo) > 0
    # a second sweep has nothing more to do
    assert run_sweep(client, now) == (0, 0)


def test_a_room_someone_joined_2_hours_ago_stays_though_created_30_hours_ago(
        client, players, now):
    ana, bo, cai, _ = players
    rid = new_room(ana, bo)
    set_room_time(client, rid, now - timedelta(hours=30), {1: now - timedelta(hours=2)})
    assert run_sweep(client, now) == (0, 0)
    assert len(ana.get(f"/api/rooms/{rid}").json()["seats"]) == 3
    assert len(seats_of(client, rid)) == 2
    # once that join is 25 hours old too, the room goes
    assert run_sweep(client, now + timedelta(hours=23)) == (1, 0)
    assert cai.post(f"/api/rooms/{rid}/join").status_code == 404


def test_playing_and_finished_rooms_stay_whatever_their_age_and_replay(client, players, now):
    ana, bo, cai, dee = players
    finished = started_room([ana, bo])
    play_to_the_end([ana, bo], finished)
    playing = started_room([cai, dee])
    assert cai.post(f"/api/rooms/{playing}/moves",
                    {"move": {"type": "draw", "source": "deck"}}).status_code == 200
    before = {rid: {"room": ana.get(f"/api/rooms/{rid}").json(),
                    "state": ana.get(f"/api/rooms/{rid}/state").json(),
                    "log": ana.get(f"/api/rooms/{rid}/log").json(),
                    "public": client.get(f"/api/rooms/{rid}/log").json()}
              for rid in (finished, playing)}
    assert before[finished]["room"]["status"] == "finished"
    assert before[playing]["room"]["status"] == "playing"
    with Session(engine_of(client)) as session:
        moves_before = len(session.exec(select(Move)).all())
    ancient = now - timedelta(days=1000)
    for rid in (finished, playing):
        set_room_time(client, rid, ancient)
    for p in players:
        set_player_created(client, p.id, ancient)

    assert run_sweep(client, now) == (0, 0)
    for rid in (finished, playing):
        assert ana.get(f"/api/rooms/{rid}").json() == before[rid]["room"]
        assert ana.get(f"/api/rooms/{rid}/state").json() == before[rid]["state"]
        assert ana.get(f"/api/rooms/{rid}/log").json() == before[rid]["log"]
        assert client.get(f"/api/rooms/{rid}/log").json() == before[rid]["public"]
        assert len(seats_of(client, rid)) == 2
    with Session(engine_of(client)) as session:
        assert len(session.exec(select(Move)).all()) == moves_before
    # every player holds a seat in one of them: all stay, their tokens still work
    assert player_ids(client) >= {p.id for p in players}
    for p in players:
        assert p.get("/api/players/me").status_code == 200
    # the move log in the file still replays to each stored snapshot and result
    stored = read_games(engine_of(client))
    assert set(stored) == {finished, playing}
    for game in stored.values():
        check_stored(game)
    assert stored[finished].finished
    # and the playing one goes on
    (active,) = cai.get(f"/api/rooms/{playing}/state").json()["active_seats"]
    mover = (cai, dee)[active]
    moves = mover.get(f"/api/rooms/{playing}/moves").json()
    assert mover.post(f"/api/rooms/{playing}/moves",
                    {"move": moves["moves"][0], "expected_version": moves["version"]}
                    ).status_code == 200


# -- players ---------------------------------------------------------------------------------


def test_a_player_without_a_seat_created_91_days_ago_goes_and_their_token_is_refused(
        client, players, now):
    ana, bo, cai, dee = players
    for p in players:  # every token in the token cache first
        assert p.get("/api/players/me").status_code == 200
    set_player_created(client, cai.id, now - timedelta(days=91))
    set_player_created(client, dee.id, now - timedelta(days=89))
    seated = new_room(ana)
    set_player_created(client, ana.id, now - timedelta(days=91))

    assert run_sweep(client, now) == (0, 1)
    assert cai.id not in player_ids(client)
    assert player_ids(client) >= {ana.id, bo.id, dee.id}
    response = cai.get("/api/players/me")
    assert response.status_code == 401 and "token" in response.json()["detail"]
    assert cai.post("/api/rooms", {"game": "arboretum", "players": 2}).status_code == 401
    assert cai.post(f"/api/rooms/{seated}/join").status_code == 401
    for p in (ana, bo, dee):
        assert p.get("/api/players/me").json() == {"id": p.id, "name": p.name}
    # a new player with a new token is another player
    again = ApiPlayer(client, "Cai")
    assert again.get("/api/players/me").status_code == 200
    assert cai.get("/api/players/me").status_code == 401


def test_a_player_seated_in_a_finished_game_stays(client, players, now):
    ana, bo, _, _ = players
    rid = started_room([ana, bo])
    play_to_the_end([ana, bo], rid)
    for p in (ana, bo):
        set_player_created(client, p.id, now - timedelta(days=400))
    set_room_time(client, rid, now - timedelta(days=400))
    assert run_sweep(client, now) == (0, 0)
    assert bo.get("/api/players/me").status_code == 200
    assert bo.get(f"/api/rooms/{rid}/state").json()["your_seat"] == 1


def test_the_creator_of_a_room_that_still_exists_stays(client, players, now):
    ana, bo, cai, _ = players
    rid = new_room(ana, bo)
    assert ana.post(f"/api/rooms/{rid}/leave").status_code == 200  # Bo keeps the room
    assert [s.player_id for s in seats_of(client, rid)] == [bo.id]
    set_player_created(client, ana.id, now - timedelta(days=100))

    assert run_sweep(client, now) == (0, 0)  # a fresh room: its creator must stay (foreign key)
    assert ana.get("/api/players/me").status_code == 200

    # a started room whose creator left before the start: kept for ever, and its creator too
    started = new_room(cai, bo)
    assert cai.post(f"/api/rooms/{started}/leave").status_code == 200
    assert bo.post(f"/api/rooms/{started}/bots").status_code == 200
    assert bo.post(f"/api/rooms/{started}/bots").status_code == 200
    assert bo.post(f"/api/rooms/{started}/start").status_code == 200
    set_room_time(client, started, now - timedelta(days=400))
    set_player_created(client, cai.id, now - timedelta(days=400))
    assert run_sweep(client, now) == (0, 0)
    assert cai.get("/api/players/me").status_code == 200

    # once the lobby room is idle and goes, its creator goes in the same sweep
    set_room_time(client, rid, now - timedelta(hours=30))
    assert run_sweep(client, now) == (1, 1)
    assert ana.get("/api/players/me").status_code == 401
    assert bo.get("/api/players/me").status_code == 200  # fresh
    assert cai.get("/api/players/me").status_code == 200  # created a started room


# -- the background loop -----------------------------------------------------------------------


def wait_for(condition: Callable[[], bool], timeout: float = 10.0) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.02)
    return condition()


def test_the_background_loop_removes_an_idle_room_by_itself(client, players, settings, caplog):
    ana, bo, _, _ = players
    rid = new_room(ana, bo)
    fake_now = [datetime.now(UTC)]
    calls = [0]

    def clock() -> datetime:
        calls[0] += 1
        if calls[0] == 2:
            raise RuntimeError("the clock broke once")  # the loop must survive it
        return fake_now[0]

    fast = settings.model_copy(update={"cleanup_every_minutes": 0.0005})  # every 30 ms
    caplog.set_level(logging.INFO, logger="canopy.cleanup")
    portal = client.portal
    assert portal is not None
    loop = portal.start_task_soon(run_cleanup, engine_of(client), fast, clock)
    try:
        assert wait_for(lambda: calls[0] >= 5)  # it ticks, through the failure …
        assert ana.get(f"/api/rooms/{rid}").status_code == 200  # … but nothing is idle yet
        fake_now[0] += timedelta(hours=25)
        assert wait_for(lambda: ana.get(f"/api/rooms/{rid}").status_code == 404)
        assert seats_of(client, rid) == []
        assert not loop.done(), "the loop goes on"
    finally:
        loop.cancel()
    messages = [r.getMessage() for r in caplog.records if r.name == "canopy.cleanup"]
    assert any("failed" in m for m in messages), messages
    assert any("removed 1 idle room and 0 idle players" in m for m in messages), messages


def test_the_app_runs_the_clean_up_from_its_settings(database_url):
    """The lifespan starts the loop: a room idle longer than ROOM_IDLE_HOURS (here ~4 ms)
    and then its creator (PLAYER_IDLE_DAYS: a second) go while the test only waits."""
    settings = Settings(database_url=database_url, bot_delay=0.0,
                        htmx_source="local", room_idle_hours=0.000001,
                        player_idle_days=1 / 86400, cleanup_every_minutes=0.0005)
    with TestClient(create_app(settings)) as client:
        body = client.post("/api/players", json={"name": "Ana"}).json()
        client.cookies.clear()
        headers = bearer(body["token"])
        room = client.post("/api/rooms", json={"game": "arboretum", "players": 2},
                           headers=headers).json()
        assert wait_for(lambda: client.get(f"/api/rooms/{room['id']}").status_code == 404)
        assert wait_for(lambda: client.get("/api/players/me", headers=headers)
                        .status_code == 401)


def test_the_clean_up_can_be_switched_off(client, settings):
    off = settings.model_copy(update={"cleanup_every_minutes": 0})
    portal = client.portal
    assert portal is not None
    # returns at once instead of looping
    assert portal.call(run_cleanup, engine_of(client), off) is None
