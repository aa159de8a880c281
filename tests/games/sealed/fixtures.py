"""Fixtures that install the Sealed bids test game in the registry, and an app that serves it.

The app's template loader and static mounts are built from ``GAMES`` in ``create_app``, so
``sealed_game`` must run before the app is made: ``sealed_app`` depends on it. Use them with

    from tests.games.sealed.fixtures import sealed_game, sealed_app, sealed_client  # noqa: F401

(a test module may also override ``app`` with ``sealed_app`` so that the ``client`` and
``players`` fixtures of tests/conftest.py play on it).
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient

from app.config import Settings
from app.games import registry
from app.games.base import GameSpec
from app.main import create_app
from tests.games.sealed import GAME


@pytest.fixture
def sealed_game(monkeypatch: pytest.MonkeyPatch) -> GameSpec:
    """Sealed bids in ``app.games.registry.GAMES`` for the test (removed afterwards)."""
    monkeypatch.setitem(registry.GAMES, GAME.id, GAME)
    return GAME


@pytest.fixture
def sealed_app(sealed_game: GameSpec, settings: Settings) -> FastAPI:
    return create_app(settings)


@pytest.fixture
def sealed_client(sealed_app: FastAPI) -> Iterator[TestClient]:
    with TestClient(sealed_app) as test_client:
        yield test_client
