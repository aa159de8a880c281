"""Several real server processes, one truth (issue 13): ``uvicorn`` processes on one PostgreSQL
database and one Redis, both real servers (tests/engines.py). The players of one room hold
their sockets on different processes; moves race across processes; one process is killed
with SIGKILL in the middle of play.
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Iterator
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import httpx
import jsonpatch
import pytest
from websockets.sync.client import ClientConnection, connect

from app.db import make_engine
from tests.hardening.support import (
    Client,
    Server,
    bearer,
    check_stored,
    new_room,
    read_games,
)

pytestmark = pytest.mark.timeout(240)

#: The processes' periods: the resync sweep, and the lease's retry.
FAST = {"RESYNC_SECONDS": "0.5", "LEASE_SECONDS": "0.3", "BOT_DELAY": "0"}


def start_servers(tmp_path: Path, database_url: str, redis_url: str, count: int,
                  **env: str) -> list[Server]:
    """``count`` processes on the database and Redis, started one after the other (the first
    takes the lease of bots and clocks)."""
    servers = []
    for index in range(count):
        server = Server(tmp_path / f"process{index}.db", access_log=False,
                        DATABASE_URL=database_url, BROADCAST_URL=redis_url, **{**FAST, **env})
        server.start(timeout=60)
        servers.append(server)
    return servers


@pytest.fixture
def processes(tmp_path: Path, shared_database: str, redis_url: str) -> Iterator[list[Server]]:
    servers = start_servers(tmp_path, shared_database, redis_url, 2)
    try:
        yield servers
    finally:
        for server in servers:
            server.stop()


class Socket:
    """A player's JSON socket on one process, keeping the view its patches build."""

    def __init__(self, server: Server, rid: int, token: str) -> None:
        self.stack = ExitStack()
        self.ws: ClientConnection = self.stack.enter_context(
            connect(f"{server.ws_base}/ws/rooms/{rid}?token={token}", open_timeout=10))
        self.view: Any = None
        self.version = -1
        self.until(lambda message: message["type"] == "snapshot")

    def take(self, message: dict[str, Any]) -> None:
        if message["type"] == "snapshot":
            self.view, self.version = message["view"], message["version"]
        elif message["type"] == "patch":
            assert message["from"] == self.version, \
                f"a patch from {message['from']} reached a view at {self.version}"
            self.view = jsonpatch.apply_patch(self.view, message["ops"])
            self.version = message["to"]

    def until(self, done: Any, seconds: float = 15.0) -> dict[str, Any]:
        deadline = time.monotonic() + seconds
        while True:
            message = json.loads(self.ws.recv(timeout=max(0.01, deadline - time.monotonic())))
            self.take(message)
            if done(message):
                return message

    def reach(self, version: int, seconds: float = 15.0) -> None:
        if self.version < version:
            self.until(lambda _: self.version >= version, seconds)

    def close(self) -> None:
        self.stack.close()


def on(player: Client, server: Server) -> httpx.Client:
    """The player's requests, sent to ``server``."""
    return httpx.Client(base_url=server.base, headers=bearer(player.token), timeout=10)


def play_one(player: Client, rid: int) -> int:
    """The first legal move of ``player`` (whose turn it is), over REST; the new version."""
    moves = player.get(f"/api/rooms/{rid}/moves").json()
    played = player.post(f"/api/rooms/{rid}/moves",
                         {"move": moves["moves"][0], "expected_version": moves["version"]})
    assert played.status_code == 200, played.text
    return int(played.json()["version"])


def whose_turn(player: Client, rid: int) -> int:
    return int(player.get(f"/api/rooms/{rid}/state").json()["active_seats"][0])


def test_two_processes_play_one_game_with_seats_on_both(processes: list[Server]) -> None:
    """Ana plays through one process, Bo through the other: every move of either reaches both
    sockets as a chain of patches, and each socket's view equals what the *other* process
    answers for that seat at that version."""
    one, two = processes
    ana, bo = Client.create(one.base, "Ana"), Client.create(two.base, "Bo")
    rid = new_room(ana, [bo])
    sockets = [Socket(one, rid, ana.token), Socket(two, rid, bo.token)]
    people, via_other = [ana, bo], [on(ana, two), on(bo, one)]
    views_checked, version = 0, 0
    try:
        while True:
            state = ana.get(f"/api/rooms/{rid}/state").json()
            if state["result"] is not None:
                break
            version = play_one(people[state["active_seats"][0]], rid)
            for socket in sockets:  # both processes have heard of the move (Redis: async)
                socket.reach(version)
            for seat, socket in enumerate(sockets):
                answer = via_other[seat].get(f"/api/rooms/{rid}/state").json()
                assert answer["version"] == version
                assert socket.view == answer["view"], f"seat {seat} at version {version}"
                views_checked += 1
    finally:
        for socket in sockets:
            socket.close()
    assert version > 50 and views_checked == 2 * version
    engine = make_engine(str(one.env["DATABASE_URL"]))
    try:
        check_stored(read_games(engine)[rid])
    finally:
        engine.dispose()


