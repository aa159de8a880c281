"""Load benchmark: the real server under N rooms x 4 seats of Arboretum or Evergreen, over the
public API.

    .venv/bin/python bench/load.py --mode closed --rooms 20
    .venv/bin/python bench/load.py --mode open --rooms 500
    .venv/bin/python bench/load.py --mode open --rooms 500 --baseline   # bench/baseline_app.py
    .venv/bin/python bench/load.py --game evergreen --mode closed --rooms 20

This process starts the server (``uvicorn --factory app.main:app_factory``, a fresh SQLite file
in a temporary folder, BOT_DELAY=0, WS_RATE high) pinned to CPU 0 with ``taskset -c 0`` and pins
itself to CPU 1: it is the load generator. For every room slot it creates 4 players, a room,
3 joins and the start over REST, then opens one websocket per seat (``/ws/rooms/{id}?token=``).

Every seat keeps its own view: the snapshot, then every patch applied to it (RFC 6902, applied
here), and the ``active_seats`` of the last message. A seat that moves chooses a uniformly
random legal move computed client-side from its own view (no GET /moves, whose server CPU is
not part of a move) and sends ``{"type": "move", "move", "expected_version"}``.

``--game arboretum`` (the default): one seat moves at a time, the one whose turn it is.

- ``--mode closed``: each room sends its next move once all 4 seats hold the previous patch.
- ``--mode open``: each room sends ``--rate`` moves/s starting at a random phase; latency runs
  from the scheduled send time (a move that is due while the previous one is still in flight is
  sent at once and counted as a late send).

``--game evergreen``: the selection has one active seat (the picker), the act phase every seat
not yet done, each stepping on its own planet (several moves in flight at once). Legal moves
come from the seat's own view (``evergreen_moves``): the row's cards for the picker; in the act
phase the view's ``guide`` (its own seat only) lists every space each tool may work on now, and
the seat's turn record says whether ``power``, ``undo`` and ``done`` are legal. A move carries
``expected_version`` only when its seat is the only active one (a simultaneous step of another
seat would make it stale; README "The API").

- ``--mode closed``: whenever all 4 seats hold the latest version, every seat active at that
  version sends its move; the room waits until all of them landed (or were refused).
- ``--mode open``: ``--rate`` moves/s per room as above; at each tick one seat that is active in
  its own view and has no move in flight (chosen at random) sends its move. A tick with no such
  seat (the picker's pick still in flight, say) waits for one and counts as a late send.

Latency is from sending a move to all 4 seats holding its patch, i.e. the version the move
produced (known in advance with ``expected_version``, else from the ack) or a later one; every
accepted move counts once. A refused move (409 stale version, …) counts as an error of its
status and is not retried as such: the room moves on from what its seats hold.

After a ``--warmup`` the ``--measure`` window reads the server's utime+stime from
/proc/<pid>/stat at both ends. Server RSS (VmRSS) is read after start, after the rooms exist
(REST only), and after every socket got its snapshot: the differences give KiB per room and KiB
per idle connection. When a game ends, its slot gets a new room (REST + 4 sockets); that setup
is not a move, but its server CPU counts.

``--baseline`` runs the same load against bench/baseline_app.py instead: no game, no database,
each move fans out messages of the real patch sizes (``--patch-bytes``) to the room's 4 sockets.
It is Arboretum-shaped (one mover at a time) and refuses ``--game evergreen``.
``--json FILE`` appends the result as one JSON line; the table goes to stdout.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import http.cookiejar as http_cookiejar
import json
import os
import random
import resource
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed

ROOT = Path(__file__).resolve().parent.parent
CLK_TCK = os.sysconf("SC_CLK_TCK")
PLAYERS = 4
MOVE_TIMEOUT = 10.0
SETUP_CONCURRENCY = 16
MAX_ERRORS_PER_ROOM = 50
NEIGHBOURS = ((-1, 0), (1, 0), (0, -1), (0, 1))
#: Mean JSON sizes of a patch message (the mover's, another seat's) and of a snapshot, as
#: measured on the real server (closed loop, 20 rooms); the baseline sends messages this size.
PATCH_BYTES = (348, 297)
SNAPSHOT_BYTES = 568

JSONDoc = Any


# --- /proc ------------------------------------------------------------------------------------


def cpu_seconds(pid: int) -> float:
    """utime + stime of a process (all its threads), in seconds."""
    with open(f"/proc/{pid}/stat") as f:
        stat = f.read()
    fields = stat[stat.rindex(")") + 2 :].split()
    return (int(fields[11]) + int(fields[12])) / CLK_TCK


def rss_kib(pid: int) -> int:
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return 0


def self_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


# --- RFC 6902 (client side) -------------------------------------------------------------------


def _pointer(path: str) -> list[str]:
    if not path:
        return []
    return [p.replace("~1", "/").replace("~0", "~") for p in path.split("/")[1:]]


def _parent(doc: JSONDoc, parts: list[str]) -> JSONDoc:
    for part in parts[:-1]:
        doc = doc[int(part)] if isinstance(doc, list) else doc[part]
    return doc


def _get(doc: JSONDoc, path: str) -> JSONDoc:
    for part in _pointer(path):
        doc = doc[int(part)] if isinstance(doc, list) else doc[part]
    return doc


def _add(doc: JSONDoc, path: str, value: JSONDoc) -> JSONDoc:
    parts = _pointer(path)
    if not parts:
        return value
    parent, key = _parent(doc, parts), parts[-1]
    if isinstance(parent, list):
        parent.insert(len(parent) if key == "-" else int(key), value)
    else:
        parent[key] = value
    return doc


def _remove(doc: JSONDoc, path: str) -> JSONDoc:
    parts = _pointer(path)
    parent, key = _parent(doc, parts), parts[-1]
    if isinstance(parent, list):
        return parent.pop(int(key))
    return parent.pop(key)


def apply_patch(doc: JSONDoc, ops: list[dict[str, Any]]) -> JSONDoc:
    """Apply RFC 6902 ``ops`` to ``doc`` in place (values come fresh from ``json.loads``)."""
    for op in ops:
        kind, path = op["op"], op["path"]
        if kind == "replace":
            parts = _pointer(path)
            if not parts:
                doc = op["value"]
                continue
            parent, key = _parent(doc, parts), parts[-1]
            if isinstance(parent, list):
                parent[int(key)] = op["value"]
            else:
                parent[key] = op["value"]
        elif kind == "add":
            doc = _add(doc, path, op["value"])
        elif kind == "remove":
            _remove(doc, path)
        elif kind == "move":
            doc = _add(doc, path, _remove(doc, op["from"]))
        elif kind == "copy":
            doc = _add(doc, path, json.loads(json.dumps(_get(doc, op["from"]))))
        elif kind == "test":
            if _get(doc, path) != op["value"]:
                raise ValueError(f"patch test failed at {path}")
        else:
            raise ValueError(f"unknown patch op {kind!r}")
    return doc


# --- moves ------------------------------------------------------------------------------------


def random_move(view: JSONDoc, seat: int, rng: random.Random) -> dict[str, Any] | None:
    """A uniformly random legal Arboretum move for ``seat``, from that seat's view only."""
    step = view["step"]
    if step == "draw":
        sources: list[Any] = ["deck"] if view["deck_count"] else []
        sources.extend(i for i, pile in enumerate(view["discards"]) if pile)
        return {"type": "draw", "source": rng.choice(sources)} if sources else None
    hand = view["hands"][seat]["cards"]
    if not hand:
        return None
    if step == "play":
        occupied = {(p["cell"][0], p["cell"][1]) for p in view["arboreta"][seat]}
        cells = sorted({(r + dr, c + dc) for r, c in occupied for dr, dc in NEIGHBOURS}
                       - occupied) if occupied else [(0, 0)]
        row, col = rng.choice(cells)
        return {"type": "play", "card": rng.choice(hand), "cell": [row, col]}
    if step == "discard":
        return {"type": "discard", "card": rng.choice(hand)}
    return None


