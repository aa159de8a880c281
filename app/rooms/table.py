"""The game of a room as this process holds it between moves, and the tables in memory.

A :class:`Table` is the room's game at one version: the state, who sits where, the last log
lines, and each seat's view at that version (computed once, shared by every reader). Only the
room service changes a table, under the room's lock (:meth:`Tables.lock`).
"""

from __future__ import annotations

import asyncio
import marshal
import re
import weakref
from collections import OrderedDict, deque
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from pydantic import BaseModel

from app.games.base import Event, GameSpec, SeatStatus, State

#: Log lines kept in memory per room for the game log.
LOG_KEPT = 200

#: A log line: the version the move made, the seat that moved, the event.
LogLine = tuple[int, int, Event]

_PLACEHOLDER = re.compile(r"\{p(\d)('s)?\}")
#: Where a sentence starts: the text's start, or after a full stop, colon or semicolon.
_SENTENCE_START = re.compile(r"(?:^|[.!?]\s+)$")


def fill_names(text: str, names: list[str], reader: int | None = None) -> str:
    """Replace the ``{p0}`` … and ``{p0's}`` … placeholders of an event text by the players'
    names and possessives — "you" and "your" for the ``reader``'s own seat, capitalised where
    a sentence starts — in one pass: a player named ``{p1}`` is shown as typed, never as the
    other player."""
    def name(match: re.Match[str]) -> str:
        index = int(match.group(1))
        possessive = match.group(2) is not None
        if index >= len(names):
            return match.group(0)
        if index != reader:
            return names[index] + ("'s" if possessive else "")
        word = "your" if possessive else "you"
        starts = _SENTENCE_START.search(text, 0, match.start()) is not None
        return word.capitalize() if starts else word

    return _PLACEHOLDER.sub(name, text)


@dataclass
class Table:
    """A running game in memory."""

    room_id: int
    game_row_id: int
    game: GameSpec
    seed: int
    players: int
    options: BaseModel
    state: State
    version: int
    seat_players: dict[int, int]  # seat -> player id (people only)
    seat_bots: dict[int, str]  # seat -> bot level
    names: list[str]
    finished: bool = False
    log: deque[LogLine] = field(default_factory=lambda: deque(maxlen=LOG_KEPT))
    #: Each seat's view at ``version`` as ``marshal`` bytes. A view is hundreds of small lists
    #: and dicts; kept as objects until the next move, thousands of them kept CPython's cycle
    #: collector busy (50-100 ms pauses at 500 rooms). Bytes are invisible to it; ``view()``
    #: hands out fresh copies.
    views: dict[int | None, bytes] = field(default_factory=dict)
    #: What every seat sees alike at ``version`` (active seats, statuses, result), computed
    #: once: every socket message of the version carries it.
    _public: tuple[list[int], list[str], dict[str, Any] | None] | None = None

    def seat_of(self, player_id: int | None) -> int | None:
        for seat, pid in self.seat_players.items():
            if pid == player_id:
                return seat
        return None

    def view(self, seat: int | None) -> dict[str, Any]:
        """The seat's view at the current version (computed once per version; each caller
        gets its own copy)."""
        data = self.views.get(seat)
        if data is not None:
            view: dict[str, Any] = marshal.loads(data)
            return view
        view = self.game.view(self.state, seat)
        self.views[seat] = marshal.dumps(view)
        return view

    def view_data(self, seat: int | None) -> bytes:
        """The seat's view at the current version as ``marshal`` bytes."""
        data = self.views.get(seat)
        if data is None:
            self.view(seat)
            data = self.views[seat]
        return data

    def _public_now(self) -> tuple[list[int], list[str], dict[str, Any] | None]:
        if self._public is None:
            result = self.game.result(self.state)
            self._public = (sorted(self.game.active_seats(self.state)),
                            [self.status(seat).doing for seat in range(self.players)],
                            result.to_json() if result is not None else None)
        return self._public

    def active(self) -> list[int]:
        """The seats the game waits for, in seat order."""
        return self._public_now()[0]

    def statuses(self) -> list[str]:
        """What each seat is doing, in seat order (public, like the seat bar)."""
        return self._public_now()[1]

    def result_json(self) -> dict[str, Any] | None:
        return self._public_now()[2]

    def status(self, seat: int) -> SeatStatus:
        return self.game.seat_status(self.state, seat)

    def advance(self, seat: int, after: State, events: list[Event], finished: bool) -> None:
        """Move the table on by one applied move (already stored)."""
        self.state = after
        self.version += 1
        self.finished = finished
        self.views = {}
        self._public = None
        for event in events:
            self.log.append((self.version, seat, event))

    def log_for(self, seat: int | None) -> list[dict[str, Any]]:
        """The log lines that seat may read, oldest first, names filled in."""
        return [
            {"version": version, "seat": actor, **event.to_json(),
             "text": fill_names(event.text, self.names, seat)}
            for version, actor, event in self.log
            if event.visible_to(seat)
        ]

    def waiting_for(self) -> str:
        """Who the table waits for, in plain words: "Ana (drawing)", "Ana and Bo"."""
        parts = []
        for seat in self.active():
            doing = self.status(seat).doing
            parts.append(f"{self.names[seat]} ({doing})" if doing else self.names[seat])
        return " and ".join(parts) or "nobody"


class Tables:
    """The tables in memory, least recently used first, at most ``kept`` of them, and one
    lock per room.

    A lock lives while someone holds or awaits it (weak values): one lock per room at any
    time, and none kept for rooms nobody plays.
    """

    def __init__(self, kept: int) -> None:
        self.kept = kept
        self._tables: OrderedDict[int, Table] = OrderedDict()
        self._locks: weakref.WeakValueDictionary[int, asyncio.Lock] = \
            weakref.WeakValueDictionary()

    def lock(self, room_id: int) -> asyncio.Lock:
        lock = self._locks.get(room_id)
        if lock is None:
            lock = self._locks[room_id] = asyncio.Lock()
        return lock

    def get(self, room_id: int) -> Table | None:
        """The room's table if it is in memory (marked as just used)."""
        table = self._tables.get(room_id)
        if table is not None:
            self._tables.move_to_end(room_id)
        return table

    def peek(self, room_id: int) -> Table | None:
        """The room's table if it is in memory (its place in the order unchanged)."""
        return self._tables.get(room_id)

    def put(self, table: Table, busy: Callable[[int], bool]) -> None:
        """Keep ``table``; drop the least recently used tables beyond ``kept`` that no move
        holds the lock of and ``busy`` does not claim (a bot about to move). A dropped table
        is loaded from the database again when next used."""
        self._tables[table.room_id] = table
        excess = len(self._tables) - self.kept
        for room_id in list(self._tables):
            if excess <= 0:
                return
            lock = self._locks.get(room_id)
            if (lock is not None and lock.locked()) or busy(room_id):
                continue
            del self._tables[room_id]
            excess -= 1

    def forget(self, room_id: int) -> None:
        """Drop the room's table (the next use loads it from the database)."""
        self._tables.pop(room_id, None)
