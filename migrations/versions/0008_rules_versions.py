"""each game keeps the version of the rules it was dealt under

Revision ID: 0008
Revises: 0007
Create Date: 2026-11-27 15:30:00
"""
from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0008"
down_revision: str | None = "0007"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    # Games dealt before keep NULL: they began under version 1 of their game's rules.
    with op.batch_alter_table("game") as batch:
        batch.add_column(sa.Column("rules_version", sa.Integer(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("game") as batch:
        batch.drop_column("rules_version")
