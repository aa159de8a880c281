"""What each performance change is worth: the load benchmark against the current code and
against copies of it with one change taken back (an ablation), in one session.

    .venv/bin/python bench/ablate.py                      # every ablation, 2 runs, ~25 minutes
    .venv/bin/python bench/ablate.py --only gc,sockets --runs 1
    .venv/bin/python bench/ablate.py --table ablate.jsonl # the table of earlier runs

Each ablation is a few exact text replacements applied to a throwaway ``git worktree`` of
HEAD (so commit first); a replacement that no longer matches stops the script with the
ablation's name: update the ablation with the code. "all" takes back every change at once.
Every configuration runs ``bench/load.py`` in two shapes — closed loop 20 rooms (throughput,
CPU per move) and open loop 500 rooms x 1 move/s (p99, memory per socket) — and the runs
interleave (current, each ablation, current, ...), so that the machine's drift hits all alike.
The table gives the median of the runs per configuration and the change against the current
code ("Δ CPU" > 0: the change saves that much CPU per move).
"""

from __future__ import annotations

import argparse
import json
import shutil
import statistics
import subprocess
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
LOAD = ROOT / "bench" / "load.py"
SHAPES = (("closed", 20), ("open", 500))


@dataclass(frozen=True)
class Ablation:
    name: str
    takes_back: str
    #: (file, exact old text, new text)
    edits: tuple[tuple[str, str, str], ...] = ()
    #: extra bench/load.py arguments
    load_args: tuple[str, ...] = field(default=())


ABLATIONS = (
    Ablation("deflate", "server refuses permessage-deflate (uvicorn accepts it by default)",
             load_args=("--deflate",)),
    Ablation("sockets", "sockets served past the HTTP middleware stack (app.main.Canopy)", (
        ("app/main.py", '        if scope["type"] == "websocket":',
         "        if False:"),
        ("app/main.py", "    app.state.settings = settings\n",
         "    app.router.routes.extend(sockets.socket_routes.routes)\n"
         "    app.state.settings = settings\n"),
    )),
    Ablation("group-commit", "group commit (one writer, moves share a transaction)", (
        ("app/rooms/service.py", "            await self._writer.write(\n",
         "            await to_thread.run_sync(_alone, self.engine,\n"),
        ("app/rooms/service.py", "class RoomService:",
         "def _alone(engine: Engine, job: Any) -> None:\n"
         "    with engine.begin() as connection:\n"
         "        job(connection)\n\n\nclass RoomService:"),
    )),
    Ablation("plain-sql", "pre-built SQL statements for a move (instead of an ORM session)", (
        ("app/rooms/service.py",
         '            connection.execute(INSERT_MOVE, {"game_id": loaded.game_row_id, "seq": seq,\n'
         '                                             "seat": seat, "move": move})\n'
         "            updated = connection.execute(UPDATE_GAME, {\n"
         '                "game_row": loaded.game_row_id, "expected": loaded.version,\n'
         '                "new_state": loaded.game.dump(after), "new_version": seq,\n'
         '                "new_finished": finished,\n'
         '                "new_result": result.to_json() if result else None})\n',
         "            session = Session(bind=connection)\n"
         "            session.add(MoveRow(game_id=loaded.game_row_id, seq=seq, seat=seat,"
         " move=move))\n"
         "            session.flush()\n"
         "            updated = session.execute(\n"
         "                update(GameRow).where(col(GameRow.id) == loaded.game_row_id)\n"
         "                .where(col(GameRow.version) == loaded.version)\n"
         "                .values(state=loaded.game.dump(after), version=seq,"
         " finished=finished,\n"
         "                        result=result.to_json() if result else None))\n"),
    )),
    Ablation("token-cache", "token → player cache (no query per socket or request)", (
        ("app/identity.py", "            hit = known.get(token_hash)\n",
         "            hit = None\n"),
    )),
    Ablation("shared-patches", "patch messages computed once per seat and version", (
        ("app/realtime/sockets.py", "    message = loaded.patches.get(key)\n",
         "    message = None\n"),
    )),
    Ablation("diff", "structural diff (instead of jsonpatch.make_patch)", (
        ("app/realtime/sockets.py", "else diff(marshal.loads(old), new)",
         'else __import__("jsonpatch").make_patch(marshal.loads(old), new).patch'),
    )),
    Ablation("compact-json", "compact JSON columns without the circular check", (
        ("app/db.py",
         'json_dumps = json.JSONEncoder(separators=(",", ":"), check_circular=False).encode',
         "json_dumps = json.dumps"),
    )),
    Ablation("gc", "gc.freeze() after start-up and full collections 10x rarer", (
        ("app/main.py", "        tune_gc()\n        yield\n", "        yield\n"),
    )),
)
CURRENT = Ablation("current", "(nothing: the code as committed)")
EVERYTHING = Ablation("all", "all of the above at once",
                      tuple(edit for a in ABLATIONS for edit in a.edits),
                      tuple(arg for a in ABLATIONS for arg in a.load_args))


