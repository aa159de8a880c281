"""A resync flood: many sockets asking, as fast as the server lets them, for "everything since
version 0" of a long game, while one player reads ``GET /state``. What the flood costs the
others is the ``/state`` latency under it against the same server idle.

    .venv/bin/python bench/flood.py                         # 200 sockets x 20 resyncs/s
    .venv/bin/python bench/flood.py --server-dir /tmp/old   # the same against another checkout

The server (``python -m app.serving --factory app.main:app_factory`` as scripts/serve starts
it, or plain ``uvicorn`` for a checkout older than app/serving.py; a fresh SQLite file) runs
pinned to
CPU 0, and so does this process, which only times requests; the flood runs in a child process
pinned to CPU 1 (a flood of this size keeps a Python client's core busy: timed from the same
process, ``/state`` would measure the client's own queue). Evergreen games for 4 are played
with random legal moves until one reaches ``--versions`` versions; then ``GET /state`` is timed
``--samples`` times idle, and again while ``--sockets`` websockets (one address, its socket cap
raised for the benchmark, and its limit on full resyncs off unless ``--resync-seconds``) each
send ``{"type": "resync", "since": 0}`` ``--rate`` times a
second and read the answers. Prints the medians and p99s, their ratio, the resyncs answered
per second and the server's CPU.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import multiprocessing
import multiprocessing.synchronize
import os
import random
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx
from websockets.asyncio.client import connect

ROOT = Path(__file__).resolve().parent.parent



def serving_module(server_dir: Path) -> str:
    """How the checkout in ``server_dir`` starts its server: ``app.serving`` (uvicorn with
    its options, as scripts/serve) where it has one, else plain ``uvicorn``."""
    return "app.serving" if (server_dir / "app" / "serving.py").exists() else "uvicorn"

def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


async def play(http: httpx.AsyncClient, versions: int, seed: int) -> tuple[int, str] | None:
    """A 4-seat Evergreen game played to ``versions`` versions: (room id, a player's token), or
    ``None`` if it ended before."""
    tokens = []
    for i in range(4):
        answer = await http.post("/api/players", json={"name": f"P{i}"})
        assert answer.status_code == 200, answer.text
        tokens.append(answer.json()["token"])
        http.cookies.clear()  # a script identifies with the bearer token, not a cookie jar
    auth = [{"Authorization": f"Bearer {t}"} for t in tokens]
    room = (await http.post("/api/rooms", json={"game": "evergreen", "players": 4},
                            headers=auth[0])).json()["id"]
    for h in auth[1:]:
        await http.post(f"/api/rooms/{room}/join", headers=h)
    await http.post(f"/api/rooms/{room}/start", headers=auth[0])
    rng, version = random.Random(seed), 0
    while version < versions:
        state = (await http.get(f"/api/rooms/{room}/state", headers=auth[0])).json()
        if state["result"] is not None:
            return None
        seat = rng.choice(state["active_seats"])
        legal = (await http.get(f"/api/rooms/{room}/moves", headers=auth[seat])).json()["moves"]
        version = (await http.post(f"/api/rooms/{room}/moves", headers=auth[seat],
                                   json={"move": rng.choice(legal)})).json()["version"]
    return room, tokens[0]


async def state_latencies(http: httpx.AsyncClient, room: int, token: str,
                          samples: int) -> list[float]:
    times = []
    for _ in range(samples):
        start = time.perf_counter()
        answer = await http.get(f"/api/rooms/{room}/state",
                                headers={"Authorization": f"Bearer {token}"})
        times.append((time.perf_counter() - start) * 1000)
        assert answer.status_code == 200, answer.text
        await asyncio.sleep(0.02)
    return times


async def flooder(url: str, rate: float, stop: multiprocessing.synchronize.Event,
                  answered: Any) -> None:
    async with connect(url, max_size=None, compression=None) as ws:
        await ws.recv()  # the snapshot

        async def reader() -> None:
            async for message in ws:
                if json.loads(message).get("type") == "patch":
                    with answered.get_lock():
                        answered.value += 1

        task = asyncio.create_task(reader())
        try:
            while not stop.is_set():
                await ws.send('{"type":"resync","since":0}')
                await asyncio.sleep(1 / rate)
        finally:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task


def flood(url: str, sockets: int, rate: float, stop: multiprocessing.synchronize.Event,
          answered: Any) -> None:
    """The child process: ``sockets`` flooders on CPU 1 until ``stop``."""
    with contextlib.suppress(OSError):
        os.sched_setaffinity(0, {1})

    async def all_of_them() -> None:
        await asyncio.gather(*(flooder(url, rate, stop, answered) for _ in range(sockets)),
                             return_exceptions=True)

    asyncio.run(all_of_them())


def summary(times: list[float]) -> tuple[float, float]:
    ordered = sorted(times)
    return statistics.median(ordered), ordered[int(0.99 * (len(ordered) - 1))]


async def run(args: argparse.Namespace, base: str, pid: int) -> dict[str, float]:
    async with httpx.AsyncClient(base_url=base, timeout=60) as http:
        game, seed = None, 0
        while game is None:
            seed += 1
            game = await play(http, args.versions, seed)
        room, token = game
        await state_latencies(http, room, token, 20)  # warm up
        idle = await state_latencies(http, room, token, args.samples)
        stop, answered = multiprocessing.Event(), multiprocessing.Value("l", 0)
        url = base.replace("http", "ws") + f"/ws/rooms/{room}?token={token}"
        child = multiprocessing.Process(target=flood, args=(url, args.sockets, args.rate, stop,
                                                            answered))
        child.start()
        await asyncio.sleep(3)  # every socket open and sending
        cpu, counted, start = cpu_seconds(pid), answered.value, time.monotonic()
        flooded = await state_latencies(http, room, token, args.samples)
        elapsed = time.monotonic() - start
        cpu = (cpu_seconds(pid) - cpu) / elapsed
        rate = (answered.value - counted) / elapsed
        stop.set()
        child.join(timeout=30)
    (idle_p50, idle_p99), (flood_p50, flood_p99) = summary(idle), summary(flooded)
    return {"idle_p50": idle_p50, "idle_p99": idle_p99, "flood_p50": flood_p50,
            "flood_p99": flood_p99, "ratio_p50": flood_p50 / idle_p50,
            "resyncs_per_s": rate, "server_cpu": cpu}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--versions", type=int, default=316)
    parser.add_argument("--sockets", type=int, default=200)
    parser.add_argument("--rate", type=float, default=20.0)
    parser.add_argument("--samples", type=int, default=300)
    parser.add_argument("--server-dir", default=str(ROOT))
    parser.add_argument("--label", default="canopy")
    parser.add_argument("--resync-seconds", default="0",
                        help="the server's WS_RESYNC_SECONDS: 0 (default) answers every "
                             "resync, as the figures in the README were measured; 1 is the "
                             "public default, which answers one full resync per socket a "
                             "second and refuses the rest (429)")
    args = parser.parse_args(argv)
    with contextlib.suppress(OSError):  # the timer beside the server; the flood on CPU 1
        os.sched_setaffinity(0, {0})
    folder = Path(tempfile.mkdtemp(prefix="canopy-flood-"))
    port = free_port()
    env = {**os.environ, "DATABASE_URL": f"sqlite:///{folder / 'canopy.db'}", "BOT_DELAY": "0",
           "WS_PER_ADDRESS": "100000", "WS_PER_PLAYER": "100000",
           "RATE_SIGNUPS": "100000/minute", "RATE_ROOMS": "100000/minute",
           "RATE_JOINS": "100000/minute", "MAX_OPEN_ROOMS": "100000",
           "RATE_HANDSHAKES": "100000/minute", "WS_RESYNC_SECONDS": args.resync_seconds}
    command = [sys.executable, "-m", serving_module(Path(args.server_dir)), "--factory",
               "app.main:app_factory", "--port", str(port), "--ws-per-message-deflate", "false",
               "--log-level", "warning"]
    if shutil.which("taskset"):
        command = ["taskset", "-c", "0", *command]
    with open(folder / "server.log", "wb") as log:
        server = subprocess.Popen(command, cwd=args.server_dir, env=env, stdout=log,
                                  stderr=subprocess.STDOUT)
        try:
            base = f"http://127.0.0.1:{port}"
            for _ in range(200):
                with contextlib.suppress(httpx.HTTPError):
                    if httpx.get(base + "/healthz").status_code == 200:
                        break
                time.sleep(0.1)
            result = asyncio.run(run(args, base, server.pid))
        finally:
            server.terminate()
            server.wait(timeout=10)
    print(f"| {args.label} | {args.sockets} sockets × {args.rate:g} resyncs/s, "
          f"{args.versions} versions | /state idle p50 {result['idle_p50']:.1f} ms, "
          f"p99 {result['idle_p99']:.1f} | flooded p50 {result['flood_p50']:.1f} ms, "
          f"p99 {result['flood_p99']:.1f} | ×{result['ratio_p50']:.2f} | "
          f"{result['resyncs_per_s']:.0f} resyncs answered/s | server CPU "
          f"{100 * result['server_cpu']:.0f} % |")
    shutil.rmtree(folder, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
