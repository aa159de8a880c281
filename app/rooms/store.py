"""Where games are kept: every SQL statement of a running game, in one place (DESIGN.md §4).

- :meth:`GameStore.load` builds a room's :class:`Table` from the stored snapshot (the ``game``
  row's state and version) plus the moves stored after it — normally none, since a move and
  its snapshot are written in one transaction. Games whose moves predate the stored log lines
  (migration 0003) are loaded by replaying their log, as before.
- :meth:`GameStore.save` writes one move: the ``move`` row with ``seq = version + 1`` (unique
  per game: the guard against a second writer), the new snapshot only if the stored version is
  still the one read, and the room's status once the game is over — one transaction, written by
  the move writer (group commit, :mod:`app.db`).
- ``load(room_id, replay=True)`` rebuilds the game from the seed and the whole move log instead:
  the source of truth, for the consistency check (snapshot == replay) and the benchmark.
- :meth:`GameStore.progress` and :meth:`GameStore.catch_up` bring a table that another process
  moved past up to the stored version: the moves after its version, applied as ``load`` applies
  the moves after a snapshot (one statement, a fraction of a whole load).
"""

from __future__ import annotations

import functools
import logging
import time
from collections.abc import Callable, Mapping
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import Row, bindparam, insert, update
from sqlalchemy import select as core_select
from sqlalchemy.engine import Connection, Engine
from sqlalchemy.exc import IntegrityError, OperationalError
from sqlalchemy.exc import TimeoutError as PoolTimeout
from sqlmodel import Session, col, select

from app import speedups
from app.db import MoveWriter, Prepared
from app.errors import ApiError
from app.games.base import Event, GameSpec, Move, Result, State
from app.games.registry import get_game
from app.games.words import Msg
from app.models import MAX_ID, Player, Room, Seat
from app.models import Game as GameRow
from app.models import Move as MoveRow
from app.names import skeleton
from app.rooms.access import Readers, no_room
from app.rooms.clocks import Clocks
from app.rooms.rebuild import Diverged, Rebuilt, StoredLines, past_log, rebuild
from app.rooms.table import LOG_KEPT, Table

log = logging.getLogger("canopy")

# The statements of every move, built once (plain tables: no ORM plugin, one cached compile).
_MOVES, _GAMES, _ROOMS = MoveRow.__table__, GameRow.__table__, Room.__table__  # type: ignore[attr-defined]
INSERT_MOVE = Prepared(insert(_MOVES),
                       ("game_id", "seq", "seat", "move", "created", "events"))
UPDATE_GAME = Prepared(update(_GAMES)
                       .where(_GAMES.c.id == bindparam("game_row"))
                       .where(_GAMES.c.version == bindparam("expected"))
                       .values(state=bindparam("new_state"), version=bindparam("new_version"),
                               finished=bindparam("new_finished"),
                               result=bindparam("new_result"), clocks=bindparam("new_clocks")),
                       ("game_row", "expected", "new_state", "new_version", "new_finished",
                        "new_result", "new_clocks"))
FINISH_ROOM = Prepared(update(_ROOMS).where(_ROOMS.c.id == bindparam("room"))
                       .values(status="finished"), ("room",))
#: The game row's version, clocks and end, with its moves after ``after`` up to that version:
#: one statement, so both come from one snapshot of the database.
PROGRESS = (core_select(_GAMES.c.version, _GAMES.c.clocks, _GAMES.c.finished,
                        _GAMES.c.result, _MOVES.c.seq, _MOVES.c.seat, _MOVES.c.move,
                        _MOVES.c.events, _MOVES.c.created)
            .select_from(_GAMES.outerjoin(_MOVES, (_MOVES.c.game_id == _GAMES.c.id)
                                          & (_MOVES.c.seq > bindparam("after"))
                                          & (_MOVES.c.seq <= _GAMES.c.version)))
            .where(_GAMES.c.id == bindparam("game_row"))
            .order_by(_MOVES.c.seq))


PLAIN_SQL = speedups.on("plain-sql")


def _execute(statement: Any, connection: Connection) -> None:
    connection.execute(statement)


class StaleTable(Exception):
    """Another writer (another process) stored a move of this game first."""


def event_json(event: Event) -> dict[str, Any]:
    data = {"key": event.key, "text": event.text, "params": event.params,
            "seats": sorted(event.seats) if event.seats is not None else None,
            "not_for": sorted(event.not_for)}
    if event.msg is not None:
        data["msg"] = event.msg.to_json()
    return data


