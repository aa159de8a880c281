"""The pages of finished games: a game's replay, move by move, beside the chart of each
player's score, and a player's page listing their finished games (issue 12, item 6).

The replay page renders the game's own table template read-only at the chosen version: the
view a spectator had then (or a seat's, when the room chose public replays), no legal moves,
``replay`` set for the templates. Stepping is plain links (``?v=``), so it works without a
script; app/static/replay.js adds the keyboard (Left/Right, Home/End).

The chart is drawn here with pygal, server-side, as an inline SVG: one line per seat in the
seats' colours, x the version, y the score, and a marker at the version shown. Its script
(pygal's tooltips) is left out: the page's Content-Security-Policy runs no inline script,
and the seat list beside the chart says each score at the version in words.
"""

from __future__ import annotations

from typing import Any
from xml.etree.ElementTree import Element

import pygal
from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse
from jinja2 import Environment
from jinja2_fragments import render_block
from markupsafe import Markup
from pygal.style import Style

from app.errors import ApiError
from app.games.words import Msg
from app.guard import render_charge
from app.i18n import say
from app.identity import request_keys
from app.rooms.replay import NOT_STEPWISE, Replay, Replays
from app.rooms.service import RoomService
from app.web.pages import _env, _locale, _page, _say, _viewer
from app.web.render import LOG, LOG_SHOWN, PLATFORM_TEMPLATE, render_region
from app.web.renders import Renders

router = APIRouter(include_in_schema=False)

#: The seats' colours (app/static/canopy.css, ``.seat-0`` … ``.seat-4``).
SEAT_COLOURS = ("#0072b2", "#d55e00", "#009e73", "#cc79a7", "#e69f00")
#: The marker of the version shown, and the chart's ink and guides (canopy.css's palette).
MARKER, INK, GUIDE = "#566159", "#1f2a24", "#d9d4c5"


def _replays(request: Request) -> Replays:
    replays: Replays = request.app.state.replays
    return replays


def _number(raw: str | None) -> int | None:
    """A version or seat from the address: ASCII digits, at most 9 (None: absent or empty);
    ``ValueError`` for anything else."""
    if raw is None or raw == "":
        return None
    if not raw.isascii() or not raw.isdigit() or len(raw) > 9:
        raise ValueError(raw)
    return int(raw)


def _without_scripts(root: Element) -> Element:
    """Drop pygal's ``<script>`` elements (its configuration for the tooltips): the page
    runs no inline script."""
    for parent in list(root.iter()):
        for child in list(parent):
            if isinstance(child.tag, str) and child.tag.rsplit("}", 1)[-1] == "script":
                parent.remove(child)
    return root


def score_chart(replay: Replay, version: int, title: str) -> Markup:
    """Each seat's score over the game as an inline SVG: a line per seat in its colour, a
    dashed marker and a dot per seat at ``version``. ``title`` names it for screen readers."""
    players = replay.players
    colours = (*SEAT_COLOURS[:players], MARKER, *SEAT_COLOURS[:players])
    style = Style(background="transparent", plot_background="transparent", foreground=INK,
                  foreground_strong=INK, foreground_subtle=GUIDE, colors=colours,
                  font_family="system-ui, -apple-system, 'Segoe UI', Roboto, sans-serif",
                  label_font_size=19, major_label_font_size=19, value_font_size=15,
                  tooltip_font_size=15, opacity=".9", opacity_hover="1")

    def titled(root: Element) -> Element:
        for child in root:  # the chart's own title ("Pygal" otherwise)
            if isinstance(child.tag, str) and child.tag.rsplit("}", 1)[-1] == "title":
                child.text = title
        root.set("role", "img")
        root.set("aria-label", title)
        return _without_scripts(root)

    chart = pygal.XY(style=style, width=480, height=300, explicit_size=False, js=[],
                     disable_xml_declaration=True, show_legend=False, show_dots=False,
                     show_x_guides=False, margin=10, dots_size=6, stroke_style={"width": 3},
                     print_values=False, include_x_axis=True)
    chart.add_xml_filter(titled)
    known = [(v, scores) for v, scores in enumerate(replay.timeline) if scores is not None]
    low = min(min(scores, default=0) for _, scores in known)
    high = max(max(scores, default=0) for _, scores in known)
    if low == high:
        high = low + 1
    for seat, name in enumerate(replay.names):
        chart.add(name, [(v, scores[seat]) for v, scores in known],
                  show_dots=len(known) == 1)
    chart.add("", [(version, low), (version, high)],
              stroke_style={"width": 2, "dasharray": "6,5"})
    shown = replay.timeline[version]
    for seat in range(players):
        if shown is not None:
            chart.add("", [(version, shown[seat])], stroke=False, show_dots=True)
    chart.range = (low, high)
    chart.xrange = (0, max(replay.last, 1))
    chart.x_labels = ticks(0, max(replay.last, 1))
    axis = replay.game.score_axis
    chart.y_labels = ([{"label": str(axis(v)), "value": v} for v in ticks(low, high)]
                      if axis is not None else ticks(low, high))
    return Markup(chart.render(is_unicode=True))


