"""The database engine and the move writers (DESIGN.md §4). SQLite gets WAL,
synchronous=NORMAL, foreign keys and a busy timeout on every connection; PostgreSQL a
connection pool sized by the settings. Migrations on PostgreSQL hold an advisory lock."""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import sqlite3
from collections.abc import Callable
from pathlib import Path
from typing import Any, Protocol

from anyio import to_thread
from sqlalchemy import Insert, Update, event, text
from sqlalchemy.engine import Connection, Engine
from sqlalchemy.exc import IntegrityError
from sqlalchemy.pool import QueuePool
from sqlmodel import create_engine

from app import speedups
from app.config import Settings

log = logging.getLogger("canopy.db")

#: How JSON columns (a state snapshot every move, moves, options) and socket messages are
#: written: compact, and without the circular-reference check (the values are plain data) —
#: about 40% less time than ``json.dumps``' defaults, and a sixth fewer bytes.
json_dumps = (json.JSONEncoder(separators=(",", ":"), check_circular=False).encode
              if speedups.on("compact-json") else json.dumps)

Job = Callable[[Connection], None]


class MoveWriter(Protocol):
    """Runs database jobs off the event loop: ``await write(job)`` returns once
    ``job(connection)`` is committed, or raises what the job raised."""

    async def write(self, job: Job) -> None: ...


class OneByOne:
    """Each job in a transaction of its own, in a worker thread (the plain way, which
    :class:`GroupCommit` beats: see :func:`move_writer`)."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine

    async def write(self, job: Job) -> None:
        await to_thread.run_sync(self._run, job)

    def _run(self, job: Job) -> None:
        with self.engine.begin() as connection:
            job(connection)


class PoolSettings(Protocol):
    """The connection pool's settings (:class:`app.config.Settings` has them)."""

    db_pool_size: int
    db_max_overflow: int
    db_pool_timeout: float
    db_pool_recycle: int


def make_engine(url: str, pool: PoolSettings | None = None,
                background_checkpoints: bool = False) -> Engine:
    """An engine for ``url``, writing JSON columns with :data:`json_dumps`.

    - SQLite: the file's folder is created, and every connection gets WAL,
      ``synchronous=NORMAL``, foreign keys and a 30 s busy timeout; with
      ``background_checkpoints`` no commit checkpoints the WAL (a :class:`Checkpointer` does).
    - Anything else (PostgreSQL, ``postgresql+psycopg://``): a :class:`QueuePool` of
      ``pool.db_pool_size`` connections plus ``db_max_overflow`` at a peak, waiting at most
      ``db_pool_timeout`` seconds for one (then ``sqlalchemy.exc.TimeoutError``), replacing
      connections older than ``db_pool_recycle`` seconds, and checking each one with a ping
      when it is taken from the pool (a connection the server ended — a restart, an idle
      timeout — is replaced then, never handed to a request). Without ``pool`` the settings'
      declared defaults.
    """
    if url.startswith("sqlite"):
        path = url.split("///", 1)[-1]
        if path and path != ":memory:":
            Path(path).parent.mkdir(parents=True, exist_ok=True)
        engine = create_engine(url, connect_args={"check_same_thread": False, "timeout": 30},
                               json_serializer=json_dumps)

        @event.listens_for(engine, "connect")
        def _pragmas(dbapi_connection: Any, _record: Any) -> None:
            cursor = dbapi_connection.cursor()
            cursor.execute("PRAGMA journal_mode=WAL")
            cursor.execute("PRAGMA synchronous=NORMAL")
            cursor.execute("PRAGMA foreign_keys=ON")
            cursor.execute("PRAGMA busy_timeout=30000")
            if background_checkpoints:
                cursor.execute("PRAGMA wal_autocheckpoint=0")
            cursor.close()

        return engine
    pool = pool or Settings.model_construct()  # the declared defaults, no environment read
    return create_engine(url, poolclass=QueuePool, pool_size=pool.db_pool_size,
                         max_overflow=pool.db_max_overflow, pool_timeout=pool.db_pool_timeout,
                         pool_recycle=pool.db_pool_recycle, pool_pre_ping=True,
                         json_serializer=json_dumps)