def send_at_once(go: threading.Barrier, http: httpx.Client, rid: int, body: dict[str, Any],
                 answers: list[int]) -> None:
    go.wait()
    answers.append(http.post(f"/api/rooms/{rid}/moves", json=body).status_code)


def test_conflicting_moves_from_two_processes_one_wins_per_version(
        processes: list[Server]) -> None:
    """The same move for the same version sent through both processes at once, 30 times:
    exactly one is taken each time, the other is refused with 409, and the stored game is
    the move log replayed."""
    one, two = processes
    ana, bo = Client.create(one.base, "Ana"), Client.create(two.base, "Bo")
    rid = new_room(ana, [bo])
    people = [ana, bo]
    for _ in range(30):
        mover = people[whose_turn(ana, rid)]
        moves = mover.get(f"/api/rooms/{rid}/moves").json()
        body = {"move": moves["moves"][0], "expected_version": moves["version"]}
        clients = [on(mover, one), on(mover, two)]
        answers: list[int] = []
        go = threading.Barrier(2)
        threads = [threading.Thread(target=send_at_once, args=(go, http, rid, body, answers))
                   for http in clients]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(30)
        assert sorted(answers) == [200, 409], answers
        for http in clients:
            http.close()
    engine = make_engine(str(one.env["DATABASE_URL"]))
    try:
        stored = read_games(engine)[rid]
        assert stored.version == 30
        check_stored(stored)
    finally:
        engine.dispose()


def test_sigkill_of_one_process_under_load_loses_no_acknowledged_move(
        tmp_path: Path, shared_database: str, redis_url: str) -> None:
    """Four rooms are played through both processes at once, a bot game runs beside them, and
    the process that started first (holding the bots' lease) is killed with SIGKILL in the
    middle. Every acknowledged move is stored; the sockets of the dead process reconnect to
    the other one and resync to the present; the bots go on in the survivor; play goes on."""
    first, second = start_servers(tmp_path, shared_database, redis_url, 2, BOT_DELAY="0.05")
    try:
        host = Client.create(second.base, "Host")
        bot_room = host.post("/api/rooms", {"game": "arboretum", "players": 2}).json()["id"]
        assert host.post(f"/api/rooms/{bot_room}/bots", {}).status_code == 200
        assert host.post(f"/api/rooms/{bot_room}/start").status_code == 200
        assert host.post(f"/api/rooms/{bot_room}/hand-over", {}).status_code == 200
        rooms = []
        for r in range(4):
            ana, bo = Client.create(first.base, f"Ana{r}"), Client.create(second.base, f"Bo{r}")
            rooms.append((new_room(ana, [bo]), [ana, bo]))
        # Bo's socket of each room on the process to be killed, Ana's on the survivor.
        sockets = {rid: Socket(first, rid, people[1].token) for rid, people in rooms}
        acknowledged: dict[int, int] = {rid: 0 for rid, _ in rooms}
        killed = threading.Event()

        def play(rid: int, people: list[Client]) -> None:
            survivors = [on(p, second) for p in people]
            for turn in range(400):
                if killed.is_set() and turn > 60:
                    return
                clients = survivors if killed.is_set() else [p.http for p in people]
                try:
                    seat = int(clients[0].get(f"/api/rooms/{rid}/state").json()
                               ["active_seats"][0])
                    moves = clients[seat].get(f"/api/rooms/{rid}/moves").json()
                    answer = clients[seat].post(
                        f"/api/rooms/{rid}/moves",
                        json={"move": moves["moves"][0], "expected_version": moves["version"]})
                except Exception:  # the process died under this request: not acknowledged
                    continue
                if answer.status_code == 200:
                    acknowledged[rid] = max(acknowledged[rid], answer.json()["version"])

        threads = [threading.Thread(target=play, args=room) for room in rooms]
        for thread in threads:
            thread.start()
        time.sleep(1.5)
        assert host.get(f"/api/rooms/{bot_room}/state").json()["result"] is None
        first.kill()
        killed.set()
        for thread in threads:
            thread.join(120)
        assert all(v > 20 for v in acknowledged.values()), acknowledged

        # The dead process's sockets come back on the survivor and catch up.
        for rid, people in rooms:
            sockets[rid].close()
            back = Socket(second, rid, people[1].token)
            try:
                assert back.version >= acknowledged[rid]
                assert back.view == on(people[1], second).get(
                    f"/api/rooms/{rid}/state").json()["view"]
            finally:
                back.close()

        # The bots' game ends in the survivor, which took over the lease.
        deadline = time.monotonic() + 60
        while host.get(f"/api/rooms/{bot_room}/state").json()["result"] is None:
            assert time.monotonic() < deadline, "the bots stopped with the process"
            time.sleep(0.2)

        engine = make_engine(shared_database)
        try:
            stored = read_games(engine)
        finally:
            engine.dispose()
        for rid, version in acknowledged.items():
            assert stored[rid].version >= version, f"room {rid} lost acknowledged moves"
            check_stored(stored[rid])
        check_stored(stored[bot_room])
    finally:
        for server in (first, second):
            server.stop()
