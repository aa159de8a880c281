"""Build the upgrade-test fixtures from this repository's own history.

For each release below (a commit and the Alembic revision at it) the script checks the commit
out in a temporary git worktree and runs THAT commit's server (uvicorn with the worktree as
its working directory, so that ``import app`` finds the old code, not the editable install of
today's). Through the old server's JSON API only, it signs up Ana, Bo and Cy and, for every
game the server lists, plays a finished game and leaves one in progress waiting for a person;
it opens a lobby room, and uses what the release's API offers besides (private rooms;
turn-based rooms, clocks, a seat handed to a bot, a rematch offered). Then it stops the server
cleanly (SIGINT), checkpoints SQLite's WAL and writes, in ``tests/upgrade/fixtures/``:

* ``<name>.sql``: the database as SQL text (``sqlite3``'s ``iterdump``), ``alembic_version``
  included: ``sqlite3.connect(path).executescript(text)`` restores it;
* ``<name>.json``: what the old server said: the players with their bearer tokens and each
  room's status, seats, version, active seats, result and features.

tests/upgrade opens each with today's server (which migrates it to head) and checks that the
players, rooms and games still read and play as the old server left them.

Usage: ``.venv/bin/python scripts/upgrade_fixtures.py [r0002 r0003 ...]`` (default: all).
"""

from __future__ import annotations

import http.cookiejar
import json
import os
import random
import shutil
import signal
import socket
import sqlite3
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import closing, contextmanager, suppress
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = ROOT / "tests" / "upgrade" / "fixtures"
PYTHON = ROOT / ".venv" / "bin" / "python"

Json = dict[str, Any]


@dataclass(frozen=True)
class Release:
    name: str
    commit: str
    revision: str
    #: Seeds the move choices (the games' own seeds are drawn by the old server).
    seed: int


RELEASES = (
    Release("r0002", "7aa4a46", "0002", 20002),
    Release("r0003", "0783182", "0003", 20003),
    Release("r0004", "8865799", "0004", 20004),
    Release("r0005", "bedac05", "0005", 20005),
    Release("r0006", "8294904", "0006", 20006),
    Release("r0007", "dcf1482", "0007", 20007),
)

#: The old server's settings: no bot delay, no clean-up, limits no script reaches (settings a
#: commit does not know are ignored by it).
SERVER_ENV = {
    "BOT_DELAY": "0",
    "CLEANUP_EVERY_MINUTES": "0",
    "RATE_SIGNUPS": "1000/minute",
    "RATE_ROOMS": "1000/minute",
    "RATE_JOINS": "1000/minute",
    "MAX_OPEN_ROOMS": "50",
    "HTMX_SOURCE": "cdn",
    "BROADCAST_URL": "memory://",
    "LOG_FORMAT": "text",
}
#: Moves the policy avoids while there are others.
SKIPS = ("skip", "pass")
#: A game in progress is left at least this many moves in.
IN_PROGRESS_MOVES = 15
#: No game is driven further than this many moves of the script's (bots' moves not counted).
MOVE_CAP = 5000
CLOCK = {"minutes": 30, "increment": 5, "on_timeout": "bot"}


# --- the old server ------------------------------------------------------------------------


def git(*args: str) -> str:
    return subprocess.run(["git", *args], cwd=ROOT, check=True, capture_output=True,
                          text=True).stdout.strip()


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


