"""One test per rule clause of Evo: each ``RULE_*`` of app/games/evo/rules.py is a section of
the rulebook, and the test named after it checks what that section allows and refuses (the
refusal citing it). Positions are hand-built on the 2-player island:

    r=-3        (-1,-3)p (0,-3)h (1,-3)h (2,-3)p
    r=-2  (-3,-2)b (-2,-2)p (-1,-2)M (0,-2)M (1,-2)H (2,-2)p (3,-2)b
    r=-1  (-4,-1)b (-3,-1)P (-2,-1)H (-1,-1)M (0,-1)M (1,-1)H (2,-1)P (3,-1)b
    r=0   (-4,0)b (-3,0)p (-2,0)H (-1,0)M (0,0)M (1,0)p (2,0)b
    r=1         (-3,1)p (-2,1)h (-1,1)h (0,1)p
"""

from __future__ import annotations

import re
import sys
import unicodedata
from dataclasses import replace
from pathlib import Path

import pytest

from app.games.base import IllegalMove
from app.games.evo import rules
from app.games.evo.rules import (
    BIRTH,
    MOVE_WINDOW,
    MOVEMENT,
    MUTATION,
    OVER,
    SURVIVAL,
    SURVIVAL_WINDOW,
)
from tests.unit.evo import advance, load_die, new_game, play, position

RULEBOOK = Path("/work/shared/rules/evo.es.txt")


def refused(state, seat, move) -> IllegalMove:
    with pytest.raises(IllegalMove) as caught:
        rules.apply(state, seat, move)
    return caught.value


def slug(heading: str) -> str:
    plain = unicodedata.normalize("NFKD", heading).encode("ascii", "ignore").decode()
    return re.sub(r"\W+", "_", plain.lower()).strip("_")


RULES = {name: value for name, value in vars(rules).items() if name.startswith("RULE_")}


def test_every_rule_is_a_rulebook_heading_with_a_test_named_after_it():
    lines = {line.strip() for line in RULEBOOK.read_text(encoding="utf-8").splitlines()}
    tests = set(vars(sys.modules[__name__]))
    for name, heading in RULES.items():
        assert heading in lines, f"{name}: {heading!r} is no heading of the rulebook"
        assert f"test_{slug(heading)}" in tests, f"no test for {name} ({heading})"


# --- Como se Juega ------------------------------------------------------------------------------


def test_como_se_juega():
    """The phases in order; only the seat the table waits for acts, with a move of the phase."""
    state = new_game(3, seed=4)
    assert state.phase == MUTATION and state.round == 1 and len(state.revealed) == 1
    bidder = rules.bidder(state)
    other = next(s for s in range(3) if s != bidder)
    assert rules.active_seats(state) == {bidder}
    assert refused(state, other, {"type": "bid", "column": 1, "value": 0}).rule == \
        rules.RULE_TURN
    assert refused(state, bidder, {"type": "done"}).rule == rules.RULE_TURN
    assert refused(state, bidder, {"type": "dance"}).rule == rules.RULE_TURN
    assert refused(state, 7, {"type": "bid", "column": 1, "value": 0}).rule == rules.RULE_TURN
    assert rules.legal_moves(state, other) == []
    seen = [state.phase]
    while state.round == 1:
        seat = min(rules.active_seats(state))
        state = play(state, seat, rules.legal_moves(state, seat)[-1])
        if state.phase != seen[-1]:
            seen.append(state.phase)
    phases = [p for p in seen if p in (MUTATION, MOVEMENT, BIRTH, SURVIVAL)]
    assert phases[:3] == [MUTATION, MOVEMENT, BIRTH]
    assert seen[-1] in (MUTATION, OVER)


# --- Fase climática -----------------------------------------------------------------------------


def test_fase_climatica():
    """A token turns the wheel; the meteorite ends the game at once, before any other phase."""
    state = position(phase=SURVIVAL_WINDOW, board={(-3, -1): 0, (2, -1): 1}, section=11)
    state = replace(state, pile=("cw2", "meteorite"))
    state = advance(state)
    assert state.section == 1 and state.round == 2 and state.phase == MUTATION
    assert state.revealed[-1] == "cw2"
    state = replace(state, phase=SURVIVAL_WINDOW, prompted=frozenset())
    state = advance(state)
    assert state.phase == OVER and state.round == 3 and state.pile == ()
    assert rules.active_seats(state) == frozenset()
    assert refused(state, 0, {"type": "done"}).rule == rules.RULE_CLIMATE
    assert rules.result(state) is not None


