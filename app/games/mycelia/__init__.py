"""Mycelia for 1-4 players (solo against Gwidyon): the ``GAME`` declaration.

The pure modules do the work: ``rules`` (setup, moves, apply, result, dump/load — spec R, E,
G, B, X, V, S), ``views`` (views, log lines, the hidden information R8), ``bot``, ``table``
(what the page offers to click) and the component data in ``data``, which is RECONSTRUCTED
(its docstring; ``about_components`` tells players).
"""

from __future__ import annotations

from datetime import date
from pathlib import Path

from app.games.base import RANDOM_BOT, BotLevel, GameSpec, RuleChange, RuleText
from app.games.mycelia import bot, data, rules, table, views
from app.games.words import N_

#: The rules panel: every rule the refusals cite, in the rulebook's order (turn, recruiting,
#: action tiles, the end, the cards' functions, the expansion, solo), in our own words.
RULES = (
    RuleText("R6", N_("Taking turns"),
             N_("The start player begins and turns go clockwise. You act only in your own "
                "turn, or when the table asks you to answer a card's bonus.")),
    RuleText("R10", N_("Playing your cards"),
             N_("In your turn you play every card in your hand, one at a time and in any "
                "order. Each card's function is carried out completely before anything else "
                "happens; you end your turn only with an empty hand.")),
    RuleText("R20", N_("Recruiting heroes"),
             N_("Before, between or after your cards, you may recruit any card of the market "
                "by paying its cost in leaves. A recruited card goes face down on top of your "
                "draw pile.")),
    RuleText("R23", N_("Action tiles"),
             N_("Each of your action tiles may be used once per turn, between cards but never "
                "while a card is resolving. Pay its cost in leaves first.")),
    RuleText("G3", N_("The end of the game"),
             N_("When a board holds no dew drop, the round is played to its end so that "
                "everyone has had as many turns, and the Sanctuary of Life turns no more. An "
                "empty board wins; among several, the most leaves.")),
    RuleText("R11", N_("Either-or and sequences"),
             N_("A card's parts are carried out from left to right; you may leave out any of "
                "them, but never go back. Of two alternatives split by a slash you choose one, "
                "or none.")),
    RuleText("B1", N_("Bonus for the other players"),
             N_("A part marked for the others is not yours to perform, and you cannot skip "
                "it: it happens even if you leave out the rest of the card.")),
    RuleText("B3", N_("Answering a bonus"),
             N_("Each other player, clockwise, may use the bonus on their own board or pass. "
                "The player whose card it is waits until everyone has answered.")),
    RuleText("R13", N_("Choosing a field"),
             N_("A card names the kind of field and how many dew drops it must hold: at least "
                "that many, exactly that many (a beetle) or at least one (transparent drops). "
                "If no field fits, that part lapses.")),
    RuleText("R15", N_("Moving dew drops"),
             N_("A drop moves exactly one field up, down, left or right, never off the board. "
                "A drop moved onto a sanctuary field goes straight to the Sanctuary of Life.")),
    RuleText("R16", N_("Removing dew drops"),
             N_("Each cross removes one drop from the chosen field into the Sanctuary of "
                "Life; you may remove fewer.")),
    RuleText("R17", N_("Neighbouring fields"),
             N_("Some cards also remove drops from the fields next to the chosen one: one drop "
                "from each, one drop from one, or every drop from one. The chosen field "
                "itself keeps its drops.")),
    RuleText("X2", N_("Removing cards"),
             N_("With the expansion, some cards and action tile e let you remove a card of "
                "your discard pile from the game, or none; a card just played may remove "
                "itself. Should no player own a card any more, nor be able to recruit one or "
                "pay for an action tile that moves or removes a drop, no board can ever be "
                "emptied: the game ends at once, and nobody wins.")),
    RuleText("X5", N_("At most four action tiles"),
             N_("You may hold at most 4 action tiles, two of a kind allowed. To take a fifth, "
                "first return one of yours to the box, or leave the new one in the supply.")),
    RuleText("R25", N_("Action tile c"),
             N_("Tile c moves a drop one field; if another drop is left on the field it came "
                "from, that drop moves one field too, in any direction.")),
    RuleText("X8", N_("Action tiles d and e"),
             N_("Tile d removes one drop from any field with a drop. Tile e removes a card of "
                "your discard pile from the game, or none, even when the pile is empty.")),
    RuleText("X6", N_("Extra sanctuary field"),
             N_("Clavulinopsis fusiformis places an extra sanctuary field on a field of yours "
                "holding exactly 1 drop, which goes to the Sanctuary of Life. You must place "
                "it if such a field exists.")),
    RuleText("S3", N_("Gwidyon's turn"),
             N_("In a solo game Gwidyon reveals one of his 6 cards after each of your turns "
                "and it is carried out; one of them has you move a drop on your board one "
                "field: when a drop can move, you must.")),
)

GAME = GameSpec(
    id="mycelia",
    title="Mycelia",
    summary=N_("Play mushroom cards to clear the dew drops from your forest floor into the "
               "Sanctuary of Life; the first with an empty board wins."),
    min_players=1,
    max_players=4,
    Options=rules.Options,
    folder=Path(__file__).resolve().parent,
    template="mycelia/table.html",
    regions=table.regions,
    turn_rule="R6",
    moves={kind: fields - {"type"} for kind, fields in rules.MOVE_FIELDS.items()},
    bots=(BotLevel("bot", N_("Bot"), bot.bot_move), RANDOM_BOT),
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
            "turn_words": table.turn_words, "doing": table.doing_words, "turn_of": table.turn_of,
            "board_of": table.board_of, "said": table.said, "cap": table.cap,
            "card_words": table.card_words, "face_words": table.face_words,
            "solo_words": table.solo_words, "pictures": table.PICTURES,
            "colours": table.FIELD_COLOURS, "rings": table.RINGS,
            "field_names": data.FIELD_NAMES,
            "tiles": {letter: {"name": t.name, "cost": t.cost, "text": t.text}
                      for letter, t in data.TILES.items()}},
    # Only fields every move that carries them needs: a tile move without ``cell`` or
    # ``card`` is tile a or b, a choose_field without ``count`` removes the most (R16).
    asks={"tile": N_("Choose an action tile first"),
          "option": N_("Choose one of the two alternatives")},
    about_components=data.ABOUT_COMPONENTS,
    rules=RULES,
    rules_legend="mycelia/_legend.html",
    score=rules.score_now,
    score_shown=rules.score_shown,
    score_axis=rules.drops_left,
    score_name=N_("Dew drops left"),
    rules_version=2,
    rule_changes=(
        RuleChange(2, date(2026, 11, 27), ("S3", "R13", "X2", "X8", "G4"), N_(
            "Gwidyon's card that moves a drop on your board is an instruction, as the rulebook "
            "words it: when a drop can move, you move one; it can no longer be skipped. "
            "Clathrus ruber may choose a water field without drops: it still takes 1 drop off "
            "a neighbouring field. There is no longer a hand of 3 cards you must keep: you may "
            "remove any card from the game, a card may remove itself, and action tile e may "
            "remove no card, even with an empty discard pile. A table where no board can ever "
            "be emptied any more ends without a winner. Only the winners are placed: the "
            "rulebook ranks nobody else.")),
    ),
)

__all__ = ["GAME"]
