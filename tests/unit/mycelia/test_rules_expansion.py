"""The expansion X1–X9 and the advanced boards V1–V2."""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import replace

from app.games.mycelia import rules, views
from app.games.mycelia.data import ADVANCED_BOARDS, EXP_CARDS, START_DEW, card_id, def_of

from .helpers import (
    SKIP,
    SKIP_REST,
    at,
    cards,
    field,
    move_drop,
    new_game,
    news,
    pending,
    play,
    play_card,
    player,
    random_playout,
    refused,
    table,
    with_player,
)

BOARD = ("1 2 0 0 0", "0 1 0 0 0", "0 0 3 0 0", "0 0 0 0 1")


def _recruit(state: rules.State, def_id: str, seat: int = 0) -> rules.State:
    """The seat buys a copy of ``def_id`` put in the market for it."""
    card = card_id(def_id, 1)
    state = replace(state, market=(card, *state.market[1:]),
                    market_deck=tuple(c for c in state.market_deck if c != card))
    state = with_player(state, seat, leaves=player(state, seat).leaves + def_of(card).cost)
    return rules.apply(state, seat, {"type": "buy", "card": card})


def test_X1_expansion_cards_join_the_market_deck_and_a_public_supply():
    state = new_game(2, expansion=True)
    heroes = Counter(def_of(card).set for card in (*state.market, *state.market_deck))
    assert heroes == Counter({"base": 40, "exp": 30}) and len(state.market) == 5
    assert state.supply == (("c", 2), ("d", 2), ("e", 2)) and state.extra_fields == 2
    plain = new_game(2)
    assert plain.supply == (("c", 0), ("d", 0), ("e", 0)) and plain.extra_fields == 0
    assert all(def_of(card).set == "base" for card in plain.market_deck)


def test_X2_trash_removes_a_card_of_the_discard_pile_even_the_card_itself():
    state = table(2, hands={0: ("schizophyllum_commune", "st_leaf")}, expansion=True)
    schizo, leaf = player(state).hand
    state = play_card(state, 0, leaf)
    state = play_card(state, 0, schizo)
    assert pending(state).kind == "trash" and set(pending(state).options) == {leaf, schizo}
    refused(state, 0, {"type": "trash", "card": player(state).draw[0]}, "X2")
    gone = rules.apply(state, 0, {"type": "trash", "card": schizo})
    assert player(gone).discard == (leaf,) and player(gone).removed == (schizo,)
    kept = rules.apply(state, 0, SKIP)
    assert player(kept).discard == (leaf, schizo) and player(kept).removed == ()


def test_X3_a_one_time_effect_resolves_when_recruited_before_the_card_is_placed():
    state = table(2, hands={0: ("st_leaf", "st_moss")}, expansion=True)
    leaf, moss = player(state).hand
    state = play(state, 0, {"type": "play", "card": leaf}, {"type": "play", "card": moss}, SKIP)
    state = _recruit(state, "hydnum_repandum")
    hydnum = card_id("hydnum_repandum", 1)
    assert pending(state).kind == "trash" and pending(state).fn == "once"
    assert hydnum not in pending(state).options and hydnum not in player(state).draw
    state = rules.apply(state, 0, {"type": "trash", "card": leaf})
    assert player(state).draw[0] == hydnum and player(state).removed == (leaf,)
    # played later, the one-time effect does not come back
    later = with_player(state, 0, hand=(hydnum,), draw=player(state).draw[1:], known=0)
    later = play_card(later, 0, hydnum)
    assert pending(later).kind == "choose_field" and player(later).leaves == 2
    # nothing in the discard pile: no prompt, the card goes on the pile at once
    empty = _recruit(table(2, expansion=True), "tylopilus_formosus")
    assert empty.pending is None and player(empty).draw[0] == card_id("tylopilus_formosus", 1)


