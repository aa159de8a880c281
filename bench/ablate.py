"""What each performance change is worth: the load benchmark against the current code with
one speed-up taken back at a time (an ablation), and against an earlier commit (before/after),
in one session.

    .venv/bin/python bench/ablate.py                      # every ablation, 2 runs, ~25 minutes
    .venv/bin/python bench/ablate.py --only gc,diff --runs 1
    .venv/bin/python bench/ablate.py --only none --against 7aa4a46   # before/after a change
    .venv/bin/python bench/ablate.py --table ablate.jsonl # the table of earlier runs

Each speed-up is a seam of the app (:mod:`app.speedups`): the server runs with
``CANOPY_SPEEDUPS_OFF=<name>`` instead of a copy of its code. "all" takes back every one at
once; ``--against REV`` adds a ``git worktree`` of that commit as the "before" row. Every
configuration runs ``bench/load.py`` in two shapes — closed loop 20 rooms (throughput, CPU per
move) and open loop 500 rooms x 1 move/s (p99, memory per socket; with ``--game evergreen``
100 rooms) — and the runs interleave (current, each ablation, current, ...), so that the
machine's drift hits all alike. The table gives the median of the runs per configuration and
the change against the current code ("Δ CPU" > 0: the change saves that much CPU per move).
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from app.speedups import SPEEDUPS

ROOT = Path(__file__).resolve().parent.parent
LOAD = ROOT / "bench" / "load.py"
#: The shapes of each game (``--game``): closed loop 20 rooms, and an open loop one core carries.
SHAPES = {"arboretum": (("closed", 20), ("open", 500)),
          "evergreen": (("closed", 20), ("open", 100))}


@dataclass(frozen=True)
class Ablation:
    name: str
    takes_back: str
    #: the speed-ups switched off (``CANOPY_SPEEDUPS_OFF``)
    off: tuple[str, ...] = ()
    #: extra bench/load.py arguments
    load_args: tuple[str, ...] = field(default=())
    #: the code to serve (default: this checkout)
    server_dir: Path = ROOT


ABLATIONS = (
    Ablation("deflate", "server refuses permessage-deflate (uvicorn accepts it by default)",
             load_args=("--deflate",)),
    *(Ablation(name, what, (name,)) for name, what in SPEEDUPS.items()),
)
CURRENT = Ablation("current", "(nothing: the code as committed)")
EVERYTHING = Ablation("all", "all of the above at once", tuple(SPEEDUPS), ("--deflate",))


def worktree(rev: str, parent: Path) -> Path:
    """A checkout of ``rev`` beside this one."""
    path = parent / rev.replace("/", "_")
    subprocess.run(["git", "worktree", "add", "--detach", "-f", str(path), rev], cwd=ROOT,
                   check=True, capture_output=True)
    return path


def run_load(ablation: Ablation, mode: str, rooms: int, run: int,
             args: argparse.Namespace, out: Path) -> None:
    scratch = out.with_suffix(".one")
    scratch.unlink(missing_ok=True)
    command = [sys.executable, str(LOAD), "--mode", mode, "--rooms", str(rooms),
               "--measure", str(args.measure), "--server-dir", str(ablation.server_dir),
               "--label", ablation.name, "--json", str(scratch), "--game", args.game,
               *ablation.load_args]
    env = {**os.environ, "CANOPY_SPEEDUPS_OFF": ",".join(ablation.off)}
    print(f"# run {run}: {ablation.name} {args.game} {mode} {rooms}", flush=True)
    done = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=600,
                          env=env)
    if done.returncode != 0 or not scratch.exists():
        print(f"#   failed: {done.stderr[-600:]}", flush=True)
        return
    result = json.loads(scratch.read_text().splitlines()[-1])
    result["run"] = run
    with out.open("a") as f:
        f.write(json.dumps(result) + "\n")
    scratch.unlink()


def table(path: Path) -> str:
    rows: dict[tuple[str, str, int], list[dict[str, Any]]] = {}
    for line in path.read_text().splitlines():
        result = json.loads(line)
        rows.setdefault((result["label"], result["mode"], result["rooms"]), []).append(result)

    def median(label: str, mode: str, rooms: int, key: str) -> float | None:
        values = [r[key] for r in rows.get((label, mode, rooms), []) if r.get(key) is not None]
        return statistics.median(values) if values else None

    def fmt(value: float | None, digits: int = 1) -> str:
        return "—" if value is None else f"{value:.{digits}f}"

    base_cpu = median("current", "closed", 20, "server_cpu_ms_per_move")
    n = max((rooms for _, mode, rooms in rows if mode == "open"), default=500)
    base_cpu_open = median("current", "open", n, "server_cpu_ms_per_move")
    lines = ["| taken back | runs | closed 20: moves/s | p99 ms | CPU ms/move | Δ CPU "
             f"| open {n}: p99 ms | max ms | CPU ms/move | Δ CPU | KiB/conn |",
             "|---|---|---|---|---|---|---|---|---|---|---|"]
    by_name = {a.name: a for a in (CURRENT, *ABLATIONS, EVERYTHING)}
    by_name["before"] = Ablation("before", "(an earlier commit)")
    labels = sorted({label for label, _, _ in rows},
                    key=lambda n: list(by_name).index(n) if n in by_name else 99)
    for label in labels:
        runs = len(rows.get((label, "closed", 20), []))
        cpu = median(label, "closed", 20, "server_cpu_ms_per_move")
        cpu_open = median(label, "open", n, "server_cpu_ms_per_move")
        delta = None if cpu is None or base_cpu is None else cpu - base_cpu
        delta_open = None if cpu_open is None or base_cpu_open is None else \
            cpu_open - base_cpu_open
        what = by_name[label].takes_back if label in by_name else label
        lines.append(
            f"| {label}: {what} | {runs} "
            f"| {fmt(median(label, 'closed', 20, 'moves_per_s'), 0)} "
            f"| {fmt(median(label, 'closed', 20, 'p99_ms'))} | {fmt(cpu, 3)} "
            f"| {fmt(delta, 3)} "
            f"| {fmt(median(label, 'open', n, 'p99_ms'))} "
            f"| {fmt(median(label, 'open', n, 'max_ms'), 0)} | {fmt(cpu_open, 3)} "
            f"| {fmt(delta_open, 3)} "
            f"| {fmt(median(label, 'open', n, 'rss_per_conn_kib'), 1)} |")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--only", default=None,
                        help="comma-separated ablation names ('none': only current/--against)")
    parser.add_argument("--against", default=None,
                        help="also measure this earlier commit (the 'before' row)")
    parser.add_argument("--game", choices=sorted(SHAPES), default="arboretum")
    parser.add_argument("--runs", type=int, default=2)
    parser.add_argument("--measure", type=float, default=15.0)
    parser.add_argument("--out", default="ablate.jsonl")
    parser.add_argument("--table", default=None, help="print the table of this file and exit")
    args = parser.parse_args(argv)
    if args.table:
        print(table(Path(args.table)))
        return 0
    chosen = [a for a in (*ABLATIONS, EVERYTHING)
              if args.only is None or a.name in args.only.split(",")]
    out = Path(args.out).resolve()
    parent = Path(tempfile.mkdtemp(prefix="canopy-ablate-"))
    try:
        if args.against:
            chosen.insert(0, Ablation("before", f"the code of {args.against}",
                                      server_dir=worktree(args.against, parent)))
        for run in range(1, args.runs + 1):
            for ablation in (CURRENT, *chosen):
                for mode, rooms in SHAPES[args.game]:
                    run_load(ablation, mode, rooms, run, args, out)
    finally:
        if args.against:
            subprocess.run(["git", "worktree", "remove", "--force",
                            str(parent / args.against.replace("/", "_"))], cwd=ROOT,
                           capture_output=True)
        shutil.rmtree(parent, ignore_errors=True)
        subprocess.run(["git", "worktree", "prune"], cwd=ROOT, capture_output=True)
    if not out.exists():
        print("no results: every run failed (see the lines above)")
        return 1
    print(table(out))
    return 0


if __name__ == "__main__":
    sys.exit(main())
