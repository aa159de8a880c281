"""A real uvicorn server on a real SQLite file, and Debian's Chromium driven by Playwright."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from tests.hardening.support import GENEROUS_LIMITS

CHROMIUM = "/usr/bin/chromium"
ROOT = Path(__file__).resolve().parents[2]
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The app under uvicorn in its own process; yields its base URL."""
    yield from serve(tmp_path_factory, "app.main:app_factory")


def serve(tmp_path_factory: pytest.TempPathFactory, factory: str, port: int | None = None,
          **extra_env: str) -> Iterator[str]:
    """Start ``factory`` under uvicorn (``python -m app.serving``, as scripts/serve) on
    127.0.0.1 (on ``port``, else a free one) with ``extra_env``; yields its base URL and stops
    it afterwards."""
    port = port or free_port()
    db = tmp_path_factory.mktemp("e2e") / "canopy.db"
    env = {**os.environ, "DATABASE_URL": f"sqlite:///{db}", "HTMX_SOURCE": "local",
           "BOT_DELAY": "0.05", **GENEROUS_LIMITS, **extra_env}
    log = open(db.with_suffix(".log"), "w")  # noqa: SIM115
    proc = subprocess.Popen(
        [sys.executable, "-m", "app.serving", "--factory", factory,
         "--host", "127.0.0.1", "--port", str(port)], cwd=ROOT, env=env, stdout=log, stderr=log)
    base = f"http://127.0.0.1:{port}"
    for _ in range(100):
        try:
            if httpx.get(base + "/healthz").status_code == 200:
                break
        except httpx.HTTPError:
            time.sleep(0.1)
    else:
        proc.kill()
        raise RuntimeError(f"the server did not start: {db.with_suffix('.log').read_text()}")
    yield base
    proc.terminate()
    proc.wait(timeout=10)
    log.close()


@pytest.fixture(scope="module")
def browser():
    if not Path(CHROMIUM).exists():
        if os.environ.get("CI"):
            pytest.fail(f"{CHROMIUM} is missing: install Debian's chromium package")
        pytest.skip(f"{CHROMIUM} is missing: apt-get install chromium")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        chromium = pw.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield chromium
        chromium.close()
