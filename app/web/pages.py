"""The browser pages: home (name, new table, open tables), invite links, the room (lobby or
table), the lobby's forms and the endpoint that turns a click into a
move. Routes stay thin: every decision is the lobby's, the room service's or the game's, and
every form calls the same lobby command as the JSON API.

A refused form comes back to its page with the refusal in a short-lived cookie (the "flash"),
never in the address: a link cannot make the page show a text the app did not write.
"""

from __future__ import annotations

import json
import re
from collections.abc import Awaitable, Callable
from typing import Annotated, Any, Literal
from urllib.parse import quote, unquote

from anyio import to_thread
from fastapi import APIRouter, Form, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response
from jinja2 import Environment
from jinja2_fragments import render_block
from markupsafe import Markup, escape
from starlette.datastructures import FormData

from app.assets import SWAGGER
from app.errors import ApiError
from app.games.base import GameSpec, rule_anchor
from app.games.registry import GAMES, UnknownGame, get_game
from app.games.words import N_, Msg
from app.guard import RateKind, RateLimits, is_loopback, own_origin
from app.i18n import COOKIE as LANGUAGE_COOKIE
from app.i18n import LOCALES, choose, say
from app.identity import (
    create_player,
    optional_player,
    remember_code,
    remember_language,
    request_keys,
    set_cookie,
)
from app.lobby.api import join_with_code
from app.lobby.service import Lobby, WrongLink
from app.models import Player
from app.observe import counted_error
from app.realtime.feed import Feeds, Presence
from app.rooms.service import RoomService, StaleVersion
from app.rooms.table import Table
from app.web.render import (
    LOG,
    PLATFORM_TEMPLATE,
    SEATS,
    option_fields,
    options_chosen,
    options_from_form,
    table_context,
)
from app.web.renders import Renders
from app.web.words import raw_fragment

router = APIRouter(include_in_schema=False)

#: A seat number in a form: an optional minus and at most 9 ASCII digits.
SEAT_FIELD = re.compile(r"-?[0-9]{1,9}")
#: A clock in the table settings' form: minutes + seconds of increment ("10+5").
CLOCK_FIELD = re.compile(r"([0-9]{1,3})\+([0-9]{1,3})")
#: The cookie that carries a refusal to the next page (read once, then cleared).
FLASH = "canopy_flash"
#: Pages show the present: Back and history load them again instead of a stale copy (a
#: table list without the table just created, a board moves behind).
NO_STORE = {"Cache-Control": "no-store"}
#: How long the language switch's cookie lasts (seconds): a year.
LANGUAGE_KEPT = 365 * 24 * 3600


def _locale(request: Request) -> str:
    """The reader's language (app/i18n.py): the switch's cookie, else the player's choice on
    record, else the browser's ``Accept-Language``; worked out once per request."""
    known: str | None = getattr(request.state, "locale", None)
    if known is None:
        player = _viewer(request)
        known = choose([request.cookies.get(LANGUAGE_COOKIE), player.language if player else None],
                       request.headers.get("accept-language"))
        request.state.locale = known
    return known


def _env(request: Request) -> Environment:
    env: Environment = request.app.state.envs[_locale(request)]
    return env


def _say(request: Request, message: Msg | str | ApiError) -> str:
    """Words for the page, in the reader's language."""
    if isinstance(message, ApiError):
        return message.text(_locale(request))
    return say(message, _locale(request))


def _lobby(request: Request) -> Lobby:
    lobby: Lobby = request.app.state.lobby
    return lobby


def _page(request: Request, template: str, status: int = 200,
          headers: dict[str, str] | None = None, **ctx: Any) -> HTMLResponse:
    flash = request.cookies.get(FLASH)
    html = _env(request).get_template(template).render(
        request=request, error=unquote(flash)[:300] if flash else None, **ctx)
    response = HTMLResponse(html, status_code=status, headers={**NO_STORE, **(headers or {})})
    if flash:
        response.delete_cookie(FLASH, path="/")
    return response


