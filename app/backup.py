"""A consistent copy of the SQLite database while the server runs: ``scripts/backup [DEST]``
(``python -m app.backup``).

SQLite's online backup API copies every page in one step, inside one read transaction: the
copy is the database as it was at one instant — every committed move up to then, none half
written — and in WAL mode the server goes on writing meanwhile. The copy is written to a
temporary file next to ``DEST``, checked with ``PRAGMA integrity_check``, synced, and only
then renamed to ``DEST``: a ``DEST`` that exists is a whole, checked copy.

Restoring (README, "Hosting in public"): stop the server, copy the file over the database
file, remove the old ``-wal`` and ``-shm`` files beside it, start the server.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import sqlite3
import sys
from datetime import UTC, datetime
from pathlib import Path

DEFAULT_URL = "sqlite:///./data/canopy.db"
DEFAULT_DIR = Path("backups")
SCHEMES = ("sqlite", "sqlite+pysqlite")


class BackupError(Exception):
    """The backup cannot be made; the message says why."""


def sqlite_file(database_url: str) -> Path:
    """The database file of a ``sqlite:///path`` URL (relative paths from the working folder,
    as the server reads them); anything else is refused."""
    scheme, sep, rest = database_url.partition("://")
    if not sep or scheme.lower() not in SCHEMES:
        raise BackupError(f"scripts/backup copies SQLite databases only; DATABASE_URL is "
                          f"{_redacted(database_url)!r} (use your database's own tools, e.g. "
                          "pg_dump for PostgreSQL)")
    path = rest[1:] if rest.startswith("/") else ""
    path = path.split("?", 1)[0]
    if not path or path == ":memory:" or path.startswith("file:"):
        raise BackupError(f"DATABASE_URL {database_url!r} does not name a SQLite file "
                          "(expected sqlite:///relative/path.db or sqlite:////absolute/path.db)")
    return Path(path)


def _redacted(url: str) -> str:
    """``url`` without a password (``scheme://user:***@host/db``)."""
    scheme, sep, rest = url.partition("://")
    credentials, at, host = rest.rpartition("@")
    if sep and at and ":" in credentials:
        return f"{scheme}://{credentials.split(':', 1)[0]}:***@{host}"
    return url


def default_name(when: datetime | None = None) -> str:
    """``canopy-YYYYmmdd-HHMMSS.db`` (UTC)."""
    return f"canopy-{(when or datetime.now(UTC)).strftime('%Y%m%d-%H%M%S')}.db"


def backup(database_url: str, dest: str | Path | None = None) -> Path:
    """Copy the database of ``database_url`` to ``dest`` (default
    ``backups/canopy-YYYYmmdd-HHMMSS.db``; a folder — existing, or ending in ``/`` — that name
    inside it) and return
    the path of the copy. Raises :class:`BackupError` when it cannot be made."""
    source = sqlite_file(database_url)
    if not source.is_file():
        raise BackupError(f"there is no database at {source} (DATABASE_URL {database_url!r})")
    target = Path(dest) if dest is not None else DEFAULT_DIR / default_name()
    if target.is_dir() or str(dest).endswith(("/", os.sep)):  # a folder: a new name in it
        target = target / default_name()
    if target.resolve() == source.resolve() or (target.exists() and target.samefile(source)):
        raise BackupError(f"{target} is the database itself: choose another destination")
    target.parent.mkdir(parents=True, exist_ok=True)
    temporary = target.with_name(f".{target.name}.{os.getpid()}.tmp")
    try:
        _copy(source, temporary)
        problems = _integrity(temporary)
        if problems != ["ok"]:
            raise BackupError(f"the copy fails PRAGMA integrity_check: {problems[:5]}")
        _fsync(temporary)
        os.replace(temporary, target)
        _fsync(target.parent)
    finally:
        for leftover in (temporary, *(temporary.with_name(temporary.name + suffix)
                                      for suffix in ("-wal", "-shm", "-journal"))):
            with contextlib.suppress(FileNotFoundError):
                leftover.unlink()
    return target


def _copy(source: Path, temporary: Path) -> None:
    """SQLite's online backup, all pages in one step (one read transaction: one instant)."""
    src = sqlite3.connect(source, timeout=30)
    try:
        dst = sqlite3.connect(temporary)
        try:
            src.backup(dst, pages=-1)
        finally:
            dst.close()
    except sqlite3.Error as exc:
        raise BackupError(f"the backup of {source} failed: {exc}") from exc
    finally:
        src.close()


def _integrity(path: Path) -> list[str]:
    conn = sqlite3.connect(path)
    try:
        return [row[0] for row in conn.execute("PRAGMA integrity_check")]
    finally:
        conn.close()


def _fsync(path: Path) -> None:
    """Flush a file (or a folder's entries) to the disk, where the system allows it."""
    flags = os.O_RDONLY | (os.O_DIRECTORY if path.is_dir() and hasattr(os, "O_DIRECTORY") else 0)
    try:
        fd = os.open(path, flags)
    except OSError:
        return
    try:
        with contextlib.suppress(OSError):
            os.fsync(fd)
    finally:
        os.close(fd)


def database_url() -> str:
    """DATABASE_URL as the server reads it (environment, then ``.env``, then the default)."""
    try:
        from app.config import Settings
    except ImportError:  # run without the project's packages: the environment only
        return os.environ.get("DATABASE_URL", DEFAULT_URL)
    return Settings().database_url


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="scripts/backup",
        description="Write a consistent copy of Canopy's SQLite database (DATABASE_URL) while "
                    "the server runs, and check it with PRAGMA integrity_check.")
    parser.add_argument("dest", nargs="?", default=None,
                        help="the copy's path, or a folder for it (default: "
                             "backups/canopy-YYYYmmdd-HHMMSS.db, UTC)")
    args = parser.parse_args(argv)
    try:
        path = backup(database_url(), args.dest)
    except BackupError as exc:
        print(f"backup: {exc}", file=sys.stderr)
        return 2
    print(f"{path} {path.stat().st_size} bytes")
    return 0


if __name__ == "__main__":
    sys.exit(main())
