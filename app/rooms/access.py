"""Who may read a room: the one rule, used by the JSON API, the pages, the replays and both
sockets (issue 28, item 2).

A public room is read by anyone. A PRIVATE room is read only by

- its host and the people seated in it (a rematch's invitees too: their seats are held),
- whoever presents one of its codes: the watch code (its link ``/w/{watch}`` is for watching:
  it reads, never joins) or the invite code (whoever may join may look first).

Everyone else is told exactly what they would be told about a room that does not exist: 404,
"there is no room N". So room ids, tried one by one, leak nothing about private rooms.

The rule reads :class:`Readers`, a room's few fields that decide it. A running game's table
keeps them (app/rooms/table.py ``Table.readers``, filled when it loads: after the start the
host, the seats and the codes no longer change), so the hot paths (``/state``, a socket's
connect) need no query; a room waiting for its start or a finished game's replay reads them
from the database (:func:`readers_of`, :func:`load_readers`).

What a caller presents (``keys``) comes from the edge (app/identity.py ``watch_keys``: the
``?watch=`` parameter, the ``X-Watch-Code`` header, the cookie the watch and invite links
set); this module never looks at a request.
"""

from __future__ import annotations

import secrets
from collections.abc import Iterable
from dataclasses import dataclass

from sqlalchemy.engine import Engine
from sqlmodel import Session, select

from app.errors import ApiError
from app.games.words import Msg
from app.models import MAX_ID, Room, Seat

#: What a caller presents: codes, as given (checked against the room's in constant time).
Keys = Iterable[str]


def no_room(room_id: int | str) -> Msg:
    """The words for a room that does not exist — and for a private room one may not read."""
    return Msg("there is no room {room}", {"room": str(room_id)})


def hidden(room_id: int | str) -> ApiError:
    """The refusal for an unknown room and for a private room one may not read: the same."""
    return ApiError(404, no_room(room_id))


def same_code(given: str, code: str | None) -> bool:
    """``given`` is ``code`` (compared in constant time; any text may be given)."""
    return code is not None and secrets.compare_digest(given.encode(), code.encode())


@dataclass(frozen=True)
class Readers:
    """What decides who may read a room."""

    private: bool
    host_id: int | None
    #: The players seated (or holding a rematch's seat).
    people: frozenset[int]
    code: str
    watch: str | None

    def insider(self, player_id: int | None) -> bool:
        """The host or a person seated: they see the codes and may change the room."""
        return player_id is not None and (player_id == self.host_id or player_id in self.people)

    def holds_code(self, keys: Keys) -> bool:
        """One of ``keys`` is the room's invite or watch code."""
        return any(same_code(key, self.code) or same_code(key, self.watch) for key in keys)

    def admits(self, player_id: int | None, keys: Keys = ()) -> bool:
        """Whether ``player_id`` (None: anonymous) presenting ``keys`` may read the room."""
        return not self.private or self.insider(player_id) or self.holds_code(keys)

    def check(self, room_id: int, player_id: int | None, keys: Keys = ()) -> None:
        """404, as for an unknown room, unless the caller may read the room."""
        if not self.admits(player_id, keys):
            raise hidden(room_id)


def readers_of(session: Session, room: Room) -> Readers:
    """The room's :class:`Readers`, from its row and its seats (one query)."""
    people = frozenset(pid for pid in session.exec(
        select(Seat.player_id).where(Seat.room_id == room.id)) if pid is not None)
    return Readers(private=room.private, host_id=room.host_id, people=people,
                   code=room.code, watch=room.watch)


def load_readers(engine: Engine, room_id: int) -> Readers:
    """The room's :class:`Readers` from the database; 404 for no such room (blocking: run it
    off the event loop)."""
    if not 0 < room_id <= MAX_ID:  # larger ids overflow the INTEGER column
        raise hidden(room_id)
    with Session(engine) as session:
        room = session.get(Room, room_id)
        if room is None:
            raise hidden(room_id)
        return readers_of(session, room)
