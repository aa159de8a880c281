"""Issue 13, point 5, for real: two containers of the app's image play one game against one
PostgreSQL and one Redis (skipped where no Docker engine answers).

Only the Python base image can be had on these machines, so PostgreSQL and Redis are Debian's,
started on loopback ports (tests/engines.py), and the containers share the host's network
(`--network host`): the engines listen on 127.0.0.1 only, which a container on Docker's bridge
could not reach. The containers are set up as the compose file's replicas are — the database
URL without a password, the password in libpq's PGPASSWORD, which PostgreSQL here requires
(scram-sha-256) — and started at the same moment, as compose starts app1 and app2 once the
database answers. One player plays through each container; after every move both containers
show both players the same state, and a socket held on the first container follows the game
version after version (each patch starting where the last ended), the second container's moves
reaching it through Redis at once.
"""

from __future__ import annotations

import json
import random
import subprocess
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import httpx
import psycopg
import pytest
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection, connect

from tests.docker.scale import ROOT
from tests.engines import Postgres, free_port, start_postgres, start_redis
from tests.hardening.support import GENEROUS_LIMITS

pytestmark = pytest.mark.docker

IMAGE = "canopy:latest"
PASSWORD = "scale-test-secret"


def build_image() -> float:
    """``docker build`` of the project's Dockerfile; its duration in seconds."""
    began = time.monotonic()
    done = subprocess.run(["docker", "build", "-t", IMAGE, "."], cwd=ROOT,
                          capture_output=True, text=True, timeout=900)
    assert done.returncode == 0, f"docker build failed:\n{done.stdout[-3000:]}{done.stderr}"
    return time.monotonic() - began


def require_password(pg: Postgres) -> None:
    """PostgreSQL as the compose file's runs it: connections over TCP need the password."""
    pg.sql(f"ALTER ROLE canopy PASSWORD '{PASSWORD}'")
    (pg.dir / "data" / "pg_hba.conf").write_text(
        "local all all trust\n"
        "host all all 127.0.0.1/32 scram-sha-256\n"
        "host all all ::1/128 scram-sha-256\n")
    pg.sql("SELECT pg_reload_conf()")


class Container:
    """One replica: the image's command (uvicorn through app.serving) on its own port of the
    host's network."""

    def __init__(self, name: str, database_url: str, broadcast_url: str) -> None:
        self.port = free_port()
        self.name = f"canopy-scale-{name}-{self.port}"
        self.base = f"http://127.0.0.1:{self.port}"
        env = {"DATABASE_URL": database_url, "PGPASSWORD": PASSWORD,
               "BROADCAST_URL": broadcast_url, "TRUST_FORWARDED": "true", "BOT_DELAY": "0",
               **GENEROUS_LIMITS}
        self.command = [
            "docker", "run", "-d", "--name", self.name, "--network", "host", "--no-healthcheck",
            *(arg for key, value in env.items() for arg in ("-e", f"{key}={value}")),
            IMAGE, "python", "-m", "app.serving", "--factory", "app.main:app_factory",
            "--host", "127.0.0.1", "--port", str(self.port), "--proxy-headers"]

    def start(self) -> None:
        subprocess.run(self.command, check=True, capture_output=True, timeout=60)

    def logs(self) -> str:
        done = subprocess.run(["docker", "logs", "--tail", "60", self.name],
                              capture_output=True, text=True, timeout=30)
        return done.stdout + done.stderr

    def wait_healthy(self, seconds: float = 120) -> None:
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            try:
                if httpx.get(self.base + "/healthz", timeout=2).status_code == 200:
                    return
            except httpx.HTTPError:
                pass
            running = subprocess.run(["docker", "inspect", "-f", "{{.State.Running}}",
                                      self.name], capture_output=True, text=True)
            if running.stdout.strip() != "true":
                break
            time.sleep(0.2)
        raise AssertionError(f"{self.name} did not answer /healthz:\n{self.logs()}")

    def remove(self) -> None:
        subprocess.run(["docker", "rm", "-f", "-v", self.name], capture_output=True, timeout=60)


