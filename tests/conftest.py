"""Shared fixtures: a real app on a real SQLite file in a temporary folder."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient

from app.config import Settings
from app.main import create_app


@pytest.fixture
def settings(tmp_path: Path) -> Settings:
    return Settings(database_url=f"sqlite:///{tmp_path / 'canopy.db'}", bot_delay=0.0,
                    htmx_source="local", **GENEROUS)


#: The public host's limits are for strangers; the tests play many games from one address.
#: (tests/hardening/test_edge.py checks the real limits.)
GENEROUS = {"rate_signups": "100000/minute", "rate_rooms": "100000/minute",
            "rate_joins": "100000/minute", "max_open_rooms": 100000,
            "ws_per_address": 100000, "ws_per_player": 1000}


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
