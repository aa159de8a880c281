"""``create_app()``: settings, database (migrated to head), services, routers, static files;
with several processes (PostgreSQL and Redis), the hub, the resync and the lease."""

from __future__ import annotations

import gc
import logging
import re
import sys
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from http import HTTPStatus
from pathlib import Path
from urllib.parse import unquote_plus

from alembic import command
from alembic.config import Config
from anyio import to_thread
from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from sqlalchemy import text
from sqlalchemy.engine import Engine
from sqlalchemy.exc import IntegrityError, OperationalError
from sqlalchemy.exc import TimeoutError as PoolTimeout
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.routing import Router, WebSocketRoute
from starlette.types import Receive, Scope, Send

from app import speedups
from app.config import Settings, get_settings
from app.db import Checkpointer, make_engine
from app.errors import ApiError
from app.games.registry import GAMES
from app.games.words import Msg
from app.guard import BodyTooLarge, Edge, RateLimits, SocketGate, too_large
from app.i18n import choose, say
from app.lobby import api as lobby_api
from app.lobby.cleanup import Cleanup, start_cleanup
from app.lobby.service import Lobby
from app.names import skeleton
from app.observe import Metrics, configure_logging, counted_error
from app.realtime.feed import Feeds
from app.realtime.sockets import game_socket
from app.rooms import api as rooms_api
from app.rooms import replay_api
from app.rooms.broadcast import RedisHub, Resync, hub_for
from app.rooms.lease import Lease, lease_for
from app.rooms.replay import Replays
from app.rooms.service import RoomService
from app.web import history, pages, seats
from app.web.live import html_socket
from app.web.render import APP_DIR, make_environments
from app.web.renders import Renders

ROOT = APP_DIR.parent
log = logging.getLogger("canopy")


#: Starlette's refusals that carry no words of ours, in words of ours.
HTTP_WORDS = {404: Msg("there is nothing here"), 405: Msg("this address does not take that method")}

#: The socket endpoints: the JSON protocol and the browsers' htmx feed.
SOCKET_ROUTES = Router(routes=[WebSocketRoute("/ws/rooms/{room_id}", game_socket),
                               WebSocketRoute("/ws/rooms/{room_id}/html", html_socket)])


SOCKETS_PAST_MIDDLEWARE = speedups.on("sockets")


class Canopy(FastAPI):
    """The app. Websocket connections go straight to :data:`SOCKET_ROUTES`, past the HTTP
    middleware stack (exception handlers, body limits): those layers serve requests, and a
    socket lives for hours, keeping a coroutine frame of each layer alive (12 KiB and 70
    objects for the cycle collector per socket) to do nothing for it."""

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "websocket" and SOCKETS_PAST_MIDDLEWARE:
            scope["app"] = self  # ``ws.app.state`` for the endpoints, as under FastAPI
            await SOCKET_ROUTES(scope, receive, send)
        else:
            await super().__call__(scope, receive, send)


class RedactTokens(logging.Filter):
    """Access logs never show a token passed as ``?token=`` (websocket clients may)."""

    def filter(self, record: logging.LogRecord) -> bool:
        if record.args and isinstance(record.args, tuple):
            record.args = tuple(redact_tokens(a) if isinstance(a, str) else a
                                for a in record.args)
        if isinstance(record.msg, str):
            record.msg = redact_tokens(record.msg)
        return True


#: One query parameter: separator, name (still URL-encoded), value.
QUERY_PARAM = re.compile(r"([?&;])([^=&;\s\"'?#]*)=([^&;\s\"'#]*)")


def redact_tokens(text: str) -> str:
    """Blank the value of every query parameter whose *decoded* name is ``token``: Starlette
    decodes names, so ``?%74oken=…`` authenticates as well as ``?token=…`` and must not reach
    the log either (a plain ``token=`` pattern let it through); any case, to be safe."""
    def blank(match: re.Match[str]) -> str:
        if unquote_plus(match.group(2)).strip().lower() != "token":
            return match.group(0)
        return f"{match.group(1)}{match.group(2)}=[redacted]"

    return QUERY_PARAM.sub(blank, text) if "=" in text else text


_gc_tuned = False