def worktree(ablation: Ablation, parent: Path) -> Path:
    """A checkout of HEAD with the ablation's edits applied."""
    path = parent / ablation.name
    subprocess.run(["git", "worktree", "add", "--detach", "-f", str(path), "HEAD"], cwd=ROOT,
                   check=True, capture_output=True)
    for file, old, new in ablation.edits:
        target = path / file
        text = target.read_text()
        if text.count(old) != 1:
            raise SystemExit(f"ablation {ablation.name!r} no longer applies to {file}: "
                             f"{old.strip()[:60]!r} is not there exactly once")
        target.write_text(text.replace(old, new))
    return path


def run_load(ablation: Ablation, server_dir: Path, mode: str, rooms: int, run: int,
             args: argparse.Namespace, out: Path) -> None:
    scratch = out.with_suffix(".one")
    scratch.unlink(missing_ok=True)
    command = [sys.executable, str(LOAD), "--mode", mode, "--rooms", str(rooms),
               "--measure", str(args.measure), "--server-dir", str(server_dir),
               "--label", ablation.name, "--json", str(scratch), *ablation.load_args]
    print(f"# run {run}: {ablation.name} {mode} {rooms}", flush=True)
    done = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=600)
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
    base_cpu_open = median("current", "open", 500, "server_cpu_ms_per_move")
    lines = ["| taken back | runs | closed 20: moves/s | p99 ms | CPU ms/move | Δ CPU "
             "| open 500: p99 ms | max ms | CPU ms/move | Δ CPU | KiB/conn |",
             "|---|---|---|---|---|---|---|---|---|---|---|"]
    by_name = {a.name: a for a in (CURRENT, *ABLATIONS, EVERYTHING)}
    labels = sorted({label for label, _, _ in rows},
                    key=lambda n: list(by_name).index(n) if n in by_name else 99)
    for label in labels:
        runs = len(rows.get((label, "closed", 20), []))
        cpu = median(label, "closed", 20, "server_cpu_ms_per_move")
        cpu_open = median(label, "open", 500, "server_cpu_ms_per_move")
        delta = None if cpu is None or base_cpu is None else cpu - base_cpu
        delta_open = None if cpu_open is None or base_cpu_open is None else \
            cpu_open - base_cpu_open
        what = by_name[label].takes_back if label in by_name else label
        lines.append(
            f"| {label}: {what} | {runs} "
            f"| {fmt(median(label, 'closed', 20, 'moves_per_s'), 0)} "
            f"| {fmt(median(label, 'closed', 20, 'p99_ms'))} | {fmt(cpu, 3)} "
            f"| {fmt(delta, 3)} "
            f"| {fmt(median(label, 'open', 500, 'p99_ms'))} "
            f"| {fmt(median(label, 'open', 500, 'max_ms'), 0)} | {fmt(cpu_open, 3)} "
            f"| {fmt(delta_open, 3)} "
            f"| {fmt(median(label, 'open', 500, 'rss_per_conn_kib'), 1)} |")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--only", default=None, help="comma-separated ablation names")
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
    trees: dict[str, Path] = {}
    try:
        for ablation in (CURRENT, *chosen):
            trees[ablation.name] = worktree(ablation, parent)
        for run in range(1, args.runs + 1):
            for ablation in (CURRENT, *chosen):
                for mode, rooms in SHAPES:
                    run_load(ablation, trees[ablation.name], mode, rooms, run, args, out)
    finally:
        for tree in trees.values():
            subprocess.run(["git", "worktree", "remove", "--force", str(tree)], cwd=ROOT,
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
