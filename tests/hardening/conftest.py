"""Fixtures of the hardening tests: a real uvicorn server per module (``server``)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.hardening.support import Server


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """The app under uvicorn on 127.0.0.1, in its own process, with access logging on. The
    websocket rate limit is raised: these tests send bursts on purpose."""
    srv = Server(tmp_path_factory.mktemp("server") / "canopy.db", WS_RATE="10000")
    srv.start()
    yield srv
    srv.stop()
