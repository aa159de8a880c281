"""The lobby's JSON API (DESIGN.md §5): players, games, rooms, seats, bots, table settings,
start and rematches. Each route is one call of the lobby's service."""

from __future__ import annotations

from typing import Annotated, Any

from anyio import to_thread
from fastapi import APIRouter, Depends, Request, Response
from pydantic import BaseModel, ConfigDict, Field

from app.games.words import N_
from app.guard import RateLimits, rate_limited
from app.identity import Caller, MaybeCaller, WatchKeys, create_player, set_cookie
from app.lobby.service import Lobby, TableSettings, WrongInvite, games_json

router = APIRouter(prefix="/api", tags=["lobby"])


def get_lobby(request: Request) -> Lobby:
    lobby: Lobby = request.app.state.lobby
    return lobby


LobbyDep = Annotated[Lobby, Depends(get_lobby)]


class NewPlayer(BaseModel):
    model_config = ConfigDict(extra="forbid")
    name: str = Field(max_length=200, description="display name, 1–40 characters")


class NewRoom(TableSettings):
    """A room: its game, seats and options, and how it plays (:class:`TableSettings`: pace,
    away limit, time per move, clock, replays; a clock only with ``pace`` "live")."""

    model_config = ConfigDict(extra="forbid")
    game: str = Field(description="a game id from GET /api/games")
    players: int = Field(description="number of seats")
    options: dict[str, Any] = Field(
        default_factory=dict, description="the game's options (GET /api/games gives their "
                                          "JSON schema); unknown or out-of-range ones: 422")
    private: bool = Field(default=False, description="never listed; joined only with the "
                                                     "invite code")
    seated: bool = Field(default=True, description="the creator takes seat 0; false: the "
                                                   "creator hosts and watches (a table of "
                                                   "bots, or friends who join)")


class RematchAnswer(BaseModel):
    model_config = ConfigDict(extra="forbid")
    accept: bool = Field(description="true: take the seat held for you; false: decline (the "
                                     "seat is free for anyone with the invite link)")


class SeatChoice(BaseModel):
    model_config = ConfigDict(extra="forbid")
    seat: int | None = None
    code: str | None = Field(default=None, max_length=64,
                             description="the invite code (needed for a private room)")


class BotChoice(BaseModel):
    model_config = ConfigDict(extra="forbid")
    seat: int | None = None
    level: str | None = Field(default=None, description="a bot id of the game "
                                                        "(GET /api/games); its first by default")


@router.post("/players", dependencies=[Depends(rate_limited("signups", N_("new players")))])
async def new_player(body: NewPlayer, request: Request, response: Response,
                     lobby: LobbyDep) -> dict[str, Any]:
    """Pick a name, get a token. The token is also set as an HttpOnly cookie for browsers."""
    player, token = await to_thread.run_sync(create_player, lobby.engine, body.name)
    set_cookie(response, token, secure=request.app.state.settings.cookie_secure)
    return {"id": player.id, "name": player.name, "token": token}


@router.get("/players/me")
async def me(player: Caller) -> dict[str, Any]:
    return {"id": player.id, "name": player.name}


@router.get("/games")
async def list_games() -> list[dict[str, Any]]:
    """The games, their seat ranges, bots and options (a JSON schema)."""
    return games_json()


@router.post("/rooms", status_code=201,
             dependencies=[Depends(rate_limited("rooms", N_("new rooms")))])
async def create_room(body: NewRoom, player: Caller, lobby: LobbyDep) -> dict[str, Any]:
    """Create a room; the creator takes seat 0 and hosts it. The table settings are in the
    answer's ``table``; a clock with ``pace`` "turn": 422."""
    table = TableSettings.model_validate(body.model_dump(include=set(TableSettings.model_fields)))
    return await lobby.create_room(player, body.game, body.players, body.options,
                                   body.private, body.seated, table)


@router.get("/rooms")
async def list_rooms(lobby: LobbyDep) -> list[dict[str, Any]]:
    """Open (lobby) and running rooms, newest first."""
    return await lobby.list_rooms()


@router.get("/rooms/{room_id}")
async def get_room(room_id: int, lobby: LobbyDep, player: MaybeCaller,
                   keys: WatchKeys) -> dict[str, Any]:
    """The room; its invite and watch codes only for its host and the people seated in it. A
    private room is 404 to anyone else, as an unknown room is, unless they present its watch
    or invite code (``?watch=`` or the ``X-Watch-Code`` header)."""
    return await lobby.get_room(room_id, player.id if player else None, keys)


