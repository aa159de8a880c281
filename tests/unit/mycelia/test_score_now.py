"""Mycelia's score as the game stands (rules.score_now): the dew drops left on each board,
negated (G1, G4: no points; whoever empties their board wins, so 0 is the best score)."""

from __future__ import annotations

import dataclasses

from app.games.mycelia import GAME, rules

from .helpers import EMPTY, table, with_drops


def test_the_drops_left_negated_mid_game() -> None:
    """Seat 0: 1 + 2 + 3 + 1 + 2 = 9 drops; seat 1: 4 + 1 = 5; seat 2: an empty board, 0,
    the best score there is."""
    state = table(3, boards={0: ("1 0 2 0 0", "0 3 0 0 0", "0 0 0 0 1", "2 0 0 0 0"),
                             1: ("0 0 0 0 4", EMPTY, EMPTY, "0 1 0 0 0"),
                             2: (EMPTY, EMPTY, EMPTY, EMPTY)})
    assert rules.result(state) is None
    assert rules.score_now(state) == (-9, -5, 0)
    assert GAME.score is rules.score_now


def test_at_the_end_it_is_the_result() -> None:
    state = table(2, boards={0: (EMPTY, EMPTY, EMPTY, EMPTY),
                             1: ("0 0 0 0 0", "0 1 0 1 0", EMPTY, "3 0 0 0 0")})
    over = dataclasses.replace(state, phase=rules.OVER)
    result = rules.result(over)
    assert result is not None and result.winners == (0,)
    assert rules.score_now(over) == result.scores == (0, -5)


def test_solo_scores_only_the_player() -> None:
    """Gwidyon is no seat (S1): one score, the player's drops."""
    state = with_drops(table(1), 0, "0 0 0 0 0", "0 0 0 0 2", EMPTY, "0 0 0 0 0")
    assert state.gwidyon is not None
    assert rules.score_now(state) == (-2,)
