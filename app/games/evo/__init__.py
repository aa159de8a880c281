"""Evo for 2-5 players: the ``GAME`` declaration.

The pure modules do the work: ``rules`` (setup, moves, apply, result, dump/load — the rulebook's
headings, spec /work/shared/specs/evo.md), ``views`` (views, log lines, the hidden information),
``bot``, ``table`` (what the page offers to click) and the component data in ``data``, which is
RECONSTRUCTED (its docstring; ``about_components`` tells players).
"""

from __future__ import annotations

from pathlib import Path

from app.games.base import RANDOM_BOT, BotLevel, GameSpec, NoOptions
from app.games.evo import bot, data, rules, table, views

GAME = GameSpec(
    id="evo",
    title="Evo",
    summary="Evolve a species of dinosaurs on a prehistoric island: bid for genes, move ahead "
            "of the climate, fight and hatch; the most mutation points when the meteorite "
            "falls wins.",
    min_players=2,
    max_players=5,
    Options=NoOptions,
    folder=Path(__file__).resolve().parent,
    template="evo/table.html",
    regions=table.regions,
    turn_rule=rules.RULE_TURN,
    moves=rules.MOVE_FIELDS,
    bots=(BotLevel("bot", "Bot", bot.bot_move), RANDOM_BOT),
    data=data,
    setup=rules.setup,
    active_seats=rules.active_seats,
    legal_moves=rules.legal_moves,
    apply=rules.apply,
    events=views.events,
    view=views.view,
    seat_status=rules.seat_status,
    result=rules.result,
    dump=rules.dump,
    load=rules.load,
    conceal=views.conceal,
    extras={"controls": table.controls, "waiting": table.waiting_words,
            "space_words": table.space_words, "cards_words": table.cards_words,
            "outlook": table.outlook, "islands": table.ISLANDS, "wedges": table.WHEEL_WEDGES,
            "genes": table.GENE_WORDS, "cards": table.CARD_WORDS, "tokens": table.TOKEN_WORDS,
            "face_words": table.FACE_WORDS, "outcome_words": table.OUTCOME_WORDS,
            "phase_steps": table.PHASE_STEPS, "terrains": data.TERRAINS,
            "meteorite_among": data.PILE_BOTTOM,
            "terrain_names": data.TERRAIN_NAMES, "terrain_colours": data.TERRAIN_COLOURS},
    about_components=data.ABOUT_COMPONENTS,
)

__all__ = ["GAME"]