async def join_with_code(lobby: Lobby, request: Request, player: Any, room_id: int,
                         seat: int | None, code: str | None) -> dict[str, Any]:
    """Join, counting wrong invite codes per address (429 once there were too many)."""
    limits: RateLimits = request.app.state.limits
    limits.check("wrong_codes", request.scope, N_("wrong invite codes"))
    try:
        return await lobby.join(player, room_id, seat, code)
    except WrongInvite:
        if code is not None:
            limits.hit("wrong_codes", request.scope, N_("wrong invite codes"))
        raise


@router.post("/rooms/{room_id}/join", dependencies=[Depends(rate_limited("joins", N_("joins")))])
async def join(room_id: int, request: Request, player: Caller, lobby: LobbyDep,
               body: SeatChoice | None = None) -> dict[str, Any]:
    """Take a seat (the first free one by default); a private room needs its invite ``code``
    (404 otherwise, as for an unknown room; wrong codes are counted per address)."""
    return await join_with_code(lobby, request, player, room_id, body.seat if body else None,
                                body.code if body else None)


@router.post("/rooms/{room_id}/leave")
async def leave(room_id: int, player: Caller, lobby: LobbyDep) -> dict[str, Any]:
    return await lobby.leave(player, room_id)


@router.post("/rooms/{room_id}/bots")
async def add_bot(room_id: int, player: Caller, lobby: LobbyDep,
                  body: BotChoice | None = None) -> dict[str, Any]:
    return await lobby.add_bot(player, room_id, body.seat if body else None,
                               body.level if body else None)


@router.delete("/rooms/{room_id}/bots/{seat}")
async def remove_bot(room_id: int, seat: int, player: Caller, lobby: LobbyDep) -> dict[str, Any]:
    return await lobby.remove_bot(player, room_id, seat)


@router.delete("/rooms/{room_id}/seats/{seat}")
async def remove_player(room_id: int, seat: int, player: Caller,
                        lobby: LobbyDep) -> dict[str, Any]:
    """The host frees a person's seat before the start."""
    return await lobby.remove_player(player, room_id, seat)


@router.put("/rooms/{room_id}/options")
async def set_options(room_id: int, options: dict[str, Any], player: Caller,
                      lobby: LobbyDep) -> dict[str, Any]:
    """The host changes the options before the start (the body is the options object)."""
    return await lobby.set_options(player, room_id, options)


@router.put("/rooms/{room_id}/table")
async def set_table(room_id: int, body: TableSettings, player: Caller,
                    lobby: LobbyDep) -> dict[str, Any]:
    """The host changes the table settings before the start; the body replaces them (fields
    left out take their defaults)."""
    return await lobby.set_table(player, room_id, body)


@router.post("/rooms/{room_id}/start",
             dependencies=[Depends(rate_limited("starts", N_("game starts")))])
async def start(room_id: int, player: Caller, lobby: LobbyDep) -> dict[str, Any]:
    """Deal the game once every seat is taken and nobody's answer to a rematch is awaited;
    bots on active seats start moving."""
    return await lobby.start(player, room_id)


@router.post("/rooms/{room_id}/rematch", status_code=201,
             dependencies=[Depends(rate_limited("rooms", N_("new rooms")))],
             responses={200: {"description": "the rematch offered before (no new room)"}})
async def offer_rematch(room_id: int, player: Caller, lobby: LobbyDep,
                        response: Response) -> dict[str, Any]:
    """Offer a rematch of a finished game you played in: a new room (201) of the same game,
    seats, options and table settings, hosted by you. You and the bots keep your seats;
    every other player's seat is held for them (``seats[i].invited``) until they answer with
    ``POST /api/rooms/{new}/rematch/answer``. If a rematch was offered already, that room
    (200). It starts by itself once every seat is taken and nobody's answer is awaited. The
    finished room's ``rematch_id`` names it. 403: you did not play in the game; 409: the
    game is not over."""
    room, created = await lobby.offer_rematch(player, room_id)
    if not created:
        response.status_code = 200
    return room


@router.post("/rooms/{room_id}/rematch/answer")
async def answer_rematch(room_id: int, body: RematchAnswer, player: Caller,
                         lobby: LobbyDep) -> dict[str, Any]:
    """Accept or decline the seat a rematch holds for you (a declined seat is free for anyone
    with the invite link; a room left without people closes). The last acceptance of a full
    table starts the game. 403: no seat is held for you here."""
    return await lobby.answer_rematch(player, room_id, body.accept)
