"""Several app instances in one test process, as several server processes would run: each its
own ``create_app()`` with its own event loop (a TestClient each), all on one PostgreSQL database
and one Redis, both real servers from Debian's packages (tests/engines.py; skipped, or failed
under CI, where they are missing)."""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Iterator
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass
from typing import Any

import anyio
import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient
from sqlalchemy.engine import make_url
from starlette.testclient import WebSocketTestSession

from app.config import Settings
from app.main import create_app
from tests.conftest import GENEROUS, Player
from tests.engines import Postgres, Redis, start_redis

#: Short periods keep the tests fast: the resync, and the lease's retry.
RESYNC = 0.3
LEASE = 0.2


@pytest.fixture(scope="session")
def redis_server() -> Iterator[Redis]:
    """One Redis server for the session (emptied before each test that asks for it)."""
    server = start_redis()
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture
def redis_url(redis_server: Redis) -> str:
    import redis

    with redis.Redis.from_url(redis_server.url) as client:
        client.flushall()
    return redis_server.url


@pytest.fixture
def shared_database(migrated_postgres: Postgres) -> Iterator[str]:
    """A new PostgreSQL database at the newest migration, dropped after the test."""
    url = migrated_postgres.fresh("scale")
    try:
        yield url
    finally:
        migrated_postgres.sql(
            f'DROP DATABASE IF EXISTS "{make_url(url).database}" WITH (FORCE)')


def scale_settings(database_url: str, broadcast_url: str, **changes: Any) -> Settings:
    values: dict[str, Any] = {"database_url": database_url, "broadcast_url": broadcast_url,
                              "bot_delay": 0.0, "htmx_source": "local",
                              "resync_seconds": RESYNC, "lease_seconds": LEASE, **GENEROUS}
    return Settings(**{**values, **changes})


@dataclass
class Instance:
    """One app instance (a server process, as far as the others can tell)."""

    app: FastAPI
    client: TestClient

    @property
    def state(self) -> Any:
        return self.app.state

    def get(self, player: Player, path: str) -> Any:
        return self.client.get(path, headers=player.headers)

    def post(self, player: Player, path: str, body: Any = None) -> Any:
        return self.client.post(path, json=body, headers=player.headers)

    def call(self, job: Callable[..., Any], *args: Any) -> Any:
        """Run a coroutine function in the instance's own event loop."""
        return self.client.portal.call(job, *args)


@contextmanager
def instances(*settings: Settings) -> Iterator[list[Instance]]:
    """Start an app per settings (one after the other, like processes), stop them all."""
    with ExitStack() as stack:
        started = []
        for each in settings:
            app = create_app(each)
            started.append(Instance(app, stack.enter_context(TestClient(app))))
        yield started


@pytest.fixture
def pair(shared_database: str, redis_url: str) -> Iterator[list[Instance]]:
    """Two instances on one database and one Redis."""
    with instances(scale_settings(shared_database, redis_url),
                   scale_settings(shared_database, redis_url)) as both:
        yield both


def receive(ws: WebSocketTestSession, seconds: float = 10.0) -> dict[str, Any]:
    """The socket's next JSON message, failing after ``seconds`` rather than waiting for
    ever."""
    async def next_message() -> Any:
        with anyio.fail_after(seconds):
            return await ws._send_rx.receive()

    message = ws.portal.call(next_message)
    assert message["type"] == "websocket.send", message
    body: dict[str, Any] = json.loads(message["text"])
    return body


def receive_until(ws: WebSocketTestSession, kind: str,
                  seconds: float = 10.0) -> dict[str, Any]:
    """The first message of ``kind`` (others are skipped) within ``seconds``."""
    deadline = time.monotonic() + seconds
    while True:
        message = receive(ws, max(0.01, deadline - time.monotonic()))
        if message["type"] == kind:
            return message


def wait_for(check: Callable[[], Any], seconds: float = 10.0, what: str = "") -> Any:
    """Poll ``check()`` until it holds (work in another instance's loop, or in Redis)."""
    deadline = time.monotonic() + seconds
    while True:
        value = check()
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what or check}")
        time.sleep(0.01)


def a_legal_move(instance: Instance, players: list[Player], rid: int
                 ) -> tuple[Player, dict[str, Any], int]:
    """The player whose turn it is, a legal move of theirs and the version (through
    ``instance``)."""
    state = instance.get(players[0], f"/api/rooms/{rid}/state").json()
    player = players[state["active_seats"][0]]
    moves = instance.get(player, f"/api/rooms/{rid}/moves").json()
    return player, moves["moves"][0], moves["version"]
