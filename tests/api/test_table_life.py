"""Issue 12, items 2-4 through the API: a seat handed to a bot and taken back, votes on an
away player's seat (live and turn-based), last seen, and chess clocks run by the server with an
injected clock (no sleeping)."""

from __future__ import annotations

import time
from typing import Any

import pytest
from sqlalchemy import update
from sqlmodel import Session, col

from app.games.registry import get_game
from app.models import Room
from tests.conftest import Player

#: The bot that takes a seat unless a level is chosen: the game's first.
FIRST = get_game("arboretum").bots[0].id


class FakeClock:
    """Epoch seconds that move only when the test says so."""

    def __init__(self) -> None:
        self.now = 1_800_000_000.0

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds


@pytest.fixture
def clock(app: Any) -> FakeClock:
    fake = FakeClock()
    app.state.rooms.clock = fake
    return fake


def room_with(app: Any, players: list[Player], n: int = 2, game: str = "arboretum",
              **table: Any) -> int:
    """A started room of ``n`` people whose table settings (app/models.py Room) are
    ``table``."""
    rid = int(players[0].post("/api/rooms", {"game": game, "players": n}).json()["id"])
    for p in players[1:n]:
        assert p.post(f"/api/rooms/{rid}/join").status_code == 200
    if table:
        with Session(app.state.engine) as session:
            session.execute(update(Room).where(col(Room.id) == rid).values(**table))
            session.commit()
    assert players[0].post(f"/api/rooms/{rid}/start").status_code == 200
    return rid


def state(player: Player, rid: int) -> dict[str, Any]:
    body: dict[str, Any] = player.get(f"/api/rooms/{rid}/state").json()
    return body


