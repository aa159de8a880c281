"""The database engine and sessions. SQLite gets WAL, synchronous=NORMAL, foreign keys and a
busy timeout on every connection (DESIGN.md §4)."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any, Protocol

from anyio import to_thread
from sqlalchemy import event
from sqlalchemy.engine import Connection, Engine
from sqlmodel import create_engine

from app import speedups

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


def make_engine(url: str) -> Engine:
    """An engine for ``url``; for SQLite the file's folder is created and the pragmas set."""
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
            cursor.close()

        return engine
    return create_engine(url, pool_pre_ping=True, json_serializer=json_dumps)


class GroupCommit:
    """Writes jobs off the event loop, one transaction at a time; the jobs that arrive while a
    transaction is being written share the next one (group commit: one thread hand-off and one
    commit for many moves instead of one each, and no writers queueing on SQLite's lock).

    ``await write(job)`` returns once ``job(connection)`` is committed, or raises what the job
    raised. When a job fails inside a shared transaction, that transaction is rolled back and
    each of its jobs runs again in a transaction of its own, so every job gets the outcome it
    would have had alone. A job must only touch the database through ``connection``.
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