@dataclass
class OldServer:
    """A commit's server on a fresh SQLite database, in a git worktree of that commit."""

    release: Release
    tmp: Path
    port: int = 0
    process: subprocess.Popen[bytes] | None = None

    @property
    def worktree(self) -> Path:
        return self.tmp / "wt"

    @property
    def db(self) -> Path:
        return self.tmp / "canopy.db"

    @property
    def log(self) -> Path:
        return self.tmp / "server.log"

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def env(self) -> dict[str, str]:
        env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "DATABASE_URL")}
        env.update(SERVER_ENV, DATABASE_URL=f"sqlite:///{self.db}")
        return env

    def check_import(self) -> str:
        """The ``app`` package the server will import: it must be the worktree's."""
        found = subprocess.run([str(PYTHON), "-c", "import app; print(app.__file__)"],
                               cwd=self.worktree, env=self.env(), check=True,
                               capture_output=True, text=True).stdout.strip()
        if not Path(found).resolve().is_relative_to(self.worktree.resolve()):
            raise RuntimeError(f"the old server would import {found}, not the worktree's app")
        return found

    def start(self) -> None:
        self.port = free_port()
        with self.log.open("wb") as log:
            self.process = subprocess.Popen(
                [str(PYTHON), "-m", "uvicorn", "--factory", "app.main:app_factory",
                 "--host", "127.0.0.1", "--port", str(self.port)],
                cwd=self.worktree, env=self.env(), stdout=log, stderr=subprocess.STDOUT)
        deadline = time.monotonic() + 90
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"the server of {self.release.commit} exited "
                                   f"({self.process.returncode}):\n{self.log_tail()}")
            with suppress(httpx.HTTPError):
                if httpx.get(f"{self.url}/api/games", timeout=2).status_code == 200:
                    return
            time.sleep(0.2)
        raise RuntimeError(f"the server of {self.release.commit} did not answer:\n"
                           f"{self.log_tail()}")

    def stop(self) -> None:
        """SIGINT and a wait of at most 20 s: the server's own clean shutdown."""
        if self.process is None or self.process.poll() is not None:
            return
        self.process.send_signal(signal.SIGINT)
        try:
            self.process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
            raise RuntimeError("the old server did not stop within 20 s of SIGINT") from None
        finally:
            self.process = None

    def log_tail(self, lines: int = 40) -> str:
        text = self.log.read_text(errors="replace") if self.log.exists() else ""
        return "\n".join(text.splitlines()[-lines:])


@contextmanager
def old_server(release: Release) -> Iterator[OldServer]:
    """A worktree of the release's commit with its server running; everything removed after."""
    tmp = Path(tempfile.mkdtemp(prefix=f"canopy-{release.name}-"))
    server = OldServer(release, tmp)
    git("worktree", "add", "--detach", str(server.worktree), release.commit)
    try:
        print(f"  old code: {server.check_import()}")
        server.start()
        try:
            yield server
        finally:
            if server.process is not None:  # an error while playing: stop it anyway
                with suppress(RuntimeError):
                    server.stop()
    finally:
        git("worktree", "remove", "--force", str(server.worktree))
        shutil.rmtree(tmp, ignore_errors=True)


# --- the API -------------------------------------------------------------------------------


class ApiError(RuntimeError):
    def __init__(self, response: httpx.Response) -> None:
        super().__init__(f"{response.request.method} {response.request.url.path}: "
                         f"{response.status_code} {response.text[:400]}")
        self.status = response.status_code


@dataclass(frozen=True)
class Player:
    id: int
    name: str
    token: str


class Api:
    """The old server's JSON API with bearer tokens. No cookie is ever kept: a request that
    carries the token cookie without an ``Origin`` is refused by the later releases' guard."""

    def __init__(self, url: str) -> None:
        no_cookies = http.cookiejar.CookieJar(http.cookiejar.DefaultCookiePolicy(
            allowed_domains=[]))
        self.http = httpx.Client(base_url=url, timeout=60, cookies=no_cookies)
        self.spec: Json = self.get("/openapi.json")

    def call(self, method: str, path: str, who: Player | None = None,
             body: Json | None = None) -> Any:
        headers = {"Authorization": f"Bearer {who.token}"} if who else {}
        response = self.http.request(method, path, headers=headers, json=body)
        if response.status_code >= 400:
            raise ApiError(response)
        return response.json()

    def get(self, path: str, who: Player | None = None) -> Any:
        return self.call("GET", path, who)

    def post(self, path: str, who: Player | None = None, body: Json | None = None) -> Any:
        return self.call("POST", path, who, body)

    def has_path(self, path: str) -> bool:
        return path in self.spec.get("paths", {})

    def room_fields(self) -> set[str]:
        """The fields ``POST /api/rooms`` takes in this release."""
        body = self.spec["paths"]["/api/rooms"]["post"]["requestBody"]["content"]
        schema = body["application/json"]["schema"]
        if "$ref" in schema:
            schema = self.spec["components"]["schemas"][schema["$ref"].rsplit("/", 1)[1]]
        return set(schema.get("properties", {}))


