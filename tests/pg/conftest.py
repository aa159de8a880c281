"""Fixtures for the PostgreSQL tests: databases on the session's real PostgreSQL server
(tests/conftest.py ``postgres``), empty or migrated to head, each dropped after its test."""

from __future__ import annotations

from collections.abc import Iterator
from itertools import count

import pytest
from sqlalchemy.engine import Engine

from app.db import make_engine
from tests.conftest import copy_of_template, drop_database
from tests.engines import Postgres

_names = count(1)


@pytest.fixture
def empty_url(postgres: Postgres) -> Iterator[str]:
    """A new empty database (no table, no migration)."""
    name = f"empty{next(_names)}"
    postgres.sql(f'CREATE DATABASE "{name}" TEMPLATE template0')
    url = postgres.url(name)
    yield url
    drop_database(postgres, url)


@pytest.fixture
def head_url(migrated_postgres: Postgres) -> Iterator[str]:
    """A new database at the newest migration."""
    url = copy_of_template(migrated_postgres, f"head{next(_names)}")
    yield url
    drop_database(migrated_postgres, url)


@pytest.fixture
def head_engine(head_url: str) -> Iterator[Engine]:
    engine = make_engine(head_url)
    yield engine
    engine.dispose()


@pytest.fixture
def database_url(head_url: str) -> str:
    """In this folder the shared fixtures (``settings``, ``app``, ``client``, ``players``)
    run on PostgreSQL whatever ``CANOPY_TEST_DATABASE`` says."""
    return head_url
