"""What the room service keeps in memory: at most GAMES_CACHED games (the least recently used
leave and come back from the database unchanged; a game a bot is about to move in stays), and
a copy that another process overtook is reloaded, bots included."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Iterator

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient

from app.config import Settings
from app.main import create_app
from app.rooms.events import MemoryHub
from app.rooms.service import RoomService
from tests.conftest import Player, started_room

DRAW = {"type": "draw", "source": "deck"}


@pytest.fixture
def small_app(settings: Settings) -> FastAPI:
    return create_app(settings.model_copy(update={"games_cached": 2, "bot_delay": 30.0}))


@pytest.fixture
def people(small_app: FastAPI) -> Iterator[list[Player]]:
    with TestClient(small_app) as client:
        yield [Player(client, name) for name in ("Ana", "Bo", "Cai", "Dee")]


def test_the_least_recently_used_game_leaves_memory_and_comes_back_unchanged(small_app,
                                                                             people):
    ana = people[0]
    rooms = small_app.state.rooms
    first, second, third = (started_room(people) for _ in range(3))
    for rid in (first, second):
        assert ana.post(f"/api/rooms/{rid}/moves", {"move": DRAW}).status_code == 200
    before = ana.get(f"/api/rooms/{first}/state").json()
    ana.get(f"/api/rooms/{second}/state")  # second is now used more recently than first
    assert ana.post(f"/api/rooms/{third}/moves", {"move": DRAW}).status_code == 200

    assert rooms.cached(first) is None
    assert rooms.cached(second) is not None and rooms.cached(third) is not None
    assert ana.get(f"/api/rooms/{first}/state").json() == before  # rebuilt from the moves
    again = ana.post(f"/api/rooms/{first}/moves", {"move": DRAW, "expected_version": 1})
    assert again.status_code == 200 and again.json()["version"] == 2


def test_a_game_whose_bot_is_about_to_move_is_kept(small_app, people):
    ana, bo = people[:2]
    rooms = small_app.state.rooms
    room = ana.post("/api/rooms", {"game": "arboretum", "players": 2}).json()
    ana.post(f"/api/rooms/{room['id']}/bots", {"seat": 1, "level": "random"})
    assert ana.post(f"/api/rooms/{room['id']}/start").status_code == 200
    for _ in range(2):  # Ana's turn: two draws, a play, a discard; then the bot's (30 s away)
        ana.post(f"/api/rooms/{room['id']}/moves", {"move": DRAW})
    moves = ana.get(f"/api/rooms/{room['id']}/moves").json()["moves"]
    ana.post(f"/api/rooms/{room['id']}/moves", {"move": moves[0]})
    moves = ana.get(f"/api/rooms/{room['id']}/moves").json()["moves"]
    assert ana.post(f"/api/rooms/{room['id']}/moves", {"move": moves[0]}).status_code == 200
    assert ana.get(f"/api/rooms/{room['id']}/state").json()["active_seats"] == [1]

    others = [started_room([bo, *people[2:]]) for _ in range(3)]
    for rid in others:
        assert bo.get(f"/api/rooms/{rid}/state").status_code == 200
    assert rooms.cached(room["id"]) is not None  # the bot's game stayed
    assert sum(rooms.cached(rid) is not None for rid in others) == 1


def test_a_bot_overtaken_by_another_process_reloads_and_plays_on(settings):
    """A second server on the same database saves the bot's next step first: our bot's own
    attempt is refused (409, the version guard), and it goes on from the reloaded game
    instead of stopping for good."""
    app = create_app(settings.model_copy(update={"bot_delay": 1.5}))
    with TestClient(app) as client:
        ana = Player(client, "Ana")
        rid = ana.post("/api/rooms", {"game": "arboretum", "players": 2}).json()["id"]
        ana.post(f"/api/rooms/{rid}/bots", {"seat": 1, "level": "random"})
        assert ana.post(f"/api/rooms/{rid}/start").status_code == 200
        for _ in range(4):  # Ana's turn: draw, draw, play, discard
            move = ana.get(f"/api/rooms/{rid}/moves").json()["moves"][0]
            assert ana.post(f"/api/rooms/{rid}/moves", {"move": move}).status_code == 200

        async def other_process_moves_for_the_bot() -> int:
            other = RoomService(app.state.engine, MemoryHub(), bot_delay=0)
            table = await other.table(rid)
            move = table.game.legal_moves(table.state, 1)[0]
            return await other.play(rid, None, move, 4, bot_seat=1)

        assert asyncio.run(other_process_moves_for_the_bot()) == 5
        deadline = time.monotonic() + 20
        state = ana.get(f"/api/rooms/{rid}/state").json()
        while state["active_seats"] != [0] and time.monotonic() < deadline:
            time.sleep(0.2)
            state = ana.get(f"/api/rooms/{rid}/state").json()
        assert state["active_seats"] == [0] and state["version"] == 8  # the bot's 3 other steps
