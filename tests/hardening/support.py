"""Helpers for the hardening tests: a real uvicorn server in its own process (that can be
SIGKILLed and restarted on the same SQLite file), players driving it over HTTP, and checks that
read the database file directly (the move table replayed from the seed equals the snapshot)."""

from __future__ import annotations

import json
import os
import signal
import socket
import sqlite3
import subprocess
import sys
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
from sqlalchemy import select
from sqlalchemy.engine import Engine

from app.games.registry import get_game
from app.models import Game, Move, Room

ROOT = Path(__file__).resolve().parents[2]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def canonical(value: Any) -> Any:
    """``value`` as JSON would carry it (tuples become lists, keys strings)."""
    return json.loads(json.dumps(value))


#: Runs the server's command line (``python -m app.serving --factory app.main:app_factory
#: …``, as scripts/serve does) once a line arrives on stdin, the slow imports done before: a
#: restart then costs a fresh process's start-up, not Python's import time (1.5–3 s on a busy
#: machine), so many SIGKILL cycles fit.
PREWARMED = """
import sys
import app.main, app.serving  # the imports, done while the previous server still runs
if sys.stdin.readline().strip() == "go":
    app.serving.main(sys.argv[1:])
"""


class Server:
    """``python -m app.serving --factory app.main:app_factory`` (uvicorn as scripts/serve
    starts it) on 127.0.0.1, its output in ``log``.

    ``prewarm``: each start uses a process that was started (and did its imports) beforehand
    and waits for a word to run uvicorn; two wait in turn, so that the one used has had a
    whole cycle to get ready. Either way every start is a new process with nothing in
    memory."""

    def __init__(self, db: Path, *, access_log: bool = True, prewarm: bool = False,
                 **env: str) -> None:
        self.db = db
        self.log = db.with_suffix(".log")
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.ws_base = f"ws://127.0.0.1:{self.port}"
        self.access_log = access_log
        self.env = {**os.environ, "DATABASE_URL": f"sqlite:///{db}", "HTMX_SOURCE": "local",
                    "BOT_DELAY": "0", **GENEROUS_LIMITS, **env}
        self.proc: subprocess.Popen[bytes] | None = None
        self.prewarm = prewarm
        self.standby: list[subprocess.Popen[bytes]] = []
        self.starts = 0

    def _args(self) -> list[str]:
        return ["--factory", "app.main:app_factory", "--host", "127.0.0.1",
                "--port", str(self.port), "--log-level", "info",
                "--access-log" if self.access_log else "--no-access-log"]

    def _spawn_standby(self) -> subprocess.Popen[bytes]:
        with open(self.log, "ab") as out:
            return subprocess.Popen([sys.executable, "-c", PREWARMED, *self._args()], cwd=ROOT,
                                    env=self.env, stdin=subprocess.PIPE, stdout=out,
                                    stderr=subprocess.STDOUT)

    def start(self, timeout: float = 30.0) -> None:
        assert self.proc is None, "already running"
        if self.prewarm:
            while len(self.standby) < 2:
                self.standby.append(self._spawn_standby())
            self.proc = self.standby.pop(0)
            assert self.proc.stdin is not None
            self.proc.stdin.write(b"go\n")
            self.proc.stdin.close()
        else:
            with open(self.log, "ab") as out:
                self.proc = subprocess.Popen(
                    [sys.executable, "-m", "app.serving", *self._args()],
                    cwd=ROOT, env=self.env, stdout=out, stderr=subprocess.STDOUT)
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                break
            try:
                if httpx.get(self.base + "/healthz", timeout=1.0).status_code == 200:
                    self.starts += 1
                    if self.prewarm:
                        self.standby.append(self._spawn_standby())
                    return
            except httpx.HTTPError:
                time.sleep(0.03)
        self.kill()
        raise RuntimeError(f"the server did not start:\n{self.log_text()[-3000:]}")

    def kill(self) -> None:
        """SIGKILL: no shutdown handler, no flush, no goodbye."""
        if self.proc is not None:
            if self.proc.poll() is None:
                self.proc.send_signal(signal.SIGKILL)
            self.proc.wait(timeout=10)
            self.proc = None

    def stop(self) -> None:
        for standby in self.standby:
            standby.kill()
            standby.wait(timeout=10)
        self.standby = []
        if self.proc is not None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(timeout=10)
            self.proc = None

    def log_text(self) -> str:
        return self.log.read_text(errors="replace") if self.log.exists() else ""


