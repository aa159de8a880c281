"""The lobby: rooms, seats, invites, bots, options and the start of a game — one command
each, used by the JSON API and the pages alike.

The creator of a room is its host: only the host starts it, adds or removes bots, changes its
options and table settings (pace, clock, replays) and removes a seated player before the
start; when the host leaves, the next person seated becomes host. A private room is never
listed and is joined only with its invite code (at least 64 bits), which only the people
seated in it are shown; anyone else who is not its host gets 404 for it, as for a room that
does not exist, unless they hold its invite code or its watch code (app/rooms/access.py, the
one rule). When the host frees a person's seat the room gets a new invite code: the old link
no longer lets anyone in.

Every command runs one short transaction off the event loop and raises :class:`ApiError` with
the status of DESIGN.md §3.4 when the request cannot be honoured; nothing changes in that
case. After a change it tells the room's sockets (:class:`LobbyChanged`); ``start`` also hands
the dealt game to the room service, which sets the bots moving.

At the end of a game any person seated in it may offer a rematch (:meth:`Lobby.offer_rematch`):
a new room of the same game, seats, options and table settings, hosted by the offerer. Bots
take their old seats at once; every other person's seat is held for them (``Seat.invited``)
until they accept or decline (:meth:`Lobby.answer_rematch`; declining frees the seat for
anyone with the invite link). A rematch starts by itself as soon as every seat is taken and
nobody's answer is awaited.
"""

from __future__ import annotations

import secrets
import time
from collections.abc import Callable, Sequence
from typing import Any, Literal, TypeVar

from anyio import to_thread
from pydantic import BaseModel, ConfigDict, Field, ValidationError
from sqlalchemy import func, or_, update
from sqlalchemy.engine import Engine
from sqlmodel import Session, col, select

from app.errors import ApiError
from app.games.registry import GAMES, UnknownGame, get_game
from app.games.words import N_, Msg, plural
from app.models import MAX_ID, Game, Player, Room, Seat, new_code
from app.rooms.access import Keys, hidden, no_room, readers_of, same_code
from app.rooms.events import LobbyChanged
from app.rooms.service import RoomService

T = TypeVar("T")
#: Bits of a game's seed: enough that no seat can find the seed behind its own cards by search.
SEED_BITS = 128


class WrongInvite(ApiError):
    """A private room joined without its invite code, or with a wrong one (the edge counts
    these per address): 404, what a room that does not exist gets, so that trying room ids
    tells nothing about private rooms."""

    def __init__(self, room_id: int) -> None:
        super().__init__(404, no_room(room_id))


class WrongLink(ApiError):
    """An invite or watch link whose code names no room: a code the host replaced, a room
    closed, or a typo (the edge counts these per address like wrong invite codes)."""

    def __init__(self) -> None:
        super().__init__(404, Msg("This link is no longer valid: the table was closed or "
                                  "its host made a new one. Ask the host for a new link."))


class ClockSetting(BaseModel):
    """A chess clock per seat (live tables only)."""

    model_config = ConfigDict(extra="forbid")
    minutes: int = Field(ge=1, le=180, description="each seat's time for the whole game, "
                                                   "1–180 minutes")
    increment: int = Field(default=0, ge=0, le=120, description="seconds added to a seat's "
                                                                "clock after each of its "
                                                                "moves, 0–120")
    on_timeout: Literal["bot", "lose"] = Field(
        default="bot", description="when a seat's time runs out: \"bot\" (a bot plays on) or "
                                   "\"lose\" (the player loses the game)")


class TableSettings(BaseModel):
    """How a room plays, beside its game's options (app/models.py ``Room``)."""

    model_config = ConfigDict(extra="forbid")
    pace: Literal["live", "turn"] = Field(
        default="live", description="\"live\": everyone plays now; \"turn\": by "
                                    "correspondence, each move may take up to move_hours")
    away_minutes: int = Field(default=5, ge=1, le=120, description="live tables: minutes a "
                                                                   "person may be away before "
                                                                   "the others may vote their "
                                                                   "seat to a bot, 1–120")
    move_hours: int = Field(default=24, ge=1, le=336, description="turn-based tables: hours "
                                                                  "a move may take, 1–336 "
                                                                  "(two weeks)")
    clock: ClockSetting | None = Field(default=None, description="a chess clock per seat "
                                                                 "(live tables only); null: "
                                                                 "none")
    public_replay: bool = Field(default=False, description="the finished game's replay shows "
                                                           "every hand (otherwise what a "
                                                           "spectator saw)")


def table_json(room: Room) -> dict[str, Any]:
    """A room's table settings as the API shows them (:class:`TableSettings`)."""
    return {"pace": room.pace, "away_minutes": room.away_minutes,
            "move_hours": room.move_hours, "clock": room.clock,
            "public_replay": room.public_replay}