def baseline_move(view: JSONDoc, seat: int, rng: random.Random) -> dict[str, Any] | None:
    """The baseline app has no game: any move-sized message will do."""
    return {"type": "play", "card": ["oak", rng.randint(1, 8)], "cell": [0, rng.randint(-3, 3)]}


def _evergreen_power_applies(planet: JSONDoc, power: str) -> bool:
    """POW-3 (``rules.can_apply``) from the view's planet grid: bloom always; sprout, bush and
    lake need an empty playable space (cracks never count); grow_small a sprout, grow_large a
    small tree."""
    if power == "bloom":
        return True
    pieces = [cell["piece"] for line in planet for cell in line
              if cell is not None and not cell["crack"]]
    if power in ("sprout", "bush", "lake"):
        return None in pieces
    return ("sprout" if power == "grow_small" else "small") in pieces


def evergreen_moves(view: JSONDoc, seat: int) -> list[dict[str, Any]]:
    """Every legal Evergreen move of ``seat``, from that seat's own view only (the same list
    as ``rules.legal_moves``, spec §3, MOV-5).

    Selection: a pick of each card left in the row, when the view's ``picker_seat`` is this
    seat. Act phase: the view's ``guide`` (sent to its own seat only) lists every tool and, per
    tool, every space it may work on now, which are exactly the legal moves with a ``cell``
    (``{**tool["move"], "cell": cell}``); the others come from the seat's turn record
    (``seats[seat]["turn"]``, MOV-2): ``power`` while it is not activated and has something to
    work on, ``undo`` after a step, ``done`` unless the activated power still owes its first
    application (POW-3)."""
    phase = view["phase"]
    if phase == "select":
        if view["picker_seat"] != seat:
            return []
        return [{"type": "pick", "card": slot["card"]} for slot in view["row"]
                if slot["card"] is not None]
    if phase != "act":
        return []
    mine = view["seats"][seat]
    turn, guide = mine["turn"], view["guide"]
    if turn is None or turn["done"] or guide is None:
        return []
    moves = [{**tool["move"], "cell": cell} for tool in guide["tools"] for cell in tool["cells"]]
    power = turn["power"]
    if not power["activated"] and _evergreen_power_applies(mine["planet"], power["name"]):
        moves.append({"type": "power"})
    if turn["steps"]:
        moves.append({"type": "undo"})
    if not (power["activated"] and not power["closed"] and power["applied"] == 0):
        moves.append({"type": "done"})
    return moves


def evergreen_move(view: JSONDoc, seat: int, rng: random.Random) -> dict[str, Any] | None:
    """A uniformly random legal Evergreen move for ``seat``, from that seat's view only."""
    moves = evergreen_moves(view, seat)
    return rng.choice(moves) if moves else None


@dataclass(frozen=True)
class GameShape:
    """How the load generator plays a game: a random legal move from a seat's own view, and
    whether a view shows the game over."""

    choose: Callable[[JSONDoc, int, random.Random], dict[str, Any] | None]
    over: Callable[[JSONDoc], bool]
    #: Several seats may be active at once (a phase of simultaneous moves).
    simultaneous: bool


GAMES: dict[str, GameShape] = {
    "arboretum": GameShape(random_move, lambda view: view["step"] == "over", False),
    "evergreen": GameShape(evergreen_move, lambda view: view["phase"] == "over", True),
}
BASELINE = GameShape(baseline_move, lambda view: view["step"] == "over", False)


# --- the load generator -----------------------------------------------------------------------


