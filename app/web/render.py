"""Jinja2 set-up, the table's regions and the lobby's options form.

Templates render from a seat's *view* only — never from the state — so a page cannot show what
the view hides (DESIGN.md §5). Each game's template defines its regions as blocks; a region is
one element whose ``id`` is the region's id (:class:`app.games.base.Region`). After a move,
browsers receive only the regions whose HTML changed, as ``hx-swap-oob`` fragments
(``<div id="hand" hx-swap-oob="innerHTML">``).
"""

from __future__ import annotations

import json
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from babel.dates import format_date, format_datetime, format_timedelta
from babel.numbers import format_decimal
from jinja2 import (
    ChoiceLoader,
    Environment,
    FileSystemLoader,
    PrefixLoader,
    pass_context,
    select_autoescape,
)
from jinja2.runtime import Context
from jinja2_fragments import render_block
from markupsafe import Markup

from app.assets import HTMX_CDN, HTMX_LOCAL
from app.config import Settings
from app.games.base import GameSpec, Region, rule_anchor
from app.games.registry import GAMES
from app.games.words import N_, Msg
from app.i18n import DEFAULT, LANGUAGE_NAMES, LOCALES, say, words
from app.realtime.feed import Presence
from app.rooms.table import Table

APP_DIR = Path(__file__).resolve().parent.parent

#: Regions of the room page that every game shares: the seat bar (who plays, who is here,
#: whose turn, the result) and the log.
#: Log lines a table shows (the newest).
LOG_SHOWN = 60
SEATS = Region("seats", "seats")
LOG = Region("log", "log")
PLATFORM_REGIONS = (SEATS, LOG)
PLATFORM_TEMPLATE = "table_regions.html"

def make_environment(settings: Settings, locale: str = DEFAULT) -> Environment:
    """The templates in one language: Jinja2's i18n extension with that language's catalogue
    (``_``, ``ngettext``, ``{% trans %}``), and filters that show a game's words in it."""
    loader = ChoiceLoader([
        FileSystemLoader(APP_DIR / "templates"),
        PrefixLoader({gid: FileSystemLoader(g.folder / "templates") for gid, g in GAMES.items()}),
    ])
    env = Environment(loader=loader, autoescape=select_autoescape(["html"]),
                      trim_blocks=True, lstrip_blocks=True, extensions=["jinja2.ext.i18n"])
    env.policies["ext.i18n.trimmed"] = True
    language = words(locale)
    env.install_gettext_translations(language.translations, newstyle=True)  # type: ignore[attr-defined]
    env.globals["locale"] = locale
    env.globals["languages"] = LANGUAGE_NAMES
    env.globals["htmx"] = HTMX_LOCAL if settings.htmx_source == "local" else HTMX_CDN
    env.globals["heartbeat"] = settings.ws_heartbeat_seconds
    env.filters["tojson_attr"] = lambda value: json.dumps(value, separators=(",", ":"))
    env.globals["move_json"] = lambda value: Markup.escape(
        json.dumps(value, separators=(",", ":")))

    @pass_context
    def shown(ctx: Context, message: Msg | str | None, names: list[str] | None = None,
              seat: int | None = -1) -> str:
        """A game's words (a Msg, or a message id such as a status) in this language, players
        named for the reader: the context's ``names`` and ``seat`` unless given."""
        if message is None or message == "":
            return ""
        return say(message, locale, names if names is not None else ctx.get("names"),
                   ctx.get("seat") if seat == -1 else seat)

    env.filters["say"] = shown
    #: Kept for the templates' English texts with ``{p0}`` … (a result's headline).
    env.filters["for_reader"] = lambda text, names, seat: say(text, locale, names, seat)
    env.filters["anchor"] = rule_anchor
    env.filters["number"] = lambda value: format_decimal(value, locale=locale)
    env.filters["date"] = lambda value: format_date(value, format="medium", locale=locale)
    env.filters["datetime"] = lambda value: format_datetime(value, format="medium",
                                                            locale=locale)
    #: Epoch seconds as a moment to read ("Tue 14:05") and as a time ago ("3 hours ago").
    env.filters["moment"] = lambda value: format_datetime(
        datetime.fromtimestamp(value, UTC), format="EEE HH:mm", locale=locale)
    env.filters["ago"] = lambda value: format_timedelta(
        -max(1.0, time.time() - value), add_direction=True, locale=locale)
    env.filters["clock"] = clock_text
    return env


