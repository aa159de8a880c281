"""The decisions of app/games/evo/rules.py where the rulebook and the spec are silent (its
docstring numbers them), and the one place where the rulebook overrides the spec."""

from __future__ import annotations

from dataclasses import replace

import pytest

from app.games.base import IllegalMove
from app.games.evo import rules
from app.games.evo.rules import BIRTH, MOVE_WINDOW, MUTATION, SURVIVAL
from tests.unit.evo import load_die, play, position


def test_1_without_a_legal_bid_the_marker_goes_to_the_leftmost_free_column_without_item():
    """Four players, one gene in the lab (columns 3 and 4 empty); two players with 0 MP
    find columns 1 and 2 taken: they fill columns 3 and 4 from the left."""
    board = {(-2, -2): 0, (3, -3): 1, (0, 3): 2, (-4, 2): 3}
    state = position(4, MUTATION, lab=("horn", None, None), board=board, mp=(6, 6, 0, 0))
    state = play(state, 0, {"type": "bid", "column": 1, "value": 1})
    state = play(state, 1, {"type": "bid", "column": 2, "value": 1})
    assert state.markers[2:] == ((2, None), (3, None))
    assert state.genes[2] == state.genes[3] == () and state.mp[2:] == (0, 0)
    assert state.initiative[:2] == (0, 1)


def test_2_a_player_without_dinosaurs_starts_anew_anywhere_even_after_losing_its_newborns(
        monkeypatch):
    state = position(phase=BIRTH, board={(2, -1): 1, (1, -1): 1}, initiative=(0, 1),
                     genes={0: ("egg", "egg"), 1: ("killer_babies", "egg", "egg")})
    assert state.orphans == {0}
    anywhere = [m for m in rules.legal_moves(state, 0) if m["type"] == "place"]
    assert len(anywhere) == len(rules.MAPS[2].terrain) - 2
    state = play(state, 0, {"type": "place", "at": [1, 0]})
    near = {tuple(m["at"]) for m in rules.legal_moves(state, 0) if m["type"] == "place"}
    assert near == {(0, 0), (0, 1), (2, 0)}  # next to its newborn only
    # Killer babies can kill all its newborns while it has more to place only in a game
    # stored mid-birth under rules version 1 (one newborn per turn, round robin): seat 1's
    # turn came before seat 0 had placed them all.
    load_die(monkeypatch, "0")
    state = replace(state, turn=1)
    state = play(state, 1, {"type": "place", "at": [1, 0]})  # a killer baby kills it
    state = play(state, 1, {"type": "done"})
    assert state.board[(1, 0)] == 1 and rules.active_seats(state) == {0}
    again = [m for m in rules.legal_moves(state, 0) if m["type"] == "place"]
    assert len(again) == len(rules.MAPS[2].terrain) - 3


def test_2_a_player_without_parents_has_no_killer_babies_that_turn():
    state = position(phase=BIRTH, board={(2, -1): 1}, genes={0: ("killer_babies",)})
    assert [2, -1] not in [m["at"] for m in rules.legal_moves(state, 0)
                           if m["type"] == "place"]


def test_3_survival_choices_are_sealed_until_all_are_in():
    board = {(1, -2): 0, (-2, -1): 0, (0, -3): 1, (1, -3): 1}  # cold hills in S0
    state = position(phase=SURVIVAL, board=board, genes={0: ("fur",), 1: ("fur",)})
    assert rules.active_seats(state) == {0, 1}
    state = play(state, 0, {"type": "keep", "at": [[1, -2]]})
    assert state.board == {(1, -2): 0, (-2, -1): 0, (0, -3): 1, (1, -3): 1}
    assert rules.seat_status(state, 0).finished == rules.RULE_SURVIVAL
    state = play(state, 1, {"type": "keep", "at": [[0, -3]]})
    assert state.board == {(1, -2): 0, (0, -3): 1}


def test_4_camouflage_needs_a_dinosaur_and_migration_needs_no_point():
    state = position(phase=MOVE_WINDOW, board={(2, -1): 1}, hands={0: ("camouflage",)})
    assert rules.legal_moves(state, 0) == [{"type": "pass"}]
    moving = replace(position(board={(-3, -1): 0}, hands={0: ("migration",)}), points=0)
    assert any(m.get("card") == "migration" for m in rules.legal_moves(moving, 0))


def test_5_a_swim_never_goes_to_the_next_space():
    state = position(board={(-4, -1): 0}, genes={0: ("fins",)})
    swims = {tuple(m["to"]) for m in rules.legal_moves(state, 0) if m["type"] == "swim"}
    assert swims and not swims & set(rules.geometry(2).neighbours[(-4, -1)])


def test_6_tied_players_share_places_in_seat_order():
    state = replace(position(3, board={(3, -2): 0, (-2, 4): 1, (-2, -2): 2, (4, -2): 2},
                             mp=(9, 9, 9)), phase=rules.OVER)
    final = rules.result(state)
    assert final is not None
    assert final.winners == (2,) and final.ranking == (2, 0, 1)
    assert final.details["places"] == [2, 2, 1]
    tied = replace(state, board={(3, -2): 0, (-2, 4): 1})
    final = rules.result(tied)
    assert final is not None and final.winners == (0, 1) and final.details["places"] == [1, 1, 3]


def test_7_a_bid_is_judged_on_the_mp_in_hand_before_any_bargain():
    state = position(2, MUTATION, lab=("horn",), hands={0: ("bargain",)}, mp=(0, 6),
                     board={(-3, -1): 0, (2, -1): 1})
    state = play(state, 0, {"type": "bid", "column": 1, "value": 0})
    state = play(state, 1, {"type": "bid", "column": 1, "value": 1})
    assert rules.active_seats(state) == {0}  # column 2 is free: a 0 bid there
    with pytest.raises(IllegalMove):
        play(state, 0, {"type": "bid", "column": 2, "value": 2})


def test_the_rulebook_keeps_spontaneous_mutation_from_duplicating_a_lab_gene():
    """Rulebook "Nunca puede haber dos genes idénticos en la misma fase de mutación"."""
    for seed in range(10):
        state = position(2, MUTATION, lab=("legs",), hands={0: ("mutation",)},
                         board={(-3, -1): 0, (2, -1): 1}, seed=seed)
        state = play(state, 0, {"type": "play_event", "card": "mutation"})
        state = play(state, 0, {"type": "bid", "column": 1, "value": 0})
        state = play(state, 1, {"type": "bid", "column": 2, "value": 0})
        assert len(state.genes[0]) == 1 and state.genes[0] != ("legs",)
