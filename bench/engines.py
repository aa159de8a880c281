"""Engine benchmark: random full games per second, per game and player count, on one core.

    .venv/bin/python bench/engines.py [--seconds 3] [--game arboretum] [--profile arboretum:4]

Every game of ``app.games.registry.GAMES`` is played from ``setup`` to the end with uniformly
random legal moves, through the protocol only: an active seat (chosen at random when several are
active) takes a random move of ``legal_moves`` and ``apply`` plays it. The game ends when no
seat is active; ``result`` is computed once then. Each configuration runs for ``--seconds``
(at most ``--max-games`` games); a game longer than ``--max-moves`` moves counts as an error.
``--profile GAME:PLAYERS`` adds a cProfile of that configuration (top functions by own time).
"""

from __future__ import annotations

import argparse
import cProfile
import io
import os
import pstats
import random
import sys
import time
from pathlib import Path
from typing import Any

if __package__ in (None, ""):  # run as a script: make ``app`` importable
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from app.games.base import GameSpec
from app.games.registry import GAMES


def play_one(game: GameSpec, players: int, seed: int, max_moves: int) -> int:
    """One random game; returns its number of moves."""
    rng = random.Random(seed)
    state = game.setup(players, game.Options(), seed)
    for moves in range(max_moves):
        active = game.active_seats(state)
        if not active:
            game.result(state)
            return moves
        seat = min(active) if len(active) == 1 else rng.choice(sorted(active))
        legal = game.legal_moves(state, seat)
        state = game.apply(state, seat, rng.choice(legal))
    raise RuntimeError(f"{game.id}: no end after {max_moves} moves (seed {seed})")


def measure(game: GameSpec, players: int, seconds: float, max_games: int,
            max_moves: int) -> dict[str, Any]:
    games = moves = 0
    start = time.perf_counter()
    cpu0 = time.process_time()
    error = ""
    while games < max_games and time.perf_counter() - start < seconds:
        try:
            moves += play_one(game, players, 1_000 + games, max_moves)
        except Exception as exc:  # report, do not stop the other configurations
            error = f"{type(exc).__name__}: {exc}"[:80]
            break
        games += 1
    wall = time.perf_counter() - start
    cpu = time.process_time() - cpu0
    return {"game": game.id, "players": players, "games": games, "seconds": round(wall, 2),
            "games_per_s": round(games / wall, 1) if wall else 0.0,
            "moves_per_game": round(moves / games, 1) if games else 0.0,
            "us_per_move": round(1e6 * cpu / moves, 1) if moves else 0.0, "error": error}


def profile(game: GameSpec, players: int, seconds: float, max_moves: int, top: int) -> str:
    profiler = cProfile.Profile()
    deadline = time.perf_counter() + seconds
    seed = 0
    profiler.enable()
    while time.perf_counter() < deadline and seed < 10_000:
        play_one(game, players, 5_000 + seed, max_moves)
        seed += 1
    profiler.disable()
    out = io.StringIO()
    pstats.Stats(profiler, stream=out).strip_dirs().sort_stats("tottime").print_stats(top)
    return f"# cProfile of {game.id} with {players} players ({seed} games)\n{out.getvalue()}"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="random full games per second per game")
    parser.add_argument("--seconds", type=float, default=3.0, help="per configuration")
    parser.add_argument("--max-games", type=int, default=100_000)
    parser.add_argument("--max-moves", type=int, default=20_000)
    parser.add_argument("--game", action="append", help="only these games (repeatable)")
    parser.add_argument("--profile", default=None, help="GAME:PLAYERS to profile with cProfile")
    parser.add_argument("--top", type=int, default=20)
    args = parser.parse_args(argv)
    if (os.cpu_count() or 1) > 1 and hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {1})  # one core, away from CPU 0
    rows = []
    for game in GAMES.values():
        if args.game and game.id not in args.game:
            continue
        for players in range(game.min_players, game.max_players + 1):
            rows.append(measure(game, players, args.seconds, args.max_games, args.max_moves))
            print(f"# {rows[-1]}", file=sys.stderr, flush=True)
    print("| game | players | games | games/s | moves/game | µs/move (CPU) | error |")
    print("|---|---|---|---|---|---|---|")
    for r in rows:
        print(f"| {r['game']} | {r['players']} | {r['games']} | {r['games_per_s']} | "
              f"{r['moves_per_game']} | {r['us_per_move']} | {r['error']} |")
    if args.profile:
        game_id, _, players_text = args.profile.partition(":")
        print()
        print(profile(GAMES[game_id], int(players_text or 4), args.seconds, args.max_moves,
                      args.top))
    return 0


if __name__ == "__main__":
    sys.exit(main())
