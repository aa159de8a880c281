"""``/ws/rooms/{room_id}/html``: the browsers' htmx socket. It joins the room's feed like the
JSON socket and, after each event, pushes what changed for the caller's seat as htmx
out-of-band fragments: the lobby panel before the start, then the table regions whose HTML
changed (rendered once per seat and version, shared by that seat's browsers)."""

from __future__ import annotations

import asyncio
from typing import Any

from fastapi import WebSocket, WebSocketDisconnect
from jinja2 import Environment
from markupsafe import escape

from app.errors import ApiError
from app.games.registry import get_game
from app.games.words import Msg
from app.guard import SocketGate
from app.i18n import COOKIE as LANGUAGE_COOKIE
from app.i18n import DEFAULT, choose, say
from app.lobby.service import Lobby
from app.realtime.feed import Feeds, RoomFeed
from app.realtime.sockets import (
    Connection,
    RateLimit,
    admitted,
    close_for,
    frame_refusal,
    keys_of,
    seen,
)
from app.rooms.events import GameMoved, LobbyChanged, RoomEvent
from app.rooms.service import RoomService
from app.rooms.store import UnreadableGame
from app.rooms.table import Table
from app.web.render import oob, render_game_regions, render_seats


def lobby_fragment(env: Environment, room: dict[str, Any] | None, player_id: int | None,
                   online: frozenset[int], shut_out: bool = False) -> str:
    """The lobby panel as an out-of-band fragment; once the game starts, a reload. In the
    language ``env`` renders. ``room`` None: it was closed, or (``shut_out``) the reader may
    no longer read it (their seat at a private table was freed)."""
    locale = str(env.globals["locale"])
    if room is None:
        said = (Msg("Your seat at this private table was freed: ask its host for a new "
                    "invite link.") if shut_out else Msg("This room was closed."))
        return oob({"lobby": f"<p>{escape(say(said, locale))}</p>"})
    if room["status"] != "lobby":
        starts = escape(say(Msg("The game starts…"), locale))
        return oob({"lobby": f'<p data-reload="now">{starts}</p>'})
    panel = env.get_template("_lobby_panel.html").render(
        room=room, spec=get_game(room["game"]), player_id=player_id, online=online)
    return oob({"lobby": panel})


class HtmlSocket:
    def __init__(self, ws: WebSocket, room_id: int, player_id: int | None,
                 locale: str = DEFAULT, at_lobby: bool = False) -> None:
        self.ws = ws
        #: The room codes the handshake presented (a watch link's), for the lobby panel.
        self.keys = keys_of(ws)
        #: The page is the room's lobby (``?page=lobby``): it shows the lobby panel, and a
        #: game that has started, even before this socket opened, reloads it into the table.
        self.at_lobby = at_lobby
        self.conn = Connection(ws)
        self.room_id = room_id
        self.player_id = player_id
        #: The page's language, as the page itself was rendered (app/i18n.py).
        self.locale = locale
        self.env: Environment = ws.app.state.envs[locale]
        self.rooms: RoomService = ws.app.state.rooms
        self.lobby: Lobby = ws.app.state.lobby
        self.feeds: Feeds = ws.app.state.feeds
        self.feed: RoomFeed | None = None
        #: What this browser shows: region id -> HTML.
        self.sent: dict[str, str] = {}

    async def on_event(self, event: RoomEvent) -> None:
        if not self.at_lobby and await self.push_regions():
            return  # a move, or who is here changed at a running table: its seat bar
        if isinstance(event, GameMoved):
            return
        shut_out = False
        try:
            room: dict[str, Any] | None = await self.lobby.get_room(self.room_id,
                                                                    self.player_id, self.keys)
        except ApiError:
            room = None
            shut_out = await self._exists()
        if (self.at_lobby or room is None or room["status"] == "lobby"
                or isinstance(event, LobbyChanged)):
            await self.conn.send(lobby_fragment(self.env, room, self.player_id,
                                                self.feeds.presence(self.room_id).players,
                                                shut_out))

    async def _exists(self) -> bool:
        """Whether the room still exists (refused to this reader, it was not closed)."""
        try:
            await self.rooms.readers(self.room_id)
        except ApiError:
            return False
        return True

    async def push_regions(self) -> bool:
        """Bring every region this browser shows up to the present (False: no game yet)."""
        try:
            table = await self.rooms.table(self.room_id)
        except UnreadableGame as exc:  # started, but this server cannot open its game: the
            await close_for(self.ws, exc)  # close says why (htmx takes a frame for HTML)
            return True
        except ApiError:  # not started yet
            return False
        regions = self._regions(table, table.seat_of(self.player_id))
        changed = {name: html for name, html in regions.items() if self.sent.get(name) != html}
        if changed:
            self.sent.update(changed)
            await self.conn.send(oob(changed))
        return True

    def _regions(self, table: Table, seat: int | None) -> dict[str, str]:
        """The regions for ``seat``, each rendered once per version, seating and language (the
        seat bar once per presence too), shared by that seat's browsers."""
        assert self.feed is not None
        shared = self.feed.shared((table.version, table.seating))
        presence = self.feeds.presence(self.room_id)
        key = ("seats", seat, self.locale, presence)
        seats: str | None = shared.get(key)
        if seats is None:
            seats = shared[key] = render_seats(self.env, table, seat, presence)
        regions: dict[str, str] | None = shared.get(("regions", seat, self.locale))
        if regions is None:
            regions = shared[("regions", seat, self.locale)] = render_game_regions(
                self.env, table, seat)
        return {"seats": seats, **regions}

    async def read(self) -> None:
        """The page sends only its heartbeat, "ping", answered "pong" (a page that hears
        nothing for a while knows its connection is lost even when nothing closed it:
        canopy.js); reading also notices the close, and the socket obeys the same size and
        rate limits as the JSON one (a refusal closes it: htmx would take an error frame for
        HTML)."""
        settings, limit = self.ws.app.state.settings, RateLimit(self.ws.app.state.settings.ws_rate)
        while True:
            received = await self.ws.receive()
            if received["type"] == "websocket.disconnect":
                return
            refusal = frame_refusal(received, settings, limit)
            if refusal is not None:
                await self.ws.close(code=1009 if refusal.status == 413 else 1008,
                                    reason=refusal.detail[:120])
                return
            if received.get("text") == "ping":
                await self.conn.send("pong")


async def html_socket(ws: WebSocket) -> None:
    opened = await admitted(ws)
    if opened is None:
        return
    room_id, player, ticket = opened
    locale = choose([ws.cookies.get(LANGUAGE_COOKIE), player.language if player else None],
                    ws.headers.get("accept-language"))
    socket = HtmlSocket(ws, room_id, player.id if player else None, locale,
                        at_lobby=ws.query_params.get("page") == "lobby")
    del player
    feeds = socket.feeds
    socket.feed = feeds.join(room_id, ws, socket.on_event, socket.player_id)
    try:
        await asyncio.shield(socket.feed.ready)
        await feeds.announce(room_id)  # this page's own push follows from it
        await socket.on_event(LobbyChanged(room_id))  # the page may be older than the socket
        await seen(ws, room_id, socket.player_id, opened=True)
        await socket.read()
    except (WebSocketDisconnect, RuntimeError):
        pass
    finally:
        await feeds.leave(socket.feed, ws)
        gate: SocketGate = ws.app.state.sockets
        gate.release(ticket)
        await seen(ws, room_id, socket.player_id)
