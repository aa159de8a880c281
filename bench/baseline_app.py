"""The baseline for bench/load.py: the same stack (uvicorn, FastAPI, Starlette websockets) with
no game and no database.

It answers the REST calls the load generator makes (players, rooms, join, start) from memory
and, on ``/ws/rooms/{id}``, sends a snapshot, then for every ``move`` message: an ack to the
sender and a patch message to each of the room's sockets, of the sizes the real server's patches
have (env ``BASELINE_PATCH_BYTES=MOVER,OTHER``, ``BASELINE_SNAPSHOT_BYTES``). Each patch
replaces ``/turn`` (so the load generator moves the next seat) and a padding string.

    .venv/bin/uvicorn --factory bench.baseline_app:app_factory
"""

from __future__ import annotations

import json
import os
from itertools import count
from typing import Any

from fastapi import FastAPI, WebSocket, WebSocketDisconnect

PLAYERS = 4


def _dumps(message: dict[str, Any]) -> str:
    return json.dumps(message, separators=(",", ":"))


def _padded(message: dict[str, Any], size: int, pad_path: tuple[str, ...]) -> dict[str, Any]:
    """``message`` with the string at ``pad_path`` grown so that its JSON is ``size`` long."""
    target: Any = message
    for key in pad_path[:-1]:
        target = target[key] if isinstance(target, dict) else target[int(key)]
    target[pad_path[-1]] = ""
    missing = size - len(_dumps(message))
    target[pad_path[-1]] = "x" * max(0, missing)
    return message


class Table:
    """A room: its sockets (seat order is connection order) and its version."""

    def __init__(self) -> None:
        self.sockets: list[WebSocket] = []
        self.version = 0


def create_app() -> FastAPI:
    mover_bytes, other_bytes = (int(x) for x in
                                os.environ.get("BASELINE_PATCH_BYTES", "348,297").split(","))
    snapshot_bytes = int(os.environ.get("BASELINE_SNAPSHOT_BYTES", "568"))
    app = FastAPI(title="Canopy baseline")
    players = count(1)
    room_ids = count(1)
    tables: dict[int, Table] = {}

    @app.get("/healthz")
    async def healthz() -> dict[str, str]:
        return {"status": "ok"}

    @app.post("/api/players")
    async def new_player() -> dict[str, Any]:
        player = next(players)
        return {"id": player, "name": f"p{player}", "token": f"token-{player}"}

    @app.post("/api/rooms", status_code=201)
    async def new_room() -> dict[str, Any]:
        room_id = next(room_ids)
        tables[room_id] = Table()
        return {"id": room_id, "status": "lobby"}

    @app.post("/api/rooms/{room_id}/join")
    async def join(room_id: int) -> dict[str, Any]:
        return {"id": room_id, "status": "lobby"}

    @app.post("/api/rooms/{room_id}/start")
    async def start(room_id: int) -> dict[str, Any]:
        return {"id": room_id, "status": "playing"}

    def patch(table: Table, size: int) -> str:
        turn = table.version % PLAYERS
        message = {"type": "patch", "from": table.version - 1, "to": table.version,
                   "ops": [{"op": "replace", "path": "/turn", "value": turn},
                           {"op": "replace", "path": "/pad", "value": ""}],
                   "active_seats": [turn], "result": None}
        return _dumps(_padded(message, size, ("ops", "1", "value")))

    @app.websocket("/ws/rooms/{room_id}")
    async def socket(ws: WebSocket, room_id: int) -> None:
        await ws.accept()
        table = tables.setdefault(room_id, Table())
        seat = len(table.sockets)
        table.sockets.append(ws)
        turn = table.version % PLAYERS
        snapshot = {"type": "snapshot", "version": table.version,
                    "view": {"turn": turn, "step": "play", "pad": ""},
                    "active_seats": [turn], "your_seat": seat, "result": None}
        await ws.send_text(_dumps(_padded(snapshot, snapshot_bytes, ("view", "pad"))))
        try:
            while True:
                message = json.loads(await ws.receive_text())
                if message.get("type") != "move":
                    continue
                table.version += 1
                await ws.send_text(_dumps({"type": "ack", "version": table.version}))
                to_mover, to_other = patch(table, mover_bytes), patch(table, other_bytes)
                for other in list(table.sockets):
                    await other.send_text(to_mover if other is ws else to_other)
        except WebSocketDisconnect:
            pass
        finally:
            if ws in table.sockets:
                table.sockets.remove(ws)
            if not table.sockets:
                tables.pop(room_id, None)

    return app


def app_factory() -> FastAPI:
    """For ``uvicorn --factory bench.baseline_app:app_factory``."""
    return create_app()