def test_anticlockwise_and_stay_tokens():
    state = position(phase=SURVIVAL_WINDOW, board={(-3, -1): 0}, section=0)
    assert advance(replace(state, pile=("ccw1", "meteorite"))).section == 11
    assert advance(replace(state, pile=("stay", "meteorite"))).section == 0


# --- Fase de mutación ---------------------------------------------------------------------------


def mutation(players=3, lab=("horn", "fur"), **kw):
    return position(players, MUTATION, lab=lab, **kw)


def test_fase_de_mutacion():
    """Bids: an item's column, above the marker there, not the column just lost, paid in MP."""
    state = mutation(mp=(6, 6, 1))
    assert rules.active_seats(state) == {0}
    assert refused(state, 0, {"type": "bid", "column": 4, "value": 0}).rule == \
        rules.RULE_MUTATION
    assert refused(state, 0, {"type": "bid", "column": 2, "value": 7}).rule == \
        rules.RULE_MUTATION
    state = play(state, 0, {"type": "bid", "column": 2, "value": 3})
    error = refused(state, 1, {"type": "bid", "column": 2, "value": 3})
    assert error.rule == rules.RULE_MUTATION and "more than 3" in error.reason
    state = play(state, 1, {"type": "bid", "column": 2, "value": 6})
    assert rules.active_seats(state) == {0}  # displaced: bids again at once
    assert refused(state, 0, {"type": "bid", "column": 2, "value": 0}).rule == \
        rules.RULE_MUTATION
    state = play(state, 0, {"type": "bid", "column": 1, "value": 0})
    assert rules.active_seats(state) == {2}
    assert refused(state, 2, {"type": "bid", "column": 3, "value": 2}).rule == \
        rules.RULE_MUTATION  # 2 MP, and only 1 held
    assert {"type": "bid", "column": 3, "value": 1} in rules.legal_moves(state, 2)
    assert all(m["column"] != 2 for m in rules.legal_moves(state, 2) if m["type"] == "bid")


def test_a_column_without_item_takes_no_bid():
    state = mutation(lab=("horn", None))
    assert refused(state, 0, {"type": "bid", "column": 3, "value": 0}).rule == \
        rules.RULE_MUTATION
    assert {m["column"] for m in rules.legal_moves(state, 0) if m["type"] == "bid"} == {1, 2}


def test_the_lab_never_shows_two_identical_genes():
    for seed in range(60):
        state = new_game(5, seed)
        genes = [g for g in state.lab if g is not None]
        assert len(genes) == len(set(genes)) == 4


def test_a_six_cannot_be_outbid():
    state = play(mutation(), 0, {"type": "bid", "column": 2, "value": 6})
    assert all(m["column"] != 2 for m in rules.legal_moves(state, 1) if m["type"] == "bid")


def test_vials_bought_earlier_lower_the_cost_never_below_zero():
    state = mutation(genes={0: ("vial", "vial")}, mp=(3, 6, 6))
    assert rules.bid_cost(state, 0, 5) == 3 and rules.bid_cost(state, 0, 1) == 0
    assert {"type": "bid", "column": 2, "value": 5} in rules.legal_moves(state, 0)
    assert {"type": "bid", "column": 2, "value": 6} not in rules.legal_moves(state, 0)


# --- Fase de iniciación -------------------------------------------------------------------------


def test_fase_de_iniciacion():
    """Markers go on the track in column order, then the fewest dinosaurs go first (ties keep
    column order: the event card's winner first among equals)."""
    even = mutation(board={(3, -2): 0, (4, -2): 0, (-2, 4): 1, (-1, 3): 1, (-2, -2): 2,
                           (-2, -1): 2})
    for seat, column in ((0, 3), (1, 2), (2, 1)):
        even = play(even, seat, {"type": "bid", "column": column, "value": 0})
    assert even.initiative == (2, 1, 0)
    uneven = mutation(board={(3, -2): 0, (4, -2): 0, (-2, 4): 1, (-2, -2): 2})
    for seat, column in ((0, 1), (1, 2), (2, 3)):
        uneven = play(uneven, seat, {"type": "bid", "column": column, "value": 0})
    assert uneven.initiative == (1, 2, 0)


