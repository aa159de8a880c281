"""SQLite's WAL is copied back into the database file by :class:`app.db.Checkpointer` in a
worker thread, never by a commit (a commit that checkpoints makes every move queued behind
it wait): an engine made with ``background_checkpoints`` lets the WAL grow past SQLite's
1000-page mark, and one checkpoint copies all of it back."""

from __future__ import annotations

import asyncio
from pathlib import Path

from sqlalchemy import text

from app.db import Checkpointer, make_engine

PAGE_FILLER = "x" * 3000  # about one page per row


def fill(engine, rows: int) -> None:
    with engine.begin() as connection:
        connection.execute(text("CREATE TABLE IF NOT EXISTS filler (body TEXT)"))
    for _ in range(rows):
        with engine.begin() as connection:
            connection.execute(text("INSERT INTO filler (body) VALUES (:body)"),
                               {"body": PAGE_FILLER})


def wal_pages(path: Path) -> int:
    wal = path.with_name(path.name + "-wal")
    return wal.stat().st_size // 4096 if wal.exists() else 0


def test_no_commit_checkpoints_and_the_checkpointer_copies_everything_back(tmp_path: Path):
    path = tmp_path / "canopy.db"
    engine = make_engine(f"sqlite:///{path}", background_checkpoints=True)
    fill(engine, 1500)
    assert wal_pages(path) > 1500, "a commit checkpointed the WAL"
    with engine.connect() as connection:
        busy, frames, copied = connection.exec_driver_sql(
            "PRAGMA wal_checkpoint(PASSIVE)").one()
    assert (busy, frames) == (0, copied) and frames > 1500
    engine.dispose()


def test_commits_checkpoint_without_the_setting(tmp_path: Path):
    path = tmp_path / "canopy.db"
    engine = make_engine(f"sqlite:///{path}")
    fill(engine, 1500)
    with engine.connect() as connection:
        frames = connection.exec_driver_sql("PRAGMA wal_checkpoint(PASSIVE)").one()[1]
    assert frames < 1500, "SQLite's own checkpoints did not run"
    engine.dispose()


def test_the_checkpointer_runs_every_period_until_stopped(tmp_path: Path):
    path = tmp_path / "canopy.db"
    engine = make_engine(f"sqlite:///{path}", background_checkpoints=True)
    fill(engine, 50)
    seen: list[int] = []

    class Counting(Checkpointer):
        def checkpoint(self) -> None:
            super().checkpoint()
            seen.append(1)

    async def main() -> None:
        checkpointer = Counting(engine, seconds=0.05)
        checkpointer.start()
        await asyncio.sleep(0.3)
        await checkpointer.stop()

    asyncio.run(main())
    assert len(seen) >= 3
    with engine.connect() as connection:
        busy, frames, copied = connection.exec_driver_sql(
            "PRAGMA wal_checkpoint(PASSIVE)").one()
    assert busy == 0 and frames == copied  # nothing left behind
    engine.dispose()
