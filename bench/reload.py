"""How long a game takes to load into memory (after a restart, or after it left the cache):
from its snapshot plus the moves after it (now), or by replaying its whole move log from the
seed (how every load worked before), for a game of 300 moves.

    .venv/bin/python bench/reload.py [--moves 300] [--game evergreen] [--players 4] [--runs 30]

The game is played with random legal moves through the real app on a fresh SQLite file; each
load runs ``--runs`` times, and the medians and their ratio are printed.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

from fastapi.testclient import TestClient

from app.config import Settings
from app.main import create_app


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--moves", type=int, default=300)
    parser.add_argument("--game", default="evergreen")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--runs", type=int, default=30)
    args = parser.parse_args(argv)
    folder = Path(tempfile.mkdtemp(prefix="canopy-reload-"))
    app = create_app(Settings(database_url=f"sqlite:///{folder / 'canopy.db'}", bot_delay=0,
                              htmx_source="local"))
    rng = random.Random(1)
    with TestClient(app) as client:
        tokens = []
        for i in range(args.players):
            tokens.append(client.post("/api/players", json={"name": f"P{i}"}).json()["token"])
            client.cookies.clear()  # scripts identify with the bearer token
        headers = [{"Authorization": f"Bearer {t}"} for t in tokens]
        room = client.post("/api/rooms", json={"game": args.game, "players": args.players},
                           headers=headers[0]).json()["id"]
        for h in headers[1:]:
            client.post(f"/api/rooms/{room}/join", headers=h)
        client.post(f"/api/rooms/{room}/start", headers=headers[0])
        version = 0
        while version < args.moves:
            state = client.get(f"/api/rooms/{room}/state", headers=headers[0]).json()
            if state["result"] is not None:
                print(f"the game ended after {version} moves; use --moves {version} or "
                      "another game", file=sys.stderr)
                return 1
            seat = rng.choice(state["active_seats"])
            legal = client.get(f"/api/rooms/{room}/moves", headers=headers[seat]).json()
            version = client.post(f"/api/rooms/{room}/moves", headers=headers[seat],
                                  json={"move": rng.choice(legal["moves"])}).json()["version"]
        store = app.state.rooms.store
        timings: dict[str, list[float]] = {"snapshot": [], "replay": []}
        for _ in range(args.runs):
            for way in timings:
                start = time.perf_counter()
                table = store.load(room, replay=way == "replay")
                timings[way].append(time.perf_counter() - start)
                assert table.version == version
    snapshot, replay = (statistics.median(timings[w]) * 1000 for w in ("snapshot", "replay"))
    print(f"| {args.game}, {args.players} players, {version} moves | load from the snapshot "
          f"{snapshot:.1f} ms | replay of the whole log {replay:.1f} ms | "
          f"{replay / snapshot:.1f}× faster |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