@dataclass(frozen=True)
class Capabilities:
    """What a release's API offers beyond rooms, seats, bots and moves."""

    private: bool
    seated: bool
    pace: bool
    clock: bool
    hand_over: bool
    rematch: bool

    @classmethod
    def of(cls, api: Api) -> Capabilities:
        fields = api.room_fields()
        return cls(private="private" in fields, seated="seated" in fields,
                   pace="pace" in fields, clock="clock" in fields,
                   hand_over=api.has_path("/api/rooms/{room_id}/hand-over"),
                   rematch=api.has_path("/api/rooms/{room_id}/rematch"))


# --- rooms and play ------------------------------------------------------------------------


@dataclass
class Room:
    id: int
    game: str
    kind: str
    #: The people seated, by seat; the host (who may watch without a seat).
    people: dict[int, Player]
    host: Player
    features: list[str] = field(default_factory=list)
    #: Seats handed to a bot.
    handed: set[int] = field(default_factory=set)
    #: Moves the script played in it.
    moves: int = 0

    @property
    def reader(self) -> Player:
        """Who reads its state: a seated person (the host of a table of bots)."""
        return next(iter(self.people.values()), self.host)


class Table:
    """Creates rooms and plays them through the API."""

    def __init__(self, api: Api, caps: Capabilities, rng: random.Random,
                 players: dict[str, Player]) -> None:
        self.api = api
        self.caps = caps
        self.rng = rng
        self.players = players
        self.rooms: list[Room] = []

    def open(self, game: str, kind: str, host: Player, seats: list[Player | str | None],
             features: list[str] | None = None, **settings: Any) -> Room:
        """A room of ``game`` with ``seats`` (a person, "bot", or None: left free); the host
        sits first unless the seats leave them out (then they only host, where the release
        allows it)."""
        body: Json = {"game": game, "players": len(seats), "options": {}, **settings}
        seated = seats[0] == host
        if not seated:
            if not self.caps.seated:
                raise RuntimeError("this release seats the creator: no table of bots")
            body["seated"] = False
        made = self.api.post("/api/rooms", host, body)
        room = Room(made["id"], game, kind, {}, host, list(features or []))
        code = made.get("code")
        for index, who in enumerate(seats):
            if isinstance(who, Player):
                if who != host:
                    join: Json = {"seat": index}
                    if settings.get("private"):
                        join["code"] = code
                    self.api.post(f"/api/rooms/{room.id}/join", who, join)
                room.people[index] = who
            elif who == "bot":
                self.api.post(f"/api/rooms/{room.id}/bots", host, {"seat": index})
        self.rooms.append(room)
        return room

    def start(self, room: Room) -> None:
        self.api.post(f"/api/rooms/{room.id}/start", room.host)

    def state(self, room: Room) -> Json:
        state: Json = self.api.get(f"/api/rooms/{room.id}/state", room.reader)
        return state

    def people_to_move(self, room: Room, state: Json) -> list[int]:
        """The active seats a person plays (not a bot standing in for them)."""
        return [seat for seat in state["active_seats"]
                if seat in room.people and seat not in room.handed]

    def wait_for_people(self, room: Room, timeout: float = 600) -> Json:
        """Poll until the game waits for a person or is over (bots move by themselves)."""
        deadline = time.monotonic() + timeout
        while True:
            state = self.state(room)
            if state["result"] is not None or self.people_to_move(room, state):
                return state
            if time.monotonic() > deadline:
                raise RuntimeError(f"room {room.id}: the bots did not reach a person's turn "
                                   f"or the end in {timeout:.0f} s")
            time.sleep(0.02)

    def play(self, room: Room, enough: Callable[[Room, Json], bool] | None = None,
             power_first: bool = False) -> Json:
        """People move (the policy's choices) until ``enough(state)`` while a person is to move,
        or the end. Returns the last state."""
        while True:
            state = self.wait_for_people(room)
            if state["result"] is not None or (enough and enough(room, state)):
                return state
            if room.moves >= MOVE_CAP:
                raise RuntimeError(f"room {room.id} ({room.game}): no end after {MOVE_CAP} "
                                   "moves")
            for seat in self.people_to_move(room, state):
                who = room.people[seat]
                legal = self.api.get(f"/api/rooms/{room.id}/moves", who)["moves"]
                if not legal:
                    continue
                move = choose(legal, self.rng, power_first=power_first)
                try:
                    self.api.post(f"/api/rooms/{room.id}/moves", who, {"move": move})
                except ApiError as exc:  # a bot moved in between: look again
                    if exc.status not in (403, 409, 422):
                        raise
                    continue
                room.moves += 1
                break

    def in_progress(self, room: Room, state: Json) -> bool:
        """At least the wanted moves in, not over, and a person to move."""
        return (state["version"] >= IN_PROGRESS_MOVES and state["result"] is None
                and bool(self.people_to_move(room, state)))

    def hand_over(self, room: Room) -> None:
        """A person's seat to a bot, while the game waits for another person: the bot cannot
        end the game before that person moves."""
        state = self.wait_for_people(room)
        waiting = set(self.people_to_move(room, state))
        seat = next(s for s in sorted(room.people) if s not in waiting and s not in room.handed)
        self.api.post(f"/api/rooms/{room.id}/hand-over", room.people[seat])
        room.handed.add(seat)
        room.features.append("handed-to-bot")
        time.sleep(0.3)  # let the bot make its move if the game waits for it too


