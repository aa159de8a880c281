"""The browser pages: home (name, new room, open rooms), invite links, the room (lobby or
table) and the form endpoint that turns a click into a move. Routes stay thin: every decision
is the lobby's, the room service's or the game's."""

from __future__ import annotations

import importlib
import inspect
import json
import re
from typing import Annotated, Any

from anyio import to_thread
from fastapi import APIRouter, Form, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response
from jinja2 import Environment
from jinja2_fragments import render_block
from markupsafe import escape

from app.errors import ApiError
from app.games.registry import GAMES
from app.identity import COOKIE, create_player, optional_player
from app.lobby.service import BOT_LEVELS, Lobby
from app.models import Player
from app.realtime.hub import LOBBY_CHANGED
from app.rooms.service import RoomService
from app.web.render import PLATFORM_REGIONS, table_context

router = APIRouter(include_in_schema=False)

#: A seat number in a form: an optional minus and at most 9 ASCII digits.
SEAT_FIELD = re.compile(r"-?[0-9]{1,9}")


def _env(request: Request) -> Environment:
    env: Environment = request.app.state.env
    return env


def _page(request: Request, template: str, status: int = 200, **ctx: Any) -> HTMLResponse:
    html = _env(request).get_template(template).render(request=request, **ctx)
    return HTMLResponse(html, status_code=status)


def _viewer(request: Request) -> Player | None:
    try:
        return optional_player(request)
    except ApiError:  # a stale cookie: treat as a newcomer
        return None


def _back(path: str, error: str | None = None) -> RedirectResponse:
    if error:
        path += ("&" if "?" in path else "?") + "error=" + error.replace(" ", "+")
    return RedirectResponse(path, status_code=303)


@router.get("/", response_class=HTMLResponse)
async def home(request: Request) -> HTMLResponse:
    lobby: Lobby = request.app.state.lobby
    player = _viewer(request)
    rooms = await to_thread.run_sync(lobby.list_rooms)
    return _page(request, "home.html", player=player, rooms=rooms, games=list(GAMES.values()),
                 error=request.query_params.get("error"))


@router.post("/name")
async def choose_name(request: Request, name: Annotated[str, Form()] = "",
                      next: Annotated[str, Form()] = "/") -> Response:
    lobby: Lobby = request.app.state.lobby
    target = next if next.startswith("/") and not next.startswith("//") else "/"
    try:
        _, token = await to_thread.run_sync(create_player, lobby.engine, name)
    except ApiError as exc:
        return _back(target, exc.detail)
    response = _back(target)
    response.set_cookie(COOKIE, token, httponly=True, samesite="lax", max_age=60 * 60 * 24 * 365,
                        secure=request.app.state.settings.cookie_secure)
    return response


@router.post("/rooms")
async def new_room(request: Request, game: Annotated[str, Form()],
                   players: Annotated[int, Form()]) -> Response:
    lobby: Lobby = request.app.state.lobby
    player = _viewer(request)
    if player is None:
        return _back("/", "choose a name first")
    form = await request.form()
    options = {k[4:]: v for k, v in form.items() if k.startswith("opt_") and v != ""}
    try:
        room = await to_thread.run_sync(lobby.create_room, player, game, players, options)
    except ApiError as exc:
        return _back("/", exc.detail)
    return _back(f"/rooms/{room['id']}")


@router.get("/games/{game_id}/data", response_class=HTMLResponse)
async def game_data(request: Request, game_id: str) -> HTMLResponse:
    """A game's component data, as its ``data`` module documents it (where it comes from,
    what was reconstructed)."""
    game = GAMES.get(game_id)
    if game is None:
        return _page(request, "error.html", status=404, message=f"unknown game {game_id!r}")
    package = type(game).__module__
    module = importlib.import_module(f"{package}.data")
    doc = inspect.getdoc(module) or ""
    return _page(request, "game_data.html", game=game, paragraphs=doc.split("\n\n"),
                 module=module.__name__, player=_viewer(request))


@router.get("/r/{code}")
async def invite(request: Request, code: str) -> Response:
    lobby: Lobby = request.app.state.lobby
    try:
        room_id = await to_thread.run_sync(lobby.room_id_for_code, code)
    except ApiError as exc:
        return _page(request, "error.html", status=exc.status, message=exc.detail)
    return _back(f"/rooms/{room_id}")