#: The public host's limits are for strangers; these tests play many games from one address.
GENEROUS_LIMITS = {"RATE_SIGNUPS": "100000/minute", "RATE_ROOMS": "100000/minute",
                   "RATE_JOINS": "100000/minute", "RATE_STARTS": "100000/minute",
                   "MAX_OPEN_ROOMS": "100000", "MAX_RUNNING_ROOMS": "100000",
                   "WS_PER_ADDRESS": "100000", "WS_PER_PLAYER": "1000",
                   "RATE_HANDSHAKES": "100000/minute", "RATE_RENDERS": "100000/minute",
                   "REQUESTS_PER_ADDRESS": "0"}


@dataclass
class Client:
    """A player with a token; ``http`` is a client of its own (one per thread)."""

    base: str
    id: int
    name: str
    token: str
    http: httpx.Client = field(repr=False)

    @classmethod
    def create(cls, base: str, name: str) -> Client:
        body = httpx.post(base + "/api/players", json={"name": name}, timeout=10).json()
        http = httpx.Client(base_url=base, headers=bearer(body["token"]), timeout=10)
        return cls(base, body["id"], body["name"], body["token"], http)

    def get(self, path: str, **kw: Any) -> httpx.Response:
        return self.http.get(path, **kw)

    def post(self, path: str, json: Any = None, **kw: Any) -> httpx.Response:
        return self.http.post(path, json=json, **kw)

    def fresh(self) -> httpx.Client:
        """Another HTTP client with the same token (for another thread)."""
        return httpx.Client(base_url=self.base, headers=bearer(self.token), timeout=10)


def new_room(owner: Client, others: list[Client], game: str = "arboretum",
             start: bool = True) -> int:
    room = owner.post("/api/rooms", {"game": game, "players": 1 + len(others)})
    assert room.status_code == 201, room.text
    rid = int(room.json()["id"])
    for seat, other in enumerate(others, start=1):
        joined = other.post(f"/api/rooms/{rid}/join", {"seat": seat})
        assert joined.status_code == 200, joined.text
    if start:
        started = owner.post(f"/api/rooms/{rid}/start")
        assert started.status_code == 200, started.text
    return rid


def run_threads(targets: list[Any], timeout: float = 30.0) -> None:
    """Start ``targets`` (callables) together; re-raise the first failure."""
    errors: list[BaseException] = []

    def wrap(fn: Any) -> None:
        try:
            fn()
        except BaseException as exc:  # reported below
            errors.append(exc)

    threads = [threading.Thread(target=wrap, args=(fn,), daemon=True) for fn in targets]
    for t in threads:
        t.start()
    deadline = time.monotonic() + timeout
    for t in threads:
        t.join(max(0.0, deadline - time.monotonic()))
    assert not any(t.is_alive() for t in threads), "a thread did not finish in time"
    if errors:
        raise errors[0]


# -- the database, read directly ------------------------------------------------------------


@dataclass
class StoredGame:
    room_id: int
    game_id: str
    players: int
    options: dict[str, Any]
    room_status: str
    seed: int  # stored as decimal text (128 bits)
    version: int
    finished: bool
    state: Any
    result: Any
    moves: list[tuple[int, int, Any]]  # (seq, seat, move)