def choose(legal: list[Json], rng: random.Random, *, power_first: bool = False) -> Json:
    """A light policy: never undo, skip or pass only when nothing else is legal; with
    ``power_first`` (Evergreen): activate the power whenever possible and apply it before
    anything else."""
    moves = [m for m in legal if m.get("type") != "undo"] or legal
    if power_first:
        if {"type": "power"} in moves:
            return {"type": "power"}
        applications = [m for m in moves
                        if m.get("by") in ("power", "lake") or m.get("type") in ("bush", "lake")]
        if applications:
            return rng.choice(applications)
    moves = [m for m in moves if m.get("type") not in SKIPS] or moves
    return rng.choice(moves)


# --- Evergreen's powers with no use (POW-3) --------------------------------------------------


def pow3_refusal(db: sqlite3.Connection, room_id: int) -> str | None:
    """Replay a stored Evergreen game with TODAY's rules: the power move they refuse by POW-3
    ("a power with no use left"), described, or None if they refuse none (another refusal
    raises)."""
    from app.games.base import IllegalMove
    from app.games.registry import get_game

    game = get_game("evergreen")
    game_id, seed, players, options = db.execute(
        "SELECT game.id, game.seed, room.players, room.options FROM game "
        "JOIN room ON room.id = game.room_id WHERE room.id = ?", (room_id,)).fetchone()
    state = game.setup(players, game.Options.model_validate(json.loads(options)), int(seed))
    rows = db.execute("SELECT seq, seat, move FROM move WHERE game_id = ? ORDER BY seq",
                      (game_id,)).fetchall()
    for seq, seat, text in rows:
        move = json.loads(text)
        try:
            state = game.apply(state, seat, move)
        except IllegalMove as exc:
            if exc.rule == "POW-3" and move.get("type") == "power":
                return (f"move {seq} of {len(rows)} (seat {seat}, {move}) refused by "
                        f"{exc.rule}: {exc.reason}")
            raise RuntimeError(f"room {room_id}: move {seq} {move} refused by {exc.rule} "
                               f"({exc.reason}), not a power by POW-3") from exc
    return None


def live_pow3(server: OldServer, room: Room) -> str | None:
    """:func:`pow3_refusal` on the running server's database (a reader beside its writer)."""
    with closing(sqlite3.connect(f"file:{server.db}?mode=ro", uri=True)) as db:
        return pow3_refusal(db, room.id)


# --- a release's scenario ------------------------------------------------------------------


