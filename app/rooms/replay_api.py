"""The replay's JSON API: a finished game, version by version (app/rooms/replay.py)."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Depends, Query, Request

from app.guard import render_charge
from app.i18n import choose
from app.identity import MaybeCaller, WatchKeys
from app.rooms.api import Language, RoomsDep
from app.rooms.replay import Replay, Replays

router = APIRouter(prefix="/api/rooms", tags=["games"])


def get_replays(request: Request) -> Replays:
    replays: Replays = request.app.state.replays
    return replays


ReplaysDep = Annotated[Replays, Depends(get_replays)]


async def readable_replay(room_id: int, replays: Replays, rooms: RoomsDep,
                          player: MaybeCaller, keys: WatchKeys, request: Request) -> Replay:
    """The room's replay, for those who may read the room (app/rooms/access.py): a private
    game's replay is 404 to anyone else, before it is known whether the game is over; a
    rebuild is charged to the reader's address (``RATE_RENDERS``)."""
    await rooms.check_read(room_id, player.id if player else None, keys)
    return await replays.replay(room_id, render_charge(request))


@router.get("/{room_id}/replay")
async def replay(room_id: int, replays: ReplaysDep, rooms: RoomsDep, player: MaybeCaller,
                 keys: WatchKeys, request: Request,
                 accept_language: Language = None) -> dict[str, Any]:
    """A finished game at a glance: the players' ``names``, how many ``versions`` it has
    (0, the deal, to the last move), whether the room chose ``public`` replays (every hand
    open), the ``timeline`` (each seat's score at each version; the last is the result's) and
    the ``result`` (its words in the language of ``Accept-Language``). 409 while the game
    runs; a private game's: 404 unless you may read the room."""
    found = await readable_replay(room_id, replays, rooms, player, keys, request)
    return found.summary(choose([], accept_language))


@router.get("/{room_id}/replay/{version}")
async def replay_version(
        room_id: int, version: int, replays: ReplaysDep, rooms: RoomsDep, player: MaybeCaller,
        keys: WatchKeys, request: Request,
        seat: Annotated[int | None, Query(description="a seat's view (public replays only); "
                                                      "none: the spectator's")] = None,
        accept_language: Language = None) -> dict[str, Any]:
    """The finished game at ``version`` as a spectator saw it — or as ``seat`` saw it, when
    the room chose public replays (403 otherwise): the ``view``, the seats it waited for,
    what each was doing, the ``scores`` then, and the ``log`` lines that reader could read by
    then (in the language of ``Accept-Language``); the ``result`` at the last version. 404
    for a version outside the game, and for a private game you may not read."""
    found = await readable_replay(room_id, replays, rooms, player, keys, request)
    return found.at(version, seat, choose([], accept_language))
