"""Settings from the environment (pydantic-settings); see the README's configuration table."""

from __future__ import annotations

from functools import lru_cache
from typing import Literal

from pydantic_settings import BaseSettings, SettingsConfigDict


class Settings(BaseSettings):
    model_config = SettingsConfigDict(env_file=".env", extra="ignore")

    #: Where games are stored. SQLite (WAL) is the embedded default.
    database_url: str = "sqlite:///./data/canopy.db"
    #: Signs nothing secret today; reserved for signed invite links. Change it in production.
    secret_key: str = "change-me"
    #: Where browsers load htmx from: its CDN (pinned, with SRI) or the local npm copy.
    htmx_source: Literal["cdn", "local"] = "cdn"
    #: PostgreSQL's connection pool per process (SQLAlchemy's QueuePool; unused on SQLite):
    #: connections kept open, extra ones allowed at a peak, seconds to wait for one, and
    #: seconds after which a connection is replaced.
    db_pool_size: int = 10
    db_max_overflow: int = 10
    db_pool_timeout: float = 10.0
    db_pool_recycle: int = 1800
    #: The broadcast backend between room service and sockets: memory:// (one process) or
    #: redis://host:port/db (several processes, Redis pub/sub).
    broadcast_url: str = "memory://"
    #: With several processes: how often (seconds) each compares the versions of the rooms it
    #: serves with the database, so that a lost broadcast never leaves a page stale.
    resync_seconds: float = 5.0
    #: With several processes: how often (seconds) a process not running the bots and clocks
    #: tries to take them over (a PostgreSQL advisory lock held by one process at a time).
    lease_seconds: float = 2.0
    #: Seconds a bot waits before moving, so that people can follow it (0 in tests).
    bot_delay: float = 0.6
    #: Games kept in memory; beyond that the least recently used are dropped and rebuilt
    #: from the database when next used.
    games_cached: int = 2000
    #: Largest websocket message a client may send, in bytes.
    ws_max_message: int = 16_384
    #: Messages per second a websocket client may send (burst = twice that).
    ws_rate: float = 20.0
    #: Seconds between two full resyncs of one JSON socket (a resync answers the whole view:
    #: sooner is a 429 error frame with ``retry_after``; a resync from the present is free).
    ws_resync_seconds: float = 1.0
    #: A table's page asks its socket "ping" after this many seconds without a message and
    #: shows the connection banner (and opens a new socket) after a little over twice that
    #: without an answer: a network gone quiet is noticed within 5 s at the default.
    ws_heartbeat_seconds: float = 2.0
    #: Where ``npm ci`` put htmx.org and htmx-ext-ws (served when HTMX_SOURCE=local).
    npm_dir: str = "node_modules"
    #: Set the cookie's Secure flag (behind HTTPS); also sends HSTS.
    cookie_secure: bool = False
    #: The address people use to reach the server, scheme, host and port
    #: ("https://games.example.org"): cookie-borne requests and socket handshakes must come
    #: from it, and invite links are built from it. Unset: the address of each request.
    public_origin: str | None = None
    #: Take the client's address from the first X-Forwarded-For entry (behind a reverse proxy
    #: that sets it; never when clients reach the server directly).
    trust_forwarded: bool = False
    #: The largest request body, in bytes (413 beyond, before it is read whole).
    max_body_bytes: int = 65_536
    #: Sockets one player, and one address, may hold open at once.
    ws_per_player: int = 16
    ws_per_address: int = 64
    #: Requests per address (the ``limits`` library's notation: "10/minute", "100/hour").
    rate_signups: str = "20/minute"
    rate_rooms: str = "20/minute"
    rate_joins: str = "60/minute"
    rate_wrong_codes: str = "10/minute"
    #: Pages that must be rendered anew (not kept rendered: a table at a new version, a
    #: replay step nobody asked for lately) per address (app/web/renders.py).
    rate_renders: str = "120/minute"
    #: Worker threads that render pages, at most (never the event loop).
    render_threads: int = 2
    #: HTTP requests of one address served at once; more wait their turn (0: no limit).
    requests_per_address: int = 1
    #: Socket handshakes per address, both sockets together (refused with a 429 before the
    #: socket is accepted).
    rate_handshakes: str = "120/minute"
    #: Seconds a connection may take to send a request's line and headers (from its first
    #: byte, or from the connection's start), and then its body; past either it is closed
    #: (the body's, with a 408 when nothing was answered yet). Enforced by the HTTP protocol
    #: of app/serving.py, i.e. when the server is started with ``python -m app.serving``.
    header_timeout: float = 10.0
    body_timeout: float = 30.0
    #: The largest request line and headers, in bytes (431 and a close beyond; httptools,
    #: uvicorn's parser, has no limit of its own). Enforced where the timeouts are.
    max_header_bytes: int = 32_768
    #: Games started per address (the host's start of a room).
    rate_starts: str = "30/hour"
    #: Rooms waiting for their start that one player may host at once.
    max_open_rooms: int = 3
    #: Games in progress (rooms playing) that one player may host at once.
    max_running_rooms: int = 10
    #: Minutes a table with no person seated (bots only) plays on while no page of it is
    #: open and nobody reads its state; then its bots wait until someone looks (0: never).
    bot_table_idle_minutes: float = 10.0
    #: Seconds the public list of rooms is kept between changes (0: read every time).
    rooms_list_seconds: float = 1.0
    #: "json": one JSON object per log line (for log collectors); "text" otherwise.
    log_format: Literal["text", "json"] = "text"
    #: Rooms never started are removed after this many hours without a change.
    room_idle_hours: float = 24.0
    #: Players with no seat in any room are removed this many days after they last joined one
    #: (or were created).
    player_idle_days: float = 90.0
    #: How often the clean-up runs, in minutes (0: never).
    cleanup_every_minutes: float = 30.0


@lru_cache
def get_settings() -> Settings:
    return Settings()
