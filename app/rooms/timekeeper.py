"""Runs the rooms' chess clocks on the server (:mod:`app.rooms.clocks`).

One timer per room with running clocks fires when the first of them would run out; it then
checks under the room's lock (a move may have come first) and deals with every seat out of
time, as the room chose: a bot plays the seat on (the person may take it back, with no time
left their clock no longer runs while the bot plays), or the player loses and the game ends
(:func:`app.rooms.store.forfeit_result`).

The time comes from ``RoomService.clock`` (``time.time`` unless a test gives another), and
``check`` can be called directly: tests move a fake clock on and check, with no sleeping.

With several processes only the one holding the lease (:mod:`app.rooms.lease`) arms timers; it
hears of the others' moves and re-arms them (``RoomService.heard``). A process that loses the
lease disarms its timers at once (:meth:`Timekeeper.stop`); the next holder resumes the clocks
from the database (:meth:`Timekeeper.resume`).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from typing import TYPE_CHECKING

from anyio import to_thread
from sqlmodel import Session, col, select

from app.errors import ApiError
from app.models import Game, Room
from app.rooms.events import LobbyChanged
from app.rooms.store import forfeit_result

if TYPE_CHECKING:
    from app.rooms.service import RoomService

log = logging.getLogger("canopy.clocks")


class Timekeeper:
    def __init__(self, rooms: RoomService) -> None:
        self.rooms = rooms
        self._timers: dict[int, asyncio.TimerHandle] = {}
        self._checks: set[asyncio.Task[list[int]]] = set()

    def schedule(self, room_id: int) -> None:
        """(Re)arm the room's timer for the first running clock to run out."""
        timer = self._timers.pop(room_id, None)
        if timer is not None:
            timer.cancel()
        if not self.rooms.lease.held:
            return
        table = self.rooms.tables.peek(room_id)
        if table is None or table.clocks is None or table.finished:
            return
        due = table.clocks.next_flag(self.rooms.clock())
        if due is None:
            return
        loop = asyncio.get_running_loop()
        self._timers[room_id] = loop.call_later(max(0.0, due) + 0.05, self._fire, room_id)

    def _fire(self, room_id: int) -> None:
        self._timers.pop(room_id, None)
        task = asyncio.get_running_loop().create_task(self.check(room_id))
        self._checks.add(task)
        task.add_done_callback(self._checks.discard)

    async def check(self, room_id: int) -> list[int]:
        """Deal with the seats of the room whose time has run out; returns them."""
        try:
            table = await self.rooms.table(room_id)
        except ApiError:
            return []
        if table.clocks is None or table.finished:
            return []
        flagged = table.clocks.flagged(self.rooms.clock())
        if not flagged:
            self.schedule(room_id)
            return []
        if table.clocks.on_timeout == "lose":
            async with self.rooms.tables.lock(room_id):
                table = await self.rooms.current(room_id)
                if not self.rooms.lease.held:
                    return []
                if table.finished or table.clocks is None:
                    return []
                seat = flagged[0]
                table.clocks = table.clocks.at(self.rooms.clock(), frozenset())
                result = forfeit_result(table.game, table.state, table.players, seat)
                await self.rooms.store.save_forfeit(table, result)
                table.ended, table.finished = result, True
                table.reseated()
            await self.rooms.hub.publish(LobbyChanged(room_id))
            return [seat]
        for seat in flagged:
            try:
                await self.rooms.seating.hand_over(table, seat, table.game.bots[0].id,
                                                    ran_out=True)
            except ApiError as exc:  # the game ended meanwhile
                log.info("clock of seat %s in room %s: %s", seat, room_id, exc.detail)
        return flagged

    async def resume(self) -> int:
        """After a (re)start: the clocks of every running game run again from now (a clean
        stop paused them; after a crash they resume from the last reading)."""
        room_ids = await to_thread.run_sync(self._rooms_with_clocks)
        now = self.rooms.clock()
        for room_id in room_ids:
            try:
                table = await self.rooms.table(room_id)
            except ApiError:
                continue
            if table.clocks is not None and table.clocks.since is None:
                table.clocks = table.clocks.resumed(now)
                await self.rooms.store.save_clocks(table)
            self.schedule(room_id)
        return len(room_ids)

    def _rooms_with_clocks(self) -> list[int]:
        with Session(self.rooms.store.engine) as session:
            return sorted(session.exec(
                select(Game.room_id).join(Room, col(Room.id) == col(Game.room_id))
                .where(Room.status == "playing").where(col(Game.clocks).is_not(None))))

    async def stop(self) -> None:
        """Disarm every timer now (this process no longer holds the lease); the clocks run on
        in the database, where the next holder finds them."""
        for timer in self._timers.values():
            timer.cancel()
        self._timers.clear()
        for task in list(self._checks):
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task

    async def close(self) -> None:
        """A clean stop: in the process holding the lease, every running clock is paused and
        stored (no seat is charged for the time the server is down; the next holder resumes
        them). Elsewhere the clocks are not this process's to stop."""
        await self.stop()
        if not self.rooms.lease.held:
            return
        for cached in list(self.rooms.tables.all()):
            if cached.clocks is None or cached.finished:
                continue
            with contextlib.suppress(Exception):
                table = await self.rooms.table(cached.room_id)  # as the others moved it on
                if table.clocks is not None and table.clocks.since is not None \
                        and not table.finished:
                    table.clocks = table.clocks.paused(self.rooms.clock())
                    await self.rooms.store.save_clocks(table)
