"""SET-1…7: setup, including the rulebook's (DE) setup example."""

from __future__ import annotations

from dataclasses import replace

import pytest
from pydantic import ValidationError

from app.games.base import seeded_rng
from app.games.evergreen import GAME, rules
from app.games.evergreen.data import CARDS, ROW_SIZE, START_POINTS

from .helpers import new_game


def test_set_1_players_seats_and_the_solo_automa():
    for players in (1, 2, 3, 4):
        state = new_game(players)
        assert len(state.boards) == players
        assert rules.participants(state) == (2 if players == 1 else players)
    assert rules.automa(new_game(1)) == 1
    assert rules.automa(new_game(3)) is None
    for bad in (0, 5, True):
        with pytest.raises(ValueError):
            rules.setup(bad, rules.Options(), 1)
    assert (GAME.min_players, GAME.max_players) == (1, 4)


def test_set_2_empty_planets_tracks_at_zero_no_cards():
    for seed in range(5):
        state = new_game(4, seed)
        for board in state.boards:
            assert board.planet == {}
            assert board.tracks == (0,) * 6
            assert board.bloom == 0 and board.light == () and board.forest == ()
            assert board.score == board.start
        assert state.fronts == ((), (), (), ())


def test_set_3_sun_start_option():
    assert new_game(2).sun == "N"
    assert rules.Options().sun_start == "N"
    assert new_game(2, sun="E").sun == "E"
    assert GAME.setup(2, GAME.Options(sun_start="W"), 3).sun == "W"
    with pytest.raises(ValidationError):
        GAME.Options(sun_start="X")
    with pytest.raises(ValidationError):
        GAME.Options(colour="red")


def test_set_4_first_player_and_starting_points():
    firsts = {new_game(4, seed).first for seed in range(40)}
    assert firsts == {0, 1, 2, 3}
    for seed in range(10):
        state = new_game(4, seed)
        for seat, board in enumerate(state.boards):
            assert board.start == START_POINTS[(seat - state.first) % 4]
        assert sorted(board.start for board in state.boards) == [0, 1, 2, 3]
    solo = {new_game(1, seed).first: new_game(1, seed).boards[0].start for seed in range(20)}
    assert solo == {0: 0, 1: 1}  # 0 if the player starts, 1 if the automa starts
    assert new_game(3, 7) == new_game(3, 7)


def test_set_5_reveal_until_five_icons():
    deck = (6, 1, 13, 2, 7, 3, 4)
    zone, back, rest = rules.reveal_fertility(deck)
    assert zone[0] == ((1, True), (2, True)) and zone[1] == ((7, True),)
    assert back == (6, 13) and rest == (3, 4)
    zone, back, rest = rules.reveal_fertility((2, 5, 7, 8))
    assert back == () and rest == (8,)  # 2 + 2 < 5, then card 7 makes 6
    for seed in range(30):
        state = new_game(2, seed)
        icons = [CARDS[c].icons for pile in state.zone for c, _ in pile]
        assert sum(icons) >= 5
        assert all(up for pile in state.zone for _, up in pile)


def test_set_6_setup_example_de():
    """DE: cards 1, 3, 5 to the zone (4 icons after card 3, 6 after card 5), 2 and 4 back.

    The ES text calls card 4 a 1-icon card, which contradicts its own numbers; the DE text
    (card 4 an aridity card) is followed (spec 2.9)."""
    state = new_game(2)
    top = (2, 13, 20, 11, 33)
    deck = top + tuple(c for c in range(1, 43) if c not in top)
    dealt = rules.deal_fertility(replace(state, counter=5), deck)
    assert dealt.zone == (((2, True),), (), (), ((20, True),), (), ((33, True),))
    assert len(dealt.deck) == 39 and {13, 11} <= set(dealt.deck)
    assert sorted(dealt.deck) == sorted(c for c in range(1, 43) if c not in (2, 20, 33))
    assert dealt.counter == 6  # one reshuffle
    assert rules.fertility(dealt.zone) == {
        "snow": 2, "swamp": 0, "rock": 0, "flowers": 2, "wheat": 0, "meadow": 2,
    }  # fmt: skip


def test_set_6_non_fertility_cards_go_back_and_the_deck_is_reshuffled():
    for seed in range(10):
        state = new_game(2, seed)
        zone_cards = [c for pile in state.zone for c, _ in pile]
        assert all(CARDS[c].top == "fertility" for c in zone_cards)
        held = len(state.deck) + len(zone_cards) + ROW_SIZE[2]
        assert held + sum(len(f) for f in state.fronts) == 42
    assert new_game(2, 1).deck != new_game(2, 2).deck


def test_set_7_discard_and_zone_start():
    state = new_game(3, 4)
    assert state.discard == ()
    assert len(state.zone) == 6
    # the piles hold the setup cards in reveal order (the first shuffle of the seed)
    deck = list(range(1, 43))
    seeded_rng(4, "shuffle", 0).shuffle(deck)
    zone, _, _ = rules.reveal_fertility(tuple(deck))
    assert state.zone == zone
