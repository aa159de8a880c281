"""Limits on running games (issue 28 items 6 and 7): games in progress per host
(``MAX_RUNNING_ROOMS``, 409), starts per address (``RATE_STARTS``, 429), a table of bots
alone stops once nobody looks at it (``BOT_TABLE_IDLE_MINUTES``) and plays on when someone
does; the home page and the public list read a constant number of statements whatever the
number of rooms, and the list is kept briefly; rate limits count an IPv6 client by its /64."""

from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import event, text

from app.config import Settings
from app.main import create_app
from tests.conftest import GENEROUS, Player

ORIGIN = "http://testserver"


@contextmanager
def serving(settings: Settings, **changes: Any) -> Iterator[TestClient]:
    with TestClient(create_app(settings.model_copy(update=changes))) as client:
        yield client


def two_seated(host: Player, guest: Player) -> int:
    room = host.post("/api/rooms", {"game": "arboretum", "players": 2}).json()["id"]
    assert guest.post(f"/api/rooms/{room}/join").status_code == 200
    return int(room)


def status(player: Player, room: int) -> str:
    return str(player.get(f"/api/rooms/{room}").json()["status"])


# -- item 6: games in progress per host, starts per address ----------------------------------


def test_a_host_runs_at_most_max_running_rooms_games(settings):
    with serving(settings, max_running_rooms=2) as client:
        ana, bo = Player(client, "Ana"), Player(client, "Bo")
        rooms = [two_seated(ana, bo) for _ in range(3)]
        for room in rooms[:2]:
            assert ana.post(f"/api/rooms/{room}/start").status_code == 200
        refused = ana.post(f"/api/rooms/{rooms[2]}/start")
        assert refused.status_code == 409, refused.text
        assert "2 games in progress" in refused.json()["detail"]
        assert "when one of them ends" in refused.json()["detail"]
        assert status(ana, rooms[2]) == "lobby"  # nothing changed
        # Another host is not counted against Ana; the page's form refuses alike.
        own = two_seated(bo, ana)
        assert bo.post(f"/api/rooms/{own}/start").status_code == 200
        form = client.post(f"/rooms/{rooms[2]}/start", headers={
            "Origin": ORIGIN, "Cookie": f"canopy_token={ana.token}"}, follow_redirects=False)
        assert form.status_code == 303 and "canopy_flash" in form.headers["set-cookie"]
        assert status(ana, rooms[2]) == "lobby"
        # Once one of her games is over, she may start the third.
        client.app.state.engine.dispose()
        with client.app.state.engine.begin() as connection:
            connection.execute(text("UPDATE room SET status = 'finished' WHERE id = :id"),
                               {"id": rooms[0]})
        assert ana.post(f"/api/rooms/{rooms[2]}/start").status_code == 200


def test_a_rematch_of_a_host_at_the_cap_waits_for_its_start(settings):
    with serving(settings, max_running_rooms=1, bot_delay=0.0) as client:
        ana = Player(client, "Ana")
        solo = ana.post("/api/rooms", {"game": "arboretum", "players": 2,
                                       "seated": False}).json()["id"]
        assert ana.post(f"/api/rooms/{solo}/bots").status_code == 200
        assert ana.post(f"/api/rooms/{solo}/bots").status_code == 200
        running = two_seated(ana, Player(client, "Bo"))
        assert ana.post(f"/api/rooms/{running}/start").status_code == 200
        assert ana.post(f"/api/rooms/{solo}/start").status_code == 409
        assert status(ana, solo) == "lobby"


def test_starts_are_rate_limited_per_address(settings):
    with serving(settings, rate_starts="2/hour") as client:
        ana, bo = Player(client, "Ana"), Player(client, "Bo")
        rooms = [two_seated(ana, bo) for _ in range(3)]
        for room in rooms[:2]:
            assert ana.post(f"/api/rooms/{room}/start").status_code == 200
        refused = ana.post(f"/api/rooms/{rooms[2]}/start")
        assert refused.status_code == 429, refused.text
        assert "game starts" in refused.json()["detail"]
        assert int(refused.headers["Retry-After"]) > 60
        assert status(ana, rooms[2]) == "lobby"
        assert bo.post(f"/api/rooms/{two_seated(bo, ana)}/start").status_code == 429


def test_a_table_of_bots_alone_stops_when_nobody_looks_and_goes_on_when_someone_does(settings):
    with serving(settings, bot_delay=0.02, bot_table_idle_minutes=0.005) as client:  # 0.3 s
        ana = Player(client, "Ana")
        room = ana.post("/api/rooms", {"game": "arboretum", "players": 2,
                                       "seated": False}).json()["id"]
        for _ in range(2):
            assert ana.post(f"/api/rooms/{room}/bots").status_code == 200
        assert ana.post(f"/api/rooms/{room}/start").status_code == 200
        rooms = client.app.state.rooms

        def version() -> int:
            table = rooms.cached(room)
            assert table is not None and not table.finished
            return int(table.version)

        time.sleep(1.0)
        stopped = version()
        assert stopped > 0
        time.sleep(0.5)
        assert version() == stopped, "the bots played on unwatched"
        assert room in rooms.waiting
        state = ana.get(f"/api/rooms/{room}/state")  # someone looks
        assert state.status_code == 200
        deadline = time.monotonic() + 5
        while version() == stopped and time.monotonic() < deadline:
            time.sleep(0.02)
        assert version() > stopped, "the bots did not go on once someone looked"


