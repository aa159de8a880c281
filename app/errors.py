"""The one error type services raise; the API turns it into ``{"detail": ...}`` with its status
(DESIGN.md §3.4: 401 identity, 403 not yours, 404 unknown, 409 stale or wrong phase,
422 illegal)."""

from __future__ import annotations

from typing import Any


class ApiError(Exception):
    def __init__(self, status: int, detail: str, **extra: Any) -> None:
        super().__init__(detail)
        self.status = status
        self.detail = detail
        self.extra = extra

    def body(self) -> dict[str, Any]:
        return {"detail": self.detail, **self.extra}
