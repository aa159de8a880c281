"""The game of a room as this process holds it between moves, and the tables in memory.

A :class:`Table` is the room's game at one version: the state, who sits where, the last log
lines, and each seat's view at that version (computed once, shared by every reader). Only the
room service changes a table, under the room's lock (:meth:`Tables.lock`). With several
processes, another process's move marks this process's copy as behind (``Table.heard``: the
next use applies the stored moves after it), and a change of who sits where drops it
(:meth:`Tables.drop`: the next use loads it from the database again).
"""

from __future__ import annotations

import asyncio
import itertools
import marshal
import weakref
from collections import OrderedDict, deque
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from pydantic import BaseModel

from app.games.base import Event, GameSpec, Result, SeatStatus, State
from app.games.words import Msg
from app.i18n import DEFAULT, fill_names, say, words
from app.rooms.access import Readers
from app.rooms.clocks import Clocks

#: Log lines kept in memory per room for the game log.
LOG_KEPT = 200

#: A log line: the version the move made, the seat that moved, the event.
LogLine = tuple[int, int, Event]
#: A view as stored between moves: each top-level entry's ``marshal`` bytes.
ViewData = dict[str, bytes]

#: Values of ``Table.seating``, never the same twice in a process: a table loaded again (after
#: another process changed it, or after it left the cache) never repeats a value that a socket
#: holds from its predecessor, so the socket notices that the seats may have changed.
_SEATINGS = itertools.count(1)

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
    #: Each seat's view at ``version``, each of its top-level entries as ``marshal`` bytes. A
    #: view is hundreds of small lists and dicts; kept as objects until the next move,
    #: thousands of them kept CPython's cycle collector busy (50-100 ms pauses at 500 rooms).
    #: Bytes are invisible to it, and entry by entry a patch loads only the entries whose
    #: bytes changed (:func:`app.realtime.diff.parts_diff`).
    views: dict[int | None, ViewData] = field(default_factory=dict)
    #: What every seat sees alike at ``version`` (active seats, statuses, result), computed
    #: once: every socket message of the version carries it.
    _public: tuple[list[int], list[str], Result | None] | None = None
    #: The result's JSON per language, while ``_public`` holds.
    _results: dict[str, dict[str, Any]] = field(default_factory=dict)
    #: Changes with every change to the table between moves (a seat handed to a bot or taken
    #: back, a vote, a rematch offered): with the version, the key of what the seat bar shows.
    seating: int = field(default_factory=lambda: next(_SEATINGS))
    #: The rematch offered at the end (its room), if any.
    rematch_id: int | None = None
    #: The room's pace: "live" or "turn" (by correspondence), and its limits (app/models.py).
    pace: str = "live"
    away_minutes: int = 5
    move_hours: int = 24
    #: The room's clock setting (app/models.py ``Room.clock``) and the seats' chess clocks
    #: (None: the room has none).
    clock_setting: dict[str, Any] | None = None
    clocks: Clocks | None = None
    #: When the game was dealt, and when the last move was made (epoch seconds).
    started_at: float = 0.0
    moved_at: float = 0.0
    #: When each person last had a page of the room open or moved (epoch seconds), by seat.
    last_seen: dict[int, float] = field(default_factory=dict)
    #: The players who voted to hand each away seat to a bot.
    votes: dict[int, frozenset[int]] = field(default_factory=dict)
    #: The stored end, where it holds over the rules': a game the platform ended (a seat
    #: out of time that loses), or a stored result that today's rules would count otherwise
    #: (app/rooms/store.py ``stored_end``).
    ended: Result | None = None
    #: The version of the game's rules it began under (``GameSpec.rules_version``; 1 for
    #: games stored before versions were).
    rules_version: int = 1
    #: Who may read the room (app/rooms/access.py), as it was when the table loaded: after
    #: the start its host, seats and codes do not change. None: not known here (the
    #: database is asked).
    readers: Readers | None = None
    #: The newest version another process said it stored. Above ``version``, this copy is
    #: behind: the next use catches up with the stored moves (``RoomService.current``).
    heard: int = 0
    #: When someone last looked at the table (a page of it open, its state read; epoch
    #: seconds; its load counts): a table of bots alone waits once nobody has for a while
    #: (``RoomService.unwatched``).
    watched_at: float = 0.0

    def seat_of(self, player_id: int | None) -> int | None:
        for seat, pid in self.seat_players.items():
            if pid == player_id:
                return seat
        return None

    def view(self, seat: int | None) -> dict[str, Any]:
        """The seat's view at the current version, computed once per version (read only: the
        first caller gets the game's own objects, some shared with the game's caches; later
        ones a copy)."""
        data = self.views.get(seat)
        if data is not None:
            return {key: marshal.loads(value) for key, value in data.items()}
        view = self.game.view(self.state, seat)
        self.views[seat] = {key: marshal.dumps(value) for key, value in view.items()}
        return view

    def view_data(self, seat: int | None) -> ViewData:
        """The seat's view at the current version as ``marshal`` bytes, entry by entry."""
        return self.view_now(seat)[0]

    def view_now(self, seat: int | None) -> tuple[ViewData, dict[str, Any] | None]:
        """The seat's view data, with the view itself when this call computed it (else None:
        the caller loads the entries it needs)."""
        data = self.views.get(seat)
        if data is not None:
            return data, None
        view = self.view(seat)
        return self.views[seat], view

    def _public_now(self) -> tuple[list[int], list[str], Result | None]:
        if self._public is None:
            self._public = (sorted(self.game.active_seats(self.state))
                            if not self.finished else [],
                            [self.status(seat).doing for seat in range(self.players)],
                            self.ended or self.game.result(self.state))
            self._results = {}
        return self._public

    def active(self) -> list[int]:
        """The seats the game waits for, in seat order."""
        return self._public_now()[0]

    def statuses(self) -> list[str]:
        """What each seat is doing, in seat order (public, like the seat bar)."""
        return self._public_now()[1]

    def result_json(self, locale: str = DEFAULT) -> dict[str, Any] | None:
        """The result, its words in ``locale`` (players as ``{p0}`` …); None while playing."""
        result = self._public_now()[2]
        if result is None:
            return None
        if locale not in self._results:
            self._results[locale] = result.to_json(words(locale))
        return self._results[locale]

    def status(self, seat: int) -> SeatStatus:
        return self.game.seat_status(self.state, seat)

    def reseated(self) -> None:
        """Something the seat bar shows changed between moves (its public part too: a game
        ended by a forfeit)."""
        self.seating = next(_SEATINGS)
        self._public = None

    def people_to_move(self, active: frozenset[int] | None = None) -> frozenset[int]:
        """The active seats that people play (not bots): the clocks that run."""
        if active is None:
            active = frozenset(self.active())
        return frozenset(seat for seat in active if seat not in self.seat_bots)

    def seats_json(self, present: frozenset[int], now: float) -> list[dict[str, Any]]:
        """Who plays each seat, for API clients and pages: a person (``person``: true), and
        whether a bot plays for them now (``bot``: its level); when each person was last seen
        (epoch seconds; ``here``: a page of theirs is open); the votes to hand an away seat to
        a bot and how many it needs; whether a vote may open (``overdue``)."""
        seats = []
        for seat in range(self.players):
            person = seat in self.seat_players
            seats.append({
                "seat": seat, "name": self.names[seat], "person": person,
                "bot": self.seat_bots.get(seat),
                "here": person and self.seat_players[seat] in present,
                "last_seen": round(self.last_seen[seat])
                if person and seat in self.last_seen else None,
                "votes": len(self.votes.get(seat, ())),
                "votes_needed": self.votes_needed(seat) if person else 0,
                "overdue": self.overdue(seat, present, now),
                "vote_opens": round(opens) if (opens := self.vote_opens(seat, present)) else None,
            })
        return seats

    def votes_needed(self, seat: int) -> int:
        """Votes that hand an away person's seat to a bot: a majority of the other people
        playing at the table (at least one); bots do not vote."""
        voters = [s for s in self.seat_players if s != seat and s not in self.seat_bots]
        return len(voters) // 2 + 1

    def deadline(self) -> float | None:
        """Turn-based: when the per-move time of the seats the game waits for runs out."""
        if self.pace != "turn" or self.finished:
            return None
        return round(self.moved_at + 3600 * self.move_hours)

    def away_since(self, seat: int, present: frozenset[int]) -> float | None:
        """Since when the person on ``seat`` has been away (None: a page of theirs is open,
        or a bot plays the seat). ``present``: the players with a page open now."""
        player = self.seat_players.get(seat)
        if player is None or seat in self.seat_bots or player in present:
            return None
        return self.last_seen.get(seat, self.started_at)

    def vote_opens(self, seat: int, present: frozenset[int]) -> float | None:
        """When the others may vote the seat to a bot (epoch seconds; None: not while things
        stay as they are): live, once its person has been away ``away_minutes`` with no page
        open; turn-based, once the game has waited ``move_hours`` for the seat."""
        if self.finished or seat not in self.seat_players or seat in self.seat_bots:
            return None
        if self.pace == "turn":
            return self.moved_at + 3600 * self.move_hours if seat in self.active() else None
        since = self.away_since(seat, present)
        return since + 60 * self.away_minutes if since is not None else None

    def overdue(self, seat: int, present: frozenset[int], now: float) -> bool:
        """The others may vote the seat to a bot now."""
        opens = self.vote_opens(seat, present)
        return opens is not None and now >= opens

    def moved(self, seat: int, at: float | None) -> None:
        """A person's stored move at ``at`` is a sign of life: last seen no earlier."""
        if seat in self.seat_players and at is not None and at > self.last_seen.get(seat, 0.0):
            self.last_seen[seat] = at

    @property
    def timed(self) -> bool:
        """Bots or clocks play a part here (the process running the timers must follow it)."""
        return bool(self.seat_bots) or self.clocks is not None or bool(self.clock_setting)

    def advance(self, seat: int, after: State, events: list[Event], finished: bool) -> None:
        """Move the table on by one applied move (already stored)."""
        self.state = after
        self.version += 1
        self.finished = finished
        self.views = {}
        self._public = None
        for event in events:
            self.log.append((self.version, seat, event))

    def log_for(self, seat: int | None, locale: str = DEFAULT,
                last: int | None = None) -> list[dict[str, Any]]:
        """The log lines that seat may read, oldest first, in ``locale`` with names filled in
        (a line stored before the catalogues existed reads as it was written); only the
        ``last`` of them when given (the newest are worded, not the whole log)."""
        lines: list[dict[str, Any]] = []
        for version, actor, event in reversed(self.log):
            if last is not None and len(lines) >= last:
                break
            if event.visible_to(seat):
                lines.append({
                    "version": version, "seat": actor, **event.to_json(),
                    "text": say(event.msg, locale, self.names, seat) if event.msg is not None
                    else fill_names(event.text, self.names, seat)})
        lines.reverse()
        return lines

    def waiting_for(self) -> list[Msg | str]:
        """Who the table waits for, each in words ("{p0} (drawing)", "{p1}"): a list that a
        message joins with its language's "and"."""
        parts: list[Msg | str] = [
            Msg("{player} ({doing})", {"player": f"{{p{seat}}}", "doing": Msg(doing)})
            if (doing := self.status(seat).doing) else f"{{p{seat}}}"
            for seat in self.active()]
        return parts or [Msg("nobody")]


