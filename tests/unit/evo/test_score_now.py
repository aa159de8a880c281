"""Evo's score as the game stands (rules.score_now): each seat's mutation points ("Objeto del
juego"), 6 at the start ("Preparar"), less the bids paid ("Fase de mutación"), plus 1 per
dinosaur on the board after the survival phase ("Fase de supervivencia")."""

from __future__ import annotations

from dataclasses import replace

from app.games.evo import GAME, rules
from app.games.evo.rules import MUTATION, SURVIVAL
from tests.unit.evo import new_game, play, position


def test_every_player_starts_with_six_mp() -> None:
    assert rules.score_now(new_game(5)) == (6, 6, 6, 6, 6)
    assert GAME.score is rules.score_now


def test_the_bids_paid_in_the_mutation_phase() -> None:
    """The spec's bidding example: A (one vial) ends on column 3 at 0, B pays 1 for column 1,
    C pays 5 for the horn: 6, 5, 1."""
    a, b, c = 0, 1, 2
    board = {(3, -2): a, (4, -2): a, (-2, 4): b, (-1, 3): b, (0, 3): b, (-2, -2): c,
             (-2, -1): c}
    state = position(3, MUTATION, board=board, genes={a: ("vial",)}, lab=("horn", "fur"))
    for seat, column, value in ((a, 2, 2), (b, 2, 3), (a, 1, 0), (c, 2, 5), (b, 1, 1),
                                (a, 3, 0)):
        state = play(state, seat, {"type": "bid", "column": column, "value": value})
    assert rules.score_now(state) == (6, 5, 1)


def test_one_mp_per_survivor_after_the_survival_phase() -> None:
    """Cold hills, one fur: seat 0 keeps 2 of its 3 dinosaurs, seat 1 one of its 3: 6 + 2 = 8
    and 6 + 1 = 7."""
    board = {(0, -3): 0, (1, -3): 0, (-3, -1): 0, (-1, 1): 1, (-2, 1): 1, (2, -1): 1}
    state = position(phase=SURVIVAL, board=board, genes={0: ("fur",)}, section=0)
    assert rules.score_now(state) == (6, 6)
    state = play(state, 0, {"type": "keep", "at": [[1, -3]]})
    assert rules.score_now(state) == (8, 7)


def test_at_the_end_it_is_the_result() -> None:
    over = replace(position(3, mp=(12, 9, 12)), phase=rules.OVER)
    result = rules.result(over)
    assert result is not None
    assert rules.score_now(over) == result.scores == (12, 9, 12)
