"""HTML that costs real time to make — a game's table, a replay's step — made off the event
loop, kept by what it shows, and budgeted per address.

The event loop only routes: one Evergreen table takes tens of milliseconds of template work,
and rendered on the loop it delayed every other request of the process by as much (issue
28). :class:`Renders` makes such HTML in worker threads, at most ``threads`` at once, and keeps
it in an LRU keyed by what it shows — (room, version, seating, seat, language) for a table,
(room, version, seat, language) for a replay step: a finished game never changes, and a table
changes only with its version or its seating. A hit costs nothing; a miss is charged to the
reader's address (``RATE_RENDERS``: 429 past it), so one visitor cannot keep the workers busy
for everyone. The same miss asked twice at once is made once. A whole page made from kept
parts is kept too (:meth:`keep`), for the same reader within the same second: a page
reloaded in a loop costs one dictionary look-up.
"""

from __future__ import annotations

import asyncio
from collections import OrderedDict
from collections.abc import Callable, Hashable
from typing import Any, TypeVar

from anyio import CapacityLimiter, to_thread
from starlette.types import Scope

from app.guard import RENDERS, RateLimits

#: Rendered parts kept (a table's part is ~100 KB at most: a bounded few tens of MB).
KEPT = 400

T = TypeVar("T")


class Renders:
    """Rendered HTML by key, made in worker threads (module docstring)."""

    def __init__(self, limits: RateLimits, threads: int = 2, kept: int = KEPT) -> None:
        self.limits = limits
        self.size = kept
        self.limiter = CapacityLimiter(threads)
        self._kept: OrderedDict[Hashable, Any] = OrderedDict()
        self._making: dict[Hashable, asyncio.Future[Any]] = {}
        #: Misses made since the start (for tests and /metrics-style checks).
        self.made = 0

    def kept(self, key: Hashable) -> Any:
        """What is kept under ``key`` (None: nothing)."""
        if key not in self._kept:
            return None
        self._kept.move_to_end(key)
        return self._kept[key]

    def keep(self, key: Hashable, value: Any) -> None:
        """Keep ``value`` (made on the loop from kept parts: a whole page) under ``key``."""
        self._kept[key] = value
        while len(self._kept) > self.size:
            self._kept.popitem(last=False)

    async def get(self, key: Hashable, make: Callable[[], T], scope: Scope) -> T:
        """What is kept under ``key``, else ``make()`` run in a worker thread (charged to the
        address of ``scope``: :class:`ApiError` 429 past its budget) and kept."""
        if key in self._kept:
            self._kept.move_to_end(key)
            known: T = self._kept[key]
            return known
        pending = self._making.get(key)
        if pending is not None:  # the same part is being made for someone else
            shared: T = await asyncio.shield(pending)
            return shared
        self.limits.hit("renders", scope, RENDERS)
        future: asyncio.Future[T] = asyncio.get_running_loop().create_future()
        self._making[key] = future
        try:
            html = await to_thread.run_sync(make, limiter=self.limiter)
        except BaseException as exc:
            if isinstance(exc, asyncio.CancelledError):
                future.cancel()
            else:
                future.set_exception(exc)
                future.exception()  # retrieved: nobody else may be waiting
            raise
        finally:
            del self._making[key]
        future.set_result(html)
        self.made += 1
        self.keep(key, html)
        return html
