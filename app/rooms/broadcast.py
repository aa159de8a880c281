"""The hub of several processes: Redis pub/sub (``BROADCAST_URL=redis://…``), with the same
methods as :class:`app.rooms.events.MemoryHub` (issue 13).

- **One channel for every room** (``canopy:rooms:<db>``), subscribed once per process on one
  pub/sub connection: every process hears every room's events, so the tables it caches follow
  the others' moves (``RoomService.heard``) and the process running the timers sets their bots
  and clocks moving. Within the process, subscribers are per room (the room's feed), counted as
  in the memory hub: the first subscriber of a room creates its entry, the last removes it.
- **Messages are small ASCII lines**: the origin process, the kind, the room, the version (or
  the origin's presence in the room). A process hands its own events to its own subscribers at
  once and skips them when Redis sends them back.
- **Publishing never waits for Redis**: a writer task sends whatever is pending in one pipeline,
  the newest event per room and kind; while Redis is away it keeps them and tries again with
  backoff. A reader task resubscribes with backoff when the connection breaks, then runs the
  resyncs (:class:`Resync`): nothing a process missed meanwhile leaves a page stale.
- **Presence** (who has a page of a room open, for the seat bar): each process keeps its own in
  a Redis hash (``canopy:<db>:presence:<process>``, room → stamp, anonymous pages, players),
  expiring ``2 × RESYNC_SECONDS`` after its last refresh, and announces each change in the
  event. The others keep a copy, replaced by the hashes at every resync: a dead process's
  entries vanish within about two resync periods.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
import socket
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from app.rooms.events import (
    GameMoved,
    LobbyChanged,
    MemoryHub,
    PresenceChanged,
    Present,
    RoomEvent,
)

if TYPE_CHECKING:
    from redis.asyncio import Redis

    from app.rooms.service import RoomService

log = logging.getLogger("canopy.broadcast")

#: Told of every event from another process, before this process's subscribers hear of it.
Listener = Callable[[RoomEvent], None]
#: Runs after every (re)subscription: what was missed while not subscribed.
Catchup = Callable[[], Awaitable[None]]


@dataclass(frozen=True, slots=True)
class Seen:
    """One process's presence in one room, with the stamp of the change that made it."""

    stamp: int
    players: frozenset[int]
    anonymous: int

    def text(self) -> str:
        return f"{self.stamp} {self.anonymous} {','.join(map(str, sorted(self.players)))}"

    @staticmethod
    def parse(stamp: str, anonymous: str, players: str) -> Seen:
        return Seen(int(stamp), frozenset(int(p) for p in players.split(",") if p),
                    int(anonymous))


@dataclass
class Elsewhere:
    """Another process's presence: per room, and the newest stamp heard from it."""

    stamp: int = 0
    rooms: dict[int, Seen] = field(default_factory=dict)


def encode(origin: str, event: RoomEvent, seen: Seen | None = None) -> bytes:
    """``<origin> m <room> <version>``, ``<origin> l <room>`` or
    ``<origin> p <room> <stamp> <anonymous> <players>``."""
    if isinstance(event, GameMoved):
        return f"{origin} m {event.room_id} {event.version}".encode()
    if isinstance(event, LobbyChanged):
        return f"{origin} l {event.room_id}".encode()
    assert seen is not None
    return f"{origin} p {event.room_id} {seen.text()}".encode()


def decode(data: bytes) -> tuple[str, RoomEvent, Seen | None] | None:
    """The origin, the event and (for presence) what it says; None if it is not one."""
    try:
        parts = data.decode("ascii").split(" ")
        origin, kind, room = parts[0], parts[1], int(parts[2])
        if kind == "m" and len(parts) == 4:
            return origin, GameMoved(room, int(parts[3])), None
        if kind == "l" and len(parts) == 3:
            return origin, LobbyChanged(room), None
        if kind == "p" and len(parts) == 6:
            seen = Seen.parse(parts[3], parts[4], parts[5])
            return origin, PresenceChanged(room, seen.players, seen.anonymous), seen
    except (ValueError, IndexError, UnicodeDecodeError):
        pass
    return None


