"""Mycelia for 1-4 players (solo against Gwidyon): the ``GAME`` declaration.

The pure modules do the work: ``rules`` (setup, moves, apply, result, dump/load — spec R, E,
G, B, X, V, S), ``views`` (views, log lines, the hidden information R8), ``bot``, ``table``
(what the page offers to click) and the component data in ``data``, which is RECONSTRUCTED
(its docstring; ``about_components`` tells players).
"""

from __future__ import annotations

from pathlib import Path

from app.games.base import RANDOM_BOT, BotLevel, GameSpec
from app.games.mycelia import bot, data, rules, views
from app.games.mycelia.table import FIELD_COLOURS, PICTURES, RINGS, controls, regions, waiting_words

GAME = GameSpec(
    id="mycelia",
    title="Mycelia",
    summary="Play mushroom cards to clear the dew drops from your forest floor into the "
            "Sanctuary of Life; the first with an empty board wins.",
    min_players=1,
    max_players=4,
    Options=rules.Options,
    folder=Path(__file__).resolve().parent,
    template="mycelia/table.html",
    regions=regions,
    turn_rule="R6",
    moves={kind: fields - {"type"} for kind, fields in rules.MOVE_FIELDS.items()},
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
    extras={"controls": controls, "waiting": waiting_words, "pictures": PICTURES,
            "colours": FIELD_COLOURS, "rings": RINGS, "field_names": data.FIELD_NAMES,
            "tiles": {letter: {"name": t.name, "cost": t.cost, "text": t.text}
                      for letter, t in data.TILES.items()}},
    # Only fields every move that carries them needs: a tile move without ``cell`` or
    # ``card`` is tile a or b, a choose_field without ``count`` removes the most (R16).
    asks={"tile": "Choose an action tile first",
          "option": "Choose one of the two alternatives"},
    about_components=data.ABOUT_COMPONENTS,
)

__all__ = ["GAME"]
