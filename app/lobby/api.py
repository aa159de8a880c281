"""The lobby's JSON API (DESIGN.md §5): players, games, rooms, seats, bots, start."""

from __future__ import annotations

from typing import Any

from anyio import to_thread
from fastapi import APIRouter, Request, Response
from pydantic import BaseModel, ConfigDict, Field

from app.deps import Caller, HubDep, LobbyDep, RoomsDep, lobby_changed
from app.identity import COOKIE, create_player

router = APIRouter(prefix="/api", tags=["lobby"])


class NewPlayer(BaseModel):
    model_config = ConfigDict(extra="forbid")
    name: str = Field(max_length=200, description="display name, 1–40 characters")


class NewRoom(BaseModel):
    model_config = ConfigDict(extra="forbid")
    game: str = Field(description="a game id from GET /api/games")
    players: int = Field(description="number of seats")
    options: dict[str, Any] = Field(default_factory=dict)


class SeatChoice(BaseModel):
    model_config = ConfigDict(extra="forbid")
    seat: int | None = None


class BotChoice(BaseModel):
    model_config = ConfigDict(extra="forbid")
    seat: int | None = None
    level: str | None = Field(default=None, description="'bot' (default) or 'random'")


@router.post("/players")
async def new_player(body: NewPlayer, request: Request, request_response: Response,
                     lobby: LobbyDep, secure: bool = False) -> dict[str, Any]:
    """Pick a name, get a token. The token is also set as an HttpOnly cookie for browsers."""
    player, token = await to_thread.run_sync(create_player, lobby.engine, body.name)
    # COOKIE_SECURE holds here too (it only reached the browser form before): behind HTTPS the
    # token cookie must never travel over plain HTTP.
    secure = secure or request.app.state.settings.cookie_secure
    request_response.set_cookie(COOKIE, token, httponly=True, samesite="lax",
                                max_age=60 * 60 * 24 * 365, secure=secure)
    return {"id": player.id, "name": player.name, "token": token}


@router.get("/players/me")
async def me(player: Caller) -> dict[str, Any]:
    return {"id": player.id, "name": player.name}


@router.get("/games")
async def list_games() -> list[dict[str, Any]]:
    from app.lobby.service import games_json

    return games_json()


@router.post("/rooms", status_code=201)
async def create_room(body: NewRoom, player: Caller, lobby: LobbyDep) -> dict[str, Any]:
    """Create a room; the creator takes seat 0."""
    return await to_thread.run_sync(lobby.create_room, player, body.game, body.players,
                                    body.options)


@router.get("/rooms")
async def list_rooms(lobby: LobbyDep) -> list[dict[str, Any]]:
    """Open (lobby) and running rooms, newest first."""
    return await to_thread.run_sync(lobby.list_rooms)


@router.get("/rooms/{room_id}")
async def get_room(room_id: int, lobby: LobbyDep) -> dict[str, Any]:
    return await to_thread.run_sync(lobby.get_room, room_id)


@router.post("/rooms/{room_id}/join")
async def join(room_id: int, player: Caller, lobby: LobbyDep, hub: HubDep,
               body: SeatChoice | None = None) -> dict[str, Any]:
    room = await to_thread.run_sync(lobby.join, player, room_id, body.seat if body else None)
    await lobby_changed(hub, room_id)
    return room


@router.post("/rooms/{room_id}/leave")
async def leave(room_id: int, player: Caller, lobby: LobbyDep, hub: HubDep) -> dict[str, Any]:
    room = await to_thread.run_sync(lobby.leave, player, room_id)
    await lobby_changed(hub, room_id)
    return room


@router.post("/rooms/{room_id}/bots")
async def add_bot(room_id: int, player: Caller, lobby: LobbyDep, hub: HubDep,
                  body: BotChoice | None = None) -> dict[str, Any]:
    room = await to_thread.run_sync(lobby.add_bot, player, room_id,
                                    body.seat if body else None, body.level if body else None)
    await lobby_changed(hub, room_id)
    return room


@router.delete("/rooms/{room_id}/bots/{seat}")
async def remove_bot(room_id: int, seat: int, player: Caller, lobby: LobbyDep,
                     hub: HubDep) -> dict[str, Any]:
    room = await to_thread.run_sync(lobby.remove_bot, player, room_id, seat)
    await lobby_changed(hub, room_id)
    return room


@router.post("/rooms/{room_id}/start")
async def start(room_id: int, player: Caller, lobby: LobbyDep, rooms: RoomsDep,
                hub: HubDep) -> dict[str, Any]:
    """Deal the game once every seat is taken; bots on active seats start moving."""
    room = await to_thread.run_sync(lobby.start, player, room_id)
    await rooms.loaded(room_id)
    await lobby_changed(hub, room_id)
    rooms.schedule_bots(room_id)
    return room