def _keepalive() -> dict[int, int]:
    """TCP keepalive that notices a silent Redis within about 10 s (Linux)."""
    options = {}
    for name, value in (("TCP_KEEPIDLE", 4), ("TCP_KEEPINTVL", 2), ("TCP_KEEPCNT", 3)):
        if hasattr(socket, name):
            options[getattr(socket, name)] = value
    return options


class RedisHub:
    """Room events between processes through Redis pub/sub (see the module's text)."""

    #: Seconds before the first new try after a failure, and at most between tries.
    RETRY_FIRST = 0.05
    RETRY_MOST = 2.0

    def __init__(self, url: str, resync_seconds: float) -> None:
        from redis.asyncio import Redis
        from redis.asyncio.retry import Retry
        from redis.backoff import NoBackoff

        self.url = url
        self.process = secrets.token_hex(6)
        # Failures are this hub's to handle (it must know when its subscription broke):
        # no silent retries in the client.
        self.client: Redis = Redis.from_url(
            url, retry=Retry(NoBackoff(), 0), socket_connect_timeout=2, socket_timeout=5,
            socket_keepalive=True, socket_keepalive_options=_keepalive(),
            client_name=f"canopy-{self.process}")
        db = self.client.connection_pool.connection_kwargs.get("db", 0)
        self.channel = f"canopy:rooms:{db}"
        self._presence_key = f"canopy:{db}:presence:{self.process}"
        self._presence_prefix = f"canopy:{db}:presence:"
        self._processes_key = f"canopy:{db}:processes"
        self._own = f"{self.process} ".encode()
        #: Seconds a process's presence outlives its last refresh.
        self.presence_ttl = max(1.0, 2 * resync_seconds)
        self.local = MemoryHub()
        #: The newest game version handed to this process's subscribers of each room.
        self.delivered: dict[int, int] = {}
        self.listeners: list[Listener] = []
        self.catchups: list[Catchup] = []
        self.subscribed = asyncio.Event()
        #: Events sent to Redis so far.
        self.sent = 0
        self._pending: dict[tuple[str, int], bytes] = {}
        self._writes: dict[int, Seen] = {}
        self._rewrite = False
        self._wake = asyncio.Event()
        self._stamp = 0
        self._mine: dict[int, Seen] = {}
        self._others: dict[str, Elsewhere] = {}
        self._tasks: list[asyncio.Task[None]] = []
        self._helpers: set[asyncio.Task[None]] = set()

    # -- the Hub protocol ------------------------------------------------------------------

    async def publish(self, event: RoomEvent) -> None:
        """Deliver to this process's subscribers now; the other processes hear of it when
        the writer next sends (within one round trip to Redis while it answers)."""
        room_id = event.room_id
        if isinstance(event, PresenceChanged):
            self._stamp += 1
            seen = Seen(self._stamp, event.players, event.anonymous)
            if seen.players or seen.anonymous:
                self._mine[room_id] = seen
            else:
                self._mine.pop(room_id, None)
            self._writes[room_id] = seen
            self._pending[("p", room_id)] = encode(self.process, event, seen)
        else:
            kind = "m" if isinstance(event, GameMoved) else "l"
            self._pending[(kind, room_id)] = encode(self.process, event)
        self._wake.set()
        self.deliver(event)

    @asynccontextmanager
    async def subscribe(self, room_id: int) -> AsyncIterator[asyncio.Queue[RoomEvent]]:
        try:
            async with self.local.subscribe(room_id) as queue:
                yield queue
        finally:
            if not self.local.subscribed(room_id):
                self.delivered.pop(room_id, None)

    def present_elsewhere(self, room_id: int) -> Present | None:
        players: frozenset[int] = frozenset()
        anonymous = 0
        for other in self._others.values():
            seen = other.rooms.get(room_id)
            if seen is not None:
                players |= seen.players
                anonymous += seen.anonymous
        return (players, anonymous) if players or anonymous else None

    # -- this process's subscribers ----------------------------------------------------------

    def deliver(self, event: RoomEvent) -> None:
        """Hand an event to this process's subscribers of its room (noting the version)."""
        if isinstance(event, GameMoved) and self.local.subscribed(event.room_id) \
                and event.version > self.delivered.get(event.room_id, -1):
            self.delivered[event.room_id] = event.version
        self.local.deliver(event)

    def _heard(self, data: bytes) -> None:
        """A message from Redis: another process's event (our own come back: skipped)."""
        if data.startswith(self._own):
            return
        decoded = decode(data)
        if decoded is None:
            log.warning("not a room event on %s: %r", self.channel, data[:80])
            return
        origin, event, seen = decoded
        if seen is not None:
            self._note(origin, event.room_id, seen)
        for listener in self.listeners:
            try:
                listener(event)
            except Exception:
                log.exception("handling %s failed", event)
        self.deliver(event)

    # -- lifetime ----------------------------------------------------------------------------

    async def start(self, wait: float = 2.0) -> None:
        """Start the reader and the writer, write this process's presence, and wait up to
        ``wait`` seconds for the subscription (the app starts anyway: the reader keeps
        trying, and the resyncs cover what happens meanwhile)."""
        loop = asyncio.get_running_loop()
        self._tasks = [loop.create_task(self._read(), name="canopy-hub-reader"),
                       loop.create_task(self._write(), name="canopy-hub-writer")]
        self._rewrite = True
        self._wake.set()
        try:
            await asyncio.wait_for(self.subscribed.wait(), wait)
        except TimeoutError:
            log.warning("Redis at %s does not answer yet; the hub keeps trying", self._where())

    async def stop(self) -> None:
        """Stop the tasks, send the events still pending and remove this process's presence
        from Redis (best effort: the others' resync covers what does not arrive)."""
        for task in [*self._tasks, *self._helpers]:
            task.cancel()
        for task in [*self._tasks, *self._helpers]:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        with contextlib.suppress(Exception):
            if self._pending:
                await asyncio.wait_for(self._send(self._pending, {}, False), 1.0)
        with contextlib.suppress(Exception):
            pipe = self.client.pipeline(transaction=False)
            pipe.delete(self._presence_key)
            pipe.srem(self._processes_key, self.process)
            await asyncio.wait_for(pipe.execute(), 1.0)
        with contextlib.suppress(Exception):
            await self.client.aclose()

    def _where(self) -> str:
        kwargs = self.client.connection_pool.connection_kwargs
        return f"{kwargs.get('host', '?')}:{kwargs.get('port', '?')}"

    def _spawn(self, job: Awaitable[None]) -> None:
        async def run() -> None:
            try:
                await job
            except Exception:
                log.exception("a resync after the subscription failed")

        task = asyncio.get_running_loop().create_task(run())
        self._helpers.add(task)
        task.add_done_callback(self._helpers.discard)

    async def _read(self) -> None:
        """The subscription: one pub/sub connection, resubscribed with backoff when it breaks;
        after each subscription, the catch-ups run (events may have been missed)."""
        failures = 0
        while True:
            pubsub = self.client.pubsub()
            try:
                await pubsub.subscribe(self.channel)
                while True:  # the confirmation: from now on no event is missed
                    message = await pubsub.get_message(timeout=None)
                    if message is not None and message["type"] == "subscribe":
                        break
                failures = 0
                self.subscribed.set()
                for catchup in self.catchups:
                    self._spawn(catchup())
                while True:
                    message = await pubsub.get_message(ignore_subscribe_messages=True,
                                                       timeout=None)
                    if message is not None and message["type"] == "message":
                        self._heard(message["data"])
            except asyncio.CancelledError:
                raise
            except Exception as exc:
                if self.subscribed.is_set():
                    log.warning("the Redis subscription broke (%s); subscribing again", exc)
            finally:
                self.subscribed.clear()
                with contextlib.suppress(Exception):
                    await pubsub.aclose()
            await asyncio.sleep(self._backoff(failures))
            failures += 1

    def _backoff(self, failures: int) -> float:
        """Seconds to wait after ``failures`` failures in a row."""
        return float(min(self.RETRY_FIRST * 2 ** min(failures, 16), self.RETRY_MOST))

    async def _write(self) -> None:
        """Send what is pending, in one pipeline per round trip; keep it through failures."""
        failures = 0
        while True:
            await self._wake.wait()
            self._wake.clear()
            pending, writes, rewrite = self._pending, self._writes, self._rewrite
            self._pending, self._writes, self._rewrite = {}, {}, False
            try:
                await self._send(pending, writes, rewrite)
            except asyncio.CancelledError:
                raise
            except Exception as exc:
                if not failures:
                    log.warning("Redis refused a publish (%s); trying again", exc)
                for key, message in pending.items():  # unless something newer replaced it
                    self._pending.setdefault(key, message)
                for room_id, seen in writes.items():
                    self._writes.setdefault(room_id, seen)
                self._rewrite |= rewrite
                await asyncio.sleep(self._backoff(failures))
                failures += 1
                self._wake.set()
                continue
            failures = 0
            self.sent += len(pending)

    async def _send(self, pending: dict[tuple[str, int], bytes], writes: dict[int, Seen],
                    rewrite: bool) -> None:
        """One pipeline: this process's presence (all of it on ``rewrite``, else the rooms
        that changed) in a transaction, then the events — a process that hears of a change
        finds it in the hash already."""
        presence = rewrite or bool(writes)
        pipe = self.client.pipeline(transaction=presence)
        key = self._presence_key
        if rewrite:
            pipe.delete(key)
            pipe.hset(key, mapping={"stamp": self._stamp,
                                    **{str(room): seen.text()
                                       for room, seen in self._mine.items()}})
            pipe.sadd(self._processes_key, self.process)
        elif writes:
            for room_id, seen in writes.items():
                if seen.players or seen.anonymous:
                    pipe.hset(key, str(room_id), seen.text())
                else:
                    pipe.hdel(key, str(room_id))
            pipe.hset(key, "stamp", self._stamp)
        if presence:
            pipe.pexpire(key, int(self.presence_ttl * 1000))
        for message in pending.values():
            pipe.publish(self.channel, message)
        await pipe.execute()

    # -- presence ----------------------------------------------------------------------------

    def _note(self, origin: str, room_id: int, seen: Seen) -> None:
        """Another process's presence in a room changed (its event)."""
        other = self._others.setdefault(origin, Elsewhere())
        before = other.rooms.get(room_id)
        if before is not None and before.stamp >= seen.stamp:
            return
        other.stamp = max(other.stamp, seen.stamp)
        if seen.players or seen.anonymous:
            other.rooms[room_id] = seen
        else:
            other.rooms.pop(room_id, None)

    async def refresh_presence(self) -> None:
        """Write this process's presence again (its expiry starts over) and read the others'
        from their hashes: a process whose hash expired is dead, and its pages are gone.
        The rooms whose presence changed here hear of it."""
        self._rewrite = True
        self._wake.set()
        members = await self.client.smembers(self._processes_key)
        names = {m.decode() if isinstance(m, bytes) else m for m in members}
        others = sorted(names - {self.process})
        pipe = self.client.pipeline(transaction=False)
        for origin in others:
            pipe.hgetall(self._presence_prefix + origin)
        found: list[dict[bytes, bytes]] = await pipe.execute() if others else []
        before = self._others
        after: dict[str, Elsewhere] = {}
        dead = []
        for origin, fields in zip(others, found, strict=True):
            if not fields:
                dead.append(origin)
                continue
            stamp = int(fields.pop(b"stamp", b"0"))
            known = before.get(origin)
            if known is not None and known.stamp > stamp:
                after[origin] = known  # its events are newer than its hash as we read it
                continue
            rooms = {}
            for room, text in fields.items():
                with contextlib.suppress(ValueError):
                    rooms[int(room)] = Seen.parse(*text.decode().split(" ", 2))
            after[origin] = Elsewhere(stamp, rooms)
        if dead:
            await self.client.srem(self._processes_key, *dead)
        self._others = after
        changed = {room for origin in {*before, *after}
                   for room in _changed_rooms(before.get(origin), after.get(origin))}
        for room_id in changed:
            self.local.deliver(PresenceChanged(room_id))