def _table_settings(given: dict[str, Any] | TableSettings | None) -> TableSettings:
    """The table settings checked (422 naming each bad field); a clock only at a live
    table."""
    if isinstance(given, TableSettings):
        settings = given
    else:
        try:
            settings = TableSettings.model_validate(given or {})
        except ValidationError as exc:
            problems = [_option_problem(e) for e in exc.errors()]
            raise ApiError(422, Msg("invalid table settings: {problems}",
                                    {"problems": problems}),
                           fields=sorted({".".join(map(str, e["loc"])) for e in exc.errors()})
                           ) from None
    if settings.pace != "live" and settings.clock is not None:
        raise ApiError(422, Msg("clocks are for live tables only: a turn-based table has its "
                                "time per move instead"), fields=["clock"])
    return settings


def _apply_table(room: Room, settings: TableSettings) -> None:
    room.pace = settings.pace
    room.away_minutes = settings.away_minutes
    room.move_hours = settings.move_hours
    room.clock = settings.clock.model_dump(mode="json") if settings.clock else None
    room.public_replay = settings.public_replay


def games_json() -> list[dict[str, Any]]:
    return [
        {
            "id": game.id,
            "title": game.title,
            "summary": game.summary,
            "min_players": game.min_players,
            "max_players": game.max_players,
            "options": game.Options.model_json_schema(),
            "bots": [{"id": bot.id, "label": bot.label} for bot in game.bots],
            "rules_version": game.rules_version,
        }
        for game in GAMES.values()
    ]


def _room(session: Session, room_id: int, *, lock: bool = False) -> Room:
    """The room, or 404. ``lock`` first takes the database's write lock on the room (a no-op
    UPDATE), so that the checks a lobby change makes (seat free, player not yet seated, every
    seat taken, still in the lobby) see every committed change and hold until the commit:
    without it two requests could both pass their checks (a player seated twice, a game
    started while a player leaves). SQLite has one writer; PostgreSQL locks the row."""
    if not 0 < room_id <= MAX_ID:  # larger ids overflow the INTEGER column (a 500 otherwise)
        raise hidden(room_id)
    if lock:
        session.execute(update(Room).where(col(Room.id) == room_id)
                        .values(status=Room.status)
                        .execution_options(synchronize_session=False))
    room = session.get(Room, room_id)
    if room is None:
        raise hidden(room_id)
    return room


def _their_room(session: Session, room_id: int, player: Player) -> Room:
    """The room a command changes, locked (:func:`_room`). A private room is changed only by
    its host and the people seated: to anyone else it is 404, as an unknown room is (a watch
    link reads, it never changes anything)."""
    room = _room(session, room_id, lock=True)
    readers_of(session, room).check(room_id, player.id)
    return room


def _seats(session: Session, room_id: int) -> list[Seat]:
    return list(session.exec(select(Seat).where(Seat.room_id == room_id).order_by(col(Seat.index))))


def _names(session: Session, ids: list[int]) -> dict[int, str]:
    if not ids:
        return {}
    return {p.id: p.name for p in session.exec(select(Player).where(col(Player.id).in_(ids)))
            if p.id is not None}


def room_json(session: Session, room: Room, viewer: int | None = None) -> dict[str, Any]:
    """A room as ``viewer`` (a player id) may see it (:func:`rooms_json`)."""
    return rooms_json(session, [room], viewer)[0]


def rooms_json(session: Session, rooms: Sequence[Room],
               viewer: int | None = None) -> list[dict[str, Any]]:
    """Rooms as ``viewer`` (a player id) may see them: game, seats with their occupants (a
    seat ``invited``: held for a rematch's invitee until they answer), host, status, table
    settings, the rematch it is of and the rematch offered at its end; its invite code only
    for its host and the people seated in it. Three queries whatever the number of rooms:
    their seats, the names of their people and hosts, their games' versions."""
    ids = [room.id for room in rooms if room.id is not None]
    if not ids:
        return []
    seats_of: dict[int, dict[int, Seat]] = {room_id: {} for room_id in ids}
    for seat in session.exec(select(Seat).where(col(Seat.room_id).in_(ids))):
        seats_of[seat.room_id][seat.index] = seat
    people = {s.player_id for seats in seats_of.values() for s in seats.values()
              if s.player_id is not None}
    names = _names(session, sorted(people | {r.host_id for r in rooms if r.host_id}))
    versions = dict(session.exec(select(Game.room_id, Game.version)
                                 .where(col(Game.room_id).in_(ids))).all())
    return [_room_json(room, seats_of[room.id], names, versions.get(room.id), viewer)
            for room in rooms if room.id is not None]


