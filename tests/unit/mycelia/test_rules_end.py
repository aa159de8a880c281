"""End of turn E1–E6 and the game end G1–G5."""

from __future__ import annotations

from dataclasses import replace

from app.games.mycelia import rules
from app.games.mycelia.data import NEW_DEW, NEW_DEW_BACK

from .helpers import (
    END,
    SKIP,
    at,
    cards,
    empty_hand_end,
    field,
    news,
    play,
    play_card,
    player,
    refused,
    table,
    with_player,
)

ONE_WATER = ("0 1 0 0 0", "0 0 0 0 0", "0 0 0 0 0", "0 0 0 0 0")


def test_E1_played_cards_lie_on_the_discard_pile():
    state = table(2, hands={0: ("st_leaf", "st_leaf", "st_gift")})
    hand = player(state).hand
    for card in hand:
        state = play_card(state, 0, card)
    state = rules.apply(state, 0, END)
    assert player(state).discard == hand


def test_E2_the_market_is_refilled_at_the_end_of_the_turn():
    state = with_player(table(2, hands={0: ()}), 0, leaves=30)
    state = play(state, 0, {"type": "buy", "card": state.market[0]},
                 {"type": "buy", "card": state.market[1]})
    deck = state.market_deck
    refilled = rules.apply(state, 0, END)
    assert refilled.market == (*state.market, *deck[:2])
    # an empty market deck: the market discard is shuffled into a new one
    spare = cards("coprinus_comatus", "boletus_edulis", "armillaria_mellea")
    rebuilt = rules.apply(replace(state, market_deck=(), market_discard=spare), 0, END)
    assert len(rebuilt.market) == 5 and set(rebuilt.market[3:]) <= set(spare)
    assert len(rebuilt.market_deck) == 1 and rebuilt.market_discard == ()
    # both empty: the market stays short
    short = rules.apply(replace(state, market_deck=(), market_discard=()), 0, END)
    assert short.market == state.market


def test_E3_a_full_sanctuary_turns_and_brings_new_dew_to_every_board():
    state = replace(table(3, hands={0: ()}), sanctuary=15)
    before = [p.drops for p in state.seats]
    side = state.new_dew
    state = rules.apply(state, 0, END)
    face = state.die
    assert face is not None and state.sanctuary == 0 and state.new_dew == NEW_DEW_BACK[side]
    for seat, old in enumerate(before):
        for r in range(4):
            for c in range(5):
                added = 1 if (r, c) in NEW_DEW[side][face] else 0
                assert state.seats[seat].drops[r][c] == old[r][c] + added
    assert news(state).count("rotated") == 1 and news(state).count("new_dew") == 3
    # not full: nothing turns
    calm = rules.apply(replace(table(3, hands={0: ()}), sanctuary=14), 0, END)
    assert calm.die is None and calm.sanctuary == 14
    # an extra sanctuary field on a cell of the rolled face gets no drop
    guarded = replace(table(2, hands={0: ()}), sanctuary=10)
    rolled = rules.apply(guarded, 0, END).die
    assert rolled is not None
    cell = NEW_DEW[guarded.new_dew][rolled][0]
    guarded = with_player(guarded, 1, extra=(cell,),
                          drops=tuple(tuple(0 if (r, c) == cell else n for c, n in enumerate(row))
                                      for r, row in enumerate(player(guarded, 1).drops)))
    after = rules.apply(guarded, 0, END)
    assert at(after, cell, seat=1) == 0 and at(after, cell, seat=0) == at(guarded, cell) + 1


def test_E4_draw_three_shuffling_the_discard_pile_under_the_rest():
    state = table(2, hands={0: ()})
    draw = player(state).draw
    state = rules.apply(state, 0, END)
    assert player(state).hand == draw and player(state).draw == ()
    short = with_player(table(2, hands={0: ()}), 0, draw=cards("st_leaf"),
                        discard=cards("st_moss", "st_water", "st_drift", start=60))
    short = rules.apply(short, 0, END)
    assert player(short).hand[0] == cards("st_leaf")[0], "the card left on the pile comes first"
    assert len(player(short).hand) == 3 and len(player(short).draw) == 1
    assert player(short).discard == () and "reshuffled" in news(short)
    few = with_player(table(2, hands={0: ()}), 0, draw=cards("st_leaf"), discard=())
    few = rules.apply(few, 0, END)
    assert player(few).hand == cards("st_leaf"), "fewer than 3 cards in all: draw them all"


def test_E5_the_tiles_used_this_turn_are_ready_again():
    state = with_player(table(2, hands={0: ()}), 0, leaves=1)
    state = rules.apply(state, 0, {"type": "tile", "tile": "a"})
    assert player(state).used == (True, False)
    state = rules.apply(state, 0, END)
    assert player(state).used == (False, False)