def test_X4_a_granted_tile_comes_from_the_supply_and_works_this_turn():
    state = with_player(table(2, boards={0: BOARD}, expansion=True), 0, leaves=3)
    state = _recruit(state, "suillus_luteus")
    assert player(state).tiles == ("a", "b", "c") and dict(state.supply)["c"] == 1
    assert player(state).leaves == 3
    move = {"type": "tile", "tile": "c", "from": [3, 4], "to": [2, 4]}
    assert move in rules.legal_moves(state, 0)
    state = rules.apply(state, 0, move)
    assert player(state).used == (False, False, True)
    none_left = replace(table(2, expansion=True), supply=(("c", 0), ("d", 2), ("e", 2)))
    none_left = _recruit(none_left, "suillus_luteus")
    assert player(none_left).tiles == ("a", "b") and "no_tile" in news(none_left)


def test_X5_at_most_four_tiles_return_one_or_decline_the_new_one():
    state = with_player(table(2, expansion=True), 0, tiles=("a", "b", "b", "d"),
                        used=(False, False, True, False))
    asked = _recruit(state, "tremella_mesenterica")
    assert pending(asked).kind == "discard_tile" and pending(asked).options == ("a", "b", "d")
    assert views.view(asked, 0)["pending"]["prompt_text"] == (
        "Tremella mesenterica: you have 4 action tiles; return one to the box to take action "
        "tile d, or skip to leave it in the supply")
    refused(asked, 0, {"type": "discard_tile", "tile": "e"}, "X5")
    swapped = rules.apply(asked, 0, {"type": "discard_tile", "tile": "b"})
    assert player(swapped).tiles == ("a", "b", "d", "d")
    assert player(swapped).used == (False, False, False, False), "the used b went back first"
    assert dict(swapped.supply)["d"] == 1
    declined = rules.apply(asked, 0, SKIP)
    assert player(declined).tiles == ("a", "b", "b", "d") and dict(declined.supply)["d"] == 2
    returned_a = rules.apply(asked, 0, {"type": "discard_tile", "tile": "a"})
    assert player(returned_a).tiles == ("b", "b", "d", "d")


def test_X6_an_extra_sanctuary_field_on_a_field_with_exactly_one_drop():
    state = table(2, boards={0: BOARD}, expansion=True)
    asked = _recruit(state, "clavulinopsis_fusiformis")
    assert pending(asked).kind == "sanctuary_field" and not pending(asked).can_skip
    assert set(pending(asked).options) == {(0, 0), (1, 1), (3, 4)}
    refused(asked, 0, SKIP, "X6")
    refused(asked, 0, SKIP_REST, "X6")
    refused(asked, 0, field((0, 1)), "X6")
    placed = rules.apply(asked, 0, field((1, 1)))
    assert rules.field_type(player(placed), (1, 1)) == "sanctuary"
    assert at(placed, (1, 1)) == 0 and placed.sanctuary == 1 and placed.extra_fields == 1
    # a drop moved onto it is removed, and no spec matches it any more
    placed = with_player(placed, 0, hand=cards("coprinus_comatus"))
    placed = play(placed, 0, {"type": "play", "card": player(placed).hand[0]}, field((0, 1)),
                  move_drop((0, 1), (1, 1)))
    assert at(placed, (1, 1)) == 0 and placed.sanctuary == 2
    assert not rules.field_matches({"type": "any", "drops": 0}, "sanctuary", 0)
    # no field with exactly 1 drop, or no extra field left: no effect
    dry = table(2, boards={0: ("2 0 0 0 0", "0 0 0 0 0", "0 0 0 0 0", "0 0 0 0 0")},
                expansion=True)
    assert _recruit(dry, "clavulinopsis_fusiformis").pending is None
    spent = replace(state, extra_fields=0)
    assert _recruit(spent, "clavulinopsis_fusiformis").pending is None


def test_X7_fomes_fomentarius_lets_the_others_move_a_drop_not_the_buyer():
    state = table(3, boards={0: BOARD, 1: BOARD, 2: BOARD}, expansion=True)
    state = _recruit(state, "fomes_fomentarius")
    asked = [pending(state).seat]
    state = play(state, 1, field((2, 2)), move_drop((2, 2), (1, 2)))
    asked.append(pending(state).seat)
    state = rules.apply(state, 2, SKIP)
    assert asked == [1, 2] and state.pending is None
    assert at(state, (2, 2), 1) == 2 and state.sanctuary == 1
    assert at(state, (2, 2), 0) == 3


