"""The one leak checker every registered game passes (tests/games/test_contract.py).

A game states its hidden information as ``GameSpec.conceal(state, seat, rng)``: a state that
``seat`` (None: a spectator) cannot tell apart from ``state`` — other hands re-dealt, the deck
reshuffled, a new seed. Along a random playout, at every version and for every seat, the
checker asserts that nothing the server can send that seat differs between the true state and
a concealed twin:

- the view (so every RFC 6902 patch between two views, and the initial state, too);
- every seat's status (public: the seat bar shows it to everyone);
- the legal moves offered to it;
- the log lines it may read for the move just made, whenever the move leaves its view alike in
  both worlds (a move that reveals — Arboretum's end reveals every hand — is judged by views);
- the reason of every refusal, for moves it sends that the rules refuse.

A new seed in the twin catches a seed in any view; undo (an ordinary move) is exercised by the
random playouts of the games that have it.
"""

from __future__ import annotations

import json
import random
from typing import Any

import jsonpatch

from app.games.base import GameSpec, IllegalMove, Move


def _refusal(game: GameSpec, state: Any, seat: int, move: Move) -> str | None:
    try:
        game.apply(state, seat, move)
    except IllegalMove as exc:
        return f"{exc.reason} [{exc.rule}]"
    return None


def _probes(game: GameSpec, state: Any, seat: int, rng: random.Random) -> list[Move]:
    """Moves a seat might send: other seats' legal moves (often refused for it) and its own
    legal moves with a field changed."""
    probes: list[Move] = []
    for other in game.active_seats(state):
        if other != seat:
            probes.extend(rng.sample(game.legal_moves(state, other),
                                     k=min(2, len(game.legal_moves(state, other)))))
    own = game.legal_moves(state, seat) if seat in game.active_seats(state) else []
    for move in rng.sample(own, k=min(2, len(own))):
        for key in move:
            if key != "type":
                probes.append({**move, key: [99, 99]})
    return probes


def check_step(game: GameSpec, players: int, before: Any, mover: int, move: Move, after: Any,
               rng: random.Random) -> None:
    """Everything a seat can receive about ``after`` (and the move) is the same in a twin."""
    conceal = game.conceal
    for seat in (*range(players), None):
        twin = conceal(after, seat, rng)
        seen = game.view(after, seat)
        assert seen == game.view(twin, seat), f"view of {seat} shows hidden information"
        json.dumps(seen)
        assert [game.seat_status(after, s) for s in range(players)] == \
            [game.seat_status(twin, s) for s in range(players)], \
            f"a seat status shows {seat} hidden information"
        if seat is None:
            continue
        assert game.legal_moves(after, seat) == game.legal_moves(twin, seat)
        for probe in _probes(game, after, seat, rng):
            assert _refusal(game, after, seat, probe) == _refusal(game, twin, seat, probe), \
                f"the refusal of {probe} differs for seat {seat}"
        if before is None:
            continue
        if seat != mover:
            _check_moves_alike(game, before, mover, move, seat, seen, rng)
        twin_before = conceal(before, seat, rng)
        if game.view(twin_before, seat) != game.view(before, seat):
            continue
        try:
            twin_after = game.apply(twin_before, mover, move)
        except IllegalMove:
            continue  # the mover's own hidden cards differ in the twin: not this seat's business
        if game.view(twin_after, seat) != seen:
            continue  # the move reveals: judged by the views above
        mine = [e.to_json() for e in game.events(before, mover, move, after) if e.visible_to(seat)]
        theirs = [e.to_json() for e in game.events(twin_before, mover, move, twin_after)
                  if e.visible_to(seat)]
        assert mine == theirs, f"log lines for seat {seat} depend on hidden information"
        assert jsonpatch.make_patch(game.view(before, seat), seen).patch == \
            jsonpatch.make_patch(game.view(twin_before, seat), game.view(twin_after, seat)).patch


def _visible_lines(game: GameSpec, before: Any, mover: int, move: Move, after: Any,
                   seat: int) -> list[dict[str, Any]]:
    return [e.to_json() for e in game.events(before, mover, move, after) if e.visible_to(seat)]


def _check_moves_alike(game: GameSpec, before: Any, mover: int, move: Move, seat: int,
                       seen: Any, rng: random.Random) -> None:
    """Two moves that a seat cannot tell apart by its view (a sealed bid of 3 or of 0) must
    read alike in its log too: the twin states above replay the *same* move, so a line that
    names the move's hidden part would pass them."""
    after = game.apply(before, mover, move)
    mine = _visible_lines(game, before, mover, move, after, seat)
    legal = game.legal_moves(before, mover)
    for other in rng.sample(legal, k=min(4, len(legal))):
        if other == move:
            continue
        other_after = game.apply(before, mover, other)
        if game.view(other_after, seat) != seen:
            continue
        assert _visible_lines(game, before, mover, other, other_after, seat) == mine, \
            f"log lines for seat {seat} tell apart moves its view cannot ({move} / {other})"


def check_playout(game: GameSpec, players: int, seed: int, max_steps: int = 3000,
                  sample: float = 1.0) -> int:
    """A random playout to its end; the initial state, the last move and a ``sample`` share of
    the versions between are checked. Returns the number of moves made."""
    rng = random.Random(seed)
    state = game.setup(players, game.Options(), seed)
    check_step(game, players, None, 0, {}, state, rng)  # the initial state
    for step in range(max_steps):
        active = sorted(game.active_seats(state))
        if not active:
            return step
        mover = rng.choice(active)
        move = rng.choice(game.legal_moves(state, mover))
        after = game.apply(state, mover, move)
        if rng.random() < sample or not game.active_seats(after):
            check_step(game, players, state, mover, move, after, rng)
        state = after
    return max_steps
