"""Nothing one visitor does slows every table (issue 28): an innocent player's ``GET /state``
latency, idle and under each flood a single visitor can send, measured in one run.

    .venv/bin/python bench/visitor.py [--seconds 8] [--samples 200] [--server-dir DIR]

The server (``uvicorn --factory app.main:app_factory`` with the production limits, behind a
proxy's ``X-Forwarded-For``) runs pinned to CPU 0 with this timer; each flood runs in a child
process pinned to CPU 1. The database is the newest upgrade fixture (tests/upgrade/fixtures)
with its finished games copied until there are ``--finished`` of them, so that replays can be
asked round-robin. The innocent is a person in a two-player Arboretum game reading
``GET /state`` every 20 ms. The floods, one after the other, each from one address:

- **pages**: 4 clients reloading a finished Evergreen game's table and replay pages;
- **replays**: 4 clients asking replay steps round-robin over every finished game;
- **handshakes**: a client opening and closing the JSON socket as fast as it can;
- **resyncs**: 50 sockets each asking ``resync since 0`` 20 times a second;
- **bot tables**: a client creating bot-only tables and starting them, from 3 addresses.

Prints, per flood, the innocent's median and p95 (ms), the ratio of the median to idle (the
issue's target: at most 3), and how the flooder was answered (status counts).
"""

from __future__ import annotations

import argparse
import asyncio
import collections
import contextlib
import itertools
import json
import multiprocessing
import os
import random
import shutil
import socket
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import httpx
from websockets.asyncio.client import connect

ROOT = Path(__file__).resolve().parent.parent
FIXTURE = ROOT / "tests" / "upgrade" / "fixtures" / "r0007"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def database(folder: Path, finished: int) -> tuple[Path, list[int], int]:
    """The fixture's database with its finished games copied until there are ``finished``;
    (its file, the finished rooms, a finished Evergreen room)."""
    path = folder / "canopy.db"
    with sqlite3.connect(path) as db:
        db.executescript(FIXTURE.with_suffix(".sql").read_text())
        originals = [r for (r,) in db.execute(
            "SELECT id FROM room WHERE status = 'finished' ORDER BY id")]
        evergreen = next(r for (r,) in db.execute(
            "SELECT id FROM room WHERE status = 'finished' AND game_id = 'evergreen'"))
        rooms = list(originals)
        for source in itertools.cycle(originals):
            if len(rooms) >= finished:
                break
            rooms.append(copy_room(db, source))
    return path, rooms, evergreen


def copy_room(db: sqlite3.Connection, source: int) -> int:
    """A copy of a finished room with its seats, game and moves; the copy's id."""
    def copy(table: str, key: str, old: int, new: int | None = None,
             skip: tuple[str, ...] = ()) -> int:
        names = [c[1] for c in db.execute(f'PRAGMA table_info("{table}")')
                 if c[1] not in ("id", key, *skip)]
        quoted = ", ".join(f'"{c}"' for c in names)
        if new is None:  # the room itself: a new invite code
            cursor = db.execute(f'INSERT INTO "{table}" ({quoted}, code) SELECT {quoted}, '
                                f"lower(hex(randomblob(8))) FROM {table} WHERE id = ?", (old,))
        else:
            cursor = db.execute(f'INSERT INTO "{table}" ("{key}", {quoted}) SELECT ?, {quoted} '
                                f'FROM "{table}" WHERE "{key}" = ?', (new, old))
        assert cursor.lastrowid is not None
        return cursor.lastrowid

    room = copy("room", "code", source, skip=("rematch_id", "rematch_of"))
    copy("seat", "room_id", source, room)
    old_game = db.execute("SELECT id FROM game WHERE room_id = ?", (source,)).fetchone()[0]
    game = copy("game", "room_id", source, room)
    copy("move", "game_id", old_game, game)
    return room


# -- the floods (each in its own process, on CPU 1) -------------------------------------------

Flood = Callable[[str, dict[str, Any], "multiprocessing.synchronize.Event", Any], Awaitable[None]]


def tally(statuses: Any, status: int | str) -> None:
    with statuses.get_lock():
        index = {200: 0, 429: 1}.get(status, 2) if isinstance(status, int) else 3
        statuses[index] += 1


