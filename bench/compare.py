"""Canopy beside its baseline and beside the boardgame.io peer, in the same session.

    .venv/bin/python bench/compare.py --out results.jsonl          # one full run, ~8 minutes
    .venv/bin/python bench/compare.py --games arboretum,evergreen --out results.jsonl
    .venv/bin/python bench/compare.py --table results.jsonl        # tables of every run in it

One run measures, one after the other (``bench/load.py`` for Canopy and its baseline,
``../shared/tools/peer-bgio/load.mjs`` for the peer):

- Canopy, for each game of ``--games`` (default Arboretum only; each shape's games run one
  after the other): Arboretum closed loop 20 rooms and open loop 100, 500, 1000, 1500 and 2000
  rooms (1 move/s/room); Evergreen closed loop 20 rooms and open loop 100 and 200 rooms
  (``GAME_SHAPES``);
- the baseline (bench/baseline_app.py) in the same shapes, with the patch sizes Canopy's
  Arboretum run just sent (the baseline is Arboretum-shaped: one mover per room);
- the peer (Arboretum): closed 20 and open 100 / 500 matches, each with InMemory and FlatFile
  storage.

The baseline and peer tables compare Canopy's Arboretum runs; with other games a table sets each
game's figures beside Arboretum's. A result without a ``game`` field (older files) is Arboretum.

The peer is copied from ``../shared/tools/peer-bgio`` (read-only) into a temporary folder and
``npm ci`` installs it there (``--peer-dir DIR`` reuses a prepared copy). Every result is one JSON
line in ``--out``; the tables show the median of the runs of each configuration found there.
"""

from __future__ import annotations

import argparse
import json
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
PEER_SRC = ROOT.parent / "shared" / "tools" / "peer-bgio"
LOAD = ROOT / "bench" / "load.py"
RUN_TIMEOUT = 540

CANOPY_SHAPES = [("closed", 20), ("open", 100), ("open", 200), ("open", 500), ("open", 1000),
                 ("open", 1500), ("open", 2000)]
#: The shapes each game runs in (Evergreen's moves cost several times Arboretum's: one core
#: saturates below 500 rooms x 1 move/s, and its room setup takes ~40 ms of server CPU).
GAME_SHAPES = {
    "arboretum": [("closed", 20), ("open", 100), ("open", 500), ("open", 1000), ("open", 1500),
                  ("open", 2000)],
    "evergreen": [("closed", 20), ("open", 100), ("open", 200)],
}
PEER_SHAPES = [("closed", 20), ("open", 100), ("open", 500)]
#: The games bench/load.py plays (``--game``); the baseline and the peer are Arboretum's.
GAMES = ("arboretum", "evergreen")
BASE_GAME = "arboretum"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def last_json(path: Path) -> dict[str, Any] | None:
    lines = path.read_text().splitlines() if path.exists() else []
    return json.loads(lines[-1]) if lines else None


def run_reported(command: list[str], cwd: Path) -> subprocess.CompletedProcess[str] | None:
    """Run a benchmark process to its end; say so when it times out (None) or fails."""
    try:
        done = subprocess.run(command, cwd=cwd, timeout=RUN_TIMEOUT, capture_output=True,
                              text=True)
    except subprocess.TimeoutExpired:
        print("#   timed out", flush=True)
        return None
    if done.returncode != 0:
        print(f"#   failed ({done.returncode}): {done.stderr[-800:]}", flush=True)
    return done


def run_canopy(mode: str, rooms: int, baseline: bool, args: argparse.Namespace,
               sizes: tuple[int, int, int] | None, tmp: Path,
               game: str = BASE_GAME) -> dict[str, Any] | None:
    out = tmp / "one.jsonl"
    out.unlink(missing_ok=True)
    command = [sys.executable, str(LOAD), "--mode", mode, "--rooms", str(rooms),
               "--game", game, "--warmup", str(args.warmup), "--measure", str(args.measure),
               "--json", str(out)]
    if baseline:
        command.append("--baseline")
        if sizes is not None:
            command += ["--patch-bytes", f"{sizes[0]},{sizes[1]}", "--snapshot-bytes",
                        str(sizes[2])]
    print(f"# running: {' '.join(command[1:])}", flush=True)
    done = run_reported(command, ROOT)
    if done is None:
        return None
    for line in done.stdout.splitlines():
        if line.startswith("# setup") or line.startswith("# moves"):
            print(f"#   {line[2:]}", flush=True)
    return last_json(out)