def test_a_table_with_a_person_plays_on_unwatched(settings):
    with serving(settings, bot_delay=0.0, bot_table_idle_minutes=0.0001) as client:
        ana = Player(client, "Ana")
        room = ana.post("/api/rooms", {"game": "arboretum", "players": 2}).json()["id"]
        assert ana.post(f"/api/rooms/{room}/bots").status_code == 200
        assert ana.post(f"/api/rooms/{room}/start").status_code == 200
        table = client.app.state.rooms.cached(room)
        assert table is not None and table.seat_players
        assert not client.app.state.rooms.unwatched(table)


# -- item 7: constant queries, the list kept briefly, IPv6 by /64 ----------------------------


class Statements:
    def __init__(self, engine: Any) -> None:
        self.engine = engine
        self.count = 0

    def __call__(self, connection: Any, cursor: Any, statement: str, *args: Any) -> None:
        if not statement.lstrip().upper().startswith("PRAGMA"):  # the WAL's checkpointer
            self.count += 1

    @contextmanager
    def counting(self) -> Iterator[None]:
        self.count = 0
        event.listen(self.engine, "before_cursor_execute", self)
        try:
            yield
        finally:
            event.remove(self.engine, "before_cursor_execute", self)


def statements_for(settings: Settings, rooms: int) -> tuple[int, int, int]:
    """Statements run by ``GET /api/rooms``, ``GET /`` for a newcomer and ``GET /`` for a
    player seated in every room, with ``rooms`` public rooms waiting (each with a host, the
    viewer, and a bot)."""
    with serving(settings, rooms_list_seconds=0.0) as client:
        viewer = Player(client, "Vi")
        for n in range(rooms):
            host = Player(client, f"Host {n}")
            room = host.post("/api/rooms", {"game": "arboretum", "players": 4}).json()["id"]
            assert viewer.post(f"/api/rooms/{room}/join").status_code == 200
            assert host.post(f"/api/rooms/{room}/bots").status_code == 200
        statements = Statements(client.app.state.engine)
        with statements.counting():
            listed = client.get("/api/rooms").json()
        assert len(listed) == rooms
        assert all(r["seats"][1]["player"]["name"] == "Vi" for r in listed)
        api = statements.count
        with statements.counting():
            assert client.get("/").status_code == 200
        newcomer = statements.count
        with statements.counting():
            page = client.get("/", headers={"Cookie": f"canopy_token={viewer.token}"})
        assert page.status_code == 200 and "Host 0" in page.text
        return api, newcomer, statements.count


def test_the_list_and_the_home_page_read_as_many_statements_for_5_rooms_as_for_50(
        settings, databases, tmp_path):
    counts = []
    for rooms in (5, 50):
        url = databases.new(tmp_path, f"rooms{rooms}.db")
        try:
            counts.append(statements_for(settings.model_copy(update={"database_url": url}),
                                         rooms))
        finally:
            databases.drop(url)
    few, many = counts
    assert few == many, (few, many)
    assert max(many) <= 8


def test_the_public_list_is_kept_briefly_and_dropped_when_a_room_changes(settings):
    with serving(settings, rooms_list_seconds=60.0) as client:
        ana = Player(client, "Ana")
        first = ana.post("/api/rooms", {"game": "arboretum", "players": 2}).json()["id"]
        assert [r["id"] for r in client.get("/api/rooms").json()] == [first]
        statements = Statements(client.app.state.engine)
        with statements.counting():
            assert [r["id"] for r in client.get("/api/rooms").json()] == [first]
        assert statements.count == 0
        second = ana.post("/api/rooms", {"game": "arboretum", "players": 2}).json()["id"]
        assert [r["id"] for r in client.get("/api/rooms").json()] == [second, first]
        assert ana.post(f"/api/rooms/{second}/leave").status_code == 200
        assert [r["id"] for r in client.get("/api/rooms").json()] == [first]


@pytest.mark.parametrize("same,other", [("2001:db8:1:2::2", "2001:db8:1:3::1"),
                                        ("2001:db8:1:2:ffff::9", "192.0.2.1")])
def test_an_ipv6_client_cannot_dodge_a_limit_by_changing_address_in_its_64(
        database_url, same, other):
    settings = Settings(database_url=database_url, bot_delay=0.0, htmx_source="local",
                        trust_forwarded=True, **{**GENEROUS, "rate_signups": "2/minute"})
    with TestClient(create_app(settings)) as client:
        def sign_up(address: str) -> int:
            answer = client.post("/api/players", json={"name": "Ana"},
                                 headers={"X-Forwarded-For": address})
            client.cookies.clear()
            return int(answer.status_code)

        assert sign_up("2001:db8:1:2::1") == 200
        assert sign_up("2001:db8:1:2::abcd") == 200
        assert sign_up(same) == 429  # the same /64
        assert sign_up(other) == 200  # another network
