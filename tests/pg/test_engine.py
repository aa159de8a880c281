"""The PostgreSQL engine: its pool sized by the settings, and a connection the server dropped
(a restart, an idle timeout) replaced when it is next taken, never handed to a request."""

from __future__ import annotations

import time

import pytest
from sqlalchemy import exc, text
from sqlalchemy.engine import Engine

from app.config import Settings
from app.db import make_engine


def test_the_pool_follows_the_settings(head_url: str):
    settings = Settings(database_url=head_url, db_pool_size=2, db_max_overflow=1,
                        db_pool_timeout=0.2, db_pool_recycle=600)
    engine = make_engine(head_url, settings)
    try:
        held = [engine.connect() for _ in range(3)]  # two kept, one extra at a peak
        assert [c.execute(text("SELECT 1")).scalar_one() for c in held] == [1, 1, 1]
        started = time.monotonic()
        with pytest.raises(exc.TimeoutError):
            engine.connect()  # a fourth waits db_pool_timeout, then gives up
        assert 0.15 < time.monotonic() - started < 5
        for connection in held:
            connection.close()
        assert engine.pool.checkedin() == 2  # the extra one is closed, not kept
        assert engine.pool._recycle == 600  # type: ignore[attr-defined]
    finally:
        engine.dispose()


def test_a_connection_the_server_ended_is_replaced_before_use(head_engine: Engine):
    with head_engine.connect() as connection:
        first = connection.execute(text("SELECT pg_backend_pid()")).scalar_one()
    assert head_engine.pool.checkedin() == 1  # kept in the pool; the server ends it:
    killer = make_engine(head_engine.url.render_as_string(hide_password=False))
    try:
        with killer.connect() as connection:
            assert connection.execute(text("SELECT pg_terminate_backend(:pid)"),
                                      {"pid": first}).scalar_one() is True
    finally:
        killer.dispose()
    with head_engine.connect() as connection:  # the ping fails, a new connection answers
        again = connection.execute(text("SELECT pg_backend_pid()")).scalar_one()
    assert again != first


def test_a_request_that_finds_no_free_connection_is_told_to_retry(head_url: str):
    """Every pooled connection busy past ``DB_POOL_TIMEOUT``: 503 "busy", never a 500."""
    from fastapi.testclient import TestClient

    from app.main import create_app
    from tests.conftest import GENEROUS

    settings = Settings(database_url=head_url, db_pool_size=1, db_max_overflow=0,
                        db_pool_timeout=0.2, bot_delay=0.0, htmx_source="local", **GENEROUS)
    app = create_app(settings)
    with TestClient(app) as client:
        assert client.post("/api/players", json={"name": "Ana"}).status_code == 200
        client.cookies.clear()  # a script: no cookie jar
        with app.state.engine.connect():  # the pool's only connection, held
            answer = client.post("/api/players", json={"name": "Bo"})  # (a list is kept)
        assert answer.status_code == 503 and "busy" in answer.json()["detail"]
        client.cookies.clear()
        assert client.post("/api/players", json={"name": "Bo"}).status_code == 200
