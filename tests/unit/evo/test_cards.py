"""Every event card at work (spec "Event cards"). Maps as drawn in test_rules.py."""

from __future__ import annotations

from dataclasses import replace

import pytest

from app.games.base import IllegalMove
from app.games.evo import rules
from app.games.evo.rules import (
    BIRTH,
    MOVE_WINDOW,
    MOVEMENT,
    MUTATION,
    SURVIVAL,
    SURVIVAL_WINDOW,
)
from tests.unit.evo import advance, load_die, play, position


def refused(state, seat, move) -> str:
    with pytest.raises(IllegalMove) as caught:
        rules.apply(state, seat, move)
    return caught.value.rule


def card(name: str) -> dict:
    return {"type": "play_event", "card": name}


# --- bid cards --------------------------------------------------------------------------------


def test_bargain_takes_two_mp_off_the_purchase():
    state = position(2, MUTATION, lab=("horn",), hands={0: ("bargain",)}, mp=(1, 6),
                     board={(-3, -1): 0, (2, -1): 1})
    assert {"type": "bid", "column": 2, "value": 3} not in rules.legal_moves(state, 0)
    assert card("bargain") in rules.legal_moves(state, 0)
    state = play(state, 0, card("bargain"))
    assert rules.active_seats(state) == {0} and state.played == ((0, "bargain"),)
    assert rules.bid_cost(state, 0, 3) == 1
    state = play(state, 0, {"type": "bid", "column": 2, "value": 3})
    state = play(state, 1, {"type": "bid", "column": 1, "value": 0})
    assert state.mp[0] == 0 and state.genes[0] == ("horn",)


def test_bid_cards_are_played_on_ones_own_bidding_turn_only():
    state = position(2, MUTATION, lab=("horn",), hands={1: ("bargain",)},
                     board={(-3, -1): 0, (2, -1): 1})
    assert refused(state, 1, card("bargain")) == rules.RULE_TURN
    moving = position(board={(-3, -1): 0}, hands={0: ("bargain",)})
    assert refused(moving, 0, card("bargain")) == rules.RULE_EVENTS


def test_spontaneous_mutation_draws_a_gene_not_in_this_phases_lab():
    state = position(2, MUTATION, lab=("horn",), hands={0: ("mutation",)},
                     board={(-3, -1): 0, (2, -1): 1})
    state = replace(state, bag=("horn", "horn", "legs"))
    state = play(state, 0, card("mutation"))
    state = play(state, 0, {"type": "bid", "column": 1, "value": 0})
    state = play(state, 1, {"type": "bid", "column": 2, "value": 0})
    assert state.genes == (("legs",), ("horn",)) and state.bag == ("horn", "horn")


def test_spontaneous_mutation_finds_nothing_in_a_bag_of_lab_genes():
    state = position(2, MUTATION, lab=("horn",), hands={0: ("mutation",)},
                     board={(-3, -1): 0, (2, -1): 1})
    state = replace(state, bag=("horn",))
    state = play(state, 0, card("mutation"))
    state = play(state, 0, {"type": "bid", "column": 1, "value": 0})
    state = play(state, 1, {"type": "bid", "column": 2, "value": 0})
    assert state.genes == ((), ("horn",)) and state.bag == ("horn",)


# --- movement window --------------------------------------------------------------------------


def window(hands, board=None, genes=None):
    return position(phase=MOVE_WINDOW, board=board or {(1, -2): 0, (2, -2): 1},
                    hands=hands, genes=genes)


def test_battle_rage_adds_two_horns_in_attack(monkeypatch):
    state = window({0: ("rage",)})
    state = play(state, 0, {"type": "play_events", "cards": [{"card": "rage"}]})
    assert state.phase == MOVEMENT and rules.attack_horns(state, 0) == 2
    load_die(monkeypatch, "+2")
    state = play(state, 0, {"type": "attack", "from": [1, -2], "to": [2, -2]})
    assert state.board == {(2, -2): 0}


def test_herd_defence_adds_two_horns_in_defence(monkeypatch):
    state = window({1: ("herd",)})
    state = play(state, 1, {"type": "play_events", "cards": [{"card": "herd"}]})
    assert rules.defence_horns(state, 1) == 2
    load_die(monkeypatch, "-1")
    state = play(state, 0, {"type": "attack", "from": [1, -2], "to": [2, -2]})
    assert state.board == {(1, -2): 0, (2, -2): 1}


def test_camouflage_protects_one_dinosaur_that_keeps_it_when_it_moves():
    board = {(1, -2): 0, (2, -2): 1, (1, -1): 1}
    state = window({1: ("camouflage",)}, board=board, genes={0: ("legs",)})
    options = rules.legal_moves(state, 1)
    assert {"type": "play_events", "cards": [{"card": "camouflage", "at": [2, -2]}]} in options
    assert refused(state, 1, {"type": "play_events", "cards": [
        {"card": "camouflage", "at": [1, -2]}]}) == rules.RULE_EVENTS
    assert refused(state, 1, {"type": "play_events", "cards": [
        {"card": "camouflage"}]}) == rules.RULE_EVENTS
    state = play(state, 1, {"type": "play_events", "cards": [
        {"card": "camouflage", "at": [2, -2]}]})
    assert state.camouflaged == (2, -2)
    assert refused(state, 0, {"type": "attack", "from": [1, -2], "to": [2, -2]}) == \
        rules.RULE_EVENTS
    assert {"type": "attack", "from": [1, -2], "to": [1, -1]} in rules.legal_moves(state, 0)
    state = play(state, 0, {"type": "done"})
    state = play(state, 1, {"type": "move", "from": [2, -2], "to": [3, -2]})
    assert state.camouflaged == (3, -2)
    state = play(state, 1, {"type": "done"})
    assert state.phase == BIRTH and state.camouflaged is None


