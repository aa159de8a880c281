"""Evo for 2-5 players: the ``GAME`` declaration.

The pure modules do the work: ``rules`` (setup, moves, apply, result, dump/load — the rulebook's
headings, spec /work/shared/specs/evo.md), ``views`` (views, log lines, the hidden information),
``bot``, ``table`` (what the page offers to click) and the component data in ``data``, which is
RECONSTRUCTED (its docstring; ``about_components`` tells players).
"""

from __future__ import annotations

from datetime import date
from pathlib import Path

from app.games.base import RANDOM_BOT, BotLevel, GameSpec, NoOptions, RuleChange, RuleText
from app.games.evo import bot, data, rules, table, views
from app.games.words import N_

#: The rules panel: every rule a refusal or a finished status cites, under its heading in the
#: Spanish rulebook (the rule ids), in the rulebook's order; summaries in our own words.
RULES = (
    RuleText(rules.RULE_GOAL, N_("Mutation points"), N_(
        "You earn mutation points (MP) during the game and spend them on genes; the most MP "
        "when the meteorite falls wins. Your MP total is secret, like MP tokens kept face "
        "down: only you see yours, and everyone's is revealed when the game ends. What "
        "changes it is public all the same: the bids paid in the lab and the MP each player "
        "scores for their dinosaurs are in the log.")),
    RuleText(rules.RULE_TURN, N_("How to play"), N_(
        "A game lasts 9 to 11 rounds. Each round has six phases in this order: climate, "
        "mutation, initiative, movement, birth and survival, each finished before the next "
        "begins. The climate phase plays itself: its token is revealed as the round begins, "
        "so the table opens at round 1's mutation phase with round 1's climate already "
        "drawn. Only the players the table waits for act, with a move of the phase.")),
    RuleText(rules.RULE_CLIMATE, N_("Climate phase"), N_(
        "The top climate token is revealed and turns the climate wheel: its section says which "
        "terrain is temperate, hot, cold or deadly this round. When the meteorite comes up the "
        "game ends at once: the most MP wins, a tie goes to the most dinosaurs on the island.")),
    RuleText(rules.RULE_MUTATION, N_("Mutation phase"), N_(
        "The lab offers an event card in column 1 and a gene in each other column. In "
        "initiative order each player bids 0 to 6 in a column, more than the bid already "
        "there; an outbid player bids again at once, in another column. Each column's winner "
        "takes its item and pays its bid in MP, 1 less per alchemical vial.")),
    RuleText(rules.RULE_FINS, N_("Fins"), N_(
        "For 1 movement point, one of your dinosaurs on a coastal space swims to any empty "
        "coastal space, as often as your points allow.")),
    RuleText(rules.RULE_WINGS, N_("Wings"), N_(
        "Once per movement phase, for 1 movement point, one of your dinosaurs flies 2 spaces. "
        "The space it flies over may hold any dinosaur; the one it lands on must be empty.")),
    RuleText(rules.RULE_REGENERATION, N_("Regeneration"), N_(
        "Your species never drops below 3 dinosaurs: while it has 3 or fewer on the island, "
        "none of them can be attacked or killed by killer babies or by the climate.")),
    RuleText(rules.RULE_KILLER_BABIES, N_("Killer Babies"), N_(
        "Your newborns may be born on an opponent's dinosaur within reach of a parent. Roll "
        "the die: on 4 faces of 6 that dinosaur dies and the newborn takes its space; "
        "otherwise the newborn dies. Without this gene, newborns are born on empty spaces "
        "only.")),
    RuleText(rules.RULE_ADRENALINE, N_("Adrenaline Rush"), N_(
        "In the initiative phase, once the track is sorted, you choose your place on it; the "
        "other players keep their order.")),
    RuleText(rules.RULE_CHAMELEON, N_("Chameleon Skin"), N_(
        "When one of your dinosaurs loses a fight, it may step to an empty space next to it "
        "instead of dying; the attacker then takes the space it left.")),
    RuleText(rules.RULE_EVENTS, N_("Event cards"), N_(
        "The winner of column 1 draws a secret event card. Each card says when it is played: "
        "during your bidding turn, when the movement or survival phase opens, or during your "
        "own movement or birth turn. When a phase opens, every holder of a card chooses at "
        "once, sealed until all have chosen. A played card is discarded; its effect lasts as "
        "it says.")),
    RuleText(rules.RULE_INITIATIVE, N_("Initiative phase"), N_(
        "The markers go to the initiative track in the order of their lab columns; then the "
        "players are sorted by their dinosaurs on the island, fewest first (ties keep their "
        "order). This order holds for bidding, movement and birth until the next initiative "
        "phase.")),
    RuleText(rules.RULE_MOVEMENT, N_("Movement phase"), N_(
        "In initiative order each player shares 2 movement points, 1 more per pair of legs, "
        "among their dinosaurs: a point moves one dinosaur to an empty space next to it. "
        "Attacking a neighbouring opponent costs a point and rolls the die against the "
        "difference in horns: on a win the defender dies and the attacker takes its space; "
        "the attacker never dies.")),
    RuleText(rules.RULE_BIRTH, N_("Birth phase"), N_(
        "In initiative order, each player in their turn places all their newborns (1 per "
        "egg) on empty spaces next to a parent: one of their dinosaurs on the island when "
        "the phase began. A player with no dinosaur on the island then places the first "
        "newborn on any empty space and each further one next to one of these newborns. A "
        "species has at most 8 dinosaurs; newborns not placed are lost.")),
    RuleText(rules.RULE_SURVIVAL, N_("Survival phase"), N_(
        "Dinosaurs on temperate terrain survive; on hot terrain one per parasol, on cold "
        "terrain one per fur, on deadly terrain none. Players with a choice choose at once "
        "which endangered dinosaurs survive. Then each player scores 1 MP per dinosaur on the "
        "island.")),
)

