"""Evergreen (Hjalmar Hach, Horrible Guild) for 1-4 players: the ``GAME`` declaration.

The pure modules do the work: ``rules`` (setup, moves, apply, result, dump/load — spec §2,
§3), ``views`` (views, events, seat status and the hidden information — MOV-2, MOV-6) and
``bot``. Component data lives in ``data`` and is RECONSTRUCTED (spec §1 banner).
"""

from __future__ import annotations

from datetime import date
from pathlib import Path

from app.games.base import (
    RANDOM_BOT,
    BotLevel,
    GameSpec,
    Region,
    RuleChange,
    RuleText,
    SeatStatus,
)
from app.games.evergreen import bot, data, rules, views
from app.games.evergreen.rules import State
from app.games.words import N_

#: Where the table is split into regions; each player's planet is one region of its own.
SHARED_REGIONS = ("status", "row", "fertility", "tracks", "scores")


def regions(players: int) -> tuple[Region, ...]:
    return (*(Region(name, name) for name in SHARED_REGIONS),
            *(Region(f"planet-{seat}", "planet", seat) for seat in range(players)))


def seat_status(state: State, seat: int) -> SeatStatus:
    """MOV-2's status in a few words; a seat that sent ``done`` has finished the phase
    (TIM-3)."""
    done = rules.done_for_now(state, seat)
    return SeatStatus(views.doing(state, seat), done.rule if done is not None else "")


#: The rules panel: every rule a refusal cites, in the rulebook's order (spec ids).
RULES = (
    RuleText("MOV-1", N_("Whose turn it is"), N_(
        "In the selection, players take a card one at a time in turn order, starting with the "
        "first player. In the actions phase everyone plays at the same time; whoever has "
        "pressed Done waits for the others.")),
    RuleText("SEL-3", N_("Taking a card"), N_(
        "Each player takes exactly one card from the selection row and keeps it until the "
        "season ends. Its biome is where your action goes this round; its power is the one "
        "you may use.")),
    RuleText("EFF-1", N_("Planting a sprout"), N_(
        "A sprout goes on an empty space of your planet.")),
    RuleText("EFF-2", N_("Growing a tree"), N_(
        "A sprout becomes a small tree, or a small tree a large tree. A sprout never becomes "
        "a large tree at once; large trees, bushes and lakes never grow.")),
    RuleText("ACT-1", N_("Action A"), N_("Plant up to 3 sprouts.")),
    RuleText("ACT-2", N_("Action B"), N_(
        "Grow up to 2 trees on different spaces: one space cannot grow twice in the same "
        "action.")),
    RuleText("ACT-3", N_("Action C"), N_(
        "Plant up to 1 sprout and grow up to 1 tree on another space: the sprout you plant "
        "cannot grow in the same action.")),
    RuleText("ACT-4", N_("Action D"), N_(
        "Plant one sprout or grow one tree anywhere on your planet, whatever the biome of "
        "your card.")),
    RuleText("ACT-5", N_("The biome of your card"), N_(
        "Actions A, B and C stay inside the biome of the card you took this round. With a "
        "wild card each of their effects may go anywhere, even in different biomes.")),
    RuleText("ACT-6", N_("One action each round"), N_(
        "You never name your action: the table keeps the actions your effects still fit and "
        "refuses an effect that none of them allows. Once no action can take more, your "
        "action is over.")),
    RuleText("EFF-3", N_("Cracks"), N_(
        "Nothing is ever put on the four cracks of the planet. For shadows they count as "
        "ordinary spaces.")),
    RuleText("POW-1", N_("Your power"), N_(
        "The card you took gives one power. You may use it once this round, before or after "
        "your action, or not at all.")),
    RuleText("POW-2", N_("Strengthening the power"), N_(
        "Using the power first moves the marker of its track one space right (never past the "
        "last space). The value it then shows is how often you may apply the power.")),
    RuleText("POW-3", N_("Applying the power"), N_(
        "Apply the power at least once and at most as often as its value; you may only use it "
        "when it has something to work on. Bloom scores its value at once.")),
    RuleText("POW-4", N_("Sprouts, trees and bushes"), N_(
        "Each application plants a sprout, grows a sprout into a small tree, grows a small "
        "tree into a large tree or plants a bush on an empty space, as the power says, "
        "anywhere on your planet.")),
    RuleText("POW-5", N_("Placing a lake"), N_(
        "A lake goes on an empty space; right after it, grow up to 2 different trees beside "
        "it (not diagonally), in any biome. Any other step gives up the lake's grows.")),
    RuleText("TIM-2", N_("No splitting"), N_(
        "The action and the power are two unbroken blocks. Using the power after an action "
        "effect ends the action; an action effect after the power ends the power, and its "
        "unused applications are lost.")),
    RuleText("TIM-3", N_("Done"), N_(
        "Pressing Done ends your round: whatever is unused is lost, and you wait until "
        "everyone is done.")),
    RuleText("MOV-4", N_("Undo"), N_(
        "In the actions phase you may take back your steps one by one, back to the start of "
        "the phase. A card once taken stays taken.")),
    RuleText("MOV-3", N_("How a move is written"), N_(
        "A move names its kind and exactly what that kind needs: a card of the row, a space "
        "of your planet, and whether the action, the power or a lake makes it.")),
)

GAME = GameSpec(
    id="evergreen",
    title="Evergreen",
    summary=N_("Pick a biome card each round, grow a planet of trees in the light of a turning "
               "sun, and make the biomes with your large trees fertile."),
    min_players=1,
    max_players=4,
    Options=rules.Options,
    folder=Path(__file__).resolve().parent,
    template="evergreen/table.html",
    regions=regions,
    turn_rule="MOV-1",
    moves={kind: fields - {"type"} for kind, fields in rules.MOVE_FIELDS.items()},
    bots=(BotLevel("bot", N_("Bot"), bot.bot_move), RANDOM_BOT),
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
    extras={"words": views.words},
    asks={
        "card": N_("Take a card from the row first"),
        "cell": N_("Choose a lit space on your planet first"),
        "by": N_("Choose what to do first: a tool above your planet"),
    },
    about_components=data.ABOUT_COMPONENTS,
    rules=RULES,
    score=rules.score_now,
    rules_version=2,
    rule_changes=(
        RuleChange(2, date(2026, 11, 23), ("POW-3", "POW-6", "SEL-9"), N_(
            "A power may be used only when it has something to work on and its track shows "
            "at least 1, and it is then applied at least once (Bloom's use is its "
            "application). When an aridity card arrives, the card last added to that pile "
            "turns face down, whatever it is.")),
    ),
)

__all__ = ["GAME"]
