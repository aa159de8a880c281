"""rooms have a host and may be private

Revision ID: 0004
Revises: 0003
Create Date: 2026-11-23 14:00:00
"""
from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0004"
down_revision: str | None = "0003"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("room") as batch:
        batch.add_column(sa.Column("host_id", sa.Integer(), nullable=True))
        batch.add_column(sa.Column("private", sa.Boolean(), nullable=False,
                                   server_default=sa.false()))
        batch.create_foreign_key("fk_room_host_id_player", "player", ["host_id"], ["id"])
    op.execute("UPDATE room SET host_id = created_by")


def downgrade() -> None:
    with op.batch_alter_table("room") as batch:
        batch.drop_constraint("fk_room_host_id_player", type_="foreignkey")
        batch.drop_column("private")
        batch.drop_column("host_id")
