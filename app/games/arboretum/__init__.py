"""Arboretum (Dan Cassar, Z-Man Games 2014) for 2 to 4 players.

Rulebook: /work/shared/rules/arboretum.es.txt; spec: /work/shared/specs/arboretum.md. The rules
live in :mod:`.rules`, the seat views and log in :mod:`.views`, the bot in :mod:`.bot`, the
cards in :mod:`.data`.
"""

from __future__ import annotations

from pathlib import Path

from app.games.arboretum import bot, data, rules, views
from app.games.arboretum.rules import STEP_DISCARD, STEP_DRAW, STEP_PLAY, ArboretumState
from app.games.base import (
    RANDOM_BOT,
    BotLevel,
    GameSpec,
    NoOptions,
    Region,
    RuleText,
    SeatStatus,
)
from app.games.words import N_

#: What the seat whose turn it is does at each step of its turn (message ids: the API keeps
#: them in English, the seat bar shows them in the reader's language).
DOING = {STEP_DRAW: N_("drawing"), STEP_PLAY: N_("planting"), STEP_DISCARD: N_("discarding")}

#: The rules panel: every rule a refusal cites (the rulebook's headings, rules.RULE_*), in the
#: rulebook's order, in our own words.
RULES = (
    RuleText(rules.RULE_CARDS, N_("The cards"), N_(
        "80 cards: ten tree species, each with the values 1 to 8. Four players use all ten "
        "species, three players eight and two players six. Each player is dealt 7 cards; "
        "the other cards are the draw deck.")),
    RuleText(rules.RULE_TURN, N_("Your turn, step by step"), N_(
        "Players take turns in seat order. On your turn you must, in this order: draw 2 "
        "cards, plant 1 card in your arboretum, then discard 1 card.")),
    RuleText(rules.RULE_DRAW, N_("Drawing 2 cards"), N_(
        "Draw 2 cards, one after the other. Each comes from the top of the draw deck or "
        "from the top of any player's discard pile, your own included; both may come from "
        "the same place.")),
    RuleText(rules.RULE_PLAY, N_("Planting a card"), N_(
        "Plant 1 card from your hand face up in your arboretum. Your first card goes "
        "anywhere; every later card must touch a card already there, above, below or beside "
        "it, never diagonally. A planted card is never moved or covered.")),
    RuleText(rules.RULE_DISCARD, N_("Discarding a card"), N_(
        "End your turn by putting 1 card from your hand face up on your own discard pile, "
        "so that you hold 7 cards again. Anyone may look through every discard pile.")),
    RuleText(rules.RULE_END, N_("End of the game and scoring"), N_(
        "The game ends when the draw deck runs out, after the turn of whoever drew its last "
        "card. Then, for each species, the players with the highest sum of its cards in hand "
        "score their best path of it (an 8 counts 0 if another player holds the 1; if nobody "
        "holds the species, everyone scores it). A path is a line of adjacent cards of "
        "increasing value that starts and ends with that species; it scores 1 point per card "
        "(2 per card if it has at least 4 cards, all of that species), +1 if it starts with "
        "a 1 and +2 if it ends with an 8. Most points wins; a tie goes to the player with "
        "more species in their arboretum.")),
)


def setup(players: int, options: NoOptions, seed: int) -> ArboretumState:
    return rules.setup(players, seed)


def seat_status(state: ArboretumState, seat: int) -> SeatStatus:
    """Turns are sequential: the seat whose turn it is draws, plants, then discards."""
    if seat in rules.active_seats(state):
        return SeatStatus(DOING.get(state.step, ""))
    return SeatStatus()


def regions(players: int) -> tuple[Region, ...]:
    """The turn, the hand, the draw sources (deck and discard piles), the final scoring, and
    one arboretum per seat (so that an opponent's board, folded on a phone, stays as its
    reader left it while the others move)."""
    return (*(Region(name, name) for name in ("status", "hand", "sources", "scoring")),
            *(Region(f"arboretum-{seat}", "arboretum", seat) for seat in range(players)))


def _luminance(colour: str) -> float:
    """WCAG 2 relative luminance of a ``#rrggbb`` colour."""
    def channel(c: float) -> float:
        return c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4

    r, g, b = (int(colour[i : i + 2], 16) / 255 for i in (1, 3, 5))
    return 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b)


#: The ink of a card's value on its species' colour: white, or near-black where white is weak
#: (Cassia's yellow, Magnolia's pink, Royal Poinciana's orange, Dogwood's white).
DARK_INK, LIGHT_INK = "#1b1b1b", "#ffffff"


def ink_on(colour: str) -> str:
    """The ink with the higher contrast on ``colour`` (both of them, where it is ≥ 4.5:1)."""
    lum = _luminance(colour)
    on_light = (1.05) / (lum + 0.05)
    on_dark = (lum + 0.05) / (_luminance(DARK_INK) + 0.05)
    return LIGHT_INK if on_light >= on_dark else DARK_INK


GAME = GameSpec(
    id="arboretum",
    title=N_("Arboretum"),
    summary=N_("Plant trees in your arboretum, lay out increasing paths of colour, and keep "
               "the right cards in hand to earn the right to score them."),
    min_players=2,
    max_players=4,
    Options=NoOptions,
    folder=Path(__file__).resolve().parent,
    template="arboretum/table.html",
    regions=regions,
    turn_rule=rules.RULE_TURN,
    moves={"draw": frozenset({"source"}), "play": frozenset({"card", "cell"}),
           "discard": frozenset({"card"})},
    bots=(BotLevel("bot", N_("Bot"), bot.bot_move), RANDOM_BOT),
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
    extras={"colours": data.COLOURS, "inks": {s: ink_on(c) for s, c in data.COLOURS.items()},
            "names": data.NAMES_EN, "short": data.SHORT_NAMES},
    asks={"card": N_("Choose a card from your hand first"),
          "cell": N_("Choose a highlighted space of your arboretum"),
          "source": N_("Choose the deck or a discard pile to draw from")},
    rules=RULES,
    score=rules.score_now,
)

__all__ = ["GAME"]