#: Full collections of CPython's cycle collector at most every this many gen-1 collections
#: (default 10). A full collection walks every live object — some 250 per open socket — and
#: stops the server for ~300 ms at 2000 sockets; every move promotes a few hundred short-lived
#: objects (the sockets' waiters for the next move) into the old generation, which with the
#: default made one happen every ~15 s at 500 moves/s. With 100: at most every ~2.5 minutes
#: there, and the rare cyclic garbage of closed sockets waits that long to be freed.
FULL_COLLECTION_EVERY = 100
#: A young collection after this many new container objects (default 700). A move allocates
#: thousands that die within it, but also some that live on for seconds: the room's new state
#: (until its next move), its log lines (200 moves). A young collection walks all of those, and
#: the middle one ten times as many: with 20,000 they paused the server 20-130 ms and 70-440 ms
#: (open loop, 1000 rooms: p99 55 ms); with 700 most moves paid for a collection and full ones
#: came often. 2,000 (measured 1,000 to 20,000): open loop p99 8.6 ms at 500 rooms, 23 ms at
#: 1000; Evergreen's CPU per move 3.1-3.6 ms with 700, 2.4-2.9 with 2,000 to 20,000.
YOUNG_COLLECTION_EVERY = 2_000


#: How long a thread holds the GIL while another waits for it (seconds; Python's default 5 ms).
#: Pages and replays are made in worker threads (app/web/renders.py): with the default, each
#: time the event loop wanted the GIL back it waited up to 5 ms behind a rendering thread, and
#: an innocent request needs it several times (bench/visitor.py: replays flood, /state median
#: 3 → 73 ms). 1 ms hands it back five times sooner; switches happen only under contention.
SWITCH_INTERVAL = 0.001


def tune_threads() -> None:
    """The loop gets the GIL back quickly from worker threads (``SWITCH_INTERVAL``)."""
    if speedups.on("switch-interval"):
        sys.setswitchinterval(SWITCH_INTERVAL)


def tune_gc() -> None:
    """Once per process, after the start: move every object alive now (modules, routes,
    templates, SQLAlchemy's tables — some 120k) out of reach of the cycle collector, since they
    live as long as the process anyway (a quarter less work per full collection at 500 rooms),
    and space the young and the full collections out (``YOUNG_COLLECTION_EVERY``,
    ``FULL_COLLECTION_EVERY``). Later apps in the same process (tests) change nothing."""
    global _gc_tuned
    if not _gc_tuned and speedups.on("gc"):
        _gc_tuned = True
        gc.collect()
        gc.freeze()
        _, middle, _ = gc.get_threshold()
        gc.set_threshold(YOUNG_COLLECTION_EVERY, middle, FULL_COLLECTION_EVERY)


def migrate(engine: Engine, revision: str = "head", *, down: bool = False) -> None:
    """Upgrade the database to the newest Alembic revision (``migrations/``), or to
    ``revision`` (``down``: back to it, as ``alembic downgrade`` does), in one transaction.

    On PostgreSQL the transaction first takes the migration lock (``migrations/env.py``,
    :func:`app.db.lock_for_migrations`): processes starting at once on one database migrate
    one after the other, and the later ones find it at head (a no-op).

    On SQLite, foreign keys are off while migrating: a column's type can only change there by
    copying the table (Alembic's batch mode), and dropping the old copy of a table that others
    reference would fail. They are checked again afterwards."""
    config = Config(str(ROOT / "alembic.ini"))
    config.set_main_option("script_location", str(ROOT / "migrations"))
    sqlite = engine.dialect.name == "sqlite"
    with engine.connect() as connection:
        if sqlite:
            connection.exec_driver_sql("PRAGMA foreign_keys=OFF")
            connection.commit()  # a PRAGMA ends SQLAlchemy's implicit transaction
        try:
            with connection.begin():
                config.attributes["connection"] = connection
                (command.downgrade if down else command.upgrade)(config, revision)
                if sqlite:
                    broken = connection.exec_driver_sql("PRAGMA foreign_key_check").fetchall()
                    if broken:
                        raise RuntimeError(f"the migration broke foreign keys: {broken[:5]}")
        finally:
            if sqlite:
                connection.exec_driver_sql("PRAGMA foreign_keys=ON")
                connection.commit()


def database_answers(engine: Engine) -> bool:
    """``SELECT 1`` on a connection of ``engine``: whether the database answers (the cause
    of a failure goes to the log, never to the caller)."""
    try:
        with engine.connect() as connection:
            connection.execute(text("SELECT 1"))
    except Exception as exc:
        log.warning("health check: the database does not answer: %s", exc)
        return False
    return True


