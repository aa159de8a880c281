"""The Docker image and compose file serve a playable Canopy (skipped without a Docker engine)."""

from __future__ import annotations

import os
import random
import shutil
import subprocess
import time
from pathlib import Path

import httpx
import pytest

from tests.e2e.conftest import free_port

ROOT = Path(__file__).resolve().parents[2]
pytestmark = pytest.mark.docker


def engine_answers() -> bool:
    if shutil.which("docker") is None:
        return False
    return subprocess.run(["docker", "info"], capture_output=True).returncode == 0


def wait_healthy(base: str) -> None:
    for _ in range(120):
        try:
            if httpx.get(base + "/healthz", timeout=2).status_code == 200:
                return
        except httpx.HTTPError:
            time.sleep(0.5)
    raise AssertionError(f"{base} did not become healthy")


def compose_command() -> list[str]:
    if shutil.which("docker-compose"):
        return ["docker-compose"]
    return ["docker", "compose"]


@pytest.mark.usefixtures("docker_engine")
def test_compose_serves_a_game_to_its_end() -> None:
    port = free_port()
    env = {**os.environ, "CANOPY_PORT": str(port)}
    compose = [*compose_command(), "-p", f"canopytest{port}"]
    subprocess.run([*compose, "up", "-d", "--build"], cwd=ROOT, env=env, check=True,
                   timeout=900)
    try:
        base = f"http://127.0.0.1:{port}"
        wait_healthy(base)
        api = httpx.Client(base_url=base, timeout=10)
        token = api.post("/api/players", json={"name": "Docker"}).json()["token"]
        auth = {"Authorization": f"Bearer {token}"}
        room = api.post("/api/rooms", json={"game": "arboretum", "players": 2}, headers=auth)
        assert room.status_code == 201
        rid = room.json()["id"]
        assert api.post(f"/api/rooms/{rid}/bots", headers=auth).status_code == 200
        assert api.post(f"/api/rooms/{rid}/start", headers=auth).status_code == 200
        rng = random.Random(1)
        deadline = time.monotonic() + 300
        while time.monotonic() < deadline:
            state = api.get(f"/api/rooms/{rid}/state", headers=auth).json()
            if state["result"] is not None:
                break
            moves = api.get(f"/api/rooms/{rid}/moves", headers=auth).json()["moves"]
            if moves:
                api.post(f"/api/rooms/{rid}/moves", json={"move": rng.choice(moves)},
                         headers=auth)
            else:
                time.sleep(0.2)  # the bot's turn
        assert state["result"] is not None
        # The SQLite file lives on the named volume: a restarted container still has the game.
        subprocess.run([*compose, "restart"], cwd=ROOT, env=env, check=True, timeout=120)
        wait_healthy(base)
        again = api.get(f"/api/rooms/{rid}/state", headers=auth).json()
        assert again["version"] == state["version"] and again["result"] == state["result"]
    finally:
        subprocess.run([*compose, "down", "-v"], cwd=ROOT, env=env, timeout=300)
