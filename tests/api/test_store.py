"""The store: games load from their snapshot, the snapshot always equals the replayed log,
seeds are 128 bits from ``secrets``, and games stored before this version carry forward."""

from __future__ import annotations

import asyncio
import dataclasses
import json
import random
import sqlite3
from pathlib import Path

import pytest
from alembic import command
from alembic.config import Config
from fastapi.testclient import TestClient
from sqlmodel import Session, col, select

from app.config import Settings
from app.games.registry import get_game
from app.main import ROOT, create_app
from app.models import Game as GameRow
from app.models import Move as MoveRow
from app.rooms.rebuild import rebuild
from tests.conftest import Player, started_room


def play_random(player: Player, rid: int, moves: int, rng: random.Random) -> None:
    for _ in range(moves):
        legal = player.get(f"/api/rooms/{rid}/moves").json()["moves"]
        assert player.post(f"/api/rooms/{rid}/moves", {"move": rng.choice(legal)}).status_code \
            == 200


def test_a_game_loads_from_its_snapshot_and_equals_the_replayed_log(app, client, players):
    ana = players[0]
    rid = ana.post("/api/rooms", {"game": "arboretum", "players": 2}).json()["id"]
    ana.post(f"/api/rooms/{rid}/bots", {"seat": 1, "level": "random"})
    ana.post(f"/api/rooms/{rid}/start")
    rng = random.Random(3)
    for _ in range(6):
        state = ana.get(f"/api/rooms/{rid}/state").json()
        if 0 in state["active_seats"]:
            play_random(ana, rid, 1, rng)
        else:
            asyncio.run(asyncio.sleep(0.05))
    rooms = app.state.rooms
    before = ana.get(f"/api/rooms/{rid}/state").json()
    log_before = ana.get(f"/api/rooms/{rid}/log").json()
    table = rooms.store.load(rid)  # what a reload finds: the snapshot, no replay
    game = table.game
    with Session(app.state.engine) as session:  # the whole log replays to the snapshot
        row = session.exec(select(GameRow).where(GameRow.room_id == rid)).one()
        moves = session.exec(select(MoveRow).where(MoveRow.game_id == row.id)
                             .order_by(col(MoveRow.seq))).all()
    replayed = rebuild(game, 2, game.Options(), int(row.seed),
                       [(m.seat, m.move) for m in moves], table.state, keep_states=True)
    assert game.dump(replayed.states[-1]) == game.dump(table.state)
    assert table.version == before["version"]
    rooms.tables.forget(rid)
    assert ana.get(f"/api/rooms/{rid}/state").json() == before
    assert ana.get(f"/api/rooms/{rid}/log").json() == log_before  # stored log lines


def test_loading_does_not_replay_the_log(app, client, players, monkeypatch):
    """A reload applies no move: the state comes from the snapshot, the log from the stored
    log lines."""
    import app.rooms.store as store_module

    rid = started_room(players)
    play_random(players[0], rid, 3, random.Random(1))
    app.state.rooms.tables.forget(rid)
    game, applied = get_game("arboretum"), []

    def counting(state, seat, move):
        applied.append(move)
        return game.apply(state, seat, move)

    monkeypatch.setattr(store_module, "get_game",
                        lambda _: dataclasses.replace(game, apply=counting))
    body = players[0].get(f"/api/rooms/{rid}/state").json()
    assert body["version"] == 3 and applied == []
    assert len(players[0].get(f"/api/rooms/{rid}/log").json()["events"]) >= 3


def test_seeds_are_128_bits_from_secrets_and_unrelated(app, client, players):
    from sqlmodel import Session, select

    from app.models import Game

    first, second = started_room(players), started_room(players)
    with Session(app.state.engine) as session:
        seeds = [int(session.exec(select(Game).where(Game.room_id == rid)).one().seed)
                 for rid in (first, second)]
    assert all(2**100 < seed < 2**128 for seed in seeds)  # full width (1 in 2^27 to miss)
    assert 40 < bin(seeds[0] ^ seeds[1]).count("1") < 90  # about half the bits differ
    assert abs(seeds[0] - seeds[1]) > 2**64