def wait_for(check: Any, timeout: float = 20.0) -> Any:
    """Bots move in the server's own loop: poll until ``check()`` holds."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = check()
        if value:
            return value
        time.sleep(0.02)
    raise AssertionError("timed out")


def a_move(player: Player, rid: int) -> dict[str, Any]:
    moves = player.get(f"/api/rooms/{rid}/moves").json()["moves"]
    return dict(moves[0])


# -- hand a seat to a bot, take it back --------------------------------------------------------


def test_a_player_leaves_a_bot_plays_on_and_the_player_takes_the_seat_back(players):
    ana, bo = players[:2]
    rid = room_with(ana.client.app, players)
    assert state(ana, rid)["active_seats"] == [0]
    answer = ana.post(f"/api/rooms/{rid}/hand-over", {"level": "random"})
    assert answer.status_code == 200, answer.text
    mine = answer.json()["seats"][0]
    assert mine["person"] and mine["bot"] == "random"
    # The bot plays Ana's turn through the same path as people: Bo's turn comes.
    wait_for(lambda: state(bo, rid)["active_seats"] == [1])
    log = ana.get(f"/api/rooms/{rid}/log").json()["events"]
    assert log and all(line["seat"] == 0 for line in log)
    # While the bot plays her seat, Ana's own moves are refused and change nothing.
    version = state(bo, rid)["version"]
    bo.post(f"/api/rooms/{rid}/moves", {"move": a_move(bo, rid)})  # Bo draws
    wait_for(lambda: state(bo, rid)["version"] > version)
    # Ana takes her seat back; the next decision of her seat is hers.
    back = ana.post(f"/api/rooms/{rid}/take-back")
    assert back.status_code == 200 and back.json()["seats"][0]["bot"] is None
    before = state(ana, rid)
    while before["active_seats"] != [0]:
        bo.post(f"/api/rooms/{rid}/moves", {"move": a_move(bo, rid)})
        before = state(ana, rid)
    time.sleep(0.1)  # no bot moves for her now
    assert state(ana, rid)["version"] == before["version"]
    played = ana.post(f"/api/rooms/{rid}/moves", {"move": a_move(ana, rid)})
    assert played.status_code == 200 and played.json()["version"] == before["version"] + 1


def test_leaving_twice_taking_back_a_seat_you_play_and_strangers_are_refused(players):
    ana, bo, cai = players[:3]
    rid = room_with(ana.client.app, players)
    assert ana.post(f"/api/rooms/{rid}/take-back").status_code == 409
    assert cai.post(f"/api/rooms/{rid}/hand-over").status_code == 403
    unknown = ana.post(f"/api/rooms/{rid}/hand-over", {"level": "grandmaster"})
    assert unknown.status_code == 422 and FIRST in unknown.json()["detail"]
    assert bo.post(f"/api/rooms/{rid}/hand-over").status_code == 200
    again = bo.post(f"/api/rooms/{rid}/hand-over")
    assert again.status_code == 409 and "already" in again.json()["detail"]
    moved = bo.post(f"/api/rooms/{rid}/moves", {"move": {"type": "draw", "source": "deck"}})
    assert moved.status_code == 409 and "take your seat back" in moved.json()["detail"]


def test_a_seat_handed_to_a_bot_stays_with_the_bot_after_a_restart(app, client, players):
    ana = players[0]
    rid = room_with(app, players)
    ana.post(f"/api/rooms/{rid}/hand-over")
    app.state.rooms.tables.forget(rid)
    body = state(ana, rid)
    assert body["seats"][0]["bot"] == FIRST and body["seats"][0]["person"]


# -- votes --------------------------------------------------------------------------------------


def test_the_others_vote_an_away_players_seat_to_a_bot_once_the_live_limit_passed(
        app, players, clock):
    ana, bo, cai = players[:3]
    rid = room_with(app, players, n=3, away_minutes=5)
    # Nobody has a page open; Cai has been away since the start.
    early = ana.post(f"/api/rooms/{rid}/seats/2/vote")
    assert early.status_code == 409 and "5 min" in early.json()["detail"]
    seats = state(ana, rid)["seats"]
    assert seats[2]["vote_opens"] == pytest.approx(clock.now + 300, abs=1)
    clock.advance(301)
    assert state(ana, rid)["seats"][2]["overdue"]
    assert ana.post(f"/api/rooms/{rid}/seats/2/vote").status_code == 200
    seats = state(ana, rid)["seats"]
    assert seats[2]["votes"] == 1 and seats[2]["votes_needed"] == 2 and seats[2]["bot"] is None
    assert ana.post(f"/api/rooms/{rid}/seats/2/vote").json()["seats"][2]["votes"] == 1  # once
    assert bo.post(f"/api/rooms/{rid}/seats/2/vote").json()["seats"][2]["bot"] == FIRST
    # Cai may take the seat back.
    assert cai.post(f"/api/rooms/{rid}/take-back").json()["seats"][2]["bot"] is None


def test_votes_are_refused_on_yourself_by_spectators_and_on_bots(app, players, clock):
    ana, bo, cai = players[:3]
    rid = room_with(app, players, away_minutes=1)
    clock.advance(120)
    assert ana.post(f"/api/rooms/{rid}/seats/0/vote").status_code == 409
    assert cai.post(f"/api/rooms/{rid}/seats/1/vote").status_code == 403
    assert ana.post(f"/api/rooms/{rid}/seats/7/vote").status_code == 404
    bo.post(f"/api/rooms/{rid}/hand-over")
    assert ana.post(f"/api/rooms/{rid}/seats/1/vote").status_code == 409


def test_a_move_marks_its_player_as_seen_and_resets_the_live_limit(app, players, clock):
    ana, bo = players[:2]
    rid = room_with(app, players, away_minutes=5)
    clock.advance(200)
    ana.post(f"/api/rooms/{rid}/moves", {"move": a_move(ana, rid)})
    seats = state(bo, rid)["seats"]
    assert seats[0]["last_seen"] == pytest.approx(clock.now)
    clock.advance(200)  # 400 s since the start, 200 s since Ana's move
    assert not state(bo, rid)["seats"][0]["overdue"]
    assert state(ana, rid)["seats"][1]["overdue"]


def test_turn_based_votes_open_after_the_per_move_time_for_the_seat_it_waits_for(
        app, players, clock):
    ana, bo = players[:2]
    rid = room_with(app, players, pace="turn", move_hours=24)
    body = state(bo, rid)
    assert body["pace"] == "turn" and body["deadline"] == pytest.approx(clock.now + 86400,
                                                                        abs=1)
    clock.advance(23 * 3600)
    assert bo.post(f"/api/rooms/{rid}/seats/0/vote").status_code == 409
    clock.advance(2 * 3600)
    assert not state(ana, rid)["seats"][1]["overdue"], "the game does not wait for Bo"
    assert bo.post(f"/api/rooms/{rid}/seats/0/vote").json()["seats"][0]["bot"] == FIRST


# -- clocks ---------------------------------------------------------------------------------------


def test_clocks_run_for_the_active_seat_and_gain_the_increment_once_per_turn(
        app, players, clock):
    """The increment is added when the turn passes on, not for each move of the turn: an
    Arboretum turn is two draws, a play and a discard (four moves), one increment."""
    ana, bo = players[:2]
    rid = room_with(app, players, clock={"minutes": 1, "increment": 5, "on_timeout": "bot"})
    body = state(ana, rid)
    assert body["clocks"]["left"] == [60, 60] and body["clocks"]["running"] == [0]
    clock.advance(10)
    assert state(bo, rid)["clocks"]["left"] == [50, 60]
    ana.post(f"/api/rooms/{rid}/moves", {"move": a_move(ana, rid)})  # first draw: still Ana
    assert state(ana, rid)["clocks"]["left"][0] == pytest.approx(50)  # no increment yet
    moves = 1
    while 0 in state(ana, rid)["active_seats"]:
        clock.advance(1)
        ana.post(f"/api/rooms/{rid}/moves", {"move": a_move(ana, rid)})
        moves += 1
        if 0 in state(ana, rid)["active_seats"]:
            assert state(ana, rid)["clocks"]["left"][0] == pytest.approx(60 - 10 - (moves - 1))
    assert moves > 2
    body = state(ana, rid)
    assert body["clocks"]["running"] == [1]
    assert body["clocks"]["left"][0] == pytest.approx(60 - 10 - (moves - 1) + 5)  # once


def test_a_seat_out_of_time_is_handed_to_a_bot(app, client, players, clock):
    ana, bo = players[:2]
    rid = room_with(app, players, clock={"minutes": 1, "increment": 0, "on_timeout": "bot"})
    clock.advance(30)
    assert client.portal.call(app.state.rooms.timekeeper.check, rid) == []
    clock.advance(31)
    late = ana.post(f"/api/rooms/{rid}/moves", {"move": a_move(ana, rid)})
    assert late.status_code == 409 and "time" in late.json()["detail"]
    assert client.portal.call(app.state.rooms.timekeeper.check, rid) == [0]
    body = state(bo, rid)
    assert body["seats"][0]["bot"] == FIRST and body["clocks"]["left"][0] == 0
    wait_for(lambda: 1 in state(bo, rid)["active_seats"])  # the bot played Ana's turn


def test_a_seat_out_of_time_handed_to_a_bot_is_said_in_the_log(app, client, players, clock):
    """The log says, in each reader's words, that the time ran out and a bot took the seat;
    the line is stored with the bot's first move (it reads the same after a reload)."""
    ana, bo = players[:2]
    rid = room_with(app, players, clock={"minutes": 1, "increment": 0, "on_timeout": "bot"})
    clock.advance(61)
    assert client.portal.call(app.state.rooms.timekeeper.check, rid) == [0]
    wait_for(lambda: 1 in state(bo, rid)["active_seats"])  # the bot played Ana's turn

    def lines(player: Player, language: str = "en") -> list[str]:
        log = player.client.get(f"/api/rooms/{rid}/log",
                                headers={**player.headers, "Accept-Language": language})
        return [line["text"] for line in log.json()["events"]]

    assert lines(bo)[0] == "Time ran out for Ana; a bot took the seat."
    assert lines(ana)[0] == "Time ran out for you; a bot took the seat."
    assert lines(bo, "de")[0] != lines(bo)[0] and "Ana" in lines(bo, "de")[0]
    assert len([t for t in lines(bo) if "Time ran out" in t]) == 1  # once, not every move
    app.state.rooms.tables.forget(rid)
    assert lines(bo)[0] == "Time ran out for Ana; a bot took the seat."