def test_head_start_takes_first_place_after_the_sort():
    state = mutation(board={(3, -2): 0, (4, -2): 0, (-2, 4): 1, (-2, -2): 2},
                     hands={0: ("head_start",)})
    state = play(state, 0, {"type": "play_event", "card": "head_start"})
    state = play(state, 0, {"type": "bid", "column": 3, "value": 0})
    state = play(state, 1, {"type": "bid", "column": 1, "value": 0})
    state = play(state, 2, {"type": "bid", "column": 2, "value": 0})
    assert state.initiative == (0, 1, 2)


# --- Subidón de adrenalina ----------------------------------------------------------------------


def test_subidon_de_adrenalina():
    """The holder picks any place on the track; the others keep their order."""
    state = mutation(board={(3, -2): 0, (-2, 4): 1, (-2, -2): 2}, genes={2: ("adrenaline",)})
    for seat, column in ((0, 1), (1, 2), (2, 3)):
        state = play(state, seat, {"type": "bid", "column": column, "value": 0})
    assert state.phase == rules.INITIATIVE and rules.active_seats(state) == {2}
    assert state.initiative == (0, 1, 2)
    assert rules.legal_moves(state, 2) == [{"type": "initiative", "position": p}
                                           for p in range(3)]
    assert refused(state, 2, {"type": "initiative", "position": 3}).rule == \
        rules.RULE_ADRENALINE
    state = play(state, 2, {"type": "initiative", "position": 0})
    assert state.initiative == (2, 0, 1) and state.phase != rules.INITIATIVE


# --- Fase de movimiento -------------------------------------------------------------------------


def test_fase_de_movimiento():
    """One point moves one dinosaur one space, to an adjacent empty space; the points are
    shared by all the dinosaurs; none must be used."""
    state = position(board={(-3, -1): 0, (-3, 0): 0, (2, -1): 1})
    assert state.points == 2 and rules.active_seats(state) == {0}
    assert refused(state, 0, {"type": "move", "from": [-3, -1], "to": [-3, 0]}).rule == \
        rules.RULE_MOVEMENT  # occupied by its own dinosaur
    assert refused(state, 0, {"type": "move", "from": [-3, -1], "to": [-1, -1]}).rule == \
        rules.RULE_MOVEMENT  # two spaces away
    assert refused(state, 0, {"type": "move", "from": [2, -1], "to": [1, -1]}).rule == \
        rules.RULE_MOVEMENT  # not its dinosaur
    assert refused(state, 0, {"type": "move", "from": [-3, -1], "to": [-9, 9]}).rule == \
        rules.RULE_MOVEMENT  # off the island
    state = play(state, 0, {"type": "move", "from": [-3, -1], "to": [-2, -1]})
    assert state.points == 1 and state.board[(-2, -1)] == 0
    state = play(state, 0, {"type": "done"})
    assert rules.active_seats(state) == {1} and state.points == 2


def test_an_attacker_never_dies_and_a_fail_moves_nothing(monkeypatch):
    load_die(monkeypatch, "+2")
    state = position(board={(1, -2): 0, (2, -2): 1})
    state = play(state, 0, {"type": "attack", "from": [1, -2], "to": [2, -2]})
    assert state.board == {(1, -2): 0, (2, -2): 1} and state.points == 1
    assert state.last_roll == (0, "attack", "+2", "fail", (2, -2), (1, -2))
    load_die(monkeypatch, "stalemate")
    state = play(state, 0, {"type": "attack", "from": [1, -2], "to": [2, -2]})
    assert state.board == {(1, -2): 0, (2, -2): 1}


def test_own_dinosaurs_cannot_be_attacked():
    state = position(board={(1, -2): 0, (2, -2): 0})
    assert refused(state, 0, {"type": "attack", "from": [1, -2], "to": [2, -2]}).rule == \
        rules.RULE_MOVEMENT


# --- Alas -------------------------------------------------------------------------------------


