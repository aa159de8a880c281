"""PostgreSQL: 64-bit ids, and the moments of 0006 with their time zone

Two differences that only PostgreSQL shows; on SQLite this revision changes nothing (its
INTEGER has 64 bits already, and it stores every moment as UTC text either way).

- Ids and the columns referring to them were INTEGER, 32 bits on PostgreSQL (SERIAL): a busy
  server's moves would run out of ids after 2**31, and any id above that in a request made the
  query's bound parameter overflow (an error instead of 404). They become BIGINT, and the
  sequences that number new rows count up to 2**63 - 1 too.
- ``seat.last_seen`` and ``game.started`` (0006) were created without a time zone, unlike every
  other moment: PostgreSQL stored them as the wall-clock time of the session's ``TimeZone``.
  They become ``TIMESTAMP WITH TIME ZONE``, each value read in the zone it was written in (the
  migrating session's, the same server setting the app wrote with).

Each table is rewritten once (one ALTER TABLE with all its columns).

Revision ID: 0007
Revises: 0006
Create Date: 2026-11-24 10:00:00
"""
from collections.abc import Sequence

from alembic import op

revision: str = "0007"
down_revision: str | None = "0006"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

#: Each table's id columns: its own id first, then the ones referring to other rows.
ID_COLUMNS = {
    "player": ["id"],
    "room": ["id", "created_by", "host_id", "rematch_of", "rematch_id"],
    "seat": ["id", "room_id", "player_id"],
    "game": ["id", "room_id"],
    "move": ["id", "game_id"],
}

#: The moments 0006 added without a time zone.
NAIVE_MOMENTS = {"seat": ["last_seen"], "game": ["started"]}

SESSION_ZONE = "current_setting('TimeZone')"


def _postgresql() -> bool:
    return op.get_bind().dialect.name == "postgresql"


def upgrade() -> None:
    if not _postgresql():
        return
    for table, columns in ID_COLUMNS.items():
        changes = [f'ALTER COLUMN "{column}" TYPE BIGINT' for column in columns]
        changes += [f'ALTER COLUMN "{column}" TYPE TIMESTAMP WITH TIME ZONE '
                    f'USING "{column}" AT TIME ZONE {SESSION_ZONE}'
                    for column in NAIVE_MOMENTS.get(table, [])]
        op.execute(f'ALTER TABLE "{table}" {", ".join(changes)}')
        op.execute(f"ALTER SEQUENCE IF EXISTS \"{table}_id_seq\" AS BIGINT")


def downgrade() -> None:
    if not _postgresql():
        return
    for table, columns in ID_COLUMNS.items():
        op.execute(f"ALTER SEQUENCE IF EXISTS \"{table}_id_seq\" AS INTEGER")
        changes = [f'ALTER COLUMN "{column}" TYPE INTEGER' for column in columns]
        changes += [f'ALTER COLUMN "{column}" TYPE TIMESTAMP WITHOUT TIME ZONE '
                    f'USING "{column}" AT TIME ZONE {SESSION_ZONE}'
                    for column in NAIVE_MOMENTS.get(table, [])]
        op.execute(f'ALTER TABLE "{table}" {", ".join(changes)}')