def _viewer(request: Request) -> Player | None:
    """The caller, looked up once per request; a stale cookie is a newcomer."""
    if not hasattr(request.state, "viewer"):
        try:
            request.state.viewer = optional_player(request)
        except ApiError:
            request.state.viewer = None
    viewer: Player | None = request.state.viewer
    return viewer


def _back(request: Request, path: str,
          error: Msg | str | ApiError | None = None) -> RedirectResponse:
    """A redirect to ``path``; ``error`` (in the reader's language) shows on the next page."""
    response = RedirectResponse(path, status_code=303, headers=NO_STORE)
    if error:
        response.set_cookie(FLASH, quote(_say(request, error)[:300]), max_age=60, path="/",
                            httponly=True, samesite="lax",
                            secure=request.app.state.settings.cookie_secure)
    return response


@router.get("/", response_class=HTMLResponse)
async def home(request: Request) -> HTMLResponse:
    player = _viewer(request)
    rooms = await _lobby(request).list_rooms()
    mine = await _your_tables(request, player.id) if player and player.id else []
    listed = {room["id"] for room in mine}
    games = [{"game": g, "options": option_fields(g)} for g in GAMES.values()]
    return _page(request, "home.html", player=player, mine=mine, games=games,
                 rooms=[room for room in rooms if room["id"] not in listed])


async def _your_tables(request: Request, player_id: int) -> list[dict[str, Any]]:
    """The rooms the player sits in or hosts (at most 50, newest first), the ones whose game
    waits for the player's own seat first, each of those marked ``your_move`` (a seat a bot
    plays for them is not waiting for them)."""
    rooms: RoomService = request.app.state.rooms
    mine = await _lobby(request).rooms_of(player_id)
    for room in mine:
        room["your_move"] = False
        if room["status"] != "playing":
            continue
        try:
            table = await rooms.table(room["id"])
        except ApiError:  # gone, or not dealt yet
            continue
        seat = table.seat_of(player_id)
        room["your_move"] = (seat is not None and not table.finished
                             and seat not in table.seat_bots and seat in table.active())
    return sorted(mine, key=lambda room: not room["your_move"])


def _rate_check(request: Request, kind: RateKind, what: str) -> None:
    """Count one ``kind`` for the address; ApiError 429 when it is over its limit."""
    limits: RateLimits = request.app.state.limits
    limits.hit(kind, request.scope, what)


def _rate_refusal(request: Request, kind: RateKind, what: str) -> ApiError | None:
    """The page's words when the address is over its ``kind`` limit (a form answers with its
    page and a message, never a JSON 429)."""
    try:
        _rate_check(request, kind, what)
    except ApiError as exc:
        return exc
    return None


@router.post("/name")
async def choose_name(request: Request, name: Annotated[str, Form()] = "",
                      next: Annotated[str, Form()] = "/", join: Annotated[str, Form()] = "",
                      code: Annotated[str, Form()] = "") -> Response:
    """A newcomer names themself. From a table's page (``join``: its room id) the name also
    takes the first free seat — one step from an invite link to the table; when every seat
    is taken, the page says so and they watch."""
    target = next if next.startswith("/") and not next.startswith("//") else "/"
    refused = _rate_refusal(request, "signups", N_("new players"))
    if refused:
        return _back(request, target, refused)
    try:
        player, token = await to_thread.run_sync(create_player, _lobby(request).engine, name)
    except ApiError as exc:
        return _back(request, target, exc)
    message = None
    if join.isascii() and join.isdigit() and len(join) < 10:
        message = await _sit_down(request, player, int(join), code[:64] or None)
    response = _back(request, target, message)
    set_cookie(response, token, secure=request.app.state.settings.cookie_secure)
    return response


