"""Crash safety: the real server is SIGKILLed at random moments while several clients play
Arboretum in a few rooms, through REST and websockets at once, and restarted on the same SQLite
file each time.

Checked at every kill, on the dead server's database file:

- every move whose answer reached a client (REST 200, websocket ack) is in the move table, at
  the version the client was told, for the seat that played it;
- the move table is seq 1..V without a gap, and setup(seed) + the moves replays to the stored
  snapshot (and result, finished flag, room status).

Checked after every restart: ``GET /state`` of every seat and of a spectator equals the view of
the replayed state. Websocket clients reconnect and resync by version: the patch from their
last version, applied to their last view, gives the replayed view at the patch's version (and
the REST view when the game has not moved since). A bot resumes its turns after each restart.
At the end, every game has been played to its result and made progress across the restarts.
"""

from __future__ import annotations

import contextlib
import itertools
import json
import random
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import jsonpatch
import pytest
from websockets.exceptions import WebSocketException
from websockets.sync.client import connect

from app.games.registry import get_game
from tests.hardening.support import (
    Client,
    Server,
    canonical,
    check_stored,
    expected_state_body,
    new_room,
    read_games,
    replay,
)

CYCLES = 20
#: Who plays each seat of each room (and one more room: a REST player and a bot).
LAYOUT = (("rest", "ws"), ("ws", "rest"), ("rest", "ws", "ws"))
#: Seconds a client rests after a move while the server is being killed (so the games last
#: through the kills); none once the kills are over.
PACE = 0.1


@dataclass
class Ack:
    room: int
    seq: int
    seat: int
    move: Any
    via: str


@dataclass
class World:
    db: Path
    go: threading.Event = field(default_factory=threading.Event)
    stop: threading.Event = field(default_factory=threading.Event)
    lock: threading.Lock = field(default_factory=threading.Lock)
    acks: list[Ack] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    resyncs: int = 0
    rest_matches: int = 0
    pace: float = PACE

    def ack(self, ack: Ack) -> None:
        with self.lock:
            self.acks.append(ack)

    def error(self, text: str) -> None:
        with self.lock:
            self.errors.append(text)

    def count(self, name: str) -> None:
        with self.lock:
            setattr(self, name, getattr(self, name) + 1)


class RestPlayer:
    """Lists its legal moves, plays one at random with ``expected_version``; retries while the
    server is down."""

    def __init__(self, world: World, client: Client, room: int, seat: int, seed: int) -> None:
        self.world, self.client, self.room, self.seat = world, client, room, seat
        self.rng = random.Random(seed)

    def run(self) -> None:
        world, rid = self.world, self.room
        with self.client.fresh() as http:
            while not world.stop.is_set():
                if not world.go.wait(0.5):
                    continue
                try:
                    listed = http.get(f"/api/rooms/{rid}/moves")
                    if listed.status_code != 200:
                        world.error(f"GET moves: {listed.status_code} {listed.text[:200]}")
                        return
                    body = listed.json()
                    if not body["moves"]:
                        if http.get(f"/api/rooms/{rid}/state").json()["result"] is not None:
                            return  # the game is over
                        time.sleep(0.02)
                        continue
                    move, version = self.rng.choice(body["moves"]), body["version"]
                    answer = http.post(f"/api/rooms/{rid}/moves",
                                       json={"move": move, "expected_version": version})
                    if answer.status_code == 200:
                        self.world.ack(Ack(rid, version + 1, self.seat, move, "rest"))
                        if answer.json()["version"] < version + 1:
                            world.error(f"REST answer older than the move: {answer.text[:200]}")
                    elif answer.status_code != 409:  # a legal move at V is legal at V
                        world.error(f"POST move: {answer.status_code} {answer.text[:200]}")
                    time.sleep(world.pace)
                except httpx.TransportError:  # the server is down (killed): try again
                    time.sleep(0.05)