GAME = GameSpec(
    id="evo",
    title="Evo",
    summary=N_("Evolve a species of dinosaurs on a prehistoric island: bid for genes, move "
               "ahead of the climate, fight and hatch; the most mutation points when the "
               "meteorite falls wins."),
    min_players=2,
    max_players=5,
    Options=NoOptions,
    folder=Path(__file__).resolve().parent,
    template="evo/table.html",
    regions=table.regions,
    turn_rule=rules.RULE_TURN,
    moves=rules.MOVE_FIELDS,
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
            "space_words": table.space_words, "sealed_words": table.sealed_words,
            "spot_label": table.spot_label, "player": table.player,
            "species_title": table.species_title, "lab_words": table.lab_words,
            "marker_words": table.marker_words, "roll_words": table.roll_words,
            "played_words": table.played_words, "in_force_words": table.in_force_words,
            "outlook_words": table.outlook_words, "islands": table.ISLANDS,
            "wedges": table.WHEEL_WEDGES,
            "genes": table.GENE_WORDS, "cards": table.CARD_WORDS, "tokens": table.TOKEN_WORDS,
            "face_words": table.FACE_WORDS, "outcome_words": table.OUTCOME_WORDS,
            "phase_steps": table.PHASE_STEPS, "phase_titles": table.PHASE_TITLES,
            "terrains": data.TERRAINS, "meteorite_among": data.PILE_BOTTOM,
            "terrain_names": data.TERRAIN_NAMES, "climate_names": data.CLIMATE_NAMES,
            "terrain_colours": data.TERRAIN_COLOURS},
    about_components=data.ABOUT_COMPONENTS,
    rules=RULES,
    score=rules.score_now,
    rules_version=2,
    rule_changes=(
        RuleChange(2, date(2026, 11, 27), (rules.RULE_BIRTH, rules.RULE_GOAL), N_(
            "Births follow the initiative order as movement does: each player places all "
            "their newborns in their own turn, instead of one newborn at a time round the "
            "table. MP totals are secret until the end, as the rulebook keeps the MP tokens: "
            "each player sees only their own until the meteorite falls.")),
    ),
)

__all__ = ["GAME"]
