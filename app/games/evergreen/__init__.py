"""Evergreen (Hjalmar Hach, Horrible Guild) for 1-4 players: the ``GAME`` value.

It implements :class:`app.games.base.Game` by delegating to the pure modules: ``rules``
(setup, moves, apply, result, dump/load — spec §2, §3), ``views`` (views and events — MOV-2,
MOV-6) and ``bot``. Component data lives in ``data`` and is RECONSTRUCTED (spec §1 banner).
"""

from __future__ import annotations

import random
from typing import Any

from pydantic import BaseModel

from app.games.base import JSON, Event, IllegalMove, Move, Result
from app.games.evergreen import bot, rules, views
from app.games.evergreen.rules import Options, State


class Evergreen:
    """The Evergreen game value (DESIGN.md §2)."""

    id = "evergreen"
    title = "Evergreen"
    min_players = 1
    max_players = 4
    Options: type[BaseModel] = Options
    summary = (
        "Pick a biome card each round, grow a planet of trees in the light of a turning sun, "
        "and make the biomes with your large trees fertile."
    )
    template = "evergreen/table.html"
    regions = ("status", "row", "fertility", "planet0", "planet1", "planet2", "planet3",
               "tracks", "scores")

    def setup(self, players: int, options: BaseModel, seed: int) -> State:
        return rules.setup(players, options, seed)

    def active_seats(self, state: Any) -> frozenset[int]:
        return rules.active_seats(state)

    def legal_moves(self, state: Any, seat: int) -> list[Move]:
        return rules.legal_moves(state, seat)

    def apply(self, state: Any, seat: int, move: Move) -> State:
        return rules.apply(state, seat, move)

    def events(self, before: Any, seat: int, move: Move, after: Any) -> list[Event]:
        return views.events(before, seat, move, after)

    def view(self, state: Any, seat: int | None) -> JSON:
        return views.view(state, seat)

    def done_for_now(self, state: Any, seat: int) -> IllegalMove | None:
        return rules.done_for_now(state, seat)

    def result(self, state: Any) -> Result | None:
        return rules.result(state)

    def dump(self, state: Any) -> JSON:
        return rules.dump(state)

    def load(self, data: JSON) -> State:
        return rules.load(data)

    def bot_move(self, view: JSON, legal: list[Move], rng: random.Random) -> Move:
        return bot.bot_move(view, legal, rng)


GAME = Evergreen()

__all__ = ["GAME", "Evergreen"]