async def _sit_down(request: Request, player: Player, room_id: int,
                    code: str | None) -> Msg | ApiError | None:
    """Seat ``player`` in the room's first free seat; what the page then says, if anything."""
    try:
        keys = request_keys(request) | ({code} if code else set())
        room = await _lobby(request).get_room(room_id, player.id, keys)
        if room["status"] != "lobby":
            return Msg("The game has started: you are watching.")
        if not any(seat["free"] for seat in room["seats"]):
            return Msg("Every seat at this table is taken: you are watching.")
        _rate_check(request, "joins", N_("joins"))
        await join_with_code(_lobby(request), request, player, room_id, None, code)
    except ApiError as exc:
        return exc
    return None


def _form_lists(form: FormData) -> dict[str, list[str]]:
    return {key: [str(v) for v in form.getlist(key)] for key in form}


@router.post("/rooms")
async def new_room(request: Request, game: Annotated[str, Form()]) -> Response:
    """The new-table form: each game has its own player count (``players-<game>``) and
    options (``opt-<game>-<name>``); only the chosen game's count and options count. Tables
    are private unless the form says otherwise."""
    player = _viewer(request)
    if player is None:
        return _back(request, "/", Msg("choose a name first"))
    refused = _rate_refusal(request, "rooms", N_("new rooms"))
    if refused:
        return _back(request, "/", refused)
    try:
        spec = get_game(game)
    except UnknownGame:
        return _back(request, "/", Msg("choose one of the games"))
    form = _form_lists(await request.form())
    count = (form.get(f"players-{spec.id}") or form.get("players") or [""])[-1]
    if not count.isascii() or not count.isdigit() or len(count) > 2:
        return _back(request, "/", Msg("choose how many players for {game}",
                                       {"game": spec.title}))
    private = (form.get("private") or ["true"])[-1] != "false"
    seated = (form.get("seated") or ["true"])[-1] != "false"
    try:
        room = await _lobby(request).create_room(player, game, int(count),
                                                 options_from_form(spec, form), private, seated,
                                                 _table_from_form(form))
    except ApiError as exc:
        return _back(request, "/", exc)
    return _back(request, f"/rooms/{room['id']}")


def _table_from_form(form: dict[str, list[str]],
                     current: dict[str, Any] | None = None) -> dict[str, Any]:
    """The table settings a form sent (app/templates/_table_settings.html): ``pace``,
    ``move_hours``, ``clock`` as "minutes+seconds" ("" for none) with ``on_timeout``, and
    ``public_replay`` (a hidden "false" before the checkbox's "true"); the fields it lacks
    keep ``current``. A turn-based table has no clock: its clock fields, hidden with the live
    choice, are ignored. Values stay text: the lobby checks them and names a bad field."""
    def last(name: str) -> str | None:
        values = form.get(name)
        return values[-1] if values else None

    table = dict(current or {})
    for name in ("pace", "move_hours", "away_minutes"):
        value = last(name)
        if value:
            table[name] = value[:16]
    clock = last("clock")
    if clock is not None:
        match = CLOCK_FIELD.fullmatch(clock)
        if match:
            table["clock"] = {"minutes": match[1], "increment": match[2],
                              "on_timeout": (last("on_timeout") or "bot")[:16]}
        elif clock in ("", "none"):
            table["clock"] = None
        else:
            raise ApiError(422, Msg("choose one of the clocks"), fields=["clock"])
    if table.get("pace") == "turn":
        table["clock"] = None
    replay = last("public_replay")
    if replay is not None:
        table["public_replay"] = replay == "true"
    return table


@router.post("/language")
async def choose_language(request: Request, language: Annotated[str, Form()] = "",
                          next: Annotated[str, Form()] = "/") -> Response:
    """The language switch: remembered in a cookie, and on the player's record when the
    reader is a player (app/i18n.py); back to the page it was chosen on."""
    target = next if next.startswith("/") and not next.startswith("//") else "/"
    if language not in LOCALES:
        return _back(request, target, Msg("choose one of the languages"))
    player = _viewer(request)
    if player is not None and player.language != language:
        await to_thread.run_sync(remember_language, _lobby(request).engine, player, language)
    response = _back(request, target)
    response.set_cookie(LANGUAGE_COOKIE, language, max_age=LANGUAGE_KEPT, path="/",
                        httponly=True, samesite="lax",
                        secure=request.app.state.settings.cookie_secure)
    return response