@dataclass
class Options:
    mode: str
    rooms: int
    rate: float
    warmup: float
    measure: float
    baseline: bool
    port: int
    label: str
    compression: bool
    ws_impl: str | None
    deflate: bool
    server_dir: Path
    patch_bytes: tuple[int, int]
    snapshot_bytes: int
    setup_timeout: float
    seed: int
    profile: str | None
    profile_setup: str | None
    json_out: str | None
    #: Server processes (each on its own port; a room's seats are spread over them), and
    #: where they keep games and broadcast (None: a fresh SQLite file, memory://).
    processes: int = 1
    #: With several processes: "seats" spreads each room's seats over them (every move
    #: crosses processes), "rooms" keeps each room on one (as the compose proxy routes).
    spread: str = "seats"
    database_url: str | None = None
    broadcast_url: str | None = None
    #: The processes of the engines behind the servers (PostgreSQL, Redis), whose CPU counts
    #: in the total per move.
    engine_pids: Callable[[], list[int]] | None = None
    #: The game every room plays (a key of ``GAMES``).
    game: str = "arboretum"


@dataclass
class Stats:
    measuring: bool = False
    latencies: list[float] = field(default_factory=list)
    moves: int = 0
    timeouts: int = 0
    late_sends: int = 0
    games_finished: int = 0
    rooms_created: int = 0
    errors: dict[str, int] = field(default_factory=dict)
    stale_patches: int = 0
    mover_bytes: int = 0
    mover_msgs: int = 0
    other_bytes: int = 0
    other_msgs: int = 0
    snapshot_bytes: int = 0
    snapshot_msgs: int = 0

    def error(self, kind: str) -> None:
        self.errors[kind] = self.errors.get(kind, 0) + 1


class MoveRefused(Exception):
    pass


@dataclass
class Pending:
    """A move in flight: done once every seat holds version ``target`` or a later one."""

    #: The version the move produces: known when it is sent with ``expected_version`` (one
    #: mover at a time), else from its ack (simultaneous moves land in any order).
    target: int | None
    mover: int
    t0: float
    done: asyncio.Future[float]
    got: int = 0
    #: Patches the mover's socket got before the ack named ``target``: (from, to, bytes).
    early: list[tuple[int, int, int]] = field(default_factory=list)


class Seat:
    """One websocket of one seat, with the view it holds."""

    def __init__(self, room: Room, index: int) -> None:
        self.room = room
        self.index = index
        self.ws: ClientConnection | None = None
        self.reader: asyncio.Task[None] | None = None
        self.view: JSONDoc = None
        self.version = -1
        #: ``active_seats`` of the last snapshot or patch this socket got.
        self.active: list[int] = []

    async def open(self, uri: str, compression: bool) -> None:
        self.ws = await connect(uri, max_size=None, ping_interval=None, open_timeout=30,
                                close_timeout=2, compression="deflate" if compression else None)
        while True:  # the lobby message may come first if the start is not yet visible
            raw = await asyncio.wait_for(self.ws.recv(), 30)
            message = json.loads(raw)
            if message["type"] == "snapshot":
                break
        self.view, self.version = message["view"], message["version"]
        self.active = message.get("active_seats") or []
        stats = self.room.gen.stats
        stats.snapshot_bytes += len(raw)
        stats.snapshot_msgs += 1
        self.reader = asyncio.create_task(self.read())

    async def read(self) -> None:
        assert self.ws is not None
        with contextlib.suppress(ConnectionClosed):
            async for raw in self.ws:
                assert isinstance(raw, str)
                self.room.on_message(self, raw)

    async def close(self) -> None:
        if self.reader is not None:
            self.reader.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self.reader
        if self.ws is not None:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(self.ws.close(), 5)


