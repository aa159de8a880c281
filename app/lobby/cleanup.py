"""The clean-up: rooms never started and idle for ``ROOM_IDLE_HOURS`` are removed with their
seats, then players who hold no seat anywhere and were created more than ``PLAYER_IDLE_DAYS``
ago. Started rooms — playing or finished — are never touched, nor their seats, games and
moves: a finished game stays replayable, and its players stay with it.

:func:`sweep` does one pass in one transaction; :func:`run_cleanup` calls it every
``CLEANUP_EVERY_MINUTES`` off the event loop, and :func:`start_cleanup` runs that loop for the
app's lifespan — with several processes, only in the one holding the lease
(:mod:`app.rooms.lease`; ``app.main.Timers``), so that one sweep runs at a time.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from typing import Any

from anyio import to_thread
from sqlalchemy import Column, delete, exists, update
from sqlalchemy.engine import Engine
from sqlmodel import Session, SQLModel, col, select

from app.config import Settings
from app.identity import forget_players
from app.models import Player, Room, Seat
from app.models import now as utc_now

log = logging.getLogger("canopy.cleanup")

Clock = Callable[[], datetime]


def as_utc(value: datetime) -> datetime:
    """``value`` as an aware UTC datetime. The database stores UTC: SQLite has no time zones
    and gives naive datetimes back (through raw SQL, or older SQLModel versions), which are
    read as UTC; an aware one is converted."""
    if value.tzinfo is None or value.utcoffset() is None:
        return value.replace(tzinfo=UTC)
    return value.astimezone(UTC)


def last_change(room: Room, seats: list[Seat]) -> datetime:
    """When a room last changed: the latest of its creation and its seats' joins (UTC)."""
    return max([as_utc(room.created), *(as_utc(seat.joined) for seat in seats)])


def sweep(engine: Engine, now: datetime, room_idle: timedelta,
          player_idle: timedelta) -> tuple[int, int]:
    """Remove the rooms still in the lobby whose last change is older than ``now - room_idle``
    (with their seats), then the players created before ``now - player_idle`` whom no row
    refers to any more — no seat in any room, creator or host of no remaining room; one
    transaction. Returns (rooms removed, players removed); the removed players' tokens are
    forgotten by the token cache.

    The first statement takes the write lock on the candidate rooms (SQLite: the database's
    one writer lock; PostgreSQL: their rows) like every lobby command does on its room, so a
    join, leave or start of one of them waits for the sweep and then finds the room gone (404),
    or committed before and is seen here."""
    now = as_utc(now)
    room_cutoff = now - room_idle
    player_cutoff = now - player_idle
    with Session(engine, expire_on_commit=False) as session:
        lobby = (col(Room.status) == "lobby", col(Room.created) < room_cutoff)
        session.execute(update(Room).where(*lobby).values(status=Room.status)
                        .execution_options(synchronize_session=False))
        rooms = list(session.exec(select(Room).where(*lobby)))
        seats_of: dict[int, list[Seat]] = {}
        if rooms:
            ids = [room.id for room in rooms]
            for seat in session.exec(select(Seat).where(col(Seat.room_id).in_(ids))):
                seats_of.setdefault(seat.room_id, []).append(seat)
        idle = [room.id for room in rooms
                if room.id is not None and last_change(room, seats_of.get(room.id, []))
                < room_cutoff]
        for chunk in _chunks(idle):
            session.execute(delete(Seat).where(col(Seat.room_id).in_(chunk)))
            session.execute(update(Room).where(col(Room.rematch_id).in_(chunk))  # a rematch
                            .values(rematch_id=None))  # never started: "Play again" anew
            session.execute(delete(Room).where(col(Room.id).in_(chunk)))

        referenced = [~exists().where(column == col(Player.id)) for column in _player_refs()]
        candidates = session.exec(
            select(Player).where(col(Player.created) < player_cutoff, *referenced))
        gone = [player.id for player in candidates
                if player.id is not None and as_utc(player.created) < player_cutoff]
        for chunk in _chunks(gone):
            session.execute(delete(Player).where(col(Player.id).in_(chunk)))
        session.commit()
    if gone:
        forget_players(engine, gone)
    return len(idle), len(gone)


def _player_refs() -> list[Column[Any]]:
    """Every column that refers to a player (a seat's occupant, a room's creator or host…): a
    player any row still refers to stays, or the foreign key would break."""
    player = Player.__table__  # type: ignore[attr-defined]
    return [fk.parent for table in SQLModel.metadata.sorted_tables
            for fk in table.foreign_keys if fk.column.table is player]


def _chunks(ids: list[int], size: int = 500) -> list[list[int]]:
    """``ids`` in slices short enough for any driver's limit on bound parameters."""
    return [ids[i:i + size] for i in range(0, len(ids), size)]


async def run_cleanup(engine: Engine, settings: Settings, clock: Clock = utc_now) -> None:
    """Sweep now and then every ``settings.cleanup_every_minutes`` (0 or less: never), each in
    a worker thread; log what was removed. A failed sweep is logged and the loop goes on; it
    ends only when cancelled (a sweep under way finishes first)."""
    every = settings.cleanup_every_minutes * 60
    if every <= 0:
        return
    room_idle = timedelta(hours=settings.room_idle_hours)
    player_idle = timedelta(days=settings.player_idle_days)
    while True:
        try:
            rooms, players = await to_thread.run_sync(sweep, engine, clock(), room_idle,
                                                      player_idle)
        except Exception:
            log.exception("the clean-up failed; trying again in %g minutes",
                          settings.cleanup_every_minutes)
        else:
            if rooms or players:
                log.info("clean-up: removed %d idle room%s and %d idle player%s",
                         rooms, "" if rooms == 1 else "s", players, "" if players == 1 else "s")
        await asyncio.sleep(every)


class Cleanup:
    """The clean-up loop running as a task of the app's event loop."""

    def __init__(self, task: asyncio.Task[None]) -> None:
        self.task = task

    async def stop(self) -> None:
        """Cancel the loop and wait for it (and for a sweep under way)."""
        self.task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await self.task


def start_cleanup(engine: Engine, settings: Settings, clock: Clock = utc_now) -> Cleanup:
    """Start :func:`run_cleanup` in the running event loop (the app's lifespan)."""
    return Cleanup(asyncio.get_running_loop().create_task(
        run_cleanup(engine, settings, clock), name="canopy-cleanup"))
