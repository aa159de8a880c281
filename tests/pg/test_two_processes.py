"""Two app processes started at the same moment on one empty PostgreSQL database both come up:
the migration lock makes one migrate while the other waits, then finds the schema at head.

To make "at the same moment" exact rather than a matter of luck, the test holds the migration
lock itself until both processes wait for it, then lets them go together."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import httpx
import psycopg
from sqlalchemy.engine import make_url

from app.db import MIGRATION_LOCK, make_engine
from app.main import ROOT
from tests.engines import free_port
from tests.pg.test_migrations import HEAD, revision_of


def healthy(port: int) -> bool:
    try:
        return httpx.get(f"http://127.0.0.1:{port}/healthz", timeout=2).status_code == 200
    except httpx.HTTPError:
        return False


def test_two_processes_starting_at_once_on_an_empty_database_both_come_up(empty_url: str,
                                                                          tmp_path: Path):
    env = {**os.environ, "DATABASE_URL": empty_url, "BOT_DELAY": "0", "HTMX_SOURCE": "local",
           "CLEANUP_EVERY_MINUTES": "0", "LOG_FORMAT": "text"}
    ports = [free_port(), free_port()]
    logs = [tmp_path / f"server{i}.log" for i in range(2)]
    processes: list[subprocess.Popen[bytes]] = []
    gate = psycopg.connect(make_url(empty_url).set(drivername="postgresql")
                           .render_as_string(hide_password=False), autocommit=True)
    try:
        gate.execute("SELECT pg_advisory_lock(%s)", (MIGRATION_LOCK,))
        for port, log in zip(ports, logs, strict=True):
            with log.open("wb") as out:
                processes.append(subprocess.Popen(
                    [sys.executable, "-m", "app.serving", "--factory", "app.main:app_factory",
                     "--host", "127.0.0.1", "--port", str(port)],
                    cwd=ROOT, env=env, stdout=out, stderr=subprocess.STDOUT))
        deadline = time.monotonic() + 90
        waiting = 0
        while time.monotonic() < deadline and waiting < 2:
            for i, process in enumerate(processes):
                assert process.poll() is None, f"server {i} exited:\n{logs[i].read_text()}"
            waiting = gate.execute(
                "SELECT count(*) FROM pg_stat_activity WHERE wait_event = 'advisory' "
                "AND datname = current_database()").fetchone()[0]  # type: ignore[index]
            time.sleep(0.05)
        assert waiting == 2, "both processes wait for the migration lock"
        gate.execute("SELECT pg_advisory_unlock(%s)", (MIGRATION_LOCK,))
        up = [False, False]
        while time.monotonic() < deadline and not all(up):
            for i, (port, process) in enumerate(zip(ports, processes, strict=True)):
                assert process.poll() is None, f"server {i} exited:\n{logs[i].read_text()}"
                up[i] = up[i] or healthy(port)
            time.sleep(0.1)
        assert up == [True, True], [log.read_text() for log in logs]
        for port in ports:  # and they serve, from the one migrated database
            assert httpx.get(f"http://127.0.0.1:{port}/api/games", timeout=5).status_code == 200
    finally:
        gate.close()
        for process in processes:
            process.terminate()
        for process in processes:
            try:
                process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
    for log in logs:
        assert "Traceback" not in log.read_text(), log.read_text()
    engine = make_engine(empty_url)
    try:
        assert revision_of(engine) == HEAD
    finally:
        engine.dispose()
