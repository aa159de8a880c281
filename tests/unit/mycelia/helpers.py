"""Shared builders for the Mycelia rule tests: games, boards, hands, moves, refusals (the
leak checker plays the game's own declaration, ``app.games.mycelia.GAME``)."""

from __future__ import annotations

import dataclasses
import random
from typing import Any

import pytest

from app.games.base import IllegalMove, Move
from app.games.mycelia import rules
from app.games.mycelia.data import card_id
from app.games.mycelia.rules import Options, Player, State

Cell = tuple[int, int]

EMPTY = "0 0 0 0 0"


def new_game(players: int = 2, seed: int = 0, **options: Any) -> State:
    return rules.setup(players, Options(**options), seed)


def grid(*rows: str) -> tuple[tuple[int, ...], ...]:
    """A board's drops from 4 rows of 5 numbers ("1 0 2 0 0")."""
    assert len(rows) == 4
    return tuple(tuple(int(n) for n in row.split()) for row in rows)


def drops(state: State, seat: int = 0) -> tuple[tuple[int, ...], ...]:
    return state.seats[seat].drops


def at(state: State, cell: Cell, seat: int = 0) -> int:
    return rules.drops_at(state.seats[seat], cell)


def with_player(state: State, seat: int, **changes: Any) -> State:
    player = dataclasses.replace(state.seats[seat], **changes)
    return dataclasses.replace(
        state, seats=(*state.seats[:seat], player, *state.seats[seat + 1:]))


def with_drops(state: State, seat: int, *rows: str) -> State:
    return with_player(state, seat, drops=grid(*rows))


def cards(*def_ids: str, start: int = 50) -> tuple[str, ...]:
    """Fresh card instances (numbered from ``start`` so they never clash with dealt ones)."""
    return tuple(card_id(def_id, start + i) for i, def_id in enumerate(def_ids))


def with_hand(state: State, seat: int, *def_ids: str, start: int = 50) -> State:
    return with_player(state, seat, hand=cards(*def_ids, start=start))


def table(players: int = 2, seed: int = 0, boards: dict[int, tuple[str, ...]] | None = None,
          hands: dict[int, tuple[str, ...]] | None = None, **options: Any) -> State:
    """A game at its first turn with the given boards (rows) and hands (definition ids);
    unlisted boards keep their starting dew, unlisted hands their dealt cards."""
    state = new_game(players, seed, **options)
    for seat in range(players):
        if boards and seat in boards:
            state = with_drops(state, seat, *boards[seat])
        if hands and seat in hands:
            state = with_hand(state, seat, *hands[seat], start=50 + 10 * seat)
    return state


def play(state: State, seat: int, *moves: Move) -> State:
    for move in moves:
        state = rules.apply(state, seat, move)
    return state


def play_card(state: State, seat: int, card: str) -> State:
    return rules.apply(state, seat, {"type": "play", "card": card})


def field(cell: Cell, count: int | None = None) -> Move:
    move: Move = {"type": "choose_field", "cell": [cell[0], cell[1]]}
    if count is not None:
        move["count"] = count
    return move


def move_drop(origin: Cell, to: Cell) -> Move:
    return {"type": "move_drop", "from": [origin[0], origin[1]], "to": [to[0], to[1]]}


SKIP: Move = {"type": "skip"}
SKIP_REST: Move = {"type": "skip", "rest": True}
END: Move = {"type": "end_turn"}


def refused(state: State, seat: int, move: Move, rule: str) -> IllegalMove:
    """Assert the move is refused naming ``rule`` and leaves the state unchanged."""
    before = rules.dump(state)
    with pytest.raises(IllegalMove) as info:
        rules.apply(state, seat, move)
    assert info.value.rule == rule, info.value.reason
    assert rules.dump(state) == before
    return info.value


def pending(state: State) -> rules.Pending:
    assert state.pending is not None, "a prompt is pending"
    return state.pending


def player(state: State, seat: int = 0) -> Player:
    return state.seats[seat]


def empty_hand_end(state: State, seat: int) -> State:
    """End the seat's turn after emptying its hand (the cards go to its discard pile)."""
    state = with_player(state, seat, discard=(*state.seats[seat].discard,
                                              *state.seats[seat].hand), hand=())
    return rules.apply(state, seat, END)


def news(state: State) -> list[str]:
    return [note.key for note in state.news]


def keeps_a_deck(state: State, seat: int, move: Move) -> bool:
    """False for a move that removes a card from the game (X2, X8) while the seat owns 3
    cards or fewer: the rules set no floor (a table of players without cards ends without a
    winner, :func:`rules.stalled`), but players down to a card or two that cannot reach their
    drops would make a random game very long."""
    owned = state.seats[seat]
    left = len(owned.hand) + len(owned.draw) + len(owned.discard)
    removes = move["type"] == "trash" or (move["type"] == "tile" and move.get("tile") == "e")
    return not removes or left > 3


def random_playout(players: int, seed: int, max_steps: int = 60000,
                   **options: Any) -> tuple[State, list[tuple[int, Move]]]:
    """A random legal game to its end (uniform among the legal moves, except that a seat
    keeps at least 3 cards, :func:`keeps_a_deck`); the final state and the move log."""
    state = new_game(players, seed, **options)
    rng = random.Random(seed)
    log: list[tuple[int, Move]] = []
    while state.phase != rules.OVER:
        assert len(log) < max_steps, "the game ended"
        seat = rng.choice(sorted(rules.active_seats(state)))
        legal = rules.legal_moves(state, seat)
        assert legal, f"seat {seat} is active but has no legal move"
        move = rng.choice([m for m in legal if keeps_a_deck(state, seat, m)] or legal)
        state = rules.apply(state, seat, move)
        log.append((seat, move))
    return state, log
