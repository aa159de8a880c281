"""A game's past rebuilt from its move log — trusted only where it reproduces what was stored.

A stored move is a fact: it happened under the rules of its day. Loading a game never
re-judges it (:meth:`app.rooms.store.GameStore.load` starts from the stored snapshot and the
stored log lines). Only what was never stored is rebuilt here, by replaying the log from the
seed under today's rules: the log lines of moves stored before migration 0003, and a
replay's state at every version. Today's rules may refuse a move that was legal when it was
played (Evergreen's POW-3 fix), or deal differently from the same seed after a change of the
component data; so a rebuilt past counts only when it ends exactly at the stored snapshot.
Where it does not, :func:`rebuild` says so (:class:`Diverged`), and the readers show what was
stored instead: the result, the final board, the stored log lines, and a line that says what
is missing (:func:`log_unavailable`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from pydantic import BaseModel

from app.games.base import Event, GameSpec, IllegalMove, Move, State
from app.games.words import Msg
from app.rooms.table import LogLine

#: A stored move as the log needs it: its version, its seat, its stored log lines (None:
#: stored before log lines were) and when it was made.
StoredLines = tuple[int, int, list[Event] | None, datetime | None]


@dataclass(frozen=True)
class Rebuilt:
    """The past as today's rules replay it, ending at the stored snapshot."""

    #: The state at every version (``states[v]``; 0 is the deal), when asked for.
    states: list[State]
    #: Each move's log lines as today's rules word them (``events[v - 1]`` made version v).
    events: list[list[Event]]


class Diverged(Exception):
    """Today's rules do not reproduce the stored game: ``version`` is the first version they
    could not make (a refused move, or the end when the replay ended elsewhere), ``why`` says
    how, for the server's log."""

    def __init__(self, version: int, why: str) -> None:
        super().__init__(f"at version {version}: {why}")
        self.version = version
        self.why = why


def rebuild(game: GameSpec, players: int, options: BaseModel, seed: int,
            moves: Sequence[tuple[int, Move]], stored: State, *,
            keep_states: bool = False) -> Rebuilt:
    """Replay ``moves`` (seat, move) from ``setup(players, options, seed)`` under today's
    rules; :class:`Diverged` unless every move applies and the last state equals ``stored``
    (compared as ``dump`` JSON)."""
    try:
        state = game.setup(players, options, seed)
    except Exception as exc:  # today's setup refuses the stored options or seed
        raise Diverged(0, f"setup failed: {exc!r}") from None
    states, events = [state] if keep_states else [], []
    for version, (seat, move) in enumerate(moves, start=1):
        try:
            after = game.apply(state, seat, move)
            events.append(game.events(state, seat, move, after))
        except IllegalMove as exc:
            raise Diverged(version, f"today's rules refuse it: {exc}") from None
        except Exception as exc:  # a rule written for states this game never reached
            raise Diverged(version, f"today's rules failed on it: {exc!r}") from None
        state = after
        if keep_states:
            states.append(state)
    if game.dump(state) != game.dump(stored):
        raise Diverged(len(moves), "today's rules end at another state than the one stored")
    return Rebuilt(states, events)


def log_unavailable(until: datetime | None) -> Event:
    """The public line that stands for log lines that cannot be rebuilt: those of the moves
    made up to ``until`` (the last of them), stored before log lines were."""
    if until is None:
        return Event.say("log.unavailable", Msg(
            "The log of the earlier moves is not available: they were stored by an earlier "
            "version of this server."))
    return Event.say("log.unavailable", Msg(
        "The log of the moves up to {date} is not available: they were stored by an earlier "
        "version of this server.", {"date": until.date()}))


def past_log(moves: Sequence[StoredLines], rebuilt: Rebuilt | None) -> list[LogLine]:
    """The log lines of ``moves`` (every move from the first): the stored lines, the rebuilt
    ones for moves stored without them, or — where the past could not be rebuilt — one line
    in their place saying so."""
    unlogged = [move for move in moves if move[2] is None]
    lines: list[LogLine] = []
    if rebuilt is None and unlogged:
        version, seat, _, made = unlogged[-1]
        lines.append((version, seat, log_unavailable(made)))
    for version, seat, events, _ in moves:
        if events is None:
            if rebuilt is None:
                continue
            events = rebuilt.events[version - 1]
        lines += [(version, seat, event) for event in events]
    return lines
