"""Arboretum's rules: setup, turn steps, the end, illegal moves, results, views, log, storage
(rulebook "Preparación", "Cómo jugar", "Puntuación", "Anunciar el ganador"; spec §Setup,
§Turn, §End)."""

from __future__ import annotations

import ast
import dataclasses
import json
import random
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from app.games.arboretum import GAME
from app.games.arboretum import rules as R
from app.games.arboretum.data import (
    COLOURS,
    HAND_SIZE,
    NAMES_EN,
    NAMES_ES,
    SPECIES,
    SPECIES_COUNT,
    VALUES,
)
from app.games.arboretum.rules import ArboretumState
from app.games.base import IllegalMove, NoOptions
from app.games.registry import get_game
from app.rooms.table import fill_names
from app.web.words import raw_fragment

SIX = ["cassia", "jacaranda", "olive", "maple", "oak", "willow"]


def make(
    hands: list[list[tuple[str, int]]],
    *,
    deck: list[tuple[str, int]] | None = None,
    arboreta: list[list[tuple[tuple[int, int], tuple[str, int]]]] | None = None,
    discards: list[list[tuple[str, int]]] | None = None,
    turn: int = 0,
    step: str = "draw",
    draws_left: int | None = None,
    species: list[str] | None = None,
) -> ArboretumState:
    """A hand-made state (through ``load``, so the derived frontiers are right)."""
    n = len(hands)
    if draws_left is None:
        draws_left = 2 if step == "draw" else 0
    return R.load(
        {
            "seed": 7,
            "species": species or SIX,
            "deck": [list(c) for c in (deck if deck is not None else [("oak", 1), ("oak", 2)])],
            "hands": [[list(c) for c in hand] for hand in hands],
            "arboreta": [
                [[list(cell), list(card)] for cell, card in plantings]
                for plantings in (arboreta or [[] for _ in range(n)])
            ],
            "discards": [[list(c) for c in pile] for pile in (discards or [[] for _ in range(n)])],
            "turn": turn,
            "step": step,
            "draws_left": draws_left,
        }
    )


HAND0 = [("cassia", 3), ("jacaranda", 5), ("olive", 2), ("maple", 8), ("willow", 1)]
HAND0 += [("oak", 6), ("oak", 7)]
HAND1 = [("cassia", 1), ("cassia", 2), ("olive", 3), ("olive", 4), ("maple", 1)]
HAND1 += [("maple", 2), ("willow", 2)]


def play_turn(state: ArboretumState, cell: tuple[int, int]) -> ArboretumState:
    """Draw 2 from the deck, plant the first card of the hand at ``cell``, discard the next."""
    seat = state.turn
    state = R.apply(state, seat, {"type": "draw", "source": "deck"})
    state = R.apply(state, seat, {"type": "draw", "source": "deck"})
    hand = state.hands[seat]
    state = R.apply(state, seat, {"type": "play", "card": list(hand[0]), "cell": list(cell)})
    return R.apply(state, seat, {"type": "discard", "card": list(state.hands[seat][0])})


# --- components and setup ----------------------------------------------------------------------


def test_component_data() -> None:
    assert SPECIES == (
        "cassia",
        "dogwood",
        "jacaranda",
        "olive",
        "lilac",
        "magnolia",
        "maple",
        "royal_poinciana",
        "oak",
        "willow",
    )
    assert set(COLOURS) == set(NAMES_ES) == set(NAMES_EN) == set(SPECIES)
    assert all(len(c) == 7 and c.startswith("#") for c in COLOURS.values())
    assert len(set(COLOURS.values())) == 10
    assert NAMES_EN["royal_poinciana"] == "Royal Poinciana"
    assert NAMES_ES["oak"] == "Roble"
    assert VALUES == (1, 2, 3, 4, 5, 6, 7, 8)
    assert dict(SPECIES_COUNT) == {2: 6, 3: 8, 4: 10}
    assert HAND_SIZE == 7


@pytest.mark.parametrize(("players", "deck_size"), [(2, 34), (3, 43), (4, 52)])
def test_setup(players: int, deck_size: int) -> None:
    state = R.setup(players, 11)
    assert len(state.species) == SPECIES_COUNT[players]
    assert list(state.species) == [s for s in SPECIES if s in state.species]  # table order
    assert len(state.deck) == deck_size
    assert all(len(hand) == HAND_SIZE for hand in state.hands)
    cards = [*state.deck, *(c for hand in state.hands for c in hand)]
    assert Counter(cards) == Counter((s, v) for s in state.species for v in VALUES)
    assert state.arboreta == ((),) * players
    assert state.discards == ((),) * players
    assert (state.turn, state.step, state.draws_left) == (0, "draw", 2)
    assert R.active_seats(state) == frozenset({0})


def test_setup_is_deterministic_for_a_seed() -> None:
    assert R.setup(3, 42) == R.setup(3, 42)
    assert R.dump(R.setup(3, 42)) == R.dump(GAME.setup(3, NoOptions(), 42))
    assert R.setup(3, 42).deck != R.setup(3, 43).deck


def test_species_left_in_the_box_come_from_the_seed() -> None:
    chosen = {R.setup(2, seed).species for seed in range(30)}
    assert len(chosen) > 5


@pytest.mark.parametrize("players", [0, 1, 5, True, 2.0])
def test_setup_refuses_bad_player_counts(players: Any) -> None:
    with pytest.raises(ValueError):
        R.setup(players, 1)


def test_game_value() -> None:
    # The declaration's shape (``GAME`` in ``__init__``) belongs to the platform; these are
    # the game's own facts in it.
    assert get_game("arboretum") is GAME
    assert (GAME.id, GAME.title, GAME.min_players, GAME.max_players) == (
        "arboretum",
        "Arboretum",
        2,
        4,
    )
    assert GAME.Options is NoOptions
    assert GAME.template == "arboretum/table.html"
    assert isinstance(GAME.summary, str) and "\n" not in GAME.summary
    assert GAME.turn_rule == R.RULE_TURN == "Cómo jugar"