def event_from(data: dict[str, Any]) -> Event:
    """A stored line; one stored before the catalogues existed has no ``msg`` and reads as
    its English ``text``."""
    seats = data.get("seats")
    msg = data.get("msg")
    return Event(data["key"], data["text"], data.get("params") or {},
                 frozenset(seats) if seats is not None else None,
                 frozenset(data.get("not_for") or ()),
                 Msg.from_json(msg) if msg else None)


def stored_lines(move: MoveRow) -> StoredLines:
    """A stored move's log lines as the log needs them (None: stored before log lines)."""
    events = [event_from(e) for e in move.events] if move.events is not None else None
    return move.seq, move.seat, events, move.created


def epoch(moment: datetime | None) -> float | None:
    """A stored moment as epoch seconds (SQLite hands back naive datetimes, written in UTC)."""
    if moment is None:
        return None
    return (moment if moment.tzinfo else moment.replace(tzinfo=UTC)).timestamp()


def moment(at: float | None) -> datetime:
    """Epoch seconds (None: now) as a stored moment."""
    return datetime.fromtimestamp(time.time() if at is None else at, UTC)


def forfeit_result(game: GameSpec, state: State, players: int, seat: int) -> Result:
    """The end of a game whose ``seat`` ran out of time with "the player loses": that seat
    ranks last; the others rank, and the best of them win, by the score as the game stands
    (:attr:`GameSpec.score`; without one, they share the win)."""
    scores = tuple(game.score(state)) if game.score else tuple(0 for _ in range(players))
    others = sorted((s for s in range(players) if s != seat), key=lambda s: -scores[s])
    best = max(scores[s] for s in others) if others else 0
    return Result(scores=scores, ranking=(*others, seat),
                  winners=tuple(s for s in others if scores[s] == best),
                  details={"forfeit": seat},
                  headline=Msg("{player} ran out of time", {"player": f"{{p{seat}}}"}))


def stored_end(table: Table, finished: bool, result: dict[str, Any] | None) -> bool:
    """A stored game that ended holds its stored result over what today's rules make of its
    final state — a result is a fact: the platform's end (a seat out of time that loses),
    whose rules alone do not see it, and a result today's rules would count otherwise (a
    scoring fix since) or not at all. True if the stored end was taken over the rules'."""
    if not finished or not result or table.ended is not None:
        return False
    forfeit = result.get("details", {}).get("forfeit")
    today = (forfeit_result(table.game, table.state, table.players, forfeit)
             if isinstance(forfeit, int) else table.game.result(table.state))
    if today is not None and same_outcome(today.to_json(), result):
        if not isinstance(forfeit, int):
            return False  # the rules end it as stored
        table.ended = today  # in the reader's words
    else:
        table.ended = Result.from_json(result)
    table.finished = True
    return True


def same_outcome(one: dict[str, Any], other: dict[str, Any]) -> bool:
    """Two results (as JSON) give the same scores, ranking and winners."""
    return all(one.get(key) == other.get(key) for key in ("scores", "ranking", "winners"))


class UnreadableGame(ApiError):
    """A started game this server cannot read at all (409): not a lobby, never a 500."""


def unreadable(room_id: int, exc: Exception, reported: set[int]) -> UnreadableGame:
    """The refusal for a stored game this server cannot read at all (a state or options of a
    shape no longer known): 409 naming the room and the reason. The cause goes to the log
    once per room in ``reported``."""
    if room_id not in reported:
        reported.add(room_id)
        log.error("the game in room %s cannot be read by this version of the server",
                  room_id, exc_info=exc)
    return UnreadableGame(409, Msg("the game in room {room} cannot be opened: it was stored "
                                   "in a form this version of the server cannot read",
                                   {"room": str(room_id)}),
                          room=room_id, reason="unreadable stored game")


def seat_names(seats: list[Seat], players: int, named: Mapping[int, str]) -> list[str]:
    """The names a table shows: the person's name, "Bot 2" for a bot's seat, "#3" for a
    person since removed; twins told apart (:func:`told_apart`)."""
    names = [f"#{i + 1}" for i in range(players)]
    for seat in seats:
        if not 0 <= seat.index < players:
            continue
        if seat.player_id is not None:
            names[seat.index] = named.get(seat.player_id, names[seat.index])
        elif seat.bot_level is not None:
            names[seat.index] = f"Bot {seat.index + 1}"
    return told_apart(names)


