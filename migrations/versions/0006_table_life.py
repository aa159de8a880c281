"""life around the table: turn-based rooms, clocks, seats handed to bots, rematches, replays

Revision ID: 0006
Revises: 0005
Create Date: 2026-11-23 21:30:00
"""
from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0006"
down_revision: str | None = "0005"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("room") as batch:
        batch.add_column(sa.Column("pace", sa.String(length=8), nullable=False,
                                   server_default="live"))
        batch.add_column(sa.Column("away_minutes", sa.Integer(), nullable=False,
                                   server_default="5"))
        batch.add_column(sa.Column("move_hours", sa.Integer(), nullable=False,
                                   server_default="24"))
        batch.add_column(sa.Column("clock", sa.JSON(), nullable=True))
        batch.add_column(sa.Column("public_replay", sa.Boolean(), nullable=False,
                                   server_default=sa.false()))
        batch.add_column(sa.Column("rematch_of", sa.Integer(), nullable=True))
        batch.add_column(sa.Column("rematch_id", sa.Integer(), nullable=True))
        batch.create_foreign_key("fk_room_rematch_of", "room", ["rematch_of"], ["id"])
        batch.create_foreign_key("fk_room_rematch_id", "room", ["rematch_id"], ["id"])
    with op.batch_alter_table("seat") as batch:
        batch.add_column(sa.Column("last_seen", sa.DateTime(), nullable=True))
        batch.add_column(sa.Column("votes", sa.JSON(), nullable=True))
        batch.add_column(sa.Column("invited", sa.Boolean(), nullable=False,
                                   server_default=sa.false()))
    with op.batch_alter_table("game") as batch:
        batch.add_column(sa.Column("clocks", sa.JSON(), nullable=True))
        batch.add_column(sa.Column("started", sa.DateTime(), nullable=False,
                                   server_default=sa.func.current_timestamp()))


def downgrade() -> None:
    with op.batch_alter_table("game") as batch:
        batch.drop_column("started")
        batch.drop_column("clocks")
    with op.batch_alter_table("seat") as batch:
        batch.drop_column("invited")
        batch.drop_column("votes")
        batch.drop_column("last_seen")
    with op.batch_alter_table("room") as batch:
        batch.drop_constraint("fk_room_rematch_id", type_="foreignkey")
        batch.drop_constraint("fk_room_rematch_of", type_="foreignkey")
        for column in ("rematch_id", "rematch_of", "public_replay", "clock", "move_hours",
                       "away_minutes", "pace"):
            batch.drop_column(column)
