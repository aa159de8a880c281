"""The one error type services raise, and the one mapping from any failure to what a client is
told (DESIGN.md §3.4: 401 identity, 403 not yours, 404 unknown, 409 stale or wrong phase,
422 illegal, 503 busy). The JSON API, the sockets and the pages all answer through
:func:`error_of`."""

from __future__ import annotations

import logging
from typing import Any

from sqlalchemy.exc import IntegrityError, OperationalError
from sqlalchemy.exc import TimeoutError as PoolTimeout

from app.games.words import Msg
from app.i18n import DEFAULT, say

log = logging.getLogger("canopy")


class ApiError(Exception):
    """A refusal: its status, its words (a :class:`Msg`, shown in the reader's language; plain
    text is a message id too) and machine fields (``rule``, ``version`` …). ``names`` and
    ``reader`` fill the players of a game's refusal ("waiting for {p1}")."""

    def __init__(self, status: int, detail: Msg | str, *, headers: dict[str, str] | None = None,
                 names: list[str] | None = None, reader: int | None = None,
                 **extra: Any) -> None:
        self.msg = detail
        self.names = names
        self.reader = reader
        self.detail = self.text()
        super().__init__(self.detail)
        self.status = status
        self.headers = headers
        self.extra = extra

    def text(self, locale: str = DEFAULT) -> str:
        """The refusal's words in ``locale``."""
        return say(self.msg, locale, self.names, self.reader)

    def body(self, locale: str = DEFAULT) -> dict[str, Any]:
        return {"detail": self.text(locale), **self.extra}


def error_of(exc: Exception, where: str) -> ApiError:
    """What to tell the client about ``exc``, raised while serving ``where``: refusals as
    they are, a conflicting write as 409, a busy database as 503, anything else (a bug) as a
    500 whose cause goes to the log, never to the client."""
    if isinstance(exc, ApiError):
        return exc
    if isinstance(exc, IntegrityError):
        return ApiError(409, Msg("a conflicting change was saved first; try again"))
    if isinstance(exc, OperationalError | PoolTimeout):  # locked, or no pooled connection
        log.warning("database busy on %s: %s", where, exc)
        return ApiError(503, Msg("the database is busy; try again"))
    log.error("%s failed", where, exc_info=exc)
    return ApiError(500, Msg("the server failed to handle that request"))