def prepare_peer(args: argparse.Namespace, tmp: Path) -> Path | None:
    if args.peer_dir:
        peer = Path(args.peer_dir)
    else:
        peer = tmp / "peer-bgio"
        shutil.copytree(PEER_SRC, peer)
        for path in peer.rglob("*"):
            path.chmod(0o755 if path.is_dir() else 0o644)
        peer.chmod(0o755)
    if not (peer / "node_modules" / "boardgame.io").is_dir():
        print(f"# npm ci in {peer}", flush=True)
        done = subprocess.run(["npm", "ci", "--no-audit", "--no-fund"], cwd=peer,
                              timeout=RUN_TIMEOUT, capture_output=True, text=True)
        if done.returncode != 0:
            print(f"#   npm ci failed: {done.stderr[-800:]}", flush=True)
            return None
    return peer


def run_peer(peer: Path, mode: str, matches: int, flatfile: bool, args: argparse.Namespace,
             tmp: Path) -> dict[str, Any] | None:
    out = tmp / "peer.jsonl"
    out.unlink(missing_ok=True)
    label = f"peer {mode} M={matches} {'flatfile' if flatfile else 'memory'}"
    command = ["node", "load.mjs", "--mode", mode, "--matches", str(matches), "--warmup",
               str(args.warmup), "--measure", str(args.measure), "--port", str(free_port()),
               "--json", str(out), "--label", label]
    if flatfile:
        command += ["--flatfile", tempfile.mkdtemp(prefix="flat-", dir=tmp)]
    print(f"# running: {' '.join(command)}", flush=True)
    if run_reported(command, peer) is None:
        return None
    result = last_json(out)
    if result is not None:
        result["server"] = "peer-flatfile" if flatfile else "peer-memory"
        result["rooms"] = matches
    return result


def run_all(args: argparse.Namespace) -> None:
    out = Path(args.out)
    started = time.strftime("%Y-%m-%dT%H:%M:%S")
    with tempfile.TemporaryDirectory(prefix="canopy-compare-") as tmp_name:
        tmp = Path(tmp_name)

        def keep(result: dict[str, Any] | None) -> None:
            if result is not None:
                result["session"] = started
                with out.open("a") as f:
                    f.write(json.dumps(result) + "\n")

        for mode, rooms in CANOPY_SHAPES:
            if args.max_rooms and rooms > args.max_rooms:
                continue
            for game in args.games:
                if (mode, rooms) not in GAME_SHAPES[game]:
                    continue
                canopy = run_canopy(mode, rooms, False, args, None, tmp, game)
                keep(canopy)
                if args.skip_baseline or game != BASE_GAME:
                    continue
                sizes = None
                if canopy and canopy.get("mover_patch_bytes") and \
                        canopy.get("other_patch_bytes"):
                    sizes = (canopy["mover_patch_bytes"], canopy["other_patch_bytes"],
                             canopy["snapshot_bytes"] or 600)
                keep(run_canopy(mode, rooms, True, args, sizes, tmp))
        if args.skip_peer:
            return
        peer = prepare_peer(args, tmp)
        if peer is None:
            return
        for mode, matches in PEER_SHAPES:
            for flatfile in (False, True):
                keep(run_peer(peer, mode, matches, flatfile, args, tmp))


# --- tables -----------------------------------------------------------------------------------


def shape(result: dict[str, Any]) -> tuple[str, int]:
    return result["mode"], int(result["rooms"])


def game_of(result: dict[str, Any]) -> str:
    """The game a result played: older results and the peer's are Arboretum."""
    return str(result.get("game") or BASE_GAME)


Key = tuple[str, str, str, int]  # server, game, mode, rooms


