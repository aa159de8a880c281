"""Buying R20–R22 and the action tiles R23–R25."""

from __future__ import annotations

from dataclasses import replace

from app.games.mycelia import rules, views
from app.games.mycelia.data import def_of

from .helpers import (
    END,
    at,
    cards,
    play,
    play_card,
    player,
    refused,
    table,
    with_player,
)

BOARD = ("0 1 0 0 0", "0 3 0 0 0", "0 0 0 0 0", "0 0 0 0 1")


def _rich(state: rules.State, seat: int = 0, leaves: int = 20) -> rules.State:
    return with_player(state, seat, leaves=leaves)


def test_R20_buy_any_time_of_the_own_turn_paying_its_cost():
    state = _rich(table(2, hands={0: ("st_leaf", "st_leaf", "st_leaf")}), leaves=9)
    first, second = state.market[0], state.market[1]
    cost = def_of(first).cost + def_of(second).cost
    state = rules.apply(state, 0, {"type": "buy", "card": first})          # before the cards
    state = play_card(state, 0, player(state).hand[0])
    state = rules.apply(state, 0, {"type": "buy", "card": second})         # between them
    assert player(state).leaves == 9 + 1 - cost
    assert first not in state.market and second not in state.market
    poor = with_player(state, 0, leaves=1)
    dear = max(state.market, key=lambda card: def_of(card).cost)
    refused(poor, 0, {"type": "buy", "card": dear}, "R20")
    refused(state, 0, {"type": "buy", "card": state.market_deck[0]}, "R20")
    refused(state, 1, {"type": "buy", "card": state.market[0]}, "R6")


def test_R21_a_bought_card_lies_on_top_of_the_draw_pile_until_the_end_of_turn():
    state = _rich(table(2, hands={0: ("st_leaf",)}))
    card = state.market[0]
    state = rules.apply(state, 0, {"type": "buy", "card": card})
    assert player(state).draw[0] == card and player(state).known == 1
    assert card not in player(state).hand
    refused(state, 0, {"type": "play", "card": card}, "R10")
    assert [c["card"] for c in views.view(state, 0)["seats"][0]["known_on_top"]] == [card]
    assert views.view(state, 1)["seats"][0]["known_on_top"] is None
    state = play(state, 0, {"type": "play", "card": player(state).hand[0]}, END)
    assert card in player(state).hand and player(state).known == 0


def test_R22_the_market_is_not_refilled_during_the_turn():
    state = _rich(table(2, hands={0: ("st_leaf",)}))
    state = play(state, 0, {"type": "buy", "card": state.market[0]},
                 {"type": "buy", "card": state.market[1]})
    assert len(state.market) == 3
    state = play(state, 0, {"type": "play", "card": player(state).hand[0]})
    assert len(state.market) == 3
    state = rules.apply(state, 0, END)
    assert len(state.market) == 5


def test_R23_each_tile_once_per_turn_paid_first_reset_next_turn():
    state = _rich(table(2, boards={0: BOARD}, hands={0: ("st_leaf",)}), leaves=7)
    move = {"type": "tile", "tile": "b", "from": [1, 1], "to": [2, 1]}
    state = rules.apply(state, 0, move)
    assert player(state).leaves == 4 and player(state).used == (False, True)
    refused(state, 0, move, "R23")
    refused(state, 0, {"type": "tile", "tile": "c", "from": [1, 1], "to": [2, 1]}, "R23")
    poor = with_player(table(2, boards={0: BOARD}), 0, leaves=2)
    refused(poor, 0, move, "R23")
    # two c tiles: two c actions
    doubled = with_player(state, 0, tiles=("a", "b", "c", "c"),
                          used=(False, True, False, False), leaves=6)
    c_move = {"type": "tile", "tile": "c", "from": [1, 1], "to": [1, 0], "to2": [0, 1]}
    doubled = rules.apply(doubled, 0, c_move)
    doubled = rules.apply(doubled, 0, {"type": "tile", "tile": "c", "from": [0, 1], "to": [0, 0],
                                       "to2": [0, 2]})
    assert player(doubled).used == (False, True, True, True) and player(doubled).leaves == 0
    # the flags are cleared when the turn ends (E5): used again on the next own turn
    state = play(state, 0, {"type": "play", "card": player(state).hand[0]}, END)
    assert player(state).used == (False, False)


def test_R24_tile_a_wipes_the_market_and_reveals_five_new_cards():
    state = _rich(table(2))
    old = state.market
    state = rules.apply(state, 0, {"type": "tile", "tile": "a"})
    assert state.market_discard == old and len(state.market) == 5
    assert not set(old) & set(state.market)
    assert player(state).leaves == 19
    # the market deck runs out while revealing: the market discard (the wiped cards too)
    # becomes the new deck
    short = _rich(replace(table(2), market_deck=cards("coprinus_comatus", "boletus_edulis")))
    wiped = short.market
    short = rules.apply(short, 0, {"type": "tile", "tile": "a"})
    assert len(short.market) == 5 and short.market[:2] == cards("coprinus_comatus",
                                                                  "boletus_edulis")
    assert set(short.market[2:]) <= set(wiped) and short.market_discard == ()
    assert len(short.market_deck) == 2


def test_R25_tile_c_moves_the_second_drop_of_the_origin_too():
    state = with_player(_rich(table(2, boards={0: BOARD})), 0, tiles=("a", "b", "c"),
                        used=(False, False, False))
    refused(state, 0, {"type": "tile", "tile": "c", "from": [1, 1], "to": [2, 1]}, "R25")
    refused(state, 0, {"type": "tile", "tile": "c", "from": [1, 1], "to": [2, 1],
                       "to2": [3, 3]}, "R25")
    both = rules.apply(state, 0, {"type": "tile", "tile": "c", "from": [1, 1], "to": [2, 1],
                                  "to2": [1, 2]})
    assert (at(both, (1, 1)), at(both, (2, 1)), at(both, (1, 2))) == (1, 1, 0)
    assert both.sanctuary == 1, "the second drop went onto the sanctuary"
    alone = {"type": "tile", "tile": "c", "from": [3, 4], "to": [2, 4]}
    refused(state, 0, {**alone, "to2": [3, 3]}, "R25")
    moved = rules.apply(state, 0, {**alone, "to2": None})
    assert at(moved, (2, 4)) == 1 and at(moved, (3, 4)) == 0
    legal = [m for m in rules.legal_moves(state, 0) if m.get("tile") == "c"]
    assert {"type": "tile", "tile": "c", "from": [3, 4], "to": [2, 4]} in legal
    assert all("to2" in m for m in legal if m["from"] == [1, 1])
