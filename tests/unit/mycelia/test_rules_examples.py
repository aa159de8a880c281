"""Every example of the spec's "Rulebook examples that must be tests", with its numbers, and
the 3-player Amanita muscaria transcript of "Bonus prompts"."""

from __future__ import annotations

from dataclasses import replace

import pytest

from app.games.base import seeded_rng
from app.games.mycelia import rules
from app.games.mycelia.data import DIE_FACES, SOLO_CARDS, card_id, def_of
from app.games.mycelia.rules import BLANK, REMOVE, field_matches, sanctuary_capacity

from .helpers import (
    END,
    SKIP,
    at,
    cards,
    empty_hand_end,
    field,
    move_drop,
    pending,
    play,
    play_card,
    player,
    refused,
    table,
    with_drops,
    with_player,
)


@pytest.mark.parametrize(("spec", "kind", "drops", "fits"), [
    ({"type": "any", "drops": 1}, "earth", 3, True),
    ({"type": "water", "drops": 1}, "water", 2, True),
    ({"type": "water", "drops": 1}, "moss", 2, False),
    ({"type": "water", "drops": 1}, "water", 0, False),
    ({"type": "any", "drops": 2, "mode": "exact"}, "leaf", 2, True),
    ({"type": "any", "drops": 2, "mode": "exact"}, "leaf", 3, False),
    ({"type": "any", "drops": 2, "mode": "exact"}, "leaf", 1, False),
    ({"type": "moss", "drops": 3, "mode": "upto"}, "moss", 1, True),
    ({"type": "moss", "drops": 3, "mode": "upto"}, "moss", 0, False),
    ({"type": "moss", "drops": 3, "mode": "upto"}, "water", 2, False),
    ({"type": "leaf", "drops": 0}, "leaf", 0, True),
    ({"type": "any", "drops": 0}, "sanctuary", 0, False),
    ({"type": "any", "drops": 1}, "sanctuary", 3, False),
    ({"type": "leaf", "drops": 0}, "sanctuary", 0, False),
    ({"type": "any"}, "moss", 1, True),
    ({"type": "any"}, "moss", 0, False),
])
def test_example_field_specs(spec, kind, drops, fits):
    assert field_matches(spec, kind, drops) is fits


def test_example_sanctuary_capacity():
    assert [sanctuary_capacity(n) for n in (2, 3, 4, 1)] == [10, 15, 20, 10]


def test_example_new_dew_side_1A_snail():
    state = replace(table(3, hands={0: ()}), new_dew="1A", sanctuary=15)
    snail = DIE_FACES.index("snail")
    counter = next(n for n in range(200)
                   if seeded_rng(state.seed, "die", n).randrange(len(DIE_FACES)) == snail)
    state = replace(state, counter=counter)
    before = [p.drops for p in state.seats]
    state = rules.apply(state, 0, END)
    assert state.die == "snail" and state.new_dew == "1B"
    for seat, old in enumerate(before):
        for cell in ((3, 2), (1, 3)):   # two below the sanctuary, and right of it
            assert at(state, cell, seat) == old[cell[0]][cell[1]] + 1
        assert rules.total_drops(state.seats[seat]) == sum(map(sum, old)) + 2


def test_example_laetiporus_sulphureus():
    # the leaf field at row 3, column 2; neighbours: above 2, below 0, left 1, right 3
    state = table(2, boards={0: ("0 0 0 0 0", "0 2 0 0 0", "1 1 3 0 0", "0 0 0 0 0")},
                  hands={0: ("laetiporus_sulphureus",)})
    state = play(state, 0, {"type": "play", "card": player(state).hand[0]}, field((2, 1)))
    assert (at(state, (1, 1)), at(state, (3, 1)), at(state, (2, 0)), at(state, (2, 2))) == (
        1, 0, 0, 2)
    assert at(state, (2, 1)) == 1 and state.sanctuary == 3