def medians(results: list[dict[str, Any]]) -> dict[Key, dict[str, Any]]:
    """Per (server, game, mode, rooms): the median of each numeric figure, and the run
    count."""
    groups: dict[Key, list[dict[str, Any]]] = {}
    for r in results:
        groups.setdefault((r["server"], game_of(r), *shape(r)), []).append(r)
    merged: dict[Key, dict[str, Any]] = {}
    for key, runs in groups.items():
        row: dict[str, Any] = {"runs": len(runs)}
        for field in ("moves_per_s", "p50_ms", "p99_ms", "max_ms", "server_cpu_ms_per_move",
                      "server_cpu_util", "server_rss_mib", "rss_per_room_kib",
                      "rss_per_conn_kib", "loadgen_cpu_util", "server_rss_after_setup_mib",
                      "offered_per_s"):
            values = [r[field] for r in runs if isinstance(r.get(field), int | float)]
            row[field] = round(statistics.median(values), 3) if values else None
        row["each"] = runs
        merged[key] = row
    return merged


def fmt(value: Any) -> str:
    if value is None:
        return "–"
    if isinstance(value, float):
        return f"{value:.3g}" if abs(value) < 10 else f"{value:.0f}"
    return str(value)


def ratio(a: Any, b: Any) -> str:
    if not isinstance(a, int | float) or not isinstance(b, int | float) or not b:
        return "–"
    return f"{a / b:.2f}×"


def each(row: dict[str, Any] | None, field: str) -> str:
    if row is None:
        return "–"
    return " / ".join(fmt(r.get(field)) for r in row["each"])


