"""Playing cards and the resolution walk, R10–R19 (front board: the sanctuary at row 2,
column 3; leaf litter above it, earth left, water right, moss below)."""

from __future__ import annotations

from dataclasses import replace

from app.games.mycelia import rules
from app.games.mycelia.rules import field_matches

from .helpers import (
    END,
    SKIP,
    at,
    field,
    move_drop,
    pending,
    play,
    play_card,
    player,
    refused,
    table,
)

#: A board with a drop here and there (front side: row 0 is M W L M W).
SPREAD = ("1 2 1 0 0", "0 1 0 1 0", "0 0 2 0 3", "0 0 1 0 1")


def test_R10_all_cards_are_played_and_each_goes_to_the_discard_pile_at_once():
    state = table(2, boards={0: SPREAD}, hands={0: ("coprinus_comatus", "st_leaf", "st_leaf")})
    coprinus, leaf1, leaf2 = player(state).hand
    refused(state, 0, END, "R10")
    state = play_card(state, 0, coprinus)
    assert player(state).discard == (coprinus,), "on the discard pile while it resolves"
    assert pending(state).kind == "choose_field"
    refused(state, 0, {"type": "play", "card": leaf1}, "R10")
    refused(state, 0, {"type": "buy", "card": state.market[0]}, "R20")
    refused(state, 0, {"type": "tile", "tile": "a"}, "R23")
    refused(state, 0, END, "R10")
    state = play(state, 0, SKIP, {"type": "play", "card": leaf1})
    refused(state, 0, {"type": "play", "card": leaf1}, "R10")
    state = play_card(state, 0, leaf2)
    assert player(state).hand == () and player(state).discard == (coprinus, leaf1, leaf2)
    assert {"type": "end_turn"} in rules.legal_moves(state, 0)
    state = rules.apply(state, 0, END)
    assert state.turn == 1


def test_R11_parts_left_to_right_each_may_be_skipped_and_either_or():
    board = ("0 2 1 0 0", "0 0 0 0 0", "0 0 0 0 0", "0 0 0 0 1")
    state = table(2, boards={0: board},
                  hands={0: ("leccinum_scabrum", "lactarius_deliciosus", "st_leaf")})
    leccinum, lactarius, _ = player(state).hand
    state = play_card(state, 0, leccinum)
    assert pending(state).part == 0 and pending(state).options == ((0, 2),)
    state = rules.apply(state, 0, SKIP)
    assert pending(state).part == 1, "the leaf-litter move was forgone, the water part is next"
    refused(state, 0, field((0, 2)), "R13")
    state = rules.apply(state, 0, field((0, 1), 1))
    assert state.pending is None and at(state, (0, 2)) == 1 and at(state, (0, 1)) == 1
    # either-or: one alternative or none, never both
    ask = play_card(state, 0, lactarius)
    assert pending(ask).kind == "choose_option" and pending(ask).options == (0, 1)
    refused(ask, 0, {"type": "choose_option", "option": 2}, "R11")
    gain = rules.apply(ask, 0, {"type": "choose_option", "option": 0})
    assert gain.pending is None and player(gain).leaves == 3
    move = rules.apply(ask, 0, {"type": "choose_option", "option": 1})
    assert pending(move).kind == "choose_field" and player(move).leaves == 0
    none = rules.apply(ask, 0, SKIP)
    assert none.pending is None and player(none).leaves == 0


def test_R12_a_card_may_do_nothing_and_gains_are_automatic():
    state = table(2, boards={0: SPREAD}, hands={0: ("st_leaf", "coprinus_comatus", "st_gift")})
    leaf, coprinus, _ = player(state).hand
    state = play_card(state, 0, leaf)
    assert state.pending is None and player(state).leaves == 1
    before = player(state).drops
    state = play(state, 0, {"type": "play", "card": coprinus}, SKIP)
    assert state.pending is None and player(state).drops == before
    assert coprinus in player(state).discard


