"""Shared builders for the Evergreen rule tests."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from app.games.base import IllegalMove, Move
from app.games.evergreen import rules
from app.games.evergreen.data import ROW_SIZE
from app.games.evergreen.rules import Board, Options, State, Turn

Cell = tuple[int, int]


def new_game(players: int = 2, seed: int = 0, sun: str = "N") -> State:
    return rules.setup(players, Options(sun_start=sun), seed)


def act_state(
    card: int,
    planet: dict[Cell, str] | None = None,
    players: int = 1,
    tracks: tuple[int, ...] = (0, 0, 0, 0, 0, 0),
    others: tuple[int, ...] = (42, 41, 40),
) -> State:
    """A state in the act phase where seat 0 took ``card`` and has ``planet``."""
    state = new_game(players)
    count = rules.participants(state)
    used = {card, *others[: count - 1]}
    fronts = ((card,), *((c,) for c in others[: count - 1]))
    boards = tuple(
        replace(board, planet=dict(planet or {}) if s == 0 else {}, tracks=tracks)
        for s, board in enumerate(state.boards)
    )
    zone_cards = {c for pile in state.zone for c, _ in pile}
    return replace(
        state,
        phase=rules.ACT,
        row=(None,) * ROW_SIZE[players],
        deck=tuple(c for c in range(1, 43) if c not in used and c not in zone_cards),
        discard=(),
        fronts=fronts,
        marker_holder=0,
        marker_slot=None,
        boards=boards,
        turns=tuple(Turn(origin=board) for board in boards),
    )


def select_state(players: int, row: tuple[int, ...], first: int = 0) -> State:
    """A state at the start of a selection with the given row and first player."""
    state = new_game(players)
    zone_cards = {c for pile in state.zone for c, _ in pile}
    deck = tuple(c for c in range(1, 43) if c not in row and c not in zone_cards)
    return replace(
        state,
        phase=rules.SELECT,
        row=row,
        deck=deck,
        discard=(),
        fronts=tuple(() for _ in range(rules.participants(state))),
        first=first,
        marker_holder=first,
        marker_slot=None,
        turns=(),
    )


def cell_move(kind: str, cell: Cell, by: str | None = None) -> Move:
    move: Move = {"type": kind, "cell": [cell[0], cell[1]]}
    if by is not None:
        move["by"] = by
    return move


def play(state: State, seat: int, *moves: Move) -> State:
    for move in moves:
        state = rules.apply(state, seat, move)
    return state


def refused(state: State, seat: int, move: Move, rule: str) -> IllegalMove:
    """Assert the move is refused naming ``rule`` and leaves the state unchanged."""
    before = rules.dump(state)
    with pytest.raises(IllegalMove) as info:
        rules.apply(state, seat, move)
    assert info.value.rule == rule, info.value.reason
    assert rules.dump(state) == before
    return info.value


def board(state: State, seat: int = 0) -> Board:
    return state.boards[seat]


def finish_round(state: State) -> State:
    """Everybody picks the card nearest the deck, then sends done."""
    while state.phase == rules.SELECT:
        (seat,) = rules.active_seats(state)
        state = rules.apply(state, seat, rules.legal_moves(state, seat)[0])
    while state.phase == rules.ACT:
        seat = min(rules.active_seats(state))
        state = rules.apply(state, seat, {"type": "done"})
    return state


def random_playout(
    players: int, seed: int, done_bias: float = 0.3
) -> tuple[State, list[tuple[int, Move]]]:
    """A random legal game; returns the final state and the move log."""
    state = new_game(players, seed)
    rng = random.Random(seed)
    log: list[tuple[int, Move]] = []
    while state.phase != rules.OVER:
        seat = rng.choice(sorted(rules.active_seats(state)))
        legal = rules.legal_moves(state, seat)
        if rng.random() < done_bias and {"type": "done"} in legal:
            move: Move = {"type": "done"}
        else:
            move = rng.choice(legal)
        state = rules.apply(state, seat, move)
        log.append((seat, move))
    return state, log