def test_X8_tile_e_may_remove_no_card_and_tile_d_needs_a_drop():
    """X8, rulebook "Acción e … tal y como se describe en «Eliminar cartas»" ("Si quieres,
    puedes decidir no eliminar ninguna carta"): tile e removes a card of the discard pile or
    none, also with an empty discard pile (rules version 2; the spec's "its card is
    required" is overruled)."""
    state = with_player(table(2, boards={0: BOARD}, expansion=True), 0,
                        tiles=("a", "b", "d", "e"), used=(False,) * 4, leaves=9)
    assert player(state).discard == ()
    assert [m for m in rules.legal_moves(state, 0) if m.get("tile") == "e"] == [
        {"type": "tile", "tile": "e"}]
    nothing = rules.apply(state, 0, {"type": "tile", "tile": "e"})
    assert player(nothing).leaves == 6 and player(nothing).removed == ()
    assert news(nothing) == ["tile", "trashed_none"]
    assert [e.text for e in views.events(state, 0, {}, nothing)][-1] == \
        "{p0} removed no card from the game."
    refused(nothing, 0, {"type": "tile", "tile": "e"}, "R23")       # once per turn
    state = play_card(state, 0, player(state).hand[0])
    if state.pending is not None:
        state = rules.apply(state, 0, SKIP)
    card = player(state).discard[0]
    assert {"type": "tile", "tile": "e"} in rules.legal_moves(state, 0)
    refused(state, 0, {"type": "tile", "tile": "e", "card": player(state).draw[0]}, "X8")
    trashed = rules.apply(state, 0, {"type": "tile", "tile": "e", "card": card})
    assert player(trashed).removed == (card,) and player(trashed).leaves == 6
    kept = rules.apply(state, 0, {"type": "tile", "tile": "e", "card": None})
    assert player(kept).removed == () and player(kept).discard == (card,)
    refused(state, 0, {"type": "tile", "tile": "d", "cell": [0, 3]}, "X8")
    removed = rules.apply(state, 0, {"type": "tile", "tile": "d", "cell": [2, 2]})
    assert at(removed, (2, 2)) == 2 and removed.sanctuary == state.sanctuary + 1


def test_X9_expansion_and_advanced_boards_combine_also_in_solo():
    for players in (1, 3):
        state, log = random_playout(players, seed=9, expansion=True, advanced_boards=True)
        assert state.phase == rules.OVER and log
        assert all(p.board in ADVANCED_BOARDS for p in state.seats)
    assert any(def_of(card).set == "exp" for card in new_game(1, expansion=True).market_deck)


def test_V1_each_player_a_different_back_same_starting_dew():
    for seed in range(10):
        state = new_game(4, seed, advanced_boards=True)
        assert sorted(p.board for p in state.seats) == sorted(ADVANCED_BOARDS)
        assert all(p.drops == START_DEW[state.start_dew] for p in state.seats)
    assert {new_game(2, seed, advanced_boards=True).seats[0].board for seed in range(20)} == \
        set(ADVANCED_BOARDS)


def test_V2_solo_with_advanced_boards_gets_one_random_back():
    backs = {new_game(1, seed, advanced_boards=True).seats[0].board for seed in range(30)}
    assert backs == set(ADVANCED_BOARDS)
    assert new_game(1, 3).seats[0].board == "front"
    assert len(EXP_CARDS) == 15


def test_X2_there_is_no_hand_of_cards_to_keep_and_a_card_may_remove_itself():
    """X2, rulebook "Eliminar cartas": "Si quieres, puedes decidir no eliminar ninguna carta"
    and "un héroe también puede «eliminarse a sí mismo»" — no floor of 3 cards (rules version
    2): with 2 cards of her own Ana removes the one she plays, then the other with tile e."""
    state = table(2, hands={0: ("schizophyllum_commune", "st_leaf")}, expansion=True)
    state = with_player(state, 0, draw=(), discard=(), tiles=("a", "b", "e"),
                        used=(False,) * 3, leaves=5)
    schizo, leaf = player(state).hand
    state = play_card(state, 0, leaf)
    assert {"type": "tile", "tile": "e", "card": leaf} in rules.legal_moves(state, 0)
    state = play_card(state, 0, schizo)                 # +1 & trash: itself is offered
    assert pending(state).kind == "trash" and set(pending(state).options) == {leaf, schizo}
    state = rules.apply(state, 0, {"type": "trash", "card": schizo})
    assert player(state).removed == (schizo,)
    state = rules.apply(state, 0, {"type": "tile", "tile": "e", "card": leaf})
    assert player(state).removed == (schizo, leaf)
    assert (player(state).hand, player(state).draw, player(state).discard) == ((), (), ())
    assert state.phase == rules.MAIN                    # Bo can still empty his board


