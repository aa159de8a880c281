"""Websocket endpoints (DESIGN.md §5).

``/ws/rooms/{id}`` speaks JSON to API clients: a snapshot of the seat's view on connect, then
RFC 6902 patches of that view after every change (:mod:`app.realtime.diff`), moves and resyncs
from the client, errors as ``{"type": "error", "status", "detail"}``. Before the game starts it
sends ``lobby`` messages.

Each connection keeps what it last sent; the room's views and patch messages are computed once
per version and seat and shared by every connection of that seat (:mod:`app.realtime.feed`).
A connection never sends an older version after a newer one, and each patch starts where the
previous one ended (``from`` is the previous ``to``): a client that sees a gap asks for a
resync. With several processes, an event from another one reaches the room's sockets after this
process dropped its copy of the table, and they diff what they last sent against the stored
present.
The htmx socket (``/ws/rooms/{id}/html``) lives with the pages, in :mod:`app.web.live`, and
uses the same room feed.
"""

from __future__ import annotations

import asyncio
import json
import logging
import marshal
import math
import time
from typing import Any

from anyio import to_thread
from fastapi import WebSocket, WebSocketDisconnect
from starlette.responses import JSONResponse
from starlette.types import Message
from starlette.websockets import WebSocketState

from app import speedups
from app.config import Settings
from app.db import json_dumps
from app.errors import ApiError, error_of
from app.games.words import N_, Msg
from app.guard import RateLimits, SocketGate
from app.i18n import choose
from app.identity import player_for_token, token_from, watch_keys
from app.lobby.service import Lobby
from app.models import MAX_ID, Player
from app.observe import counted_error
from app.realtime.diff import parts_diff
from app.realtime.feed import Feeds, RoomFeed
from app.rooms.events import PresenceChanged, RoomEvent
from app.rooms.service import RoomService
from app.rooms.store import UnreadableGame
from app.rooms.table import Table, ViewData

log = logging.getLogger("canopy.realtime")


class RateLimit:
    """A token bucket: ``rate`` messages per second, bursts of twice that."""

    def __init__(self, rate: float) -> None:
        self.rate = rate
        self.capacity = max(1.0, 2 * rate)
        self.tokens = self.capacity
        self.stamp = time.monotonic()

    def allow(self) -> bool:
        now = time.monotonic()
        self.tokens = min(self.capacity, self.tokens + (now - self.stamp) * self.rate)
        self.stamp = now
        if self.tokens >= 1:
            self.tokens -= 1
            return True
        return False


def is_int(value: Any) -> bool:
    """A JSON integer (``true`` is not one)."""
    return isinstance(value, int) and not isinstance(value, bool)


async def identify(ws: WebSocket) -> Player | None:
    """The connecting player (token from header, ``?token=`` or cookie); 401 if unknown."""
    token = token_from(dict(ws.headers), dict(ws.cookies), ws.query_params.get("token"))
    if token is None:
        return None
    player = await to_thread.run_sync(player_for_token, ws.app.state.engine, token)
    if player is None:
        raise ApiError(401, Msg("unknown token"))
    return player


def keys_of(ws: WebSocket) -> frozenset[str]:
    """The room codes the handshake presents (``?watch=``, the header, the link cookie)."""
    return watch_keys(ws.headers, ws.cookies, ws.query_params)


async def _room_json(ws: WebSocket, room_id: int, viewer: int | None,
                     keys: frozenset[str]) -> dict[str, Any]:
    lobby: Lobby = ws.app.state.lobby
    return await lobby.get_room(room_id, viewer, keys)