def test_example_clathrus_ruber():
    # water at row 2, column 4 with 3 drops; neighbours: above 1, right 2
    board = ("0 0 0 1 0", "0 0 0 3 2", "0 0 0 0 0", "0 0 0 0 0")
    state = table(2, boards={0: board}, hands={0: ("clathrus_ruber",)})
    asked = play_card(state, 0, player(state).hand[0])
    refused(asked, 0, field((1, 3), 3), "R16")
    state = rules.apply(asked, 0, field((1, 3)))
    assert at(state, (1, 3)) == 1, "at most 2 removed there"
    state = rules.apply(state, 0, field((1, 4)))
    assert at(state, (1, 4)) == 1 and at(state, (0, 3)) == 1 and state.sanctuary == 3
    one = with_drops(table(2, hands={0: ("clathrus_ruber",)}), 0,
                     "0 0 0 0 0", "0 0 0 1 0", "0 0 0 0 0", "0 0 0 0 0")
    one = play(one, 0, {"type": "play", "card": player(one).hand[0]}, field((1, 3)))
    assert at(one, (1, 3)) == 0 and one.sanctuary == 1 and one.pending is None


def test_R13_clathrus_ruber_may_choose_a_dry_water_field():
    """Rulebook: "Quita hasta 2 gotas (si hay) de una casilla de agua y quita 1 gota (si hay)
    de cualquier casilla adyacente": with every water field dry, the card still takes 1 drop
    off a neighbour of the water field chosen."""
    board = ("0 0 0 1 0", "0 0 0 0 2", "0 0 0 0 0", "0 0 0 0 0")  # water (1, 3) is dry
    state = table(2, boards={0: board}, hands={0: ("clathrus_ruber",)})
    asked = play_card(state, 0, player(state).hand[0])
    assert (1, 3) in pending(asked).options
    assert {"type": "choose_field", "cell": [1, 3]} in rules.legal_moves(asked, 0)
    neighbour = rules.apply(asked, 0, field((1, 3)))
    assert pending(neighbour).effect == "remove_one_adjacent"
    assert set(pending(neighbour).options) == {(0, 3), (1, 4)}
    done = rules.apply(neighbour, 0, field((1, 4)))
    assert at(done, (1, 4)) == 1 and at(done, (1, 3)) == 0 and done.sanctuary == 1


def test_example_hericium_erinaceus():
    board = ("1 0 0 5 0", "0 0 0 0 0", "0 0 0 0 0", "0 0 0 0 0")
    state = table(2, boards={0: board}, hands={0: ("hericium_erinaceus",)})
    asked = play_card(state, 0, player(state).hand[0])
    assert set(pending(asked).options) == {(0, 0), (0, 3)}
    assert at(rules.apply(asked, 0, field((0, 0))), (0, 0)) == 0
    refused(asked, 0, field((0, 3), 4), "R16")
    assert at(rules.apply(asked, 0, field((0, 3))), (0, 3)) == 2


def test_example_a_drop_moved_onto_the_sanctuary():
    board = ("0 0 1 0 0", "0 0 0 0 0", "0 0 0 0 0", "0 0 0 0 1")
    state = table(2, boards={0: board}, hands={0: ("st_drift",)})
    moved = play(state, 0, {"type": "play", "card": player(state).hand[0]}, field((0, 2)),
                 move_drop((0, 2), (1, 2)))
    assert at(moved, (0, 2)) == 0 and at(moved, (1, 2)) == 0 and moved.sanctuary == 1
    full = replace(state, sanctuary=10)
    full = play(full, 0, {"type": "play", "card": player(full).hand[0]}, field((0, 2)),
                move_drop((0, 2), (1, 2)))
    assert full.sanctuary == 10 and rules.total_drops(player(full)) == 1


def test_example_buying_mid_turn():
    state = with_player(table(2, hands={0: ("st_leaf", "st_leaf", "st_leaf")}), 0, leaves=8)
    first, second, third = player(state).hand
    card = state.market[0]
    state = play(state, 0, {"type": "play", "card": first}, {"type": "buy", "card": card})
    assert player(state).draw[0] == card
    refused(state, 0, {"type": "play", "card": card}, "R10")
    state = play(state, 0, {"type": "play", "card": second}, {"type": "play", "card": third},
                 END)
    assert card in player(state).hand


def test_example_draw_with_one_card_left():
    last = card_id("st_gift", 9)
    state = with_player(table(2, hands={0: ()}), 0, draw=(last,),
                        discard=cards("st_leaf", "st_moss", "st_water", "st_drift"))
    state = rules.apply(state, 0, END)
    assert player(state).hand[0] == last and len(player(state).hand) == 3
    assert len(player(state).draw) == 2 and player(state).discard == ()


