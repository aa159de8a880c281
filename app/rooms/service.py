"""A move's life (DESIGN.md §3), read top to bottom in :meth:`RoomService._play`:

1. take the room's lock (moves of one room are applied one at a time, in order);
2. find the table (in memory, else loaded from the snapshot);
3. check the mover: a seat, the game not over, the version it saw, its turn or its prompt;
4. ``apply`` (the game refuses an illegal move with the rule it breaks);
5. store the move and the new snapshot, and wait for the commit;
6. only then move the table on, publish :class:`GameMoved` and set the bots moving.

Every refusal leaves the database and the table untouched. The service also answers what a
caller may read: its state, its legal moves and its log.

With several processes, the others' events reach :meth:`RoomService.heard` (the Redis hub): a
cached table the database moved past catches up at its next use, and the process holding the
lease (:mod:`app.rooms.lease`) sets the room's bots and clocks moving.
"""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

from anyio import to_thread
from sqlalchemy.engine import Engine

from app.db import MoveWriter, move_writer
from app.errors import ApiError
from app.games.base import IllegalMove, Move
from app.games.words import Msg
from app.i18n import DEFAULT
from app.rooms.access import Keys, Readers, load_readers
from app.rooms.bots import Bots
from app.rooms.clocks import Clocks, ran_out_line
from app.rooms.events import GameMoved, Hub, LobbyChanged, PresenceChanged, RoomEvent
from app.rooms.lease import AlwaysHeld, Lease
from app.rooms.seating import Seating
from app.rooms.store import GameStore, StaleTable
from app.rooms.table import Table, Tables
from app.rooms.timekeeper import Timekeeper

if TYPE_CHECKING:
    from app.observe import Metrics

#: Tries in a row to bring a table up to the stored version while other processes keep
#: moving it on; then it is used as it is (the resync catches up with anything newer).
LOADS_IN_A_ROW = 3

#: The largest move (as compact JSON) the service accepts: a move is stored for ever in the
#: move log and replayed, so a client must not be able to park megabytes in it.
MOVE_MAX_BYTES = 16_384


def _retrieve(task: asyncio.Future[Any]) -> None:
    """Done callback: read the outcome of a move whose caller went away (no warning)."""
    if not task.cancelled():
        task.exception()


def check_move_shape(move: Any, fields: Mapping[str, frozenset[str]]) -> Move:
    """A move is a JSON object of at most ``MOVE_MAX_BYTES`` with no field its type does not
    carry (the game refuses unknown types and bad values itself)."""
    if not isinstance(move, dict):
        raise ApiError(422, Msg("a move must be a JSON object with a 'type'"))
    try:
        size = len(json.dumps(move, separators=(",", ":")))  # ASCII: characters are bytes
    except RecursionError:
        raise ApiError(422, Msg("a move must not be nested that deeply")) from None
    if size > MOVE_MAX_BYTES:
        raise ApiError(413, Msg("a move is at most {most} bytes of JSON",
                                {"most": str(MOVE_MAX_BYTES)}))
    kind = move.get("type")
    carried = fields.get(kind) if isinstance(kind, str) else None
    if carried is not None:
        unknown = sorted(set(move) - carried - {"type"})
        if unknown:
            takes: Msg | str = ", ".join(sorted(carried)) or Msg("no other field")
            raise ApiError(422, Msg("a {kind} move has no field {fields} (it takes: {takes})",
                                    {"kind": kind, "fields": ", ".join(unknown)[:200],
                                     "takes": takes}),
                           rule="move format", fields=unknown[:20])
    return move


class StaleVersion(ApiError):
    """The mover saw an older version than the game's (409): its move was meant for a table
    that has moved on."""


