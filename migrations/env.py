"""Alembic environment: SQLModel's metadata, the URL from DATABASE_URL, batch mode for SQLite,
and on PostgreSQL the migration lock held for the whole upgrade (one process migrates at a
time; the others then find the schema at head)."""

from __future__ import annotations

from alembic import context
from sqlmodel import SQLModel

import app.models  # noqa: F401  (registers the tables on SQLModel.metadata)
from app.config import get_settings
from app.db import lock_for_migrations, make_engine

target_metadata = SQLModel.metadata


def run_migrations() -> None:
    connection = context.config.attributes.get("connection")
    if connection is not None:
        context.configure(connection=connection, target_metadata=target_metadata,
                          render_as_batch=True)
        with context.begin_transaction():
            lock_for_migrations(connection)
            context.run_migrations()
        return
    url = context.config.get_main_option("sqlalchemy.url") or get_settings().database_url
    engine = make_engine(url)
    with engine.connect() as conn:
        context.configure(connection=conn, target_metadata=target_metadata, render_as_batch=True)
        with context.begin_transaction():
            lock_for_migrations(conn)
            context.run_migrations()
    engine.dispose()


run_migrations()