# --- a turn ------------------------------------------------------------------------------------


def test_a_whole_turn() -> None:
    state = R.setup(2, 5)
    top2, top1 = state.deck[-2], state.deck[-1]
    state = R.apply(state, 0, {"type": "draw", "source": "deck"})
    assert (state.step, state.draws_left) == ("draw", 1)
    assert state.hands[0][-1] == top1
    state = R.apply(state, 0, {"type": "draw", "source": "deck"})
    assert (state.step, state.draws_left) == ("play", 0)
    assert state.hands[0][-1] == top2 and len(state.hands[0]) == 9
    card = state.hands[0][3]
    state = R.apply(state, 0, {"type": "play", "card": list(card), "cell": [0, 0]})
    assert state.arboreta[0] == (((0, 0), card),)
    assert state.step == "discard" and len(state.hands[0]) == 8
    thrown = state.hands[0][0]
    state = R.apply(state, 0, {"type": "discard", "card": list(thrown)})
    assert state.discards[0] == (thrown,)
    assert len(state.hands[0]) == HAND_SIZE  # back to 7
    assert (state.turn, state.step, state.draws_left) == (1, "draw", 2)
    assert R.active_seats(state) == frozenset({1})


def test_turns_go_round_the_table() -> None:
    state = R.setup(3, 2)
    seats = []
    for _ in range(4):
        seats.append(state.turn)
        state = play_turn(state, (0, 0) if not state.arboreta[state.turn] else (0, 1))
    assert seats == [0, 1, 2, 0]


def test_draw_from_any_discard_pile_including_own() -> None:
    state = make(
        [HAND0, HAND1],
        discards=[[("cassia", 6)], [("olive", 7)]],
    )
    assert R.legal_moves(state, 0) == [
        {"type": "draw", "source": "deck"},
        {"type": "draw", "source": 0},
        {"type": "draw", "source": 1},
    ]
    after = R.apply(state, 0, {"type": "draw", "source": 0})
    assert after.hands[0][-1] == ("cassia", 6) and after.discards[0] == ()
    after = R.apply(after, 0, {"type": "draw", "source": 1})
    assert after.hands[0][-1] == ("olive", 7) and after.discards[1] == ()
    assert after.deck == state.deck


def test_the_second_draw_sees_the_first() -> None:
    state = make([HAND0, HAND1], discards=[[], [("olive", 7), ("olive", 6)]])
    state = R.apply(state, 0, {"type": "draw", "source": 1})
    assert state.hands[0][-1] == ("olive", 6)
    assert {"type": "draw", "source": 1} in R.legal_moves(state, 0)  # the newly exposed top
    state = R.apply(state, 0, {"type": "draw", "source": 1})
    assert state.hands[0][-1] == ("olive", 7)
    assert state.discards[1] == ()


def test_both_draws_from_the_deck() -> None:
    state = make([HAND0, HAND1], deck=[("oak", 1), ("oak", 2), ("oak", 3)])
    state = R.apply(state, 0, {"type": "draw", "source": "deck"})
    state = R.apply(state, 0, {"type": "draw", "source": "deck"})
    assert state.hands[0][-2:] == (("oak", 3), ("oak", 2))
    assert state.deck == (("oak", 1),)


def test_legal_moves_per_step() -> None:
    state = make([HAND0[:2], HAND1], step="play")
    assert R.legal_moves(state, 1) == []
    assert R.legal_moves(state, 0) == [
        {"type": "play", "card": ["cassia", 3], "cell": [0, 0]},
        {"type": "play", "card": ["jacaranda", 5], "cell": [0, 0]},
    ]
    state = make([HAND0[:2], HAND1], step="discard")
    assert R.legal_moves(state, 0) == [
        {"type": "discard", "card": ["cassia", 3]},
        {"type": "discard", "card": ["jacaranda", 5]},
    ]


def test_first_card_offered_at_the_origin_but_accepted_anywhere() -> None:
    # Rules decision 1: the grid is unbounded, so [0, 0] stands for every cell.
    state = make([HAND0, HAND1], step="play")
    assert {tuple(m["cell"]) for m in R.legal_moves(state, 0)} == {(0, 0)}
    after = R.apply(state, 0, {"type": "play", "card": ["oak", 6], "cell": [5, -3]})
    assert after.arboreta[0] == (((5, -3), ("oak", 6)),)
    assert after.frontiers[0] == {(4, -3), (6, -3), (5, -4), (5, -2)}


def test_later_cards_go_next_to_the_arboretum_on_an_empty_cell() -> None:
    planted = [((0, 0), ("cassia", 4)), ((0, 1), ("olive", 5))]
    state = make([HAND0, HAND1], arboreta=[planted, []], step="play")
    cells = {tuple(m["cell"]) for m in R.legal_moves(state, 0)}
    assert cells == {(-1, 0), (1, 0), (0, -1), (-1, 1), (1, 1), (0, 2)}
    assert len(R.legal_moves(state, 0)) == len(cells) * len(HAND0)
    after = R.apply(state, 0, {"type": "play", "card": ["oak", 6], "cell": [0, 2]})
    assert after.arboreta[0][-1] == ((0, 2), ("oak", 6))
    assert (0, 3) in after.frontiers[0] and (0, 2) not in after.frontiers[0]
    assert after.frontiers[0] == R.frontier_of(after.arboreta[0])
    for cell, why in (([1, 2], "not next to your arboretum"), ([0, 1], "already holds")):
        with pytest.raises(IllegalMove, match=why) as err:
            R.apply(state, 0, {"type": "play", "card": ["oak", 6], "cell": cell})
        assert err.value.rule == R.RULE_PLAY