@pytest.mark.sqlite_only("a SQLite file written at revision 0002, carried forward")
def test_a_game_stored_before_wide_seeds_and_stored_log_lines_carries_forward(tmp_path: Path):
    """A database at revision 0002: an integer seed, moves without log lines. After the
    upgrade the game shows the same state and log, and plays on."""
    db = tmp_path / "old.db"
    config = Config(str(ROOT / "alembic.ini"))
    config.set_main_option("script_location", str(ROOT / "migrations"))
    config.set_main_option("sqlalchemy.url", f"sqlite:///{db}")
    command.upgrade(config, "0002")
    game, seed = get_game("arboretum"), 12345
    state = game.setup(2, game.Options(), seed)
    moves, rng = [], random.Random(seed)
    for _ in range(9):
        seat = min(game.active_seats(state))
        move = rng.choice(game.legal_moves(state, seat))
        state = game.apply(state, seat, move)
        moves.append((seat, move))
    with sqlite3.connect(db) as conn:
        conn.execute("INSERT INTO player (id, name, token_hash, created) VALUES "
                     "(1, 'Ana', 'a', '2026-01-01'), (2, 'Bo', 'b', '2026-01-01')")
        conn.execute("INSERT INTO room (id, code, game_id, players, options, status, "
                     "created_by, created) VALUES (1, 'oldroom1', 'arboretum', 2, '{}', "
                     "'playing', 1, '2026-01-01')")
        conn.executemany("INSERT INTO seat (room_id, \"index\", player_id, joined) VALUES "
                         "(1, ?, ?, '2026-01-01')", [(0, 1), (1, 2)])
        conn.execute("INSERT INTO game (id, room_id, seed, state, version, finished) VALUES "
                     "(1, 1, ?, ?, ?, 0)", (seed, json.dumps(game.dump(state)), len(moves)))
        conn.executemany("INSERT INTO move (game_id, seq, seat, move, created) VALUES "
                         "(1, ?, ?, ?, '2026-01-01')",
                         [(i + 1, s, json.dumps(m)) for i, (s, m) in enumerate(moves)])
    app = create_app(Settings(database_url=f"sqlite:///{db}", bot_delay=0, htmx_source="local"))
    with TestClient(app):
        table = asyncio.run(app.state.rooms.table(1))
        assert table.seed == seed and table.version == 9
        assert game.dump(table.state) == game.dump(state)
        assert [line["version"] for line in table.log_for(0)][:1] == [1]  # rebuilt by replay
        seat = min(game.active_seats(table.state))
        move = game.legal_moves(table.state, seat)[0]
        assert asyncio.run(app.state.rooms.play(1, seat + 1, move, 9)) == 10
        app.state.rooms.tables.forget(1)
        again = asyncio.run(app.state.rooms.table(1))
        assert again.version == 10 and game.dump(again.state) == game.dump(
            game.apply(state, seat, move))


def test_a_stored_result_stands_where_todays_rules_count_it_otherwise(app, client, players):
    """A result is a fact: a finished game whose stored result today's rules would count
    otherwise (a scoring fix since) shows the stored scores, ranking and winners — on the
    table, through the API and in its replay."""
    from sqlalchemy import update

    from tests.api.test_replay import finished_bot_room

    rid = finished_bot_room(players[0], "arboretum")
    today = players[0].get(f"/api/rooms/{rid}/state").json()["result"]
    stored = {**today, "scores": [today["scores"][1] + 7, today["scores"][0]],
              "ranking": [1, 0], "winners": [1], "headline": "Bot 2 won"}
    with Session(app.state.engine) as session:
        session.execute(update(GameRow).where(col(GameRow.room_id) == rid)
                        .values(result=stored))
        session.commit()
    app.state.rooms.tables.forget(rid)
    shown = players[0].get(f"/api/rooms/{rid}/state").json()["result"]
    assert (shown["scores"], shown["ranking"], shown["winners"]) == (
        stored["scores"], [1, 0], [1])
    replay = players[0].get(f"/api/rooms/{rid}/replay").json()
    assert replay["result"]["scores"] == stored["scores"] == replay["timeline"][-1]
    assert replay["first_version"] == 0  # the moves themselves still replay
    page = players[0].get(f"/rooms/{rid}")
    assert page.status_code == 200 and "Bot 2 won" in page.text


def test_a_rebuilt_past_counts_only_when_it_ends_at_the_stored_snapshot():
    """rebuild(): Diverged at the first move today's rules refuse, or at the end when the
    replay ends at another state than the one stored."""
    from app.rooms.rebuild import Diverged, rebuild

    game = get_game("arboretum")
    state, moves, rng = game.setup(2, game.Options(), 99), [], random.Random(99)
    states = [state]
    for _ in range(12):
        seat = min(game.active_seats(state))
        move = rng.choice(game.legal_moves(state, seat))
        state = game.apply(state, seat, move)
        moves.append((seat, move))
        states.append(state)
    past = rebuild(game, 2, game.Options(), 99, moves, state, keep_states=True)
    assert [game.dump(s) for s in past.states] == [game.dump(s) for s in states]
    assert len(past.events) == 12 and all(past.events)
    with pytest.raises(Diverged) as elsewhere:
        rebuild(game, 2, game.Options(), 99, moves, states[5])
    assert elsewhere.value.version == 12
    refused = [*moves[:4], (moves[4][0], {"type": "discard", "card": ["oak", 99]}), *moves[5:]]
    with pytest.raises(Diverged) as at:
        rebuild(game, 2, game.Options(), 99, refused, state)
    assert at.value.version == 5 and "refuse" in at.value.why
    with pytest.raises(Diverged) as dealt:  # another seed deals another game
        rebuild(game, 2, game.Options(), 100, moves, state)
    assert dealt.value.version >= 1
