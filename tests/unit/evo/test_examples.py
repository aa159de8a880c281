"""The spec's worked examples ("Tests that must exist"): movement (the rulebook's example),
bidding with displacement, survival, birth. Maps as drawn in tests/unit/evo/test_rules.py."""

from __future__ import annotations

import json
from dataclasses import replace

import pytest

from app.games.base import IllegalMove
from app.games.evo import rules
from app.games.evo.rules import BIRTH, MOVEMENT, MUTATION, SURVIVAL, SURVIVAL_WINDOW
from tests.unit.evo import load_die, play, position

# --- movement: "una especie que tiene 3 puntos de movimiento podría mover 3 dinosaurios un
# espacio cada uno, o un dinosaurio 2 espacios y luego otro dinosaurio un solo espacio" --------

THREE = {(-3, -1): 0, (-3, 0): 0, (-2, 0): 0, (2, -2): 1, (2, -1): 1}


def three_points(**kw):
    state = position(board=THREE, genes={0: ("legs",)}, **kw)
    assert state.points == 3
    return state


def test_three_points_move_three_dinosaurs_one_space_each():
    state = three_points()
    for start, end in (((-3, -1), (-2, -1)), ((-3, 0), (-4, 0)), ((-2, 0), (-1, 0))):
        state = play(state, 0, {"type": "move", "from": [*start], "to": [*end]})
    assert {c for c, s in state.board.items() if s == 0} == {(-2, -1), (-4, 0), (-1, 0)}
    assert rules.active_seats(state) == {1}  # no point left: the turn ended
    with pytest.raises(IllegalMove) as fourth:
        play(state, 0, {"type": "move", "from": [-1, 0], "to": [0, 0]})
    assert fourth.value.rule == rules.RULE_TURN


def test_three_points_move_one_dinosaur_two_spaces_and_another_one():
    state = three_points(hands={0: ("bargain",)})  # a card: the turn ends only with done
    state = play(state, 0, {"type": "move", "from": [-3, -1], "to": [-2, -1]})
    state = play(state, 0, {"type": "move", "from": [-2, -1], "to": [-1, -1]})
    state = play(state, 0, {"type": "move", "from": [-3, 0], "to": [-4, 0]})
    assert state.points == 0 and rules.active_seats(state) == {0}
    with pytest.raises(IllegalMove) as fourth:
        play(state, 0, {"type": "move", "from": [-1, -1], "to": [0, -1]})
    assert fourth.value.rule == rules.RULE_MOVEMENT
    assert rules.legal_moves(state, 0) == [{"type": "done"}]


def test_a_step_into_an_occupied_space_is_illegal():
    state = three_points()
    for target in ((-3, 0), (-2, 0)):
        with pytest.raises(IllegalMove) as error:
            play(state, 0, {"type": "move", "from": [-3, -1], "to": [*target]})
        assert error.value.rule == rules.RULE_MOVEMENT


def test_an_attack_costs_one_point_and_the_winner_stands_on_the_space(monkeypatch):
    load_die(monkeypatch, "0")
    state = position(board={(1, -2): 0, (-3, -1): 0, (2, -2): 1, (2, -1): 1},
                     genes={0: ("legs",)})
    state = play(state, 0, {"type": "attack", "from": [1, -2], "to": [2, -2]})
    assert state.points == 2
    assert state.board[(2, -2)] == 0
    assert (1, -2) not in state.board and rules.on_board(state, 1) == 1


# --- bidding with displacement --------------------------------------------------------------


def test_bidding_with_displacement():
    """3 players, order A B C; columns 1 event, 2 horn, 3 fur; A owns 1 vial; all 6 MP."""
    a, b, c = 0, 1, 2
    board = {(3, -2): a, (4, -2): a, (-2, 4): b, (-1, 3): b, (0, 3): b, (-2, -2): c,
             (-2, -1): c}
    state = position(3, MUTATION, board=board, genes={a: ("vial",)}, lab=("horn", "fur"))
    assert rules.active_seats(state) == {a}
    state = play(state, a, {"type": "bid", "column": 2, "value": 2})
    state = play(state, b, {"type": "bid", "column": 2, "value": 3})
    assert rules.active_seats(state) == {a}  # outbid: A bids again at once
    assert all(m["column"] != 2 for m in rules.legal_moves(state, a) if m["type"] == "bid")
    state = play(state, a, {"type": "bid", "column": 1, "value": 0})
    assert rules.active_seats(state) == {c}
    state = play(state, c, {"type": "bid", "column": 2, "value": 5})
    assert rules.active_seats(state) == {b}
    state = play(state, b, {"type": "bid", "column": 1, "value": 1})
    assert rules.active_seats(state) == {a}
    bids = [m for m in rules.legal_moves(state, a) if m["type"] == "bid"]
    assert all(m["column"] != 1 for m in bids)  # column 1 now forbidden
    assert {"type": "bid", "column": 2, "value": 6} in bids  # column 2 allowed again
    state = play(state, a, {"type": "bid", "column": 3, "value": 0})
    assert state.hands[b] and not state.hands[a] and not state.hands[c]
    assert state.genes[c] == ("horn",) and state.genes[a] == ("vial", "fur")
    assert state.mp == (6, 5, 1)  # A pays 0, B 1, C 5
    assert state.initiative == (c, a, b)