def test_window_cards_may_be_played_together():
    state = window({0: ("rage", "herd", "camouflage")})
    options = rules.legal_moves(state, 0)
    assert len(options) == 1 + 3 + 3 + 1  # pass, singles, pairs, all three (one dinosaur)
    state = play(state, 0, options[-1])
    assert {c for s, c in state.in_force if s == 0} == {"rage", "herd", "camouflage"}
    assert state.hands[0] == ()


# --- movement turn ----------------------------------------------------------------------------


def test_sprint_adds_two_movement_points_this_turn():
    state = position(board={(-3, -1): 0}, hands={0: ("sprint",)})
    state = play(state, 0, card("sprint"))
    assert state.points == 4 and rules.active_seats(state) == {0}


def test_migration_moves_a_dinosaur_free_up_to_three_spaces_across_occupied_ones():
    board = {(-3, -1): 0, (-2, -1): 1, (-2, 0): 1, (-3, 0): 1, (-4, 0): 1, (-4, -1): 1,
             (-3, -2): 1, (-2, -2): 1}
    state = position(board=board, hands={0: ("migration",)})
    state = replace(state, points=0)
    move = {"type": "play_event", "card": "migration", "from": [-3, -1], "to": [0, -1]}
    assert move in rules.legal_moves(state, 0)
    after = play(state, 0, move)
    assert after.board[(0, -1)] == 0 and (-3, -1) not in after.board
    too_far = {**move, "to": [1, -1]}
    assert refused(state, 0, too_far) == rules.RULE_EVENTS
    assert refused(state, 0, {**move, "to": [-2, -1]}) == rules.RULE_EVENTS  # occupied
    assert refused(state, 0, {**move, "from": [-2, -1]}) == rules.RULE_EVENTS  # not own


# --- birth turn -------------------------------------------------------------------------------


def test_fertile_season_adds_a_newborn():
    state = position(phase=BIRTH, board={(-3, -1): 0, (2, -1): 1}, hands={0: ("fertility",)})
    state = play(state, 0, card("fertility"))
    assert state.newborns[0] == 2 and rules.active_seats(state) == {0}


def test_nomad_nest_lets_newborns_be_born_three_spaces_away():
    state = position(phase=BIRTH, board={(-3, -1): 0, (2, -1): 1}, hands={0: ("nest",)})
    assert {"type": "place", "at": [0, -1]} not in rules.legal_moves(state, 0)
    state = play(state, 0, card("nest"))
    assert {"type": "place", "at": [0, -1]} in rules.legal_moves(state, 0)


# --- survival window --------------------------------------------------------------------------

HILLS = {(1, -2): 0, (-2, -1): 0}  # cold in S0
BEACHES = {(-4, -1): 0, (3, -1): 0}  # hot in S0


def survive(hands, genes, board, seat_plays) -> int:
    """Seat 0's dinosaurs left after the survival phase (it keeps its first choice)."""
    state = position(phase=SURVIVAL_WINDOW, board={**board, (2, -1): 1}, hands=hands,
                     genes=genes, section=0)
    for seat, cards in seat_plays.items():
        state = play(state, seat, {"type": "play_events", "cards": [{"card": c}
                                                                     for c in cards]})
    while state.phase == SURVIVAL_WINDOW:
        state = play(state, min(rules.active_seats(state)), {"type": "pass"})
    if state.phase == SURVIVAL:
        state = play(state, 0, rules.legal_moves(state, 0)[0])
    return rules.on_board(state, 0)


def test_heat_wave_takes_a_parasol_from_each_opponent():
    assert survive({0: ("rage",)}, {0: ("parasol",)}, BEACHES, {}) == 1
    assert survive({1: ("heat_wave",), 0: ("rage",)}, {0: ("parasol",)}, BEACHES,
                   {1: ["heat_wave"]}) == 0


def test_heat_wave_spares_its_player():
    assert survive({0: ("heat_wave",)}, {0: ("parasol",)}, BEACHES, {0: ["heat_wave"]}) == 1


def test_sunshade_adds_a_parasol():
    assert survive({0: ("sunshade",)}, {0: ("parasol",)}, BEACHES, {0: ["sunshade"]}) == 2


def test_winter_coat_adds_a_fur_and_ice_cold_takes_one():
    assert survive({0: ("winter_coat",)}, {}, HILLS, {0: ["winter_coat"]}) == 1
    assert survive({1: ("cold_snap",), 0: ("rage",)}, {0: ("fur", "fur")}, HILLS,
                   {1: ["cold_snap"]}) == 1


def test_shelter_saves_one_more_on_a_deadly_space():
    deadly = {(-1, -2): 0, (0, -2): 0, (-1, -1): 0}  # mountains in S0
    assert survive({0: ("rage",)}, {0: ("cave_dweller",)}, deadly, {}) == 1
    assert survive({0: ("shelter",)}, {0: ("cave_dweller",)}, deadly, {0: ["shelter"]}) == 2


def test_survival_cards_are_not_played_outside_their_window():
    state = position(phase=SURVIVAL_WINDOW, board={(2, -1): 1}, hands={0: ("rage",)})
    assert rules.legal_moves(state, 0) == [{"type": "pass"}]
    assert refused(state, 0, {"type": "play_events", "cards": [{"card": "rage"}]}) == \
        rules.RULE_EVENTS
    assert advance(state) == state  # the holder is waited for
