"""Evergreen (Hjalmar Hach, Horrible Guild) for 1-4 players: the ``GAME`` declaration.

The pure modules do the work: ``rules`` (setup, moves, apply, result, dump/load — spec §2,
§3), ``views`` (views, events, seat status and the hidden information — MOV-2, MOV-6) and
``bot``. Component data lives in ``data`` and is RECONSTRUCTED (spec §1 banner).
"""

from __future__ import annotations

from pathlib import Path

from app.games.base import RANDOM_BOT, BotLevel, GameSpec, Region, SeatStatus
from app.games.evergreen import bot, data, rules, views
from app.games.evergreen.rules import State

#: Where the table is split into regions; each player's planet is one region of its own.
SHARED_REGIONS = ("status", "row", "fertility", "tracks", "scores")


def regions(players: int) -> tuple[Region, ...]:
    return (*(Region(name, name) for name in SHARED_REGIONS),
            *(Region(f"planet-{seat}", "planet", seat) for seat in range(players)))


def seat_status(state: State, seat: int) -> SeatStatus:
    """MOV-2's status line; a seat that sent ``done`` has finished the phase (TIM-3)."""
    done = rules.done_for_now(state, seat)
    return SeatStatus(views.status(state, seat), done.rule if done is not None else "")


GAME = GameSpec(
    id="evergreen",
    title="Evergreen",
    summary="Pick a biome card each round, grow a planet of trees in the light of a turning "
            "sun, and make the biomes with your large trees fertile.",
    min_players=1,
    max_players=4,
    Options=rules.Options,
    folder=Path(__file__).resolve().parent,
    template="evergreen/table.html",
    regions=regions,
    turn_rule="MOV-1",
    moves={kind: fields - {"type"} for kind, fields in rules.MOVE_FIELDS.items()},
    bots=(BotLevel("bot", "Bot", bot.bot_move), RANDOM_BOT),
    data=data,
    setup=rules.setup,
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
    asks={
        "card": "Take a card from the row first",
        "cell": "Choose a lit space on your planet first",
        "by": "Choose what to do first: a tool above your planet",
    },
    about_components=data.ABOUT_COMPONENTS,
)

__all__ = ["GAME"]
