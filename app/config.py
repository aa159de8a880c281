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
    #: The broadcast backend between room service and sockets (one process: memory://).
    broadcast_url: str = "memory://"
    #: Seconds a bot waits before moving, so that people can follow it (0 in tests).
    bot_delay: float = 0.6
    #: Games kept in memory; beyond that the least recently used are dropped and rebuilt
    #: from the database when next used.
    games_cached: int = 2000
    #: Largest websocket message a client may send, in bytes.
    ws_max_message: int = 16_384
    #: Messages per second a websocket client may send (burst = twice that).
    ws_rate: float = 20.0
    #: Where ``npm ci`` put htmx.org and htmx-ext-ws (served when HTMX_SOURCE=local).
    npm_dir: str = "node_modules"
    #: Set the cookie's Secure flag (behind HTTPS).
    cookie_secure: bool = False


@lru_cache
def get_settings() -> Settings:
    return Settings()