def test_R13_a_field_function_chooses_a_matching_field_or_lapses():
    state = table(2, boards={0: SPREAD}, hands={0: ("st_water", "st_moss", "st_leaf")})
    water, moss, _ = player(state).hand
    asked = play_card(state, 0, water)
    # water fields of the front: (0,1) (0,4) (1,3) (2,0) (3,2); with drops: (0,1) (1,3) (3,2)
    assert set(pending(asked).options) == {(0, 1), (1, 3), (3, 2)}
    assert pending(asked).spec == ("water", 1, "min")
    refused(asked, 0, field((0, 0)), "R13")
    refused(asked, 0, field((0, 4)), "R13")
    dry = rules.apply(state, 0, {"type": "play", "card": moss})
    assert set(pending(dry).options) == {(0, 0), (2, 2), (2, 4)}
    no_moss = table(2, boards={0: ("0 1 0 0 0", "0 0 0 0 0", "0 0 0 0 0", "0 0 0 0 0")},
                    hands={0: ("st_moss",)})
    lapsed = play_card(no_moss, 0, player(no_moss).hand[0])
    assert lapsed.pending is None and lapsed.phase == rules.MAIN, "no prompt: it lapses"


def test_R14_repetitions_choose_anew_each_time_and_a_skip_ends_them():
    board = ("0 1 0 0 1", "0 0 0 0 0", "0 0 2 0 0", "0 0 0 0 0")
    state = table(2, boards={0: board}, hands={0: ("trametes_versicolor", "morchella_esculenta",
                                                   "st_leaf")})
    trametes, morchella, _ = player(state).hand
    first = play(state, 0, {"type": "play", "card": trametes}, field((2, 2)))
    assert (pending(first).kind, pending(first).rep, pending(first).reps) == ("move_drop", 1, 2)
    second = rules.apply(first, 0, move_drop((2, 2), (2, 1)))
    assert (pending(second).kind, pending(second).rep) == ("choose_field", 2)
    assert (2, 2) in pending(second).options, "the same field may be chosen again"
    done = play(second, 0, field((2, 2)), move_drop((2, 2), (3, 2)))
    assert done.pending is None and at(done, (2, 2)) == 0
    skipped = rules.apply(first, 0, SKIP)
    assert (pending(skipped).kind, pending(skipped).rep) == ("choose_field", 2)
    ended = rules.apply(skipped, 0, SKIP)
    assert ended.pending is None, "skipping a repetition ends the repetition"
    # the spec is checked again: the emptied water field is no longer an option
    state = play(state, 0, {"type": "play", "card": morchella}, field((0, 1)))
    assert player(state).leaves == 3
    assert pending(state).rep == 2 and pending(state).options == ((0, 4),)
    state = rules.apply(state, 0, field((0, 4)))
    assert state.pending is None and at(state, (0, 4)) == 0


def test_R15_each_m_moves_one_drop_to_an_orthogonal_neighbour():
    board = ("1 0 0 0 0", "0 0 0 0 0", "0 0 2 0 0", "0 0 0 0 0")
    state = table(2, boards={0: board},
                  hands={0: ("macrolepiota_procera", "coprinus_comatus", "st_leaf")})
    macrolepiota, coprinus, _ = player(state).hand
    state = play(state, 0, {"type": "play", "card": macrolepiota}, field((2, 2)))
    assert set(pending(state).options) == {(1, 2), (3, 2), (2, 1), (2, 3)}
    refused(state, 0, move_drop((2, 2), (0, 2)), "R15")
    refused(state, 0, move_drop((0, 0), (0, 1)), "R15")
    state = play(state, 0, move_drop((2, 2), (2, 1)), move_drop((2, 2), (2, 3)))
    assert (at(state, (2, 1)), at(state, (2, 3)), at(state, (2, 2))) == (1, 1, 0)
    corner = play(state, 0, {"type": "play", "card": coprinus}, field((0, 0)))
    assert set(pending(corner).options) == {(1, 0), (0, 1)}, "a drop never leaves the board"


