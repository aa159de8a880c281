"""The game's JSON API (DESIGN.md §5): state, legal moves, moves, log."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Depends, Header, Request
from pydantic import BaseModel, ConfigDict, Field

from app.i18n import choose
from app.identity import Caller, MaybeCaller, WatchKeys
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


def present(request: Request, room_id: int) -> frozenset[int]:
    """The players with a page or socket of the room open now."""
    return frozenset(request.app.state.feeds.presence(room_id).players)


@router.get("/{room_id}/state")
async def state(room_id: int, request: Request, rooms: RoomsDep, player: MaybeCaller,
                keys: WatchKeys, accept_language: Language = None) -> dict[str, Any]:
    """Your view of the game (a spectator's view without a seat), who is to act and what each
    seat is doing; at the end the result, its words in the language of ``Accept-Language``.
    Also who plays each seat (``seats``: a person or a bot standing in for them, last seen,
    votes), the room's ``pace`` and turn-based ``deadline`` (epoch seconds) and the
    ``clocks`` (seconds left per seat, which run). A private room: 404 unless you sit in
    it, host it or present its watch or invite code (``?watch=``)."""
    return await rooms.state_for(room_id, player.id if player else None,
                                 choose([], accept_language), present(request, room_id), keys)


@router.get("/{room_id}/moves")
async def legal_moves(room_id: int, rooms: RoomsDep, player: MaybeCaller,
                      keys: WatchKeys) -> dict[str, Any]:
    """Every legal move for your seat now (empty when the game does not wait for you). The
    room is looked at first: a private room you may not read is 404, as an unknown one; then
    401 without a token, 403 without a seat."""
    return await rooms.moves_for(room_id, player.id if player else None, keys)


@router.post("/{room_id}/moves")
async def play(room_id: int, body: MoveRequest, request: Request, rooms: RoomsDep,
               player: Caller,
               accept_language: Language = None) -> dict[str, Any]:
    """Play a move; answered once it is committed. A move is written exactly as GET
    .../moves lists the legal ones: its ``type`` and the fields that type carries (cards,
    tiles and places named as they are there). A move of another shape — an unknown type or
    field, a value written otherwise — is refused with 422 citing the rule "move format";
    a move the game's rules forbid cites the rule it breaks (the game's rules panel)."""
    await rooms.play(room_id, player.id, body.move, body.expected_version)
    return await rooms.state_for(room_id, player.id, choose([], accept_language),
                                 present(request, room_id))


@router.get("/{room_id}/log")
async def game_log(room_id: int, rooms: RoomsDep, player: MaybeCaller, keys: WatchKeys,
                   accept_language: Language = None) -> dict[str, Any]:
    """The game log as the caller may read it; each line's ``text`` in the language of
    ``Accept-Language`` (English, Spanish, German or Dutch), its ``key`` and ``params`` as
    they are. A private room: 404 unless you may read it (as ``/state``)."""
    return await rooms.log_for(room_id, player.id if player else None,
                               choose([], accept_language), keys)


class HandOver(BaseModel):
    model_config = ConfigDict(extra="forbid")
    level: str | None = Field(default=None, description="a bot id of the game "
                                                        "(GET /api/games); its first by default")


@router.post("/{room_id}/hand-over")
async def hand_over(room_id: int, request: Request, rooms: RoomsDep, player: Caller,
                    body: HandOver | None = None,
                    accept_language: Language = None) -> dict[str, Any]:
    """Leave a running game: a bot of ``level`` plays your seat from its next decision on,
    until you take it back."""
    await rooms.seating.leave(room_id, player.id, body.level if body else None)
    return await rooms.state_for(room_id, player.id, choose([], accept_language),
                                 present(request, room_id))


@router.post("/{room_id}/take-back")
async def take_back(room_id: int, request: Request, rooms: RoomsDep, player: Caller,
                    accept_language: Language = None) -> dict[str, Any]:
    """Take your seat back from the bot that plays it: the next decision is yours."""
    await rooms.seating.come_back(room_id, player.id)
    return await rooms.state_for(room_id, player.id, choose([], accept_language),
                                 present(request, room_id))


@router.post("/{room_id}/seats/{seat}/vote")
async def vote(room_id: int, seat: int, request: Request, rooms: RoomsDep, player: Caller,
               accept_language: Language = None) -> dict[str, Any]:
    """Vote to hand an away player's seat to a bot (the game's first level). A vote opens
    once they have been away past the room's limit (live: ``away_minutes`` with no page open;
    turn-based: the game has waited ``move_hours`` for them); a majority of the other people
    at the table decides (``seats[i].votes`` of ``votes_needed``)."""
    await rooms.seating.vote(room_id, player.id, seat, present(request, room_id))
    return await rooms.state_for(room_id, player.id, choose([], accept_language),
                                 present(request, room_id))