@dataclass(frozen=True, slots=True)
class Dropped:
    """What this process remembers of a table it dropped: the seating its sockets may hold
    (kept by the table loaded next, unless the seats changed), whether bots or clocks played a
    part in it, and a mark that changes with every drop."""

    seating: int
    timed: bool | None
    mark: int


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
        #: The tables dropped since they were last loaded, oldest first (at most ``kept``).
        self._dropped: OrderedDict[int, Dropped] = OrderedDict()
        self._marks = itertools.count(1)

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
        is loaded from the database again when next used. A table loaded after a drop keeps
        the seating of the dropped one, unless the seats changed in between."""
        dropped = self._dropped.pop(table.room_id, None)
        if dropped is not None:
            table.seating = dropped.seating
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

    def all(self) -> list[Table]:
        """Every table in memory."""
        return list(self._tables.values())

    def room_ids(self) -> list[int]:
        """The rooms whose tables are in memory."""
        return list(self._tables)

    def forget(self, room_id: int) -> None:
        """Drop the room's table (the next use loads it from the database); its seats may
        have changed."""
        self.drop(room_id, reseated=True)

    def drop(self, room_id: int, reseated: bool = False) -> Table | None:
        """Drop the room's table because the database moved past it (another process stored
        a move, or ``reseated``: changed who plays the seats); returns it, if it was in
        memory. The next use loads the table from the database."""
        table = self._tables.pop(room_id, None)
        before = self._dropped.pop(room_id, None)
        timed: bool | None
        if table is not None:
            seating, timed = table.seating, table.timed
        elif before is not None:
            seating, timed = before.seating, before.timed
        else:
            seating, timed = next(_SEATINGS), None
        if reseated:
            seating = next(_SEATINGS)
        self._dropped[room_id] = Dropped(seating, timed, next(self._marks))
        while len(self._dropped) > self.kept:
            self._dropped.popitem(last=False)
        return table

    def dropped(self, room_id: int) -> Dropped | None:
        """What is remembered of the room's table since it was dropped (None: it was not, or
        it was loaded again since)."""
        return self._dropped.get(room_id)

    def mark(self, room_id: int) -> int:
        """Changes whenever the room's table is dropped: a table loaded while it changed may
        be older than the event that dropped it, and is loaded again."""
        dropped = self._dropped.get(room_id)
        return dropped.mark if dropped is not None else 0

    def drop_all(self) -> None:
        """Drop every table (this process may have missed events of the others)."""
        for room_id in list(self._tables):
            self.drop(room_id, reseated=True)
