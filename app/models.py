"""The tables (DESIGN.md §4). The ``move`` table is the source of truth for replays; the
``game.state`` column is a snapshot for speed."""

from __future__ import annotations

import secrets
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import JSON, BigInteger, Column, Index, Integer, UniqueConstraint
from sqlmodel import Field, SQLModel

#: The largest id an INTEGER primary key holds (SQLite, PostgreSQL BIGINT): a larger one names
#: nothing, and passing it to the driver would fail with an OverflowError.
MAX_ID = 2**63 - 1

#: The type of every id and of every column that refers to one: 64 bits on both engines —
#: SQLite's INTEGER (only a column declared exactly so is its rowid, the id it assigns), and
#: PostgreSQL's BIGINT (migration 0007), so that no id up to :data:`MAX_ID` overflows the
#: parameter a query binds, and a busy server's moves never run out of ids.
ID = BigInteger().with_variant(Integer(), "sqlite")


def now() -> datetime:
    return datetime.now(UTC)


#: A room's codes (its invite code, its watch code): 14 characters of this alphabet (31
#: letters and digits, no look-alikes) are 69 bits, drawn with ``secrets``.
CODE_ALPHABET = "abcdefghjkmnpqrstuvwxyz23456789"
CODE_LENGTH = 14


def new_code() -> str:
    """A fresh random room code (:data:`CODE_ALPHABET`, :data:`CODE_LENGTH`)."""
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))


class Player(SQLModel, table=True):
    id: int | None = Field(default=None, primary_key=True, sa_type=ID)
    name: str = Field(max_length=40)
    token_hash: str = Field(index=True, unique=True, max_length=64)
    created: datetime = Field(default_factory=now)
    #: The language the player chose with the switch (app/i18n.py LOCALES); None: the browser's.
    language: str | None = Field(default=None, max_length=8)


class Room(SQLModel, table=True):
    id: int | None = Field(default=None, primary_key=True, sa_type=ID)
    code: str = Field(index=True, unique=True, max_length=16)
    game_id: str = Field(max_length=40)
    players: int
    options: dict[str, Any] = Field(default_factory=dict, sa_column=Column(JSON, nullable=False))
    status: str = Field(default="lobby", max_length=16, index=True)  # lobby | playing | finished
    created_by: int = Field(foreign_key="player.id", sa_type=ID)
    #: Who runs the room before the start (seats, bots, options, start); the creator at
    #: first, the next person seated when the host leaves.
    host_id: int | None = Field(default=None, foreign_key="player.id", sa_type=ID)
    #: A private room is never listed, is joined only with its invite code, and is read only
    #: by its host, the people seated and holders of its invite or watch code
    #: (app/rooms/access.py).
    private: bool = False
    #: The watch code: its link (``/w/{watch}``) lets anyone read the room, never join it.
    #: Drawn like ``code`` (69 bits; a collision would be refused by the unique index).
    watch: str = Field(default_factory=new_code, index=True, unique=True, max_length=16)
    created: datetime = Field(default_factory=now)
    #: "live" (everyone at the table now) or "turn" (by correspondence: a move may take up to
    #: ``move_hours``). Past the room's limit (live: ``away_minutes`` without a page open;
    #: turn-based: ``move_hours`` without a move) the others may vote a seat to a bot.
    pace: str = Field(default="live", max_length=8)
    away_minutes: int = 5
    move_hours: int = 24
    #: A chess clock per seat (live rooms): ``{"minutes", "increment", "on_timeout"}`` with
    #: ``on_timeout`` "bot" (a bot plays on) or "lose"; None: no clocks.
    clock: dict[str, Any] | None = Field(default=None, sa_column=Column(JSON, nullable=True))
    #: A finished game's replay shows every hand (otherwise what a spectator saw).
    public_replay: bool = False
    #: The room this one is a rematch of, and the rematch offered at the end of this one.
    rematch_of: int | None = Field(default=None, foreign_key="room.id", sa_type=ID)
    rematch_id: int | None = Field(default=None, foreign_key="room.id", sa_type=ID)


class Seat(SQLModel, table=True):
    #: One seat per person and room: the lobby's room lock keeps joins apart, and this index
    #: makes the database refuse a second seat whatever the code does (bots and free seats
    #: have no player: NULLs are never equal).
    __table_args__ = (UniqueConstraint("room_id", "index"),
                      Index("ix_seat_room_player", "room_id", "player_id", unique=True))

    id: int | None = Field(default=None, primary_key=True, sa_type=ID)
    room_id: int = Field(foreign_key="room.id", index=True, sa_type=ID)
    index: int
    player_id: int | None = Field(default=None, foreign_key="player.id", sa_type=ID)
    #: The bot that plays the seat: a bot's seat (no player), or a person's seat handed to a
    #: bot (they left, were voted away or ran out of time) until they take it back.
    bot_level: str | None = Field(default=None, max_length=16)
    joined: datetime = Field(default_factory=now)
    #: When the person last had a page of the room open or moved (None: not since 0006).
    last_seen: datetime | None = None
    #: The players who voted to hand this (away) person's seat to a bot.
    votes: list[int] | None = Field(default=None, sa_column=Column(JSON, nullable=True))
    #: A seat held for a rematch's invitee until they accept (True) or decline (the row goes).
    invited: bool = False


class Game(SQLModel, table=True):
    id: int | None = Field(default=None, primary_key=True, sa_type=ID)
    room_id: int = Field(foreign_key="room.id", unique=True, sa_type=ID)
    #: The game's seed, 128 bits as decimal digits (wider than an SQL integer).
    seed: str = Field(max_length=64)
    state: dict[str, Any] = Field(sa_column=Column(JSON, nullable=False))
    version: int = 0
    finished: bool = False
    result: dict[str, Any] | None = Field(default=None, sa_column=Column(JSON, nullable=True))
    #: When the game was dealt.
    started: datetime = Field(default_factory=now)
    #: The seats' clocks (app/rooms/clocks.py), saved with every move; None: no clocks.
    clocks: dict[str, Any] | None = Field(default=None, sa_column=Column(JSON, nullable=True))
    #: The version of the game's rules it was dealt under (``GameSpec.rules_version``); None
    #: for games dealt before versions were stored (0008), which began under version 1.
    rules_version: int | None = None


class Move(SQLModel, table=True):
    __table_args__ = (UniqueConstraint("game_id", "seq"),)

    id: int | None = Field(default=None, primary_key=True, sa_type=ID)
    game_id: int = Field(foreign_key="game.id", index=True, sa_type=ID)
    seq: int
    seat: int
    move: dict[str, Any] = Field(sa_column=Column(JSON, nullable=False))
    #: The move's log lines (``{"key", "text", "params", "seats"}``); NULL for moves stored
    #: before migration 0003.
    events: list[dict[str, Any]] | None = Field(default=None,
                                                sa_column=Column(JSON, nullable=True))
    created: datetime = Field(default_factory=now)
