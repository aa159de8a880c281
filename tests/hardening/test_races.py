"""Races: many clients act on the same room at the same moment — through REST and websockets,
for the same seat and for different seats, with and without ``expected_version`` — against a
real uvicorn server (threads released together by a barrier), and in-process where that is the
better tool.

Every race is judged against the move table (``support.judge``): the successes are exactly the
new rows, and every refusal is the truth at the version it reports (409 stale or game over, 403
not your turn or no seat, 422 illegal with its rule). The move table stays seq 1..V and replays
to the stored snapshot. The lobby: one winner per seat, a player never holds two seats, one
start per room, no game starts with a free seat.
"""

from __future__ import annotations

import asyncio
import functools
import random
import threading
import time
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi.testclient import TestClient
from sqlmodel import Session, select
from websockets.sync.client import connect

from app.config import Settings
from app.models import Game as GameRow
from tests.conftest import Player, started_room
from tests.hardening.support import (
    Attempt,
    Client,
    Server,
    check_stored,
    judge,
    new_room,
    read_games,
    run_threads,
    send_rest,
    send_ws,
)

DRAW = {"type": "draw", "source": "deck"}


def clients(server: Server, n: int, prefix: str = "P") -> list[Client]:
    return [Client.create(server.base, f"{prefix}{i}") for i in range(n)]


def race(server: Server, room: int, attempts: list[Attempt]) -> list[Attempt]:
    """Send every attempt at the same moment, each on a connection of its own (opened, and the
    socket's snapshot read, before the barrier)."""
    barrier = threading.Barrier(len(attempts))

    def one(attempt: Attempt) -> None:
        if attempt.via == "rest":
            with attempt.client.fresh() as http:
                http.get("/healthz")
                barrier.wait(15)
                send_rest(attempt, http, room)
        else:
            url = f"{server.ws_base}/ws/rooms/{room}?token={attempt.client.token}"
            with connect(url, open_timeout=10) as ws:
                ws.recv(timeout=10)
                barrier.wait(15)
                send_ws(attempt, ws)

    run_threads([functools.partial(one, a) for a in attempts], timeout=60)
    return attempts


def state_of(client: Client, room: int) -> dict[str, Any]:
    answer = client.get(f"/api/rooms/{room}/state")
    assert answer.status_code == 200, answer.text
    body: dict[str, Any] = answer.json()
    return body


def legal(client: Client, room: int) -> tuple[int, list[dict[str, Any]]]:
    body = client.get(f"/api/rooms/{room}/moves").json()
    return body["version"], body["moves"]


def judged(server: Server, room: int, before: int, attempts: list[Attempt]) -> Any:
    stored = read_games(server.db)[room]
    check_stored(stored)
    judge(stored, before, attempts)
    return stored


# -- moves, real server ------------------------------------------------------------------------


def test_same_seat_same_version_exactly_one_wins(server: Server) -> None:
    """Ten copies of the active player (five REST, five websocket) send different legal moves
    for the same version: one is stored, the nine others get 409 with the new version."""
    ana, bo = clients(server, 2, "Same")
    seated = [ana, bo]
    rid = new_room(ana, [bo])
    rng = random.Random(1)
    for _ in range(12):
        state = state_of(ana, rid)
        version, (seat,) = state["version"], state["active_seats"]
        who = seated[seat]
        _, moves = legal(who, rid)
        attempts = [Attempt(who, seat, rng.choice(moves), version, via)
                    for via in ("rest", "ws") * 5]
        race(server, rid, attempts)
        stored = judged(server, rid, version, attempts)
        winners = [a for a in attempts if a.status == 200]
        assert len(winners) == 1 and stored.version == version + 1
        assert winners[0].version == version + 1
        for loser in attempts:
            if loser is not winners[0]:
                assert (loser.status, loser.version) == (409, version + 1), loser
                assert "stale" in loser.detail


