"""one seat per player and room

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-21 20:15:00
"""
from collections.abc import Sequence

from alembic import op

revision: str = "0002"
down_revision: str | None = "0001"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_index("ix_seat_room_player", "seat", ["room_id", "player_id"], unique=True)


def downgrade() -> None:
    op.drop_index("ix_seat_room_player", table_name="seat")