def test_alas():
    """Once per movement phase, for 1 point, 2 spaces; the first may hold any dinosaur."""
    state = position(board={(-3, -1): 0, (-2, -1): 1, (2, -1): 1}, genes={0: ("wings", "legs")})
    fly = {"type": "fly", "from": [-3, -1], "to": [-1, -1]}
    assert fly in rules.legal_moves(state, 0)
    state = play(state, 0, fly)
    assert state.board[(-1, -1)] == 0 and state.points == 2
    error = refused(state, 0, {"type": "fly", "from": [-1, -1], "to": [1, -1]})
    assert error.rule == rules.RULE_WINGS and "once" in error.reason
    assert not any(m["type"] == "fly" for m in rules.legal_moves(state, 0))
    plain = position(board={(-3, -1): 0})
    assert refused(plain, 0, fly).rule == rules.RULE_WINGS
    far = position(board={(-3, -1): 0}, genes={0: ("wings",)})
    assert refused(far, 0, {"type": "fly", "from": [-3, -1], "to": [0, -1]}).rule == \
        rules.RULE_WINGS


# --- Aletas ------------------------------------------------------------------------------------


def test_aletas():
    """From a coastal space to any empty coastal space, 1 point each, as often as the points
    allow."""
    state = position(board={(-4, -1): 0, (-3, -1): 0}, genes={0: ("fins",)})
    swims = [m for m in rules.legal_moves(state, 0) if m["type"] == "swim"]
    assert {"type": "swim", "from": [-4, -1], "to": [3, -1]} in swims
    assert all(m["from"] == [-4, -1] for m in swims)  # (-3, -1) is inland
    state = play(state, 0, {"type": "swim", "from": [-4, -1], "to": [3, -1]})
    state = play(state, 0, {"type": "swim", "from": [3, -1], "to": [-1, -3]})
    assert state.board == {(-1, -3): 0, (-3, -1): 0} and state.points == 0
    fresh = position(board={(-4, -1): 0, (-3, -1): 0}, genes={0: ("fins",)})
    assert refused(fresh, 0, {"type": "swim", "from": [-3, -1], "to": [3, -1]}).rule == \
        rules.RULE_FINS
    assert refused(fresh, 0, {"type": "swim", "from": [-4, -1], "to": [-4, 0]}).rule == \
        rules.RULE_FINS  # the next space: an ordinary move
    plain = position(board={(-4, -1): 0})
    assert refused(plain, 0, {"type": "swim", "from": [-4, -1], "to": [3, -1]}).rule == \
        rules.RULE_FINS


# --- Regeneración -------------------------------------------------------------------------------


def test_regeneracion():
    """With 3 dinosaurs or fewer a species with regeneration cannot be attacked."""
    three = {(2, -2): 1, (2, -1): 1, (1, 0): 1}
    state = position(board={(1, -2): 0, **three}, genes={1: ("regeneration",)})
    assert not any(m["type"] == "attack" for m in rules.legal_moves(state, 0))
    assert refused(state, 0, {"type": "attack", "from": [1, -2], "to": [2, -2]}).rule == \
        rules.RULE_REGENERATION
    four = position(board={(1, -2): 0, **three, (2, 0): 1}, genes={1: ("regeneration",)})
    assert {"type": "attack", "from": [1, -2], "to": [2, -2]} in rules.legal_moves(four, 0)


def test_regeneration_keeps_three_against_the_climate():
    deadly = {(-1, -2): 0, (0, -2): 0, (-1, -1): 0, (0, -1): 0}  # mountains, deadly in S0
    state = position(phase=SURVIVAL, board=deadly, genes={0: ("regeneration",)})
    assert rules.survival_plan(state, 0).kept == 3
    assert len(rules.legal_moves(state, 0)) == 4
    small = position(phase=SURVIVAL, board={(-1, -2): 0, (0, -2): 0},
                     genes={0: ("regeneration",)})
    assert rules.survival_plan(small, 0).kept == 2


# --- Piel de camaleón ---------------------------------------------------------------------------


