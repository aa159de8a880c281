"""Arboretum (Dan Cassar, Z-Man Games 2014) for 2 to 4 players.

Rulebook: /work/shared/rules/arboretum.es.txt; spec: /work/shared/specs/arboretum.md. The rules
live in :mod:`.rules`, the seat views and log in :mod:`.views`, the bot in :mod:`.bot`.
"""

from __future__ import annotations

import random
from typing import ClassVar

from pydantic import BaseModel

from app.games.arboretum import bot, data, rules, views
from app.games.arboretum.rules import ArboretumState
from app.games.base import JSON, Event, Move, NoOptions, Result


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

    def active_seats(self, state: ArboretumState) -> frozenset[int]:
        return rules.active_seats(state)

    def legal_moves(self, state: ArboretumState, seat: int) -> list[Move]:
        return rules.legal_moves(state, seat)

    def apply(self, state: ArboretumState, seat: int, move: Move) -> ArboretumState:
        return rules.apply(state, seat, move)

    def events(
        self, before: ArboretumState, seat: int, move: Move, after: ArboretumState
    ) -> list[Event]:
        return views.events(before, seat, move, after)

    def view(self, state: ArboretumState, seat: int | None) -> JSON:
        return views.view(state, seat)

    def result(self, state: ArboretumState) -> Result | None:
        return rules.result(state)

    def dump(self, state: ArboretumState) -> JSON:
        return rules.dump(state)

    def load(self, data: JSON) -> ArboretumState:
        return rules.load(data)

    def bot_move(self, view: JSON, legal: list[Move], rng: random.Random) -> Move:
        return bot.bot_move(view, legal, rng)


GAME = Arboretum()

__all__ = ["GAME", "Arboretum"]