def test_same_seat_without_expected_version_is_serialised(server: Server) -> None:
    """Without expected_version each move is judged on the game as it is when its turn comes:
    of eight "draw from the deck", exactly two succeed (two draws a turn) and six are illegal
    (422, the draw rule); of eight plays one succeeds, seven are illegal; of eight discards one
    succeeds and ends the turn, so the seven others are not this seat's turn any more (403)."""
    ana, bo = clients(server, 2, "Serial")
    rid = new_room(ana, [bo])
    vias = ("rest", "ws") * 4

    attempts = race(server, rid, [Attempt(ana, 0, DRAW, None, via) for via in vias])
    judged(server, rid, 0, attempts)
    assert sorted(a.status for a in attempts) == [200, 200] + [422] * 6
    refused = [a for a in attempts if a.status != 200]
    assert {a.version for a in refused} == {2} and len({a.rule for a in refused}) == 1

    _, plays = legal(ana, rid)
    rng = random.Random(2)
    attempts = race(server, rid, [Attempt(ana, 0, move, None, via)
                                  for move, via in zip(rng.sample(plays, 8), vias, strict=True)])
    judged(server, rid, 2, attempts)
    assert sorted(a.status for a in attempts) == [200] + [422] * 7
    assert {a.version for a in attempts if a.status == 422} == {3}

    _, discards = legal(ana, rid)
    attempts = race(server, rid, [Attempt(ana, 0, move, None, via)
                                  for move, via in zip(discards[:8], vias, strict=True)])
    judged(server, rid, 3, attempts)
    assert sorted(a.status for a in attempts) == [200] + [403] * 7
    assert {a.version for a in attempts if a.status == 403} == {4}
    assert state_of(ana, rid)["active_seats"] == [1]


def test_every_seat_and_spectators_at_once(server: Server) -> None:
    """Three seats (each through REST and a websocket) and a spectator act at once, with the
    current, a stale or no expected_version; round after round, then to the end of the game and
    beyond it. Every answer is the truth for the serial order the move table shows."""
    seated = clients(server, 3, "All")
    watcher = Client.create(server.base, "Watcher")
    rid = new_room(seated[0], seated[1:])
    rng = random.Random(3)
    winners_at_version = 0

    def one_round() -> dict[str, Any]:
        nonlocal winners_at_version
        state = state_of(seated[0], rid)
        version = state["version"]
        attempts = []
        for seat, who in enumerate(seated):
            _, moves = legal(who, rid)
            for via in ("rest", "ws"):
                move = rng.choice(moves) if moves else rng.choice(
                    [DRAW, {"type": "draw", "source": seat}, {"type": "discard",
                                                             "card": ["oak", 1]}])
                expected = rng.choice([version, version, None, max(0, version - 1)])
                attempts.append(Attempt(who, seat, move, expected, via))
        attempts += [Attempt(watcher, None, DRAW, rng.choice([version, None]), via)
                     for via in ("rest", "ws")]
        race(server, rid, attempts)
        stored = judged(server, rid, version, attempts)
        current = [a for a in attempts if a.status == 200 and a.expected == version]
        assert len(current) <= 1, "two moves were accepted for the same expected version"
        winners_at_version += len(current)
        return {"version": stored.version, "finished": stored.finished}

    for _ in range(10):
        one_round()
    assert winners_at_version >= 3, "the active seat won some races"
    # Fast-forward close to the end (one player at a time), then race to the end and past it.
    for _ in range(400):
        state = state_of(seated[0], rid)
        if state["view"]["deck_count"] <= 3 or state["result"] is not None:
            break
        (seat,) = state["active_seats"]
        version, moves = legal(seated[seat], rid)
        answer = seated[seat].post(f"/api/rooms/{rid}/moves",
                                   {"move": rng.choice(moves), "expected_version": version})
        assert answer.status_code == 200, answer.text
    for _ in range(60):
        if one_round()["finished"]:
            break
    else:
        raise AssertionError("the game did not end")
    after = one_round()  # everyone is refused now: 409 game over, 403 for the spectator
    assert after["finished"]
    assert seated[0].get(f"/api/rooms/{rid}").json()["status"] == "finished"


# -- the lobby, real server ----------------------------------------------------------------------