class Timers:
    """What the process holding the lease runs (:mod:`app.rooms.lease`; one process always
    holds it): the bots and clocks of the room service, and the clean-up."""

    def __init__(self, engine: Engine, settings: Settings, rooms: RoomService) -> None:
        self.engine = engine
        self.settings = settings
        self.rooms = rooms
        self.cleanup: Cleanup | None = None

    async def gained(self) -> None:
        self.cleanup = start_cleanup(self.engine, self.settings)  # idle rooms and players
        await self.rooms.take_over()

    async def lost(self) -> None:
        await self.stop_cleanup()
        await self.rooms.step_down()

    async def stop_cleanup(self) -> None:
        if self.cleanup is not None:
            await self.cleanup.stop()
            self.cleanup = None


def create_app(settings: Settings | None = None) -> FastAPI:
    settings = settings or get_settings()
    configure_logging(settings.log_format)
    for name in ("uvicorn.access", "uvicorn.error"):
        logger = logging.getLogger(name)
        if not any(isinstance(f, RedactTokens) for f in logger.filters):
            logger.addFilter(RedactTokens())
    checkpoints = speedups.on("checkpoints")
    engine = make_engine(settings.database_url, settings, background_checkpoints=checkpoints)
    checkpointer = Checkpointer(engine) if checkpoints else None
    hub = hub_for(settings.broadcast_url, settings.resync_seconds)
    lease: Lease = lease_for(settings.database_url, settings.broadcast_url,
                             settings.lease_seconds)

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        """Migrate; then, with several processes, join the others (the hub, the resync) and
        try for the lease; the holder (one process: this one) runs the timers. A clean stop
        pauses the clocks (holder only) before it lets the lease go."""
        migrate(engine)
        if checkpointer is not None:
            checkpointer.start()
        rooms: RoomService = app.state.rooms
        resync: Resync | None = app.state.resync
        if isinstance(hub, RedisHub):
            await hub.start()
        if resync is not None:
            resync.start()
        timers = Timers(engine, settings, rooms)
        await lease.start(timers.gained, timers.lost)
        skeleton("Canopy")  # the confusables table (app/names.py), read before gc.freeze()
        tune_gc()
        tune_threads()
        yield
        if resync is not None:
            await resync.stop()
        await timers.stop_cleanup()
        await rooms.close()
        await lease.stop()
        if isinstance(hub, RedisHub):
            await hub.stop()
        if checkpointer is not None:
            await checkpointer.stop()
        engine.dispose()

    # /docs is app.web.pages.api_docs: Swagger UI pinned with SRI, no inline script.
    app = Canopy(title="Canopy", version="0.1.0", lifespan=lifespan, docs_url=None,
                 redoc_url=None,
                  description="Play modern board games with friends, in the browser or by API.")
    app.state.settings = settings
    app.state.engine = engine
    app.state.hub = hub
    app.state.sockets = SocketGate(settings)
    app.state.metrics = metrics = Metrics(engine, app.state.sockets.open_count)
    app.state.lease = lease
    app.state.rooms = rooms = RoomService(engine, hub, bot_delay=settings.bot_delay,
                                          games_cached=settings.games_cached, metrics=metrics,
                                          lease=lease,
                                          bot_table_idle=settings.bot_table_idle_minutes * 60)
    app.state.resync = None
    if isinstance(hub, RedisHub):  # the others' events: caches follow, the holder's timers
        hub.listeners.append(rooms.heard)
        app.state.resync = Resync(hub, rooms, settings.resync_seconds)
    app.state.lobby = Lobby(engine, app.state.rooms, max_open_rooms=settings.max_open_rooms,
                            max_running_rooms=settings.max_running_rooms,
                            list_seconds=settings.rooms_list_seconds)
    app.state.replays = Replays(engine)  # finished games, rebuilt for their replays
    app.state.feeds = feeds = Feeds(hub)

    def watching(room_id: int) -> bool:
        here = feeds.presence(room_id)
        return bool(here.players or here.anonymous)

    rooms.watching = watching  # a table of bots alone plays while someone looks
    app.state.envs = make_environments(settings)
    app.state.limits = RateLimits(settings)
    app.state.renders = Renders(app.state.limits, settings.render_threads)
    app.add_middleware(Edge, settings=settings)

    async def refusal(request: Request, exc: Exception) -> JSONResponse:
        """A refusal, its words in the caller's ``Accept-Language`` (machine fields as they
        are)."""
        error = counted_error(request.app.state, exc, f"{request.method} {request.url.path}")
        locale = choose([], request.headers.get("accept-language"))
        return JSONResponse(error.body(locale), status_code=error.status, headers=error.headers)

    for kind in (ApiError, IntegrityError, OperationalError, PoolTimeout):
        app.add_exception_handler(kind, refusal)

    def language(request: Request) -> str:
        """The language of a JSON answer's words: the caller's ``Accept-Language``."""
        return choose([], request.headers.get("accept-language"))

    @app.exception_handler(RequestValidationError)
    async def invalid(request: Request, exc: RequestValidationError) -> JSONResponse:
        """A request of the wrong shape: ``errors`` as FastAPI finds them (machine fields,
        pydantic's English), ``detail`` in the caller's language around them."""
        metrics.refused(422, "request format")
        problems = [{"loc": list(e.get("loc", ())), "msg": e.get("msg", "")} for e in exc.errors()]
        summary = "; ".join(f"{'.'.join(map(str, p['loc']))}: {p['msg']}" for p in problems)
        detail = say(Msg("invalid request: {problems}", {"problems": summary}), language(request))
        return JSONResponse({"detail": detail, "errors": problems}, status_code=422)

    @app.exception_handler(StarletteHTTPException)
    async def http_error(request: Request, exc: StarletteHTTPException) -> JSONResponse:
        """Starlette's own refusals (no such route, a method the route lacks, a body over the
        cap): the common ones in the caller's language."""
        known = HTTP_WORDS.get(exc.status_code)
        detail = exc.detail
        if isinstance(exc, BodyTooLarge):
            detail = say(too_large(exc.cap), language(request))
        elif known is not None and exc.detail == HTTPStatus(exc.status_code).phrase:
            detail = say(known, language(request))
        return JSONResponse({"detail": detail}, status_code=exc.status_code,
                            headers=getattr(exc, "headers", None))

    app.include_router(lobby_api.router)
    app.include_router(rooms_api.router)
    app.include_router(replay_api.router)
    app.include_router(pages.router)
    app.include_router(seats.router)
    app.include_router(history.router)
    app.router.routes.extend(SOCKET_ROUTES.routes)  # reached only with the "sockets" speed-up off

    vendor = Path(settings.npm_dir)
    vendored = {"htmx.min.js": vendor / "htmx.org/dist/htmx.min.js",
                "ws.min.js": vendor / "htmx-ext-ws/dist/ws.min.js"}

    @app.get("/static/vendor/{name}", include_in_schema=False)
    async def vendor_file(name: str) -> FileResponse:
        path = vendored.get(name)
        if path is None or not path.is_file():
            raise ApiError(404, Msg("{name} is not installed: run 'npm ci' for the local htmx "
                                    "copy", {"name": name}))
        return FileResponse(path, media_type="text/javascript")

    for game_id, game in GAMES.items():  # each game's own stylesheet and images
        game_static = game.folder / "static"
        if game_static.is_dir():
            app.mount(f"/static/games/{game_id}", StaticFiles(directory=game_static))
    app.mount("/static", StaticFiles(directory=APP_DIR / "static"), name="static")

    @app.get("/healthz", include_in_schema=False)
    async def healthz(request: Request) -> JSONResponse:
        """200 while the database answers ``SELECT 1``, else 503 (compose's health check)."""
        if await to_thread.run_sync(database_answers, request.app.state.engine):
            return JSONResponse({"status": "ok"})
        return JSONResponse({"status": "unavailable",
                             "detail": "the database does not answer"}, status_code=503)

    @app.get("/metrics", include_in_schema=False)
    async def prometheus_metrics() -> Response:
        """Prometheus' text format (app.observe). For the operators' scraper only: the
        reverse proxy must not route it (README, Hosting in public)."""
        body, content_type = await to_thread.run_sync(metrics.render)
        return Response(body, headers={"Content-Type": content_type})

    return app


def app_factory() -> FastAPI:
    """For ``uvicorn --factory app.main:app_factory``."""
    return create_app()
