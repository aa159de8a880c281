"""Pages rendered off the event loop, kept by what they show, budgeted per address (issue 28,
item 1; app/web/renders.py)."""

from __future__ import annotations

import asyncio
import random
from collections.abc import Iterator
from typing import Any

import jinja2
import pytest
from fastapi.testclient import TestClient

import app.web.history as history
from app.config import Settings
from app.main import create_app
from tests.api.test_replay import finished_bot_room
from tests.conftest import GENEROUS, Player, started_room


def on_the_loop() -> bool:
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return False
    return True


@pytest.fixture
def renders_seen(monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, bool]]:
    """Each template rendered whole (its name) or in part (``block:name``), and whether the
    thread that did it runs the event loop."""
    seen: list[tuple[str, bool]] = []
    render, block = jinja2.Template.render, history.render_block

    def recorded(self: jinja2.Template, *args: Any, **kwargs: Any) -> str:
        seen.append((self.name or "", on_the_loop()))
        return render(self, *args, **kwargs)

    def recorded_block(env: Any, name: str, block_name: str, **ctx: Any) -> str:
        seen.append((f"{name}:{block_name}", on_the_loop()))
        return block(env, name, block_name, **ctx)

    monkeypatch.setattr(jinja2.Template, "render", recorded)
    monkeypatch.setattr(history, "render_block", recorded_block)
    return seen


def test_a_table_is_rendered_off_the_loop_once_per_version_and_seat(app, client, players,
                                                                     renders_seen):
    rid = started_room(players, game="evergreen")
    ana, bo = players[0], players[1]
    assert ana.get(f"/rooms/{rid}").status_code == 200
    assert ("table.html", False) in renders_seen
    assert ("table.html", True) not in renders_seen
    made = app.state.renders.made
    renders_seen.clear()
    assert ana.get(f"/rooms/{rid}").status_code == 200  # kept: nothing rendered again
    assert bo.get(f"/rooms/{rid}").status_code == 200  # another seat sees another table
    assert [name for name, _ in renders_seen].count("table.html") == 1
    assert app.state.renders.made == made + 1
    mover = players[ana.get(f"/api/rooms/{rid}/state").json()["active_seats"][0]]
    move = random.Random(1).choice(mover.get(f"/api/rooms/{rid}/moves").json()["moves"])
    assert mover.post(f"/api/rooms/{rid}/moves", {"move": move}).status_code == 200
    renders_seen.clear()
    assert ana.get(f"/rooms/{rid}").status_code == 200  # a new version: rendered anew
    assert renders_seen.count(("table.html", False)) == 1


def test_a_replay_step_is_rendered_off_the_loop_once(app, client, players, renders_seen):
    rid = finished_bot_room(players[0], "arboretum")
    renders_seen.clear()
    for _ in range(3):
        assert client.get(f"/rooms/{rid}/replay?v=3").status_code == 200
    assert renders_seen.count(("replay.html:main", False)) == 1
    assert ("replay.html:main", True) not in renders_seen


@pytest.fixture
def tight(tmp_path: Any) -> Iterator[TestClient]:
    """An app whose addresses may have 4 pages rendered (or replays rebuilt) a minute."""
    app = create_app(Settings(database_url=f"sqlite:///{tmp_path / 'canopy.db'}", bot_delay=0,
                              htmx_source="local", **{**GENEROUS, "rate_renders": "4/minute"}))
    with TestClient(app) as client:
        yield client


def test_pages_to_render_are_budgeted_per_address_and_kept_ones_are_free(tight):
    players = [Player(tight, name) for name in ("Ana", "Bo")]
    rid = finished_bot_room(players[0], "arboretum")
    for version in (1, 2, 3):  # the replay rebuilt once, then three steps rendered
        assert tight.get(f"/rooms/{rid}/replay?v={version}").status_code == 200
    for _ in range(5):  # kept: free, however often
        assert tight.get(f"/rooms/{rid}/replay?v=2").status_code == 200
    refused = tight.get(f"/rooms/{rid}/replay?v=4")
    assert refused.status_code == 429
    assert int(refused.headers["Retry-After"]) >= 1
    assert "try again in" in refused.text
    assert tight.get(f"/api/rooms/{rid}/state").status_code == 200  # the API is not a render
