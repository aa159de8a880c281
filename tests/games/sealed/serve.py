"""The app with the Sealed bids test game installed, for a real uvicorn server:
``uvicorn --factory tests.games.sealed.serve:app_factory`` (the five-seat browser test)."""

from __future__ import annotations

from fastapi import FastAPI

from app.games import registry
from app.main import create_app
from tests.games.sealed import GAME


def app_factory() -> FastAPI:
    registry.GAMES[GAME.id] = GAME
    return create_app()
