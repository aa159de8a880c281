"""The room-event hub: what happened in a room, from the lobby and the room service to every
socket of that room (DESIGN.md §6). One process uses :class:`MemoryHub`; several processes use
the Redis hub (:mod:`app.rooms.broadcast`), which has the same methods.

Events say *that* something changed, never what a seat may see: each subscriber reads its own
seat's view afterwards. A subscriber only needs the latest game version — a slow socket that
missed an event still catches up, because it diffs what it last sent against the present.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from dataclasses import dataclass
from typing import Protocol


@dataclass(frozen=True, slots=True)
class GameMoved:
    """A move was committed: the room's game is now at ``version``."""

    room_id: int
    version: int


@dataclass(frozen=True, slots=True)
class LobbyChanged:
    """Seats, bots or the status of the room changed (before or at the start), or the room
    was closed."""

    room_id: int


@dataclass(frozen=True, slots=True)
class PresenceChanged:
    """Someone opened or closed a page of the room (who is connected now changed). It carries
    who has a page of the room open in the process that published it: the Redis hub tells the
    other processes (one process reads its own sockets instead)."""

    room_id: int
    players: frozenset[int] = frozenset()
    anonymous: int = 0


RoomEvent = GameMoved | LobbyChanged | PresenceChanged


#: Who has a page of a room open: the players' ids, and how many pages belong to nobody
#: named yet.
Present = tuple[frozenset[int], int]


class Hub(Protocol):
    async def publish(self, event: RoomEvent) -> None: ...

    def subscribe(self, room_id: int) -> AbstractAsyncContextManager[asyncio.Queue[RoomEvent]]:
        ...

    def present_elsewhere(self, room_id: int) -> Present | None:
        """Who has a page of the room open in the other processes (None: there are none)."""


class MemoryHub:
    """An in-process hub: one bounded queue per subscriber; on overflow the oldest event is
    dropped (the subscriber catches up from the present anyway)."""

    QUEUED = 16

    def __init__(self) -> None:
        self._rooms: dict[int, set[asyncio.Queue[RoomEvent]]] = {}

    async def publish(self, event: RoomEvent) -> None:
        self.deliver(event)

    def deliver(self, event: RoomEvent) -> None:
        """Hand the event to the room's subscribers in this process."""
        for queue in list(self._rooms.get(event.room_id, ())):
            if queue.full():
                queue.get_nowait()
            queue.put_nowait(event)

    def rooms(self) -> list[int]:
        """The rooms that have subscribers in this process."""
        return list(self._rooms)

    def subscribed(self, room_id: int) -> bool:
        """The room has subscribers in this process."""
        return room_id in self._rooms

    def present_elsewhere(self, room_id: int) -> Present | None:
        return None  # one process: nobody elsewhere

    @asynccontextmanager
    async def subscribe(self, room_id: int) -> AsyncIterator[asyncio.Queue[RoomEvent]]:
        queue: asyncio.Queue[RoomEvent] = asyncio.Queue(maxsize=self.QUEUED)
        self._rooms.setdefault(room_id, set()).add(queue)
        try:
            yield queue
        finally:
            subscribers = self._rooms.get(room_id)
            if subscribers is not None:
                subscribers.discard(queue)
                if not subscribers:
                    del self._rooms[room_id]
