"""Arboretum (Dan Cassar, Z-Man Games 2014) for 2 to 4 players.

Rulebook: /work/shared/rules/arboretum.es.txt; spec: /work/shared/specs/arboretum.md. The rules
live in :mod:`.rules`, the seat views and log in :mod:`.views`, the bot in :mod:`.bot`, the
cards in :mod:`.data`.
"""

from __future__ import annotations

from pathlib import Path

from app.games.arboretum import bot, data, rules, views
from app.games.arboretum.rules import STEP_DISCARD, STEP_DRAW, STEP_PLAY, ArboretumState
from app.games.base import RANDOM_BOT, BotLevel, GameSpec, NoOptions, Region, SeatStatus

#: What the seat whose turn it is does at each step of its turn.
DOING = {STEP_DRAW: "drawing", STEP_PLAY: "planting", STEP_DISCARD: "discarding"}


def setup(players: int, options: NoOptions, seed: int) -> ArboretumState:
    return rules.setup(players, seed)


def seat_status(state: ArboretumState, seat: int) -> SeatStatus:
    """Turns are sequential: the seat whose turn it is draws, plants, then discards."""
    if seat in rules.active_seats(state):
        return SeatStatus(DOING.get(state.step, ""))
    return SeatStatus()


def regions(players: int) -> tuple[Region, ...]:
    return tuple(Region(name, name) for name in ("status", "hand", "arboreta", "discards",
                                                 "scoring"))


GAME = GameSpec(
    id="arboretum",
    title="Arboretum",
    summary="Plant trees in your arboretum, lay out increasing paths of colour, and keep the "
            "right cards in hand to earn the right to score them.",
    min_players=2,
    max_players=4,
    Options=NoOptions,
    folder=Path(__file__).resolve().parent,
    template="arboretum/table.html",
    regions=regions,
    turn_rule=rules.RULE_TURN,
    moves={"draw": frozenset({"source"}), "play": frozenset({"card", "cell"}),
           "discard": frozenset({"card"})},
    bots=(BotLevel("bot", "Bot", bot.bot_move), RANDOM_BOT),
    data=data,
    setup=setup,
    active_seats=rules.active_seats,
    legal_moves=rules.legal_moves,
    apply=rules.apply,
    events=views.events,
    view=views.view,
    seat_status=seat_status,
    result=rules.result,
    dump=rules.dump,
    load=rules.load,
    conceal=views.conceal,
    extras={"colours": data.COLOURS, "names": data.NAMES_EN},
)

__all__ = ["GAME"]
