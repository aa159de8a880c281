"""Jinja2 set-up and the table's regions.

Templates render from a seat's *view* only — never from the state — so a page cannot show what
the view hides (DESIGN.md §5). Each game's template defines its regions as blocks; a region is
one element whose ``id`` is the block's name. After a move, browsers receive only the regions
whose HTML changed, as ``hx-swap-oob`` fragments (``<div id="hand" hx-swap-oob="innerHTML">``).
"""

from __future__ import annotations

import inspect
import json
from pathlib import Path
from typing import Any

from jinja2 import ChoiceLoader, Environment, FileSystemLoader, PrefixLoader, select_autoescape
from jinja2_fragments import render_block
from markupsafe import Markup

from app.config import Settings
from app.games.registry import GAMES
from app.rooms.service import LoadedGame

APP_DIR = Path(__file__).resolve().parent.parent

#: Regions of the room page that every game shares (seats bar, log, flash message).
PLATFORM_REGIONS = ("seats", "log")

HTMX_VERSION = "2.0.11"
HTMX_WS_VERSION = "2.0.4"
HTMX_CDN = {
    "htmx": (f"https://unpkg.com/htmx.org@{HTMX_VERSION}/dist/htmx.min.js",
             "sha384-2OatzQy1H+Zd/IIrjr1TcuDGqLXeHhbooAyJY1KdQMKnr4LZ22k31GBLdYKHmVjg"),
    "ws": (f"https://unpkg.com/htmx-ext-ws@{HTMX_WS_VERSION}/dist/ws.min.js",
           "sha384-1RwI/nvUSrMRuNj7hX1+27J8XDdCoSLf0EjEyF69nacuWyiJYoQ/j39RT1mSnd2G"),
}
HTMX_LOCAL = {"htmx": ("/static/vendor/htmx.min.js", None),
              "ws": ("/static/vendor/ws.min.js", None)}


def game_template_dir(game: object) -> Path:
    """A game's ``templates/`` folder, beside its package's ``__init__``."""
    return Path(inspect.getfile(type(game))).resolve().parent / "templates"


def make_environment(settings: Settings) -> Environment:
    loader = ChoiceLoader([
        FileSystemLoader(APP_DIR / "templates"),
        PrefixLoader({gid: FileSystemLoader(game_template_dir(g)) for gid, g in GAMES.items()}),
    ])
    env = Environment(loader=loader, autoescape=select_autoescape(["html"]),
                      trim_blocks=True, lstrip_blocks=True)
    env.globals["htmx"] = HTMX_LOCAL if settings.htmx_source == "local" else HTMX_CDN
    env.filters["tojson_attr"] = lambda value: json.dumps(value, separators=(",", ":"))
    env.globals["move_json"] = lambda value: Markup.escape(
        json.dumps(value, separators=(",", ":")))
    return env


def table_context(loaded: LoadedGame, seat: int | None) -> dict[str, Any]:
    """Everything a game template may use: the seat's view, its legal moves and the room."""
    active = loaded.active()
    legal = (loaded.game.legal_moves(loaded.state, seat)
             if seat is not None and seat in active else [])
    return {
        "room_id": loaded.room_id,
        "game": loaded.game,
        "view": loaded.view(seat),
        "seat": seat,
        "names": loaded.names,
        "bots": loaded.seat_bots,
        "active": active,
        "legal": legal,
        "version": loaded.version,
        "result": loaded.result_json(),
        "log": loaded.log_for(seat)[-60:],
        "finished": loaded.finished,
    }


def render_regions(env: Environment, loaded: LoadedGame, seat: int | None) -> dict[str, str]:
    """Every region's HTML for that seat at the current version."""
    ctx = table_context(loaded, seat)
    regions = {name: render_block(env, "table_regions.html", name, **ctx)
               for name in PLATFORM_REGIONS}
    for name in loaded.game.regions:
        regions[name] = render_block(env, loaded.game.template, name, **ctx)
    return regions


def oob(regions: dict[str, str]) -> str:
    """The regions as out-of-band swaps, each replacing the inside of its element."""
    return "".join(f'<div id="{name}" hx-swap-oob="innerHTML">{html}</div>'
                   for name, html in regions.items())