def test_piel_de_camaleon(monkeypatch):
    """The beaten dinosaur may step to an adjacent empty space instead of dying; the attacker
    takes the attacked space."""
    load_die(monkeypatch, "-1")
    state = position(board={(1, -2): 0, (2, -2): 1}, genes={1: ("chameleon",)})
    state = play(state, 0, {"type": "attack", "from": [1, -2], "to": [2, -2]})
    assert rules.active_seats(state) == {1} and state.flee == ((1, -2), (2, -2))
    options = rules.legal_moves(state, 1)
    assert {"type": "flee", "to": None} in options
    assert {"type": "flee", "to": [1, -2]} not in options  # the attacker's space
    assert refused(state, 0, {"type": "done"}).rule == rules.RULE_TURN
    assert refused(state, 1, {"type": "flee", "to": [0, -2]}).rule == rules.RULE_CHAMELEON
    state = play(state, 1, {"type": "flee", "to": [3, -2]})
    assert state.board == {(2, -2): 0, (3, -2): 1} and rules.active_seats(state) == {0}


def test_a_chameleon_without_room_dies_without_being_asked(monkeypatch):
    load_die(monkeypatch, "-1")
    around = {(3, -2): 0, (2, -3): 0, (1, -1): 0, (2, -1): 0, (3, -3): 0}
    board = {(1, -2): 0, (2, -2): 1, **{c: 0 for c in around if c in rules.MAPS[2].terrain}}
    state = position(board=board, genes={1: ("chameleon",), 0: ("legs",)})
    state = play(state, 0, {"type": "attack", "from": [1, -2], "to": [2, -2]})
    assert state.flee is None and state.board[(2, -2)] == 0 and 1 not in state.board.values()


def test_a_chameleon_may_choose_to_die(monkeypatch):
    load_die(monkeypatch, "0")
    state = position(board={(1, -2): 0, (2, -2): 1}, genes={1: ("chameleon",)})
    state = play(state, 0, {"type": "attack", "from": [1, -2], "to": [2, -2]})
    state = play(state, 1, {"type": "flee", "to": None})
    assert state.board == {(2, -2): 0}


# --- Objeto del juego ---------------------------------------------------------------------------


def test_objeto_del_juego():
    """"Los jugadores revelan sus fichas de MP" at the end: until then each player sees its
    own MP total only (spectators none); once the meteorite falls, everyone's."""
    from app.games.evo import views

    state = position(3, MUTATION, lab=("horn", "fur"), mp=(6, 9, 4),
                     board={(3, -2): 0, (-2, 4): 1, (-2, -2): 2})
    for seat in range(3):
        assert [s["mp"] for s in views.view(state, seat)["seats"]] == \
            [state.mp[s] if s == seat else None for s in range(3)]
    assert [s["mp"] for s in views.view(state, None)["seats"]] == [None, None, None]
    over = replace(state, phase=OVER)
    for seat in (0, 1, 2, None):
        assert [s["mp"] for s in views.view(over, seat)["seats"]] == [6, 9, 4]
    assert rules.result(over).scores == (6, 9, 4)


# --- Fase de nacimiento -------------------------------------------------------------------------


def test_fase_de_nacimiento():
    """A newborn is born on an empty space next to a parent; the placer's turn ends when it
    has placed all its newborns (rules version 2)."""
    state = position(phase=BIRTH, board={(-3, -1): 0, (2, -1): 1})
    spaces = {tuple(m["at"]) for m in rules.legal_moves(state, 0) if m["type"] == "place"}
    assert spaces == {(-2, -1), (-4, -1), (-3, 0), (-3, -2), (-2, -2), (-4, 0)}
    assert refused(state, 0, {"type": "place", "at": [-1, -1]}).rule == rules.RULE_BIRTH
    assert refused(state, 0, {"type": "place", "at": [-3, -1]}).rule == rules.RULE_BIRTH
    assert refused(state, 0, {"type": "place", "at": [2, -1]}).rule == \
        rules.RULE_KILLER_BABIES  # occupied, without killer babies
    state = play(state, 0, {"type": "place", "at": [-2, -1]})
    assert state.board[(-2, -1)] == 0 and rules.active_seats(state) == {1}
    assert refused(state, 0, {"type": "place", "at": [-4, -1]}).rule == rules.RULE_TURN


# --- Bebés Asesinos -----------------------------------------------------------------------------


