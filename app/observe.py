"""What operators see of the server: its Prometheus metrics and the format of its logs.

The metrics live in a :class:`Metrics` made once per app (``app.state.metrics``), on a registry
of its own (never prometheus_client's global one: tests make many apps in one process).
``GET /metrics`` renders them in Prometheus' text format:

- ``canopy_moves_total{game}``: moves committed, per game (``rate()`` of it: moves/s);
- ``canopy_move_seconds``: a move's life, from the call to the commit's answer (histogram);
- ``canopy_refusals_total{status,rule}``: requests, socket messages and forms refused, by
  HTTP status and the rule the refusal cites ("" when none);
- ``canopy_open_sockets``: websockets open now (both kinds), read when scraped;
- ``canopy_rooms{status}``: rooms in the lobby, playing and finished, counted when scraped.

:func:`configure_logging` makes the logs one JSON object per line (``LOG_FORMAT=json``).
"""

from __future__ import annotations

import json
import logging
import sys
from collections.abc import Callable, Iterator
from datetime import UTC, datetime
from typing import Any, TextIO

from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram, generate_latest
from prometheus_client.core import GaugeMetricFamily
from prometheus_client.exposition import CONTENT_TYPE_LATEST
from prometheus_client.registry import Collector
from sqlalchemy import text
from sqlalchemy.engine import Engine

from app.errors import ApiError, error_of

log = logging.getLogger("canopy")

#: A move's life takes ~1 ms on an idle server (one commit of SQLite's WAL) and grows with
#: the queue at the writer; beyond a second something is wrong.
MOVE_BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0)

#: The statuses a room has (app.models.Room.status); each is always reported, 0 when none.
ROOM_STATUSES = ("lobby", "playing", "finished")
ROOMS_BY_STATUS = text("SELECT status, COUNT(*) FROM room GROUP BY status")

#: Label values of ``canopy_refusals_total`` stay a bounded set whatever happens: the rules are
#: the games' fixed vocabulary and statuses are HTTP codes, but should a rule ever carry
#: something variable, a rule is cut to this length and new pairs beyond this many are
#: counted as rule "other".
RULE_MAX_CHARS = 80
REFUSAL_SERIES_MAX = 500


class RoomsByStatus(Collector):
    """``canopy_rooms{status}``, from one ``GROUP BY`` over the indexed status column at
    each scrape. A database that does not answer leaves the family empty for that scrape
    (the other metrics are still served; ``/healthz`` says what is wrong)."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine

    def describe(self) -> Iterator[GaugeMetricFamily]:
        yield self._family()

    def collect(self) -> Iterator[GaugeMetricFamily]:
        family = self._family()
        try:
            with self.engine.connect() as connection:
                counts = {str(status): int(n)
                          for status, n in connection.execute(ROOMS_BY_STATUS)}
        except Exception as exc:
            log.warning("metrics: rooms not counted, the database does not answer: %s", exc)
            yield family
            return
        for status in ROOM_STATUSES:
            family.add_metric([status], counts.pop(status, 0))
        for status, n in sorted(counts.items()):
            family.add_metric([status], n)
        yield family

    @staticmethod
    def _family() -> GaugeMetricFamily:
        return GaugeMetricFamily("canopy_rooms", "Rooms by status (lobby, playing, finished).",
                                 labels=["status"])


class Metrics:
    """The app's metrics and the hooks the other modules call (each a few dict lookups)."""

    def __init__(self, engine: Engine | None = None,
                 open_sockets: Callable[[], int] | None = None) -> None:
        self.registry = CollectorRegistry()
        self.moves = Counter("canopy_moves", "Moves committed, per game.", ["game"],
                             registry=self.registry)
        self.move_seconds = Histogram(
            "canopy_move_seconds", "A move's life, from the call to the commit's answer.",
            buckets=MOVE_BUCKETS, registry=self.registry)
        self.refusals = Counter(
            "canopy_refusals", "Refused requests, socket messages and forms, by HTTP status "
            "and the rule cited (\"\" when none).", ["status", "rule"], registry=self.registry)
        self.open_sockets = Gauge("canopy_open_sockets", "Websockets open now.",
                                  registry=self.registry)
        if open_sockets is not None:
            # Called in the scrape's worker thread: SocketGate.open_count is one sum() over a
            # dict's values, which the event loop cannot change half-way (no bytecode runs).
            self.open_sockets.set_function(open_sockets)
        if engine is not None:
            self.registry.register(RoomsByStatus(engine))
        # The labelled children, looked up once: the move hook runs on every move.
        self._moves_of: dict[str, Any] = {}
        self._refusals_of: dict[tuple[int, str], Any] = {}

    def move_played(self, game_id: str, seconds: float) -> None:
        """A move of ``game_id`` was committed ``seconds`` after it was called."""
        counter = self._moves_of.get(game_id)
        if counter is None:
            counter = self._moves_of[game_id] = self.moves.labels(game=game_id)
        counter.inc()
        self.move_seconds.observe(seconds)

    def refused(self, status: int, rule: Any = None) -> None:
        """A refusal (or a failure) answered with ``status``, citing ``rule`` if any."""
        rule = rule[:RULE_MAX_CHARS] if isinstance(rule, str) else ""
        key = (status, rule)
        counter = self._refusals_of.get(key)
        if counter is None:
            if rule and len(self._refusals_of) >= REFUSAL_SERIES_MAX:
                key = (status, "other")
                counter = self._refusals_of.get(key)
            if counter is None:
                counter = self._refusals_of[key] = self.refusals.labels(
                    status=str(status), rule=key[1])
        counter.inc()

    def render(self) -> tuple[bytes, str]:
        """The metrics in Prometheus' text format, and its content type. Queries the database
        (the rooms): call it off the event loop."""
        return generate_latest(self.registry), CONTENT_TYPE_LATEST