def clock_text(seconds: float) -> str:
    """A clock's time left as a chess clock shows it: "9:05", "1:02:03" (whole seconds)."""
    whole = max(0, int(seconds))
    hours, rest = divmod(whole, 3600)
    minutes, secs = divmod(rest, 60)
    return f"{hours}:{minutes:02}:{secs:02}" if hours else f"{minutes}:{secs:02}"


def _locale_of(env: Environment) -> str:
    """The language an environment renders in."""
    return str(env.globals["locale"])


def make_environments(settings: Settings) -> dict[str, Environment]:
    """The templates in every language."""
    return {locale: make_environment(settings, locale) for locale in LOCALES}


def table_context(table: Table, seat: int | None, presence: Presence | None = None,
                  locale: str = DEFAULT, now: float | None = None) -> dict[str, Any]:
    """Everything a game template may use: the seat's view, its legal moves and the room;
    for the seat bar, who is connected (``online``: seats, ``watching``: other pages), who
    plays each seat (``seating``), the clocks and the turn-based deadline at ``now``; the
    log in ``locale``."""
    active = table.active()
    present = presence or Presence()
    now = time.time() if now is None else now
    seated = set(table.seat_players.values())
    legal = (table.game.legal_moves(table.state, seat)
             if seat is not None and seat in active and seat not in table.seat_bots else [])
    return {
        "room_id": table.room_id,
        "game": table.game,
        "view": table.view(seat),
        "seat": seat,
        "names": table.names,
        "bots": table.seat_bots,
        "active": active,
        "statuses": table.statuses(),
        "legal": legal,
        "version": table.version,
        "result": table.result_json(locale),
        "log": table.log_for(seat, locale, last=LOG_SHOWN),
        "finished": table.finished,
        "rematch_id": table.rematch_id,
        "rules_version": table.rules_version,
        "online": {s for s, pid in table.seat_players.items() if pid in present.players},
        "seating": table.seats_json(frozenset(present.players), now),
        "clocks": table.clocks.shown(now) if table.clocks else None,
        "pace": table.pace,
        "move_hours": table.move_hours,
        "deadline": table.deadline(),
        "now": now,
        "watching": len(present.players - seated) + present.anonymous,
    }


def render_region(env: Environment, template: str, region: Region, ctx: dict[str, Any]) -> str:
    if region.seat is None:
        return render_block(env, template, region.block, **ctx)
    return render_block(env, template, region.block, **ctx, region_seat=region.seat)


def render_regions(env: Environment, table: Table, seat: int | None,
                   presence: Presence | None = None) -> dict[str, str]:
    """Every region's HTML for that seat at the current version, by element id."""
    ctx = table_context(table, seat, presence, _locale_of(env))
    return {SEATS.id: render_region(env, PLATFORM_TEMPLATE, SEATS, ctx),
            **render_game_regions(env, table, seat, ctx)}


def render_seats(env: Environment, table: Table, seat: int | None,
                 presence: Presence | None) -> str:
    """The seat bar alone (it changes with who is connected, between versions too)."""
    return render_region(env, PLATFORM_TEMPLATE, SEATS,
                         table_context(table, seat, presence, _locale_of(env)))


def render_game_regions(env: Environment, table: Table, seat: int | None,
                        ctx: dict[str, Any] | None = None) -> dict[str, str]:
    """The regions that change only with the version: the log and the game's own."""
    ctx = ctx or table_context(table, seat, None, _locale_of(env))
    regions = {region.id: render_region(env, PLATFORM_TEMPLATE, region, ctx)
               for region in PLATFORM_REGIONS if region is not SEATS}
    for region in table.game.regions(table.players):
        regions[region.id] = render_region(env, table.game.template, region, ctx)
    return regions