class Connection:
    """One socket: serialized sends and the view it last sent (as the table keeps it)."""

    def __init__(self, ws: WebSocket) -> None:
        self.ws = ws
        #: The language of the words in error frames: the handshake's ``Accept-Language``.
        self.locale = choose([], ws.headers.get("accept-language"))
        self.send_lock = asyncio.Lock()
        self.catch_up_lock = asyncio.Lock()  # one catch-up at a time (connect, feed, resync)
        self.version: int | None = None
        self.view: ViewData | None = None
        #: The table's seating (who plays each seat) this socket last told (-1: not yet).
        self.seating = -1

    async def send(self, message: dict[str, Any] | str) -> None:
        async with self.send_lock:
            if self.ws.application_state != WebSocketState.CONNECTED:
                return
            if isinstance(message, str):
                await self.ws.send_text(message)
            else:
                await self.ws.send_text(json_dumps(message))

    async def error(self, exc: ApiError) -> None:
        await self.send({"type": "error", "status": exc.status, **exc.body(self.locale)})

    async def refuse(self, exc: ApiError) -> None:
        """The error frame, then the close (code 4000 + status)."""
        await self.error(exc)
        await close_for(self.ws, exc)


async def close_for(ws: WebSocket, exc: ApiError) -> None:
    """Close with code 4000 + the HTTP status and the reason (a close frame holds little)."""
    await ws.close(code=4000 + exc.status, reason=exc.detail[:120])


SHARE_PATCHES = speedups.on("shared-patches")


def _jsonpatch_diff(old: ViewData, new: ViewData,
                    view: dict[str, Any] | None) -> list[dict[str, Any]]:
    """The plain way: the jsonpatch library (a development dependency) on the whole views."""
    import jsonpatch

    def loaded(data: ViewData) -> dict[str, Any]:
        return {key: marshal.loads(value) for key, value in data.items()}

    ops: list[dict[str, Any]] = jsonpatch.make_patch(loaded(old), view or loaded(new)).patch
    return ops


view_diff = parts_diff if speedups.on("diff") else _jsonpatch_diff


def _patch_message(feed: RoomFeed, table: Table, from_version: int, old: ViewData,
                   seat: int | None, locale: str) -> str:
    """The patch from the seat's view at ``from_version`` (``old``) to the
    current version, as JSON text: computed once per seat and versions, shared by the seat's
    sockets."""
    shared = feed.shared((table.version, table.seating)) if SHARE_PATCHES else {}
    key = ("patch", seat, from_version, locale)
    message: str | None = shared.get(key)
    if message is None:
        new, view = table.view_now(seat)
        ops = [] if old == new else view_diff(old, new, view)
        message = json_dumps({"type": "patch", "from": from_version, "to": table.version,
                              "ops": ops, "active_seats": table.active(),
                              "statuses": table.statuses(),
                              "result": table.result_json(locale)})
        shared[key] = message
    return message


def _view_json(feed: RoomFeed, table: Table, seat: int | None) -> str:
    """The seat's view at the table's version as JSON text: encoded once per seat and version,
    shared by the seat's snapshots and resyncs."""
    shared = feed.shared((table.version, table.seating))
    view_json: str | None = shared.get(("view", seat))
    if view_json is None:
        view_json = shared[("view", seat)] = json_dumps(table.view(seat))
    return view_json


