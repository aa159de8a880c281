"""One room's events for this process's sockets (JSON and htmx alike).

Each room with sockets in this process has one :class:`RoomFeed`: a single hub subscription
and task that hands every event to each of the room's sockets in turn. (A task and a queue
per socket, each re-armed on every move, cost three more task switches per move and a dozen
objects per socket and move — enough to keep CPython's cycle collector busy at 500 rooms.)

A feed knows who is connected: the player behind each socket (``None`` for someone who
has not chosen a name). :meth:`Feeds.presence` reads it for the seat bar — with the pages that
other processes hold, as the hub knows them (the Redis hub keeps a copy, so this stays a plain
read) — and a socket that comes or goes announces :class:`PresenceChanged` to the room, with
who has a page of it open in this process.

A feed also keeps what its sockets compute once per game version and share — patch messages
per seat, rendered regions per seat — in :meth:`RoomFeed.shared`, dropped at the next version
and with the feed when the room's last socket goes.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

from starlette.websockets import WebSocket, WebSocketDisconnect

from app.rooms.events import Hub, PresenceChanged, RoomEvent

log = logging.getLogger("canopy.realtime")

#: A socket's handler for one event of its room.
OnEvent = Callable[[RoomEvent], Awaitable[None]]


@dataclass(frozen=True)
class Presence:
    """Who has a page of a room open in this process: the players' ids, and how many pages
    belong to nobody named yet."""

    players: frozenset[int] = frozenset()
    anonymous: int = 0


NOBODY = Presence()


class RoomFeed:
    def __init__(self, room_id: int) -> None:
        self.room_id = room_id
        self.members: dict[WebSocket, OnEvent] = {}
        #: The player behind each socket (None: nobody named).
        self.people: dict[WebSocket, int | None] = {}
        self.ready: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self.task: asyncio.Task[None] | None = None
        self._shared: dict[Any, Any] = {}
        self._shared_version: Any = None

    def shared(self, version: Any) -> dict[Any, Any]:
        """What the room's sockets computed at ``version`` (emptied when it moves on): the
        game's version, with the table's seating when that matters."""
        if version != self._shared_version:
            self._shared = {}
            self._shared_version = version
        return self._shared

    async def _run(self, hub: Hub, feeds: Feeds) -> None:
        try:
            async with hub.subscribe(self.room_id) as queue:
                self.ready.set_result(None)
                while True:
                    event = await queue.get()
                    for ws, on_event in list(self.members.items()):
                        try:
                            await on_event(event)
                        except (WebSocketDisconnect, RuntimeError):
                            pass  # the socket is gone: its reader ends it
                        except Exception:
                            log.exception("socket of room %s failed", self.room_id)
                            with contextlib.suppress(Exception):
                                await ws.close(code=1011)
        except BaseException as exc:  # cancelled (no member left), or the hub failed
            if not self.ready.done():
                if isinstance(exc, Exception):
                    self.ready.set_exception(exc)
                else:
                    self.ready.cancel()
            feeds.drop(self)
            raise


class Feeds:
    """The room feeds of this process."""

    def __init__(self, hub: Hub) -> None:
        self.hub = hub
        self._feeds: dict[int, RoomFeed] = {}

    def join(self, room_id: int, ws: WebSocket, on_event: OnEvent,
             player_id: int | None = None) -> RoomFeed:
        """Add a socket (of ``player_id``) to its room's feed, started if needed (the socket
        is closed if its handler fails). Await ``feed.ready`` before the first catch-up (no
        event is missed after it), then :meth:`announce`; call :meth:`leave` in any case."""
        feed = self._feeds.get(room_id)
        if feed is None:
            feed = self._feeds[room_id] = RoomFeed(room_id)
            feed.task = asyncio.create_task(feed._run(self.hub, self))
        feed.members[ws] = on_event
        feed.people[ws] = player_id
        return feed

    async def leave(self, feed: RoomFeed, ws: WebSocket) -> None:
        """Take the socket out of its feed (the feed stops with its last socket) and tell
        the room's other pages who is connected now."""
        feed.members.pop(ws, None)
        feed.people.pop(ws, None)
        if not feed.members:
            self.drop(feed)
            if feed.task is not None:
                feed.task.cancel()
        await self.announce(feed.room_id)

    async def announce(self, room_id: int) -> None:
        """Tell the room's sockets (in every process) that who is connected changed."""
        here = self.here(room_id)
        await self.hub.publish(PresenceChanged(room_id, here.players, here.anonymous))

    def here(self, room_id: int) -> Presence:
        """Who has a page of the room open in this process now."""
        feed = self._feeds.get(room_id)
        if feed is None:
            return NOBODY
        people = list(feed.people.values())
        return Presence(frozenset(p for p in people if p is not None),
                        sum(p is None for p in people))

    def presence(self, room_id: int) -> Presence:
        """Who has a page of the room open now, in this process or another."""
        here = self.here(room_id)
        elsewhere = self.hub.present_elsewhere(room_id)
        if elsewhere is None:
            return here
        players, anonymous = elsewhere
        return Presence(here.players | players, here.anonymous + anonymous)

    def drop(self, feed: RoomFeed) -> None:
        if self._feeds.get(feed.room_id) is feed:
            del self._feeds[feed.room_id]
