"""The game's JSON API (DESIGN.md §5): state, legal moves, moves, log."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Depends, Header, Request
from pydantic import BaseModel, ConfigDict, Field

from app.i18n import choose
from app.identity import Caller, MaybeCaller
from app.rooms.service import RoomService

router = APIRouter(prefix="/api/rooms", tags=["games"])


def get_rooms(request: Request) -> RoomService:
    rooms: RoomService = request.app.state.rooms
    return rooms


RoomsDep = Annotated[RoomService, Depends(get_rooms)]


class MoveRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")
    move: dict[str, Any] = Field(description="a move object as listed by GET .../moves")
    expected_version: int | None = Field(
        default=None, description="the version you saw; a stale one is refused with 409")


#: The language of the words in an answer (log lines, a result's headline, refusals).
Language = Annotated[str | None, Header(alias="accept-language")]


@router.get("/{room_id}/state")
async def state(room_id: int, rooms: RoomsDep, player: MaybeCaller,
                accept_language: Language = None) -> dict[str, Any]:
    """Your view of the game (a spectator's view without a seat), who is to act and what each
    seat is doing; at the end the result, its words in the language of ``Accept-Language``."""
    return await rooms.state_for(room_id, player.id if player else None,
                                 choose([], accept_language))


@router.get("/{room_id}/moves")
async def legal_moves(room_id: int, rooms: RoomsDep, player: Caller) -> dict[str, Any]:
    """Every legal move for your seat now (empty when the game does not wait for you)."""
    return await rooms.moves_for(room_id, player.id)


@router.post("/{room_id}/moves")
async def play(room_id: int, body: MoveRequest, rooms: RoomsDep, player: Caller,
               accept_language: Language = None) -> dict[str, Any]:
    """Play a move; answered once it is committed."""
    await rooms.play(room_id, player.id, body.move, body.expected_version)
    return await rooms.state_for(room_id, player.id, choose([], accept_language))


@router.get("/{room_id}/log")
async def game_log(room_id: int, rooms: RoomsDep, player: MaybeCaller,
                   accept_language: Language = None) -> dict[str, Any]:
    """The game log as the caller may read it; each line's ``text`` in the language of
    ``Accept-Language`` (English, Spanish, German or Dutch), its ``key`` and ``params`` as
    they are."""
    return await rooms.log_for(room_id, player.id if player else None,
                               choose([], accept_language))
