"""The Docker tests' engine: skipped where none answers, failed under CI (.ci/run starts one
with ../shared/tools/local-docker.sh)."""

from __future__ import annotations

import pytest

from tests.docker.test_compose import engine_answers
from tests.engines import missing


@pytest.fixture
def docker_engine() -> None:
    """Skip (under CI: fail) where no Docker engine answers."""
    if not engine_answers():
        missing("a Docker engine", "docker.io (bash ../shared/tools/local-docker.sh starts one)")