def test_example_tile_use():
    board = ("0 0 0 0 0", "0 3 0 0 0", "0 0 0 0 0", "0 0 0 0 1")
    state = with_player(table(2, boards={0: board}), 0, leaves=12)
    b = {"type": "tile", "tile": "b", "from": [1, 1], "to": [1, 0]}
    state = rules.apply(state, 0, b)
    refused(state, 0, {**b, "from": [1, 0], "to": [0, 0]}, "R23")
    doubled = with_player(state, 0, tiles=("a", "b", "c", "c"), used=(False, True, False, False))
    doubled = rules.apply(doubled, 0, {"type": "tile", "tile": "c", "from": [1, 1], "to": [2, 1],
                                       "to2": [0, 1]})
    doubled = rules.apply(doubled, 0, {"type": "tile", "tile": "c", "from": [3, 4],
                                       "to": [2, 4]})
    assert player(doubled).used == (False, True, True, True) and player(doubled).leaves == 3


def test_example_bonus_gift_of_leaves_and_amanita_clockwise():
    gift = table(3, hands={0: ("st_gift",)})
    gift = play_card(gift, 0, player(gift).hand[0])
    assert [p.leaves for p in gift.seats] == [2, 1, 1]
    some = ("1 0 0 0 0", "0 0 0 0 0", "0 0 0 0 0", "0 0 0 0 1")
    state = table(4, boards={s: some for s in range(4)}, hands={0: ("amanita_muscaria",)})
    state = play(state, 0, {"type": "play", "card": player(state).hand[0]}, SKIP)
    order = []
    while state.pending is not None:
        order.append(pending(state).seat)
        state = rules.apply(state, pending(state).seat, SKIP)
    assert order == [1, 2, 3]


def test_example_one_time_trash_and_fomes_fomentarius():
    for def_id in ("hydnum_repandum", "tylopilus_formosus"):
        state = table(2, hands={0: ("st_leaf",)}, expansion=True)
        state = with_player(play_card(state, 0, player(state).hand[0]), 0, leaves=4)
        card = card_id(def_id, 1)
        state = replace(state, market=(card, *state.market[1:]))
        state = rules.apply(state, 0, {"type": "buy", "card": card})
        assert pending(state).kind == "trash"
        state = rules.apply(state, 0, {"type": "trash", "card": player(state).discard[0]})
        assert player(state).discard == () and len(player(state).removed) == 1
        later = with_player(state, 0, hand=(card,), discard=cards("st_leaf"))
        later = play_card(later, 0, card)
        kinds = set()
        while later.pending is not None:
            kinds.add(pending(later).kind)
            later = rules.apply(later, 0, SKIP)
        assert "trash" not in kinds and len(player(later).removed) == 1
    board = ("0 0 0 0 0", "0 0 0 1 0", "0 0 0 0 0", "0 0 0 0 0")
    state = table(3, boards={0: board, 1: board, 2: board}, expansion=True)
    fomes = card_id("fomes_fomentarius", 1)
    state = with_player(replace(state, market=(fomes, *state.market[1:])), 0, leaves=6)
    state = rules.apply(state, 0, {"type": "buy", "card": fomes})
    assert pending(state).seat == 1, "the buyer may not move"
    state = play(state, 1, field((1, 3)), move_drop((1, 3), (1, 2)))
    state = play(state, 2, field((1, 3)), move_drop((1, 3), (0, 3)))
    assert state.pending is None
    assert (at(state, (1, 3), 0), at(state, (1, 3), 1), at(state, (0, 3), 2)) == (1, 0, 1)


def test_example_clavulinopsis_fusiformis():
    board = ("1 2 0 0 0", "0 0 0 1 0", "0 0 0 0 0", "0 0 0 0 0")
    state = table(2, boards={0: board}, expansion=True)
    card = card_id("clavulinopsis_fusiformis", 1)
    state = with_player(replace(state, market=(card, *state.market[1:])), 0, leaves=6)
    state = rules.apply(state, 0, {"type": "buy", "card": card})
    assert set(pending(state).options) == {(0, 0), (1, 3)}
    state = rules.apply(state, 0, field((0, 0)))
    assert rules.field_type(player(state), (0, 0)) == "sanctuary"
    state = with_player(state, 0, hand=cards("coprinus_comatus"))
    state = play(state, 0, {"type": "play", "card": player(state).hand[0]}, field((0, 1)),
                 move_drop((0, 1), (0, 0)))
    assert at(state, (0, 0)) == 0 and at(state, (0, 1)) == 1 and state.sanctuary == 2