@router.get("/docs", response_class=HTMLResponse)
async def api_docs(request: Request) -> HTMLResponse:
    """The API explorer: Swagger UI pinned with SRI, started by a file of this site."""
    html = _env(request).get_template("docs.html").render(swagger=SWAGGER)
    return HTMLResponse(html)


@router.get("/games/{game_id}/components", response_class=HTMLResponse)
async def components(request: Request, game_id: str) -> HTMLResponse:
    """Where a game's component data comes from, for players (a reconstruction, and why)."""
    game = GAMES.get(game_id)
    if game is None or not game.about_components:
        return _page(request, "error.html", status=404,
                     message=_say(request, Msg("There is no such page here.")))
    about = _say(request, game.about_components)  # the game's words, one message
    return _page(request, "components.html", game=game, player=_viewer(request),
                 paragraphs=about.strip().split("\n\n"))


@router.get("/games/{game_id}/rules", response_class=HTMLResponse)
async def rules(request: Request, game_id: str) -> HTMLResponse:
    """A game's rules panel as a page of its own, in the reader's language."""
    game = GAMES.get(game_id)
    if game is None or not game.rules:
        return _page(request, "error.html", status=404,
                     message=_say(request, Msg("There is no such page here.")))
    return _page(request, "rules.html", game=game, player=_viewer(request), rules_open=True)


async def _room_of_link(request: Request, code: str,
                        kind: Literal["invite", "watch"]) -> int | HTMLResponse:
    """The room an invite or watch link names, or the page that says why not: 404 for a code
    that names no room (a replaced invite code, a closed room, a typo), counted against the
    address's wrong codes like the join API's; past ``RATE_WRONG_CODES``, 429 with
    ``Retry-After`` — even for a right code, until the window passes."""
    limits: RateLimits = request.app.state.limits
    what = N_("wrong invite codes")
    try:
        limits.check("wrong_codes", request.scope, what)
        try:
            return await _lobby(request).room_id_for_code(code[:64], kind)
        except WrongLink:
            limits.hit("wrong_codes", request.scope, what)
            raise
    except ApiError as exc:
        return _page(request, "error.html", status=exc.status, headers=exc.headers,
                     message=_say(request, exc))


@router.get("/r/{code}")
async def invite(request: Request, code: str) -> Response:
    """An invite link: the room's page, with the code ready for the join form; the browser
    remembers the code, so that it may read the (private) room before it joins."""
    found = await _room_of_link(request, code, "invite")
    if isinstance(found, HTMLResponse):
        return found
    response = _back(request, f"/rooms/{found}?invite={quote(code)}")
    remember_code(response, request.cookies, code,
                  secure=request.app.state.settings.cookie_secure)
    return response


@router.get("/w/{code}")
async def watch(request: Request, code: str) -> Response:
    """A watch link: the browser remembers its code (a cookie; app/rooms/access.py) and goes
    to the room, which it may then watch — its table, its replay — but never join."""
    found = await _room_of_link(request, code, "watch")
    if isinstance(found, HTMLResponse):
        return found
    response = _back(request, f"/rooms/{found}")
    remember_code(response, request.cookies, code,
                  secure=request.app.state.settings.cookie_secure)
    return response


