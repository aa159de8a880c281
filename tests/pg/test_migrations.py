"""The Alembic migrations on a real PostgreSQL: from an empty database to head (and revision by
revision, with rows carried through each), a second run that changes nothing, the schema equal
to the models on both engines, and the lock that keeps two starting processes from migrating
at the same moment."""

from __future__ import annotations

import re
import threading
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from alembic import command
from alembic.autogenerate import compare_metadata
from alembic.config import Config
from alembic.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import event, inspect, text
from sqlalchemy.engine import Connection, Engine, make_url
from sqlmodel import SQLModel

import app.models  # noqa: F401  (the tables on SQLModel.metadata)
from app.db import MIGRATION_LOCK, make_engine
from app.main import ROOT, migrate

#: Every id column and every column referring to one (migration 0007 widens them).
ID_COLUMNS = {("player", "id"), ("room", "id"), ("room", "created_by"), ("room", "host_id"),
              ("room", "rematch_of"), ("room", "rematch_id"), ("seat", "id"),
              ("seat", "room_id"), ("seat", "player_id"), ("game", "id"), ("game", "room_id"),
              ("move", "id"), ("move", "game_id")}

WRITES = re.compile(r"^\s*(CREATE|ALTER|DROP|INSERT|UPDATE|DELETE|TRUNCATE)\b", re.IGNORECASE)


def alembic_config() -> Config:
    config = Config(str(ROOT / "alembic.ini"))
    config.set_main_option("script_location", str(ROOT / "migrations"))
    return config


HEAD = ScriptDirectory.from_config(alembic_config()).get_current_head()


def revision_of(engine: Engine) -> str | None:
    with engine.connect() as connection:
        return MigrationContext.configure(connection).get_current_revision()


def upgrade(connection: Connection, revision: str) -> None:
    """Upgrade to ``revision`` on ``connection`` (its session settings kept), in one
    transaction, as :func:`app.main.migrate` does."""
    config = alembic_config()
    with connection.begin():
        config.attributes["connection"] = connection
        command.upgrade(config, revision)


def statements_of(engine: Engine, action: Any) -> list[str]:
    """The SQL statements ``action()`` sends through ``engine``."""
    sent: list[str] = []

    def record(_conn: Any, _cursor: Any, statement: str, *_: Any) -> None:
        sent.append(statement)

    event.listen(engine, "before_cursor_execute", record)
    try:
        action()
    finally:
        event.remove(engine, "before_cursor_execute", record)
    return sent


def test_an_empty_database_migrates_to_head_and_a_second_run_changes_nothing(empty_url: str):
    engine = make_engine(empty_url)
    try:
        assert revision_of(engine) is None
        migrate(engine)
        assert revision_of(engine) == HEAD
        tables = set(inspect(engine).get_table_names())
        assert {"player", "room", "seat", "game", "move", "alembic_version"} <= tables

        again = statements_of(engine, lambda: migrate(engine))
        assert again, "the second run asked the database where it stands"
        assert [s for s in again if WRITES.match(s)] == []
        assert revision_of(engine) == HEAD
    finally:
        engine.dispose()


@pytest.mark.parametrize("engine_name", ["sqlite", "postgresql"])
def test_the_migrated_schema_is_the_models(engine_name: str, request: pytest.FixtureRequest,
                                           tmp_path: Path):
    """Alembic's autogenerate finds nothing to add, drop or retype between head and
    ``app/models.py`` (types compared), on either engine."""
    url = (f"sqlite:///{tmp_path / 'schema.db'}" if engine_name == "sqlite"
           else request.getfixturevalue("empty_url"))
    engine = make_engine(url)
    try:
        migrate(engine)
        with engine.connect() as connection:
            context = MigrationContext.configure(connection, opts={"compare_type": True})
            assert compare_metadata(context, SQLModel.metadata) == []
    finally:
        engine.dispose()