def scenario(server: OldServer, release: Release) -> tuple[dict[str, Player], list[Room], Api]:
    """Ana, Bo and Cy; every game finished and in progress, one lobby room, and the table life
    the release's API offers."""
    api = Api(server.url)
    caps = Capabilities.of(api)
    print(f"  api: {caps}")
    players = {}
    for name in ("Ana", "Bo", "Cy"):
        made = api.post("/api/players", body={"name": name})
        players[name] = Player(made["id"], made["name"], made["token"])
    ana, bo, cy = players["Ana"], players["Bo"], players["Cy"]
    table = Table(api, caps, random.Random(release.seed), players)
    games = [g["id"] for g in api.get("/api/games")]
    print(f"  games: {', '.join(games)}")
    useless_powers = release.revision == "0002"  # POW-3 was not checked yet

    for game in games:
        # 1. a finished game of two seats
        if game == "arboretum":
            room = table.open(game, "finished", ana, [ana, bo])
        elif game == "evergreen" and useless_powers:
            room = table.open(game, "finished", ana, [ana, bo])  # no bot: only our moves
        elif game == "evergreen" or not caps.seated:
            room = table.open(game, "finished", ana, [ana, "bot"])
        else:  # Mycelia and Evo: a table of two bots that Ana hosts and watches
            room = table.open(game, "finished", ana, ["bot", "bot"])
        table.start(room)
        final = table.play(room, power_first=useless_powers and game == "evergreen")
        if final["result"] is None:
            raise RuntimeError(f"room {room.id} ({game}) did not finish")
        if useless_powers and game == "evergreen":
            found = live_pow3(server, room)
            if found is None:
                raise RuntimeError(f"room {room.id}: no power without use was played")
            room.features.append("power-without-use")
        if game == "arboretum" and caps.rematch:
            rematch = api.post(f"/api/rooms/{room.id}/rematch", ana)
            room.features.append("rematch-offered")
            table.rooms.append(Room(rematch["id"], game, "rematch", {0: ana, 1: bo}, ana,
                                    ["rematch"]))
        print(f"  {game}: finished in room {room.id} (version {final['version']})")

        # 2. a game in progress, waiting for a person
        settings: Json = {}
        features: list[str] = []
        if game == "arboretum" and caps.private:
            settings["private"] = True
            features.append("private")
        if game == "evergreen" and caps.pace:
            settings["pace"] = "turn"
            features.append("turn-based")
        if game == "evo" and caps.clock:
            settings.update(pace="live", clock=CLOCK)
            features.append("clock")
        hand_over = game == "mycelia" and caps.hand_over
        seats: list[Player | str | None] = ([ana, bo, cy] if hand_over or useless_powers
                                     else [ana, bo, "bot"])
        room = table.open(game, "in_progress", ana, seats, features, **settings)
        table.start(room)
        if useless_powers and game == "evergreen":
            table.play(room, lambda r, s: table.in_progress(r, s)
                       and live_pow3(server, r) is not None, power_first=True)
            room.features.append("power-without-use")
        else:
            table.play(room, table.in_progress)
        if hand_over:
            table.hand_over(room)
        state = table.wait_for_people(room)
        if not table.in_progress(room, state):
            raise RuntimeError(f"room {room.id} ({game}) is not left in progress: {state}")
        print(f"  {game}: in progress in room {room.id} (version {state['version']}, "
              f"{', '.join(room.features) or 'plain'})")

    # 3. a lobby room, never started
    table.open("arboretum", "lobby", ana, [ana, bo, None])
    return players, table.rooms, api


# --- the fixture ---------------------------------------------------------------------------


def describe(api: Api, room: Room) -> Json:
    """A room's manifest entry: what the old server says of it (``GET /api/rooms/{id}`` and,
    once dealt, ``GET /state`` read by a seated person)."""
    info = api.get(f"/api/rooms/{room.id}", room.reader)
    state: Json | None = None
    if info["status"] != "lobby":
        state = api.get(f"/api/rooms/{room.id}/state", room.reader)
    return {
        "id": room.id,
        "game": info["game"],
        "players": info["players"],
        "status": info["status"],
        "private": bool(info.get("private", False)),
        "kind": room.kind,
        "seats": [{"index": seat["index"],
                   "player_id": seat["player"]["id"] if seat["player"] else None,
                   "bot": seat["bot"]} for seat in info["seats"]],
        "version": state["version"] if state else None,
        "active_seats": state["active_seats"] if state else None,
        "result": state["result"] if state else None,
        "features": room.features,
    }


