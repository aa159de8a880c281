"""Websocket endpoints (DESIGN.md §5).

``/ws/rooms/{id}`` speaks JSON to API clients: a snapshot of the seat's view on connect, then
RFC 6902 patches of that view after every change (:mod:`app.realtime.diff`), moves and resyncs
from the client, errors as ``{"type": "error", "status", "detail"}``. Before the game starts it
sends ``lobby`` messages.

``/ws/rooms/{id}/html`` feeds htmx's ws extension: after each change it pushes only the table
regions whose HTML changed for that seat, as out-of-band fragments.

Each connection keeps what it last sent; the room's views, patches and fragments are computed
once per version and seat and shared by every connection of that seat.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import marshal
import time
from collections.abc import Awaitable, Callable
from typing import Any

from anyio import to_thread
from fastapi import WebSocket, WebSocketDisconnect
from jinja2 import Environment
from sqlalchemy.exc import OperationalError
from starlette.routing import Router, WebSocketRoute
from starlette.websockets import WebSocketState

from app.db import json_dumps
from app.errors import ApiError
from app.identity import player_for_token, token_from
from app.lobby.pages import lobby_fragment
from app.lobby.service import Lobby
from app.models import MAX_ID, Player
from app.realtime.diff import diff
from app.realtime.hub import LOBBY_CHANGED, Hub
from app.rooms.service import LoadedGame, RoomService
from app.web.render import oob, render_regions

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


async def _identify(ws: WebSocket) -> Player | None:
    """The connecting player (token from header, ``?token=`` or cookie); 401 if unknown."""
    token = token_from(dict(ws.headers), dict(ws.cookies), ws.query_params.get("token"))
    if token is None:
        return None
    player = await to_thread.run_sync(player_for_token, ws.app.state.engine, token)
    if player is None:
        raise ApiError(401, "unknown token")
    return player


async def _room_json(ws: WebSocket, room_id: int) -> dict[str, Any]:
    lobby: Lobby = ws.app.state.lobby
    return await to_thread.run_sync(lobby.get_room, room_id)


class Connection:
    """One socket: serialized sends and the view it last sent (``marshal`` bytes)."""

    def __init__(self, ws: WebSocket) -> None:
        self.ws = ws
        self.send_lock = asyncio.Lock()
        self.catch_up_lock = asyncio.Lock()  # one catch-up at a time (connect, feed, resync)
        self.version: int | None = None
        self.view: bytes | None = None

    async def send(self, message: dict[str, Any] | str) -> None:
        async with self.send_lock:
            if self.ws.application_state != WebSocketState.CONNECTED:
                return
            if isinstance(message, str):
                await self.ws.send_text(message)
            else:
                await self.ws.send_text(json_dumps(message))

    async def error(self, exc: ApiError) -> None:
        await self.send({"type": "error", "status": exc.status, **exc.body()})

    async def refuse(self, exc: ApiError) -> None:
        """The error frame, then the close (code 4000 + status)."""
        await self.error(exc)
        await _close_for(self.ws, exc)


async def _close_for(ws: WebSocket, exc: ApiError) -> None:
    """Close with code 4000 + the HTTP status and the reason (a close frame holds little)."""
    await ws.close(code=4000 + exc.status, reason=exc.detail[:120])


def _patch_message(loaded: LoadedGame, from_version: int, old: bytes, seat: int | None) -> str:
    """The patch from the seat's view at ``from_version`` (``old``, marshal bytes) to the
    current version, as JSON text: computed once per seat and versions, shared by the seat's
    sockets."""
    key = (seat, from_version)
    message = loaded.patches.get(key)
    if message is None:
        new = loaded.view(seat)
        ops = [] if old == loaded.view_data(seat) else diff(marshal.loads(old), new)
        message = json_dumps({"type": "patch", "from": from_version, "to": loaded.version,
                              "ops": ops, "active_seats": loaded.active(),
                              "result": loaded.result_json()})
        loaded.patches[key] = message
    return message


class RoomFeed:
    """One room's change notifications for this process's JSON sockets: a single hub
    subscription and task per room brings each of the room's sockets up to date in turn.

    (A task and a queue per socket, each re-armed on every move, cost three more task switches
    per move and a dozen objects per socket and move that lived until the next move — enough
    to keep CPython's cycle collector busy at 500 rooms.)"""

    def __init__(self, room_id: int) -> None:
        self.room_id = room_id
        self.members: dict[Connection, Callable[[], Awaitable[None]]] = {}
        self.ready: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self.task: asyncio.Task[None] | None = None

    @staticmethod
    def enter(ws: WebSocket, room_id: int, conn: Connection,
              catch_up: Callable[[], Awaitable[None]]) -> RoomFeed:
        """Add the socket to its room's feed, started if needed; await ``ready`` before the
        first catch-up, and call ``leave`` in any case."""
        feeds: dict[int, RoomFeed] = ws.app.state.room_feeds
        feed = feeds.get(room_id)
        if feed is None:
            feed = feeds[room_id] = RoomFeed(room_id)
            feed.task = asyncio.create_task(feed._run(ws.app.state.hub, feeds))
        feed.members[conn] = catch_up
        return feed

    def leave(self, feeds: dict[int, RoomFeed], conn: Connection) -> None:
        self.members.pop(conn, None)
        if not self.members:
            if feeds.get(self.room_id) is self:
                del feeds[self.room_id]
            if self.task is not None:
                self.task.cancel()

    async def _run(self, hub: Hub, feeds: dict[int, RoomFeed]) -> None:
        try:
            async with hub.subscribe(self.room_id) as queue:
                self.ready.set_result(None)
                while True:
                    await queue.get()
                    for conn, catch_up in list(self.members.items()):
                        try:
                            await catch_up()
                        except (WebSocketDisconnect, RuntimeError):
                            pass  # the socket is gone: its reader ends it
                        except Exception:
                            log.exception("socket of room %s failed", self.room_id)
                            with contextlib.suppress(Exception):
                                await conn.ws.close(code=1011)
        except BaseException as exc:  # cancelled (no member left), or the hub failed
            if not self.ready.done():
                if isinstance(exc, Exception):
                    self.ready.set_exception(exc)
                else:
                    self.ready.cancel()
            if feeds.get(self.room_id) is self:
                del feeds[self.room_id]
            raise


class GameSocket:
    """One JSON socket of a room: identifies the caller, sends the snapshot, then a patch per
    change (from the room's feed), and handles the client's moves, resyncs and pings."""

    def __init__(self, ws: WebSocket, room_id: int, player_id: int | None) -> None:
        self.ws = ws
        self.conn = Connection(ws)
        self.rooms: RoomService = ws.app.state.rooms
        self.settings = ws.app.state.settings
        self.room_id = room_id
        self.player_id = player_id

    async def catch_up(self) -> None:
        async with self.conn.catch_up_lock:
            await self._catch_up()

    async def _catch_up(self) -> None:
        """Send the snapshot (first time) or the patch up to the current version."""
        conn = self.conn
        try:
            loaded = await self.rooms.loaded(self.room_id)
        except ApiError:  # not started: the lobby is all there is to see
            try:
                room = await _room_json(self.ws, self.room_id)
            except ApiError as exc:
                # The room was closed (its last player left): say so and close, as for an
                # unknown room. This ended the writer task with a logged traceback and dropped
                # the connection without a close frame.
                await conn.refuse(exc)
                return
            await conn.send({"type": "lobby", "room": room})
            return
        seat = loaded.seat_of(self.player_id)
        if conn.view is None or conn.version is None:
            view = loaded.view(seat)
            conn.view, conn.version = loaded.view_data(seat), loaded.version
            await conn.send({"type": "snapshot", "version": loaded.version, "view": view,
                             "active_seats": loaded.active(), "your_seat": seat,
                             "result": loaded.result_json()})
        elif conn.version != loaded.version:
            message = _patch_message(loaded, conn.version, conn.view, seat)
            conn.view, conn.version = loaded.view_data(seat), loaded.version
            await conn.send(message)

    async def resync(self, since: Any) -> None:
        loaded = await self.rooms.loaded(self.room_id)
        if not is_int(since) or not 0 <= since <= loaded.version:
            raise ApiError(422, f"resync 'since' must be a version from 0 to {loaded.version}")
        seat = loaded.seat_of(self.player_id)
        old = await to_thread.run_sync(self.rooms.view_at, loaded, seat, since)
        async with self.conn.catch_up_lock:
            message = _patch_message(loaded, since, marshal.dumps(old), seat)
            self.conn.view, self.conn.version = loaded.view_data(seat), loaded.version
            await self.conn.send(message)

    async def handle(self, raw: str) -> None:
        try:
            message = json.loads(raw)
        except ValueError:
            raise ApiError(422, "message is not valid JSON") from None
        except RecursionError:  # "[[[[…": json gives up past ~1000 levels
            raise ApiError(422, "message is nested too deeply") from None
        if not isinstance(message, dict):
            raise ApiError(422, "message must be a JSON object with a 'type'")
        kind = message.get("type")
        if kind == "move":
            if self.player_id is None:
                raise ApiError(401, "moves need a player token (?token=...)")
            expected = message.get("expected_version")
            if expected is not None and not is_int(expected):
                raise ApiError(422, "expected_version must be an integer")
            version = await self.rooms.play(self.room_id, self.player_id, message.get("move"),
                                            expected)
            await self.conn.send({"type": "ack", "version": version})
        elif kind == "resync":
            await self.resync(message.get("since"))
        elif kind == "ping":
            await self.conn.send({"type": "pong"})
        else:
            raise ApiError(422, f"unknown message type {kind!r}: send move, resync or ping")

    async def read(self) -> None:
        """Handle the client's messages until it goes; refusals are error frames."""
        ws, conn, settings = self.ws, self.conn, self.settings
        limit = RateLimit(settings.ws_rate)
        while True:
            # receive(), not receive_text(): a binary frame made receive_text() raise a
            # KeyError that ended the connection without a word.
            received = await ws.receive()
            if received["type"] == "websocket.disconnect":
                return
            raw: str | None = received.get("text")
            # The limit is in bytes (UTF-8), not characters.
            size = (len(raw) if raw.isascii() else len(raw.encode())) if raw is not None \
                else len(received.get("bytes") or b"")
            if size > settings.ws_max_message:
                await conn.error(ApiError(413, f"message too large: at most "
                                               f"{settings.ws_max_message} bytes"))
                await ws.close(code=1009, reason="message too large")
                return
            if not limit.allow():
                await conn.error(ApiError(429, "too many messages: slow down"))
                continue
            try:
                if raw is None:
                    raise ApiError(422, "binary frames are not understood: send JSON as text")
                await self.handle(raw)
            except ApiError as exc:
                await conn.error(exc)
            except WebSocketDisconnect:  # gone while we answered: the end, not a failure
                raise
            except OperationalError:  # as over REST: 503, try again
                log.warning("database busy on the socket of room %s", self.room_id)
                await conn.error(ApiError(503, "the database is busy; try again"))
            except Exception:  # a bug must not end the player's socket without a word
                log.exception("message on the socket of room %s failed", self.room_id)
                await conn.error(ApiError(500, "the server failed to handle that message"))


def _room_id(ws: WebSocket) -> int:
    """The room id of the socket's path; 404 if it is not one (ids are positive integers)."""
    text: str = ws.path_params["room_id"]
    if not (text.isascii() and text.isdigit() and len(text) <= 19) or not 0 < int(text) <= MAX_ID:
        raise ApiError(404, f"no room {text[:40]!r}")
    return int(text)


async def game_socket(ws: WebSocket) -> None:
    """``/ws/rooms/{room_id}``: the JSON protocol for API clients (DESIGN.md §5)."""
    await ws.accept()
    try:
        room_id = _room_id(ws)
        player = await _identify(ws)
        rooms: RoomService = ws.app.state.rooms
        if rooms.cached(room_id) is None:  # a game in memory: its room exists
            await _room_json(ws, room_id)  # 404 for an unknown room
    except ApiError as exc:
        await Connection(ws).refuse(exc)
        return
    socket = GameSocket(ws, room_id, player.id if player else None)
    del player  # the row itself is not kept for the socket's hours, only the id
    feed = RoomFeed.enter(ws, room_id, socket.conn, socket.catch_up)
    try:
        await asyncio.shield(feed.ready)  # subscribed before the first catch-up: none missed
        await socket.catch_up()
        await socket.read()
    except (WebSocketDisconnect, RuntimeError):
        pass
    except Exception:
        log.exception("socket of room %s failed", room_id)
    finally:
        feed.leave(ws.app.state.room_feeds, socket.conn)


async def html_socket(ws: WebSocket) -> None:
    """``/ws/rooms/{room_id}/html``: pushes the changed table regions of the caller's seat as
    htmx out-of-band fragments."""
    await ws.accept()
    conn = Connection(ws)
    rooms: RoomService = ws.app.state.rooms
    hub: Hub = ws.app.state.hub
    env: Environment = ws.app.state.env
    try:
        room_id = _room_id(ws)
        player = await _identify(ws)
    except ApiError as exc:
        await _close_for(ws, exc)  # no error frame: htmx would take it for HTML
        return
    player_id = player.id if player else None
    sent: dict[str, str] = {}

    async def push(event: int) -> None:
        if event == LOBBY_CHANGED:
            await conn.send(await lobby_fragment(ws.app, room_id, player_id))
            return
        try:
            loaded = await rooms.loaded(room_id)
        except ApiError:
            return
        regions = _regions_cached(env, loaded, loaded.seat_of(player_id))
        changed = {name: html for name, html in regions.items() if sent.get(name) != html}
        if changed:
            sent.update(changed)
            await conn.send(oob(changed))

    async def reader() -> None:
        while True:  # the page sends nothing we act on; reading notices the close
            if (await ws.receive())["type"] == "websocket.disconnect":
                return

    async def writer(queue: asyncio.Queue[int]) -> None:
        while True:
            await push(await queue.get())

    async with hub.subscribe(room_id) as queue:
        await push(0)  # the page may be older than the socket: bring every region up to date
        tasks = [asyncio.create_task(reader()), asyncio.create_task(writer(queue))]
        try:
            await asyncio.wait(tasks, return_when=asyncio.FIRST_COMPLETED)
        finally:
            for task in tasks:
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError, Exception):
                    await task


def _regions_cached(env: Environment, loaded: LoadedGame, seat: int | None) -> dict[str, str]:
    """Regions rendered once per (room, seat, version), shared by that seat's browsers."""
    regions = loaded.regions.get(seat)
    if regions is None:
        regions = loaded.regions[seat] = render_regions(env, loaded, seat)
    return regions


#: The socket endpoints. They are served past the HTTP middleware stack (``app.main.Canopy``):
#: a socket lives for hours, and every middleware layer would keep a coroutine frame alive for
#: all that time (12 KiB and 70 objects for the cycle collector per socket) to do nothing for it.
socket_routes = Router(routes=[WebSocketRoute("/ws/rooms/{room_id}", game_socket),
                               WebSocketRoute("/ws/rooms/{room_id}/html", html_socket)])