class SocketPlayer:
    """Plays through the JSON websocket and keeps its view from the snapshot and the patches;
    after every reconnection it resyncs from the last version it had."""

    def __init__(self, world: World, server: Server, client: Client, room: int, seat: int,
                 seed: int) -> None:
        self.world, self.server, self.client = world, server, client
        self.room, self.seat = room, seat
        self.rng = random.Random(seed)
        self.views: dict[int, Any] = {}  # version -> this seat's view at that version
        self.version: int | None = None
        self.active: list[int] = []
        self.result: Any = None

    # -- messages ------------------------------------------------------------------------

    def take(self, message: dict[str, Any]) -> None:
        """Fold a snapshot or patch into the known views."""
        if message["type"] == "snapshot":
            self.views[message["version"]] = message["view"]
            to = message["version"]
        elif message["type"] == "patch":
            base = self.views.get(message["from"])
            if base is None:
                self.world.error(f"patch from unknown version {message['from']}")
                return
            self.views[message["to"]] = jsonpatch.apply_patch(base, message["ops"])
            to = message["to"]
        else:
            return
        if self.version is None or to >= self.version:
            self.version, self.active = to, message["active_seats"]
            self.result = message["result"]
        for old in sorted(self.views)[:-12]:  # keep a few recent versions only
            del self.views[old]

    def receive(self, ws: Any, timeout: float) -> dict[str, Any]:
        message: dict[str, Any] = json.loads(ws.recv(timeout=timeout))
        self.take(message)
        return message

    # -- the checks ------------------------------------------------------------------------

    def resync(self, ws: Any, http: httpx.Client, since: int, old_view: Any) -> None:
        """Ask for the patch from ``since``: applied to the old view, it must give the view of
        the replayed game at the patch's version, and the REST view if nothing moved since."""
        ws.send(json.dumps({"type": "resync", "since": since}))
        deadline = time.monotonic() + 5
        while time.monotonic() < deadline:
            message = json.loads(ws.recv(timeout=5))
            if message["type"] == "patch" and message["from"] == since:
                break  # (a notification patch from ``since`` is as good a test)
            self.take(message)
        else:
            self.world.error("no resync patch")
            return
        rebuilt = jsonpatch.apply_patch(old_view, message["ops"])
        self.take({**message, "type": "patch"})
        to = message["to"]
        stored = read_games(self.world.db)[self.room]
        game = get_game(stored.game_id)
        expected = canonical(game.view(replay(stored, upto=to), self.seat))
        if rebuilt != expected:
            self.world.error(f"room {self.room} seat {self.seat}: resync {since}->{to} does "
                             "not rebuild the replayed view")
        rest = http.get(f"/api/rooms/{self.room}/state").json()
        if rest["version"] == to:
            if rest["view"] != rebuilt:
                self.world.error(f"resync {since}->{to} differs from the REST view")
            self.world.count("rest_matches")
        self.world.count("resyncs")

    # -- the loop ----------------------------------------------------------------------------

    def run(self) -> None:
        world = self.world
        url = f"{self.server.ws_base}/ws/rooms/{self.room}?token={self.client.token}"
        with self.client.fresh() as http:
            while not world.stop.is_set() and self.result is None:
                if not world.go.wait(0.5):
                    continue
                try:
                    with connect(url, open_timeout=3, close_timeout=0.2) as ws:
                        self.session(ws, http)
                except (WebSocketException, OSError, TimeoutError, httpx.TransportError):
                    time.sleep(0.05)  # killed: reconnect once it is back

    def session(self, ws: Any, http: httpx.Client) -> None:
        world = self.world
        first = json.loads(ws.recv(timeout=5))
        if first["type"] != "snapshot":
            world.error(f"first message is not a snapshot: {first}")
            return
        since = self.version
        old_view = self.views.get(since) if since is not None else None
        if since is not None and first["version"] < since:
            world.error(f"the server went back from version {since} to {first['version']}")
        self.take(first)
        if since is not None and old_view is not None:
            self.resync(ws, http, since, old_view)
        while not world.stop.is_set() and self.result is None:
            if self.seat not in self.active:
                with contextlib.suppress(TimeoutError):
                    self.receive(ws, 0.2)
                continue
            answer = http.get(f"/api/rooms/{self.room}/moves")
            if answer.status_code != 200:
                world.error(f"GET moves: {answer.status_code} {answer.text[:200]}")
                return
            listed = answer.json()
            if not listed["moves"]:
                self.receive(ws, 0.2)
                continue
            move, version = self.rng.choice(listed["moves"]), listed["version"]
            ws.send(json.dumps({"type": "move", "move": move, "expected_version": version}))
            while True:
                message = self.receive(ws, 5)
                if message["type"] == "ack":
                    world.ack(Ack(self.room, message["version"], self.seat, move, "ws"))
                    if message["version"] != version + 1:
                        world.error(f"ack {message} for a move at version {version}")
                    break
                if message["type"] == "error":
                    if message["status"] != 409:
                        world.error(f"move refused: {message}")
                    break
            time.sleep(world.pace)