def dump(db: Path) -> str:
    """The database as SQL text, after a checkpoint that empties the WAL into it."""
    with closing(sqlite3.connect(db)) as connection:
        busy, _, _ = connection.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchone()
        if busy:
            raise RuntimeError("the WAL checkpoint was blocked")
        return "\n".join(connection.iterdump()) + "\n"


def restore(sql: str) -> sqlite3.Connection:
    connection = sqlite3.connect(":memory:")
    connection.executescript(sql)
    return connection


def check_fixture(sql: str, manifest: Json) -> list[str]:
    """Restore the dump: its revision, its rooms, and (r0002) Evergreen's powers without use
    refused by today's rules. Returns what the checks printed."""
    notes = []
    with closing(restore(sql)) as db:
        (revision,) = db.execute("SELECT version_num FROM alembic_version").fetchone()
        if revision != manifest["revision"]:
            raise RuntimeError(f"the dump is at revision {revision}, not {manifest['revision']}")
        rooms = {row[0]: row[1] for row in db.execute("SELECT id, status FROM room")}
        for room in manifest["rooms"]:
            if rooms.get(room["id"]) != room["status"]:
                raise RuntimeError(f"room {room['id']} is {rooms.get(room['id'])} in the dump, "
                                   f"{room['status']} by the API")
        for room in manifest["rooms"]:
            if "power-without-use" in room["features"]:
                found = pow3_refusal(db, room["id"])
                if found is None:
                    raise RuntimeError(f"room {room['id']}: today's rules refuse no power")
                notes.append(f"POW-3 check, room {room['id']} ({room['kind']}): {found}")
    return notes


@dataclass
class Built:
    release: Release
    manifest: Json
    sizes: dict[str, int]
    seconds: float
    notes: list[str]


def build(release: Release) -> Built:
    """Play the release's scenario on its own server and write its two fixture files."""
    started = time.monotonic()
    sha = git("rev-parse", f"{release.commit}^{{commit}}")
    print(f"{release.name}: {sha} (revision {release.revision})")
    with old_server(release) as server:
        players, rooms, api = scenario(server, release)
        entries = [describe(api, room) for room in rooms]
        api.http.close()
        server.stop()
        sql = dump(server.db)
    manifest = {
        "name": release.name, "commit": sha, "revision": release.revision,
        "players": [{"id": p.id, "name": p.name, "token": p.token} for p in players.values()],
        "rooms": entries,
    }
    notes = check_fixture(sql, manifest)
    FIXTURES.mkdir(parents=True, exist_ok=True)
    init = FIXTURES.parent / "__init__.py"
    if not init.exists():
        init.write_text("")
    paths = {"sql": FIXTURES / f"{release.name}.sql", "json": FIXTURES / f"{release.name}.json"}
    paths["sql"].write_text(sql)
    paths["json"].write_text(json.dumps(manifest, indent=1, sort_keys=True) + "\n")
    sizes = {kind: path.stat().st_size for kind, path in paths.items()}
    return Built(release, manifest, sizes, time.monotonic() - started, notes)


def summary(built: Built) -> str:
    lines = [f"{built.release.name} ({built.manifest['commit'][:7]}, revision "
             f"{built.release.revision}): {built.sizes['sql'] / 1024:.0f} KiB SQL, "
             f"{built.sizes['json'] / 1024:.0f} KiB JSON, {built.seconds:.0f} s"]
    for room in built.manifest["rooms"]:
        features = f" [{', '.join(room['features'])}]" if room["features"] else ""
        lines.append(f"  room {room['id']:>2} {room['game']:<10} {room['kind']:<12} "
                     f"{room['status']:<9} version {room['version']}{features}")
    lines.extend(f"  {note}" for note in built.notes)
    return "\n".join(lines)


def main(argv: list[str]) -> int:
    known = {release.name: release for release in RELEASES}
    unknown = [name for name in argv if name not in known]
    if unknown:
        print(f"unknown release(s) {', '.join(unknown)}; known: {', '.join(known)}")
        return 2
    chosen = [known[name] for name in argv] or list(RELEASES)
    results = []
    for release in chosen:
        built = build(release)
        print(summary(built))
        results.append(built)
    if len(results) > 1:
        print("\nsummary")
        for built in results:
            print(summary(built))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