class GameSocket:
    """One JSON socket of a room: identifies the caller, sends the snapshot, then a patch per
    change (from the room's feed), and handles the client's moves, resyncs and pings."""

    def __init__(self, ws: WebSocket, room_id: int, player_id: int | None) -> None:
        self.ws = ws
        #: The room codes the handshake presented (a watch link's), for the lobby messages.
        self.keys = keys_of(ws)
        self.conn = Connection(ws)
        self.rooms: RoomService = ws.app.state.rooms
        self.settings = ws.app.state.settings
        self.room_id = room_id
        self.player_id = player_id
        self.feed: RoomFeed | None = None
        #: When this socket last answered a full resync (time.monotonic()).
        self.full_resync_at = -math.inf

    async def on_event(self, event: RoomEvent) -> None:
        if not isinstance(event, PresenceChanged):  # the JSON view does not show who is here
            await self.catch_up()

    async def catch_up(self) -> None:
        async with self.conn.catch_up_lock:
            await self._catch_up()

    async def _catch_up(self) -> None:
        """Send the snapshot (first time) or the patch up to the current version."""
        conn = self.conn
        try:
            table = await self.rooms.table(self.room_id)
        except UnreadableGame as exc:  # started, but this server cannot open its game
            await conn.refuse(exc)
            return
        except ApiError:  # not started: the lobby is all there is to see
            try:
                room = await _room_json(self.ws, self.room_id, self.player_id, self.keys)
            except ApiError as exc:
                # The room was closed (its last player left), or the caller may no longer
                # read it (their seat at a private table was freed): say so and close, as
                # for an unknown room.
                await conn.refuse(exc)
                return
            await conn.send({"type": "lobby", "room": room})
            return
        seat = table.seat_of(self.player_id)
        if conn.view is None or conn.version is None:
            assert self.feed is not None
            view_json = _view_json(self.feed, table, seat)
            conn.view, conn.version = table.view_data(seat), table.version
            rest = json_dumps({"active_seats": table.active(), "statuses": table.statuses(),
                               "your_seat": seat, "result": table.result_json(conn.locale),
                               **self._seating(table)})
            await conn.send(f'{{"type":"snapshot","version":{table.version},'
                            f'"view":{view_json},{rest[1:]}')
            conn.seating = table.seating
            return
        if table.version < conn.version:
            return  # a copy older than what this socket sent: never send a version back
        if conn.version != table.version:
            assert self.feed is not None
            message = _patch_message(self.feed, table, conn.version, conn.view, seat,
                                     conn.locale)
            conn.view, conn.version = table.view_data(seat), table.version
            await conn.send(message)
        if conn.seating != table.seating:
            conn.seating = table.seating
            await conn.send({"type": "seats", "version": table.version,
                             "active_seats": table.active(),
                             "result": table.result_json(conn.locale), **self._seating(table)})

    def _seating(self, table: Table) -> dict[str, Any]:
        """Who plays each seat and the clocks (``GET /state`` has the same fields)."""
        now = self.rooms.clock()
        present = frozenset(self.ws.app.state.feeds.presence(self.room_id).players)
        return {"seats": table.seats_json(present, now), "pace": table.pace,
                "deadline": table.deadline(),
                "clocks": table.clocks.shown(now) if table.clocks else None}

    async def resync(self, since: Any) -> None:
        """A client that missed messages says which version it holds; it gets a patch from
        there to now that replaces its whole view (RFC 6902 ``replace`` at the root): the
        present view, never a replay of the log, so a resync costs no more than a snapshot
        (the view's JSON is encoded once per seat and version and shared).

        A full resync answers the whole view (tens of KB for a few bytes asked): one socket
        gets one every ``WS_RESYNC_SECONDS`` at most; sooner is a 429 error frame with
        ``retry_after`` (seconds) and nothing else. A resync from the present (``since`` the
        current version) answers ``ops: []``, the same text for every socket of the room at
        that version and language, and is never refused."""
        table = await self.rooms.table(self.room_id)
        if not is_int(since) or not 0 <= since <= table.version:
            raise ApiError(422, Msg("resync 'since' must be a version from 0 to {version}",
                                    {"version": str(table.version)}))
        seat = table.seat_of(self.player_id)
        assert self.feed is not None
        locale = self.conn.locale
        if since < table.version:
            now, every = time.monotonic(), self.settings.ws_resync_seconds
            wait = self.full_resync_at + every - now
            if wait > 0:
                wait = math.ceil(wait * 10) / 10
                raise ApiError(429, Msg("a full resync at most every {every} s: try again in "
                                        "{wait} s", {"every": f"{every:g}", "wait": f"{wait:g}"}),
                               retry_after=wait)
            self.full_resync_at = now
        async with self.conn.catch_up_lock:
            shared = self.feed.shared((table.version, table.seating))
            message: str | None = shared.get(("present", locale)) \
                if since == table.version else None
            if message is None:
                ops = "[]" if since == table.version else \
                    f'[{{"op":"replace","path":"","value":{_view_json(self.feed, table, seat)}}}]'
                public = json_dumps({"active_seats": table.active(),
                                     "statuses": table.statuses(),
                                     "result": table.result_json(locale)})
                message = (f'{{"type":"patch","from":{since},"to":{table.version},'
                           f'"ops":{ops},{public[1:]}')
                if since == table.version:
                    shared[("present", locale)] = message
            self.conn.view, self.conn.version = table.view_data(seat), table.version
            await self.conn.send(message)

    async def handle(self, raw: str) -> None:
        try:
            message = json.loads(raw)
        except ValueError:
            raise ApiError(422, Msg("message is not valid JSON")) from None
        except RecursionError:  # "[[[[…": json gives up past ~1000 levels
            raise ApiError(422, Msg("message is nested too deeply")) from None
        if not isinstance(message, dict):
            raise ApiError(422, Msg("message must be a JSON object with a 'type'"))
        kind = message.get("type")
        if kind == "move":
            if self.player_id is None:
                raise ApiError(401, Msg("moves need a player token (?token=...)"))
            expected = message.get("expected_version")
            if expected is not None and not is_int(expected):
                raise ApiError(422, Msg("expected_version must be an integer"))
            version = await self.rooms.play(self.room_id, self.player_id, message.get("move"),
                                            expected)
            await self.conn.send({"type": "ack", "version": version})
        elif kind == "resync":
            await self.resync(message.get("since"))
        elif kind == "ping":
            await self.conn.send({"type": "pong"})
        else:
            raise ApiError(422, Msg("unknown message type {kind}: send move, resync or ping",
                                    {"kind": repr(kind)}))

    async def read(self) -> None:
        """Handle the client's messages until it goes; refusals are error frames (a message
        over the size limit also closes the socket, 1009)."""
        ws, conn, limit = self.ws, self.conn, RateLimit(self.settings.ws_rate)
        while True:
            received = await ws.receive()
            if received["type"] == "websocket.disconnect":
                return
            refusal = frame_refusal(received, self.settings, limit)
            if refusal is not None:
                await conn.error(refusal)
                if refusal.status == 413:
                    await ws.close(code=1009, reason="message too large")
                    return
                continue
            try:
                raw: str | None = received.get("text")
                if raw is None:
                    raise ApiError(422, Msg("binary frames are not understood: send JSON as "
                                            "text"))
                await self.handle(raw)
            except WebSocketDisconnect:  # gone while we answered: the end, not a failure
                raise
            except Exception as exc:  # refusals, a busy database, a bug: an error frame
                await conn.error(counted_error(self.ws.app.state, exc,
                                               f"the socket of room {self.room_id}"))