def test_extra_keys_in_a_move_are_ignored() -> None:
    # Rules decision 6.
    state = make([HAND0, HAND1])
    after = R.apply(state, 0, {"type": "draw", "source": "deck", "note": "hi"})
    assert after == R.apply(state, 0, {"type": "draw", "source": "deck"})


def test_moves_accept_tuples() -> None:
    state = make([HAND0, HAND1], step="play")
    after = R.apply(state, 0, {"type": "play", "card": ("oak", 6), "cell": (0, 0)})
    assert after.arboreta[0] == (((0, 0), ("oak", 6)),)


# --- the end -----------------------------------------------------------------------------------


def test_the_game_ends_after_the_turn_of_who_drew_the_last_card() -> None:
    state = make([HAND0, HAND1], deck=[("oak", 2)], discards=[[], [("olive", 7)]])
    state = R.apply(state, 0, {"type": "draw", "source": "deck"})
    assert state.deck == () and state.step == "draw"
    # Rules decision 3: the deck is no longer a source; the remaining draw uses a discard pile.
    assert R.legal_moves(state, 0) == [{"type": "draw", "source": 1}]
    with pytest.raises(IllegalMove, match="deck is empty") as err:
        R.apply(state, 0, {"type": "draw", "source": "deck"})
    assert err.value.rule == "Robar 2 cartas"
    state = R.apply(state, 0, {"type": "draw", "source": 1})
    state = R.apply(state, 0, {"type": "play", "card": ["oak", 2], "cell": [0, 0]})
    assert R.result(state) is None and R.active_seats(state) == {0}
    state = R.apply(state, 0, {"type": "discard", "card": ["olive", 7]})
    # Rules decision 4: that turn was completed normally; now the game is over.
    assert state.step == "over"
    assert R.active_seats(state) == frozenset()
    assert R.legal_moves(state, 0) == [] and R.legal_moves(state, 1) == []
    assert R.result(state) is not None
    assert len(state.hands[0]) == HAND_SIZE


def test_last_card_drawn_second_also_ends_the_game_after_that_turn() -> None:
    state = make([HAND0, HAND1], deck=[("oak", 2), ("oak", 3)], turn=1)
    state = R.apply(state, 1, {"type": "draw", "source": "deck"})
    state = R.apply(state, 1, {"type": "draw", "source": "deck"})
    state = R.apply(state, 1, {"type": "play", "card": ["oak", 2], "cell": [0, 0]})
    state = R.apply(state, 1, {"type": "discard", "card": ["oak", 3]})
    assert state.step == "over" and state.turn == 1


def test_the_game_goes_on_while_the_deck_has_cards() -> None:
    state = make([HAND0, HAND1], deck=[("oak", 2), ("oak", 3), ("oak", 4)])
    state = play_turn(state, (0, 0))
    assert state.step == "draw" and state.turn == 1 and R.result(state) is None


def test_a_draw_is_skipped_when_deck_and_every_discard_pile_are_empty() -> None:
    # Rules decision 2 (spec §End).
    state = make([HAND0, HAND1], deck=[("oak", 2)])
    state = R.apply(state, 0, {"type": "draw", "source": "deck"})
    assert (state.step, state.draws_left) == ("play", 0)
    assert len(state.hands[0]) == 8
    state = R.apply(state, 0, {"type": "play", "card": ["oak", 2], "cell": [0, 0]})
    state = R.apply(state, 0, {"type": "discard", "card": ["oak", 7]})
    assert state.step == "over" and len(state.hands[0]) == 6


# --- illegal moves -----------------------------------------------------------------------------

DRAW = make([HAND0, HAND1], discards=[[], [("olive", 7)]])
PLAY = make(
    [[*HAND0, ("olive", 5), ("olive", 6)], HAND1],
    arboreta=[[((0, 0), ("cassia", 4))], []],
    step="play",
)
DISCARD = make(
    [[*HAND0, ("olive", 5)], HAND1], arboreta=[[((0, 0), ("cassia", 4))], []], step="discard"
)
OVER = make([HAND0, HAND1], deck=[], step="over")
HALF_DRAWN = make([[*HAND0, ("olive", 5)], HAND1], step="draw", draws_left=1)

# The rulebook's headings, written out here so that a change of a ``RULE_*`` constant shows.
H_CARDS = "Preparación del mazo"
H_TURN = "Cómo jugar"
H_DRAW = "Robar 2 cartas"
H_PLAY = "Jugar una carta de la mano en su arboreto"
H_DISCARD = "Descartar una carta"
H_END = "Puntuación"