# --- survival -------------------------------------------------------------------------------


def test_survival_in_the_hot_peak():
    """S3: mountains temperate, hills hot, plains and beach deadly. 1 on M, 3 on H, 1 on P,
    1 on B, 2 parasols, cave dweller: 1 + 2 + 1 = 4 survive; +4 MP."""
    hills = [(0, -3), (1, -3), (1, -2)]
    board = {(-1, -2): 0, **{h: 0 for h in hills}, (-2, -2): 0, (-3, -2): 0, (0, 0): 1}
    state = position(phase=SURVIVAL, board=board, section=3,
                     genes={0: ("parasol", "parasol", "cave_dweller")})
    assert rules.climates(state) == {"beach": "deadly", "plains": "deadly", "hills": "hot",
                                     "mountains": "temperate"}
    assert rules.active_seats(state) == {0}
    options = rules.legal_moves(state, 0)
    assert len(options) == 3 * 2  # which 2 hills, which deadly one
    keep = {"type": "keep", "at": [[-3, -2], [0, -3], [1, -2]]}
    assert keep in options
    after = play(state, 0, keep)
    assert sorted(c for c, s in after.board.items() if s == 0) == [
        (-3, -2), (-1, -2), (0, -3), (1, -2)]
    assert after.mp[0] == state.mp[0] + 4


def test_regeneration_with_four_dinosaurs_on_deadly_spaces_keeps_three():
    board = {(-1, -3): 0, (2, -3): 0, (-2, -2): 0, (-3, -2): 0, (0, 0): 1}
    state = position(phase=SURVIVAL, board=board, section=3, genes={0: ("regeneration",)})
    options = rules.legal_moves(state, 0)
    assert len(options) == 4 and all(len(m["at"]) == 3 for m in options)
    after = play(state, 0, options[0])
    assert rules.on_board(after, 0) == 3


@pytest.mark.parametrize(("coat", "survive"), [(False, 0), (True, 1)])
def test_ice_cold_against_one_fur(coat, survive):
    """1 fur, 2 dinosaurs on cold hills (S0); the opponent plays Ice Cold: both die; with
    Winter Coat as well, 1 survives."""
    board = {(1, -2): 0, (-2, -1): 0, (2, -1): 1}
    hands = {0: ("winter_coat",), 1: ("cold_snap",)} if coat else {1: ("cold_snap",)}
    state = position(phase=SURVIVAL_WINDOW, board=board, genes={0: ("fur",)}, hands=hands,
                     section=0)
    state = play(state, 1, {"type": "play_events", "cards": [{"card": "cold_snap"}]})
    if coat:
        state = play(state, 0, {"type": "play_events", "cards": [{"card": "winter_coat"}]})
        assert state.phase == SURVIVAL and rules.active_seats(state) == {0}
        state = play(state, 0, rules.legal_moves(state, 0)[0])
    assert rules.on_board(state, 0) == survive


# --- birth ----------------------------------------------------------------------------------


def test_newborns_only_next_to_parents_present_when_the_phase_began():
    state = position(phase=BIRTH, board={(-3, -1): 0, (2, -1): 1}, genes={0: ("egg",)})
    state = play(state, 0, {"type": "place", "at": [-2, -1]})
    assert rules.active_seats(state) == {0}  # its turn goes on: one newborn left
    spaces = {tuple(m["at"]) for m in rules.legal_moves(state, 0) if m["type"] == "place"}
    assert (-1, -1) not in spaces  # next to the newborn only: a newborn is not a parent
    assert spaces == {(-4, -1), (-3, 0), (-3, -2), (-2, -2), (-4, 0)}


