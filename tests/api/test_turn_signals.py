"""Your turn, noticed: the home page lists the tables waiting for you first, marked "Your
move"; a table whose seat a bot plays for you is not waiting for you. The table page's seat
bar says ``data-yours`` exactly when the game waits for the reader (canopy.js reads it)."""

from __future__ import annotations

import re

import pytest
from fastapi.testclient import TestClient

from app.config import Settings
from tests.conftest import GENEROUS, Player

BAR = re.compile(r'<ol class="seatbar"[^>]*>')


@pytest.fixture
def settings(database_url: str) -> Settings:
    """Bots wait an hour before they move: a seat handed to a bot stays active meanwhile."""
    return Settings(database_url=database_url, bot_delay=3600.0,
                    htmx_source="local", **GENEROUS)


def room_of(host: Player, guest: Player) -> int:
    """A started two-seat Arboretum table: ``host`` in seat 0 (the first to move)."""
    room = host.post("/api/rooms", {"game": "arboretum", "players": 2}).json()["id"]
    assert guest.post(f"/api/rooms/{room}/join").status_code == 200
    assert host.post(f"/api/rooms/{room}/start").status_code == 200
    assert host.get(f"/api/rooms/{room}/state").json()["active_seats"] == [0]
    return int(room)


def your_tables(client: TestClient, player: Player) -> list[tuple[int, bool]]:
    """The home page's "Your tables" for ``player``, in order: (room id, marked your move)."""
    page = client.get("/", headers={"Cookie": f"canopy_token={player.token}"}).text
    section = page.split("<h2>Your tables</h2>", 1)[1].split("</section>", 1)[0]
    items = section.split("<li>")[1:]
    return [(int(re.search(r'href="/rooms/(\d+)"', item)[1]),  # type: ignore[index]
             "Your turn" in item) for item in items]


def seat_bar(client: TestClient, player: Player | None, room: int) -> str:
    headers = {"Cookie": f"canopy_token={player.token}"} if player else {}
    match = BAR.search(client.get(f"/rooms/{room}", headers=headers).text)
    assert match, "the table page has a seat bar"
    return match[0]


def test_the_tables_waiting_for_you_come_first(players, client):
    ana, bo = players[:2]
    waiting = room_of(ana, bo)  # Ana's move: the older room, listed last by age
    not_yet = room_of(bo, ana)  # Bo's move
    assert your_tables(client, ana) == [(waiting, True), (not_yet, False)]
    assert your_tables(client, bo) == [(not_yet, True), (waiting, False)]
    page = client.get("/", headers={"Cookie": f"canopy_token={ana.token}"}).text
    assert page.count('class="badge yours"') == 1


def test_the_seat_bar_says_yours_to_its_mover_only(players, client):
    ana, bo, cai = players[:3]
    room = room_of(ana, bo)
    assert 'data-yours="true"' in seat_bar(client, ana, room)
    assert "data-yours" not in seat_bar(client, bo, room)
    assert "data-yours" not in seat_bar(client, cai, room), "a spectator is never signalled"
    assert "data-yours" not in seat_bar(client, None, room)


def test_a_seat_a_bot_plays_for_you_is_not_waiting_for_you(players, client):
    ana, bo = players[:2]
    room = room_of(ana, bo)
    assert ana.post(f"/api/rooms/{room}/hand-over").status_code == 200
    state = ana.get(f"/api/rooms/{room}/state").json()
    assert state["active_seats"] == [0], "the bot has not moved yet (it waits an hour)"
    assert your_tables(client, ana) == [(room, False)]
    assert "data-yours" not in seat_bar(client, ana, room)
    assert ana.post(f"/api/rooms/{room}/take-back").status_code == 200
    assert your_tables(client, ana) == [(room, True)]
    assert 'data-yours="true"' in seat_bar(client, ana, room)


def test_the_table_page_offers_the_switches_to_seated_people_only(players, client):
    ana, bo, cai = players[:3]
    room = room_of(ana, bo)
    for player in (ana, bo):
        page = client.get(f"/rooms/{room}", headers={"Cookie": f"canopy_token={player.token}"})
        assert 'class="turn-signals"' in page.text and "Notify me" in page.text
    watched = client.get(f"/rooms/{room}", headers={"Cookie": f"canopy_token={cai.token}"})
    assert "turn-signals" not in watched.text and "Notify me" not in watched.text
    assert 'data-your-move="Your turn"' in watched.text  # the script's word, in any page
