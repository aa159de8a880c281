"""Evo's rule tests, and the builders they share: small hand-built positions (a state in a
given phase with chosen dinosaurs, genes, cards and initiative order).
"""

from __future__ import annotations

from dataclasses import replace

from app.games.base import NoOptions
from app.games.evo import rules
from app.games.evo.rules import State

Cell = tuple[int, int]


def new_game(players: int = 2, seed: int = 1) -> State:
    """A game as dealt, waiting for the first bid of round 1."""
    return rules.setup(players, NoOptions(), seed)


def position(
    players: int = 2,
    phase: str = rules.MOVEMENT,
    board: dict[Cell, int] | None = None,
    genes: dict[int, tuple[str, ...]] | None = None,
    hands: dict[int, tuple[str, ...]] | None = None,
    initiative: tuple[int, ...] | None = None,
    section: int = 0,
    mp: tuple[int, ...] | None = None,
    lab: tuple[str | None, ...] | None = None,
    in_force: frozenset[tuple[int, str]] = frozenset(),
    seed: int = 1,
) -> State:
    """A hand-built state: the dinosaurs of ``board``, the genes and cards given (cards
    taken from the deck), the initiative order (seat order by default), the wheel on
    ``section``, the cards in force. The phase's own fields are set as at its start
    (mutation: the lab given, no marker; a window: every holder asked; movement: the first
    mover's points; birth: the newborns and parents; survival: the choosers)."""
    state = new_game(players, seed)
    given = [c for hand in (hands or {}).values() for c in hand]
    state = replace(
        state,
        board=dict(board or {}),
        genes=tuple((genes or {}).get(s, ()) for s in range(players)),
        hands=tuple((hands or {}).get(s, ()) for s in range(players)),
        deck=tuple(c for c in state.deck if c not in given),
        initiative=initiative or tuple(range(players)),
        section=section,
        mp=mp or state.mp,
        markers=(None,) * players,
        lab=lab or (None,) * (players - 1),
        displaced=None,
        barred=(None,) * players,
        prompted=frozenset(),
        in_force=in_force,
    )
    if phase == rules.MOVEMENT:
        state = replace(state, phase=rules.MOVEMENT, turn=0)
        return replace(state, points=rules.movement_points(state, state.initiative[0]))
    if phase == rules.BIRTH:
        return rules._start_birth(replace(state, phase=rules.BIRTH), [])
    if phase == rules.SURVIVAL:
        return rules._start_survival(state, [])
    if phase in rules.WINDOWS:
        return rules._open_window(state, phase, [])
    return replace(state, phase=phase)


def advance(state: State) -> State:
    """The automatic steps from ``state`` until a seat must decide."""
    return rules._advance(state, [])


def load_die(monkeypatch, *faces: str) -> None:
    """The combat die shows ``faces`` in this order (then the last one again)."""
    shown = list(faces)

    def roll(state: State) -> tuple[str, State]:
        face = shown.pop(0) if len(shown) > 1 else shown[0]
        return face, replace(state, counter=state.counter + 1, rolls=state.rolls + 1)

    monkeypatch.setattr(rules, "_roll", roll)


def play(state: State, seat: int, move: dict) -> State:
    return rules.apply(state, seat, move)


def cells(move: dict, key: str = "to") -> Cell:
    return (move[key][0], move[key][1])