def test_R16_x_removes_a_chosen_count_up_to_its_symbols():
    board = ("0 0 0 0 0", "0 0 0 0 0", "2 0 0 0 0", "0 0 0 0 0")
    state = table(2, boards={0: board}, hands={0: ("calvatia_gigantea", "coprinus_comatus",
                                                   "st_leaf")})
    calvatia, coprinus, _ = player(state).hand
    asked = play_card(state, 0, calvatia)
    assert pending(asked).max == 2
    counts = [move.get("count") for move in rules.legal_moves(asked, 0)
              if move["type"] == "choose_field"]
    assert counts == [1, 2]
    refused(asked, 0, field((2, 0), 3), "R16")
    refused(asked, 0, field((2, 0), 0), "R16")
    assert at(rules.apply(asked, 0, field((2, 0))), (2, 0)) == 0, "the default is the most"
    one = rules.apply(asked, 0, field((2, 0), 1))
    assert at(one, (2, 0)) == 1 and one.sanctuary == 1
    moving = play_card(state, 0, coprinus)
    refused(moving, 0, field((2, 0), 1), "R16")


def test_R17_A_n_and_C_act_on_the_neighbours_not_the_anchor():
    board = ("0 0 0 0 0", "2 1 0 0 0", "0 3 0 0 0", "0 0 0 0 0")
    state = table(2, boards={0: board}, hands={0: ("laetiporus_sulphureus", "armillaria_mellea",
                                                   "st_leaf")})
    laetiporus, armillaria, _ = player(state).hand
    around = play(state, 0, {"type": "play", "card": laetiporus}, field((2, 1)))
    assert around.pending is None
    assert player(around).drops == ((0, 0, 0, 0, 0), (2, 0, 0, 0, 0), (0, 3, 0, 0, 0),
                                    (0, 0, 0, 0, 0))
    clear = play(state, 0, {"type": "play", "card": armillaria}, field((1, 1)))
    assert pending(clear).kind == "adjacent" and set(pending(clear).options) == {(1, 0), (2, 1)}
    refused(clear, 0, field((0, 1)), "R17")
    cleared = rules.apply(clear, 0, field((2, 1)))
    assert at(cleared, (2, 1)) == 0 and at(cleared, (1, 1)) == 1 and cleared.sanctuary == 3
    assert rules.apply(clear, 0, SKIP).pending is None
    water = table(2, boards={0: ("0 0 0 0 0", "0 0 0 2 3", "0 0 0 1 0", "0 0 0 0 0")},
                  hands={0: ("clathrus_ruber",)})
    one = play(water, 0, {"type": "play", "card": player(water).hand[0]}, field((1, 3)))
    assert pending(one).effect == "remove_one_adjacent"
    assert set(pending(one).options) == {(1, 4), (2, 3)}
    one = rules.apply(one, 0, field((1, 4)))
    assert (at(one, (1, 3)), at(one, (1, 4)), at(one, (2, 3))) == (0, 2, 1)


def test_R18_a_sanctuary_field_holds_no_drop_and_matches_no_spec():
    for spec in ({"type": "any", "drops": 0}, {"type": "leaf", "drops": 0},
                 {"type": "any", "drops": 0, "mode": "exact"}):
        assert not field_matches(spec, "sanctuary", 0)
    board = ("0 0 0 0 0", "0 2 0 0 0", "0 0 0 0 0", "0 0 0 0 0")
    state = table(2, boards={0: board}, hands={0: ("coprinus_comatus", "laetiporus_sulphureus",
                                                   "st_leaf")})
    coprinus, laetiporus, _ = player(state).hand
    state = play(state, 0, {"type": "play", "card": coprinus}, field((1, 1)),
                 move_drop((1, 1), (1, 2)))
    assert at(state, (1, 2)) == 0 and at(state, (1, 1)) == 1 and state.sanctuary == 1
    state = play_card(state, 0, laetiporus)
    assert (1, 2) not in pending(state).options


def test_R19_removed_drops_fill_the_sanctuary_up_to_its_capacity():
    board = ("0 0 0 0 0", "0 0 0 0 0", "0 0 0 0 0", "0 0 2 0 1")
    state = table(2, boards={0: board}, hands={0: ("calvatia_gigantea", "st_leaf", "st_leaf")})
    state = replace(state, sanctuary=9)
    state = play(state, 0, {"type": "play", "card": player(state).hand[0]}, field((3, 2)))
    assert state.sanctuary == 10 == rules.capacity(state)
    assert rules.total_drops(player(state)) == 1, "the drop beyond capacity left the game"
    assert "sanctuary_full" in [note.key for note in state.news]
