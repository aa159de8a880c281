"""Who runs the timers: bots, chess clocks and the clean-up run in one process only.

With several processes (PostgreSQL and Redis) the one that holds PostgreSQL's session advisory
lock :data:`LOCK_KEY` runs them (:class:`AdvisoryLease`): the lock is taken with
``pg_try_advisory_lock`` on a connection of its own and lasts as long as that connection's
session. The others try again every ``LEASE_SECONDS``. When the holder dies — killed, or its
machine gone — PostgreSQL ends its session and releases the lock, and the next try of another
process takes it and resumes the bots and clocks from the database. When the holder's lease
connection breaks while it lives on, it stops its timers at once: another process may hold the
lock by now. PostgreSQL's lock is the election; nothing here votes or counts.

One process (SQLite, or the in-memory hub) always holds the lease and runs no background work
for it (:class:`AlwaysHeld`).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any, Protocol

from sqlalchemy.engine import make_url

if TYPE_CHECKING:
    from psycopg import AsyncConnection

log = logging.getLogger("canopy.lease")

#: What the holder does when it takes the lease, and when it loses it.
Duty = Callable[[], Awaitable[None]]

#: The advisory lock's key (one per database: PostgreSQL's advisory locks are per database).
LOCK_KEY = int.from_bytes(b"canopy:t", "big")


class Lease(Protocol):
    @property
    def held(self) -> bool:
        """This process runs the timers now."""

    async def start(self, gained: Duty, lost: Duty) -> None:
        """Begin: ``gained`` runs each time the lease is taken, ``lost`` each time it goes."""

    async def stop(self) -> None:
        """Let go of the lease (a clean stop), without running ``lost``."""


class AlwaysHeld:
    """One process: it runs the timers from its start to its stop."""

    held = True

    async def start(self, gained: Duty, lost: Duty) -> None:
        await gained()

    async def stop(self) -> None:
        pass


class AdvisoryLease:
    """PostgreSQL's session advisory lock, held on a psycopg connection of its own.

    The task tries ``pg_try_advisory_lock`` every ``retry`` seconds until it gets the lock, runs
    ``gained``, then watches the session: a broken connection wakes it at once (the server
    ends the session of a terminated backend with a message), and a probe every ``retry``
    seconds finds a silent one. Then ``lost`` runs and it starts over with a new connection,
    after a longer pause than the others' tries (they take over first)."""

    def __init__(self, conninfo: str, retry: float) -> None:
        self.conninfo = conninfo
        self.retry = retry
        self._held = False
        self._task: asyncio.Task[None] | None = None

    @property
    def held(self) -> bool:
        return self._held

    async def start(self, gained: Duty, lost: Duty) -> None:
        self._task = asyncio.get_running_loop().create_task(self._run(gained, lost),
                                                           name="canopy-lease")

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
            self._task = None
        self._held = False

    async def _run(self, gained: Duty, lost: Duty) -> None:
        import psycopg

        while True:
            connection: AsyncConnection[Any] | None = None
            lost_it = False
            try:
                connection = await psycopg.AsyncConnection.connect(
                    self.conninfo, autocommit=True, connect_timeout=max(2, int(self.retry * 2)),
                    application_name="canopy-lease")
                while not await self._try(connection):
                    await asyncio.sleep(self.retry)
                self._held = True
                log.info("this process holds the lease: it runs the bots, clocks and clean-up")
                try:
                    await gained()
                except Exception:  # the watch goes on: the lease is held all the same
                    log.exception("resuming the timers failed")
                await self._watch(connection)
            except (psycopg.Error, OSError, TimeoutError) as exc:
                log.warning("the lease connection failed: %s", str(exc).strip().splitlines()[0]
                            if str(exc).strip() else type(exc).__name__)
            finally:
                if self._held and not _cancelling():
                    self._held, lost_it = False, True
                    log.warning("this process lost the lease: its bots and clocks stop")
                    try:
                        await lost()
                    except Exception:
                        log.exception("stopping the timers failed")
                if connection is not None:
                    with contextlib.suppress(Exception):
                        await connection.close()
            # A process that just lost its lease connection may be the one with trouble: it
            # waits a round longer, so that a healthy one takes the lease first.
            await asyncio.sleep(self.retry * (3 if lost_it else 1))

    @staticmethod
    async def _try(connection: AsyncConnection[Any]) -> bool:
        cursor = await connection.execute("SELECT pg_try_advisory_lock(%s)", (LOCK_KEY,))
        row = await cursor.fetchone()
        return bool(row and row[0])

    async def _watch(self, connection: AsyncConnection[Any]) -> None:
        """Return (raise) only when the lease's session is gone."""
        while True:
            async for _ in connection.notifies(timeout=self.retry):
                pass  # nobody notifies on this connection: this only waits on its socket
            await asyncio.wait_for(connection.execute("SELECT 1"), timeout=max(1.0, self.retry))


def _cancelling() -> bool:
    task = asyncio.current_task()
    return task is not None and task.cancelling() > 0


def lease_for(database_url: str, broadcast_url: str, retry: float) -> Lease:
    """The advisory lock where several processes may run (PostgreSQL with a Redis hub); one
    process always holds the lease otherwise."""
    url = make_url(database_url)
    if url.get_backend_name() == "postgresql" and not broadcast_url.startswith("memory:"):
        conninfo = url.set(drivername="postgresql").render_as_string(hide_password=False)
        return AdvisoryLease(conninfo, retry)
    return AlwaysHeld()