def test_a_dinosaur_that_arrives_later_is_no_parent():
    state = position(phase=BIRTH, board={(-3, -1): 0, (2, -1): 1})
    state = replace(state, board={**state.board, (0, 1): 0})
    assert (-1, 1) not in {tuple(m["at"]) for m in rules.legal_moves(state, 0)
                           if m["type"] == "place"}


def test_thick_shell_reaches_path_distance_three():
    state = position(phase=BIRTH, board={(-3, -1): 0, (2, -1): 1},
                     genes={0: ("thick_shell",)})
    spaces = {tuple(m["at"]) for m in rules.legal_moves(state, 0) if m["type"] == "place"}
    assert (0, -1) in spaces  # 3 steps
    assert (1, -1) not in spaces  # 4 steps
    assert all(rules.path_distance(2, (-3, -1), s) <= 3 for s in spaces)


def test_fase_de_nacimiento_each_player_places_all_its_newborns_in_initiative_order():
    """"Los jugadores colocan nuevos dinosaurios en orden de iniciativa", read as the movement
    phase: each player in its turn places all its newborns (rules version 2; the spec's "one
    newborn per turn, round robin" was version 1)."""
    state = position(phase=BIRTH, board={(-3, -1): 0, (2, -1): 1}, initiative=(1, 0),
                     genes={0: ("egg",), 1: ("egg",)})
    order = []
    while state.phase == BIRTH:
        seat = next(iter(rules.active_seats(state)))
        order.append(seat)
        state = play(state, seat, rules.legal_moves(state, seat)[0])
    assert order == [1, 1, 0, 0]


def test_fase_de_nacimiento_a_player_may_stop_early_and_loses_the_rest():
    state = position(phase=BIRTH, board={(-3, -1): 0, (2, -1): 1}, genes={0: ("egg", "egg")})
    state = play(state, 0, {"type": "place", "at": [-2, -1]})
    state = play(state, 0, {"type": "done"})
    assert rules.active_seats(state) == {1} and rules.on_board(state, 0) == 2
    assert rules.legal_moves(state, 0) == []


def test_fase_de_nacimiento_a_game_stored_mid_birth_under_round_robin_plays_on():
    """A game stored under rules version 1 in the middle of a birth phase — seat 0 placed one
    of its two newborns and the turn passed to seat 1, round robin — loads and plays on: seat
    1 and then seat 2 place all theirs, and then seat 0, passed over with a newborn left,
    places it; then the phase ends."""
    from app.games.evo import GAME

    start = position(3, BIRTH, board={(3, -2): 0, (-2, 4): 1, (-2, -2): 2},
                     genes={0: ("egg",), 1: ("egg",), 2: ("egg",)})
    assert start.newborns == (2, 2, 2)
    placed = play(start, 0, rules.legal_moves(start, 0)[0])
    old = replace(placed, turn=1)  # what version 1 stored: seat 1's turn, seat 0 not done
    stored = GAME.load(json.loads(json.dumps(GAME.dump(old))))
    assert GAME.dump(stored) == GAME.dump(old)
    order, born = [], []
    state = stored
    while state.phase == BIRTH:
        (seat,) = rules.active_seats(state)
        order.append(seat)
        move = rules.legal_moves(state, seat)[0]
        assert move["type"] == "place"
        born += [p["seat"] for key, p in rules.happenings(state, seat, move) if key == "born"]
        state = play(state, seat, move)
    assert order == born == [1, 1, 2, 2, 0]


def test_at_most_eight_dinosaurs_on_the_board():
    seven = {(-3, -1): 0, (-3, 0): 0, (-2, 0): 0, (-2, -1): 0, (-4, 0): 0, (-4, -1): 0,
             (-3, -2): 0, (2, -1): 1}
    state = position(phase=BIRTH, board=seven, genes={0: ("egg", "egg")})
    assert state.newborns[0] == 3
    state = play(state, 0, {"type": "place", "at": [-2, -2]})
    assert rules.on_board(state, 0) == 8 and rules.supply(state, 0) == 0
    state = play(state, 1, {"type": "done"})
    assert state.phase != BIRTH  # seat 0 has no dinosaur left to place: skipped
    assert rules.on_board(state, 0) <= 8


def test_movement_then_birth_then_survival():
    state = position(board={(-3, -1): 0, (2, -1): 1})
    state = play(state, 0, {"type": "done"})
    state = play(state, 1, {"type": "done"})
    assert state.phase == BIRTH and state.phase != MOVEMENT
