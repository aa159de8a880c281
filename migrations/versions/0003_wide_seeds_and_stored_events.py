"""seeds of 128 bits (stored as decimal text) and each move's log lines

Seeds were 31-bit integers; from now on they have 128 bits, more than SQLite's 64-bit
INTEGER holds, so the column becomes text. Existing seeds keep their value ("12345"), and
every game seeds its RNG from the seed's decimal digits, so stored games replay identically.
A move's log lines are stored beside it, so that loading a game from its snapshot needs no
replay to show the log; moves stored before this revision have none (NULL) and their games
are loaded by replay, as before.

Revision ID: 0003
Revises: 0002
Create Date: 2026-11-23 13:00:00
"""
from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0003"
down_revision: str | None = "0002"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("game") as batch:
        batch.alter_column("seed", type_=sa.String(length=64), existing_nullable=False,
                           postgresql_using="seed::text")
    with op.batch_alter_table("move") as batch:
        batch.add_column(sa.Column("events", sa.JSON(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("move") as batch:
        batch.drop_column("events")
    with op.batch_alter_table("game") as batch:
        batch.alter_column("seed", type_=sa.Integer(), existing_nullable=False,
                           postgresql_using="seed::bigint")
