"""Real PostgreSQL and Redis servers for the tests, from Debian's packages (``postgresql``,
``redis-server``; ``.ci/run`` installs them), each on a free loopback port in a temporary
folder, stopped when the test session ends.

Where a binary is missing the tests that need it are skipped with the reason — or fail under
CI (``CI`` set), where a skip would pass silently what was never run.
"""

from __future__ import annotations

import glob
import os
import shutil
import socket
import subprocess
import tempfile
import time
from itertools import count
from pathlib import Path

import pytest


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def missing(what: str, package: str) -> None:
    """Skip (or, under CI, fail) a test whose engine is not installed."""
    reason = f"{what} is not installed: apt-get install {package}"
    if os.environ.get("CI"):
        pytest.fail(reason)
    pytest.skip(reason)


def _as_postgres(command: list[str]) -> list[str]:
    """PostgreSQL refuses to run as root: run its programs as the ``postgres`` user then."""
    return ["runuser", "-u", "postgres", "--", *command] if os.geteuid() == 0 else command


def _wait_for_port(port: int, what: str, log: Path, seconds: float = 30.0) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.5):
                return
        except OSError:
            time.sleep(0.05)
    raise RuntimeError(f"{what} did not start: {log.read_text() if log.exists() else ''}")


class Postgres:
    """A PostgreSQL cluster of its own: ``url(name)`` for a database, ``fresh()`` for a new
    empty database (created from ``template0`` or, once :meth:`set_template` was called, from
    a migrated template)."""

    def __init__(self, bin_dir: Path, cpu: int | None = None, **settings: str) -> None:
        self.bin = bin_dir
        self.cpu = cpu
        self.dir = Path(tempfile.mkdtemp(prefix="canopy-pg-"))
        self.port = free_port()
        self.settings = {"fsync": "off", "full_page_writes": "off", "max_connections": "300",
                         **settings}
        self.template = "template0"
        self._names = count(1)

    def start(self) -> Postgres:
        data, log = self.dir / "data", self.dir / "postgres.log"
        if os.geteuid() == 0:
            shutil.chown(self.dir, "postgres", "postgres")
        subprocess.run(_as_postgres([str(self.bin / "initdb"), "-D", str(data), "-A", "trust",
                                     "-U", "canopy", "-E", "UTF8", "--no-sync"]),
                       check=True, capture_output=True)
        options = " ".join([f"-p {self.port}", "-h 127.0.0.1", f"-k {self.dir}"]
                           + [f"-c {k}={v}" for k, v in self.settings.items()])
        subprocess.run(_pinned(self.cpu) + _as_postgres(
            [str(self.bin / "pg_ctl"), "-D", str(data), "-l", str(log), "-o", options, "-w",
             "start"]), check=True, capture_output=True)
        _wait_for_port(self.port, "PostgreSQL", log)
        return self

    def url(self, name: str = "postgres") -> str:
        return f"postgresql+psycopg://canopy@127.0.0.1:{self.port}/{name}"

    def sql(self, statement: str, database: str = "postgres") -> None:
        import psycopg

        with psycopg.connect(f"postgresql://canopy@127.0.0.1:{self.port}/{database}",
                             autocommit=True) as connection:
            connection.execute(statement)  # type: ignore[arg-type]

    def fresh(self, prefix: str = "t") -> str:
        """A new database's URL (empty, or a copy of the template)."""
        name = f"{prefix}{next(self._names)}"
        self.sql(f'CREATE DATABASE "{name}" TEMPLATE "{self.template}"')
        return self.url(name)

    def set_template(self, name: str) -> None:
        self.template = name

    def pids(self) -> list[int]:
        """The server's processes: the postmaster and every process it started."""
        postmaster = int((self.dir / "data" / "postmaster.pid").read_text().split()[0])
        return [postmaster, *children(postmaster)]

    def stop(self) -> None:
        subprocess.run(_as_postgres([str(self.bin / "pg_ctl"), "-D", str(self.dir / "data"),
                                     "-m", "immediate", "stop"]), capture_output=True)
        shutil.rmtree(self.dir, ignore_errors=True)


class Redis:
    """A Redis server of its own, nothing saved to disk."""

    def __init__(self, binary: str, cpu: int | None = None) -> None:
        self.binary = binary
        self.cpu = cpu
        self.dir = Path(tempfile.mkdtemp(prefix="canopy-redis-"))
        self.port = free_port()
        self.proc: subprocess.Popen[bytes] | None = None

    def start(self) -> Redis:
        log = self.dir / "redis.log"
        self.proc = subprocess.Popen(
            [*_pinned(self.cpu), self.binary, "--port", str(self.port), "--bind", "127.0.0.1",
             "--save", "", "--appendonly", "no", "--dir", str(self.dir), "--logfile", str(log)],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        _wait_for_port(self.port, "Redis", log)
        return self

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def stop(self) -> None:
        if self.proc is not None:
            self.proc.kill()
            self.proc.wait()
        shutil.rmtree(self.dir, ignore_errors=True)


def postgres_bin() -> Path | None:
    """Debian's PostgreSQL programs (the newest installed version), if any."""
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"),
                   key=lambda p: int(Path(p).parts[-3]))
    if found:
        return Path(found[-1]).parent
    initdb = shutil.which("initdb")
    return Path(initdb).parent if initdb else None


def start_postgres(cpu: int | None = None, **settings: str) -> Postgres:
    """A PostgreSQL server (on CPU ``cpu`` only, if given) with ``settings`` over the tests'
    (fsync off: the tests kill app processes, never the database)."""
    bin_dir = postgres_bin()
    if bin_dir is None:
        missing("PostgreSQL", "postgresql")
    assert bin_dir is not None
    return Postgres(bin_dir, cpu, **settings).start()


def start_redis(cpu: int | None = None) -> Redis:
    binary = shutil.which("redis-server")
    if binary is None:
        missing("Redis", "redis-server")
    assert binary is not None
    return Redis(binary, cpu).start()


def _pinned(cpu: int | None) -> list[str]:
    """The command prefix that keeps a program (and what it starts) on one CPU."""
    return ["taskset", "-c", str(cpu)] if cpu is not None and shutil.which("taskset") else []


def children(pid: int) -> list[int]:
    """The processes whose parent is ``pid``."""
    found = []
    for stat in glob.glob("/proc/[0-9]*/stat"):
        try:
            text = Path(stat).read_text()
        except OSError:
            continue
        if int(text[text.rindex(")") + 2:].split()[1]) == pid:
            found.append(int(Path(stat).parent.name))
    return found