class RoomService:
    """Plays, stores and publishes the moves of running games; answers what callers see."""

    def __init__(self, engine: Engine, hub: Hub, *, bot_delay: float = 0.6,
                 games_cached: int = 2000, writer: MoveWriter | None = None,
                 metrics: Metrics | None = None,
                 clock: Callable[[], float] = time.time, lease: Lease | None = None,
                 bot_table_idle: float = 0.0) -> None:
        self.hub = hub
        #: Seconds a table with no person seated plays on while nobody looks at it (0: for
        #: ever); then its bots wait for someone to look (:meth:`unwatched`).
        self.bot_table_idle = bot_table_idle
        #: Whether anyone has a page of the room open now, in any process (the app sets it
        #: from the realtime feeds, which sit above this service).
        self.watching: Callable[[int], bool] = lambda room_id: False
        #: The rooms whose bots wait for someone to look (bots alone, nobody looking).
        self.waiting: set[int] = set()
        #: Whether this process runs the bots and clocks (one process: always).
        self.lease: Lease = lease or AlwaysHeld()
        self.metrics = metrics  # counts committed moves and their life (app.observe)
        #: The time in epoch seconds, for clocks, deadlines and last seen (tests pass their
        #: own).
        self.clock = clock
        self.tables = Tables(games_cached)
        self.store = GameStore(engine, writer or move_writer(engine))
        self.bots = Bots(self, bot_delay)
        self.seating = Seating(self)
        self.timekeeper = Timekeeper(self)
        self._follow_ups: set[asyncio.Task[None]] = set()

    # -- tables ----------------------------------------------------------------------------

    async def table(self, room_id: int) -> Table:
        """The room's running game, loaded from the database on first use (and brought up to
        the stored version where another process moved it on)."""
        table = self.tables.get(room_id)
        if table is not None and table.heard <= table.version:
            return table
        async with self.tables.lock(room_id):
            return await self.current(room_id)

    async def current(self, room_id: int) -> Table:
        """Under the room's lock: the table in memory, brought up to the stored version if
        another process moved it on; else loaded from the database — again if another
        process's event dropped it while it loaded (the load may predate that event)."""
        for _ in range(LOADS_IN_A_ROW):
            table = self.tables.get(room_id)
            if table is not None:
                if table.heard <= table.version:
                    return table
                if not await self._catch_up(table):
                    self.tables.drop(room_id, reseated=True)
                continue
            mark = self.tables.mark(room_id)
            loaded = await to_thread.run_sync(self.store.load, room_id)
            if self.tables.mark(room_id) == mark:
                loaded.watched_at = self.clock()
                self.tables.put(loaded, busy=self.bots.busy)
                return loaded
        table = self.tables.get(room_id)  # still moving on: as it is now
        if table is None:
            table = await to_thread.run_sync(self.store.load, room_id)
            table.watched_at = self.clock()
            self.tables.put(table, busy=self.bots.busy)
        return table

    async def _catch_up(self, table: Table) -> bool:
        """Apply the moves stored after the table's version (False: load it instead)."""
        progress = await self.store.progress(table.game_row_id, table.version)
        if self.tables.peek(table.room_id) is not table:
            return True  # dropped meanwhile (its seats changed): it is loaded instead
        return self.store.catch_up(table, progress)

    async def readers(self, room_id: int) -> Readers:
        """Who may read the room (app/rooms/access.py): kept by its table while a game is in
        memory, else read from the database; 404 for no such room."""
        table = self.tables.peek(room_id)
        if table is not None and table.readers is not None:
            return table.readers
        return await to_thread.run_sync(load_readers, self.store.engine, room_id)

    async def check_read(self, room_id: int, player_id: int | None,
                         keys: Keys = ()) -> Readers:
        """404, as for an unknown room, unless the caller may read the room (the one rule:
        :meth:`app.rooms.access.Readers.admits`); the room's readers otherwise."""
        readers = await self.readers(room_id)
        readers.check(room_id, player_id, keys)
        return readers

    async def readable(self, room_id: int, player_id: int | None, keys: Keys = ()) -> Table:
        """The room's running game, if the caller may read the room; 404 otherwise, before
        anything else is said (that the game has not started, or cannot be opened)."""
        try:
            table = await self.table(room_id)
        except ApiError as exc:
            if exc.status != 404:
                await self.check_read(room_id, player_id, keys)
            raise
        if table.readers is None:
            await self.check_read(room_id, player_id, keys)
        else:
            table.readers.check(room_id, player_id, keys)
        return table

    def cached(self, room_id: int) -> Table | None:
        """The room's table if it is in memory (no database access)."""
        return self.tables.peek(room_id)

    async def started(self, room_id: int) -> None:
        """A game was dealt in the room (by the lobby): load it, start its clocks (if the room
        has them) and set its bots moving."""
        table = await self.table(room_id)
        async with self.tables.lock(room_id):
            table.started_at = table.moved_at = self.clock()  # the first decision starts
            if table.clock_setting and table.clocks is None:
                table.clocks = Clocks.start(table.clock_setting, table.players,
                                            table.people_to_move(), table.started_at)
            await self.store.save_start(table)
        self.timekeeper.schedule(room_id)
        self.bots.schedule(room_id)

    def looked_at(self, room_id: int) -> None:
        """Someone looks at the room now (a page of it opened or closed, its state read): a
        table of bots alone that waited for a watcher plays on."""
        table = self.tables.peek(room_id)
        if table is not None:
            table.watched_at = self.clock()
        if room_id not in self.waiting:
            return
        self.waiting.discard(room_id)
        if table is not None:
            self.bots.schedule(room_id)
        elif self.lease.held:  # left the memory while it waited: load it (a load is a look)
            task = asyncio.get_running_loop().create_task(self._set_timers(room_id))
            self._follow_ups.add(task)
            task.add_done_callback(self._follow_ups.discard)

    def unwatched(self, table: Table) -> bool:
        """Whether the table's bots should wait: no person is seated (bots alone), and nobody
        has had a page of it open or read its state for ``bot_table_idle`` seconds. A table
        with a person seated plays on whoever watches (a seat handed to a bot is still a
        person's, who may come back)."""
        if self.bot_table_idle <= 0 or table.seat_players:
            return False
        now = self.clock()
        if self.watching(table.room_id):
            table.watched_at = now
            return False
        if now - table.watched_at < self.bot_table_idle:
            return False
        self.waiting.add(table.room_id)
        return True

    async def rematch_offered(self, room_id: int, rematch_id: int) -> None:
        """A rematch of the finished game was offered: its pages show it."""
        table = await self.table(room_id)
        table.rematch_id = rematch_id
        table.reseated()
        await self.hub.publish(LobbyChanged(room_id))

    # -- a move's life ---------------------------------------------------------------------

    async def play(self, room_id: int, player_id: int | None, move: Any,
                   expected_version: int | None = None, bot_seat: int | None = None) -> int:
        """Apply ``move`` for the caller's seat; returns the new version once committed.

        The move runs in its own task, shielded from the caller's cancellation (a socket that
        closes, a shutdown): cancelled half-way, a move could be committed in the database
        while the table, the sockets and the bots never learnt of it."""
        task = asyncio.ensure_future(
            self._play(room_id, player_id, move, expected_version, bot_seat))
        try:
            return await asyncio.shield(task)
        except asyncio.CancelledError:
            task.add_done_callback(_retrieve)
            raise

    async def _play(self, room_id: int, player_id: int | None, move: Any,
                    expected_version: int | None, bot_seat: int | None) -> int:
        called = time.perf_counter()
        table = await (self.table(room_id) if bot_seat is not None
                       else self.readable(room_id, player_id))
        move = check_move_shape(move, table.game.moves)
        async with self.tables.lock(room_id):
            table = await self.current(room_id)
            seat = bot_seat if bot_seat is not None else table.seat_of(player_id)
            self._check_mover(table, seat, expected_version, bot_seat is not None)
            assert seat is not None
            now = self.clock()
            if table.clocks is not None and seat in table.clocks.flagged(now):
                self.timekeeper.schedule(room_id)
                raise ApiError(409, Msg("your time has run out"), rule="clock",
                               version=table.version)
            try:
                after = table.game.apply(table.state, seat, move)
            except IllegalMove as exc:
                raise ApiError(422, exc.msg, names=table.names, reader=seat, rule=exc.rule,
                               version=table.version) from None
            events = table.game.events(table.state, seat, move, after)
            result = table.game.result(after)
            clocks = None
            if table.clocks is not None:
                active = table.game.active_seats(after)
                running = frozenset() if result else table.people_to_move(active)
                clocks = table.clocks.after_move(seat, now, running,
                                                 turn_ended=bool(result) or seat not in active)
                if clocks.ran_out:  # seats a bot took when their time ran out: say so first
                    events = [ran_out_line(out) for out in clocks.ran_out] + events
                    clocks = clocks.logged()
            try:
                await self.store.save(table, seat, move, after, events, result, clocks, now)
            except StaleTable:
                table.heard = max(table.heard, table.version + 1)  # catch up at next use
                raise ApiError(409, Msg("another move was saved first; reload the game"),
                               version=table.version) from None
            committed = time.perf_counter()
            table.advance(seat, after, events, result is not None)
            table.clocks, table.moved_at = clocks, now
            if bot_seat is None:
                table.last_seen[seat] = now
            version = table.version
        if self.metrics is not None:
            self.metrics.move_played(table.game.id, committed - called)
        await self.hub.publish(GameMoved(room_id, version))
        self.bots.schedule(room_id)
        self.timekeeper.schedule(room_id)
        return version

    @staticmethod
    def _check_mover(table: Table, seat: int | None, expected_version: int | None,
                     bot: bool = False) -> None:
        """The caller holds a seat, the game runs, it saw the current version, and the game
        waits for that seat (its turn, a prompt it answers, a phase everyone plays at once);
        a bot plays only a seat handed to it, a person only a seat no bot plays."""
        if seat is None:
            raise ApiError(403, Msg("you have no seat in this game (spectators cannot move)"))
        if table.finished:
            raise ApiError(409, Msg("the game is over"), version=table.version)
        if bot and seat not in table.seat_bots:
            raise ApiError(409, Msg("the seat was taken back by its player"),
                           version=table.version)
        if not bot and seat in table.seat_bots:
            raise ApiError(409, Msg("a bot plays your seat now: take your seat back first"),
                           version=table.version)
        if expected_version is not None and expected_version != table.version:
            raise StaleVersion(409, Msg("stale version {seen}: the game is at version {now}",
                                        {"seen": expected_version, "now": table.version}),
                               version=table.version)
        if seat in table.game.active_seats(table.state):
            return
        status = table.status(seat)
        if status.finished:
            raise ApiError(409, Msg("you have finished this phase ({doing}); waiting for "
                                    "{seats}", {"doing": Msg(status.doing),
                                                "seats": table.waiting_for()}),
                           names=table.names, reader=seat, rule=status.finished,
                           version=table.version)
        raise ApiError(403, Msg("not yours to play now: waiting for {seats}",
                                {"seats": table.waiting_for()}),
                       names=table.names, reader=seat, rule=table.game.turn_rule,
                       version=table.version)

    # -- reading ---------------------------------------------------------------------------

    async def state_for(self, room_id: int, player_id: int | None,
                        locale: str = DEFAULT,
                        present: frozenset[int] = frozenset(),
                        keys: Keys = ()) -> dict[str, Any]:
        """``GET /state``: version, active seats, what each seat is doing, the caller's seat
        and view, the result (its words in ``locale``); who plays each seat (``present``: the
        players with a page open now), the clocks and the turn-based deadline. 404 for a
        private room the caller may not read (``keys``: the codes they present)."""
        table = await self.readable(room_id, player_id, keys)
        self.looked_at(room_id)
        seat = table.seat_of(player_id)
        now = self.clock()
        return {
            "version": table.version,
            "active_seats": table.active(),
            "statuses": table.statuses(),
            "your_seat": seat,
            "view": table.view(seat),
            "result": table.result_json(locale),
            "seats": table.seats_json(present, now),
            "pace": table.pace,
            "deadline": table.deadline(),
            "clocks": table.clocks.shown(now) if table.clocks else None,
            "rematch_id": table.rematch_id,
            "rules_version": table.rules_version,
        }

    async def moves_for(self, room_id: int, player_id: int | None,
                        keys: Keys = ()) -> dict[str, Any]:
        """The caller's legal moves: 404 first for a private room the caller may not read,
        then 401 for no player, 403 without a seat."""
        table = await self.readable(room_id, player_id, keys)
        if player_id is None:
            raise ApiError(401, Msg("this needs a player token: POST /api/players, then send "
                                    "'Authorization: Bearer <token>'"))
        seat = table.seat_of(player_id)
        if seat is None:
            raise ApiError(403, Msg("you have no seat in this game (spectators have no "
                                    "moves)"))
        moves = (table.game.legal_moves(table.state, seat)
                 if seat in table.game.active_seats(table.state) else [])
        return {"version": table.version, "your_seat": seat, "moves": moves}

    async def log_for(self, room_id: int, player_id: int | None,
                      locale: str = DEFAULT, keys: Keys = ()) -> dict[str, Any]:
        """The log lines the caller may read, in ``locale`` (moves themselves are never sent:
        a draw's card, a sealed bid stay hidden until the game's events show them); 404 for a
        private room the caller may not read."""
        table = await self.readable(room_id, player_id, keys)
        return {"version": table.version, "names": table.names,
                "events": table.log_for(table.seat_of(player_id), locale)}

    # -- several processes -------------------------------------------------------------------

    def heard(self, event: RoomEvent) -> None:
        """Another process's event (the Redis hub calls this before this process's sockets
        hear of it). A move past the cached table's version marks it as behind: its next use
        applies the stored moves after it. A change of who plays the seats
        (:class:`LobbyChanged`) drops it: its next use loads it from the database. The process
        holding the lease then sets the room's bots and clocks moving (if it has or may have
        any)."""
        room_id = event.room_id
        timed: bool | None
        if isinstance(event, GameMoved):
            table = self.tables.peek(room_id)
            if table is not None:
                table.heard = max(table.heard, event.version)
                timed = table.timed
            else:  # not in memory; a load under way may predate this move: it loads again
                self.tables.drop(room_id)
                dropped = self.tables.dropped(room_id)
                timed = dropped.timed if dropped is not None else None
        elif isinstance(event, LobbyChanged):
            self.tables.drop(room_id, reseated=True)
            timed = None  # a start, a seat handed to a bot: look
        elif isinstance(event, PresenceChanged):
            if event.players or event.anonymous:  # a page open in another process
                self.looked_at(room_id)
            return
        else:
            return
        if self.lease.held and timed is not False:
            task = asyncio.get_running_loop().create_task(self._set_timers(room_id))
            self._follow_ups.add(task)
            task.add_done_callback(self._follow_ups.discard)

    async def _set_timers(self, room_id: int) -> None:
        """Load the room's table as it is stored now and set its bots and clocks moving."""
        try:
            await self.table(room_id)
        except ApiError:  # not started yet, or gone
            return
        self.bots.schedule(room_id)
        self.timekeeper.schedule(room_id)

    async def stored(self, room_ids: list[int]) -> dict[int, tuple[str, int | None]]:
        """Each room's status and game version as stored (:meth:`GameStore.versions`)."""
        return await to_thread.run_sync(self.store.versions, room_ids)

    async def take_over(self) -> None:
        """This process now runs the timers (it took the lease): what it cached may predate
        the last holder's work, so it is dropped; the bots and clocks of every running game
        resume from the database."""
        self.tables.drop_all()
        self.waiting.clear()  # every table of bots plays again until nobody looks
        await self.bots.resume()
        await self.timekeeper.resume()

    async def step_down(self) -> None:
        """This process no longer runs the timers (it lost the lease): they stop at once."""
        for task in list(self._follow_ups):
            task.cancel()
        await self.bots.stop()
        await self.timekeeper.stop()

    async def close(self) -> None:
        for task in list(self._follow_ups):
            task.cancel()
        await self.timekeeper.close()
        await self.bots.close()