def post_all(calls: list[tuple[Client, str, Any]]) -> list[httpx.Response]:
    """POST every (client, path, json) at the same moment."""
    barrier = threading.Barrier(len(calls))
    answers: list[Any] = [None] * len(calls)

    def one(index: int) -> None:
        who, path, body = calls[index]
        with who.fresh() as http:
            http.get("/healthz")
            barrier.wait(15)
            answers[index] = http.post(path, json=body)

    run_threads([functools.partial(one, i) for i in range(len(calls))])
    return answers


def seats_of(client: Client, room: int) -> list[dict[str, Any]]:
    seats: list[dict[str, Any]] = client.get(f"/api/rooms/{room}").json()["seats"]
    return seats


def test_concurrent_joins_of_one_seat_one_wins(server: Server) -> None:
    people = clients(server, 7, "Join")
    for round_ in range(4):
        owner = people[0]
        rid = owner.post("/api/rooms", {"game": "arboretum", "players": 4}).json()["id"]
        calls = [(p, f"/api/rooms/{rid}/join", {"seat": 2}) for p in people[1:]]
        calls.append((owner, f"/api/rooms/{rid}/bots", {"seat": 2}))  # a bot wants it too
        answers = post_all(calls)
        statuses = sorted(a.status_code for a in answers)
        assert statuses == [200] + [409] * 6, (round_, [(a.status_code, a.text) for a in answers])
        assert all("taken" in a.json()["detail"] for a in answers if a.status_code == 409)
        winner = next(i for i, a in enumerate(answers) if a.status_code == 200)
        seat = seats_of(owner, rid)[2]
        if winner == len(people) - 1:
            assert seat["bot"] == "bot" and seat["player"] is None
        else:
            assert seat["player"]["id"] == people[1 + winner].id


def test_a_player_never_holds_two_seats(server: Server) -> None:
    """The same player joins three seats (and the first free one) at once: one join wins.
    Without the room lock both checks passed and the player sat twice; the second seat could
    never move (``seat_of`` finds the first), so the game stalled there for ever."""
    owner, bo = clients(server, 2, "Twice")
    for _ in range(15):
        rid = owner.post("/api/rooms", {"game": "arboretum", "players": 4}).json()["id"]
        answers = post_all([(bo, f"/api/rooms/{rid}/join", body)
                            for body in ({"seat": 1}, {"seat": 2}, {"seat": 3}, {})])
        assert sorted(a.status_code for a in answers) == [200, 409, 409, 409], \
            [a.text for a in answers]
        mine = [s["index"] for s in seats_of(owner, rid)
                if s["player"] and s["player"]["id"] == bo.id]
        assert len(mine) == 1, f"Bo holds seats {mine}"


def test_concurrent_joins_of_any_seat_all_fit(server: Server) -> None:
    """Three people join "the first free seat" of a room with three free seats at once: each
    gets a seat of their own (before, two of them picked the same seat and one got a 409)."""
    people = clients(server, 4, "Any")
    for _ in range(5):
        rid = people[0].post("/api/rooms", {"game": "arboretum", "players": 4}).json()["id"]
        answers = post_all([(p, f"/api/rooms/{rid}/join", None) for p in people[1:]])
        assert [a.status_code for a in answers] == [200] * 3, [a.text for a in answers]
        taken = [s["player"]["id"] for s in seats_of(people[0], rid) if s["player"]]
        assert sorted(taken) == sorted(p.id for p in people)


def test_concurrent_starts_deal_one_game(server: Server) -> None:
    people = clients(server, 4, "Start")
    for _ in range(4):
        rid = new_room(people[0], people[1:], start=False)
        host = people[0]  # only the host starts; four starts of hers race
        answers = post_all([(c, f"/api/rooms/{rid}/start", None)
                            for c in (host, *(Client(host.base, host.id, host.name, host.token,
                                                     host.fresh()) for _ in range(3)))])
        assert sorted(a.status_code for a in answers) == [200, 409, 409, 409]
        assert all("started" in a.json()["detail"] for a in answers if a.status_code == 409)
        games = read_games(server.db)
        assert games[rid].version == 0 and games[rid].room_status == "playing"
        state = people[0].get(f"/api/rooms/{rid}/state").json()
        assert state["version"] == 0 and state["active_seats"] == [0]