def test_example_game_end_with_four_players():
    one = ("0 1 0 0 0", "0 0 0 0 0", "0 0 0 0 0", "0 0 0 0 0")
    state = table(4, boards={1: one, 3: one},
                  hands={1: ("pleurotus_ostreatus",), 3: ("pleurotus_ostreatus",)})
    state = empty_hand_end(state, 0)
    state = play(state, 1, {"type": "play", "card": player(state, 1).hand[0]}, field((0, 1)),
                 END)
    state = replace(state, sanctuary=20)
    assert state.turn == 2 and state.end_triggered
    state = empty_hand_end(state, 2)
    assert state.die is None and state.sanctuary == 20, "no rotation even though full"
    ended = play(state, 3, {"type": "play", "card": player(state, 3).hand[0]}, field((0, 1)))
    for leaves, winners in ((3, (3,)), (2, (1, 3))):
        last = with_player(with_player(ended, 1, leaves=2), 3, leaves=leaves)
        last = rules.apply(last, 3, END)
        assert last.phase == rules.OVER and last.die is None
        result = rules.result(last)
        assert result is not None and result.winners == winners


def test_example_solo():
    state = table(1, hands={0: ()})
    assert state.gwidyon is not None and state.gwidyon.token == REMOVE
    state = replace(state, gwidyon=replace(state.gwidyon, deck=(
        "g_flip1", "g_flip1", "g_market", "g_leaf1", "g_leaf3", "g_move")))
    state = rules.apply(state, 0, END)
    assert state.gwidyon is not None
    assert (state.gwidyon.token, state.gwidyon.drops) == (BLANK, 19)
    state = empty_hand_end(state, 0)
    assert state.gwidyon is not None
    assert (state.gwidyon.token, state.gwidyon.drops) == (REMOVE, 17), "1 for the flip, 1 more"
    for _ in range(3):
        state = empty_hand_end(state, 0)
    assert state.gwidyon is not None and state.gwidyon.revealed == ()
    assert sorted(state.gwidyon.deck) == sorted(card.id for card in SOLO_CARDS)
    # the bonus parts: Gift of leaves nothing, Lycoperdon one flip, Amanita one drop
    state = table(1, hands={0: ("st_gift", "lycoperdon_perlatum", "amanita_muscaria")})
    gift, lycoperdon, amanita = player(state).hand
    state = play_card(state, 0, gift)
    assert state.gwidyon is not None and state.gwidyon.drops == 20
    state = play_card(state, 0, lycoperdon)
    assert state.gwidyon is not None and state.gwidyon.token == BLANK
    state = play(state, 0, {"type": "play", "card": amanita}, SKIP)
    assert state.gwidyon is not None and state.gwidyon.drops == 19


def test_example_amanita_muscaria_three_players():
    """The spec's transcript, move by move."""
    board = ("1 0 0 0 0", "0 0 0 0 0", "0 0 0 0 0", "0 0 0 0 1")
    state = table(3, boards={0: board, 1: board, 2: board}, hands={0: ("amanita_muscaria",)})
    amanita = player(state).hand[0]
    assert def_of(amanita).name == "Amanita muscaria"
    state = rules.apply(state, 0, {"type": "play", "card": amanita})
    p = pending(state)
    assert (p.seat, p.kind, p.rep, p.reps, p.bonus) == (0, "choose_field", 1, 2, False)
    assert p.spec == ("any", 1, "min") and p.max == 1 and p.can_skip
    state = rules.apply(state, 0, {"type": "choose_field", "cell": [0, 0]})
    assert at(state, (0, 0), 0) == 0 and state.sanctuary == 1
    assert (pending(state).seat, pending(state).rep) == (0, 2)
    state = rules.apply(state, 0, {"type": "skip"})
    p = pending(state)
    assert (p.seat, p.kind, p.bonus, p.part) == (1, "choose_field", True, 1)
    state = rules.apply(state, 1, {"type": "choose_field", "cell": [3, 4]})
    assert at(state, (3, 4), 1) == 0 and state.sanctuary == 2
    assert pending(state).seat == 2
    state = rules.apply(state, 2, {"type": "skip"})
    assert state.pending is None and state.phase == rules.MAIN and state.turn == 0
    assert rules.active_seats(state) == {0}
