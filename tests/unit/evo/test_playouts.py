"""Whole random games of Evo for 2 to 5 players: they finish after 9 to 11 rounds with a
result, replay identically, never change their input, leak nothing (tests/leakcheck.py) and
speak plain words."""

from __future__ import annotations

import random

import pytest

from app.games.base import IllegalMove
from app.games.evo import GAME as EVO
from app.games.evo import rules
from app.rooms.table import fill_names
from app.web.words import raw_fragment
from tests.leakcheck import check_playout

NAMES = ["Ana", "Bo", "Cy", "Di", "Ed"]


def playout(players: int, seed: int):
    """A random game: the moves as (seat, move) and every state from the deal to the end."""
    rng = random.Random(seed)
    state = EVO.setup(players, EVO.Options(), seed)
    states, moves = [state], []
    for _ in range(5000):
        active = sorted(EVO.active_seats(state))
        if not active:
            break
        seat = rng.choice(active)
        legal = EVO.legal_moves(state, seat)
        assert legal, f"seat {seat} is active without a legal move in the {state.phase} phase"
        move = rng.choice(legal)
        state = EVO.apply(state, seat, move)
        states.append(state)
        moves.append((seat, move))
    return moves, states


@pytest.mark.parametrize("players", [2, 3, 4, 5])
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_random_games_finish_after_nine_to_eleven_rounds(players, seed):
    _, states = playout(players, seed * 10 + players)
    final = EVO.result(states[-1])
    assert final is not None and not EVO.active_seats(states[-1])
    assert sorted(final.ranking) == list(range(players)) and final.winners
    assert 9 <= final.details["rounds"] <= 11
    assert final.scores == states[-1].mp


def test_the_number_of_rounds_follows_the_meteorite():
    seen = set()
    for seed in range(40):
        _, states = playout(2, seed)
        first = states[0]
        position = (*first.revealed, *first.pile).index("meteorite") + 1
        final = EVO.result(states[-1])
        assert final is not None and final.details["rounds"] == position - 1
        seen.add(position - 1)
    assert seen == {9, 10, 11}


@pytest.mark.parametrize("players", [2, 5])
def test_apply_is_pure_states_round_trip_and_replay_identically(players):
    moves, states = playout(players, 17)
    for before, (seat, move), after in zip(states, moves, states[1:], strict=False):
        dumped = EVO.dump(before)
        again = EVO.apply(EVO.load(dumped), seat, move)
        assert EVO.dump(before) == dumped, "apply changed its input"
        assert EVO.dump(again) == EVO.dump(after)
        assert EVO.load(EVO.dump(after)) == after
    replayed = EVO.setup(players, EVO.Options(), 17)
    for seat, move in moves:
        replayed = EVO.apply(replayed, seat, move)
    assert replayed == states[-1]


@pytest.mark.parametrize("players", [2, 5])
@pytest.mark.parametrize("seed", [0, 2**127 + 5])
def test_no_seat_learns_what_it_may_not_see(players, seed):
    moves = check_playout(EVO, players, seed, max_steps=5000, sample=0.25)
    assert 0 < moves < 5000


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_statuses_log_lines_and_refusals_are_plain_words(players):
    moves, states = playout(players, players + 40)
    names = NAMES[:players]
    refusals = 0
    for before, (mover, move), after in zip(states, moves, states[1:], strict=False):
        for seat in range(players):
            doing = EVO.seat_status(after, seat).doing
            assert raw_fragment(doing) is None, doing
        for event in EVO.events(before, mover, move, after):
            for reader in (*range(players), None):
                if event.visible_to(reader):
                    text = fill_names(event.text, names, reader)
                    assert raw_fragment(text) is None, text
        for other in range(players):
            try:
                EVO.apply(before, other, move)
            except IllegalMove as exc:
                refusals += 1
                assert exc.rule and raw_fragment(fill_names(exc.reason, names, other)) is None
    assert refusals > 0


def test_every_phase_gene_and_card_occurs_in_random_games():
    """The random playouts above reach every part of the rules, not only the easy ones."""
    phases, genes, cards, keys = set(), set(), set(), set()
    for seed in range(30):
        moves, states = playout(2 + seed % 4, 1000 + seed)
        for before, (seat, move) in zip(states, moves, strict=False):
            phases.add(before.phase)
            keys.update(key for key, _ in rules.happenings(before, seat, move))
        last = states[-1]
        genes.update(g for sheet in last.genes for g in sheet)
        cards.update(c for _, c in last.played)
    assert phases == set(rules.PHASES) - {rules.CLIMATE, rules.OVER}
    assert genes == set(rules.GENES)
    assert len(cards) >= 12
    assert {"attack", "fly", "swim", "fled", "killer_baby", "kept", "revealed"} <= keys