ILLEGAL: list[tuple[str, ArboretumState, int, Any, str, str]] = [
    ("game over", OVER, 0, {"type": "draw", "source": "deck"}, "game is over", H_END),
    ("not a dict", DRAW, 0, ["draw"], "no step of a turn", H_TURN),
    ("no type", DRAW, 0, {"source": "deck"}, "no step of a turn", H_TURN),
    ("unknown type", DRAW, 0, {"type": "pass"}, "no step of a turn", H_TURN),
    ("type not str", DRAW, 0, {"type": 3}, "no step of a turn", H_TURN),
    ("not your turn", DRAW, 1, {"type": "draw", "source": "deck"}, "it is {p0's} turn", H_TURN),
    (
        "play while drawing",
        DRAW,
        0,
        {"type": "play", "card": ["oak", 6], "cell": [0, 0]},
        "draw first: 2 cards left",
        H_TURN,
    ),
    (
        "discard while drawing",
        HALF_DRAWN,
        0,
        {"type": "discard", "card": ["oak", 6]},
        "draw first: 1 card left",
        H_TURN,
    ),
    (
        "draw while playing",
        PLAY,
        0,
        {"type": "draw", "source": "deck"},
        "already drawn",
        H_DRAW,
    ),
    (
        "discard before playing",
        PLAY,
        0,
        {"type": "discard", "card": ["oak", 6]},
        "play a card into your arboretum before",
        H_TURN,
    ),
    (
        "play twice",
        DISCARD,
        0,
        {"type": "play", "card": ["oak", 6], "cell": [0, 1]},
        "already played",
        H_PLAY,
    ),
    (
        "draw while discarding",
        DISCARD,
        0,
        {"type": "draw", "source": "deck"},
        "already drawn",
        H_DRAW,
    ),
    (
        "empty discard pile",
        DRAW,
        0,
        {"type": "draw", "source": 0},
        "{p0's} discard pile is empty",
        H_DRAW,
    ),
    (
        "source out of range",
        DRAW,
        0,
        {"type": "draw", "source": 2},
        "no discard pile number 2: the seats are numbered 0 to 1",
        H_DRAW,
    ),
    ("negative source", DRAW, 0, {"type": "draw", "source": -1}, "no discard pile number -1",
     H_DRAW),
    ("bool source", DRAW, 0, {"type": "draw", "source": True}, "from a discard pile", H_DRAW),
    ("missing source", DRAW, 0, {"type": "draw"}, "from a discard pile", H_DRAW),
    (
        "other string source",
        DRAW,
        0,
        {"type": "draw", "source": "pile"},
        "draw from the deck or from a discard pile",
        H_DRAW,
    ),
    ("float source", DRAW, 0, {"type": "draw", "source": 1.0}, "from a discard pile", H_DRAW),
    (
        "card not a list",
        PLAY,
        0,
        {"type": "play", "card": "oak 6", "cell": [0, 1]},
        "a pair of a species and a value from 1 to 8",
        H_PLAY,
    ),
    (
        "card too long",
        PLAY,
        0,
        {"type": "play", "card": ["oak", 6, 1], "cell": [0, 1]},
        "a pair of a species and a value from 1 to 8",
        H_PLAY,
    ),
    (
        "card missing",
        DISCARD,
        0,
        {"type": "discard"},
        "choose a card from your hand first",
        H_DISCARD,
    ),
    (
        "card empty",
        PLAY,
        0,
        {"type": "play", "card": None, "cell": [0, 1]},
        "choose a card from your hand first",
        H_PLAY,
    ),
    (
        "card a dict",
        DISCARD,
        0,
        {"type": "discard", "card": {"oak": 6}},
        "a pair of a species and a value from 1 to 8",
        H_DISCARD,
    ),
    (
        "unknown species",
        PLAY,
        0,
        {"type": "play", "card": ["pine", 6], "cell": [0, 1]},
        "unknown species",
        H_CARDS,
    ),
    (
        "species not a str",
        PLAY,
        0,
        {"type": "play", "card": [6, 6], "cell": [0, 1]},
        "unknown species",
        H_CARDS,
    ),
    (
        "species out of the box",
        PLAY,
        0,
        {"type": "play", "card": ["lilac", 6], "cell": [0, 1]},
        "Lilac is not in play in this game",
        H_CARDS,
    ),
    (
        "value too high",
        DISCARD,
        0,
        {"type": "discard", "card": ["oak", 9]},
        "a whole number from 1 to 8",
        H_CARDS,
    ),
    (
        "value zero",
        DISCARD,
        0,
        {"type": "discard", "card": ["oak", 0]},
        "a whole number from 1 to 8",
        H_CARDS,
    ),
    (
        "value bool",
        DISCARD,
        0,
        {"type": "discard", "card": ["oak", True]},
        "a whole number from 1 to 8",
        H_CARDS,
    ),
    (
        "value str",
        DISCARD,
        0,
        {"type": "discard", "card": ["oak", "6"]},
        "a whole number from 1 to 8",
        H_CARDS,
    ),
    (
        "value float",
        DISCARD,
        0,
        {"type": "discard", "card": ["oak", 6.0]},
        "a whole number from 1 to 8",
        H_CARDS,
    ),
    (
        "play a card not held",
        PLAY,
        0,
        {"type": "play", "card": ["oak", 1], "cell": [0, 1]},
        "you have no Oak 1 in hand",
        H_PLAY,
    ),
    (
        "discard a card not held",
        DISCARD,
        0,
        {"type": "discard", "card": ["olive", 6]},
        "you have no Olive 6 in hand",
        H_DISCARD,
    ),
    (
        "cell missing",
        PLAY,
        0,
        {"type": "play", "card": ["oak", 6]},
        "choose a highlighted space of your arboretum",
        H_PLAY,
    ),
    (
        "cell bools",
        PLAY,
        0,
        {"type": "play", "card": ["oak", 6], "cell": [False, True]},
        "a pair of whole numbers, its row and its column",
        H_PLAY,
    ),
    (
        "cell floats",
        PLAY,
        0,
        {"type": "play", "card": ["oak", 6], "cell": [0.0, 1.0]},
        "a pair of whole numbers, its row and its column",
        H_PLAY,
    ),
    (
        "cell too long",
        PLAY,
        0,
        {"type": "play", "card": ["oak", 6], "cell": [0, 1, 2]},
        "a pair of whole numbers, its row and its column",
        H_PLAY,
    ),
    (
        "cell a string",
        PLAY,
        0,
        {"type": "play", "card": ["oak", 6], "cell": "0,1"},
        "a pair of whole numbers, its row and its column",
        H_PLAY,
    ),
    (
        "cell occupied",
        PLAY,
        0,
        {"type": "play", "card": ["oak", 6], "cell": [0, 0]},
        "that spot already holds a tree",
        H_PLAY,
    ),
    (
        "cell diagonal",
        PLAY,
        0,
        {"type": "play", "card": ["oak", 6], "cell": [1, 1]},
        "not next to your arboretum",
        H_PLAY,
    ),
    (
        "cell far away",
        PLAY,
        0,
        {"type": "play", "card": ["oak", 6], "cell": [-40, 7]},
        "not next to your arboretum",
        H_PLAY,
    ),
]


