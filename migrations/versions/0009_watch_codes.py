"""rooms have a watch code (a read-only link for private rooms)

Every room gets its own random watch code here, drawn like the invite codes (69 bits from
``secrets``), so that the column is NOT NULL and unique from the start: nothing has to create
one later, and no room is left without a link its host can share.

Revision ID: 0009
Revises: 0008
Create Date: 2026-12-02 10:00:00
"""
import secrets
from collections.abc import Sequence

import sqlalchemy as sa
import sqlmodel
from alembic import op

revision: str = "0009"
down_revision: str | None = "0008"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

#: As app/models.py CODE_ALPHABET and CODE_LENGTH (a migration keeps its own copy: it must do
#: the same thing whatever the models say later).
ALPHABET = "abcdefghjkmnpqrstuvwxyz23456789"
LENGTH = 14


def upgrade() -> None:
    with op.batch_alter_table("room") as batch:
        batch.add_column(sa.Column("watch", sqlmodel.sql.sqltypes.AutoString(length=16),
                                   nullable=True))
    connection = op.get_bind()
    room = sa.table("room", sa.column("id", sa.BigInteger()), sa.column("watch", sa.String()))
    ids = [row.id for row in connection.execute(sa.select(room.c.id))]
    drawn: set[str] = set()
    for room_id in ids:
        code = "".join(secrets.choice(ALPHABET) for _ in range(LENGTH))
        while code in drawn:
            code = "".join(secrets.choice(ALPHABET) for _ in range(LENGTH))
        drawn.add(code)
        connection.execute(room.update().where(room.c.id == room_id).values(watch=code))
    with op.batch_alter_table("room") as batch:
        batch.alter_column("watch", existing_type=sqlmodel.sql.sqltypes.AutoString(length=16),
                           nullable=False)
        batch.create_index(batch.f("ix_room_watch"), ["watch"], unique=True)


def downgrade() -> None:
    with op.batch_alter_table("room") as batch:
        batch.drop_index(batch.f("ix_room_watch"))
        batch.drop_column("watch")