@router.get("/rooms/{room_id}", response_class=HTMLResponse)
async def room_page(request: Request, room_id: int) -> HTMLResponse:
    """A room's page: its lobby before the start, then its table. A private room is 404 to
    anyone who may not read it (app/rooms/access.py), as an unknown room is; ``?invite=``
    (the invite link's redirect) counts as presenting the code."""
    rooms: RoomService = request.app.state.rooms
    player = _viewer(request)
    invite_code = request.query_params.get("invite", "")[:64]
    keys = request_keys(request) | ({invite_code} if invite_code else set())
    renders: Renders = request.app.state.renders
    flash = request.cookies.get(FLASH)
    feeds: Feeds = request.app.state.feeds
    presence = feeds.presence(room_id)
    now = rooms.clock()
    table = rooms.cached(room_id)
    if (table is not None and not flash and table.heard <= table.version
            and table.readers is not None
            and table.readers.admits(player.id if player else None, keys)):
        kept = renders.kept(_page_key(request, table, player, presence, now, invite_code))
        if kept is not None:  # the same page for the same reader this second: no query
            return HTMLResponse(kept, headers=NO_STORE)
    try:
        room = await _lobby(request).get_room(room_id, player.id if player else None, keys)
    except ApiError as exc:
        return _page(request, "error.html", status=exc.status, message=_say(request, exc))
    game = get_game(room["game"])
    origin = own_origin(request.app.state.settings, request.scope)
    ctx: dict[str, Any] = {
        "room": room, "player": player, "spec": game,
        "options": options_chosen(game, room["options"], room["players"]),
        "invite_code": invite_code,
        "invite_url": f"{origin}{room['invite']}" if room["invite"] else None,
        "watch_url": (f"{origin}{room['watch_link']}"
                      if room["watch_link"] and room["private"] else None),
        "invite_local": not request.app.state.settings.public_origin and is_loopback(origin),
    }
    if room["status"] == "lobby":
        return _page(request, "room_lobby.html", **ctx, online=presence.players,
                     option_fields=option_fields(game, room["players"]))
    table = await rooms.table(room_id)
    seat, locale, env = table.seat_of(player.id if player else None), _locale(request), _env(
        request)
    whole = _page_key(request, table, player, presence, now, invite_code)
    tctx = table_context(table, seat, presence, locale, now)

    def make() -> tuple[Markup, Markup]:  # in a worker thread: the table's expensive part
        return (Markup(env.get_template(game.template).render(**tctx)),
                Markup(render_block(env, PLATFORM_TEMPLATE, LOG.block, **tctx)))

    try:
        game_html, log_html = await renders.get(
            ("table", room_id, table.version, table.seating, seat, locale), make,
            request.scope)
    except ApiError as exc:
        return _page(request, "error.html", status=exc.status, message=_say(request, exc),
                     headers=exc.headers)
    platform = {SEATS.id: render_block(env, PLATFORM_TEMPLATE, SEATS.block, **tctx),
                LOG.id: log_html}
    page = _page(request, "room_table.html", **ctx, **tctx, platform=platform,
                 game_html=game_html)
    if not flash:
        renders.keep(whole, page.body)
    return page


def _page_key(request: Request, table: Table, player: Player | None, presence: Presence,
              now: float, invite_code: str) -> tuple[Any, ...]:
    """What a whole table page shows: the table at its version and seating, the reader (their
    seat, language, name in the top bar), who is here, the second (the clocks), the invite."""
    player_id = player.id if player else None
    return ("page", table.room_id, table.version, table.seating, table.seat_of(player_id),
            _locale(request), player_id, presence, int(now), invite_code)


# -- the lobby's forms: one lobby command each ------------------------------------------------

LobbyCommand = Callable[[Lobby, Player, FormData], Awaitable[dict[str, Any]]]


def _seat(form: FormData) -> int | None:
    """The form's seat number; ASCII digits only, and few of them (``int()`` refuses "²",
    which ``isdigit()`` accepts, and numbers past 4300 digits). A longer number is no seat."""
    raw = str(form.get("seat", "")).strip()
    if SEAT_FIELD.fullmatch(raw):
        return int(raw)
    if raw.lstrip("-").isdigit():
        raise ApiError(404, Msg("there is no seat {seat}", {"seat": raw[:12]}))
    return None


