"""The list of games: the platform finds games only through this module (DESIGN.md §1).
Adding a game is one line here plus its folder under ``app/games/``."""

from __future__ import annotations

from app.games.arboretum import GAME as ARBORETUM
from app.games.base import GameSpec
from app.games.evergreen import GAME as EVERGREEN
from app.games.evo import GAME as EVO
from app.games.mycelia import GAME as MYCELIA

GAMES: dict[str, GameSpec] = {game.id: game for game in (
    ARBORETUM,
    EVERGREEN,
    MYCELIA,
    EVO,
)}


class UnknownGame(KeyError):
    """No game with that id is installed."""


def get_game(game_id: str) -> GameSpec:
    """The game with that id, or :class:`UnknownGame`."""
    try:
        return GAMES[game_id]
    except KeyError:
        raise UnknownGame(game_id) from None