def test_bebes_asesinos(monkeypatch):
    """A newborn may be born on an opponent's dinosaur: -1, 0 or +1 kills it, +2 or the
    stalemate kills the newborn (which counts as placed)."""
    board = {(-3, -1): 0, (-2, -1): 1, (2, -1): 1}
    state = position(phase=BIRTH, board=board, genes={0: ("killer_babies", "egg")})
    assert {"type": "place", "at": [-2, -1]} in rules.legal_moves(state, 0)
    assert {"type": "place", "at": [2, -1]} not in rules.legal_moves(state, 0)
    load_die(monkeypatch, "+1")
    won = play(state, 0, {"type": "place", "at": [-2, -1]})
    assert won.board[(-2, -1)] == 0 and won.newborns[0] == 1
    assert won.last_roll == (0, "killer baby", "+1", "kill", (-2, -1), None)
    for face in ("+2", "stalemate"):
        load_die(monkeypatch, face)
        lost = play(state, 0, {"type": "place", "at": [-2, -1]})
        assert lost.board[(-2, -1)] == 1 and lost.newborns[0] == 1
        assert rules.on_board(lost, 0) == 1


# --- Cartas de evento ---------------------------------------------------------------------------


def test_cartas_de_evento():
    """Cards are played from the hand at their timing, once; a window asks every holder."""
    state = position(phase=MOVE_WINDOW, board={(-3, -1): 0, (2, -1): 1},
                     hands={0: ("rage", "bargain"), 1: ("shelter",)})
    assert state.prompted == {0, 1} and rules.active_seats(state) == {0, 1}
    assert rules.legal_moves(state, 1) == [{"type": "pass"}]  # prompted all the same
    assert refused(state, 0, {"type": "play_events", "cards": [{"card": "herd"}]}).rule == \
        rules.RULE_EVENTS  # not held
    assert refused(state, 0, {"type": "play_events", "cards": [{"card": "bargain"}]}).rule \
        == rules.RULE_EVENTS  # wrong timing
    assert refused(state, 0, {"type": "play_events", "cards": []}).rule == rules.RULE_EVENTS
    state = play(state, 0, {"type": "play_events", "cards": [{"card": "rage"}]})
    assert state.hands[0] == ("rage", "bargain")  # sealed: nothing shows yet
    assert refused(state, 0, {"type": "pass"}).rule == rules.RULE_EVENTS
    state = play(state, 1, {"type": "pass"})
    assert state.phase == MOVEMENT and state.hands[0] == ("bargain",)
    assert (0, "rage") in state.in_force and state.played == ((0, "rage"),)


def test_a_card_holder_is_never_ended_automatically():
    holder = position(board={(2, -1): 1}, hands={0: ("bargain",)})
    assert rules.active_seats(holder) == {0}
    assert rules.legal_moves(holder, 0) == [{"type": "done"}]
    empty = advance(position(board={(2, -1): 1}))
    assert rules.active_seats(empty) == {1}
    birth = position(phase=BIRTH, board={(2, -1): 1}, hands={0: ("rage",)})
    birth = replace(birth, newborns=(0, 1))
    assert rules.active_seats(advance(birth)) == {0}


# --- Fase de supervivencia ----------------------------------------------------------------------


def test_fase_de_supervivencia():
    """Temperate all survive, hot one per parasol, cold one per fur, deadly none; the owner
    names the survivors when there is a choice; then 1 MP per dinosaur on the board."""
    board = {(0, -3): 0, (1, -3): 0, (-3, -1): 0, (-1, 1): 1, (-2, 1): 1, (2, -1): 1}
    state = position(phase=SURVIVAL, board=board, genes={0: ("fur",)}, section=0)
    assert state.prompted == {0}  # seat 1: 2 cold and no fur, nothing to choose
    keep = {"type": "keep", "at": [[1, -3]]}
    assert rules.legal_moves(state, 0) == [{"type": "keep", "at": [[0, -3]]}, keep]
    assert refused(state, 0, {"type": "keep", "at": [[0, -3], [1, -3]]}).rule == \
        rules.RULE_SURVIVAL
    assert refused(state, 0, {"type": "keep", "at": [[-3, -1]]}).rule == rules.RULE_SURVIVAL
    assert refused(state, 0, {"type": "keep", "at": [[1, -3], [1, -3]]}).rule == \
        rules.RULE_SURVIVAL
    assert refused(state, 1, keep).rule == rules.RULE_SURVIVAL
    state = play(state, 0, keep)
    assert {c for c, s in state.board.items() if s == 0} == {(1, -3), (-3, -1)}
    assert {c for c, s in state.board.items() if s == 1} == {(2, -1)}
    assert state.mp == (8, 7) and state.round == 2
