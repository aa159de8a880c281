"""Random legal Arboretum games, checked at every step: cards are conserved, views and the log
never show a hidden card, and ``legal_moves`` lists exactly the moves that apply. What every
game must do (finish, replay, purity, no leaks) is tests/games/test_contract.py."""

from __future__ import annotations

import json
import random
import re
from collections import Counter
from collections.abc import Iterator
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from app.games.arboretum import GAME
from app.games.arboretum.data import SPECIES, VALUES
from app.games.arboretum.rules import ArboretumState, Card, card_name

TOTAL_CARDS = {2: 48, 3: 64, 4: 80}
MAX_MOVES = 1000  # far above any real game: the deck shrinks by at least 1 card every turn

players_st = st.sampled_from([2, 3, 4])
seed_st = st.integers(min_value=0, max_value=2**63)
mover_st = st.integers(min_value=0, max_value=2**32)
SETTINGS = settings(max_examples=30, deadline=None)

Step = tuple[ArboretumState, int, dict[str, Any], ArboretumState]


def playout(players: int, seed: int, mover: int) -> Iterator[Step]:
    """Every (before, seat, move, after) of a game of uniformly random legal moves."""
    rng = random.Random(mover)
    state = GAME.setup(players, GAME.Options(), seed)
    for _ in range(MAX_MOVES):
        active = GAME.active_seats(state)
        if not active:
            return
        seat = min(active)
        move = rng.choice(GAME.legal_moves(state, seat))
        after = GAME.apply(state, seat, move)
        yield state, seat, move, after
        state = after
    raise AssertionError(f"no end after {MAX_MOVES} moves")


def all_cards(state: ArboretumState) -> list[Card]:
    return [
        *state.deck,
        *(c for hand in state.hands for c in hand),
        *(card for plantings in state.arboreta for _, card in plantings),
        *(c for pile in state.discards for c in pile),
    ]


CARD_RE = re.compile(r'\["([a-z_]+)", (\d+)\]')


def cards_in_json(data: Any) -> set[Card]:
    """Every ``["species", value]`` pair written anywhere in ``data``'s JSON."""
    return {(s, int(v)) for s, v in CARD_RE.findall(json.dumps(data)) if s in SPECIES}


def keys(data: Any) -> Iterator[str]:
    if isinstance(data, dict):
        for key, value in data.items():
            yield key
            yield from keys(value)
    elif isinstance(data, list):
        for item in data:
            yield from keys(item)


def hidden_from(state: ArboretumState, viewer: int | None) -> set[Card]:
    """Cards ``viewer`` may not see in ``state``: the deck, and other seats' hands."""
    hidden = set(state.deck)
    if state.step != "over":
        for seat, hand in enumerate(state.hands):
            if seat != viewer:
                hidden.update(hand)
    return hidden


@SETTINGS
@given(players_st, seed_st, mover_st)
def test_random_games_end_and_conserve_cards(players: int, seed: int, mover: int) -> None:
    expected = None
    last = None
    for before, _, _, after in playout(players, seed, mover):
        if expected is None:
            expected = Counter((s, v) for s in before.species for v in VALUES)
            assert len(all_cards(before)) == TOTAL_CARDS[players]
            assert Counter(all_cards(before)) == expected
        cards = all_cards(after)
        assert len(cards) == TOTAL_CARDS[players]
        assert Counter(cards) == expected
        last = after
    assert last is not None
    assert last.step == "over" and not last.deck
    assert GAME.active_seats(last) == frozenset()
    final = GAME.result(last)
    assert final is not None
    assert sorted(final.ranking) == list(range(players))
    assert final.winners and set(final.winners) <= set(range(players))
    assert all(len(hand) <= 7 for hand in last.hands)


@SETTINGS
@given(players_st, seed_st, mover_st)
def test_views_hide_other_hands_and_the_deck(players: int, seed: int, mover: int) -> None:
    for _, _, _, after in playout(players, seed, mover):
        for viewer in [None, *range(players)]:
            view = GAME.view(after, viewer)
            assert json.loads(json.dumps(view)) == view
            shown = cards_in_json(view)
            assert not shown & hidden_from(after, viewer)
            for key in keys(view):
                assert "seed" not in key
                assert "deck" not in key or key == "deck_count"
            for seat, hand in enumerate(view["hands"]):
                assert hand["count"] == len(after.hands[seat])
                if seat == viewer or after.step == "over":
                    assert Counter(map(tuple, hand["cards"])) == Counter(after.hands[seat])
                else:
                    assert hand["cards"] is None


@SETTINGS
@given(players_st, seed_st, mover_st)
def test_events_never_name_a_hidden_card(players: int, seed: int, mover: int) -> None:
    public: set[Card] = set()  # every card that has been face up on the table
    for before, seat, move, after in playout(players, seed, mover):
        lines = GAME.events(before, seat, move, after)
        assert lines
        for plantings in after.arboreta:
            public.update(card for _, card in plantings)
        for pile in after.discards:
            public.update(pile)
        for viewer in [None, *range(players)]:
            secret = hidden_from(after, viewer) - public
            for line in lines:
                json.dumps(line.to_json())
                if not line.visible_to(viewer):
                    continue
                assert not cards_in_json(line.params) & secret
                assert not any(card_name(card) in line.text for card in secret)
        if move["type"] == "draw" and move["source"] == "deck":
            private = [line for line in lines if line.seats is not None]
            assert [line.seats for line in private] == [frozenset({seat})]
            assert card_name(before.deck[-1]) in private[0].text


@SETTINGS
@given(players_st, seed_st, mover_st)
def test_legal_moves_exactly_for_the_active_seat_and_all_apply(
    players: int, seed: int, mover: int
) -> None:
    for before, _, _, after in playout(players, seed, mover):
        for state in (before, after):
            active = GAME.active_seats(state)
            assert len(active) <= 1
            for seat in range(players):
                legal = GAME.legal_moves(state, seat)
                assert bool(legal) == (seat in active)
                for move in legal:
                    GAME.apply(state, seat, move)
                assert len({json.dumps(m) for m in legal}) == len(legal)