def _room_json(room: Room, seats: dict[int, Seat], names: dict[int, str],
               version: int | None, viewer: int | None) -> dict[str, Any]:
    people = [s.player_id for s in seats.values() if s.player_id is not None]
    insider = viewer is not None and (viewer in people or viewer == room.host_id)
    return {
        "id": room.id,
        "code": room.code if insider else None,
        "game": room.game_id,
        "title": get_game(room.game_id).title,
        "players": room.players,
        "options": room.options,
        "status": room.status,
        "private": room.private,
        "created_by": room.created_by,
        "host": ({"id": room.host_id, "name": names.get(room.host_id, "?")}
                 if room.host_id is not None else None),
        "invite": f"/r/{room.code}" if insider else None,
        "watch": room.watch if insider else None,
        "watch_link": f"/w/{room.watch}" if insider else None,
        "version": version,
        "table": table_json(room),
        "rematch_of": room.rematch_of,
        "rematch_id": room.rematch_id,
        "seats": [
            {
                "index": i,
                "player": (
                    {"id": seats[i].player_id, "name": names.get(seats[i].player_id or -1, "?")}
                    if i in seats and seats[i].player_id is not None
                    else None
                ),
                "bot": seats[i].bot_level if i in seats else None,
                "free": i not in seats,
                "invited": i in seats and seats[i].invited,
            }
            for i in range(room.players)
        ],
    }


#: What a room's status reads as in a refusal (whole sentences, so each language words it).
NOT_IN_LOBBY = {"playing": N_("the room is playing"),
                "finished": N_("the room is finished"),
                "started": N_("the game has started")}


def _not_in_lobby(status: str) -> Msg:
    said = NOT_IN_LOBBY.get(status) or NOT_IN_LOBBY["started"]
    return Msg(said)


def _option_problem(error: Any) -> Msg:
    """One problem of an options object in words (pydantic's own words, in English, for a
    kind of problem no option form can make)."""
    field = ".".join(map(str, error["loc"]))
    kind, ctx = error["type"], error.get("ctx") or {}
    problem: Msg
    if kind == "less_than_equal":
        problem = Msg("must be at most {limit}", {"limit": ctx.get("le")})
    elif kind == "less_than":
        problem = Msg("must be less than {limit}", {"limit": ctx.get("lt")})
    elif kind == "greater_than_equal":
        problem = Msg("must be at least {limit}", {"limit": ctx.get("ge")})
    elif kind == "greater_than":
        problem = Msg("must be more than {limit}", {"limit": ctx.get("gt")})
    elif kind in ("int_parsing", "int_type", "int_from_float"):
        problem = Msg("must be a whole number")
    elif kind in ("bool_parsing", "bool_type"):
        problem = Msg("must be true or false")
    elif kind in ("literal_error", "enum"):
        problem = Msg("must be one of {choices}", {"choices": str(ctx.get("expected", ""))})
    elif kind == "extra_forbidden":
        problem = Msg("is not an option of this game")
    else:
        return Msg("{field}: {problem}", {"field": field, "problem": str(error["msg"])})
    return Msg("{field}: {problem}", {"field": field, "problem": problem})


def _options(game_id: str, options: dict[str, Any] | None) -> dict[str, Any]:
    """The options checked against the game's model (422 naming each bad field)."""
    game = get_game(game_id)
    try:
        parsed = game.Options.model_validate(options or {})
    except ValidationError as exc:
        problems = [_option_problem(e) for e in exc.errors()]
        raise ApiError(422, Msg("invalid options for {game}: {problems}",
                                {"game": game.title, "problems": problems}),
                       fields=sorted({".".join(map(str, e["loc"])) for e in exc.errors()})
                       ) from None
    return parsed.model_dump(mode="json")