class Player:
    """A player who always talks to one container."""

    def __init__(self, base: str, name: str) -> None:
        self.http = httpx.Client(base_url=base, timeout=10)
        body = self.http.post("/api/players", json={"name": name}).json()
        self.token: str = body["token"]
        self.http.headers["Authorization"] = f"Bearer {self.token}"

    def state(self, rid: int, via: httpx.Client | None = None) -> dict[str, Any]:
        answer = (via or self.http).get(f"/api/rooms/{rid}/state",
                                        headers=self.http.headers)
        assert answer.status_code == 200, answer.text
        body: dict[str, Any] = answer.json()
        return body


class Listener:
    """A socket of one container, read by a thread: the versions it was brought to, in
    order, and when (a patch may span several versions: it goes from what the socket last
    had to the room's present version)."""

    def __init__(self, socket: ClientConnection) -> None:
        self.socket = socket
        self.versions: list[int] = []
        self.arrivals: list[tuple[int, float]] = []
        self.broken: list[str] = []
        self.changed = threading.Condition()
        self.thread = threading.Thread(target=self.read, daemon=True)
        self.thread.start()

    def read(self) -> None:
        try:
            for raw in self.socket:
                message = json.loads(raw)
                with self.changed:
                    if message["type"] == "snapshot":
                        self.versions.append(message["version"])
                    elif message["type"] == "patch":
                        if message["from"] != self.versions[-1]:
                            self.broken.append(f"patch {message['from']}→{message['to']} "
                                               f"after version {self.versions[-1]}")
                        self.versions.append(message["to"])
                        self.arrivals.append((message["to"], time.monotonic()))
                    self.changed.notify_all()
        except ConnectionClosed:
            pass

    def heard(self, version: int) -> float:
        """When the socket first held ``version`` (or a later one)."""
        return next(at for to, at in self.arrivals if to >= version)

    def wait_for(self, version: int, seconds: float) -> bool:
        with self.changed:
            return self.changed.wait_for(
                lambda: bool(self.versions) and self.versions[-1] >= version, seconds)


def same_everywhere(players: list[Player], containers: list[httpx.Client], rid: int,
                    version: int, seconds: float = 10) -> dict[str, Any]:
    """Wait (bounded) until every container shows every player ``version`` and the same
    state (the other process hears of a change through Redis: the seat bar's presence a few
    milliseconds later). Returns the first player's state."""
    deadline = time.monotonic() + seconds
    while True:
        seen = [[p.state(rid, via) for via in containers] for p in players]
        versions = {s["version"] for row in seen for s in row}
        assert max(versions) <= version, f"a version beyond {version}: {versions}"
        differ = sorted({k for row in seen for k in row[0].keys() | row[1].keys()
                         if row[0].get(k) != row[1].get(k)})
        if not differ and versions == {version}:
            return seen[0][0]
        if time.monotonic() > deadline:
            shown = " / ".join(json.dumps({k: s.get(k) for k in differ})[:400]
                               for row in seen for s in row)
            raise AssertionError(f"after {seconds}s the containers show versions {versions} "
                                 f"(not {version}) or disagree on {differ}: {shown}")
        time.sleep(0.05)


