"""The seat bar's buttons (``_seat_actions.html``): leave a running game to a bot, take the
seat back, vote an away player's seat to a bot. Each answers like a click on the table: the
refusal's toast, or nothing (the new seat bar arrives through the socket)."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, Response

from app.errors import ApiError
from app.games.words import Msg
from app.observe import counted_error
from app.rooms.api import present
from app.rooms.service import RoomService
from app.web.pages import _flash, _say, _viewer

router = APIRouter()


async def _seat_command(request: Request, room_id: int,
                        command: Callable[[RoomService, int], Awaitable[Any]]) -> Response:
    player = _viewer(request)
    try:
        if player is None or player.id is None:
            raise ApiError(401, Msg("choose a name and take a seat to play"))
        await command(request.app.state.rooms, player.id)
    except Exception as exc:
        return _flash(request, _say(request, counted_error(
            request.app.state, exc, f"a seat button in room {room_id}")))
    return HTMLResponse("")


@router.post("/rooms/{room_id}/hand-over")
async def hand_over(request: Request, room_id: int) -> Response:
    level = str((await request.form()).get("level") or "")[:40] or None
    return await _seat_command(request, room_id, lambda rooms, player: rooms.seating.leave(
        room_id, player, level))


@router.post("/rooms/{room_id}/take-back")
async def take_back(request: Request, room_id: int) -> Response:
    return await _seat_command(request, room_id, lambda rooms, player: rooms.seating.come_back(
        room_id, player))


@router.post("/rooms/{room_id}/seats/{seat}/vote")
async def vote(request: Request, room_id: int, seat: int) -> Response:
    return await _seat_command(request, room_id, lambda rooms, player: rooms.seating.vote(
        room_id, player, seat, present(request, room_id)))