class Room:
    """One room slot: its 4 players (kept across games), the current room and its seats."""

    def __init__(self, gen: Generator, slot: int) -> None:
        self.gen = gen
        self.slot = slot
        self.tokens: list[str] = []
        self.room_id = 0
        self.seats: list[Seat] = []
        #: Moves in flight, by the seat that sent them (at most one per seat).
        self.inflight: dict[int, Pending] = {}
        #: Set on every patch and whenever a move in flight ends (simultaneous games wait on
        #: it for a seat that may move).
        self.changed = asyncio.Event()
        self.rng = random.Random(gen.opts.seed * 100_003 + slot)
        self.errors = 0
        self.shape = BASELINE if gen.opts.baseline else GAMES[gen.opts.game]

    def on_message(self, seat: Seat, raw: str) -> None:
        message = json.loads(raw)
        kind = message["type"]
        stats = self.gen.stats
        if kind == "patch":
            if message["from"] != seat.version:
                stats.stale_patches += 1
            seat.view = apply_patch(seat.view, message["ops"])
            seat.version = message["to"]
            seat.active = message.get("active_seats") or []
            if stats.measuring:
                self.count_patch(seat, message["from"], seat.version, len(raw))
            for flying in tuple(self.inflight.values()):
                self.landed(flying, seat)
            self.changed.set()
        elif kind == "ack":
            acked = self.inflight.get(seat.index)
            if acked is not None and acked.target is None:
                acked.target = target = message["version"]
                for start, end, size in acked.early:
                    self.count_bytes(start < target <= end, size)
                acked.early.clear()
                for other in self.seats:
                    self.landed(acked, other)
        elif kind == "error":
            stats.error(str(message.get("status")))
            refused = self.inflight.get(seat.index)
            if refused is not None and not refused.done.done():
                refused.done.set_exception(MoveRefused(message.get("detail", "")))
        elif kind == "snapshot":
            seat.view, seat.version = message["view"], message["version"]
            seat.active = message.get("active_seats") or []

    def landed(self, pending: Pending, seat: Seat) -> None:
        """Note that ``seat`` holds ``pending``'s version (or a later one), if it does."""
        if pending.target is None or seat.version < pending.target:
            return
        bit = 1 << seat.index
        if pending.got & bit:
            return
        pending.got |= bit
        if pending.got == (1 << PLAYERS) - 1 and not pending.done.done():
            pending.done.set_result(time.perf_counter())

    def count_patch(self, seat: Seat, start: int, end: int, size: int) -> None:
        """A patch message is the mover's when it brings its seat the version that seat's
        own move produced; any other is another seat's."""
        pending = self.inflight.get(seat.index)
        if pending is not None and pending.target is None:
            pending.early.append((start, end, size))  # sorted out when the ack comes
            return
        self.count_bytes(pending is not None and pending.target is not None
                         and start < pending.target <= end, size)

    def count_bytes(self, mover: bool, size: int) -> None:
        stats = self.gen.stats
        if mover:
            stats.mover_bytes += size
            stats.mover_msgs += 1
        else:
            stats.other_bytes += size
            stats.other_msgs += 1

    async def create(self) -> None:
        """A new room for this slot's players, started (REST), then its 4 sockets."""
        http = self.gen.http
        if not self.tokens:
            for i in range(PLAYERS):
                response = await http.post("/api/players", json={"name": f"s{self.slot}p{i}"})
                response.raise_for_status()
                self.tokens.append(response.json()["token"])
        auth = [{"Authorization": f"Bearer {token}"} for token in self.tokens]
        response = await http.post("/api/rooms", json={"game": self.gen.opts.game,
                                                       "players": PLAYERS}, headers=auth[0])
        response.raise_for_status()
        self.room_id = response.json()["id"]
        for i in range(1, PLAYERS):
            response = await http.post(f"/api/rooms/{self.room_id}/join", headers=auth[i])
            response.raise_for_status()
        response = await http.post(f"/api/rooms/{self.room_id}/start", headers=auth[0])
        response.raise_for_status()
        self.gen.stats.rooms_created += 1

    async def connect(self) -> None:
        self.seats = [Seat(self, i) for i in range(PLAYERS)]
        await asyncio.gather(*(
            seat.open(f"{self.gen.ws_bases[self.process_of(seat)]}"
                      f"/ws/rooms/{self.room_id}?token={self.tokens[seat.index]}",
                      self.gen.opts.compression)
            for seat in self.seats))

    def process_of(self, seat: Seat) -> int:
        """Which server process the seat's socket goes to."""
        shift = seat.index if self.gen.opts.spread == "seats" else 0
        return (self.slot + shift) % len(self.gen.ws_bases)

    async def recycle(self) -> None:
        await asyncio.gather(*(seat.close() for seat in self.seats))
        await self.create()
        await self.connect()

    async def drive(self, offset: float) -> None:
        """Play moves until cancelled: closed loop, or ``rate`` moves/s from ``offset``."""
        if self.shape.simultaneous:
            if self.gen.opts.mode == "open":
                await self.drive_open_simultaneous(offset)
            else:
                await self.drive_closed_simultaneous()
            return
        opts, stats = self.gen.opts, self.gen.stats
        loop = asyncio.get_running_loop()
        choose = self.shape.choose
        period = 1.0 / opts.rate
        next_at = time.perf_counter() + offset
        if opts.mode == "open":
            await asyncio.sleep(offset)
        while not self.gen.stopping:
            if opts.mode == "open":
                delay = next_at - time.perf_counter()
                if delay > 0:
                    await asyncio.sleep(delay)
                elif stats.measuring:
                    stats.late_sends += 1
                t0 = next_at
            else:
                t0 = time.perf_counter()
            mover_index = self.seats[0].view["turn"]
            mover = self.seats[mover_index]
            move = choose(mover.view, mover_index, self.rng)
            if move is None:  # cannot happen with the rules as written: start afresh
                stats.error("no legal move")
                await self.recycle()
                next_at = time.perf_counter()
                continue
            pending = Pending(target=mover.version + 1, mover=mover_index, t0=t0,
                              done=loop.create_future())
            self.inflight[mover_index] = pending
            assert mover.ws is not None
            await mover.ws.send(json.dumps({"type": "move", "move": move,
                                            "expected_version": mover.version}))
            try:  # not asyncio.wait_for: on 3.11 it can swallow a cancellation
                async with asyncio.timeout(MOVE_TIMEOUT):
                    t1 = await pending.done
            except TimeoutError:
                stats.timeouts += 1
                t1 = None
            except MoveRefused:
                t1 = None
                self.errors += 1
                if self.errors > MAX_ERRORS_PER_ROOM:
                    return
                await asyncio.sleep(0.01)
            self.inflight.pop(mover_index, None)
            if t1 is not None and stats.measuring:
                stats.latencies.append(t1 - pending.t0)
                stats.moves += 1
            if self.shape.over(self.seats[0].view):
                stats.games_finished += 1
                await self.recycle()
                next_at = time.perf_counter()
                continue
            if opts.mode == "open":
                next_at += period

    def begin(self, seat: Seat, t0: float | None) -> tuple[Pending, str] | None:
        """A random legal move of ``seat`` from its own view, in flight from now on: its
        ``Pending`` and the message to send; None when the seat has no legal move.

        Latency runs from ``t0`` (None: now). The move carries ``expected_version`` only when
        its seat is the only active one: in a simultaneous phase another seat's step may come
        first, which the server refuses as stale (409) although the move is as legal after it
        (a seat's steps only touch its own planet, and the phase ends only with the last
        seat's ``done``)."""
        move = self.shape.choose(seat.view, seat.index, self.rng)
        if move is None:
            self.gen.stats.error("no legal move")
            return None
        message: dict[str, Any] = {"type": "move", "move": move}
        if seat.active == [seat.index]:
            message["expected_version"] = seat.version
        pending = Pending(target=None, mover=seat.index,
                          t0=time.perf_counter() if t0 is None else t0,
                          done=asyncio.get_running_loop().create_future())
        self.inflight[seat.index] = pending
        return pending, json.dumps(message)

    async def play(self, seat: Seat, pending: Pending, message: str) -> str:
        """Send a move ``begin`` prepared and wait until every seat holds the version it
        produced: "ok", "refused" or "timeout"."""
        stats = self.gen.stats
        outcome, t1 = "ok", None
        try:
            assert seat.ws is not None
            await seat.ws.send(message)
            async with asyncio.timeout(MOVE_TIMEOUT):
                t1 = await pending.done
        except TimeoutError:
            stats.timeouts += 1
            outcome = "timeout"
        except MoveRefused:
            self.errors += 1
            outcome = "refused"
        finally:
            if self.inflight.get(seat.index) is pending:
                del self.inflight[seat.index]
            for _, _, size in pending.early:  # no ack came: not a move's patch
                self.count_bytes(False, size)
            self.changed.set()
        if t1 is not None and stats.measuring:
            stats.latencies.append(t1 - pending.t0)
            stats.moves += 1
        return outcome

    async def settle(self) -> None:
        """Wait (at most ``MOVE_TIMEOUT``) until every seat holds the same version."""
        deadline = time.perf_counter() + MOVE_TIMEOUT
        while len({seat.version for seat in self.seats}) > 1:
            left = deadline - time.perf_counter()
            if left <= 0:
                return
            self.changed.clear()
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(left):
                    await self.changed.wait()

    async def drive_closed_simultaneous(self) -> None:
        """Closed loop with several active seats: whenever every seat holds the latest
        version, each seat active at that version sends its move, and the room waits until
        all of them landed on every seat (or were refused)."""
        stats = self.gen.stats
        while not self.gen.stopping:
            lead = self.seats[0]
            if self.shape.over(lead.view):
                stats.games_finished += 1
                await self.recycle()
                continue
            movers = [self.seats[index] for index in lead.active]
            if not movers:  # cannot happen with the rules as written: start afresh
                stats.error("no active seat")
                await self.recycle()
                continue
            begun = [(seat, self.begin(seat, None)) for seat in movers]
            outcomes = await asyncio.gather(*(self.play(seat, *move) for seat, move in begun
                                              if move is not None))
            if any(move is None for _, move in begun):  # cannot happen: start afresh
                await self.recycle()
                continue
            if self.errors > MAX_ERRORS_PER_ROOM:
                return
            if "refused" in outcomes:
                await asyncio.sleep(0.01)
            await self.settle()

    async def drive_open_simultaneous(self, offset: float) -> None:
        """Open loop with several active seats: at each tick one seat that is active in its
        own view and has no move in flight (it has not moved yet at the version it holds)
        sends its move, chosen at random among such seats; a tick with no such seat waits for
        one and counts as a late send. Moves of different seats may be in flight at once."""
        stats = self.gen.stats
        period = 1.0 / self.gen.opts.rate
        flights: set[asyncio.Task[str]] = set()
        next_at = time.perf_counter() + offset
        await asyncio.sleep(offset)
        try:
            while not self.gen.stopping:
                if self.errors > MAX_ERRORS_PER_ROOM:
                    return
                delay = next_at - time.perf_counter()
                if delay > 0:
                    await asyncio.sleep(delay)
                late = delay <= 0
                seat = None
                while True:
                    if self.shape.over(self.seats[0].view) and not self.inflight:
                        break
                    ready = [each for each in self.seats
                             if each.index in each.active and each.index not in self.inflight]
                    if ready:
                        seat = self.rng.choice(ready)
                        break
                    late = True
                    self.changed.clear()
                    try:
                        async with asyncio.timeout(MOVE_TIMEOUT):
                            await self.changed.wait()
                    except TimeoutError:
                        if not self.inflight:  # cannot happen with the rules as written
                            stats.error("no active seat")
                            break
                begun = self.begin(seat, next_at) if seat is not None else None
                if begun is None:  # the game is over (or stuck): a new room, then at once
                    if self.shape.over(self.seats[0].view):
                        stats.games_finished += 1
                    await asyncio.gather(*flights, return_exceptions=True)
                    await self.recycle()
                    next_at = time.perf_counter()
                    continue
                if late and stats.measuring:
                    stats.late_sends += 1
                assert seat is not None
                task = asyncio.create_task(self.play(seat, *begun))
                flights.add(task)
                task.add_done_callback(flights.discard)
                next_at += period
        finally:
            for task in list(flights):
                task.cancel()
            await asyncio.gather(*flights, return_exceptions=True)