class Checkpointer:
    """SQLite: copies the WAL back into the database file every ``seconds``, in a worker
    thread, instead of the commit that makes the WAL pass 1000 pages (SQLite's default). That
    commit is the move writer's: a checkpoint writes and syncs the database file, and every
    move queued behind it waited (open loop, 500 rooms: README §Performance). PASSIVE: it never
    waits for a reader or a writer, and what it cannot copy now it copies next time. For an
    engine made with ``background_checkpoints`` (else the WAL would only grow); nothing on
    PostgreSQL."""

    def __init__(self, engine: Engine, seconds: float = 1.0) -> None:
        self.engine = engine
        self.seconds = seconds
        self._task: asyncio.Task[None] | None = None

    def start(self) -> None:
        if self.engine.dialect.name == "sqlite" and self._task is None:
            self._task = asyncio.get_running_loop().create_task(self._run())

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
            self._task = None
        if self.engine.dialect.name == "sqlite":
            await to_thread.run_sync(self.checkpoint)

    def checkpoint(self) -> None:
        with self.engine.connect() as connection:
            connection.exec_driver_sql("PRAGMA wal_checkpoint(PASSIVE)")

    async def _run(self) -> None:
        while True:
            await asyncio.sleep(self.seconds)
            try:
                await to_thread.run_sync(self.checkpoint)
            except Exception as exc:  # the next one tries again; nothing is lost meanwhile
                log.warning("WAL checkpoint failed: %s", exc)


DRIVER_SQL = speedups.on("driver-sql")


class Prepared:
    """One of a move's statements (SQLAlchemy Core, with the parameters it is always given),
    run on SQLite straight on the driver's connection: compiled once, its parameters turned
    into the column values by the compiled statement's own bind processors (JSON, times,
    booleans), in the connection's transaction: SQLAlchemy's execution of a compiled statement
    cost several times the SQLite work under it. Elsewhere (PostgreSQL, or with ``driver-sql``
    taken back) it is ``connection.execute``."""

    def __init__(self, statement: Insert | Update, keys: tuple[str, ...]) -> None:
        self.statement = statement
        self.keys = keys
        self._plans: dict[Any, tuple[str, list[tuple[str, Any, Any]]]] = {}

    def __call__(self, connection: Connection, params: dict[str, Any]) -> int:
        """Run with ``params`` (exactly :attr:`keys`); the number of rows it matched."""
        if connection.dialect.name != "sqlite" or not DRIVER_SQL:
            result: Any = connection.execute(self.statement, params)
            return int(result.rowcount)
        sql, plan = self._plan(connection)
        values = [params.get(name, default) if process is None
                  else process(params.get(name, default)) for name, process, default in plan]
        driver = connection.connection.driver_connection
        assert driver is not None
        try:
            cursor = driver.execute(sql, values)
        except sqlite3.IntegrityError as exc:
            raise IntegrityError(sql, values, exc) from exc
        return int(cursor.rowcount)

    def _plan(self, connection: Connection) -> tuple[str, list[tuple[str, Any, Any]]]:
        plan = self._plans.get(connection.dialect)
        if plan is None:
            compiled: Any = self.statement.compile(dialect=connection.dialect,
                                                   column_keys=list(self.keys))
            processors = compiled._bind_processors
            plan = self._plans[connection.dialect] = (str(compiled), [
                (name, processors.get(name), compiled.binds[name].value)
                for name in compiled.positiontup])
        return plan


#: The PostgreSQL advisory lock (a 64-bit key, per database) that migrations hold: two
#: processes starting at once on one database migrate one after the other, and the second
#: finds the schema at head. (The timers' lease, :mod:`app.rooms.lease`, has another key.)
MIGRATION_LOCK = int.from_bytes(b"canopy:m", "big")


