"""Whole random games: they finish for 1–4 players with every option combination; ``apply`` is
pure; states round-trip through JSON; replaying the moves from the seed gives the same game;
every refusal names a rule; and a game is fast enough."""

from __future__ import annotations

import json
import random
import time

import pytest

from app.games.base import IllegalMove
from app.games.mycelia import rules

from .helpers import new_game, random_playout

OPTIONS = [
    pytest.param({}, id="base"),
    pytest.param({"expansion": True}, id="expansion"),
    pytest.param({"advanced_boards": True}, id="advanced"),
    pytest.param({"expansion": True, "advanced_boards": True}, id="both"),
]


@pytest.mark.parametrize("options", OPTIONS)
@pytest.mark.parametrize("players", [1, 2, 3, 4])
def test_random_games_finish_with_a_result(players, options):
    state, log = random_playout(players, seed=players * 13 + len(options), **options)
    result = rules.result(state)
    assert result is not None and log
    assert sorted(result.ranking) == list(range(players))
    assert len(result.scores) == players and set(result.winners) <= set(range(players))
    assert not rules.active_seats(state)
    if players > 1:
        assert result.winners, "an empty board wins (G4)"
        assert all(rules.total_drops(state.seats[seat]) == 0 for seat in result.winners)
    json.dumps(result.to_json())


@pytest.mark.parametrize("players", [1, 2, 3, 4])
def test_apply_is_pure_states_round_trip_and_replay_is_identical(players):
    options = {"expansion": True, "advanced_boards": players % 2 == 1}
    state = new_game(players, 77, **options)
    rng = random.Random(players)
    states, log = [state], []
    while state.phase != rules.OVER:
        seat = rng.choice(sorted(rules.active_seats(state)))
        move = rng.choice(rules.legal_moves(state, seat))
        dumped = rules.dump(state)
        state = rules.apply(state, seat, move)
        assert rules.dump(states[-1]) == dumped, "apply changed its input"
        assert rules.load(json.loads(json.dumps(rules.dump(state)))) == state
        states.append(state)
        log.append((seat, move))
    replayed = new_game(players, 77, **options)
    for seat, move in log:
        replayed = rules.apply(replayed, seat, move)
    assert replayed == state


def test_every_refusal_names_a_rule():
    rng = random.Random(5)
    state = new_game(3, 5, expansion=True)
    refused = 0
    for _ in range(400):
        if state.phase == rules.OVER:
            break
        for seat in range(3):
            for move in ({}, {"type": "nothing"}, {"type": "play", "card": None},
                         {"type": "tile", "tile": "z"}, {"type": "choose_field", "cell": [9, 9]},
                         {"type": "skip", "rest": True}, {"type": "end_turn"},
                         {"type": "buy", "card": "coprinus_comatus#1"}):
                try:
                    rules.apply(state, seat, move)
                except IllegalMove as exc:
                    refused += 1
                    assert exc.rule.strip() and exc.reason.strip()
        seat = rng.choice(sorted(rules.active_seats(state)))
        state = rules.apply(state, seat, rng.choice(rules.legal_moves(state, seat)))
    assert refused > 1000


def test_a_random_two_player_game_takes_well_under_a_second():
    start = time.perf_counter()
    games = 0
    for seed in range(5):
        random_playout(2, seed=seed)
        games += 1
    per_game = (time.perf_counter() - start) / games
    assert per_game < 0.8, f"{per_game:.2f} s per game"
