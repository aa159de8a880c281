"""Shared fixtures: a real app on a real database — a SQLite file in a temporary folder, or,
with ``CANOPY_TEST_DATABASE=postgresql``, a database of its own on one PostgreSQL server for
the whole session (tests/engines.py), copied from a template migrated once."""

from __future__ import annotations

import os
from collections.abc import Iterator
from itertools import count
from pathlib import Path
from typing import Any

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient
from sqlalchemy.engine import make_url

from app.config import Settings
from app.db import make_engine
from app.main import create_app
from tests.engines import Postgres, start_postgres

#: The engine the ``settings`` fixture's databases run on: "sqlite" (the default) or
#: "postgresql".
TEST_DATABASE = os.environ.get("CANOPY_TEST_DATABASE", "sqlite").strip().lower() or "sqlite"
if TEST_DATABASE not in ("sqlite", "postgresql"):
    raise ValueError(f"CANOPY_TEST_DATABASE is sqlite or postgresql, not {TEST_DATABASE!r}")
ON_POSTGRESQL = TEST_DATABASE == "postgresql"


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers", "sqlite_only(reason): about SQLite itself (its file, WAL, raw sqlite3); "
                   "skipped when CANOPY_TEST_DATABASE=postgresql")


def pytest_runtest_setup(item: pytest.Item) -> None:
    marker = item.get_closest_marker("sqlite_only")
    if marker is not None and ON_POSTGRESQL:
        reason = marker.args[0] if marker.args else marker.kwargs.get("reason", "")
        pytest.skip(f"about SQLite itself, not run on PostgreSQL: {reason}")


@pytest.fixture(scope="session")
def postgres() -> Iterator[Postgres]:
    """One PostgreSQL server for the whole session (skipped where it is not installed)."""
    server = start_postgres()
    try:
        yield server
    finally:
        server.stop()


#: The template database every test database on PostgreSQL is copied from.
TEMPLATE = "canopy_head"


@pytest.fixture(scope="session")
def migrated_postgres(postgres: Postgres) -> Postgres:
    """``postgres`` with the template :data:`TEMPLATE` migrated to head once: each test's
    database is a copy of it (:func:`copy_of_template`, ~25 ms), and the app's own migration
    on start finds it at head. (``postgres.fresh()`` still gives empty databases.)"""
    from app.main import migrate

    postgres.sql(f'CREATE DATABASE "{TEMPLATE}" TEMPLATE template0')
    engine = make_engine(postgres.url(TEMPLATE))
    try:
        migrate(engine)
    finally:
        engine.dispose()  # a template is copied only while nobody is connected to it
    return postgres


def copy_of_template(server: Postgres, name: str) -> str:
    """A new database ``name`` copied from :data:`TEMPLATE`; its URL. FILE_COPY copies the
    template's files (one checkpoint, cheap with fsync off): 25 ms here, against 130 ms for
    PostgreSQL 15's default strategy, which writes every page to the WAL."""
    server.sql(f'CREATE DATABASE "{name}" TEMPLATE "{TEMPLATE}" STRATEGY FILE_COPY')
    return server.url(name)


def drop_database(server: Postgres, url: str) -> None:
    """Drop the database of ``url``, ending the connections still open to it (an app whose
    lifespan never ran, an engine a test left undisposed): none outlives its test."""
    server.sql(f'DROP DATABASE IF EXISTS "{make_url(url).database}" WITH (FORCE)')


class Databases:
    """New databases for tests on the engine chosen by ``CANOPY_TEST_DATABASE``; the
    PostgreSQL ones are dropped by :meth:`drop` (connections left open are ended)."""

    def __init__(self, request: pytest.FixtureRequest) -> None:
        self.request = request
        self._names = count(1)

    def new(self, folder: Path, name: str = "canopy.db") -> str:
        """A new database's URL: the file ``folder/name`` for SQLite, or a fresh database at
        head on the session's PostgreSQL."""
        if not ON_POSTGRESQL:
            return f"sqlite:///{folder / name}"
        server: Postgres = self.request.getfixturevalue("migrated_postgres")
        return copy_of_template(server, f"test{next(self._names)}")

    def drop(self, url: str) -> None:
        if not url.startswith("postgresql"):
            return
        drop_database(self.request.getfixturevalue("migrated_postgres"), url)


@pytest.fixture(scope="session")
def databases(request: pytest.FixtureRequest) -> Databases:
    return Databases(request)


@pytest.fixture
def database_url(databases: Databases, tmp_path: Path) -> Iterator[str]:
    """A new database for this test (see :class:`Databases`), dropped after it."""
    url = databases.new(tmp_path)
    try:
        yield url
    finally:
        databases.drop(url)


@pytest.fixture
def settings(database_url: str) -> Settings:
    return Settings(database_url=database_url, bot_delay=0.0, htmx_source="local", **GENEROUS)


#: The public host's limits are for strangers; the tests play many games from one address.
#: (tests/hardening/test_edge.py checks the real limits.)
GENEROUS = {"rate_signups": "100000/minute", "rate_rooms": "100000/minute",
            "rate_joins": "100000/minute", "rate_starts": "100000/minute",
            "max_open_rooms": 100000, "max_running_rooms": 100000,
            "ws_per_address": 100000, "ws_per_player": 1000,
            "rate_handshakes": "100000/minute", "rate_renders": "100000/minute",
            "requests_per_address": 0}


@pytest.fixture
def app(settings: Settings) -> FastAPI:
    return create_app(settings)


@pytest.fixture
def client(app: FastAPI) -> Iterator[TestClient]:
    with TestClient(app) as test_client:
        yield test_client


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


class Player:
    """A player driving the API with their own token (no cookies shared)."""

    def __init__(self, client: TestClient, name: str) -> None:
        self.client = client
        body = client.post("/api/players", json={"name": name}).json()
        client.cookies.clear()
        self.id: int = body["id"]
        self.name: str = body["name"]
        self.token: str = body["token"]
        self.headers = bearer(self.token)

    def get(self, path: str) -> Any:
        return self.client.get(path, headers=self.headers)

    def post(self, path: str, json: Any = None) -> Any:
        return self.client.post(path, json=json, headers=self.headers)

    def delete(self, path: str) -> Any:
        return self.client.delete(path, headers=self.headers)


@pytest.fixture
def players(client: TestClient) -> list[Player]:
    return [Player(client, name) for name in ("Ana", "Bo", "Cai", "Dee")]


def started_room(players: list[Player], n: int = 2, game: str = "arboretum") -> int:
    """A room of ``n`` seated people, started; returns its id."""
    room = players[0].post("/api/rooms", {"game": game, "players": n}).json()
    for p in players[1:n]:
        assert p.post(f"/api/rooms/{room['id']}/join").status_code == 200
    assert players[0].post(f"/api/rooms/{room['id']}/start").status_code == 200
    return int(room["id"])
