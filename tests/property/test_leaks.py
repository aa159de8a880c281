"""Hidden information never leaks, for every game and player count (tests/leakcheck.py)."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from app.games.registry import GAMES
from tests.leakcheck import check_playout

CASES = [(gid, n) for gid, g in sorted(GAMES.items())
         for n in range(g.min_players, g.max_players + 1)]


@pytest.mark.parametrize(("game_id", "players"), CASES)
@settings(max_examples=2, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**31 - 1))
def test_no_seat_learns_what_it_may_not_see(game_id: str, players: int, seed: int) -> None:
    """Whole random games, from the deal to the final result."""
    game = GAMES[game_id]
    moves = check_playout(game, players, seed, max_steps=3000, sample=0.15)
    assert 10 < moves < 3000, "the playout reached the end of the game"


def test_the_checker_catches_a_leak(monkeypatch) -> None:
    """A view that shows the deck's top card must fail the check."""
    from app.games.arboretum import views

    game = GAMES["arboretum"]
    real = views.view

    def leaky(state, seat):
        return {**real(state, seat), "peek": list(state.deck[-1]) if state.deck else None}

    monkeypatch.setattr(type(game), "view", staticmethod(leaky))
    with pytest.raises(AssertionError, match="hidden information"):
        check_playout(game, 2, seed=1, max_steps=5)


def test_the_checker_catches_a_leaking_log_line(monkeypatch) -> None:
    from app.games.arboretum import views
    from app.games.base import Event

    game = GAMES["arboretum"]
    real = views.events

    def leaky(before, seat, move, after):
        lines = real(before, seat, move, after)
        if move["type"] == "draw" and move["source"] == "deck":
            card = after.hands[seat][-1]
            lines.append(Event("leak", f"{{p{seat}}} drew {card}"))
        return lines

    monkeypatch.setattr(type(game), "events", staticmethod(leaky))
    with pytest.raises(AssertionError, match="log lines"):
        check_playout(game, 2, seed=1, max_steps=30)
