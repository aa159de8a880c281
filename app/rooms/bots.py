"""Bots: they play through the same path as people (``RoomService.play``), see only their
seat's view, and are set moving after the commit that makes their seat active (DESIGN.md §6).

One task per room at most drives that room's bots, one move after another, each after
``delay`` seconds so that people can follow. A bot whose move is refused (a person moved first
in a simultaneous phase, another process stored a move first) looks again.

A table with no person seated (bots alone) is played only while someone looks at it: once
nobody has had a page of it open or read its state for ``BOT_TABLE_IDLE_MINUTES``, its bots
stop (``RoomService.unwatched``), and the next look sets them moving again
(``RoomService.looked_at``). Such tables otherwise run unseen and unbounded.

With several processes only the one holding the lease (:mod:`app.rooms.lease`) drives bots:
elsewhere :meth:`Bots.schedule` does nothing, and the holder hears of the others' moves and sets
their bots moving (``RoomService.heard``).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from typing import TYPE_CHECKING

from anyio import to_thread

from app.errors import ApiError
from app.games.base import seeded_rng

if TYPE_CHECKING:
    from app.rooms.service import RoomService

log = logging.getLogger("canopy.bots")


class Bots:
    def __init__(self, rooms: RoomService, delay: float) -> None:
        self.rooms = rooms
        self.delay = delay
        self._tasks: dict[int, asyncio.Task[None]] = {}
        self._closed = False

    def busy(self, room_id: int) -> bool:
        """A bot of the room is about to move (its table must stay in memory)."""
        task = self._tasks.get(room_id)
        return task is not None and not task.done()

    def schedule(self, room_id: int) -> None:
        """Let the bots whose seats are active move (after a commit or a start), if this
        process runs the timers."""
        if self._closed or not self.rooms.lease.held or self.busy(room_id):
            return
        self._tasks.pop(room_id, None)
        table = self.rooms.tables.peek(room_id)
        if table is None or table.finished:
            return
        if not set(table.seat_bots) & table.game.active_seats(table.state):
            return
        self._tasks[room_id] = asyncio.get_running_loop().create_task(self._drive(room_id))

    async def _drive(self, room_id: int) -> None:
        while True:
            if self.delay:
                await asyncio.sleep(self.delay)
            try:  # reloaded if another process stored a move first (our copy was dropped)
                table = await self.rooms.table(room_id)
            except ApiError:
                return
            if table.finished:
                return
            if self.rooms.unwatched(table):  # bots alone, nobody looking: wait for someone
                log.info("room %s: its bots wait, nobody has looked at the table for %g s",
                         room_id, self.rooms.bot_table_idle)
                return
            bots = sorted(set(table.seat_bots) & table.game.active_seats(table.state))
            if not bots:
                return
            seat = bots[0]
            level = table.game.bot(table.seat_bots[seat]) or table.game.bots[0]
            legal = table.game.legal_moves(table.state, seat)
            move = level.choose(table.view(seat), legal,
                                seeded_rng(table.seed, "bot", table.version, seat))
            try:
                await self.rooms.play(room_id, None, move, table.version, bot_seat=seat)
            except ApiError as exc:  # a person moved first (simultaneous phase): look again
                log.info("bot move in room %s not taken: %s", room_id, exc.detail)
            except Exception:  # a bot must never take the server down
                log.exception("bot in room %s failed", room_id)
                return

    async def resume(self) -> int:
        """After a (re)start: set the bots of every running game moving again."""
        room_ids = await to_thread.run_sync(self.rooms.store.rooms_with_bots)
        for room_id in room_ids:
            try:
                await self.rooms.table(room_id)
            except ApiError:
                continue
            self.schedule(room_id)
        return len(room_ids)

    async def stop(self) -> None:
        """Stop every bot now (this process no longer holds the lease); :meth:`resume` sets
        them moving again."""
        tasks = list(self._tasks.values())
        self._tasks.clear()
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task

    async def close(self) -> None:
        self._closed = True  # a move that ends now schedules no more
        await self.stop()
