"""The lobby's JSON API (DESIGN.md §5): players, games, rooms, seats, bots, start. Each route
is one call of the lobby's service."""

from __future__ import annotations

from typing import Annotated, Any

from anyio import to_thread
from fastapi import APIRouter, Depends, Request, Response
from pydantic import BaseModel, ConfigDict, Field

from app.identity import Caller, create_player, set_cookie
from app.lobby.service import Lobby, games_json

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


class SeatChoice(BaseModel):
    model_config = ConfigDict(extra="forbid")
    seat: int | None = None


class BotChoice(BaseModel):
    model_config = ConfigDict(extra="forbid")
    seat: int | None = None
    level: str | None = Field(default=None, description="a bot id of the game "
                                                        "(GET /api/games); its first by default")


@router.post("/players")
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


@router.post("/rooms", status_code=201)
async def create_room(body: NewRoom, player: Caller, lobby: LobbyDep) -> dict[str, Any]:
    """Create a room; the creator takes seat 0."""
    return await lobby.create_room(player, body.game, body.players, body.options)


@router.get("/rooms")
async def list_rooms(lobby: LobbyDep) -> list[dict[str, Any]]:
    """Open (lobby) and running rooms, newest first."""
    return await lobby.list_rooms()


@router.get("/rooms/{room_id}")
async def get_room(room_id: int, lobby: LobbyDep) -> dict[str, Any]:
    return await lobby.get_room(room_id)


@router.post("/rooms/{room_id}/join")
async def join(room_id: int, player: Caller, lobby: LobbyDep,
               body: SeatChoice | None = None) -> dict[str, Any]:
    return await lobby.join(player, room_id, body.seat if body else None)


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


@router.post("/rooms/{room_id}/start")
async def start(room_id: int, player: Caller, lobby: LobbyDep) -> dict[str, Any]:
    """Deal the game once every seat is taken; bots on active seats start moving."""
    return await lobby.start(player, room_id)
