"""Evergreen's own property tests (DESIGN.md §7): random legal playouts with undo for 1-4
players keep the 42 cards and have one winner, no view shows the deck order (MOV-6), and
arbitrary JSON moves only ever raise IllegalMove (MOV-3). What every game must do (finish,
replay, purity, no leaks) is tests/games/test_contract.py."""

from __future__ import annotations

import json
import random
from dataclasses import replace
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from app.games.base import IllegalMove, Move
from app.games.evergreen import GAME, rules
from app.games.evergreen.views import view

SETTINGS = settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def card_count(state: rules.State) -> int:
    return (
        len(state.deck)
        + len(state.discard)
        + sum(len(pile) for pile in state.zone)
        + sum(1 for card in state.row if card is not None)
        + sum(len(front) for front in state.fronts)
    )


def all_cards(state: rules.State) -> list[int]:
    return sorted(
        [*state.deck, *state.discard, *(c for pile in state.zone for c, _ in pile),
         *(c for c in state.row if c is not None), *(c for f in state.fronts for c in f)]
    )  # fmt: skip


def check_views(state: rules.State) -> None:
    """No view holds the deck order: a state with another deck order looks the same."""
    other = replace(state, deck=tuple(reversed(state.deck)), seed=state.seed + 1)
    for seat in (None, *range(state.players)):
        seen = view(state, seat)
        assert seen == view(other, seat)
        text = json.dumps(seen)
        assert '"deck"' not in text and '"seed"' not in text and '"counter"' not in text


def playout(players: int, seed: int, undo_rate: float) -> None:
    state = GAME.setup(players, GAME.Options(), seed)
    rng = random.Random(seed)
    steps = 0
    while GAME.result(state) is None:
        steps += 1
        assert steps < 5000
        seat = rng.choice(sorted(GAME.active_seats(state)))
        legal = GAME.legal_moves(state, seat)
        assert legal and len(legal) <= 300
        if {"type": "done"} in legal and rng.random() < 0.25:
            move: Move = {"type": "done"}
        elif {"type": "undo"} in legal and rng.random() < undo_rate:
            move = {"type": "undo"}
        else:
            move = rng.choice(legal)
        state = GAME.apply(state, seat, move)
        assert card_count(state) == 42 and all_cards(state) == list(range(1, 43))
        if steps % 25 == 0:
            check_views(state)
    check_views(state)
    result = GAME.result(state)
    assert result is not None and len(result.winners) == 1
    assert sorted(result.ranking) == list(range(players))


@SETTINGS
@given(seed=st.integers(0, 10**9), undo_rate=st.sampled_from([0.0, 0.1, 0.3]))
def test_solo_playouts(seed: int, undo_rate: float) -> None:
    playout(1, seed, undo_rate)


@SETTINGS
@given(seed=st.integers(0, 10**9), undo_rate=st.sampled_from([0.0, 0.1, 0.3]))
def test_two_player_playouts(seed: int, undo_rate: float) -> None:
    playout(2, seed, undo_rate)


@SETTINGS
@given(seed=st.integers(0, 10**9), undo_rate=st.sampled_from([0.0, 0.1, 0.3]))
def test_three_player_playouts(seed: int, undo_rate: float) -> None:
    playout(3, seed, undo_rate)


@SETTINGS
@given(seed=st.integers(0, 10**9), undo_rate=st.sampled_from([0.0, 0.1, 0.3]))
def test_four_player_playouts(seed: int, undo_rate: float) -> None:
    playout(4, seed, undo_rate)


JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers(-3, 50) | st.floats(allow_nan=False)
    | st.sampled_from(["action", "power", "lake", "done", "plant", "grow"]),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=5), inner,
                                                                 max_size=3),
    max_leaves=6,
)  # fmt: skip
MOVES = st.one_of(
    JSON_VALUES,
    st.fixed_dictionaries(
        {"type": st.sampled_from(rules.MOVE_TYPES)},
        optional={
            "cell": st.one_of(st.lists(st.integers(-2, 10), min_size=0, max_size=3), JSON_VALUES),
            "by": st.one_of(st.sampled_from(["action", "power", "lake"]), JSON_VALUES),
            "card": st.one_of(st.integers(-1, 45), JSON_VALUES),
        },
    ),
)


@settings(max_examples=300, deadline=None)
@given(move=MOVES, seat=st.integers(-1, 4), phase_seed=st.integers(0, 3))
def test_any_json_move_is_applied_or_refused_with_illegal_move(
    move: Any, seat: int, phase_seed: int
) -> None:
    state = GAME.setup(2, GAME.Options(), phase_seed)
    if phase_seed % 2:
        while state.phase == rules.SELECT:
            (picker,) = GAME.active_seats(state)
            state = GAME.apply(state, picker, GAME.legal_moves(state, picker)[0])
    before = GAME.dump(state)
    try:
        GAME.apply(state, seat, move)
    except IllegalMove as error:
        assert error.rule
    assert GAME.dump(state) == before