@pytest.mark.timeout(1200)
@pytest.mark.usefixtures("docker_engine")
def test_two_containers_play_one_game_on_postgres_and_redis() -> None:
    began = time.monotonic()
    pg, redis = start_postgres(), start_redis()
    containers: list[Container] = []
    try:
        database_url = pg.fresh("scale")
        require_password(pg)
        with pytest.raises(psycopg.OperationalError):  # the password is really needed
            psycopg.connect(database_url.replace("+psycopg", ""), connect_timeout=5).close()
        build_seconds = build_image()
        print(f"\nimage build {build_seconds:.1f}s")
        containers = [Container(n, database_url, redis.url) for n in ("one", "two")]
        with ThreadPoolExecutor(2) as pool:  # as compose starts the replicas: together
            list(pool.map(Container.start, containers))
            list(pool.map(Container.wait_healthy, containers))
        ready = time.monotonic()
        print(f"both containers answer /healthz after {ready - began - build_seconds:.1f}s")

        ana, bo = Player(containers[0].base, "Ana"), Player(containers[1].base, "Bo")
        made = ana.http.post("/api/rooms", json={"game": "arboretum", "players": 2})
        assert made.status_code == 201, made.text
        rid = made.json()["id"]
        assert bo.http.post(f"/api/rooms/{rid}/join").status_code == 200
        started = ana.http.post(f"/api/rooms/{rid}/start")
        assert started.status_code == 200, started.text
        both = [ana.http, bo.http]
        state = same_everywhere([ana, bo], both, rid, ana.state(rid)["version"])
        socket_url = containers[0].base.replace("http", "ws", 1) \
            + f"/ws/rooms/{rid}?token={ana.token}"
        with connect(socket_url, open_timeout=10) as socket:
            listener = Listener(socket)
            rng, moves = random.Random(13), {"Ana": 0, "Bo": 0}
            acked_on_two: dict[int, float] = {}  # Bo's moves, acknowledged by container two
            while state["result"] is None:
                seat_states = {p: p.state(rid) for p in (ana, bo)}
                mover = next(p for p, s in seat_states.items()
                             if s["your_seat"] in s["active_seats"])
                legal = mover.http.get(f"/api/rooms/{rid}/moves").json()["moves"]
                played = mover.http.post(f"/api/rooms/{rid}/moves", json={
                    "move": rng.choice(legal), "expected_version": state["version"]})
                assert played.status_code == 200, played.text
                moves["Ana" if mover is ana else "Bo"] += 1
                if mover is bo:
                    acked_on_two[state["version"] + 1] = time.monotonic()
                state = same_everywhere([ana, bo], both, rid, state["version"] + 1)
            played_seconds = time.monotonic() - ready

            assert moves["Ana"] > 0 and moves["Bo"] > 0
            assert listener.wait_for(state["version"], 15), \
                f"the socket on container one stopped at {listener.versions[-1:]}"
        assert listener.broken == []
        assert listener.versions == sorted(set(listener.versions))
        # Container two's moves reach container one's socket through Redis at once, not by
        # the periodic resync (RESYNC_SECONDS, 5 s): the typical delay is far below a second.
        delays = sorted(listener.heard(v) - acked for v, acked in acked_on_two.items())
        assert delays[len(delays) // 2] < 1.0, f"median delay {delays[len(delays) // 2]:.2f}s"
        print(f"container two's moves heard on container one after {1000 * delays[0]:.0f}"
              f"–{1000 * delays[-1]:.0f} ms (median {1000 * delays[len(delays) // 2]:.0f})")
        # The truth is in PostgreSQL: one move row per version, the game finished there.
        with psycopg.connect(database_url.replace("+psycopg", ""), password=PASSWORD) as db:
            stored = db.execute(
                "SELECT g.version, g.finished, count(m.id), min(m.seq), max(m.seq) "
                "FROM game g JOIN move m ON m.game_id = g.id WHERE g.room_id = %s "
                "GROUP BY g.id", (rid,)).fetchone()
        version = state["version"]
        assert stored == (version, True, version, 1, version)
        print(f"a game of {sum(moves.values())} moves in {played_seconds:.1f}s; "
              f"the whole test {time.monotonic() - began:.1f}s")
    except BaseException:
        for container in containers:
            print(f"--- {container.name}\n{container.logs()}")
        raise
    finally:
        for container in containers:
            container.remove()
        pg.stop()
        redis.stop()