def _changed_rooms(before: Elsewhere | None, after: Elsewhere | None) -> set[int]:
    """The rooms where what a process shows differs between two readings of it."""
    old = before.rooms if before is not None else {}
    new = after.rooms if after is not None else {}

    def shown(seen: Seen | None) -> tuple[frozenset[int], int]:
        return (seen.players, seen.anonymous) if seen is not None else (frozenset(), 0)

    return {room for room in {*old, *new} if shown(old.get(room)) != shown(new.get(room))}


class Resync:
    """A lost message never leaves a page stale: every ``every`` seconds, and after each
    (re)subscription, this process reads the stored version and status of every room it has
    sockets or a cached table for — one query for all of them — and where the database is
    ahead of what it knows, marks the cached table as behind (its next use catches up) and
    hands the room's sockets an event, so that they catch up too (each socket diffs from what
    it last sent to the present). A room whose status changed meanwhile (a start, an end out
    of time) is loaded again.

    After a (re)subscription, anything may have been missed: every cached table is dropped,
    every room with sockets hears of it, and the process holding the lease resumes its bots
    and clocks from the database."""

    def __init__(self, hub: RedisHub, rooms: RoomService, every: float) -> None:
        self.hub = hub
        self.rooms = rooms
        self.every = every
        #: The status each room had at the last sweep.
        self._statuses: dict[int, str] = {}
        self._task: asyncio.Task[None] | None = None
        self._lock = asyncio.Lock()
        hub.catchups.append(self.after_subscribing)

    def start(self) -> None:
        self._task = asyncio.get_running_loop().create_task(self._run(), name="canopy-resync")

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task

    async def _run(self) -> None:
        while True:
            await asyncio.sleep(self.every)
            try:
                await self.sweep()
            except Exception as exc:
                log.warning("the resync failed (%s); trying again in %g s", exc, self.every)

    async def after_subscribing(self) -> None:
        self.rooms.tables.drop_all()
        await self.sweep(everything=True)
        if self.rooms.lease.held:
            await self.rooms.take_over()

    async def sweep(self, everything: bool = False) -> None:
        """One comparison of what this process knows with the database (``everything``:
        every room with sockets hears of it, as after a lost subscription)."""
        async with self._lock:
            with contextlib.suppress(Exception):  # Redis away: the versions still count
                await self.hub.refresh_presence()
            room_ids = sorted({*self.hub.local.rooms(), *self.rooms.tables.room_ids()})
            stored = await self.rooms.stored(room_ids) if room_ids else {}
            statuses: dict[int, str] = {}
            for room_id in room_ids:
                status, version = stored.get(room_id, ("gone", None))
                statuses[room_id] = status
                table = self.rooms.cached(room_id)
                reseated = everything or self._statuses.get(room_id, status) != status
                if reseated:
                    self.rooms.tables.drop(room_id, reseated=True)
                elif table is not None and version is not None and table.version < version:
                    table.heard = max(table.heard, version)  # catches up at its next use
                if not self.hub.local.subscribed(room_id):
                    continue
                if reseated:
                    self.hub.deliver(LobbyChanged(room_id))
                if version is not None and version > self.hub.delivered.get(room_id, -1):
                    self.hub.deliver(GameMoved(room_id, version))
            self._statuses = statuses


def hub_for(url: str, resync_seconds: float) -> MemoryHub | RedisHub:
    """The hub ``BROADCAST_URL`` names: ``memory://`` (one process) or ``redis://…``."""
    if url.startswith("memory:"):
        return MemoryHub()
    if url.startswith(("redis://", "rediss://", "unix://")):
        return RedisHub(url, resync_seconds)
    raise ValueError(f"BROADCAST_URL must be memory:// or redis://…, not {url!r}")