def read_games(db: Path | Engine) -> dict[int, StoredGame]:
    """Every started game in the database file (or the database of an engine, SQLite or
    PostgreSQL), with its move log in ``seq`` order."""
    if isinstance(db, Engine):
        return _read_games_through(db)
    conn = sqlite3.connect(db, timeout=30)
    try:
        rows = conn.execute(
            "SELECT room.id, room.game_id, room.players, room.options, room.status, game.id, "
            "game.seed, game.version, game.finished, game.state, game.result "
            "FROM game JOIN room ON room.id = game.room_id").fetchall()
        games = {}
        for (rid, gid, players, options, status, game_row, seed, version, finished, state,
             result) in rows:
            moves = [(seq, seat, json.loads(move)) for seq, seat, move in conn.execute(
                "SELECT seq, seat, move FROM move WHERE game_id = ? ORDER BY seq", (game_row,))]
            games[rid] = StoredGame(rid, gid, players, json.loads(options), status, int(seed),
                                    version, bool(finished), json.loads(state),
                                    json.loads(result) if result else None, moves)
        return games
    finally:
        conn.close()


def _read_games_through(engine: Engine) -> dict[int, StoredGame]:
    """:func:`read_games` through SQLAlchemy's tables (JSON decoded by the engine's types)."""
    room, game, move = (table.__table__ for table in (Room, Game, Move))  # type: ignore[attr-defined]
    games = {}
    with engine.connect() as conn:
        rows = conn.execute(select(room.c.id, room.c.game_id, room.c.players, room.c.options,
                                   room.c.status, game.c.id, game.c.seed, game.c.version,
                                   game.c.finished, game.c.state, game.c.result)
                            .join_from(game, room, room.c.id == game.c.room_id)).all()
        for (rid, gid, players, options, status, game_row, seed, version, finished, state,
             result) in rows:
            moves = [(seq, seat, data) for seq, seat, data in conn.execute(
                select(move.c.seq, move.c.seat, move.c.move).where(move.c.game_id == game_row)
                .order_by(move.c.seq))]
            games[rid] = StoredGame(rid, gid, players, options, status, int(seed), version,
                                    bool(finished), state, result, moves)
    return games


def replay(stored: StoredGame, upto: int | None = None) -> Any:
    """setup(seed) + the move log (up to version ``upto``)."""
    game = get_game(stored.game_id)
    state = game.setup(stored.players, game.Options.model_validate(stored.options), stored.seed)
    for seq, seat, move in stored.moves:
        if upto is not None and seq > upto:
            break
        state = game.apply(state, seat, move)
    return state


def check_stored(stored: StoredGame) -> Any:
    """The invariants of one stored game; returns the replayed state."""
    assert [m[0] for m in stored.moves] == list(range(1, stored.version + 1)), \
        f"room {stored.room_id}: the move table is not seq 1..{stored.version}"
    game = get_game(stored.game_id)
    state = replay(stored)
    assert canonical(game.dump(state)) == stored.state, \
        f"room {stored.room_id}: the replayed move log differs from the stored snapshot"
    result = game.result(state)
    assert stored.finished == (result is not None)
    assert stored.result == (canonical(result.to_json()) if result else None)
    assert stored.room_status == ("finished" if stored.finished else "playing")
    return state


def expected_state_body(stored: StoredGame, state: Any, seat: int | None) -> dict[str, Any]:
    """What ``GET /state`` must answer for ``seat``, computed from the replayed state."""
    game = get_game(stored.game_id)
    result = game.result(state)
    return canonical({"version": stored.version, "active_seats": sorted(game.active_seats(state)),
                      "statuses": [game.seat_status(state, s).doing
                                   for s in range(stored.players)],
                      "your_seat": seat, "view": game.view(state, seat),
                      "result": result.to_json() if result else None})


# -- racing moves and judging the answers -----------------------------------------------------