async def pages(base: str, setup: dict[str, Any], stop: Any, statuses: Any) -> None:
    room = setup["evergreen"]
    async with httpx.AsyncClient(base_url=base, timeout=30,
                                 headers={"X-Forwarded-For": "203.0.113.7"}) as http:
        async def reader(path: str) -> None:
            while not stop.is_set():
                tally(statuses, (await http.get(path)).status_code)

        await asyncio.gather(*(reader(p) for p in (f"/rooms/{room}", f"/rooms/{room}/replay",
                                                   f"/rooms/{room}", f"/rooms/{room}/replay")))


async def replays(base: str, setup: dict[str, Any], stop: Any, statuses: Any) -> None:
    rooms = setup["finished"]
    async with httpx.AsyncClient(base_url=base, timeout=30,
                                 headers={"X-Forwarded-For": "203.0.113.8"}) as http:
        async def reader(offset: int) -> None:
            rng = random.Random(offset)
            for room in itertools.cycle(rooms[offset:] + rooms[:offset]):
                if stop.is_set():
                    return
                answer = await http.get(f"/rooms/{room}/replay?v={rng.randrange(1, 60)}")
                tally(statuses, answer.status_code)

        await asyncio.gather(*(reader(i * 20) for i in range(4)))


async def handshakes(base: str, setup: dict[str, Any], stop: Any, statuses: Any) -> None:
    url = base.replace("http", "ws") + f"/ws/rooms/{setup['innocent_room']}"
    while not stop.is_set():
        try:
            async with connect(url, additional_headers={"X-Forwarded-For": "203.0.113.9"},
                               compression=None, max_size=None) as ws:
                message = json.loads(await ws.recv())
                tally(statuses, 429 if message.get("status") == 429 else 200)
        except Exception as exc:  # refused before or after the handshake
            tally(statuses, 429 if "429" in str(exc) else "closed")
            await asyncio.sleep(0.005)


async def resyncs(base: str, setup: dict[str, Any], stop: Any, statuses: Any) -> None:
    url = (base.replace("http", "ws") + f"/ws/rooms/{setup['evergreen']}")

    async def one() -> None:
        with contextlib.suppress(Exception):
            async with connect(url, additional_headers={"X-Forwarded-For": "203.0.113.10"},
                               compression=None, max_size=None) as ws:
                await ws.recv()

                async def reader() -> None:
                    async for message in ws:
                        kind = json.loads(message)
                        tally(statuses, 200 if kind.get("type") == "patch"
                              else kind.get("status", "other"))

                task = asyncio.create_task(reader())
                while not stop.is_set():
                    await ws.send('{"type":"resync","since":0}')
                    await asyncio.sleep(0.05)
                task.cancel()

    await asyncio.gather(*(one() for _ in range(50)))


async def bot_tables(base: str, setup: dict[str, Any], stop: Any, statuses: Any) -> None:
    async def from_address(address: str) -> None:
        headers = {"X-Forwarded-For": address}
        async with httpx.AsyncClient(base_url=base, timeout=30, headers=headers) as http:
            player = await http.post("/api/players", json={"name": f"Flood {address[-2:]}"})
            http.cookies.clear()
            if player.status_code != 200:
                tally(statuses, player.status_code)
                return
            auth = {**headers, "Authorization": f"Bearer {player.json()['token']}"}
            while not stop.is_set():
                room = await http.post("/api/rooms", headers=auth, json={
                    "game": "evergreen", "players": 4, "seated": False})
                if room.status_code != 201:
                    tally(statuses, room.status_code)
                    await asyncio.sleep(0.05)
                    continue
                rid = room.json()["id"]
                for _ in range(4):
                    await http.post(f"/api/rooms/{rid}/bots", headers=auth)
                tally(statuses, (await http.post(f"/api/rooms/{rid}/start",
                                                 headers=auth)).status_code)

    await asyncio.gather(*(from_address(f"198.51.100.{i}") for i in (21, 22, 23)))


FLOODS: dict[str, Flood] = {"pages": pages, "replays": replays, "handshakes": handshakes,
                            "resyncs": resyncs, "bot tables": bot_tables}


def run_flood(name: str, base: str, setup: dict[str, Any], stop: Any, statuses: Any) -> None:
    with contextlib.suppress(OSError):
        os.sched_setaffinity(0, {1})
    asyncio.run(FLOODS[name](base, setup, stop, statuses))


# -- the innocent -----------------------------------------------------------------------------

