"""FastAPI dependencies shared by the routers: the lobby, the room service, the caller."""

from __future__ import annotations

from typing import Annotated

from fastapi import Depends, Request

from app.identity import optional_player, required_player
from app.lobby.service import Lobby
from app.models import Player
from app.realtime.hub import LOBBY_CHANGED, Hub
from app.rooms.service import RoomService


def get_lobby(request: Request) -> Lobby:
    lobby: Lobby = request.app.state.lobby
    return lobby


def get_rooms(request: Request) -> RoomService:
    rooms: RoomService = request.app.state.rooms
    return rooms


def get_hub(request: Request) -> Hub:
    hub: Hub = request.app.state.hub
    return hub


async def lobby_changed(hub: Hub, room_id: int) -> None:
    """Tell the room's sockets that its seats or status changed."""
    await hub.publish(room_id, LOBBY_CHANGED)


LobbyDep = Annotated[Lobby, Depends(get_lobby)]
RoomsDep = Annotated[RoomService, Depends(get_rooms)]
HubDep = Annotated[Hub, Depends(get_hub)]
Caller = Annotated[Player, Depends(required_player)]
MaybeCaller = Annotated[Player | None, Depends(optional_player)]
