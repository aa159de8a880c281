"""The Evergreen bot: legal, finishes its act phases, fast, and beats a random player."""

from __future__ import annotations

import random
import time

from app.games.base import Move
from app.games.evergreen import GAME


def random_move(legal: list[Move], rng: random.Random) -> Move:
    """A random legal move; it ends its act phase early now and then (fewer moves)."""
    if {"type": "done"} in legal and rng.random() < 0.3:
        return {"type": "done"}
    return rng.choice([m for m in legal if m["type"] != "undo"] or legal)


def play_game(players: int, seed: int, bots: set[int]) -> tuple[tuple[int, ...], int]:
    state = GAME.setup(players, GAME.Options(), seed)
    rng = random.Random(seed)
    moves = 0
    while (result := GAME.result(state)) is None:
        seat = min(GAME.active_seats(state))
        legal = GAME.legal_moves(state, seat)
        if seat in bots:
            move = GAME.bot_move(GAME.view(state, seat), legal, rng)
            assert move in legal
        else:
            move = random_move(legal, rng)
        state = GAME.apply(state, seat, move)
        moves += 1
    return result.winners, moves


def test_bot_beats_a_random_player():
    wins = 0
    for game in range(100):
        bot_seat = game % 2
        winners, _ = play_game(2, 1000 + game, {bot_seat})
        wins += winners == (bot_seat,)
    print(f"bot won {wins}/100")
    assert wins >= 90


def test_bot_four_player_game_is_fast_and_ends_every_act_phase():
    start = time.perf_counter()
    winners, moves = play_game(4, 77, {0, 1, 2, 3})
    elapsed = time.perf_counter() - start
    assert len(winners) == 1 and moves > 14 * 4 * 2
    assert elapsed < 3.0, elapsed


def test_bot_solo_scores_like_a_sensible_player():
    scores = []
    for seed in range(8):
        state = GAME.setup(1, GAME.Options(), seed)
        rng = random.Random(seed)
        while GAME.result(state) is None:
            legal = GAME.legal_moves(state, 0)
            state = GAME.apply(state, 0, GAME.bot_move(GAME.view(state, 0), legal, rng))
        result = GAME.result(state)
        assert result is not None
        scores.append(result.scores[0])
        assert result.details["title"] is not None
    assert sum(scores) / len(scores) > 110