class Lobby:
    """The lobby's commands on one database. Each public method is a coroutine: the
    transaction runs in a worker thread, then the room's sockets hear of the change."""

    def __init__(self, engine: Engine, rooms: RoomService, max_open_rooms: int = 3,
                 max_running_rooms: int = 10, list_seconds: float = 1.0) -> None:
        self.engine = engine
        self.rooms = rooms
        self.max_open_rooms = max_open_rooms
        self.max_running_rooms = max_running_rooms
        #: How long the public list is kept (:meth:`list_rooms`); 0: never kept.
        self.list_seconds = list_seconds
        self._listed: tuple[float, list[dict[str, Any]]] | None = None
        #: Changes made through this lobby: a list read before one is not kept after it.
        self._changes = 0

    def session(self) -> Session:
        return Session(self.engine, expire_on_commit=False)

    async def _run(self, command: Callable[..., T], *args: Any) -> T:
        return await to_thread.run_sync(command, *args)

    def _list_changed(self) -> None:
        """A room changed: the public list kept is stale."""
        self._changes += 1
        self._listed = None

    async def _changed(self, room_id: int, command: Callable[..., T], *args: Any) -> T:
        """Run a command that changes the room, then tell the room's sockets."""
        result = await self._run(command, *args)
        self._list_changed()
        await self.rooms.hub.publish(LobbyChanged(room_id))
        return result

    async def _seated(self, room_id: int,
                      command: Callable[..., tuple[dict[str, Any], bool]],
                      *args: Any) -> dict[str, Any]:
        """Run a command that may deal the room's game (a start, or a rematch's last seat
        taken); a dealt game goes to the room service before the room's sockets hear of it."""
        room, dealt = await self._run(command, *args)
        self._list_changed()
        if dealt:
            await self.rooms.started(room_id)
        await self.rooms.hub.publish(LobbyChanged(room_id))
        return room

    # -- reading ---------------------------------------------------------------------------

    async def get_room(self, room_id: int, viewer: int | None = None,
                       keys: Keys = ()) -> dict[str, Any]:
        """The room as ``viewer`` sees it; 404 for a private room they may not read
        (``keys``: the codes they present; app/rooms/access.py)."""
        return await self._run(self._get_room, room_id, viewer, keys)

    def _get_room(self, room_id: int, viewer: int | None, keys: Keys) -> dict[str, Any]:
        with self.session() as session:
            room = _room(session, room_id)
            readers_of(session, room).check(room_id, viewer, keys)
            return room_json(session, room, viewer)

    async def room_id_for_code(self, code: str, kind: Literal["invite", "watch"]) -> int:
        """The room whose invite (or watch) code is ``code``; :class:`WrongLink` for none."""
        return await self._run(self._room_id_for_code, code, kind)

    def _room_id_for_code(self, code: str, kind: Literal["invite", "watch"]) -> int:
        if not (0 < len(code) <= 16 and code.isascii() and code.isalnum()):
            raise WrongLink  # no code of ours (and nothing a database could choke on)
        column = Room.code if kind == "invite" else Room.watch
        with self.session() as session:
            room = session.exec(select(Room).where(column == code)).first()
            if room is None or room.id is None:
                raise WrongLink
            return room.id

    async def list_rooms(self) -> list[dict[str, Any]]:
        """The public rooms that wait for players or play, newest first (at most 200; the
        same list for everyone: no invite codes). Kept for ``list_seconds`` (the home page
        and ``GET /api/rooms`` of a busy server read it far more often than it changes) and
        dropped at once when a room changes through this lobby; a game's version or end may
        show that much late. The list is shared: callers must not change it."""
        kept = self._listed
        now = time.monotonic()
        if kept is not None and now - kept[0] < self.list_seconds:
            return kept[1]
        changes = self._changes
        rooms = await self._run(self._list_rooms)
        if self.list_seconds > 0 and changes == self._changes:
            self._listed = (now, rooms)
        return rooms

    def _list_rooms(self) -> list[dict[str, Any]]:
        with self.session() as session:
            rooms = session.exec(select(Room).where(col(Room.status).in_(("lobby", "playing")))
                                 .where(col(Room.private).is_(False))
                                 .order_by(col(Room.id).desc()).limit(200))
            return rooms_json(session, list(rooms))

    async def rooms_of(self, player_id: int) -> list[dict[str, Any]]:
        """The rooms, private ones too, that the player sits in or hosts and that wait or
        play, newest first."""
        return await self._run(self._rooms_of, player_id)

    def _rooms_of(self, player_id: int) -> list[dict[str, Any]]:
        with self.session() as session:
            seated = select(Seat.room_id).where(Seat.player_id == player_id)
            theirs = or_(col(Room.id).in_(seated), col(Room.host_id) == player_id)
            rooms = session.exec(select(Room).where(col(Room.status).in_(("lobby", "playing")))
                                 .where(theirs).order_by(col(Room.id).desc()).limit(50))
            return rooms_json(session, list(rooms), player_id)

    # -- commands --------------------------------------------------------------------------

    async def create_room(self, player: Player, game_id: str, players: int,
                          options: dict[str, Any] | None, private: bool = False,
                          seated: bool = True,
                          table: dict[str, Any] | TableSettings | None = None
                          ) -> dict[str, Any]:
        """A new room of ``game_id`` for ``players`` seats, hosted by its creator, who takes
        seat 0 unless they only watch (``seated=False``); ``table``: its
        :class:`TableSettings` (the defaults: live, no clock)."""
        room = await self._run(self._create_room, player, game_id, players, options, private,
                               seated, table)
        self._list_changed()
        return room

    def _create_room(self, player: Player, game_id: str, players: int,
                     options: dict[str, Any] | None, private: bool, seated: bool,
                     table: dict[str, Any] | TableSettings | None) -> dict[str, Any]:
        try:
            game = get_game(game_id)
        except UnknownGame:
            raise ApiError(404, Msg("unknown game {game}; known: {known}",
                                    {"game": repr(game_id), "known": ", ".join(GAMES)})) from None
        if not game.min_players <= players <= game.max_players:
            raise ApiError(422, Msg("{game} is for {least}–{most} players, not {players}",
                                    {"game": game.title, "least": game.min_players,
                                     "most": game.max_players, "players": players}),
                           fields=["players"])
        checked = _options(game_id, options)
        settings = _table_settings(table)
        with self.session() as session:
            assert player.id is not None
            self._check_hosted(session, player)
            room = Room(code=self._new_code(session), game_id=game.id, players=players,
                        options=checked, created_by=player.id, host_id=player.id,
                        private=private)
            _apply_table(room, settings)
            session.add(room)
            session.flush()
            assert room.id is not None
            if seated:
                session.add(Seat(room_id=room.id, index=0, player_id=player.id))
            session.commit()
            return room_json(session, room, player.id)

    def _check_hosted(self, session: Session, player: Player) -> None:
        """409 when the player already hosts ``max_open_rooms`` rooms waiting for their
        start. Takes the write lock first (a no-op UPDATE of the host's row), so that two
        creations at once cannot both count the rooms before either adds its own."""
        session.execute(update(Player).where(col(Player.id) == player.id)
                        .values(name=Player.name)
                        .execution_options(synchronize_session=False))
        hosted = len(session.exec(select(Room.id).where(Room.host_id == player.id)
                                  .where(Room.status == "lobby")).all())
        if hosted >= self.max_open_rooms:
            raise ApiError(409, plural(
                "you already host {n} table waiting for its start: start or leave it first",
                "you already host {n} tables waiting for their start: start or leave one "
                "first", "n", n=hosted))

    @staticmethod
    def _new_code(session: Session) -> str:
        """A fresh invite code no room has (app/models.py :func:`new_code`)."""
        while True:
            code = new_code()
            if session.exec(select(Room).where(Room.code == code)).first() is None:
                return code

    async def join(self, player: Player, room_id: int, seat: int | None,
                   code: str | None = None) -> dict[str, Any]:
        """Take a seat (the first free one by default); a private room needs its invite code
        (the watch code does not seat anyone), else 404 (:class:`WrongInvite`). The last seat
        of a rematch taken starts it."""
        return await self._seated(room_id, self._join, player, room_id, seat, code)

    def _join(self, player: Player, room_id: int, seat: int | None,
              code: str | None) -> tuple[dict[str, Any], bool]:
        with self.session() as session:
            room = _room(session, room_id, lock=True)
            mine = next((s for s in _seats(session, room_id) if s.player_id == player.id), None)
            if mine is not None and mine.invited:
                raise ApiError(409, Msg("seat {seat} is held for you: accept or decline the "
                                        "rematch", {"seat": str(mine.index + 1)}))
            if room.private and not (readers_of(session, room).insider(player.id)
                                     or (isinstance(code, str) and same_code(code, room.code))):
                raise WrongInvite(room_id)
            if mine is not None:
                raise ApiError(409, Msg("you already have a seat in this room"))
            index = self._free_seat(session, room, seat)
            session.add(Seat(room_id=room_id, index=index, player_id=player.id))
            session.flush()
            dealt = self._deal_if_ready(session, room)
            session.commit()
            return room_json(session, room, player.id), dealt

    async def leave(self, player: Player, room_id: int) -> dict[str, Any]:
        """Give up one's seat before the start (an invitee's seat too: a decline); the next
        person seated becomes host if the host leaves, and the last person out closes the
        room."""
        room = await self._changed(room_id, self._leave, player, room_id)
        await self._rematch_closed(room)
        return room

    def _leave(self, player: Player, room_id: int) -> dict[str, Any]:
        with self.session() as session:
            room = _their_room(session, room_id, player)
            mine = [s for s in _seats(session, room_id) if s.player_id == player.id]
            if not mine:
                raise ApiError(403, Msg("you have no seat in this room"))
            if room.status != "lobby":
                raise ApiError(409, Msg("the game has started: you cannot leave the room now"))
            return self._vacate(session, room, mine, player)

    def _vacate(self, session: Session, room: Room, seats: list[Seat],
                player: Player) -> dict[str, Any]:
        """Free ``player``'s ``seats`` and commit. The next person seated hosts if the host
        left (one who accepted before one still invited); with nobody left the room closes,
        and the game it was the rematch of may offer another."""
        assert room.id is not None
        for seat in seats:
            session.delete(seat)
        session.flush()
        people = [s for s in _seats(session, room.id) if s.player_id is not None]
        if not people:
            for seat in _seats(session, room.id):
                session.delete(seat)
            if room.rematch_of is not None:
                session.execute(update(Room).where(col(Room.id) == room.rematch_of)
                                .values(rematch_id=None)
                                .execution_options(synchronize_session=False))
            session.delete(room)
            session.commit()
            return {"id": room.id, "status": "closed", "seats": [],
                    "rematch_of": room.rematch_of}
        if room.host_id == player.id:
            room.host_id = sorted(people, key=lambda s: (s.invited, s.index))[0].player_id
            session.add(room)
        session.commit()
        return room_json(session, room, player.id)

    async def _rematch_closed(self, room: dict[str, Any]) -> None:
        """A rematch closed before its start: the finished game's table forgets it (its pages
        offer "Play again" anew)."""
        old = room.get("rematch_of")
        if room.get("status") != "closed" or old is None:
            return
        table = self.rooms.cached(old)
        if table is not None and table.rematch_id == room["id"]:
            table.rematch_id = None
            table.reseated()
        await self.rooms.hub.publish(LobbyChanged(old))

    async def add_bot(self, player: Player, room_id: int, seat: int | None,
                      level: str | None) -> dict[str, Any]:
        """The host seats a bot (the game's first level by default); the last seat of a
        rematch taken starts it."""
        return await self._seated(room_id, self._add_bot, player, room_id, seat, level)

    def _add_bot(self, player: Player, room_id: int, seat: int | None,
                 level: str | None) -> tuple[dict[str, Any], bool]:
        with self.session() as session:
            room = _their_room(session, room_id, player)
            game = get_game(room.game_id)
            bot = game.bot(level) if level is not None else game.bots[0]
            if bot is None:
                raise ApiError(422, Msg("unknown bot level {level}; choose one of {known}",
                                        {"level": repr(level),
                                         "known": ", ".join(b.id for b in game.bots)}))
            self._require_host(session, player, room, N_("add bots"))
            index = self._free_seat(session, room, seat)
            session.add(Seat(room_id=room_id, index=index, bot_level=bot.id))
            session.flush()
            dealt = self._deal_if_ready(session, room)
            session.commit()
            return room_json(session, room, player.id), dealt

    async def remove_bot(self, player: Player, room_id: int, seat: int) -> dict[str, Any]:
        return await self._changed(room_id, self._remove_bot, player, room_id, seat)

    def _remove_bot(self, player: Player, room_id: int, seat: int) -> dict[str, Any]:
        with self.session() as session:
            room = _their_room(session, room_id, player)
            self._require_host(session, player, room, N_("remove bots"))
            self._require_lobby(room, N_("bots can only be removed before the start"))
            bot = next((s for s in _seats(session, room_id) if s.index == seat), None)
            if bot is None or bot.bot_level is None:
                raise ApiError(404, Msg("there is no bot on seat {seat}", {"seat": str(seat)}))
            session.delete(bot)
            session.commit()
            return room_json(session, room, player.id)

    async def remove_player(self, player: Player, room_id: int, seat: int) -> dict[str, Any]:
        """The host frees a seated person's seat before the start."""
        return await self._changed(room_id, self._remove_player, player, room_id, seat)

    def _remove_player(self, player: Player, room_id: int, seat: int) -> dict[str, Any]:
        with self.session() as session:
            room = _their_room(session, room_id, player)
            self._require_host(session, player, room, N_("remove players"))
            self._require_lobby(room, N_("players can only be removed before the start"))
            taken = next((s for s in _seats(session, room_id) if s.index == seat), None)
            if taken is None or taken.player_id is None:
                raise ApiError(404, Msg("nobody sits on seat {seat}", {"seat": str(seat)}))
            if taken.player_id == player.id:
                raise ApiError(409, Msg("you cannot remove yourself: leave the room instead"))
            session.delete(taken)
            room.code = self._new_code(session)  # the old invite link lets nobody back in
            session.add(room)
            session.commit()
            return room_json(session, room, player.id)

    async def set_options(self, player: Player, room_id: int,
                          options: dict[str, Any]) -> dict[str, Any]:
        """The host changes the room's options before the start."""
        return await self._changed(room_id, self._set_options, player, room_id, options)

    def _set_options(self, player: Player, room_id: int,
                     options: dict[str, Any]) -> dict[str, Any]:
        with self.session() as session:
            room = _their_room(session, room_id, player)
            self._require_host(session, player, room, N_("change the options"))
            self._require_lobby(room, N_("options can only change before the start"))
            room.options = _options(room.game_id, options)
            session.add(room)
            session.commit()
            return room_json(session, room, player.id)

    async def set_table(self, player: Player, room_id: int,
                        table: dict[str, Any] | TableSettings) -> dict[str, Any]:
        """The host changes the table settings (pace, clock, replays) before the start; the
        settings given replace the room's (the ones left out take their defaults)."""
        return await self._changed(room_id, self._set_table, player, room_id, table)

    def _set_table(self, player: Player, room_id: int,
                   table: dict[str, Any] | TableSettings) -> dict[str, Any]:
        settings = _table_settings(table)
        with self.session() as session:
            room = _their_room(session, room_id, player)
            self._require_host(session, player, room, N_("change the table settings"))
            self._require_lobby(room, N_("the table settings can only change before the start"))
            _apply_table(room, settings)
            session.add(room)
            session.commit()
            return room_json(session, room, player.id)

    async def start(self, player: Player, room_id: int) -> dict[str, Any]:
        """Deal the game once every seat is taken; the room service takes it from there."""
        return await self._seated(room_id, self._start, player, room_id)

    def _start(self, player: Player, room_id: int) -> tuple[dict[str, Any], bool]:
        with self.session() as session:
            room = _their_room(session, room_id, player)
            self._require_host(session, player, room, N_("start the game"))
            self._deal(session, room)
            session.commit()
            return room_json(session, room, player.id), True

    def _deal(self, session: Session, room: Room) -> None:
        """Deal the room's game (the caller commits). Every seat must be taken and nobody's
        answer to a rematch awaited. The seed is drawn here (``SEED_BITS`` from ``secrets``)
        and stored with the dealt state."""
        assert room.id is not None
        if room.status != "lobby":
            raise ApiError(409, Msg("the game has already started ({status})",
                                    {"status": _not_in_lobby(room.status)}))
        seats = _seats(session, room.id)
        invited = [s.player_id for s in seats if s.invited and s.player_id is not None]
        if invited:
            names = _names(session, invited)
            raise ApiError(409, Msg("still waiting for {names} to accept or decline the "
                                    "rematch", {"names": [names.get(i, "?") for i in invited]}))
        free = room.players - len(seats)
        if free:
            raise ApiError(409, plural("{n} seat is still free: invite friends or add bots",
                                       "{n} seats are still free: invite friends or add "
                                       "bots", "n", n=free))
        refusal = self._running_refusal(session, room)
        if refusal is not None:
            raise refusal
        game = get_game(room.game_id)
        seed = secrets.randbits(SEED_BITS)
        state = game.setup(room.players, game.Options.model_validate(room.options), seed)
        session.add(Game(room_id=room.id, seed=str(seed), state=game.dump(state), version=0,
                         rules_version=game.rules_version))
        room.status = "playing"
        session.add(room)

    def _deal_if_ready(self, session: Session, room: Room) -> bool:
        """A rematch deals its game as soon as every seat is taken and nobody's answer is
        awaited (other rooms wait for their host's start). Whether it dealt."""
        assert room.id is not None
        if room.rematch_of is None or room.status != "lobby":
            return False
        seats = _seats(session, room.id)
        if len(seats) < room.players or any(s.invited for s in seats):
            return False
        if self._running_refusal(session, room) is not None:
            return False  # the host has too many games running: it waits for their start
        self._deal(session, room)
        return True

    def _running_refusal(self, session: Session, room: Room) -> ApiError | None:
        """409 when the room's host already hosts ``max_running_rooms`` games in progress
        (``None``: the room may start). Takes the write lock on the host's row first, so that
        two starts at once cannot both count the games before either adds its own."""
        if room.host_id is None:
            return None
        session.execute(update(Player).where(col(Player.id) == room.host_id)
                        .values(name=Player.name)
                        .execution_options(synchronize_session=False))
        running = session.exec(select(func.count()).select_from(Room)
                               .where(col(Room.host_id) == room.host_id)
                               .where(col(Room.status) == "playing")).one()
        if running < self.max_running_rooms:
            return None
        return ApiError(409, plural(
            "you already host {n} game in progress, the most one player may host at once: "
            "start this one when it ends",
            "you already host {n} games in progress, the most one player may host at once: "
            "start this one when one of them ends", "n", n=running))

    # -- rematches -------------------------------------------------------------------------

    async def offer_rematch(self, player: Player,
                            old_room_id: int) -> tuple[dict[str, Any], bool]:
        """Offer a rematch of a finished game: a new room of the same game, seats, options and
        table settings, hosted by the offerer (who must have played in it). The offerer and
        the bots keep their seats; every other person's seat is held for them until they
        answer. If a rematch was offered already, that one. Returns the new room and whether
        this call created it; the finished game's pages show the offer."""
        room, created, dealt = await self._run(self._offer_rematch, player, old_room_id)
        if created:
            self._list_changed()
            if dealt:
                await self.rooms.started(room["id"])
            await self.rooms.hub.publish(LobbyChanged(room["id"]))
            await self.rooms.rematch_offered(old_room_id, room["id"])
        return room, created

    def _offer_rematch(self, player: Player,
                       old_room_id: int) -> tuple[dict[str, Any], bool, bool]:
        with self.session() as session:
            old = _their_room(session, old_room_id, player)
            seats = _seats(session, old_room_id)
            if not any(s.player_id == player.id for s in seats):
                raise ApiError(403, Msg("only the players of this game may offer a rematch"))
            if old.rematch_id is not None:
                new = _room(session, old.rematch_id)
                return room_json(session, new, player.id), False, False
            if old.status != "finished":
                raise ApiError(409, Msg("the game is not over yet: a rematch is offered at its "
                                        "end"))
            assert player.id is not None
            self._check_hosted(session, player)
            new = Room(code=self._new_code(session), game_id=old.game_id, players=old.players,
                       options=dict(old.options), created_by=player.id, host_id=player.id,
                       private=old.private, pace=old.pace, away_minutes=old.away_minutes,
                       move_hours=old.move_hours,
                       clock=dict(old.clock) if old.clock else None,
                       public_replay=old.public_replay, rematch_of=old.id)
            session.add(new)
            session.flush()
            assert new.id is not None
            for seat in seats:
                if seat.player_id is not None:  # a person, even if a bot played for them
                    session.add(Seat(room_id=new.id, index=seat.index, player_id=seat.player_id,
                                     invited=seat.player_id != player.id))
                elif seat.bot_level is not None:
                    session.add(Seat(room_id=new.id, index=seat.index, bot_level=seat.bot_level))
            old.rematch_id = new.id
            session.add(old)
            session.flush()
            dealt = self._deal_if_ready(session, new)
            session.commit()
            return room_json(session, new, player.id), True, dealt

    async def answer_rematch(self, player: Player, room_id: int,
                             accept: bool) -> dict[str, Any]:
        """An invitee of a rematch accepts (the seat is theirs; once every seat is taken and
        nobody's answer awaited, the game starts) or declines (the seat is free for anyone
        with the invite link). Accepting twice is accepting once."""
        room = await self._seated(room_id, self._answer_rematch, player, room_id, accept)
        await self._rematch_closed(room)
        return room

    def _answer_rematch(self, player: Player, room_id: int,
                        accept: bool) -> tuple[dict[str, Any], bool]:
        with self.session() as session:
            room = _their_room(session, room_id, player)
            mine = next((s for s in _seats(session, room_id) if s.player_id == player.id), None)
            if room.rematch_of is None or mine is None:
                raise ApiError(403, Msg("you are not invited to this table"))
            self._require_lobby(room, N_("invitations are answered before the start"))
            if not accept:
                if not mine.invited:
                    raise ApiError(409, Msg("you have accepted already: leave the room "
                                            "instead"))
                return self._vacate(session, room, [mine], player), False
            if mine.invited:
                mine.invited = False
                session.add(mine)
                session.flush()
            dealt = self._deal_if_ready(session, room)
            session.commit()
            return room_json(session, room, player.id), dealt

    def _free_seat(self, session: Session, room: Room, seat: int | None) -> int:
        assert room.id is not None
        self._require_lobby(room, N_("seats can only change before the start"))
        taken = {s.index for s in _seats(session, room.id)}
        if seat is None:
            free = [i for i in range(room.players) if i not in taken]
            if not free:
                raise ApiError(409, Msg("every seat is taken"))
            return free[0]
        if not 0 <= seat < room.players:
            raise ApiError(404, Msg("there is no seat {seat}: seats are 0–{last}",
                                    {"seat": str(seat), "last": room.players - 1}))
        if seat in taken:
            raise ApiError(409, Msg("seat {seat} is taken", {"seat": str(seat)}))
        return seat

    @staticmethod
    def _require_lobby(room: Room, why: str) -> None:
        """409 unless the room waits for its start; ``why``: a message id (``N_``)."""
        if room.status != "lobby":
            raise ApiError(409, Msg("{status}: {why}", {"status": _not_in_lobby(room.status),
                                                        "why": Msg(why)}))

    @staticmethod
    def _require_host(session: Session, player: Player, room: Room, action: str) -> None:
        """403 unless ``player`` hosts the room; ``action``: what they tried, a message id
        (``N_``) that reads after "may" ("add bots")."""
        if room.host_id != player.id:
            host = session.get(Player, room.host_id) if room.host_id is not None else None
            raise ApiError(403, Msg("only the host ({host}) may {action}",
                                    {"host": host.name if host else Msg("nobody"),
                                     "action": Msg(action)}))
