"""Ids past 32 bits on PostgreSQL: an id no row has, up to the largest a column holds and one
beyond, is answered 404 by every room endpoint — never a 500 from a bound parameter that
overflows its column's type (INTEGER before migration 0007)."""

from __future__ import annotations

import pytest

from app.models import MAX_ID
from tests.conftest import Player

#: (method, path under the room, body) of every endpoint that names a room.
ROOM_ENDPOINTS = [
    ("get", "/api/rooms/{room}", None), ("post", "/api/rooms/{room}/join", None),
    ("post", "/api/rooms/{room}/leave", None), ("post", "/api/rooms/{room}/bots", {}),
    ("post", "/api/rooms/{room}/start", None), ("post", "/api/rooms/{room}/rematch", None),
    ("get", "/api/rooms/{room}/state", None), ("get", "/api/rooms/{room}/moves", None),
    ("post", "/api/rooms/{room}/moves", {"move": {"type": "draw"}}),
    ("get", "/api/rooms/{room}/log", None), ("post", "/api/rooms/{room}/hand-over", None),
    ("post", "/api/rooms/{room}/take-back", None), ("get", "/api/rooms/{room}/replay", None),
    ("get", "/rooms/{room}", None), ("get", "/rooms/{room}/replay", None),
]


@pytest.mark.parametrize("room", [2**31, 2**40, MAX_ID, MAX_ID + 1])
def test_a_room_id_past_32_bits_is_not_found(players: list[Player], room: int):
    ana = players[0]
    answers = {}
    for method, path, body in ROOM_ENDPOINTS:
        url = path.format(room=room)
        answer = ana.post(url, body) if method == "post" else ana.get(url)
        answers[f"{method.upper()} {path}"] = answer.status_code
    assert answers == {f"{method.upper()} {path}": 404 for method, path, _ in ROOM_ENDPOINTS}


def test_rows_numbered_past_32_bits_are_created_and_found(client, players: list[Player]):
    """With the sequences past 2**31 (a server that has made two billion moves), new rooms,
    seats, games and moves get those ids and the game plays on."""
    from sqlalchemy import text

    with client.app.state.engine.begin() as connection:
        for table in ("room", "seat", "game", "move"):
            connection.execute(text(f"SELECT setval('{table}_id_seq', :past)"),
                               {"past": 2**32})
    ana, bo = players[0], players[1]
    room = ana.post("/api/rooms", {"game": "arboretum", "players": 2}).json()["id"]
    assert room == 2**32 + 1
    assert bo.post(f"/api/rooms/{room}/join").status_code == 200
    assert ana.post(f"/api/rooms/{room}/start").status_code == 200
    state = ana.get(f"/api/rooms/{room}/state").json()
    mover = (ana, bo)[state["active_seats"][0]]
    legal = mover.get(f"/api/rooms/{room}/moves").json()
    answer = mover.post(f"/api/rooms/{room}/moves",
                        {"move": legal["moves"][0], "expected_version": legal["version"]})
    assert answer.status_code == 200, answer.text
    with client.app.state.engine.connect() as connection:
        assert connection.execute(text("SELECT min(id) FROM move")).scalar_one() > 2**32
    assert ana.get(f"/api/rooms/{room}/state").json()["version"] == 1
