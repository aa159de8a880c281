"""The broadcast backend: "room R changed (now at version V)" from the room service to every
socket of that room. One process uses the in-memory hub; scale-out swaps in another backend
with the same two methods (DESIGN.md §6).

A subscriber only needs the latest version: a slow socket that misses a notification still
catches up, because it diffs its last sent view against the current one.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from typing import Protocol

#: Published when a room's lobby changed (seats, bots, start) rather than its game.
LOBBY_CHANGED = -1


class Hub(Protocol):
    async def publish(self, room_id: int, version: int) -> None: ...

    def subscribe(self, room_id: int) -> AbstractAsyncContextManager[asyncio.Queue[int]]: ...


class MemoryHub:
    """An in-process hub: one bounded queue per subscriber; on overflow the oldest is dropped."""

    def __init__(self) -> None:
        self._rooms: dict[int, set[asyncio.Queue[int]]] = {}

    async def publish(self, room_id: int, version: int) -> None:
        for queue in list(self._rooms.get(room_id, ())):
            if queue.full():
                queue.get_nowait()
            queue.put_nowait(version)

    @asynccontextmanager
    async def subscribe(self, room_id: int) -> AsyncIterator[asyncio.Queue[int]]:
        queue: asyncio.Queue[int] = asyncio.Queue(maxsize=16)
        self._rooms.setdefault(room_id, set()).add(queue)
        try:
            yield queue
        finally:
            subscribers = self._rooms.get(room_id)
            if subscribers is not None:
                subscribers.discard(queue)
                if not subscribers:
                    del self._rooms[room_id]

    def subscriber_count(self, room_id: int) -> int:
        return len(self._rooms.get(room_id, ()))