class Generator:
    def __init__(self, opts: Options, http: httpx.AsyncClient) -> None:
        self.opts = opts
        self.http = http
        self.ws_bases = [f"ws://127.0.0.1:{opts.port + i}" for i in range(opts.processes)]
        self.stats = Stats()
        self.stopping = False
        self.rooms = [Room(self, slot) for slot in range(opts.rooms)]

    async def each_room(self, action: str) -> None:
        """Run ``Room.create`` or ``Room.connect`` for every slot, 16 at a time."""
        queue = list(self.rooms)

        async def worker() -> None:
            while queue:
                room = queue.pop(0)
                await getattr(room, action)()

        await asyncio.gather(*(worker() for _ in range(min(SETUP_CONCURRENCY, len(queue)))))


# --- the server -------------------------------------------------------------------------------


class Server:
    """A server process under test (the ``index``-th, on ``opts.port + index``), pinned to
    CPU 0."""

    def __init__(self, opts: Options, workdir: Path, index: int = 0) -> None:
        self.opts = opts
        self.workdir = workdir
        self.log_path = workdir / f"server{index}.log"
        self.base = f"http://127.0.0.1:{opts.port + index}"
        app = "bench.baseline_app:app_factory" if opts.baseline else "app.main:app_factory"
        # As scripts/serve starts it (app.serving: uvicorn with Canopy's options), where the
        # checkout has it; the options given here come after and win.
        module = "app.serving" if (opts.server_dir / "app" / "serving.py").exists() \
            else "uvicorn"
        command = [sys.executable, "-m", module, "--factory", app, "--host", "127.0.0.1",
                   "--port", str(opts.port + index),
                   "--ws-per-message-deflate", str(opts.deflate)]
        if opts.ws_impl:
            command += ["--ws", opts.ws_impl]
        if shutil.which("taskset"):
            command = ["taskset", "-c", "0", *command]
        env = dict(os.environ)
        env.update({
            "DATABASE_URL": opts.database_url or f"sqlite:///{workdir / 'canopy.db'}",
            "BROADCAST_URL": opts.broadcast_url or "memory://",
            "BOT_DELAY": "0",
            "WS_RATE": "100000",
            # one load generator plays every room from one address
            "RATE_SIGNUPS": "1000000/minute", "RATE_ROOMS": "1000000/minute",
            "RATE_JOINS": "1000000/minute", "MAX_OPEN_ROOMS": "1000000",
            "WS_PER_ADDRESS": "1000000", "WS_PER_PLAYER": "1000",
            "RATE_HANDSHAKES": "1000000/minute", "RATE_STARTS": "1000000/minute",
            "MAX_RUNNING_ROOMS": "1000000", "REQUESTS_PER_ADDRESS": "0",
            "HTMX_SOURCE": "local",
            "BASELINE_PATCH_BYTES": f"{opts.patch_bytes[0]},{opts.patch_bytes[1]}",
            "BASELINE_SNAPSHOT_BYTES": str(opts.snapshot_bytes),
        })
        self.log = open(self.log_path, "wb")  # noqa: SIM115 (closed in stop())
        self.proc = subprocess.Popen(command, cwd=opts.server_dir, env=env, stdout=self.log,
                                     stderr=subprocess.STDOUT)
        self.pid = self.proc.pid  # taskset execs the interpreter: same pid

    async def ready(self, http: httpx.AsyncClient, timeout: float = 60) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"server exited ({self.proc.returncode}):\n{self.tail()}")
            with contextlib.suppress(httpx.HTTPError):
                if (await http.get(self.base + "/healthz")).status_code == 200:
                    return
            await asyncio.sleep(0.1)
        raise RuntimeError(f"server not ready after {timeout} s:\n{self.tail()}")

    def tail(self) -> str:
        return self.log_path.read_text(errors="replace")[-3000:]

    def error_lines(self) -> int:
        """How many ERROR lines the server logged; the first ones go to stderr."""
        lines = self.log_path.read_text(errors="replace").splitlines()
        errors = [i for i, line in enumerate(lines) if "ERROR" in line]
        if errors:
            first = errors[0]
            print("# server log:\n" + "\n".join(lines[first:first + 40]), file=sys.stderr)
        return len(errors)

    async def stop(self) -> None:
        """SIGTERM, then wait (the event loop keeps running, so that the sockets close
        cleanly) up to 10 s before SIGKILL."""
        if self.proc.poll() is None:
            self.proc.terminate()
            deadline = time.monotonic() + 10
            while self.proc.poll() is None and time.monotonic() < deadline:
                await asyncio.sleep(0.05)
            if self.proc.poll() is None:
                self.proc.kill()
                self.proc.wait(5)
        self.log.close()