def check_database(world: World) -> dict[int, Any]:
    """The acked moves are stored and every game replays to its snapshot; the stored games."""
    stored = read_games(world.db)
    for game in stored.values():
        check_stored(game)
    with world.lock:
        acks = list(world.acks)
    for ack in acks:
        moves = {seq: (seat, move) for seq, seat, move in stored[ack.room].moves}
        assert moves.get(ack.seq) == (ack.seat, ack.move), \
            f"acknowledged move lost or changed: {ack} (stored: {moves.get(ack.seq)})"
    told = [(ack.room, ack.seq) for ack in acks]
    assert len(told) == len(set(told)), "two clients were told their move made the same version"
    return stored


def check_rest(world: World, seats: dict[int, list[Client]], spectator: Client) -> None:
    """GET /state of every seat (and a spectator) equals the replayed game. The clients are
    paused, but a request already under way may land in between: read both again then."""
    for attempt in range(5):
        stored = read_games(world.db)
        states = {rid: check_stored(game) for rid, game in stored.items()}
        mismatches = []
        for rid, clients in seats.items():
            for seat, who in [*enumerate(clients), (None, spectator)]:
                body = who.get(f"/api/rooms/{rid}/state").json()
                for seating in ("seats", "pace", "deadline", "clocks", "rematch_id",
                                "rules_version"):  # the table, not the game
                    body.pop(seating, None)
                if body != expected_state_body(stored[rid], states[rid], seat):
                    mismatches.append((rid, seat, body.get("version"), stored[rid].version))
        if not mismatches:
            return
        time.sleep(0.1 * (attempt + 1))
    raise AssertionError(f"GET /state differs from the replayed game: {mismatches}")


@pytest.mark.timeout(150)
def test_sigkill_at_random_moments_loses_no_acknowledged_move(tmp_path: Path) -> None:
    rng = random.Random(20240607)
    server = Server(tmp_path / "crash.db", prewarm=True, WS_RATE="1000")
    world = World(db=server.db)
    server.start()
    threads: list[threading.Thread] = []
    try:
        spectator = Client.create(server.base, "Watcher")
        seats: dict[int, list[Client]] = {}
        players: list[Any] = []
        for r, kinds in enumerate(LAYOUT):
            clients = [Client.create(server.base, f"R{r}S{s}") for s in range(len(kinds))]
            rid = new_room(clients[0], clients[1:])
            seats[rid] = clients
            for seat, (kind, client) in enumerate(zip(kinds, clients, strict=True)):
                seed = rng.randrange(1 << 30)
                players.append(RestPlayer(world, client, rid, seat, seed) if kind == "rest"
                               else SocketPlayer(world, server, client, rid, seat, seed))
        # A room with a bot: after every restart the bot must take its turns again.
        host = Client.create(server.base, "Host")
        rid = host.post("/api/rooms", {"game": "arboretum", "players": 2}).json()["id"]
        assert host.post(f"/api/rooms/{rid}/bots", {"seat": 1, "level": "random"}).is_success
        assert host.post(f"/api/rooms/{rid}/start").is_success
        seats[rid] = [host]
        players.append(RestPlayer(world, host, rid, 0, rng.randrange(1 << 30)))
        threads = [threading.Thread(target=p.run, daemon=True) for p in players]
        for t in threads:
            t.start()
        world.go.set()

        progress = []
        for _ in range(CYCLES):
            time.sleep(rng.uniform(0.15, 0.9))
            server.kill()
            world.go.clear()
            stored = check_database(world)
            progress.append(sum(game.version for game in stored.values()))
            server.start()
            check_rest(world, seats, spectator)
            world.go.set()
            assert not world.errors, world.errors[:5]

        world.pace = 0.0  # the kills are over: play every game to its end
        deadline = time.monotonic() + 60
        for t in threads:
            t.join(max(0.1, deadline - time.monotonic()))
        assert not any(t.is_alive() for t in threads), "a game did not reach its end"
        assert not world.errors, world.errors[:5]

        final = check_database(world)
        assert all(game.finished for game in final.values()), "every game resumes to its end"
        check_rest(world, seats, spectator)
        # The games moved on between the kills (not all played out before the first ones) …
        advanced = sum(b > a for a, b in itertools.pairwise(progress))
        assert advanced >= CYCLES * 2 // 3, progress
        # … through both channels, and the sockets resynced after the restarts.
        vias = {ack.via for ack in world.acks}
        assert vias == {"rest", "ws"}, vias
        assert world.resyncs >= CYCLES, world.resyncs
        assert world.rest_matches >= 1
        assert server.starts == CYCLES + 1
    finally:
        world.stop.set()
        world.go.set()
        for t in threads:
            t.join(5)
        server.stop()