def counted_error(state: Any, exc: Exception, where: str) -> ApiError:
    """:func:`app.errors.error_of` — what to tell the client — counted in the app's
    ``canopy_refusals_total``. ``state`` is the app's ``state`` (``request.app.state``,
    ``ws.app.state``); an app without metrics counts nothing."""
    error = error_of(exc, where)
    metrics: Metrics | None = getattr(state, "metrics", None)
    if metrics is not None:
        metrics.refused(error.status, error.extra.get("rule"))
    return error


# -- logs ------------------------------------------------------------------------------------


class JsonLines(logging.Formatter):
    """One JSON object per record: time (UTC, ISO 8601), level, logger, message and, when
    there is one, the exception with its traceback as text. The message is formatted after the
    loggers' filters ran (``app.main.RedactTokens`` blanks tokens before any handler)."""

    def format(self, record: logging.LogRecord) -> str:
        entry: dict[str, Any] = {
            "time": datetime.fromtimestamp(record.created, UTC).isoformat(
                timespec="milliseconds"),
            "level": record.levelname,
            "logger": record.name,
            "message": record.getMessage(),
        }
        if record.exc_info:
            entry["exc_info"] = self.formatException(record.exc_info)
        elif record.exc_text:
            entry["exc_info"] = record.exc_text
        if record.stack_info:
            entry["stack_info"] = self.formatStack(record.stack_info)
        return json.dumps(entry, default=str)


class JsonHandler(logging.StreamHandler[TextIO]):
    """The handler :func:`configure_logging` adds to the root logger when it has none (the
    usual case under uvicorn, whose own loggers do not propagate)."""


#: The loggers uvicorn writes to through handlers of its own (its dictConfig).
UVICORN_LOGGERS = ("uvicorn", "uvicorn.error", "uvicorn.access")


def configure_logging(log_format: str) -> None:
    """``"json"``: every handler of the uvicorn loggers, and the root logger's console
    handlers, write one JSON object per line; the root logger gets one on stderr if it has
    none, so the app's own loggers (``canopy.*``) are JSON too. Levels are not changed.
    ``"text"``: logging is left as it is. Safe to call again (a later app, the tests)."""
    if log_format != "json":
        return
    formatter = JsonLines()
    for name in UVICORN_LOGGERS:
        for handler in logging.getLogger(name).handlers:
            handler.setFormatter(formatter)
    root = logging.getLogger()
    # Plain console and file handlers only: others (a test runner's capture) keep their own.
    consoles = [h for h in root.handlers
                if type(h) in (logging.StreamHandler, logging.FileHandler, JsonHandler)]
    if not consoles:
        consoles = [JsonHandler(sys.stderr)]
        root.addHandler(consoles[0])
    for handler in consoles:
        handler.setFormatter(formatter)