@pytest.mark.parametrize(
    ("state", "seat", "move", "reason", "rule"),
    [case[1:] for case in ILLEGAL],
    ids=[case[0] for case in ILLEGAL],
)
def test_illegal_moves_are_refused_and_change_nothing(
    state: ArboretumState, seat: int, move: Any, reason: str, rule: str
) -> None:
    before = R.dump(state)
    with pytest.raises(IllegalMove) as err:
        GAME.apply(state, seat, move)
    assert reason in err.value.reason
    assert err.value.rule == rule
    assert R.dump(state) == before


def test_the_turn_reason_names_the_player_as_the_log_does() -> None:
    """The platform fills in ``{p0's}`` with the name ("it is Ana's turn")."""
    with pytest.raises(IllegalMove) as err:
        R.apply(PLAY, 1, {"type": "play", "card": ["oak", 6], "cell": [0, 1]})
    assert err.value.reason == "it is {p0's} turn"
    assert fill_names(err.value.reason, ["Ana", "Bo"], 1) == "it is Ana's turn"


def test_the_unknown_species_refusal_names_the_species_in_play() -> None:
    with pytest.raises(IllegalMove) as err:
        R.apply(PLAY, 0, {"type": "play", "card": ["pine", 6], "cell": [0, 1]})
    assert err.value.reason == (
        "unknown species: the species in this game are Cassia, Jacaranda, Olive, Maple, Oak, "
        "and Willow"
    )


@pytest.mark.parametrize("case", ILLEGAL, ids=[case[0] for case in ILLEGAL])
def test_every_refusal_is_plain_words(case: tuple[str, ArboretumState, int, Any, str, str]) -> None:
    """No list literal, Python value, identifier or quoted repr reaches a player, even for a
    malformed move (app/web/words.py)."""
    _, state, seat, move, _, _ = case
    with pytest.raises(IllegalMove) as err:
        GAME.apply(state, seat, move)
    assert raw_fragment(fill_names(err.value.reason, ["Ana", "Bo"], seat)) is None


def test_every_refusal_names_a_rule() -> None:
    assert all(case[5] for case in ILLEGAL)
    assert {case[5] for case in ILLEGAL} == {H_CARDS, H_TURN, H_DRAW, H_PLAY, H_DISCARD, H_END}
    assert (R.RULE_CARDS, R.RULE_TURN, R.RULE_DRAW, R.RULE_PLAY, R.RULE_DISCARD, R.RULE_END) == (
        H_CARDS, H_TURN, H_DRAW, H_PLAY, H_DISCARD, H_END,
    )  # fmt: skip


RULEBOOK = Path("/work/shared/rules/arboretum.es.txt")


def test_rulebook_headings_are_the_rulebooks_own() -> None:
    """Every entry of ``RULEBOOK_HEADINGS`` is a line of the Spanish rulebook on its own,
    letter for letter, in the rulebook's order; every ``RULE_*`` constant is one of them."""
    headings = R.RULEBOOK_HEADINGS
    assert len(set(headings)) == len(headings) and all(headings)
    constants = {name: value for name, value in vars(R).items() if name.startswith("RULE_")}
    assert constants and set(constants.values()) <= set(headings)
    assert {"Robar 2 cartas", "Descartar una carta", "Puntuación", "Cómo jugar"} <= set(headings)
    if not RULEBOOK.exists():
        pytest.skip("the rulebook is not on this machine")
    lines = [line.strip() for line in RULEBOOK.read_text(encoding="utf-8").splitlines()]
    positions = [lines.index(heading) for heading in headings]  # ValueError: not a heading
    assert positions == sorted(positions)