def oob(regions: dict[str, str]) -> str:
    """The regions as out-of-band swaps, each replacing the inside of its element."""
    return "".join(f'<div id="{name}" hx-swap-oob="innerHTML">{html}</div>'
                   for name, html in regions.items())


# -- the options form -----------------------------------------------------------------------


def _resolve(schema: dict[str, Any], prop: dict[str, Any]) -> dict[str, Any]:
    """A property of a pydantic JSON schema with its ``$ref`` (an Enum class) followed."""
    ref = prop.get("$ref") or next((p["$ref"] for p in prop.get("allOf", ()) if "$ref" in p),
                                   None)
    if ref is None:
        return prop
    target = schema.get("$defs", {}).get(ref.rsplit("/", 1)[-1], {})
    return {**target, **{k: v for k, v in prop.items() if k not in ("$ref", "allOf")}}


def option_fields(game: GameSpec, players: int | None = None) -> list[dict[str, Any]]:
    """The game's options as form fields, from its ``Options`` JSON schema: a checkbox for a
    yes/no, a select for a choice, a number with its bounds, a text field otherwise. A field's
    ``title`` is its label, ``description`` its help; a choice may name its values in
    ``json_schema_extra={"labels": {value: label}}``. An option that applies only at some
    player counts lists them in ``json_schema_extra={"players": [1]}``: for a room of
    ``players`` the others are left out (a form that still lets you choose the count shows
    it only at those counts, ``data-players``)."""
    schema = game.Options.model_json_schema()
    fields = []
    for name, raw in schema.get("properties", {}).items():
        prop = _resolve(schema, raw)
        counts = prop.get("players")
        if players is not None and counts is not None and players not in counts:
            continue
        field: dict[str, Any] = {
            "name": name, "label": prop.get("title", name.replace("_", " ").capitalize()),
            "help": prop.get("description", ""), "default": prop.get("default"),
            "players": counts,
        }
        labels = prop.get("labels", {})
        if prop.get("type") == "boolean":
            field["kind"] = "checkbox"
        elif "enum" in prop or "const" in prop:
            field["kind"] = "select"
            field["choices"] = [(value, labels.get(str(value), str(value)))
                                for value in prop.get("enum", [prop.get("const")])]
        elif prop.get("type") in ("integer", "number"):
            whole = prop["type"] == "integer"
            field["kind"] = "number"
            field["min"] = prop.get("minimum")
            field["max"] = prop.get("maximum")
            if whole and "exclusiveMinimum" in prop:  # gt=0 on a whole number: at least 1
                field["min"] = prop["exclusiveMinimum"] + 1
            if whole and "exclusiveMaximum" in prop:
                field["max"] = prop["exclusiveMaximum"] - 1
            field["step"] = 1 if whole else "any"
        else:
            field["kind"] = "text"
        fields.append(field)
    return fields


def options_from_form(game: GameSpec, form: dict[str, list[str]]) -> dict[str, Any]:
    """The options a lobby form sent (fields ``opt-<game>-<name>``; a checkbox sends a hidden
    "false" before its "true", so its last value counts). Values stay text: the game's
    ``Options`` model converts and checks them, and names a bad field."""
    options: dict[str, Any] = {}
    for field in option_fields(game):
        values = form.get(f"opt-{game.id}-{field['name']}")
        if values and values[-1] != "":
            options[field["name"]] = values[-1]
    return options


def options_chosen(game: GameSpec, options: dict[str, Any],
                   players: int | None = None) -> list[tuple[str, str]]:
    """A room's options as (label, value) for people to read (of a room of ``players``: only
    the options that apply at that count)."""
    chosen = []
    for field in option_fields(game, players):
        value = options.get(field["name"], field["default"])
        if field["kind"] == "checkbox":
            shown = N_("yes") if value else N_("no")
        elif field["kind"] == "select":
            shown = dict((str(v), label) for v, label in field["choices"]).get(str(value),
                                                                              str(value))
        else:
            shown = str(value)
        chosen.append((field["label"], shown))
    return chosen