def test_each_revision_carries_the_rows_of_the_one_before(empty_url: str):
    """Revision by revision, with rows written between them, in a session whose time zone is
    not UTC: 0003 keeps a seed's digits, 0004 makes the creator the host, 0006 gives old games
    a start time, 0007 widens the ids (new rows numbered past 2**31) and reads the moments
    0006 stored without a time zone as the instants they were."""
    engine = make_engine(empty_url)
    try:
        with engine.connect() as connection:
            connection.exec_driver_sql("SET TimeZone = 'Europe/Paris'")
            connection.commit()

            def sql(statement: str, **params: Any) -> Any:
                with connection.begin():
                    return connection.execute(text(statement), params)

            upgrade(connection, "0002")
            sql("INSERT INTO player (id, name, token_hash, created) "
                "VALUES (1, 'Ana', 'h1', now())")
            sql("INSERT INTO room (id, code, game_id, players, options, status, created_by, "
                "created) VALUES (1, 'c1', 'arboretum', 2, '{}', 'playing', 1, now())")
            sql("INSERT INTO game (id, room_id, seed, state, version, finished) "
                "VALUES (1, 1, 12345, '{\"k\": 1}', 0, false)")

            upgrade(connection, "0003")
            assert sql("SELECT seed FROM game").scalar_one() == "12345"
            upgrade(connection, "0005")
            assert sql("SELECT host_id, private FROM room").one() == (1, False)

            upgrade(connection, "0006")
            before = datetime.now(UTC)
            started = sql("SELECT started FROM game").scalar_one()
            assert started.tzinfo is None  # 0006: the session's wall clock, no zone
            sql("INSERT INTO seat (id, room_id, \"index\", player_id, joined, last_seen, invited) "
                "VALUES (1, 1, 0, 1, now(), :seen, false)",
                seen=datetime(2024, 3, 1, 12, 0, tzinfo=UTC))
            assert sql("SELECT last_seen FROM seat").scalar_one() == datetime(2024, 3, 1, 13, 0)

            upgrade(connection, "head")  # 0007 and any after it
            assert revision_of(engine) == HEAD
            assert sql("SELECT last_seen FROM seat").scalar_one() == \
                datetime(2024, 3, 1, 12, 0, tzinfo=UTC)
            started = sql("SELECT started FROM game").scalar_one()
            assert abs(started - before) < timedelta(minutes=5)  # the same instant, now aware

            types = {(row.table_name, row.column_name): row.data_type for row in sql(
                "SELECT table_name, column_name, data_type FROM information_schema.columns "
                "WHERE table_schema = 'public'")}
            assert {column: types[column] for column in ID_COLUMNS} == \
                {column: "bigint" for column in ID_COLUMNS}
            sequences = {name: kind for name, kind in sql(
                "SELECT sequencename, data_type::text FROM pg_sequences")}
            assert sequences == {f"{table}_id_seq": "bigint"
                                 for table in ("player", "room", "seat", "game", "move")}
            sql("SELECT setval('move_id_seq', :past)", past=2**40)
            new_id = sql("INSERT INTO move (game_id, seq, seat, move, created) "
                         "VALUES (1, 1, 0, '{}', now()) RETURNING id").scalar_one()
            assert new_id == 2**40 + 1
            assert sql("SELECT seed, version FROM game").one() == ("12345", 0)
    finally:
        engine.dispose()


def test_a_migration_waits_for_the_lock_held_by_another(empty_url: str):
    """While another session holds the migration lock, a starting process's migration waits
    (nothing created yet); once it is released the migration runs to head."""
    import psycopg

    holder = psycopg.connect(make_url(empty_url).set(drivername="postgresql")
                             .render_as_string(hide_password=False), autocommit=True)
    engine = make_engine(empty_url)
    failure: list[BaseException] = []

    def migrate_in_thread() -> None:
        try:
            migrate(engine)
        except BaseException as exc:  # reported by the test
            failure.append(exc)

    try:
        holder.execute("SELECT pg_advisory_lock(%s)", (MIGRATION_LOCK,))
        thread = threading.Thread(target=migrate_in_thread)
        thread.start()
        deadline = time.monotonic() + 30
        waiting = 0
        while time.monotonic() < deadline and not waiting:
            waiting = holder.execute(
                "SELECT count(*) FROM pg_stat_activity WHERE wait_event = 'advisory' "
                "AND datname = current_database()").fetchone()[0]  # type: ignore[index]
            time.sleep(0.02)
        assert waiting == 1, "the migration did not wait for the lock"
        assert holder.execute("SELECT to_regclass('alembic_version')").fetchone() == (None,)
        assert thread.is_alive()

        holder.execute("SELECT pg_advisory_unlock(%s)", (MIGRATION_LOCK,))
        thread.join(timeout=60)
        assert not thread.is_alive() and failure == []
        assert revision_of(engine) == HEAD
    finally:
        holder.close()
        engine.dispose()