async def _lobby_form(request: Request, room_id: int, command: LobbyCommand) -> Response:
    player = _viewer(request)
    page = f"/rooms/{room_id}"
    if player is None:
        return _back(request, page, Msg("choose a name first"))
    try:
        room = await command(_lobby(request), player, await request.form())
    except Exception as exc:
        return _back(request, page, counted_error(request.app.state, exc,
                                                  f"a lobby form of room {room_id}"))
    return _back(request, "/" if room.get("status") == "closed" else page)


@router.post("/rooms/{room_id}/join")
async def join(request: Request, room_id: int) -> Response:
    async def command(lobby: Lobby, player: Player, form: FormData) -> dict[str, Any]:
        _rate_check(request, "joins", N_("joins"))  # refused: the page shows why
        code = str(form.get("code") or "")[:64] or None
        return await join_with_code(lobby, request, player, room_id, _seat(form), code)

    return await _lobby_form(request, room_id, command)


@router.post("/rooms/{room_id}/leave")
async def leave(request: Request, room_id: int) -> Response:
    return await _lobby_form(request, room_id, lambda lobby, player, form: lobby.leave(
        player, room_id))


@router.post("/rooms/{room_id}/bot")
async def add_bot(request: Request, room_id: int) -> Response:
    return await _lobby_form(request, room_id, lambda lobby, player, form: lobby.add_bot(
        player, room_id, _seat(form), str(form.get("level") or "") or None))


def _named_seat(form: FormData) -> int:
    """The seat a form must name (-1, no seat at all, when it names none)."""
    seat = _seat(form)
    return seat if seat is not None else -1


@router.post("/rooms/{room_id}/unbot")
async def remove_bot(request: Request, room_id: int) -> Response:
    return await _lobby_form(request, room_id, lambda lobby, player, form: lobby.remove_bot(
        player, room_id, _named_seat(form)))


@router.post("/rooms/{room_id}/unseat")
async def remove_player(request: Request, room_id: int) -> Response:
    return await _lobby_form(request, room_id, lambda lobby, player, form: lobby.remove_player(
        player, room_id, _named_seat(form)))


@router.post("/rooms/{room_id}/options")
async def set_options(request: Request, room_id: int) -> Response:
    async def command(lobby: Lobby, player: Player, form: FormData) -> dict[str, Any]:
        room = await lobby.get_room(room_id, player.id)
        options = options_from_form(get_game(room["game"]), _form_lists(form))
        return await lobby.set_options(player, room_id, options)

    return await _lobby_form(request, room_id, command)


@router.post("/rooms/{room_id}/table")
async def set_table(request: Request, room_id: int) -> Response:
    """The host's table settings form: what it sends replaces those settings."""
    async def command(lobby: Lobby, player: Player, form: FormData) -> dict[str, Any]:
        room = await lobby.get_room(room_id, player.id)
        return await lobby.set_table(player, room_id,
                                     _table_from_form(_form_lists(form), room["table"]))

    return await _lobby_form(request, room_id, command)


@router.post("/rooms/{room_id}/start")
async def start(request: Request, room_id: int) -> Response:
    async def command(lobby: Lobby, player: Player, form: FormData) -> dict[str, Any]:
        _rate_check(request, "starts", N_("game starts"))  # refused: the page shows why
        return await lobby.start(player, room_id)

    return await _lobby_form(request, room_id, command)


@router.post("/rooms/{room_id}/rematch")
async def rematch(request: Request, room_id: int) -> Response:
    """"Play again" at a finished table: to the rematch's page (offered now, or before by
    someone else); a refusal back to the finished table."""
    player = _viewer(request)
    page = f"/rooms/{room_id}"
    if player is None:
        return _back(request, page, Msg("choose a name first"))
    refused = _rate_refusal(request, "rooms", N_("new rooms"))
    if refused:
        return _back(request, page, refused)
    try:
        room, _created = await _lobby(request).offer_rematch(player, room_id)
    except Exception as exc:
        return _back(request, page, counted_error(request.app.state, exc,
                                                  f"a rematch of room {room_id}"))
    return _back(request, f"/rooms/{room['id']}")