# --- a run ------------------------------------------------------------------------------------


def start_py_spy(pid: int, output: str | None,
                 duration: int | None) -> subprocess.Popen[bytes] | None:
    """py-spy recording the server (threads holding the GIL) into ``output``, raw stacks."""
    if not output:
        return None
    py_spy = shutil.which("py-spy") or str(Path(sys.executable).parent / "py-spy")
    command = [py_spy, "record", "--pid", str(pid), "--rate", "200", "--gil", "--format", "raw",
               "--output", output, "--nonblocking"]
    if duration:
        command += ["--duration", str(duration)]
    return subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def stop_py_spy(profiler: subprocess.Popen[bytes] | None, interrupt: bool) -> None:
    if profiler is None:
        return
    if interrupt:  # py-spy writes its file on SIGINT
        profiler.send_signal(signal.SIGINT)
    try:
        profiler.wait(30)
    except subprocess.TimeoutExpired:
        profiler.kill()


def pct(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    return values[min(len(values) - 1, int(q * len(values)))]


async def run(opts: Options) -> dict[str, Any]:
    with tempfile.TemporaryDirectory(prefix="canopy-bench-") as tmp:
        servers: list[Server] = []
        limits = httpx.Limits(max_connections=64, max_keepalive_connections=64)
        async with httpx.AsyncClient(base_url=f"http://127.0.0.1:{opts.port}", timeout=30,
                                     limits=limits) as http:
            # Every player identifies with its bearer token; a shared cookie jar would send
            # one player's cookie with the next sign-up (refused: it is no site page).
            http.cookies.jar.set_policy(http_cookiejar.DefaultCookiePolicy(allowed_domains=[]))
            try:
                for index in range(opts.processes):  # one after the other: each migrates
                    servers.append(Server(opts, Path(tmp), index))
                    await servers[-1].ready(http)
                return await measure(opts, servers, http)
            finally:
                for server in servers:
                    await server.stop()


async def measure(opts: Options, servers: list[Server], http: httpx.AsyncClient
                  ) -> dict[str, Any]:
    pid = servers[0].pid
    pids = [server.pid for server in servers]

    def cpu() -> float:
        return sum(cpu_seconds(p) for p in pids)

    def rss() -> int:
        return sum(rss_kib(p) for p in pids)

    def engines_cpu() -> float:
        total = 0.0
        for engine_pid in opts.engine_pids() if opts.engine_pids else []:
            with contextlib.suppress(OSError):  # a backend that just ended
                total += cpu_seconds(engine_pid)
        return total

    gen = Generator(opts, http)
    stats = gen.stats
    rss_start = rss()
    setup_profiler = start_py_spy(pid, opts.profile_setup, None)
    t_setup, cpu_setup = time.perf_counter(), cpu()
    await asyncio.wait_for(gen.each_room("create"), opts.setup_timeout)
    rss_rooms = rss()
    await asyncio.wait_for(gen.each_room("connect"), opts.setup_timeout)
    rss_conns = rss()
    stop_py_spy(setup_profiler, interrupt=True)
    setup_s = time.perf_counter() - t_setup
    setup_cpu_ms = 1000 * (cpu() - cpu_setup) / opts.rooms
    print(f"# setup: {opts.rooms} rooms, {opts.rooms * PLAYERS} sockets in {setup_s:.1f} s; "
          f"server CPU {setup_cpu_ms:.1f} ms per room; RSS {rss_start / 1024:.0f} MiB at start, "
          f"{rss_rooms / 1024:.0f} with the rooms, {rss_conns / 1024:.0f} with the sockets",
          flush=True)

    # The load generator's own cycle collector would pause it for up to hundreds of ms with
    # thousands of client views alive, and show up as server latency: freeze what exists and
    # switch the collector off until the window is over (a few MB of cyclic garbage at most).
    gc.collect()
    gc.freeze()
    gc.disable()
    phase_rng = random.Random(opts.seed)
    phases = [phase_rng.random() / opts.rate for _ in gen.rooms]
    tasks = [asyncio.create_task(room.drive(phase)) for room, phase in zip(gen.rooms, phases,
                                                                          strict=True)]
    profiler: subprocess.Popen[bytes] | None = None
    try:
        await asyncio.sleep(opts.warmup)
        profiler = start_py_spy(pid, opts.profile, int(opts.measure))
        cpu0, engines0, self0, t0 = cpu(), engines_cpu(), self_cpu(), time.perf_counter()
        window_start = time.time()
        stats.measuring = True
        await asyncio.sleep(opts.measure)
        stats.measuring = False
        wall = time.perf_counter() - t0
        cpu1, engines1, self1 = cpu(), engines_cpu(), self_cpu()
        rss_end = rss()
    finally:
        gc.enable()
        gen.stopping = True
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        stop_py_spy(profiler, interrupt=False)
    failed = [t for t in tasks if t.done() and not t.cancelled() and t.exception() is not None]
    for task in failed[:3]:
        print(f"# room task failed: {task.exception()!r}", file=sys.stderr)

    lat = sorted(stats.latencies)
    server_cpu = cpu1 - cpu0
    engine_cpu = engines1 - engines0
    offered = opts.rooms * opts.rate * wall if opts.mode == "open" else None
    result: dict[str, Any] = {
        "label": opts.label,
        "server": "baseline" if opts.baseline else "canopy",
        "game": opts.game,
        "date": time.strftime("%Y-%m-%dT%H:%M:%S"),
        "mode": opts.mode,
        "rooms": opts.rooms,
        "players": PLAYERS,
        "compression": opts.compression,
        "server_deflate": opts.deflate,
        "ws_impl": opts.ws_impl or "auto",
        "window_s": round(wall, 2),
        "moves": stats.moves,
        "moves_per_s": round(stats.moves / wall, 1),
        "offered_per_s": round(offered / wall, 1) if offered else None,
        "p50_ms": round(1000 * pct(lat, 0.5), 2),
        "p99_ms": round(1000 * pct(lat, 0.99), 2),
        "max_ms": round(1000 * lat[-1], 2) if lat else None,
        "server_cpu_s": round(server_cpu, 2),
        "server_cpu_ms_per_move": round(1000 * server_cpu / max(1, stats.moves), 3),
        "server_cpu_util": round(server_cpu / wall, 2),
        "processes": opts.processes,
        "engines_cpu_ms_per_move": round(1000 * engine_cpu / max(1, stats.moves), 3),
        "total_cpu_ms_per_move": round(1000 * (server_cpu + engine_cpu) / max(1, stats.moves),
                                       3),
        "server_rss_mib": round(rss_end / 1024),
        "rss_start_mib": round(rss_start / 1024),
        "rss_per_room_kib": round((rss_rooms - rss_start) / opts.rooms, 1),
        "rss_per_conn_kib": round((rss_conns - rss_rooms) / (opts.rooms * PLAYERS), 1),
        "loadgen_cpu_util": round((self1 - self0) / wall, 2),
        "timeouts": stats.timeouts,
        "late_sends": stats.late_sends,
        "games_finished": stats.games_finished,
        "errors": stats.errors,
        "stale_patches": stats.stale_patches,
        "mover_patch_bytes": round(stats.mover_bytes / stats.mover_msgs) if stats.mover_msgs
        else None,
        "other_patch_bytes": round(stats.other_bytes / stats.other_msgs) if stats.other_msgs
        else None,
        "snapshot_bytes": round(stats.snapshot_bytes / stats.snapshot_msgs)
        if stats.snapshot_msgs else None,
        "server_error_lines": sum(server.error_lines() for server in servers),
        "window_unix": [round(window_start, 3), round(window_start + wall, 3)],
        "setup_s": round(setup_s, 1),
        "setup_server_cpu_ms_per_room": round(setup_cpu_ms, 2),
        "failed_room_tasks": len(failed),
    }
    return result


COLUMNS = [
    ("run", "label"), ("moves/s", "moves_per_s"), ("p50 ms", "p50_ms"), ("p99 ms", "p99_ms"),
    ("max ms", "max_ms"), ("srv CPU ms/move", "server_cpu_ms_per_move"),
    ("srv CPU util", "server_cpu_util"), ("srv RSS MiB", "server_rss_mib"),
    ("KiB/room", "rss_per_room_kib"), ("KiB/conn", "rss_per_conn_kib"),
    ("loadgen CPU", "loadgen_cpu_util"), ("games", "games_finished"),
    ("B/patch mover/other", "patch_bytes"), ("timeouts", "timeouts"), ("errors", "errors"),
]


def table(results: list[dict[str, Any]]) -> str:
    def cell(result: dict[str, Any], key: str) -> str:
        if key == "patch_bytes":
            return f"{result['mover_patch_bytes']}/{result['other_patch_bytes']}"
        if key == "errors":
            return str(sum(result["errors"].values()) + result["stale_patches"])
        return str(result[key])

    lines = ["| " + " | ".join(title for title, _ in COLUMNS) + " |",
             "|" + "---|" * len(COLUMNS)]
    lines += ["| " + " | ".join(cell(r, key) for _, key in COLUMNS) + " |" for r in results]
    return "\n".join(lines)


def parse(argv: list[str] | None = None) -> Options:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--mode", choices=("closed", "open"), default="closed")
    parser.add_argument("--game", choices=tuple(GAMES), default="arboretum",
                        help="the game every room plays (4 seats)")
    parser.add_argument("--rooms", type=int, default=20, help="concurrent rooms (4 seats each)")
    parser.add_argument("--rate", type=float, default=1.0, help="open loop: moves/s per room")
    parser.add_argument("--warmup", type=float, default=3.0, help="seconds before measuring")
    parser.add_argument("--measure", type=float, default=15.0, help="measuring window, s")
    parser.add_argument("--baseline", action="store_true",
                        help="bench/baseline_app.py instead of Canopy")
    parser.add_argument("--port", type=int, default=0, help="default: a free port")
    parser.add_argument("--label", default=None)
    parser.add_argument("--no-compression", action="store_true",
                        help="do not offer permessage-deflate (browsers and the websockets "
                             "client offer it by default)")
    parser.add_argument("--ws", default=None, help="uvicorn --ws implementation (default auto)")
    parser.add_argument("--deflate", action="store_true",
                        help="let the server accept permessage-deflate (uvicorn's default; "
                             "Canopy's scripts and image turn it off, and so does this bench)")
    parser.add_argument("--server-dir", default=str(ROOT),
                        help="run the server from this checkout (bench/ablate.py)")
    parser.add_argument("--patch-bytes", default=f"{PATCH_BYTES[0]},{PATCH_BYTES[1]}",
                        help="baseline: patch message sizes MOVER,OTHER")
    parser.add_argument("--snapshot-bytes", type=int, default=SNAPSHOT_BYTES)
    parser.add_argument("--setup-timeout", type=float, default=300.0)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--profile", default=None,
                        help="record the server with py-spy during the window (raw stacks)")
    parser.add_argument("--profile-setup", default=None,
                        help="record the server with py-spy while the rooms are set up")
    parser.add_argument("--json", default=None, help="append the result to this JSON-lines file")
    parser.add_argument("--processes", type=int, default=1,
                        help="server processes; each room's seats are spread over them")
    parser.add_argument("--spread", choices=("seats", "rooms"), default="seats",
                        help="several processes: spread each room's seats, or keep rooms whole")
    parser.add_argument("--database-url", default=None, help="default: a fresh SQLite file")
    parser.add_argument("--broadcast-url", default=None, help="default: memory://")
    args = parser.parse_args(argv)
    if args.rooms < 1 or args.rate <= 0 or args.measure <= 0 or args.warmup < 0:
        parser.error("--rooms, --rate and --measure must be positive")
    if args.baseline and args.game != "arboretum":
        parser.error("--baseline is Arboretum-shaped (one mover per room, Arboretum's message "
                     "sizes): it takes no --game but arboretum")
    mover, other = (int(x) for x in args.patch_bytes.split(","))
    server = "baseline" if args.baseline else "canopy"
    label = args.label or f"{server} {args.mode} N={args.rooms} {args.game}"
    opts = Options(mode=args.mode, rooms=args.rooms, rate=args.rate, warmup=args.warmup,
                   measure=args.measure, baseline=args.baseline, port=args.port or free_port(),
                   label=label, compression=not args.no_compression, ws_impl=args.ws,
                   deflate=args.deflate, server_dir=Path(args.server_dir),
                   patch_bytes=(mover, other), snapshot_bytes=args.snapshot_bytes,
                   setup_timeout=args.setup_timeout, seed=args.seed, profile=args.profile,
                   profile_setup=args.profile_setup, json_out=args.json,
                   processes=args.processes, spread=args.spread,
                   database_url=args.database_url,
                   broadcast_url=args.broadcast_url, game=args.game)
    return opts


def main(argv: list[str] | None = None) -> int:
    opts = parse(argv)
    with contextlib.suppress(OSError, AttributeError):
        if (os.cpu_count() or 1) > 1:
            os.sched_setaffinity(0, {1})
    try:
        import uvloop

        result = uvloop.run(run(opts))
    except ImportError:
        result = asyncio.run(run(opts))
    print(table([result]))
    print(f"# moves={result['moves']} in {result['window_s']} s, timeouts={result['timeouts']}, "
          f"late_sends={result['late_sends']}, games_finished={result['games_finished']}, "
          f"errors={result['errors']}, stale_patches={result['stale_patches']}, "
          f"snapshot_bytes={result['snapshot_bytes']}, "
          f"server_error_lines={result['server_error_lines']}, "
          f"setup {result['setup_s']} s at {result['setup_server_cpu_ms_per_room']} ms CPU/room")
    if opts.json_out:
        with open(opts.json_out, "a") as f:
            f.write(json.dumps(result) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