def test_a_seat_out_of_time_loses_when_the_room_says_so(app, client, players, clock):
    ana, bo = players[:2]
    rid = room_with(app, players, clock={"minutes": 1, "increment": 0, "on_timeout": "lose"})
    clock.advance(61)
    assert client.portal.call(app.state.rooms.timekeeper.check, rid) == [0]
    result = state(bo, rid)["result"]
    assert result["ranking"] == [1, 0] and result["winners"] == [1]
    assert "ran out of time" in result["headline"]
    assert bo.post(f"/api/rooms/{rid}/moves", {"move": {"type": "draw", "source": "deck"}}
                   ).status_code == 409
    assert ana.get(f"/api/rooms/{rid}").json()["status"] == "finished"
    app.state.rooms.tables.forget(rid)  # the forfeit is stored
    assert state(bo, rid)["result"]["winners"] == [1]


def test_a_clean_restart_pauses_the_clocks_and_charges_nothing_for_the_downtime(settings):
    from fastapi.testclient import TestClient

    from app.main import create_app

    fake = FakeClock()
    first = create_app(settings)
    first.state.rooms.clock = fake
    with TestClient(first) as client:
        people = [Player(client, name) for name in ("Ana", "Bo")]
        rid = room_with(first, people, clock={"minutes": 10, "increment": 0,
                                              "on_timeout": "bot"})
        fake.advance(100)
    fake.advance(3600)  # the server is down for an hour
    second = create_app(settings)
    second.state.rooms.clock = fake
    with TestClient(second) as client:
        ana = Player(client, "Cai")
        left = ana.get(f"/api/rooms/{rid}/state").json()["clocks"]["left"]
        assert left == [500, 600]
        fake.advance(20)
        assert ana.get(f"/api/rooms/{rid}/state").json()["clocks"]["left"] == [480, 600]


def test_in_a_simultaneous_phase_every_active_seats_clock_runs(app, players, clock):
    from tests.api.test_evergreen_simultaneous import first_step, to_act_phase

    ana, bo = players[:2]
    rid = room_with(app, players, game="evergreen",
                    clock={"minutes": 5, "increment": 0, "on_timeout": "bot"})
    to_act_phase(players, rid)  # the picks take no time on the fake clock
    body = state(ana, rid)
    assert body["active_seats"] == [0, 1] and body["clocks"]["running"] == [0, 1]
    clock.advance(30)
    ana.post(f"/api/rooms/{rid}/moves", {"move": first_step(ana, rid)})
    clock.advance(10)
    left = state(bo, rid)["clocks"]["left"]
    assert left == [260, 260]  # both ran for 40 s: a step does not stop Ana's clock