def frame_refusal(received: Message, settings: Settings, limit: RateLimit) -> ApiError | None:
    """Why a client's frame is refused (``None``: it is within the limits): 413 over
    ``WS_MAX_MESSAGE`` bytes (the socket then closes), 429 over ``WS_RATE`` a second. Each
    socket reads in its own loop and decides what a refusal does to it: the JSON socket
    answers an error frame, the htmx socket closes."""
    raw: str | None = received.get("text")
    # The limit is in bytes (UTF-8), not characters.
    size = (len(raw) if raw.isascii() else len(raw.encode())) if raw is not None \
        else len(received.get("bytes") or b"")
    if size > settings.ws_max_message:
        return ApiError(413, Msg("message too large: at most {most} bytes",
                                 {"most": str(settings.ws_max_message)}))
    if not limit.allow():
        return ApiError(429, Msg("too many messages: slow down"))
    return None


def room_id_of(ws: WebSocket) -> int:
    """The room id of the socket's path; 404 if it is not one (ids are positive integers)."""
    text: str = ws.path_params["room_id"]
    if not (text.isascii() and text.isdigit() and len(text) <= 19) or not 0 < int(text) <= MAX_ID:
        raise ApiError(404, Msg("no room {room}", {"room": repr(text[:40])}))
    return int(text)