def lock_for_migrations(connection: Connection) -> None:
    """Wait for, and take, :data:`MIGRATION_LOCK` for the rest of ``connection``'s
    transaction (PostgreSQL's ``pg_advisory_xact_lock``: released by the commit or rollback,
    so a process that dies mid-migration never leaves it held). Nothing on SQLite, where the
    migration's first write takes the database's one write lock anyway."""
    if connection.dialect.name == "postgresql":
        connection.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": MIGRATION_LOCK})


class GroupCommit:
    """Writes jobs off the event loop, one transaction at a time; the jobs that arrive while a
    transaction is being written share the next one (group commit: one thread hand-off and one
    commit for many moves instead of one each, and no writers queueing on SQLite's lock).

    ``await write(job)`` returns once ``job(connection)`` is committed, or raises what the job
    raised. When a job fails inside a shared transaction, that transaction is rolled back and
    each of its jobs runs again in a transaction of its own, so every job gets the outcome it
    would have had alone. A job must only touch the database through ``connection``, and must
    not go on using it after a database error: PostgreSQL refuses every statement of a
    transaction after its first error, so a failed job ends the shared transaction at once
    (rolled back, then the rerun one by one; ``tests/pg/test_moves.py`` runs a real duplicate
    ``(game, seq)`` in a group).

    On PostgreSQL as on SQLite the moves need no other form: :mod:`app.rooms.store`'s
    pre-built statements are SQLAlchemy Core, compiled once per dialect (on PostgreSQL with a
    cast on each bound parameter, and the move's INSERT with ``RETURNING move.id``, which rides
    on the same round trip); each runs with one row of parameters (no ``executemany``), and
    psycopg prepares them server-side on each pooled connection after their fifth use. Two
    processes writing the same ``(game, seq)``: the second INSERT waits for the first
    transaction on the unique index and fails once it commits (``StaleTable``, 409); two
    groups of different processes that lock the same games in opposite orders make
    PostgreSQL abort one of them (a deadlock error, raised by the job that waited): its jobs
    are rerun alone like any failed group.
    """

    #: At most this many jobs per transaction.
    MAX_BATCH = 100

    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        self._queue: list[tuple[Job, asyncio.Future[None]]] = []
        self._drainer: asyncio.Task[None] | None = None

    async def write(self, job: Job) -> None:
        loop = asyncio.get_running_loop()
        done: asyncio.Future[None] = loop.create_future()
        self._queue.append((job, done))
        if self._drainer is None or self._drainer.done():
            self._drainer = loop.create_task(self._drain())
        await done

    async def _drain(self) -> None:
        while self._queue:
            batch = self._queue[: self.MAX_BATCH]
            del self._queue[: self.MAX_BATCH]
            try:
                outcomes = await to_thread.run_sync(self._run, [job for job, _ in batch])
            except BaseException as exc:  # cancelled (shutdown): nobody waits forever
                for _, done in batch:
                    if not done.done():
                        done.set_exception(exc)
                raise
            for (_, done), outcome in zip(batch, outcomes, strict=True):
                if done.done():
                    continue
                if outcome is None:
                    done.set_result(None)
                else:
                    done.set_exception(outcome)

    def _run(self, jobs: list[Job]) -> list[Exception | None]:
        """In a worker thread: the jobs in one transaction, or one by one if one of them fails."""
        if len(jobs) > 1:
            try:
                with self.engine.begin() as connection:
                    for job in jobs:
                        try:
                            job(connection)
                        except Exception as exc:
                            raise _JobFailed from exc
            except _JobFailed:
                pass  # rolled back: run each job alone below
            except Exception as exc:  # the commit itself failed
                return [exc] * len(jobs)
            else:
                return [None] * len(jobs)
        outcomes: list[Exception | None] = []
        for job in jobs:
            try:
                with self.engine.begin() as connection:
                    job(connection)
            except Exception as exc:
                outcomes.append(exc)
            else:
                outcomes.append(None)
        return outcomes


class _JobFailed(Exception):
    pass


def move_writer(engine: Engine) -> MoveWriter:
    """The writer of every move: group commit (the plain way: one transaction each)."""
    return GroupCommit(engine) if speedups.on("group-commit") else OneByOne(engine)