def test_X2_a_trash_part_with_an_empty_discard_pile_says_so():
    """X2: nothing to remove: the part lapses, and the log says why."""
    state = with_player(table(2, expansion=True), 0, discard=())
    state = _recruit(state, "hydnum_repandum")          # once: trash
    assert state.pending is None and "no_card" in news(state)
    assert "{p0} had no card in the discard pile to remove with Hydnum repandum." in \
        [e.text for e in views.events(state, 0, {}, state)]


def _stripped(state: rules.State, seat: int, leaves: int) -> rules.State:
    """The seat owns no card any more and has ``leaves``."""
    return with_player(state, seat, hand=(), draw=(), discard=(), leaves=leaves)


def test_X2_a_table_where_no_board_can_ever_empty_ends_without_a_winner():
    """X2 (decision; rules panel "Removing cards"): once no player owns a card, and none can
    recruit one or pay for a tile that moves or removes a drop, no board can ever be emptied:
    the game ends at the end of that turn, nobody wins, nobody is placed."""
    state = table(2, expansion=True)
    cheap = min(def_of(card).cost for card in state.market)
    state = _stripped(_stripped(state, 0, 0), 1, min(cheap - 1, 2))
    assert rules.stalled(state)
    assert rules.out_of_play(state, player(state, 1))
    # a seat that could still recruit, or pay for tile b, keeps the game going
    assert not rules.stalled(with_player(state, 1, leaves=cheap))
    assert not rules.stalled(with_player(state, 1, leaves=3))
    assert not rules.stalled(with_player(state, 1, hand=cards("st_leaf")))
    over = rules.apply(state, 0, {"type": "end_turn"})
    assert over.phase == rules.OVER and "stalled" in news(over)
    result = rules.result(over)
    assert result is not None and result.winners == () and result.placed == 0
    assert result.headline.english() == ("no board could be emptied any more: the game ended "
                                         "without a winner")
    assert result.details["stalled"] is True
    lines = [e.text for e in views.events(state, 0, {}, over)]
    assert "Game over: no board could be emptied any more, and nobody won." in lines
    # with leaves for tile b the player may still act: the turn passes on
    going = rules.apply(with_player(state, 0, leaves=3), 0, {"type": "end_turn"})
    assert going.phase == rules.MAIN and going.turn == 1


def test_X2_solo_never_stalls():
    """S9: Gwidyon removes drops every turn, so a solo game always ends on a board."""
    state = _stripped(new_game(1, expansion=True), 0, 0)
    assert not rules.stalled(state)


def test_X2_the_bot_never_removes_itself_out_of_the_game():
    """X2: the game's bot removes a card only while it owns more than ``KEEP_CARDS`` (a full
    hand and one to spare): whole bot games with the expansion never stall, and no bot ever
    owns fewer than that many cards; removing no card with tile e is worth nothing to it."""
    from app.games.mycelia import bot

    assert bot.KEEP_CARDS > rules.HAND_SIZE
    for seed in range(3):
        state = new_game(3, seed, expansion=True)
        rng = random.Random(seed)
        steps = 0
        while state.phase != rules.OVER and steps < 4000:
            (seat,) = rules.active_seats(state)
            legal = rules.legal_moves(state, seat)
            move = bot.bot_move(views.view(state, seat), legal, rng)
            owned = player(state, seat)
            before = len(owned.hand) + len(owned.draw) + len(owned.discard)
            state = rules.apply(state, seat, move)
            after = player(state, seat)
            if len(after.removed) > len(owned.removed):
                assert before > bot.KEEP_CARDS
            assert not (move.get("tile") == "e" and move.get("card") is None)
            steps += 1
        assert state.phase == rules.OVER and not rules.stalled(state)
        assert all(len(p.hand) + len(p.draw) + len(p.discard) >= bot.KEEP_CARDS
                   for p in state.seats)