async def deny(ws: WebSocket, exc: ApiError) -> None:
    """Refuse a handshake before accepting it: an HTTP answer with ``exc``'s status, headers
    (``Retry-After``) and words as JSON, where the server supports the ASGI websocket denial
    response (uvicorn does); else a close before the accept, which the server answers with a
    403."""
    if "websocket.http.response" in ws.scope.get("extensions", {}):
        locale = choose([], ws.headers.get("accept-language"))
        await ws.send_denial_response(JSONResponse(exc.body(locale), status_code=exc.status,
                                                   headers=exc.headers))
    else:
        await ws.close(code=1008)


async def admitted(ws: WebSocket) -> tuple[int, Player | None, tuple[str, int | None]] | None:
    """The opening of both sockets, refusals first and cheapest first. Before the accept, with
    no database work: an address past ``RATE_HANDSHAKES`` gets an HTTP 429 with
    ``Retry-After`` (:func:`deny`), a handshake from another site a 403. Then the room id, the
    player, whether they may read the room (a private room one may not read is 404, as an
    unknown room: app/rooms/access.py) and the socket caps are checked — a refusal there
    closes the accepted socket with 4000 + its status (after an error frame when ``ws`` speaks
    JSON). Returns (room id, player, the gate's ticket) or ``None``."""
    limits: RateLimits = ws.app.state.limits
    try:
        await limits.hit_soon("handshakes", ws.scope, N_("socket connections"))
    except ApiError as refused:
        await deny(ws, refused)
        return None
    gate: SocketGate = ws.app.state.sockets
    if gate.foreign_origin(ws.scope) is not None:
        await ws.close(code=1008)  # before accept: the handshake is answered 403
        return None
    await ws.accept()
    try:
        room_id = room_id_of(ws)
        player = await identify(ws)
        rooms: RoomService = ws.app.state.rooms
        await rooms.check_read(room_id, player.id if player else None, keys_of(ws))
        ticket = gate.admit(ws.scope, player.id if player else None)
    except Exception as caught:  # refusals, a busy database: said, then closed
        exc = error_of(caught, "a socket's opening")
        if ws.scope["path"].endswith("/html"):
            await close_for(ws, exc)  # no error frame: htmx would take it for HTML
        else:
            await Connection(ws).refuse(exc)
        return None
    return room_id, player, ticket


async def seen(ws: WebSocket, room_id: int, player_id: int | None, *,
               opened: bool = False) -> None:
    """A page or socket of the room opened or closed: its person was here (last seen; an
    opening soon after the last sign of life stores nothing, :meth:`Seating.seen`), and
    someone looked at the table (a table of bots alone that waited for a watcher plays on)."""
    ws.app.state.rooms.looked_at(room_id)
    if player_id is None:
        return
    try:
        await ws.app.state.rooms.seating.seen(room_id, player_id, opened=opened)
    except Exception:  # a stopping server: last seen is a courtesy, never a failure
        log.debug("last seen of player %s in room %s not stored", player_id, room_id)


async def game_socket(ws: WebSocket) -> None:
    """``/ws/rooms/{room_id}``: the JSON protocol for API clients (DESIGN.md §5)."""
    opened = await admitted(ws)
    if opened is None:
        return
    room_id, player, ticket = opened  # the room exists and the caller may read it
    gate: SocketGate = ws.app.state.sockets
    socket = GameSocket(ws, room_id, player.id if player else None)
    del player  # the row itself is not kept for the socket's hours, only the id
    feeds: Feeds = ws.app.state.feeds
    socket.feed = feeds.join(room_id, ws, socket.on_event, socket.player_id)
    try:
        await asyncio.shield(socket.feed.ready)  # subscribed before the first catch-up
        await feeds.announce(room_id)
        await socket.catch_up()
        await seen(ws, room_id, socket.player_id, opened=True)
        await socket.read()
    except (WebSocketDisconnect, RuntimeError):
        pass
    except Exception:
        log.exception("socket of room %s failed", room_id)
    finally:
        await feeds.leave(socket.feed, ws)
        gate.release(ticket)
        await seen(ws, room_id, socket.player_id)