def ticks(low: int, high: int, most: int = 6) -> list[int]:
    """Whole-number ticks from ``low`` to ``high`` at a round step (1, 2, 5, 10, 20 …), at
    most ``most`` of them (versions and scores are whole numbers)."""
    span, step = max(high - low, 1), 1
    while span / step > most - 1:
        for factor in (2, 2.5, 2):  # 1 → 2 → 5 → 10 → 20 → 50 …
            step = int(step * factor)
            if span / step <= most - 1:
                break
    first = -(-low // step) * step
    return list(range(first, high + 1, step))


def _error(request: Request, exc: ApiError) -> HTMLResponse:
    return _page(request, "error.html", status=exc.status, message=_say(request, exc),
                 player=_viewer(request))


def _steps(room_id: int, version: int, first: int, last: int,
           seat: int | None) -> dict[str, str | None]:
    """The addresses of the first, previous, next and last versions (None: already there)."""
    extra = f"&seat={seat}" if seat is not None else ""

    def to(v: int) -> str:
        return f"/rooms/{room_id}/replay?v={v}{extra}"

    return {"first": to(first) if version > first else None,
            "prev": to(version - 1) if version > first else None,
            "next": to(version + 1) if version < last else None,
            "last": to(last) if version < last else None}


@router.get("/rooms/{room_id}/replay", response_class=HTMLResponse)
async def replay_page(request: Request, room_id: int) -> HTMLResponse:
    """A finished game at version ``v`` (0: the deal) as a spectator saw it, or as seat
    ``seat`` saw it when the room chose public replays; the score chart and the final
    ranking beside it. A private game's replay is 404 to anyone who may not read the room
    (app/rooms/access.py), as an unknown room's is."""
    try:
        asked = _number(request.query_params.get("v"))
        seat = _number(request.query_params.get("seat"))
    except ValueError:
        return _error(request, ApiError(404, Msg("There is no such page here.")))
    rooms: RoomService = request.app.state.rooms
    viewer = _viewer(request)
    try:
        await rooms.check_read(room_id, viewer.id if viewer else None, request_keys(request))
        replay = await _replays(request).replay(room_id, render_charge(request))
        version = replay.first if asked is None else asked
        replay.check(version, seat)
    except ApiError as exc:
        return _error(request, exc)
    locale, env = _locale(request), _env(request)

    def make() -> Markup:  # in a worker thread: the game's table, the chart, the log
        return Markup(render_block(env, "replay.html", "main",
                                   **_replay_context(replay, room_id, version, seat, locale,
                                                     env)))

    renders: Renders = request.app.state.renders
    try:
        main = await renders.get(("replay", room_id, version, seat, locale, replay.public), make,
                                 request.scope)
    except ApiError as exc:
        return _page(request, "error.html", status=exc.status, message=_say(request, exc),
                     player=_viewer(request), headers=exc.headers)
    return _page(request, "replay.html", main_html=main, game=replay.game, room_id=room_id,
                 player=_viewer(request))


def _replay_context(replay: Replay, room_id: int, version: int, seat: int | None,
                    locale: str, env: Environment) -> dict[str, Any]:
    """What the replay page shows at ``version`` for ``seat`` in ``locale``."""
    game = replay.game
    last = replay.last
    log = replay.log_at(version, seat, locale)
    result = replay.result_json(locale)
    ctx: dict[str, Any] = {
        "room_id": room_id, "game": game, "view": replay.view_at(version, seat), "seat": seat,
        "names": replay.names, "bots": replay.bots, "active": replay.active_at(version),
        "statuses": replay.statuses_at(version), "legal": [], "version": version,
        # the game's own final scoring shows at the end of a game its rules ended
        "result": result if version == last and replay.rules_result() is not None else None,
        "log": log[-LOG_SHOWN:], "finished": version == last, "rematch_id": None,
        "online": set(), "watching": 0, "replay": True,
    }
    log_html = render_region(env, PLATFORM_TEMPLATE, LOG, ctx)
    named = game.score_name
    title = say(Msg("{what}: each player over the game", {"what": Msg(named)}) if named
                else Msg("Each player's score over the game"), locale)
    heading = say(Msg("{what} over the game", {"what": Msg(named)}) if named
                  else Msg("Score over the game"), locale)
    # How each seat's score reads at this version, for a game whose scores are not points.
    score_words = ([say(w, locale, replay.names, seat) if isinstance(w, Msg) else w
                    for w in game.score_shown(replay.state(version))]
                   if game.score_shown is not None else None)
    return {
        **ctx, "last": last, "first": replay.first,
        "steps": _steps(room_id, version, replay.first, last, seat), "public": replay.public,
        "scores": replay.timeline[version], "final": result,
        "notice": None if replay.stepwise else Msg(NOT_STEPWISE),
        "now": [line for line in log if line["version"] == version and version > 0],
        "mover": replay.mover(version),
        "chart": score_chart(replay, version, title), "log_html": Markup(log_html),
        "chart_heading": heading, "score_words": score_words,
        "finished_at": replay.finished_at}


@router.get("/players/{player_id}", response_class=HTMLResponse)
async def player_page(request: Request, player_id: int) -> HTMLResponse:
    """A player's finished games, the newest first, each with a link to its replay (a
    private table only for the people who sat at it)."""
    viewer = _viewer(request)
    replays = _replays(request)
    try:
        name = await replays.player_name(player_id)
    except ApiError as exc:
        return _error(request, exc)
    games = await replays.games_of(player_id, viewer.id if viewer else None)
    return _page(request, "player.html", player=viewer, name=name, subject=player_id,
                 own=viewer is not None and viewer.id == player_id, games=games)