def told_apart(names: list[str]) -> list[str]:
    """Labels for a table's names that no reader can mistake for one another. People whose
    names look alike (the same :func:`~app.names.skeleton`: "Ana" and "ana", Cyrillic "аlice"
    and Latin "alice") are told apart by their seats' numbers: "Ana (1)" and "ana (3)". A
    label so made may look like another seat's own name ("ana", "ana", "ana (1)"): that seat
    is numbered too ("ana (1) (3)"), until every label looks unlike every other. A table's
    names are shared by every reader, whatever their language, so they hold no word of any
    language (a bot is "Bot 2" in all four)."""
    labels = list(names)
    numbered = [False] * len(names)
    for _ in range(len(names) + 1):
        seats: dict[str, list[int]] = {}
        for seat, label in enumerate(labels):
            seats.setdefault(skeleton(label), []).append(seat)
        clashes = [group for group in seats.values() if len(group) > 1]
        if not clashes:
            return labels
        for group in clashes:
            plain = [seat for seat in group if not numbered[seat]]
            for seat in plain or group:  # names as typed first; else every label again
                labels[seat] = f"{labels[seat]} ({seat + 1})"
                numbered[seat] = True
    # Unreachable in practice; a label led by its seat's number is unique whatever the names.
    return [f"{seat + 1}. {name}" for seat, name in enumerate(names)]