async def innocent(base: str) -> dict[str, Any]:
    """A started two-player Arboretum room: its id and its first player's headers."""
    async with httpx.AsyncClient(base_url=base, timeout=30,
                                 headers={"X-Forwarded-For": "192.0.2.1"}) as http:
        tokens = []
        for name in ("Ana", "Bo"):
            tokens.append((await http.post("/api/players", json={"name": name})).json()["token"])
            http.cookies.clear()
        auth = [{"Authorization": f"Bearer {t}"} for t in tokens]
        room = (await http.post("/api/rooms", headers=auth[0], json={
            "game": "arboretum", "players": 2})).json()["id"]
        await http.post(f"/api/rooms/{room}/join", headers=auth[1])
        await http.post(f"/api/rooms/{room}/start", headers=auth[0])
        return {"innocent_room": room, "innocent": auth[0]}


async def latencies(base: str, setup: dict[str, Any], samples: int) -> list[float]:
    times = []
    async with httpx.AsyncClient(base_url=base, timeout=60,
                                 headers={"X-Forwarded-For": "192.0.2.1"}) as http:
        for _ in range(samples):
            start = time.perf_counter()
            answer = await http.get(f"/api/rooms/{setup['innocent_room']}/state",
                                    headers=setup["innocent"])
            times.append((time.perf_counter() - start) * 1000)
            assert answer.status_code == 200, answer.text
            await asyncio.sleep(0.02)
    return times


def summary(times: list[float]) -> tuple[float, float]:
    ordered = sorted(times)
    return statistics.median(ordered), ordered[int(0.95 * (len(ordered) - 1))]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--samples", type=int, default=200)
    parser.add_argument("--finished", type=int, default=80)
    parser.add_argument("--floods", default=",".join(FLOODS))
    parser.add_argument("--server-dir", default=str(ROOT))
    args = parser.parse_args(argv)
    with contextlib.suppress(OSError):
        os.sched_setaffinity(0, {0})
    folder = Path(tempfile.mkdtemp(prefix="canopy-visitor-"))
    db, finished, evergreen = database(folder, args.finished)
    port = free_port()
    env = {**os.environ, "DATABASE_URL": f"sqlite:///{db}", "TRUST_FORWARDED": "true",
           "CLEANUP_EVERY_MINUTES": "0", "LOG_FORMAT": "text"}
    served = "app.serving" if (Path(args.server_dir) / "app" / "serving.py").exists() \
        else "uvicorn"  # an older checkout: plain uvicorn
    command = [sys.executable, "-m", served, "--factory", "app.main:app_factory",
               "--port", str(port), "--ws-per-message-deflate", "false", "--log-level",
               "warning"]
    if shutil.which("taskset"):
        command = ["taskset", "-c", "0", *command]
    rows = []
    with open(folder / "server.log", "wb") as log:
        server = subprocess.Popen(command, cwd=args.server_dir, env=env, stdout=log,
                                  stderr=subprocess.STDOUT)
        try:
            base = f"http://127.0.0.1:{port}"
            for _ in range(300):
                with contextlib.suppress(httpx.HTTPError):
                    if httpx.get(base + "/healthz").status_code == 200:
                        break
                time.sleep(0.1)
            setup = {**asyncio.run(innocent(base)), "finished": finished,
                     "evergreen": evergreen}
            asyncio.run(latencies(base, setup, 30))  # warm up
            idle = asyncio.run(latencies(base, setup, args.samples))
            rows.append(("idle", summary(idle), None))
            for name in args.floods.split(","):
                stop = multiprocessing.Event()
                statuses = multiprocessing.Array("l", 4)
                child = multiprocessing.Process(target=run_flood,
                                                args=(name, base, setup, stop, statuses))
                child.start()
                time.sleep(2)  # the flood under way
                flooded = asyncio.run(latencies(base, setup, args.samples))
                stop.set()
                child.join(timeout=30)
                if child.is_alive():
                    child.kill()
                counts = collections.Counter(dict(zip(("200", "429", "other", "closed"),
                                                      list(statuses), strict=True)))
                rows.append((name, summary(flooded), counts))
                time.sleep(2)  # let the server settle
        finally:
            server.terminate()
            server.wait(timeout=10)
    idle_median = rows[0][1][0]
    print("| flood | innocent GET /state median ms | p95 ms | median ÷ idle | the flooder's "
          "answers |")
    print("|---|---|---|---|---|")
    for name, (median, p95), counts in rows:
        answers = ", ".join(f"{k}: {v}" for k, v in (counts or {}).items() if v) or "—"
        print(f"| {name} | {median:.1f} | {p95:.1f} | {median / idle_median:.2f} | {answers} |")
    shutil.rmtree(folder, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
