"""Every gene at work on the species sheet (rulebook "Genes normales", "Genes únicos"); the
genes whose section is a rule clause (wings, fins, regeneration, killer babies, chameleon
skin, adrenaline) are tested in test_rules.py, thick shell in test_examples.py."""

from __future__ import annotations

import pytest

from app.games.evo import rules
from app.games.evo.rules import BIRTH, MUTATION, SURVIVAL
from tests.unit.evo import load_die, play, position


def test_the_starting_species_sheet():
    state = position(board={(-3, -1): 0})
    assert rules.movement_points(state, 0) == 2 and rules.eggs(state, 0) == 1
    assert rules.attack_horns(state, 0) == rules.defence_horns(state, 0) == 0
    plan = rules.survival_plan(position(phase=SURVIVAL, board={(-4, -1): 0}), 0)
    assert plan.allowed == {"hot": 0, "cold": 0, "deadly": 0}


@pytest.mark.parametrize(("genes", "points"), [
    (("legs",), 3), (("legs", "legs"), 4), (("strong_thighs",), 4),
    (("legs", "strong_thighs"), 5),
])
def test_legs_and_strong_thighs_add_movement_points(genes, points):
    assert position(board={(-3, -1): 0}, genes={0: genes}).points == points


def test_horns_count_in_attack_and_defence_big_horn_and_bone_plates_in_one_each():
    state = position(board={(-3, -1): 0}, genes={0: ("horn", "big_horn", "bone_plates")})
    assert rules.attack_horns(state, 0) == 3 and rules.defence_horns(state, 0) == 3
    state = position(board={(-3, -1): 0}, genes={0: ("horn", "big_horn")})
    assert (rules.attack_horns(state, 0), rules.defence_horns(state, 0)) == (3, 1)


def test_big_horn_turns_a_plus_two_into_a_win(monkeypatch):
    load_die(monkeypatch, "+2")
    state = position(board={(1, -2): 0, (2, -2): 1}, genes={0: ("big_horn",)})
    state = play(state, 0, {"type": "attack", "from": [1, -2], "to": [2, -2]})
    assert state.board == {(2, -2): 0}


def test_bone_plates_hold_against_a_zero(monkeypatch):
    load_die(monkeypatch, "0")
    state = position(board={(1, -2): 0, (2, -2): 1}, genes={1: ("bone_plates",)})
    state = play(state, 0, {"type": "attack", "from": [1, -2], "to": [2, -2]})
    assert state.board == {(1, -2): 0, (2, -2): 1}


def test_parasols_and_furs_each_save_one_dinosaur():
    board = {(-4, -1): 0, (3, -1): 0, (1, -2): 0, (-2, -1): 0}  # 2 hot beaches, 2 cold hills
    state = position(phase=SURVIVAL, board=board, genes={0: ("parasol", "fur", "fur")})
    plan = rules.survival_plan(state, 0)
    assert plan.allowed == {"hot": 1, "cold": 2, "deadly": 0} and plan.kept == 3


def test_cave_dweller_saves_one_on_a_deadly_space():
    deadly = {(-1, -2): 0, (0, -2): 0}
    state = position(phase=SURVIVAL, board=deadly, genes={0: ("cave_dweller",)})
    assert rules.survival_plan(state, 0).kept == 1


def test_eggs_add_newborns():
    state = position(phase=BIRTH, board={(-3, -1): 0, (2, -1): 1}, genes={0: ("egg", "egg")})
    assert state.newborns == (3, 1)


def test_a_vial_lowers_later_purchases_not_the_one_it_is_bought_in():
    state = position(2, MUTATION, lab=("vial",), board={(-3, -1): 0, (2, -1): 1})
    state = play(state, 0, {"type": "bid", "column": 2, "value": 4})
    state = play(state, 1, {"type": "bid", "column": 1, "value": 2})
    assert state.genes[0] == ("vial",) and state.mp == (2, 4)
    assert rules.bid_cost(state, 0, 4) == 3


def test_killer_babies_need_a_parent_in_reach_and_spare_regeneration():
    board = {(-3, -1): 0, (-2, -1): 1, (-3, 0): 1, (-2, 0): 1}
    state = position(phase=BIRTH, board=board, genes={0: ("killer_babies",),
                                                       1: ("regeneration",)})
    places = [m["at"] for m in rules.legal_moves(state, 0) if m["type"] == "place"]
    assert [-2, -1] not in places and [-3, 0] not in places  # 3 dinosaurs: protected
    far = position(phase=BIRTH, board={(-3, -1): 0, (1, -1): 1}, genes={0: ("killer_babies",)})
    assert [1, -1] not in [m["at"] for m in rules.legal_moves(far, 0)
                           if m["type"] == "place"]


def test_killer_babies_ignore_horns_chameleon_and_camouflage(monkeypatch):
    load_die(monkeypatch, "+1")
    state = position(phase=BIRTH, board={(-3, -1): 0, (-2, -1): 1, (2, -1): 1},
                     genes={0: ("killer_babies",), 1: ("chameleon", "horn", "bone_plates")})
    state = play(state, 0, {"type": "place", "at": [-2, -1]})
    assert state.board[(-2, -1)] == 0 and state.flee is None
