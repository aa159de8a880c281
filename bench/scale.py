"""Scale-out figures: one process on SQLite beside one and two processes on PostgreSQL + Redis,
in one run (``bench/load.py``'s closed or open loop of Arboretum rooms over websockets).

    .venv/bin/python bench/scale.py                      # closed loop, 20 rooms, ~3 minutes
    .venv/bin/python bench/scale.py --mode open --rooms 200 --runs 2 --json scale.jsonl

A real PostgreSQL and a real Redis from Debian's packages are started for the run in temporary
folders (``tests/engines.py``): PostgreSQL with ``synchronous_commit=off`` — a commit waits
for no disk flush, like SQLite's WAL with ``synchronous=NORMAL`` that the embedded default
uses (an app process killed loses nothing either way; the database's own crash may lose the
last fraction of a second in both). Every server process, PostgreSQL and Redis run on CPU 0;
this process, the load generator, on CPU 1. Two processes are measured twice: with each
room kept whole on one process (as the compose proxy routes a room's requests and sockets,
by a hash of its id) and with each room's four seats spread over both (seats 0 and 2 on one,
1 and 3 on the other: every move crosses processes through Redis, the worst case).

Printed per configuration (medians over ``--runs``): moves/s, p50/p99 latency (a move sent to
all four seats holding its patch), the app processes' CPU per move, PostgreSQL's and Redis's
CPU per move, and their total — the measure of how the design scales with cores: the issue's
target is two processes at most 1.2x one process's total CPU per move.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import statistics
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench import load  # noqa: E402
from tests.engines import start_postgres, start_redis  # noqa: E402

#: What each figure is called in the table, and its key in a load.py result.
COLUMNS = [("moves/s", "moves_per_s"), ("p50 ms", "p50_ms"), ("p99 ms", "p99_ms"),
           ("app CPU ms/move", "server_cpu_ms_per_move"),
           ("PG+Redis CPU ms/move", "engines_cpu_ms_per_move"),
           ("total CPU ms/move", "total_cpu_ms_per_move"), ("errors", "error_count")]


async def one_run(base: list[str], label: str, processes: int, spread: str,
                  database_url: str | None, broadcast_url: str | None,
                  engine_pids: Any) -> dict[str, Any]:
    opts = load.parse([*base, "--label", label, "--processes", str(processes),
                       "--spread", spread])
    opts.database_url, opts.broadcast_url = database_url, broadcast_url
    opts.engine_pids = engine_pids
    result = await load.run(opts)
    result["error_count"] = sum(result["errors"].values()) + result["stale_patches"] \
        + result["timeouts"] + result["server_error_lines"]
    return result


def median_row(results: list[dict[str, Any]]) -> dict[str, Any]:
    row = {"label": results[0]["label"]}
    for _, key in COLUMNS:
        values = [r[key] for r in results if r.get(key) is not None]
        row[key] = statistics.median(values) if values else None
    return row


def table(rows: list[dict[str, Any]]) -> str:
    head = ["configuration", *(name for name, _ in COLUMNS)]
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for row in rows:
        cells = [row["label"], *(f"{row[key]:g}" if row[key] is not None else "—"
                                 for _, key in COLUMNS)]
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines)


async def main_async(args: argparse.Namespace) -> list[dict[str, Any]]:
    base = ["--mode", args.mode, "--rooms", str(args.rooms), "--warmup", str(args.warmup),
            "--measure", str(args.measure)]
    if args.mode == "open":
        base += ["--rate", str(args.rate)]
    postgres = start_postgres(cpu=0, fsync="on", full_page_writes="on",
                              synchronous_commit="off", max_connections="200")
    redis = start_redis(cpu=0)
    assert redis.proc is not None
    redis_pid = redis.proc.pid

    def engine_pids() -> list[int]:
        return [*postgres.pids(), redis_pid]

    configurations = [
        ("SQLite, 1 process", 1, "seats", None, None, None),
        ("PostgreSQL + Redis, 1 process", 1, "seats", "pg", redis.url, engine_pids),
        ("PostgreSQL + Redis, 2 processes, rooms kept whole", 2, "rooms", "pg", redis.url,
         engine_pids),
        ("PostgreSQL + Redis, 2 processes, seats spread", 2, "seats", "pg", redis.url,
         engine_pids),
    ]
    results: dict[str, list[dict[str, Any]]] = {label: [] for label, *_ in configurations}
    try:
        for run in range(args.runs):  # interleaved: the machine's drift hits each alike
            for label, processes, spread, database, broadcast, pids in configurations:
                url = postgres.fresh("bench") if database == "pg" else None
                print(f"# run {run + 1}: {label}", flush=True)
                result = await one_run(base, label, processes, spread, url, broadcast, pids)
                results[label].append(result)
                if args.json:
                    with open(args.json, "a") as f:
                        f.write(json.dumps(result) + "\n")
    finally:
        postgres.stop()
        redis.stop()
    return [median_row(results[label]) for label, *_ in configurations]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--mode", choices=("closed", "open"), default="closed")
    parser.add_argument("--rooms", type=int, default=20)
    parser.add_argument("--rate", type=float, default=1.0, help="open loop: moves/s per room")
    parser.add_argument("--warmup", type=float, default=3.0)
    parser.add_argument("--measure", type=float, default=15.0)
    parser.add_argument("--runs", type=int, default=1, help="runs of each configuration")
    parser.add_argument("--json", default=None, help="append every result to this file")
    args = parser.parse_args(argv)
    with contextlib.suppress(OSError, AttributeError):
        if (os.cpu_count() or 1) > 1:
            os.sched_setaffinity(0, {1})
    rows = asyncio.run(main_async(args))
    print(table(rows))
    one = rows[1]["total_cpu_ms_per_move"]
    for row in rows[2:]:
        if one and row["total_cpu_ms_per_move"]:
            print(f"# {row['label']}: {row['total_cpu_ms_per_move'] / one:.2f}x one process's "
                  f"total CPU per move (target: at most 1.2x)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
