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

from app.config import Settings
from app.games.registry import get_game
from app.main import ROOT, create_app
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
    assert game.dump(table.state) == game.dump(rooms.store.load(rid, replay=True).state)
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