@dataclass
class Attempt:
    """One move sent during a race, and what the server answered."""

    client: Client
    seat: int | None  # None: a spectator
    move: Any
    expected: int | None
    via: str  # "rest" or "ws"
    status: int = 0
    version: int | None = None  # ack version, REST state version, or the refusal's version
    detail: str = ""
    rule: str | None = None

    def payload(self) -> dict[str, Any]:
        body: dict[str, Any] = {"move": self.move}
        if self.expected is not None:
            body["expected_version"] = self.expected
        return body


def send_rest(attempt: Attempt, http: httpx.Client, room: int) -> None:
    answer = http.post(f"/api/rooms/{room}/moves", json=attempt.payload())
    body = answer.json()
    attempt.status = answer.status_code
    attempt.version = body.get("version")
    attempt.detail = body.get("detail", "")
    attempt.rule = body.get("rule")


def send_ws(attempt: Attempt, ws: Any) -> None:
    ws.send(json.dumps({"type": "move", **attempt.payload()}))
    deadline = time.monotonic() + 15
    while time.monotonic() < deadline:
        message = json.loads(ws.recv(timeout=15))
        if message["type"] == "ack":
            attempt.status, attempt.version = 200, message["version"]
            return
        if message["type"] == "error":
            attempt.status = message["status"]
            attempt.version = message.get("version")
            attempt.detail = message["detail"]
            attempt.rule = message.get("rule")
            return
    raise AssertionError("no answer to a websocket move")


def judge(stored: StoredGame, before: int, attempts: list[Attempt]) -> None:
    """The answers of a race are exactly those of *some* serial order — the one the move table
    shows: every success is a new row (a websocket ack at its very seq), and every refusal is
    what the rules say at the version it reports: 409 game over, 409 stale expected_version,
    403 not your turn (409 when the seat has finished with the phase), else 422 with the rule the
    move breaks. 403 without a version for a
    caller without a seat. Nothing else (no 5xx, no 200 that was not stored)."""
    game = get_game(stored.game_id)
    new = stored.moves[before:]
    assert [seq for seq, _, _ in new] == list(range(before + 1, stored.version + 1))
    won = sorted(json.dumps([a.seat, a.move], sort_keys=True) for a in attempts
                 if a.status == 200)
    rows = sorted(json.dumps([seat, move], sort_keys=True) for _, seat, move in new)
    assert won == rows, "the successes are not exactly the new rows of the move table"
    by_seq = {seq: (seat, move) for seq, seat, move in stored.moves}
    states: dict[int, Any] = {}
    for a in attempts:
        if a.status == 200:
            if a.via == "ws":
                assert by_seq.get(a.version or 0) == (a.seat, a.move), f"ack {a.version}"
            elif a.expected is not None:
                assert by_seq.get(a.expected + 1) == (a.seat, a.move)
                assert a.version is not None and a.version >= a.expected + 1
            continue
        if a.seat is None:
            assert (a.status, a.version) == (403, None), (a.status, a.version, a.detail)
            assert "no seat" in a.detail
            continue
        version = a.version
        assert version is not None and before <= version <= stored.version, \
            (a.status, a.version, a.detail)
        if version not in states:
            states[version] = replay(stored, upto=version)
        state = states[version]
        if game.result(state) is not None:
            want, words = 409, "over"
        elif a.expected is not None and a.expected != version:
            want, words = 409, "stale"
        elif a.seat not in game.active_seats(state):
            done = game.seat_status(state, a.seat).finished  # its part of the phase: 409
            want, words = (409, "") if done else (403, "waiting for")
        else:
            want, words = 422, ""
            try:
                game.apply(state, a.seat, a.move)
            except Exception as exc:  # the rule it breaks must be the one reported
                assert a.rule == getattr(exc, "rule", None), (a.rule, exc)
            else:
                raise AssertionError(f"{a.move} was refused at version {version} but is "
                                     f"legal there: {a.status} {a.detail}")
        assert a.status == want and words in a.detail, \
            (a.via, a.seat, a.expected, version, a.status, a.detail, want)
