"""Arboretum (Dan Cassar, Z-Man Games 2014) for 2 to 4 players.

Rulebook: /work/shared/rules/arboretum.es.txt; spec: /work/shared/specs/arboretum.md. The rules
live in :mod:`.rules`, the seat views and log in :mod:`.views`, the bot in :mod:`.bot`.
"""

from __future__ import annotations

from typing import ClassVar

from pydantic import BaseModel

from app.games.arboretum import bot, data, rules, views
from app.games.arboretum.rules import ArboretumState
from app.games.base import IllegalMove, NoOptions


class Arboretum:
    """The Arboretum game value (implements :class:`app.games.base.Game`)."""

    id = "arboretum"
    title = "Arboretum"
    min_players = 2
    max_players = 4
    Options = NoOptions
    summary: ClassVar[str] = (
        "Plant trees in your arboretum, lay out increasing paths of colour, and keep the right "
        "cards in hand to earn the right to score them."
    )
    template = "arboretum/table.html"
    regions = ("status", "hand", "arboreta", "discards", "scoring")
    #: For the templates: each species' colour and display name.
    colours = data.COLOURS
    names = data.NAMES_EN

    def setup(self, players: int, options: BaseModel, seed: int) -> ArboretumState:
        return rules.setup(players, seed)

    # The rules are plain functions, bound without a wrapper frame: legal_moves and apply are
    # on the hot path of every game and of the load benchmark.
    active_seats = staticmethod(rules.active_seats)
    legal_moves = staticmethod(rules.legal_moves)
    apply = staticmethod(rules.apply)
    events = staticmethod(views.events)
    view = staticmethod(views.view)
    result = staticmethod(rules.result)
    dump = staticmethod(rules.dump)
    load = staticmethod(rules.load)
    bot_move = staticmethod(bot.bot_move)

    def done_for_now(self, state: ArboretumState, seat: int) -> IllegalMove | None:
        """Turns are sequential: a seat that is not active waits for its turn."""
        return None


GAME = Arboretum()

__all__ = ["GAME", "Arboretum"]
