"""The room service: the one place that loads a game, applies a move, persists it and
publishes it (DESIGN.md §3).

A move's life:

1. ``play`` takes the room's asyncio lock (in-process ordering), loads the game (from the cache
   keyed by version, else by replaying the move log from the database), checks the caller's
   seat is active and the expected version is current, and asks the game to ``apply`` it.
2. In ONE transaction it inserts the ``move`` row with ``seq = version + 1`` (unique per game:
   the guard against a second writer) and stores the new snapshot and version only if the
   stored version is still the one it read; then it commits.
3. Only after the commit it updates the cache, publishes "room R is at version V" and schedules
   the bots whose seats are now active.

Every error leaves the database and the cache untouched.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import json
import logging
import marshal
import weakref
from collections import OrderedDict, deque
from dataclasses import dataclass, field
from typing import Any

from anyio import to_thread
from sqlalchemy import bindparam, insert, update
from sqlalchemy.engine import Connection, Engine
from sqlalchemy.exc import IntegrityError
from sqlmodel import Session, col, select

from app.db import GroupCommit
from app.errors import ApiError
from app.games.base import Event, Game, IllegalMove, Move, Result, seeded_rng
from app.games.registry import get_game
from app.models import MAX_ID, Player, Room, Seat
from app.models import Game as GameRow
from app.models import Move as MoveRow
from app.realtime.hub import Hub

log = logging.getLogger("canopy.rooms")

# The statements of every move, built once (plain tables: no ORM plugin, one cached compile).
_MOVES, _GAMES, _ROOMS = MoveRow.__table__, GameRow.__table__, Room.__table__  # type: ignore[attr-defined]
INSERT_MOVE = insert(_MOVES)
UPDATE_GAME = (update(_GAMES)
               .where(_GAMES.c.id == bindparam("game_row"))
               .where(_GAMES.c.version == bindparam("expected"))
               .values(state=bindparam("new_state"), version=bindparam("new_version"),
                       finished=bindparam("new_finished"), result=bindparam("new_result")))
FINISH_ROOM = update(_ROOMS).where(_ROOMS.c.id == bindparam("room")).values(status="finished")

#: Log lines kept in memory per room for the browser's game log.
LOG_KEPT = 200
#: The largest move (as compact JSON) the service accepts: a move is stored for ever in the
#: move log and replayed, so a client must not be able to park megabytes in it (the websocket
#: already caps its messages; REST bodies and form fields have no limit of their own).
MOVE_MAX_BYTES = 16_384


def _retrieve(task: asyncio.Future[Any]) -> None:
    """Done callback: read the outcome of a move whose caller went away (no warning)."""
    if not task.cancelled():
        task.exception()


@dataclass
class LoadedGame:
    """A running game as the service holds it between moves."""

    room_id: int
    game_row_id: int
    game: Game
    seed: int
    players: int
    state: Any
    version: int
    finished: bool
    seat_players: dict[int, int]  # seat -> player id (people only)
    seat_bots: dict[int, str]  # seat -> bot level
    names: list[str]
    log: deque[tuple[int, int, Event]] = field(default_factory=lambda: deque(maxlen=LOG_KEPT))
    #: Each seat's view at ``version`` as ``marshal`` bytes. A view is hundreds of small lists
    #: and dicts; kept as objects for a second each (until the next move), thousands of them
    #: kept CPython's cycle collector busy (100k young objects per collection, 50-100 ms
    #: pauses at 500 rooms). Bytes are invisible to it; ``view()`` hands out fresh copies.
    views: dict[int | None, bytes] = field(default_factory=dict)
    #: Patch messages (JSON text) to ``version`` by (seat, from version), for the sockets.
    patches: dict[tuple[int | None, int], str] = field(default_factory=dict)
    #: Table regions (HTML) at ``version`` by seat, for the browsers' sockets.
    regions: dict[int | None, dict[str, str]] = field(default_factory=dict)

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

    def active(self) -> list[int]:
        return sorted(self.game.active_seats(self.state))

    def result_json(self) -> dict[str, Any] | None:
        result = self.game.result(self.state)
        return result.to_json() if result is not None else None

    def log_for(self, seat: int | None) -> list[dict[str, Any]]:
        """The log lines that seat may read, oldest first, names filled in."""
        return [
            {"version": version, "seat": actor, **event.to_json(),
             "text": fill_names(event.text, self.names)}
            for version, actor, event in self.log
            if event.visible_to(seat)
        ]


def fill_names(text: str, names: list[str]) -> str:
    """Replace the ``{p0}``, ``{p1}`` … placeholders of an event text by player names."""
    for index, name in enumerate(names):
        text = text.replace(f"{{p{index}}}", name)
    return text


class RoomService:
    """Loads, plays, persists and publishes games; drives bots."""

    def __init__(self, engine: Engine, hub: Hub, bot_delay: float = 0.6,
                 games_cached: int = 2000) -> None:
        self.engine = engine
        self.hub = hub
        self.bot_delay = bot_delay
        #: Games in memory, least recently used first; at most ``games_cached`` of them.
        self._games: OrderedDict[int, LoadedGame] = OrderedDict()
        self.games_cached = games_cached
        #: A room's lock lives while someone holds or awaits it (weak values): one lock per
        #: room at any time, and none kept for rooms nobody plays.
        self._locks: weakref.WeakValueDictionary[int, asyncio.Lock] = \
            weakref.WeakValueDictionary()
        self._bot_tasks: dict[int, asyncio.Task[None]] = {}
        #: Every move is written through this one writer (group commit): SQLite has one
        #: writer, and threads queueing on its lock sleep in its busy handler instead.
        self._writer = GroupCommit(engine)

    # -- loading -------------------------------------------------------------------------

    def lock(self, room_id: int) -> asyncio.Lock:
        lock = self._locks.get(room_id)
        if lock is None:
            lock = self._locks[room_id] = asyncio.Lock()
        return lock

    async def loaded(self, room_id: int) -> LoadedGame:
        """The room's running game, loaded from the database on first use."""
        cached = self._games.get(room_id)
        if cached is not None:
            self._games.move_to_end(room_id)
            return cached
        async with self.lock(room_id):
            cached = self._games.get(room_id)
            if cached is None:
                cached = await to_thread.run_sync(self._load, room_id)
                self._games[room_id] = cached
                self._evict()
            return cached

    def _evict(self) -> None:
        """Keep at most ``games_cached`` games in memory: drop the least recently used ones
        that no move and no bot is busy with (finished games would otherwise stay for the
        life of the process). A dropped game is rebuilt from the database when next used."""
        excess = len(self._games) - self.games_cached
        for room_id in list(self._games):
            if excess <= 0:
                return
            lock, bots = self._locks.get(room_id), self._bot_tasks.get(room_id)
            if (lock is not None and lock.locked()) or (bots is not None and not bots.done()):
                continue
            del self._games[room_id]
            self._bot_tasks.pop(room_id, None)
            excess -= 1

    def _load(self, room_id: int) -> LoadedGame:
        """Rebuild the game by replaying the move log (the source of truth) from its seed."""
        if not 0 < room_id <= MAX_ID:  # larger ids overflow the INTEGER column
            raise ApiError(404, f"there is no room {room_id}")
        with Session(self.engine) as session:
            room = session.get(Room, room_id)
            if room is None:
                raise ApiError(404, f"there is no room {room_id}")
            row = session.exec(select(GameRow).where(GameRow.room_id == room_id)).first()
            if row is None or row.id is None:
                raise ApiError(409, f"the game in room {room_id} has not started yet")
            seats = list(session.exec(select(Seat).where(Seat.room_id == room_id)))
            player_ids = [s.player_id for s in seats if s.player_id is not None]
            players = {p.id: p.name for p in session.exec(
                select(Player).where(col(Player.id).in_(player_ids)))}
            moves = list(session.exec(select(MoveRow).where(MoveRow.game_id == row.id)
                                      .order_by(col(MoveRow.seq))))
            game = get_game(room.game_id)
            names = [f"Seat {i + 1}" for i in range(room.players)]
            for seat in seats:
                if seat.player_id is not None:
                    names[seat.index] = players.get(seat.player_id, names[seat.index])
                elif seat.bot_level is not None:
                    names[seat.index] = f"Bot {seat.index + 1}"
            loaded = LoadedGame(
                room_id=room_id, game_row_id=row.id, game=game, seed=row.seed,
                players=room.players,
                state=game.setup(room.players, game.Options.model_validate(room.options), row.seed),
                version=0, finished=False,
                seat_players={s.index: s.player_id for s in seats if s.player_id is not None},
                seat_bots={s.index: s.bot_level for s in seats if s.bot_level is not None},
                names=names,
            )
            for move in moves:
                after = game.apply(loaded.state, move.seat, move.move)
                self._record(loaded, move.seat, move.move, after)
            loaded.finished = game.result(loaded.state) is not None
            return loaded

    @staticmethod
    def _record(loaded: LoadedGame, seat: int, move: Move, after: Any) -> None:
        """Advance the in-memory game by one applied move."""
        events = loaded.game.events(loaded.state, seat, move, after)
        loaded.state = after
        loaded.version += 1
        loaded.views = {}
        loaded.patches = {}
        loaded.regions = {}
        for event in events:
            loaded.log.append((loaded.version, seat, event))

    def cached(self, room_id: int) -> LoadedGame | None:
        """The room's running game if it is in memory (no database access)."""
        return self._games.get(room_id)

    def forget(self, room_id: int) -> None:
        """Drop the cached game (the next use reloads it from the database)."""
        self._games.pop(room_id, None)

    # -- playing -------------------------------------------------------------------------

    async def play(self, room_id: int, player_id: int | None, move: Any,
                   expected_version: int | None = None, bot_seat: int | None = None) -> int:
        """Apply ``move`` for the caller's seat; returns the new version once committed.

        The move runs in its own task, shielded from the caller's cancellation (a socket that
        closes, a shutdown): cancelled half-way, a move could be committed in the database
        while the cache, the subscribers and the bots never learnt of it — the room would then
        show a stale version and refuse the next move with a 409."""
        task = asyncio.ensure_future(
            self._play(room_id, player_id, move, expected_version, bot_seat))
        try:
            return await asyncio.shield(task)
        except asyncio.CancelledError:
            task.add_done_callback(_retrieve)
            raise

    async def _play(self, room_id: int, player_id: int | None, move: Any,
                    expected_version: int | None, bot_seat: int | None) -> int:
        if not isinstance(move, dict):
            raise ApiError(422, "a move must be a JSON object with a 'type'")
        try:
            size = len(json.dumps(move, separators=(",", ":")))  # ASCII: characters are bytes
        except RecursionError:
            raise ApiError(422, "a move must not be nested that deeply") from None
        if size > MOVE_MAX_BYTES:
            raise ApiError(413, f"a move is at most {MOVE_MAX_BYTES} bytes of JSON")
        loaded = await self.loaded(room_id)
        async with self.lock(room_id):
            loaded = self._games.get(room_id) or loaded
            seat = bot_seat if bot_seat is not None else loaded.seat_of(player_id)
            if seat is None:
                raise ApiError(403, "you have no seat in this game (spectators cannot move)")
            if loaded.finished:
                raise ApiError(409, "the game is over", version=loaded.version)
            if expected_version is not None and expected_version != loaded.version:
                raise ApiError(409, f"stale version {expected_version}: the game is at version "
                                    f"{loaded.version}", version=loaded.version)
            active = loaded.game.active_seats(loaded.state)
            if seat not in active:
                waiting = ", ".join(loaded.names[s] for s in sorted(active)) or "nobody"
                done = loaded.game.done_for_now(loaded.state, seat)
                if done is not None:
                    raise ApiError(409, f"{done.reason} (waiting for {waiting})",
                                   rule=done.rule, version=loaded.version)
                raise ApiError(403, f"it is not your turn (waiting for {waiting})",
                               version=loaded.version)
            try:
                after = loaded.game.apply(loaded.state, seat, move)
            except IllegalMove as exc:
                raise ApiError(422, exc.reason, rule=exc.rule, version=loaded.version) from None
            result = loaded.game.result(after)
            finished = result is not None
            await self._writer.write(
                functools.partial(self._persist, loaded, seat, move, after, result))
            self._record(loaded, seat, move, after)
            loaded.finished = finished
            version = loaded.version
        await self.hub.publish(room_id, version)
        self.schedule_bots(room_id)
        return version

    def _persist(self, loaded: LoadedGame, seat: int, move: Move, after: Any,
                 result: Result | None, connection: Connection) -> None:
        """The move row and the new snapshot, guarded by the version, in the writer's
        transaction (plain SQL statements: this runs for every move)."""
        seq = loaded.version + 1
        finished = result is not None
        try:
            connection.execute(INSERT_MOVE, {"game_id": loaded.game_row_id, "seq": seq,
                                             "seat": seat, "move": move})
            updated = connection.execute(UPDATE_GAME, {
                "game_row": loaded.game_row_id, "expected": loaded.version,
                "new_state": loaded.game.dump(after), "new_version": seq,
                "new_finished": finished,
                "new_result": result.to_json() if result else None})
            if updated.rowcount != 1:
                raise IntegrityError("game version moved", None, Exception())
            if finished:
                connection.execute(FINISH_ROOM, {"room": loaded.room_id})
        except IntegrityError:
            self.forget(loaded.room_id)
            raise ApiError(409, "another move was saved first; reload the game",
                           version=loaded.version) from None

    # -- reading -------------------------------------------------------------------------

    async def state_for(self, room_id: int, player_id: int | None) -> dict[str, Any]:
        """``GET /state``: version, active seats, the caller's seat and view, the result."""
        loaded = await self.loaded(room_id)
        seat = loaded.seat_of(player_id)
        return {
            "version": loaded.version,
            "active_seats": loaded.active(),
            "your_seat": seat,
            "view": loaded.view(seat),
            "result": loaded.result_json(),
        }

    async def moves_for(self, room_id: int, player_id: int) -> dict[str, Any]:
        loaded = await self.loaded(room_id)
        seat = loaded.seat_of(player_id)
        if seat is None:
            raise ApiError(403, "you have no seat in this game (spectators have no moves)")
        moves = (loaded.game.legal_moves(loaded.state, seat)
                 if seat in loaded.game.active_seats(loaded.state) else [])
        return {"version": loaded.version, "your_seat": seat, "moves": moves}

    async def log_for(self, room_id: int, player_id: int | None) -> dict[str, Any]:
        """The public move log (every move, as the log shows it) and the events the caller
        may read. Moves are public here only as their log lines: a draw's card stays hidden."""
        loaded = await self.loaded(room_id)
        seat = loaded.seat_of(player_id)
        return {"version": loaded.version, "names": loaded.names,
                "events": loaded.log_for(seat)}

    def view_at(self, loaded: LoadedGame, seat: int | None, version: int) -> dict[str, Any]:
        """The seat's view as it was at an earlier ``version``, replayed from the move log."""
        if version == loaded.version:
            return loaded.view(seat)
        with Session(self.engine) as session:
            moves = list(session.exec(
                select(MoveRow).where(MoveRow.game_id == loaded.game_row_id)
                .where(col(MoveRow.seq) <= version).order_by(col(MoveRow.seq))))
            room = session.get(Room, loaded.room_id)
            assert room is not None
            options = loaded.game.Options.model_validate(room.options)
        state = loaded.game.setup(loaded.players, options, loaded.seed)
        for move in moves:
            state = loaded.game.apply(state, move.seat, move.move)
        return loaded.game.view(state, seat)

    # -- bots ----------------------------------------------------------------------------

    def schedule_bots(self, room_id: int) -> None:
        """Let the bots whose seats are active move, one task per room at a time."""
        running = self._bot_tasks.get(room_id)
        if running is not None and not running.done():
            return
        loaded = self._games.get(room_id)
        if loaded is None or loaded.finished:
            return
        if not set(loaded.seat_bots) & loaded.game.active_seats(loaded.state):
            return
        self._bot_tasks[room_id] = asyncio.get_running_loop().create_task(self._drive_bots(room_id))

    async def _drive_bots(self, room_id: int) -> None:
        while True:
            if self.bot_delay:
                await asyncio.sleep(self.bot_delay)
            try:  # reloaded if another process saved a move first (our copy was forgotten)
                loaded = await self.loaded(room_id)
            except ApiError:
                return
            if loaded.finished:
                return
            bots = sorted(set(loaded.seat_bots) & loaded.game.active_seats(loaded.state))
            if not bots:
                return
            seat = bots[0]
            legal = loaded.game.legal_moves(loaded.state, seat)
            rng = seeded_rng(loaded.seed, "bot", loaded.version, seat)
            if loaded.seat_bots[seat] == "random":
                move = rng.choice(legal)
            else:
                move = loaded.game.bot_move(loaded.view(seat), legal, rng)
            try:
                await self.play(room_id, None, move, loaded.version, bot_seat=seat)
            except ApiError as exc:  # a person moved first (simultaneous phase): look again
                log.info("bot move in room %s not taken: %s", room_id, exc.detail)
            except Exception:  # a bot must never take the server down
                log.exception("bot in room %s failed", room_id)
                return

    async def resume_bots(self) -> int:
        """After a (re)start: let the bots of every running game move again."""
        def rooms_with_bots() -> list[int]:
            with Session(self.engine) as session:
                return sorted(set(session.exec(
                    select(Seat.room_id).join(Room, col(Room.id) == col(Seat.room_id))
                    .where(Room.status == "playing").where(col(Seat.bot_level).is_not(None)))))

        room_ids = await to_thread.run_sync(rooms_with_bots)
        for room_id in room_ids:
            try:
                await self.loaded(room_id)
            except ApiError:
                continue
            self.schedule_bots(room_id)
        return len(room_ids)

    async def close(self) -> None:
        for task in self._bot_tasks.values():
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
