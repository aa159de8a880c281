"""The speed-ups that the benchmarks measured, each a seam that ``bench/ablate.py`` can take
back: ``CANOPY_SPEEDUPS_OFF=diff,gc`` (read once, when the server starts) runs the plain way
instead. Nothing but the benchmarks sets it; README §Performance gives what each one saves.
"""

from __future__ import annotations

import os

#: Each speed-up and what it does instead of the plain way.
SPEEDUPS = {
    "sockets": "sockets served past the HTTP middleware stack (app.main.Canopy)",
    "group-commit": "group commit: moves that arrive together share one transaction",
    "plain-sql": "pre-built SQL statements for a move, not an ORM session",
    "driver-sql": "on SQLite, a move's statements run on the driver, past SQLAlchemy's execution",
    "token-cache": "token → player cache: no query per request or socket",
    "shared-patches": "patch messages computed once per seat and version",
    "diff": "structural view diff, not jsonpatch.make_patch",
    "view-equality": "the view diff skips equal parts by ==, not also their marshal bytes",
    "compact-json": "compact JSON without the circular-reference check",
    "checkpoints": "the WAL checkpointed every second in a thread, not by the commit that fills it",
    "gc": "gc.freeze() after start-up, young collections 3× and full ones 10× rarer",
    "switch-interval": "worker threads hand the GIL back to the event loop after 1 ms, not 5",
}

OFF = frozenset(name.strip() for name in os.environ.get("CANOPY_SPEEDUPS_OFF", "").split(",")
                if name.strip())
if OFF - set(SPEEDUPS):
    raise ValueError(f"CANOPY_SPEEDUPS_OFF names no speed-up: {sorted(OFF - set(SPEEDUPS))}")


def on(name: str) -> bool:
    """Whether the speed-up ``name`` is in use (always, but in an ablation)."""
    if name not in SPEEDUPS:
        raise KeyError(name)
    return name not in OFF