def test_E6_the_next_seat_clockwise_plays():
    state = table(4, hands={0: ()})
    state = rules.apply(state, 0, END)
    assert state.turn == 1 and rules.active_seats(state) == {1}
    for seat in (1, 2, 3):
        state = empty_hand_end(state, seat)
    assert state.turn == 0 and state.round == 2


def test_G1_an_empty_board_triggers_the_end_however_it_happened():
    state = table(3, boards={0: ONE_WATER}, hands={0: ("pleurotus_ostreatus",)})
    state = play(state, 0, {"type": "play", "card": player(state).hand[0]}, field((0, 1)))
    assert state.end_triggered and "end_triggered" in news(state)
    # by another player's bonus, during someone else's turn
    other = table(3, boards={2: ONE_WATER}, hands={0: ("amanita_muscaria",)})
    other = play(other, 0, {"type": "play", "card": player(other).hand[0]}, SKIP)
    assert other.pending is not None and other.pending.seat == 1
    other = rules.apply(other, 1, SKIP)
    other = rules.apply(other, 2, field((0, 1)))
    assert other.end_triggered and other.turn == 0


def test_G2_after_the_trigger_the_sanctuary_never_turns_again():
    state = table(2, boards={0: ONE_WATER}, hands={0: ("pleurotus_ostreatus",)})
    state = replace(state, sanctuary=9)
    state = play(state, 0, {"type": "play", "card": player(state).hand[0]}, field((0, 1)))
    assert state.sanctuary == 10 and state.end_triggered
    state = rules.apply(state, 0, END)
    assert state.die is None and state.sanctuary == 10 and "rotated" not in news(state)
    state = empty_hand_end(state, 1)
    assert state.phase == rules.OVER and state.die is None


def test_G3_the_round_is_finished_the_last_turn_is_the_seat_before_the_start_player():
    state = table(4, boards={1: ONE_WATER}, hands={1: ("pleurotus_ostreatus",)})
    state = empty_hand_end(state, 0)
    state = play(state, 1, {"type": "play", "card": player(state, 1).hand[0]}, field((0, 1)))
    state = rules.apply(state, 1, END)
    assert state.phase == rules.MAIN and state.turn == 2
    state = empty_hand_end(state, 2)
    assert state.turn == 3 and state.phase == rules.MAIN
    state = empty_hand_end(state, 3)
    assert state.phase == rules.OVER and rules.active_seats(state) == frozenset()
    refused(state, 0, END, "G3")
    # the trigger in the last seat's own turn ends the game right after it
    last = table(2, boards={1: ONE_WATER}, hands={1: ("pleurotus_ostreatus",)})
    last = empty_hand_end(last, 0)
    last = play(last, 1, {"type": "play", "card": player(last, 1).hand[0]}, field((0, 1)),
                END)
    assert last.phase == rules.OVER


def test_G4_empty_boards_win_then_more_leaves_then_a_shared_win():
    """G4: the rulebook names only winners; the others are listed unplaced, in seat order
    (rules version 2), and each seat's score reads as drops left beside its leaves."""
    empty = ("0 0 0 0 0",) * 4
    state = table(3, boards={0: ("1 0 0 0 0",) + ("0 0 0 0 0",) * 3, 1: empty, 2: empty})
    state = replace(state, phase=rules.OVER)
    state = with_player(with_player(state, 1, leaves=4), 2, leaves=6)
    result = rules.result(state)
    assert result is not None
    assert result.winners == (2,) and result.ranking == (2, 0, 1) and result.placed == 1
    assert result.scores == (-1, 0, 0)
    assert [str(m.english()) for m in result.shown] == [
        "1 drop left, 0 leaves", "0 drops left, 4 leaves", "0 drops left, 6 leaves"]
    assert result.to_json()["placed"] == 1
    tied = rules.result(with_player(state, 1, leaves=6))
    assert tied is not None and tied.winners == (1, 2)
    assert rules.result(table(2)) is None


def test_G5_final_turns_are_played_normally():
    state = table(2, boards={0: ONE_WATER}, hands={0: ("pleurotus_ostreatus", "st_leaf")})
    pleurotus, leaf = player(state).hand
    state = play(state, 0, {"type": "play", "card": pleurotus}, field((0, 1)))
    assert state.end_triggered
    refused(state, 0, END, "R10")
    state = play(state, 0, {"type": "play", "card": leaf}, END)
    assert state.turn == 1 and player(state).leaves == 1
    state = with_player(state, 1, hand=cards("boletus_edulis"))
    state = play(state, 1, {"type": "play", "card": player(state, 1).hand[0]})
    assert player(state, 1).leaves == 4 and player(state).leaves == 2, "gains still count"