class GameStore:
    """Loads and saves the games of one database."""

    def __init__(self, engine: Engine, writer: MoveWriter) -> None:
        self.engine = engine
        self.writer = writer
        #: Rooms whose stored game this process found unreadable (logged once each).
        self._unreadable: set[int] = set()

    # -- loading ---------------------------------------------------------------------------

    def load(self, room_id: int) -> Table:
        """The room's game from its stored snapshot, the moves stored after it (normally
        none) and the stored log lines (404 for no such room, 409 before the start). Nothing
        stored is judged again by today's rules; a game this server cannot read at all is a
        409 naming the room, logged once (:meth:`unreadable`)."""
        if not 0 < room_id <= MAX_ID:  # larger ids overflow the INTEGER column
            raise ApiError(404, no_room(room_id))
        with Session(self.engine) as session:
            room = session.get(Room, room_id)
            if room is None:
                raise ApiError(404, no_room(room_id))
            row = session.exec(select(GameRow).where(GameRow.room_id == room_id)).first()
            if row is None or row.id is None:
                raise ApiError(409, Msg("the game in room {room} has not started yet",
                                        {"room": str(room_id)}))
            try:
                return self._load(session, room, row)
            except ApiError:
                raise
            except (OperationalError, PoolTimeout):
                raise
            except Exception as exc:
                raise self.unreadable(room_id, exc) from None

    def unreadable(self, room_id: int, exc: Exception) -> UnreadableGame:
        return unreadable(room_id, exc, self._unreadable)

    def _load(self, session: Session, room: Room, row: GameRow) -> Table:
        assert room.id is not None and row.id is not None
        seats = list(session.exec(select(Seat).where(Seat.room_id == room.id)))
        people = [s.player_id for s in seats if s.player_id is not None]
        named = {p.id: p.name for p in session.exec(
            select(Player).where(col(Player.id).in_(people))) if p.id is not None}
        recent = list(session.exec(
            select(MoveRow).where(MoveRow.game_id == row.id)
            .order_by(col(MoveRow.seq).desc()).limit(LOG_KEPT)))[::-1]
        game = get_game(room.game_id)
        table = Table(
            room_id=room.id, game_row_id=row.id, game=game, seed=int(row.seed),
            players=room.players, options=game.Options.model_validate(room.options),
            state=game.load(row.state),
            version=row.version,
            seat_players={s.index: s.player_id for s in seats if s.player_id is not None},
            seat_bots={s.index: s.bot_level for s in seats if s.bot_level is not None},
            names=seat_names(seats, room.players, named),
            rematch_id=room.rematch_id,
            pace=room.pace, away_minutes=room.away_minutes, move_hours=room.move_hours,
            clock_setting=room.clock,
            clocks=Clocks.from_json(row.clocks) if row.clocks else None,
            started_at=epoch(row.started) or 0.0,
            moved_at=epoch(recent[-1].created if recent else row.started) or 0.0,
            last_seen={s.index: seen for s in seats
                       if s.player_id is not None and (seen := epoch(s.last_seen))},
            votes={s.index: frozenset(s.votes) for s in seats if s.votes},
            rules_version=row.rules_version or 1,
            readers=Readers(private=room.private, host_id=room.host_id,
                            people=frozenset(people), code=room.code, watch=room.watch),
        )
        for move in recent:
            table.moved(move.seat, epoch(move.created))
        logged = [move for move in recent if move.seq <= table.version]
        if any(move.events is None for move in logged):
            self._rebuilt_log(session, table)
        else:
            for move in logged:  # in the snapshot already: only its log lines
                for data in move.events or ():
                    table.log.append((move.seq, move.seat, event_from(data)))
        for move in self._moves(session, table, after=table.version):
            after = game.apply(table.state, move.seat, move.move)
            table.advance(move.seat, after, [event_from(e) for e in move.events or ()],
                          game.result(after) is not None)
        table.finished = game.result(table.state) is not None
        stored_end(table, row.finished, row.result)
        return table

    def _rebuilt_log(self, session: Session, table: Table) -> None:
        """The log of a game whose early moves were stored without their log lines (before
        migration 0003): rebuilt where today's rules reproduce the stored snapshot
        (app/rooms/rebuild.py), else one line saying that those lines are not available."""
        moves = self._moves(session, table, after=0, upto=table.version)
        try:
            past: Rebuilt | None = rebuild(
                table.game, table.players, table.options, table.seed,
                [(move.seat, move.move) for move in moves], table.state)
        except Diverged as exc:
            log.info("room %s: its early log lines cannot be rebuilt (%s)", table.room_id, exc)
            past = None
        table.log.extend(past_log([stored_lines(move) for move in moves], past))

    async def progress(self, game_row_id: int, after: int) -> list[Row[Any]]:
        """The stored game's version, clocks and end, and its moves after version ``after``
        (one row per move; one row with no move when there is none). Read by the move writer:
        with the jobs waiting beside it, in one transaction and one trip off the event loop."""
        rows: list[Row[Any]] = []

        def read(connection: Connection) -> None:
            rows[:] = connection.execute(PROGRESS, {"game_row": game_row_id, "after": after})

        await self.writer.write(read)
        return rows

    @staticmethod
    def catch_up(table: Table, progress: list[Row[Any]]) -> bool:
        """Move ``table`` on to the stored version by applying the stored moves after its
        own (read by :meth:`progress`), as :meth:`load` applies the moves after a snapshot;
        False where that cannot be done (the game is gone, a move is missing or predates the
        stored log lines, or it no longer applies: load the table instead)."""
        if not progress:
            return False
        moves = [row for row in progress if row.seq is not None]
        stored = progress[0]
        if [row.seq for row in moves] != list(range(table.version + 1, stored.version + 1)) \
                or any(row.events is None for row in moves):
            return False
        game = table.game
        try:
            for row in moves:
                after = game.apply(table.state, row.seat, row.move)
                table.advance(row.seat, after, [event_from(e) for e in row.events],
                              game.result(after) is not None)
                table.moved_at = epoch(row.created) or table.moved_at
                table.moved(row.seat, table.moved_at)
        except Exception:
            return False
        table.clocks = Clocks.from_json(stored.clocks) if stored.clocks else None
        if stored_end(table, stored.finished, stored.result):
            table.reseated()
        return True

    @staticmethod
    def _moves(session: Session, table: Table, after: int,
               upto: int | None = None) -> list[MoveRow]:
        """The game's stored moves after version ``after`` (up to ``upto``), in order."""
        query = (select(MoveRow).where(MoveRow.game_id == table.game_row_id)
                 .where(col(MoveRow.seq) > after))
        if upto is not None:
            query = query.where(col(MoveRow.seq) <= upto)
        return list(session.exec(query.order_by(col(MoveRow.seq))))

    def versions(self, room_ids: list[int]) -> dict[int, tuple[str, int | None]]:
        """Each room's status and game version (None before the start) as stored: one query
        for all of them (rooms that no longer exist are missing)."""
        with Session(self.engine) as session:
            rows = session.execute(
                select(Room.id, Room.status, GameRow.version)
                .outerjoin(GameRow, col(GameRow.room_id) == col(Room.id))
                .where(col(Room.id).in_(room_ids)))
            return {room_id: (status, version) for room_id, status, version in rows}

    def rooms_with_bots(self) -> list[int]:
        """The running rooms that seat a bot (to set them moving after a restart)."""
        with Session(self.engine) as session:
            return sorted(set(session.exec(
                select(Seat.room_id).join(Room, col(Room.id) == col(Seat.room_id))
                .where(Room.status == "playing").where(col(Seat.bot_level).is_not(None)))))

    # -- saving ----------------------------------------------------------------------------

    async def save_seat(self, room_id: int, seat: int, **values: Any) -> None:
        """Change a seat of a running game (who plays it, votes, last seen); committed in
        order with the moves."""
        statement = (update(Seat).where(col(Seat.room_id) == room_id)
                     .where(col(Seat.index) == seat).values(**values))
        await self.writer.write(functools.partial(_execute, statement))

    async def save_start(self, table: Table) -> None:
        """When the game was dealt (by the room service's clock) and its clocks."""
        statement = (update(GameRow).where(col(GameRow.id) == table.game_row_id)
                     .values(started=moment(table.started_at),
                             clocks=table.clocks.to_json() if table.clocks else None))
        await self.writer.write(functools.partial(_execute, statement))

    async def save_clocks(self, table: Table) -> None:
        """The clocks' reading, between moves (a seat handed over or taken back, a stop)."""
        statement = (update(GameRow).where(col(GameRow.id) == table.game_row_id)
                     .values(clocks=table.clocks.to_json() if table.clocks else None))
        await self.writer.write(functools.partial(_execute, statement))

    async def save_forfeit(self, table: Table, result: Result) -> None:
        """The game ended by a seat out of time that loses: the result and the room's
        status."""
        finish = (update(GameRow).where(col(GameRow.id) == table.game_row_id)
                  .values(finished=True, result=result.to_json(),
                          clocks=table.clocks.to_json() if table.clocks else None))

        def write(connection: Connection) -> None:
            connection.execute(finish)
            FINISH_ROOM(connection, {"room": table.room_id})

        await self.writer.write(write)

    async def save(self, table: Table, seat: int, move: Move, after: State,
                   events: list[Event], result: Result | None,
                   clocks: Clocks | None = None, at: float | None = None) -> None:
        """Store the move that takes ``table`` to its next version, made at ``at`` (epoch
        seconds), with the clocks' new reading; returns once committed. :class:`StaleTable`
        if another writer stored a move of this game first."""
        await self.writer.write(functools.partial(
            self._write if PLAIN_SQL else self._write_orm, table.room_id, table.game_row_id,
            table.version, seat, move, functools.partial(table.game.dump, after), events, result,
            clocks.to_json() if clocks else None, moment(at)))

    @staticmethod
    def _write(room_id: int, game_row_id: int, version: int, seat: int, move: Move,
               snapshot: Callable[[], dict[str, Any]], events: list[Event],
               result: Result | None, clocks: dict[str, Any] | None, at: datetime,
               connection: Connection) -> None:
        """The move row and the new snapshot, guarded by the version, in the writer's
        transaction (plain SQL statements: this runs for every move, in the writer's thread,
        where the snapshot is serialized too)."""
        try:
            INSERT_MOVE(connection, {"game_id": game_row_id, "seq": version + 1, "seat": seat,
                                     "move": move, "created": at,
                                     "events": [event_json(e) for e in events]})
            updated = UPDATE_GAME(connection, {
                "game_row": game_row_id, "expected": version, "new_state": snapshot(),
                "new_version": version + 1, "new_finished": result is not None,
                "new_result": result.to_json() if result else None, "new_clocks": clocks})
        except IntegrityError:
            raise StaleTable from None
        if updated != 1:
            raise StaleTable
        if result is not None:
            FINISH_ROOM(connection, {"room": room_id})

    @staticmethod
    def _write_orm(room_id: int, game_row_id: int, version: int, seat: int, move: Move,
                   snapshot: Callable[[], dict[str, Any]], events: list[Event],
                   result: Result | None, clocks: dict[str, Any] | None, at: datetime,
                   connection: Connection) -> None:
        """:meth:`_write` through an ORM session (the plain way, for the benchmarks: the
        session's unit of work cost more than the whole rest of a move)."""
        session = Session(bind=connection)
        try:
            session.add(MoveRow(game_id=game_row_id, seq=version + 1, seat=seat, move=move,
                                created=at,
                                events=[event_json(e) for e in events]))
            session.flush()
            updated = session.execute(
                update(GameRow).where(col(GameRow.id) == game_row_id)
                .where(col(GameRow.version) == version)
                .values(state=snapshot(), version=version + 1, finished=result is not None,
                        result=result.to_json() if result else None, clocks=clocks))
        except IntegrityError:
            raise StaleTable from None
        if updated.rowcount != 1:  # type: ignore[attr-defined]
            raise StaleTable
        if result is not None:
            session.execute(update(Room).where(col(Room.id) == room_id)
                            .values(status="finished"))
        session.flush()