def test_every_illegal_move_in_the_source_names_a_rulebook_heading() -> None:
    """Statically: each ``IllegalMove(...)`` in app/games/arboretum/ passes a ``RULE_*``
    constant (or the ``rule`` parameter of a helper that callers fill with one)."""
    folder = Path(R.__file__).parent
    calls = 0
    for source in sorted(folder.glob("*.py")):
        tree = ast.parse(source.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if not (isinstance(node, ast.Call) and getattr(node.func, "id", "") == "IllegalMove"):
                continue
            calls += 1
            args = [*node.args, *(k.value for k in node.keywords if k.arg == "rule")]
            assert len(args) == 2, f"{source.name}:{node.lineno} names no rule"
            rule = args[1]
            assert isinstance(rule, ast.Name), f"{source.name}:{node.lineno}"
            if rule.id != "rule":
                assert getattr(R, rule.id) in R.RULEBOOK_HEADINGS, f"{source.name}:{node.lineno}"
    assert calls >= 15


def _changed(move: dict[str, Any], rng: random.Random, state: ArboretumState) -> list[Any]:
    """Variants of a legal move with one field changed (or dropped, or the type changed)."""
    out: list[Any] = [
        {**move, "type": rng.choice(["pass", "Draw", 3, None])},
        {k: v for k, v in move.items() if k != "type"},
        [move.get("type")],
    ]
    for key in [k for k in move if k != "type"]:
        out.append({k: v for k, v in move.items() if k != key})
    if "source" in move:
        out += [
            {**move, "source": value}
            for value in ("pile", None, True, 1.0, -1, state.players, *range(state.players))
        ]
    if "card" in move:
        kind, value = move["card"]
        absent = next(s for s in SPECIES if s not in state.species) if state.players < 4 else kind
        out += [
            {**move, "card": card}
            for card in (
                [kind, value % 8 + 1], [kind, 0], [kind, 9], [kind, True], [kind, "3"],
                ["pine", value], [absent, value], [value, kind], f"{kind} {value}", [kind],
                [rng.choice(state.species), rng.randint(1, 8)],
            )
        ]  # fmt: skip
    if "cell" in move:
        r, c = move["cell"]
        planted = [list(cell) for cell, _ in state.arboreta[state.turn]]
        out += [
            {**move, "cell": cell}
            for cell in (
                [r + 1, c + 1], [r + 40, c], [r, c, 0], [float(r), c], "0,0", [True, False],
                *planted[:2],
            )
        ]  # fmt: skip
    return out


@pytest.mark.parametrize(("players", "seed"), [(2, 1), (3, 2), (4, 3), (2, 4)])
def test_every_refusal_met_in_random_playouts_names_a_rulebook_heading(
    players: int, seed: int
) -> None:
    """Random games; at every step each seat is probed with the legal moves of every seat
    seen so far (other seats' and other steps') and with legal moves with a field changed:
    every refusal names one of the rulebook's headings, and changes nothing."""
    rng = random.Random(seed)
    state = R.setup(players, seed)
    pool: list[Any] = []
    met: Counter[str] = Counter()
    while not state.over:
        legal = R.legal_moves(state, state.turn)
        pool = (pool + rng.sample(legal, min(4, len(legal))))[-24:]
        probes: list[tuple[int, Any]] = []
        for seat in range(players):
            probes += [(seat, move) for move in rng.sample(pool, min(6, len(pool)))]
            probes += [(seat, move) for move in _changed(rng.choice(legal), rng, state)]
        before = R.dump(state)
        for seat, move in probes:
            try:
                R.apply(state, seat, move)
            except IllegalMove as refusal:
                assert refusal.rule, refusal
                assert refusal.rule in R.RULEBOOK_HEADINGS, (refusal.rule, move)
                met[refusal.rule] += 1
        assert R.dump(state) == before
        state = R.apply(state, state.turn, rng.choice(legal))
    with pytest.raises(IllegalMove) as over:
        R.apply(state, 0, {"type": "draw", "source": "deck"})
    met[over.value.rule] += 1
    assert set(met) == {H_CARDS, H_TURN, H_DRAW, H_PLAY, H_DISCARD, H_END}, met


# --- results -----------------------------------------------------------------------------------


def finished(arboreta: list[list[tuple[tuple[int, int], tuple[str, int]]]]) -> ArboretumState:
    # Nobody holds any card: everyone has the right to every species.
    return make([[], [], []], deck=[], arboreta=arboreta, step="over")


def test_most_points_wins() -> None:
    state = finished(
        [
            [((0, 0), ("oak", 1)), ((0, 1), ("oak", 5))],  # 3
            [((0, 0), ("oak", 2)), ((0, 1), ("oak", 8))],  # 4
            [],
        ]
    )
    final = R.result(state)
    assert final is not None
    assert final.scores == (3, 4, 0)
    assert final.ranking == (1, 0, 2)
    assert final.winners == (1,)


def test_a_tie_goes_to_the_most_species_in_the_arboretum() -> None:
    state = finished(
        [
            [((0, 0), ("oak", 2)), ((0, 1), ("oak", 5))],  # 2 points, 1 species
            [((0, 0), ("maple", 2)), ((0, 1), ("maple", 5)), ((1, 0), ("willow", 1))],  # 2, 2
            [((0, 0), ("olive", 3)), ((0, 1), ("olive", 4))],  # 2 points, 1 species
        ]
    )
    final = R.result(state)
    assert final is not None
    assert final.scores == (2, 2, 2)
    assert final.ranking == (1, 0, 2)
    assert final.winners == (1,)
    assert final.details["species_counts"] == [1, 2, 1]


def test_still_tied_players_share_the_win() -> None:
    state = finished(
        [
            [((0, 0), ("oak", 2)), ((0, 1), ("oak", 5))],
            [],
            [((0, 0), ("olive", 3)), ((0, 1), ("olive", 4))],
        ]
    )
    final = R.result(state)
    assert final is not None
    assert final.ranking == (0, 2, 1)
    assert final.winners == (0, 2)
    assert final.to_json()["winners"] == [0, 2]


def test_result_details_shape() -> None:
    state = finished([[((0, 0), ("oak", 2)), ((0, 1), ("oak", 5))], [], []])
    final = R.result(state)
    assert final is not None
    details = final.details
    assert set(details) == {"species", "rights", "paths", "species_counts", "scores"}
    assert details["species"] == SIX
    assert details["rights"] == {s: [0, 1, 2] for s in SIX}
    assert details["paths"][0]["oak"] == {"score": 2, "cells": [[0, 0], [0, 1]]}
    assert details["paths"][1]["oak"] == {"score": 0, "cells": []}
    assert list(details["paths"][0]) == SIX  # every species with the right, in table order
    assert details["scores"] == [2, 0, 0]
    json.dumps(final.to_json())


def test_no_result_before_the_end() -> None:
    assert R.result(R.setup(2, 1)) is None


# --- views -------------------------------------------------------------------------------------

VIEW_KEYS = {
    "players",
    "species",
    "deck_count",
    "turn",
    "step",
    "draws_left",
    "hands",
    "arboreta",
    "discards",
    "last_played",
    "result",
}


def test_view_of_a_seat() -> None:
    state = make(
        [HAND0, HAND1],
        arboreta=[[((0, 0), ("cassia", 4)), ((1, 0), ("olive", 5))], []],
        discards=[[("olive", 6), ("olive", 7)], []],
        turn=1,
        deck=[("oak", 1), ("oak", 2), ("oak", 3)],
    )
    view = GAME.view(state, 0)
    assert set(view) == VIEW_KEYS
    assert view["players"] == 2
    assert view["species"] == SIX
    assert view["deck_count"] == 3
    assert (view["turn"], view["step"], view["draws_left"]) == (1, "draw", 2)
    assert view["hands"][0]["count"] == 7
    # Own hand in table order: species, then value.
    assert view["hands"][0]["cards"] == [
        ["cassia", 3],
        ["jacaranda", 5],
        ["olive", 2],
        ["maple", 8],
        ["oak", 6],
        ["oak", 7],
        ["willow", 1],
    ]
    assert view["hands"][0]["new"] == []  # not this seat's turn
    assert view["hands"][1] == {"count": 7, "cards": None}
    assert view["arboreta"] == [
        [{"cell": [0, 0], "card": ["cassia", 4]}, {"cell": [1, 0], "card": ["olive", 5]}],
        [],
    ]
    assert view["discards"] == [[["olive", 6], ["olive", 7]], []]
    assert view["last_played"] == [[1, 0], None]
    assert view["result"] is None
    assert json.loads(json.dumps(view)) == view


def test_spectators_see_no_hand_and_nobody_sees_the_deck() -> None:
    state = R.setup(3, 9)
    for seat in (None, 0, 1, 2, 99):
        view = GAME.view(state, seat)
        text = json.dumps(view)
        for card in state.deck:
            assert json.dumps(list(card)) not in text
        for owner, hand in enumerate(state.hands):
            if owner != seat:
                assert view["hands"][owner]["cards"] is None
                assert all(json.dumps(list(card)) not in text for card in hand)
        assert "seed" not in text and '"deck"' not in text


def test_every_hand_is_revealed_once_the_game_is_over() -> None:
    # Rules decision 7.
    state = make([HAND0, HAND1], deck=[], step="over", turn=1)
    view = GAME.view(state, None)
    assert view["turn"] is None and view["step"] == "over" and view["draws_left"] == 0
    assert [len(h["cards"]) for h in view["hands"]] == [7, 7]
    final = R.result(state)
    assert final is not None
    assert view["result"] == final.details


# --- the log -----------------------------------------------------------------------------------


def events(state: ArboretumState, seat: int, move: dict[str, Any]) -> list[Any]:
    return GAME.events(state, seat, move, R.apply(state, seat, move))


def test_events_of_a_deck_draw() -> None:
    state = make([HAND0, HAND1], turn=1, deck=[("oak", 1), ("oak", 3), ("oak", 2)])
    public, private = events(state, 1, {"type": "draw", "source": "deck"})
    assert public.key == "arboretum.draw_deck"
    assert public.text == "{p1} drew from the deck"
    assert public.params == {"player": 1}
    assert public.seats is None and public.not_for == frozenset({1})
    assert private.key == "arboretum.draw_deck_private"
    assert private.text == "{p1} drew Oak 2 from the deck"
    assert private.params == {"player": 1, "card": ["oak", 2]}
    assert private.seats == frozenset({1})
    assert not private.visible_to(0) and not private.visible_to(None)
    # One line per reader: the drawer reads the card, everyone else that a card was drawn.
    names = ["Ana", "Bo"]
    read = {reader: [fill_names(e.text, names, reader) for e in (public, private)
                     if e.visible_to(reader)] for reader in (0, 1, None)}
    assert read == {0: ["Bo drew from the deck"], 1: ["You drew Oak 2 from the deck"],
                    None: ["Bo drew from the deck"]}


def test_events_of_a_discard_draw() -> None:
    state = make(
        [HAND0, HAND1],
        discards=[[("olive", 6)], [("royal_poinciana", 4)]],
        species=[*SIX[:-1], "royal_poinciana"],
    )
    (line,) = events(state, 0, {"type": "draw", "source": 1})
    assert line.text == "{p0} took Royal Poinciana 4 from {p1's} discard pile"
    assert fill_names(line.text, ["Ana", "Bo"], 0) == (
        "You took Royal Poinciana 4 from Bo's discard pile")
    assert fill_names(line.text, ["Ana", "Bo"], 1) == (
        "Ana took Royal Poinciana 4 from your discard pile")
    assert line.key == "arboretum.draw_discard"
    assert line.params == {"player": 0, "from": 1, "card": ["royal_poinciana", 4]}
    assert line.seats is None
    (line,) = events(state, 0, {"type": "draw", "source": 0})
    assert line.text == "{p0} took Olive 6 from {p0's} own discard pile"
    assert fill_names(line.text, ["Ana", "Bo"], 0) == "You took Olive 6 from your own discard pile"
    assert fill_names(line.text, ["Ana", "Bo"], 1) == "Ana took Olive 6 from Ana's own discard pile"


def test_events_of_play_and_discard() -> None:
    (line,) = events(PLAY, 0, {"type": "play", "card": ["oak", 6], "cell": [0, 1]})
    assert (line.key, line.text) == ("arboretum.play", "{p0} planted Oak 6")
    assert line.params == {"player": 0, "card": ["oak", 6], "cell": [0, 1]}
    (line,) = events(DISCARD, 0, {"type": "discard", "card": ["olive", 5]})
    assert (line.key, line.text) == ("arboretum.discard", "{p0} discarded Olive 5")
    assert line.params == {"player": 0, "card": ["olive", 5]}


def test_events_of_the_last_card_the_skipped_draw_and_the_end() -> None:
    state = make([HAND0, HAND1], deck=[("oak", 2)])
    lines = events(state, 0, {"type": "draw", "source": "deck"})
    assert [e.key for e in lines] == [
        "arboretum.draw_deck",
        "arboretum.draw_deck_private",
        "arboretum.last_card",
        "arboretum.draw_skipped",
    ]
    assert lines[2].text == "{p0} drew the last card of the deck: the game ends with this turn"
    assert lines[3].text == (
        "{p0} drew no second card: the deck and every discard pile were empty")
    state = R.apply(state, 0, {"type": "draw", "source": "deck"})
    state = R.apply(state, 0, {"type": "play", "card": ["oak", 6], "cell": [0, 0]})
    discard, over = events(state, 0, {"type": "discard", "card": ["cassia", 3]})
    assert discard.key == "arboretum.discard"
    assert over.key == "arboretum.game_over"
    assert over.seats is None
    final = R.result(R.apply(state, 0, {"type": "discard", "card": ["cassia", 3]}))
    assert final is not None
    assert over.params == {
        "scores": list(final.scores),
        "ranking": list(final.ranking),
        "winners": list(final.winners),
    }
    assert over.text.startswith("Game over. {p0} scored ")
    assert over.text.endswith(" won.")


def test_game_over_text_for_a_shared_win() -> None:
    state = make([[("oak", 5)], [("maple", 5)]], deck=[], step="discard", turn=1)
    _, over = events(state, 1, {"type": "discard", "card": ["maple", 5]})
    assert over.text == "Game over. {p0} scored 0 points and {p1} 0. {p0} and {p1} shared the win."
    assert fill_names(over.text, ["Ana", "Bo"], 1) == (
        "Game over. Ana scored 0 points and you 0. Ana and you shared the win.")


def test_game_over_text_for_a_single_winner_of_three() -> None:
    state = make([[("oak", 5)], [("maple", 5)], [("olive", 1)]], deck=[], step="discard",
                 turn=2, arboreta=[[], [], [((0, 0), ("willow", 3)), ((0, 1), ("willow", 4))]])
    _, over = events(state, 2, {"type": "discard", "card": ["olive", 1]})
    assert over.text == "Game over. {p0} scored 0 points, {p1} 0 and {p2} 2. {p2} won."
    assert fill_names(over.text, ["Ana", "Bo", "Cy"], 2) == (
        "Game over. Ana scored 0 points, Bo 0 and you 2. You won.")


# --- the cards just drawn ----------------------------------------------------------------------


def new_cards(state: ArboretumState, seat: int | None) -> list[Any]:
    return [hand.get("new") for hand in GAME.view(state, seat)["hands"]]


def test_the_cards_drawn_this_turn_are_marked_for_their_owner_only() -> None:
    state = make([HAND0, HAND1], deck=[("oak", 1), ("oak", 2)],
                 discards=[[], [("olive", 7)]])
    state = R.apply(state, 0, {"type": "draw", "source": "deck"})
    assert new_cards(state, 0) == [[["oak", 2]], None]
    state = R.apply(state, 0, {"type": "draw", "source": 1})
    assert new_cards(state, 0) == [[["olive", 7], ["oak", 2]], None]  # in the hand's order
    assert new_cards(state, 1) == [None, []]
    assert new_cards(state, None) == [None, None]
    state = R.apply(state, 0, {"type": "play", "card": ["oak", 2], "cell": [0, 0]})
    assert new_cards(state, 0) == [[["olive", 7]], None]  # planted: no longer in hand
    state = R.apply(state, 0, {"type": "discard", "card": ["cassia", 3]})
    assert new_cards(state, 0) == [[], None]  # the turn is over
    state = R.apply(state, 1, {"type": "draw", "source": "deck"})
    assert new_cards(state, 1) == [None, [["oak", 1]]]


def test_planting_an_older_card_keeps_the_new_ones_marked() -> None:
    state = make([HAND0, HAND1], deck=[("oak", 1), ("oak", 2)])
    state = R.apply(state, 0, {"type": "draw", "source": "deck"})
    state = R.apply(state, 0, {"type": "draw", "source": "deck"})
    state = R.apply(state, 0, {"type": "play", "card": ["willow", 1], "cell": [0, 0]})
    assert new_cards(state, 0)[0] == [["oak", 1], ["oak", 2]]
    state = R.apply(state, 0, {"type": "discard", "card": ["oak", 1]})
    assert new_cards(state, 0)[0] == []


def test_the_mark_survives_storage_and_games_stored_before_it_carry_on() -> None:
    state = make([HAND0, HAND1], deck=[("oak", 1), ("oak", 2), ("oak", 3)])
    state = R.apply(state, 0, {"type": "draw", "source": "deck"})
    assert R.load(R.dump(state)) == state and R.dump(state)["just_drawn"] == 1
    for moves, marked in (
        (0, 0),  # the draw step: the draws made so far
        (1, 1),
        (2, 2),  # the play step: the cards beyond a hand of 7
        (3, 0),  # after the play it is not known whether a new card was planted
    ):
        now = make([HAND0, HAND1], deck=[("oak", 1), ("oak", 2), ("oak", 3)])
        for move in [{"type": "draw", "source": "deck"}] * min(moves, 2) + (
            [{"type": "play", "card": ["oak", 6], "cell": [0, 0]}] if moves == 3 else []
        ):
            now = R.apply(now, 0, move)
        old = R.dump(now)
        del old["just_drawn"]
        assert R.load(old).just_drawn == marked
        assert R.load(old) == dataclasses.replace(now, just_drawn=marked)


# --- storage -----------------------------------------------------------------------------------


def test_dump_and_load_round_trip() -> None:
    state = R.setup(4, 3)
    for _ in range(6):
        state = play_turn(state, (0, 0) if not state.arboreta[state.turn] else (1, 0))
    data = GAME.dump(state)
    assert json.loads(json.dumps(data)) == data
    again = GAME.load(json.loads(json.dumps(data)))
    assert again == state
    assert again.frontiers == state.frontiers
    assert data["seed"] == 3 and len(data["deck"]) == len(state.deck)


def test_load_refuses_an_unknown_step() -> None:
    data = R.dump(R.setup(2, 1))
    data["step"] = "dance"
    with pytest.raises(ValueError):
        R.load(data)