@router.get("/rooms/{room_id}", response_class=HTMLResponse)
async def room_page(request: Request, room_id: int) -> HTMLResponse:
    lobby: Lobby = request.app.state.lobby
    rooms: RoomService = request.app.state.rooms
    player = _viewer(request)
    try:
        room = await to_thread.run_sync(lobby.get_room, room_id)
    except ApiError as exc:
        return _page(request, "error.html", status=exc.status, message=exc.detail)
    ctx: dict[str, Any] = {"room": room, "player": player, "bot_levels": BOT_LEVELS,
                           "error": request.query_params.get("error")}
    if room["status"] == "lobby":
        return _page(request, "room_lobby.html", **ctx)
    loaded = await rooms.loaded(room_id)
    table = table_context(loaded, loaded.seat_of(player.id if player else None))
    platform = {name: render_block(_env(request), "table_regions.html", name, **table)
                for name in PLATFORM_REGIONS}
    return _page(request, "room_table.html", **ctx, **table, platform=platform)


async def lobby_fragment(app: Any, room_id: int, player_id: int | None) -> str:
    """The lobby panel as an out-of-band fragment; once the game starts, a reload."""
    lobby: Lobby = app.state.lobby
    try:
        room = await to_thread.run_sync(lobby.get_room, room_id)
    except ApiError:
        return '<div id="lobby" hx-swap-oob="innerHTML"><p>This room was closed.</p></div>'
    if room["status"] != "lobby":
        return ('<div id="lobby" hx-swap-oob="innerHTML"><p>The game starts…</p>'
                "<script>location.reload()</script></div>")
    env: Environment = app.state.env
    html = env.get_template("_lobby_panel.html").render(
        room=room, player_id=player_id, bot_levels=BOT_LEVELS)
    return f'<div id="lobby" hx-swap-oob="innerHTML">{html}</div>'


async def _lobby_action(request: Request, room_id: int, action: str) -> Response:
    lobby: Lobby = request.app.state.lobby
    player = _viewer(request)
    page = f"/rooms/{room_id}"
    if player is None:
        return _back(page, "choose a name first")
    form = await request.form()
    seat_raw = str(form.get("seat", "")).strip()
    # ASCII digits only, and few of them: int() refuses "²" (which isdigit() accepts) and more
    # than 4300 digits with a ValueError — it answered 500. A longer number is no seat.
    seat = int(seat_raw) if SEAT_FIELD.fullmatch(seat_raw) else None
    if seat is None and seat_raw.lstrip("-").isdigit():
        return _back(page, f"there is no seat {seat_raw[:12]}")
    try:
        if action == "join":
            await to_thread.run_sync(lobby.join, player, room_id, seat)
        elif action == "leave":
            result = await to_thread.run_sync(lobby.leave, player, room_id)
            if result.get("status") == "closed":
                await request.app.state.hub.publish(room_id, LOBBY_CHANGED)
                return _back("/")
        elif action == "bot":
            level = str(form.get("level", "bot"))
            await to_thread.run_sync(lobby.add_bot, player, room_id, seat, level)
        elif action == "unbot":
            await to_thread.run_sync(lobby.remove_bot, player, room_id,
                                     seat if seat is not None else -1)
        elif action == "start":
            await to_thread.run_sync(lobby.start, player, room_id)
            await request.app.state.rooms.loaded(room_id)
            request.app.state.rooms.schedule_bots(room_id)
    except ApiError as exc:
        return _back(page, exc.detail)
    await request.app.state.hub.publish(room_id, LOBBY_CHANGED)
    return _back(page)


@router.post("/rooms/{room_id}/{action}")
async def lobby_action(request: Request, room_id: int, action: str) -> Response:
    if action == "act":
        return await act(request, room_id)
    if action not in ("join", "leave", "bot", "unbot", "start"):
        return _page(request, "error.html", status=404, message=f"no such action {action!r}")
    return await _lobby_action(request, room_id, action)


async def act(request: Request, room_id: int) -> Response:
    """A click on the table: the form's ``move`` field is a JSON move; every other field is a
    JSON value merged into it (a chosen card, a cell). Answers the flash message."""
    rooms: RoomService = request.app.state.rooms
    player = _viewer(request)
    form = await request.form()
    try:
        if player is None:
            raise ApiError(401, "choose a name and take a seat to play")
        move = json.loads(str(form.get("move", "")))
        if not isinstance(move, dict):
            raise ValueError
        for key, value in form.items():
            if key not in ("move", "expected_version"):
                move[key] = json.loads(str(value))
        version_raw = str(form.get("expected_version", ""))
        expected = int(version_raw) if version_raw.isdigit() else None
        await rooms.play(room_id, player.id, move, expected)
    except ApiError as exc:
        return HTMLResponse(f'<p class="flash error" role="alert">{escape(exc.detail)}</p>')
    except (ValueError, RecursionError):  # not JSON, or nested past json's limit (was a 500)
        return HTMLResponse('<p class="flash error" role="alert">That click did not make a '
                            "move: choose a card first.</p>")
    return HTMLResponse("")