@router.post("/rooms/{room_id}/rematch/answer")
async def answer_rematch(request: Request, room_id: int) -> Response:
    """An invitee's Accept (``accept=true``) or Decline (``accept=false``)."""
    return await _lobby_form(request, room_id, lambda lobby, player, form: lobby.answer_rematch(
        player, room_id, str(form.get("accept", "")) == "true"))


# -- a click on the table ----------------------------------------------------------------------


def _flash(request: Request, message: Msg | str, rule: str | None = None,
           game: GameSpec | None = None) -> HTMLResponse:
    """The toast of a refused click, in the reader's language; with the rule it breaks, a
    link that opens the table's rules panel at that rule."""
    text = escape(_say(request, message))
    link = ""
    if rule and game is not None and rule in game.rule_ids:
        label = escape(_say(request, Msg("Rule: {rule}", {"rule": Msg(game.rule_title(rule))})))
        link = (f' <a class="rule-link" href="#rule-{escape(rule_anchor(rule))}" '
                f'data-rule="{escape(rule_anchor(rule))}">{label}</a>')
    return HTMLResponse(f'<p class="flash error" role="alert">{text}{link}</p>')


def _move_of(form: FormData) -> dict[str, Any]:
    """The move a click sent: the ``move`` field, with every other field merged into it (both
    JSON); ``ValueError`` when it is no move at all."""
    move = json.loads(str(form.get("move", "")))
    if not isinstance(move, dict):
        raise ValueError
    for key, value in form.items():
        if key not in ("move", "expected_version"):
            move[key] = json.loads(str(value))
    return move


def _missing_ask(game: GameSpec, move: dict[str, Any]) -> str | None:
    """What the game asks for first when the click lacks a field of its move (no card chosen
    before a cell is clicked): the game's words instead of the API's precise refusal."""
    kind = move.get("type")
    for name in sorted(game.moves.get(kind, ()) if isinstance(kind, str) else ()):
        if name in game.asks and move.get(name) in (None, ""):
            return game.asks[name]
    return None


@router.post("/rooms/{room_id}/act")
async def act(request: Request, room_id: int) -> Response:
    """A click on the table. Answers the toast's message, or nothing when the move was made
    (the new table arrives through the socket). A click from a page behind the game (a double
    click, a second tab) is dropped without a word: the page is about to show the present. A
    refusal reaches the page only in plain words (app/web/words.py)."""
    rooms: RoomService = request.app.state.rooms
    player = _viewer(request)
    form = await request.form()
    game: GameSpec | None = None
    try:
        if player is None:
            raise ApiError(401, Msg("choose a name and take a seat to play"))
        move = _move_of(form)
        version_raw = str(form.get("expected_version", ""))
        expected = int(version_raw) if version_raw.isdigit() and len(version_raw) < 10 else None
        game = (await rooms.readable(room_id, player.id)).game
        ask = _missing_ask(game, move)
        if ask is not None:
            return _flash(request, ask)
        await rooms.play(room_id, player.id, move, expected)
    except (ValueError, RecursionError):  # not JSON, or nested past json's limit
        return _flash(request, Msg("That click did not make a move."))
    except StaleVersion:
        return HTMLResponse("")
    except Exception as exc:
        error = counted_error(request.app.state, exc, f"a click in room {room_id}")
        detail = _say(request, error)
        if raw_fragment(error.detail) is not None or raw_fragment(detail) is not None:
            return _flash(request, Msg("That move is not possible now."))
        return _flash(request, detail, error.extra.get("rule"), game)
    return HTMLResponse("")