def tables(results: list[dict[str, Any]]) -> str:
    m = medians(results)
    lines = ["## Canopy runs (medians; each run after the slash list)", "",
             "| server | game | shape | runs | moves/s | p50 ms | p99 ms | max ms | CPU ms/move | "
             "CPU util | RSS MiB | KiB/room | KiB/conn | loadgen CPU | p99 each | CPU each |",
             "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|"]
    for (server, game, mode, rooms), row in sorted(m.items()):
        if server.startswith("peer"):
            continue
        lines.append(
            f"| {server} | {game} | {mode} N={rooms} | {row['runs']} | "
            f"{fmt(row['moves_per_s'])} | "
            f"{fmt(row['p50_ms'])} | {fmt(row['p99_ms'])} | {fmt(row['max_ms'])} | "
            f"{fmt(row['server_cpu_ms_per_move'])} | {fmt(row['server_cpu_util'])} | "
            f"{fmt(row['server_rss_mib'])} | {fmt(row['rss_per_room_kib'])} | "
            f"{fmt(row['rss_per_conn_kib'])} | {fmt(row['loadgen_cpu_util'])} | "
            f"{each(row, 'p99_ms')} | {each(row, 'server_cpu_ms_per_move')} |")
    others = sorted({game for server, game, _, _ in m if server == "canopy"} - {BASE_GAME})
    if others:
        lines += ["", f"## Canopy: {', '.join(others)} beside {BASE_GAME} (medians)", "",
                  "| shape | figure | " + " | ".join(
                      [BASE_GAME, *(f"{game} | {game}/{BASE_GAME}" for game in others)]) + " |",
                  "|---|---|---|" + "---|---|" * len(others)]
        for mode, rooms in CANOPY_SHAPES:
            base = m.get(("canopy", BASE_GAME, mode, rooms))
            runs = [m.get(("canopy", game, mode, rooms)) for game in others]
            if all(run is None for run in runs):
                continue
            for title, field in (("moves/s", "moves_per_s"), ("p50 ms", "p50_ms"),
                                 ("p99 ms", "p99_ms"), ("max ms", "max_ms"),
                                 ("CPU ms/move", "server_cpu_ms_per_move"),
                                 ("CPU util", "server_cpu_util"),
                                 ("KiB/conn", "rss_per_conn_kib")):
                bv = base.get(field) if base else None
                cells = [fmt(bv)]
                for run in runs:
                    v = run.get(field) if run else None
                    cells += [fmt(v), ratio(v, bv)]
                lines.append(f"| {mode} N={rooms} | {title} | " + " | ".join(cells) + " |")
    lines += ["", "## Canopy / baseline (same stack, no game, no database; Arboretum)", "",
              "| shape | CPU ms/move canopy | baseline | ratio | p99 ms canopy | baseline | "
              "ratio | KiB/conn canopy | baseline |", "|---|---|---|---|---|---|---|---|---|"]
    for mode, rooms in CANOPY_SHAPES:
        c = m.get(("canopy", BASE_GAME, mode, rooms))
        b = m.get(("baseline", BASE_GAME, mode, rooms))
        if c is None or b is None:
            continue
        lines.append(
            f"| {mode} N={rooms} | {fmt(c['server_cpu_ms_per_move'])} | "
            f"{fmt(b['server_cpu_ms_per_move'])} | "
            f"{ratio(c['server_cpu_ms_per_move'], b['server_cpu_ms_per_move'])} | "
            f"{fmt(c['p99_ms'])} | {fmt(b['p99_ms'])} | {ratio(c['p99_ms'], b['p99_ms'])} | "
            f"{fmt(c['rss_per_conn_kib'])} | {fmt(b['rss_per_conn_kib'])} |")
    lines += ["", "## Canopy / boardgame.io peer (Arboretum; FlatFile persists like Canopy; "
              "InMemory does not)", "",
              "| shape | figure | canopy | peer flatfile | canopy/flatfile | peer memory | "
              "canopy/memory |", "|---|---|---|---|---|---|---|"]
    for mode, rooms in PEER_SHAPES:
        c = m.get(("canopy", BASE_GAME, mode, rooms))
        f = m.get(("peer-flatfile", BASE_GAME, mode, rooms))
        mem = m.get(("peer-memory", BASE_GAME, mode, rooms))
        if c is None or (f is None and mem is None):
            continue
        for title, field in (("moves/s", "moves_per_s"), ("p50 ms", "p50_ms"),
                             ("p99 ms", "p99_ms"), ("max ms", "max_ms"),
                             ("CPU ms/move", "server_cpu_ms_per_move"),
                             ("CPU util", "server_cpu_util"), ("RSS MiB", "server_rss_mib")):
            cv = c.get(field)
            fv = f.get(field) if f else None
            mv = mem.get(field) if mem else None
            lines.append(f"| {mode} N={rooms} | {title} | {fmt(cv)} | {fmt(fv)} | "
                         f"{ratio(cv, fv)} | {fmt(mv)} | {ratio(cv, mv)} |")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Canopy vs baseline vs boardgame.io peer")
    parser.add_argument("--out", default=None, help="append results here (JSON lines)")
    parser.add_argument("--table", action="append", default=[],
                        help="only print the tables of these result files")
    parser.add_argument("--warmup", type=float, default=3.0)
    parser.add_argument("--measure", type=float, default=15.0)
    parser.add_argument("--peer-dir", default=None, help="a prepared copy of peer-bgio")
    parser.add_argument("--skip-peer", action="store_true")
    parser.add_argument("--skip-baseline", action="store_true")
    parser.add_argument("--max-rooms", type=int, default=0, help="skip larger Canopy shapes")
    parser.add_argument("--games", default=BASE_GAME,
                        help=f"Canopy's shapes for each of these games, comma-separated "
                             f"({', '.join(GAMES)}; default {BASE_GAME}); the baseline and "
                             f"the peer stay Arboretum's")
    args = parser.parse_args(argv)
    args.games = [game.strip() for game in args.games.split(",") if game.strip()]
    unknown = [game for game in args.games if game not in GAMES]
    if unknown or not args.games:
        parser.error(f"--games: unknown {', '.join(unknown) or 'nothing'}; "
                     f"choose among {', '.join(GAMES)}")
    files = list(args.table)
    if not files:
        if args.out is None:
            args.out = str(Path(tempfile.gettempdir()) / f"canopy-compare-{int(time.time())}.jsonl")
        print(f"# results: {args.out}", flush=True)
        run_all(args)
        files = [args.out]
    results = []
    for name in files:
        results += [json.loads(line) for line in Path(name).read_text().splitlines() if line]
    print(tables(results))
    return 0


if __name__ == "__main__":
    sys.exit(main())
