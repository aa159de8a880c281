"""The Game protocol: the one small interface every game implements (DESIGN.md §2).

A game is a value (``GAME`` in ``app/games/<id>/__init__.py``) whose rules are pure functions:

- ``setup(players, options, seed)`` builds the initial state, deterministically for a seed;
- ``active_seats(state)`` says who may act now (several seats in a simultaneous phase);
- ``legal_moves(state, seat)`` lists every concrete legal move as a JSON object;
- ``apply(state, seat, move)`` returns the next state or raises :class:`IllegalMove`;
- ``view(state, seat)`` is what that seat (``None``: a spectator) may see — hidden information
  is removed here and nowhere else;
- ``events(before, seat, move, after)`` describes an applied move for the game log;
- ``result(state)`` gives the final scores once the game is over;
- ``done_for_now(state, seat)`` tells a seat that finished its part of a phase from one that
  waits for its turn;
- ``dump(state)`` / ``load(data)`` turn a state into JSON and back (the database stores JSON);
- ``bot_move(view, legal, rng)`` lets a bot choose a move from what its seat can see.

The platform (lobby, rooms, realtime) only ever talks to games through this protocol and the
registry. Undo is an ordinary move of the games that allow it (``{"type": "undo"}``), so the
platform needs no special case for it; simultaneous phases are several active seats.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any, Protocol, runtime_checkable

from pydantic import BaseModel, ConfigDict

JSON = dict[str, Any]
Move = dict[str, Any]


class IllegalMove(Exception):
    """A move that the rules refuse in the current state.

    ``rule`` names the rule it breaks (a rulebook section or a spec clause id), so that the
    player learns *why*; ``reason`` is the sentence shown to them. The reason must only mention
    what the moving seat may see.
    """

    def __init__(self, reason: str, rule: str = "") -> None:
        super().__init__(reason)
        self.reason = reason
        self.rule = rule

    def __str__(self) -> str:
        return f"{self.reason} ({self.rule})" if self.rule else self.reason


class NoOptions(BaseModel):
    """Options of a game that has none."""

    model_config = ConfigDict(extra="forbid")


@dataclass(frozen=True)
class Event:
    """One line of the game log.

    ``key`` and ``params`` let a client localize the line; ``text`` is the English sentence.
    ``seats`` is ``None`` for a public line, otherwise the only seats that may read it (for
    instance the card a player drew from the deck). Every public line must be safe for all.
    """

    key: str
    text: str
    params: JSON = field(default_factory=dict)
    seats: frozenset[int] | None = None

    def visible_to(self, seat: int | None) -> bool:
        return self.seats is None or (seat is not None and seat in self.seats)

    def to_json(self) -> JSON:
        return {"key": self.key, "text": self.text, "params": self.params}


@dataclass(frozen=True)
class Result:
    """The end of a game: one score per seat, the ranking and the winners.

    ``ranking`` lists seats best first (tie-breaks applied); ``winners`` may hold several seats
    where the rules allow a shared win. ``details`` is a JSON-ready, per-game breakdown (paths
    scored, points per season …) that the final screen shows.
    """

    scores: tuple[int, ...]
    ranking: tuple[int, ...]
    winners: tuple[int, ...]
    details: JSON = field(default_factory=dict)

    def to_json(self) -> JSON:
        return {
            "scores": list(self.scores),
            "ranking": list(self.ranking),
            "winners": list(self.winners),
            "details": self.details,
        }


@runtime_checkable
class Game(Protocol):
    """What the platform needs from a game (see the module docstring)."""

    # Read-only attributes (properties here, plain class attributes in a game).
    @property
    def id(self) -> str: ...

    @property
    def title(self) -> str: ...

    @property
    def min_players(self) -> int: ...

    @property
    def max_players(self) -> int: ...

    @property
    def Options(self) -> type[BaseModel]: ...

    @property
    def summary(self) -> str:
        """One-sentence description shown in the lobby."""

    @property
    def template(self) -> str:
        """Jinja2 template (under the game's ``templates/`` folder, prefixed by the game id)
        rendering the table from a view."""

    @property
    def regions(self) -> tuple[str, ...]:
        """Names of the template's blocks; each fills one element with that ``id`` and is
        pushed to browsers as an out-of-band fragment when its HTML changes."""

    def setup(self, players: int, options: BaseModel, seed: int) -> Any: ...

    def active_seats(self, state: Any) -> frozenset[int]: ...

    def legal_moves(self, state: Any, seat: int) -> list[Move]: ...

    def apply(self, state: Any, seat: int, move: Move) -> Any: ...

    def events(self, before: Any, seat: int, move: Move, after: Any) -> list[Event]: ...

    def view(self, state: Any, seat: int | None) -> JSON: ...

    def done_for_now(self, state: Any, seat: int) -> IllegalMove | None:
        """Why a seat that is not active has already finished its part of the current phase
        (Evergreen: it sent ``done``) — its moves then conflict with the phase (409) — or
        ``None`` when the seat simply waits for its turn (403)."""

    def result(self, state: Any) -> Result | None: ...

    def dump(self, state: Any) -> JSON: ...

    def load(self, data: JSON) -> Any: ...

    def bot_move(self, view: JSON, legal: list[Move], rng: random.Random) -> Move: ...


def seeded_rng(*parts: object) -> random.Random:
    """A deterministic RNG from a seed and counters: ``seeded_rng(seed, "deal")``.

    Games keep their seed (and a draw counter where they shuffle more than once) inside the
    state, so that ``setup(seed)`` plus the move log replays to the identical state.
    """
    return random.Random(":".join(str(p) for p in parts))


def require_move_type(move: Move, allowed: tuple[str, ...]) -> str:
    """The move's ``type``, or :class:`IllegalMove` naming the types this game knows."""
    kind = move.get("type") if isinstance(move, dict) else None
    if not isinstance(kind, str) or kind not in allowed:
        raise IllegalMove(
            f"unknown move type {kind!r}; expected one of: {', '.join(allowed)}", "move format"
        )
    return kind
