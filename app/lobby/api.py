"""The lobby's JSON API (DESIGN.md §5): players, games, rooms, seats, bots, start. Each route
is one call of the lobby's service."""

from __future__ import annotations

from typing import Annotated, Any

from anyio import to_thread
from fastapi import APIRouter, Depends, Request, Response
from pydantic import BaseModel, ConfigDict, Field

from app.games.words import N_
from app.guard import RateLimits, rate_limited
from app.identity import Caller, MaybeCaller, create_player, set_cookie
from app.lobby.service import Lobby, WrongInvite, games_json

router = APIRouter(prefix="/api", tags=["lobby"])


def get_lobby(request: Request) -> Lobby:
    lobby: Lobby = request.app.state.lobby
    return lobby


LobbyDep = Annotated[Lobby, Depends(get_lobby)]


class NewPlayer(BaseModel):
    model_config = ConfigDict(extra="forbid")
    name: str = Field(max_length=200, description="display name, 1–40 characters")


class NewRoom(BaseModel):
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
    """Create a room; the creator takes seat 0 and hosts it."""
    return await lobby.create_room(player, body.game, body.players, body.options,
                                   body.private, body.seated)


@router.get("/rooms")
async def list_rooms(lobby: LobbyDep) -> list[dict[str, Any]]:
    """Open (lobby) and running rooms, newest first."""
    return await lobby.list_rooms()


@router.get("/rooms/{room_id}")
async def get_room(room_id: int, lobby: LobbyDep, player: MaybeCaller) -> dict[str, Any]:
    """The room; its invite code only for the people seated in it."""
    return await lobby.get_room(room_id, player.id if player else None)


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
    """Take a seat (the first free one by default); a private room needs ``code``."""
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


@router.post("/rooms/{room_id}/start")
async def start(room_id: int, player: Caller, lobby: LobbyDep) -> dict[str, Any]:
    """Deal the game once every seat is taken; bots on active seats start moving."""
    return await lobby.start(player, room_id)