def test_a_game_never_starts_with_a_free_seat(server: Server) -> None:
    """Start and leave at the same moment: one of them wins. Before the room lock both could
    succeed, and the game was dealt with an empty seat nobody could ever play for."""
    people = clients(server, 3, "Leave")
    outcomes = set()
    for _ in range(20):
        rid = new_room(people[0], people[1:], start=False)
        start, leave = post_all([(people[0], f"/api/rooms/{rid}/start", None),
                                 (people[2], f"/api/rooms/{rid}/leave", None)])
        outcome = (start.status_code, leave.status_code)
        assert outcome in ((200, 409), (409, 200)), (start.text, leave.text)
        outcomes.add(outcome)
        room = people[0].get(f"/api/rooms/{rid}").json()
        free = [s["index"] for s in room["seats"] if s["free"]]
        assert (room["status"], free) in (("playing", []), ("lobby", [2]))
    assert outcomes, outcomes


# -- in-process ------------------------------------------------------------------------------------


def db_path(settings: Settings) -> Path:
    return Path(settings.database_url.split("///", 1)[1])


def test_testclient_threads_race_for_one_version(client: TestClient, players: list[Player],
                                                  settings: Settings) -> None:
    """The same race through the in-process app (TestClient from threads): one winner."""
    ana = players[0]
    rid = started_room(players)
    for version in range(4):
        barrier = threading.Barrier(8)
        answers: list[Any] = [None] * 8
        moves = ana.get(f"/api/rooms/{rid}/moves").json()["moves"]

        def one(i: int, moves: list[Any] = moves, barrier: Any = barrier,
                answers: list[Any] = answers, version: int = version) -> None:
            barrier.wait(10)
            answers[i] = client.post(f"/api/rooms/{rid}/moves", headers=ana.headers,
                                     json={"move": moves[i % len(moves)],
                                           "expected_version": version})

        run_threads([functools.partial(one, i) for i in range(8)])
        assert sorted(a.status_code for a in answers) == [200] + [409] * 7
        assert {a.json()["version"] for a in answers} == {version + 1}
    stored = read_games(db_path(settings))[rid]
    check_stored(stored)
    assert stored.version == 4


def test_a_move_whose_caller_is_cancelled_still_completes(client: TestClient,
                                                           players: list[Player],
                                                           settings: Settings) -> None:
    """A socket that closes while its move is being saved cancels the task that sent it. The
    commit went through, but the cache, the subscribers and the bots never heard of it: GET
    /state stayed at the old version and the next move got a 409 "another move was saved
    first". Now a move, once begun, runs to its end."""
    ana, bo = players[:2]
    rid = started_room(players)
    store = client.app.state.rooms.store  # type: ignore[attr-defined]
    rooms = client.app.state.rooms  # type: ignore[attr-defined]
    write = store._write

    def slow_write(*args: Any) -> None:
        time.sleep(0.3)
        write(*args)

    store._write = slow_write
    try:
        with client.websocket_connect(f"/ws/rooms/{rid}?token={bo.token}") as watcher:
            assert watcher.receive_json()["version"] == 0

            async def move_then_cancel() -> None:
                task = asyncio.ensure_future(rooms.play(rid, ana.id, DRAW, 0))
                await asyncio.sleep(0.1)  # the commit is under way
                task.cancel()
                with pytest.raises(asyncio.CancelledError):
                    await task
                await asyncio.sleep(0.5)  # the commit has finished

            client.portal.call(move_then_cancel)  # type: ignore[union-attr]
            with Session(client.app.state.engine) as session:  # type: ignore[attr-defined]
                row = session.exec(select(GameRow).where(GameRow.room_id == rid)).one()
                assert row.version == 1, "the move was committed"
            assert ana.get(f"/api/rooms/{rid}/state").json()["version"] == 1, \
                "the room shows the committed move"
            patch = watcher.receive_json()  # and the other players heard of it
            assert (patch["type"], patch["from"], patch["to"]) == ("patch", 0, 1)
    finally:
        store._write = write
    again = ana.post(f"/api/rooms/{rid}/moves", {"move": DRAW, "expected_version": 1})
    assert again.status_code == 200, again.text
    check_stored(read_games(db_path(settings))[rid])
