"""Setup R1–R8, the options and the determinism of the seed."""

from __future__ import annotations

from collections import Counter

import pytest
from pydantic import ValidationError

from app.games.mycelia import rules, views
from app.games.mycelia.data import (
    BASE_CARDS,
    NEW_DEW,
    RUNES,
    START_DEW,
    STARTING_DECK,
    def_of,
)
from app.games.mycelia.rules import Options, sanctuary_capacity

from .helpers import END, new_game, with_player


def test_R1_the_sanctuary_starts_empty_with_its_capacity():
    for players, capacity in ((1, 10), (2, 10), (3, 15), (4, 20)):
        state = new_game(players)
        assert state.sanctuary == 0
        assert rules.capacity(state) == capacity == sanctuary_capacity(players)
    for bad in (0, 5, -1, True):
        with pytest.raises(ValueError):
            sanctuary_capacity(bad)


def test_R2_one_starting_dew_pattern_on_every_board():
    seen = set()
    for seed in range(60):
        state = new_game(4, seed)
        seen.add(state.start_dew)
        for player in state.seats:
            assert player.drops == START_DEW[state.start_dew]
            assert rules.total_drops(player) == 20
    assert seen == set(START_DEW), "every pattern is drawn, uniformly seeded"


def test_R3_one_new_dew_table_with_a_random_side_up():
    sides = Counter(new_game(2, seed).new_dew for seed in range(80))
    assert set(sides) <= set(NEW_DEW)
    assert {side[0] for side in sides} == {"1", "2", "3", "4"}
    assert {side[1] for side in sides} == {"A", "B"}
    assert new_game(2, 5).die is None


def test_R4_the_market_deck_and_five_face_up_cards():
    state = new_game(3)
    assert len(state.market) == 5
    assert len(state.market_deck) == 35
    assert state.market_discard == ()
    everything = Counter(def_of(card).id for card in (*state.market, *state.market_deck))
    assert everything == Counter({card.id: 2 for card in BASE_CARDS})
    assert all(def_of(card).set == "base" for card in state.market)
    assert new_game(3, 1).market != state.market, "shuffled by the seed"


def test_R5_each_player_board_tiles_leaves_and_starting_cards():
    state = new_game(4)
    everyone: set[str] = set()
    for player in state.seats:
        assert player.board == "front"
        assert player.tiles == ("a", "b") and player.used == (False, False)
        assert player.leaves == 0 and player.discard == () and player.known == 0
        assert len(player.hand) == 3 and len(player.draw) == 3
        mine = (*player.hand, *player.draw)
        assert Counter(def_of(card).id for card in mine) == Counter(
            {card.id: card.copies for card in STARTING_DECK})
        everyone |= set(mine)
    assert len(everyone) == 24 == 6 * len(RUNES), "every card instance is unique"


def test_R6_seat_0_starts_and_turns_go_clockwise():
    state = new_game(3)
    assert state.turn == 0 and rules.active_seats(state) == {0}
    for seat in (0, 1, 2):
        assert state.turn == seat
        state = with_player(state, seat, hand=())
        state = rules.apply(state, seat, END)
    assert state.turn == 0 and state.round == 2


def test_R7_options_defaults_bounds_and_words():
    options = Options()
    assert (options.expansion, options.advanced_boards, options.gwidyon_drops) == (
        False, False, 20)
    assert Options(gwidyon_drops=25).gwidyon_drops == 25
    for bad in (19, 26):
        with pytest.raises(ValidationError):
            Options(gwidyon_drops=bad)
    with pytest.raises(ValidationError):
        Options(colour="red")
    schema = Options.model_json_schema()["properties"]
    for name in ("expansion", "advanced_boards", "gwidyon_drops"):
        assert schema[name]["title"] and schema[name]["description"]
    assert rules.setup(2, {"expansion": True}, 1).expansion
    for bad_players in (0, 5, True):
        with pytest.raises(ValueError):
            rules.setup(bad_players, Options(), 1)


def test_R8_hands_and_piles_are_hidden_sizes_public():
    state = new_game(2)
    mine, theirs = views.view(state, 0)["seats"]
    assert [card["card"] for card in mine["hand"]] == list(state.seats[0].hand)
    assert theirs["hand"] is None and theirs["hand_count"] == 3
    assert mine["draw_count"] == 3 and "draw" not in mine
    assert mine["known_on_top"] == [] and theirs["known_on_top"] is None
    spectator = views.view(state, None)
    assert all(seat["hand"] is None for seat in spectator["seats"])
    public = views.view(state, 1)
    assert public["market_deck_count"] == 35 and "market_deck" not in public
    assert len(public["market"]) == 5 and public["new_dew"]["side"] == state.new_dew


def test_setup_is_deterministic_for_a_seed():
    a = new_game(4, 123, expansion=True, advanced_boards=True)
    b = new_game(4, 123, expansion=True, advanced_boards=True)
    assert a == b and rules.dump(a) == rules.dump(b)
    assert rules.load(rules.dump(a)) == a
    assert new_game(4, 124) != new_game(4, 123)
