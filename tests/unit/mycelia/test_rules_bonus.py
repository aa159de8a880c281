"""Bonus for the other players, B1–B6 (Amanita muscaria is ``2x any1:x & !any1:x``)."""

from __future__ import annotations

from dataclasses import replace

from app.games.mycelia import rules

from .helpers import (
    SKIP,
    SKIP_REST,
    at,
    field,
    move_drop,
    pending,
    play,
    play_card,
    player,
    refused,
    table,
    with_player,
)

SOME = ("1 0 0 0 0", "0 0 0 0 0", "0 0 0 0 0", "0 0 0 0 1")
EMPTY = ("0 0 0 0 0",) * 4


def test_B1_the_player_cannot_skip_or_perform_the_bonus_part():
    state = table(3, boards={0: SOME, 1: SOME, 2: SOME}, hands={0: ("amanita_muscaria",)})
    state = play_card(state, 0, player(state).hand[0])
    assert pending(state).seat == 0 and not pending(state).bonus
    rested = rules.apply(state, 0, SKIP_REST)
    assert pending(rested).seat == 1 and pending(rested).bonus, "skip rest still fires it"
    refused(rested, 0, field((0, 0)), "B3")
    refused(rested, 0, SKIP, "B3")
    refused(rested, 1, SKIP_REST, "B1")
    assert {"type": "skip", "rest": True} not in rules.legal_moves(rested, 1)


def test_B2_bonus_leaves_go_to_every_other_player_at_once():
    state = table(4, hands={0: (), 1: ("st_gift",)})
    state = rules.apply(state, 0, {"type": "end_turn"})
    state = play_card(state, 1, player(state, 1).hand[0])
    assert state.pending is None
    assert [p.leaves for p in state.seats] == [1, 2, 1, 1]


def test_B3_bonus_prompts_go_clockwise_and_a_seat_without_a_field_is_passed_over():
    state = table(4, boards={0: SOME, 1: EMPTY, 2: SOME, 3: SOME},
                  hands={2: ("amanita_muscaria",)})
    for seat in (0, 1):
        state = with_player(state, seat, hand=())
        state = rules.apply(state, seat, {"type": "end_turn"})
    assert state.turn == 2
    state = play(state, 2, {"type": "play", "card": player(state, 2).hand[0]}, SKIP)
    assert (pending(state).seat, pending(state).bonus) == (3, True)
    assert rules.active_seats(state) == {3}
    assert rules.legal_moves(state, 2) == [] and rules.seat_status(state, 2).doing == \
        "waiting for a bonus answer"
    assert rules.seat_status(state, 3).doing == "answering a bonus"
    refused(state, 0, SKIP, "B3")
    state = rules.apply(state, 3, field((3, 4)))
    assert pending(state).seat == 0, "seat 1 has no drop and is passed over"
    state = rules.apply(state, 0, SKIP)
    assert state.pending is None and rules.active_seats(state) == {2}
    assert (at(state, (3, 4), 3), at(state, (3, 4), 0)) == (0, 1)


def test_B4_drops_removed_by_others_go_to_the_shared_sanctuary():
    state = table(3, boards={0: SOME, 1: SOME, 2: SOME}, hands={0: ("amanita_muscaria",)})
    state = play(state, 0, {"type": "play", "card": player(state).hand[0]}, field((0, 0)),
                 SKIP)
    assert state.sanctuary == 1
    state = rules.apply(state, 1, field((0, 0)))
    state = rules.apply(state, 2, field((3, 4)))
    assert state.sanctuary == 3 and state.pending is None


def test_B5_a_one_time_bonus_works_the_same_when_recruiting():
    state = table(3, boards={0: SOME, 1: SOME, 2: SOME}, expansion=True)
    fomes = next(card for card in (*state.market, *state.market_deck)
                 if card.startswith("fomes_fomentarius"))
    state = with_player(state, 0, leaves=6)
    state = replace(state, market=(fomes, *state.market[1:]))
    state = rules.apply(state, 0, {"type": "buy", "card": fomes})
    assert (pending(state).seat, pending(state).bonus, pending(state).fn) == (1, True, "once")
    assert fomes not in player(state).draw, "it goes on the draw pile after its effect"
    state = play(state, 1, field((0, 0)), move_drop((0, 0), (0, 1)))
    assert pending(state).seat == 2
    state = rules.apply(state, 2, SKIP)
    assert state.pending is None and player(state).draw[0] == fomes
    assert at(state, (0, 1), 1) == 1 and at(state, (0, 0), 0) == 1


def test_B6_in_solo_the_bonus_acts_on_gwidyon():
    state = table(1, boards={0: SOME}, hands={0: ("amanita_muscaria",)})
    state = play(state, 0, {"type": "play", "card": player(state).hand[0]}, SKIP)
    assert state.pending is None and state.gwidyon is not None
    assert state.gwidyon.drops == 19 and state.sanctuary == 1
