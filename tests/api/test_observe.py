"""What operators see: /healthz, the Prometheus metrics at /metrics, and JSON logs."""

from __future__ import annotations

import io
import json
import logging
import time
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from prometheus_client.parser import text_string_to_metric_families
from sqlalchemy.exc import OperationalError

from app.config import Settings
from app.main import create_app
from app.observe import JsonHandler, JsonLines, Metrics, configure_logging
from tests.conftest import GENEROUS, Player, started_room

TURN_RULE = "Cómo jugar"  # Arboretum's turn rule: a move out of turn cites it


def scrape(client: TestClient) -> dict[tuple[str, frozenset[tuple[str, str]]], float]:
    """``GET /metrics`` parsed: (sample name, labels) -> value."""
    response = client.get("/metrics")
    assert response.status_code == 200
    assert response.headers["content-type"].startswith("text/plain")
    return {(s.name, frozenset(s.labels.items())): s.value
            for family in text_string_to_metric_families(response.text)
            for s in family.samples}


def value(samples, name: str, **labels: str) -> float | None:
    return samples.get((name, frozenset(labels.items())))


# -- /healthz -------------------------------------------------------------------------------


def test_healthz_is_ok_while_the_database_answers(client):
    response = client.get("/healthz")
    assert response.status_code == 200
    assert response.json() == {"status": "ok"}


UNAVAILABLE = {"status": "unavailable", "detail": "the database does not answer"}


def assert_unavailable(response) -> None:
    assert response.status_code == 503
    assert response.json() == UNAVAILABLE  # the cause goes to the log, not to the caller
    assert "Traceback" not in response.text and "sqlite" not in response.text.lower()


def test_healthz_is_503_when_the_engine_cannot_connect(client, app, monkeypatch, caplog):
    def refuse(*_, **__):
        raise OperationalError("SELECT 1", {}, Exception("unable to open database file"))

    monkeypatch.setattr(app.state.engine, "connect", refuse)
    with caplog.at_level(logging.WARNING, logger="canopy"):
        assert_unavailable(client.get("/healthz"))
    assert "does not answer" in caplog.text and "unable to open database file" in caplog.text
    monkeypatch.undo()
    assert client.get("/healthz").status_code == 200


@pytest.mark.sqlite_only("moves the SQLite file's folder away")
def test_healthz_is_503_when_the_database_folder_is_gone(tmp_path: Path):
    """A real failure: the pool emptied and the database's folder moved away, so SQLite
    cannot open the file (chmod would not stop root)."""
    folder = tmp_path / "data"
    settings = Settings(database_url=f"sqlite:///{folder / 'canopy.db'}", bot_delay=0.0,
                        htmx_source="local", **GENEROUS)
    app = create_app(settings)
    with TestClient(app) as client:
        assert client.get("/healthz").status_code == 200
        app.state.engine.dispose()
        folder.rename(tmp_path / "elsewhere")
        assert_unavailable(client.get("/healthz"))
        (tmp_path / "elsewhere").rename(folder)
        assert client.get("/healthz").status_code == 200


# -- /metrics -------------------------------------------------------------------------------


def play_moves(players: list[Player], rid: int, n: int) -> None:
    """``n`` legal moves by whoever is to act (the first legal move each time)."""
    by_id = {p.id: p for p in players}
    for _ in range(n):
        state = players[0].get(f"/api/rooms/{rid}/state").json()
        for p in by_id.values():
            moves = p.get(f"/api/rooms/{rid}/moves")
            if moves.status_code == 200 and moves.json()["moves"]:
                response = p.post(f"/api/rooms/{rid}/moves",
                                  {"move": moves.json()["moves"][0],
                                   "expected_version": state["version"]})
                assert response.status_code == 200, response.text
                break
        else:
            raise AssertionError("nobody could move")


def test_metrics_count_moves_refusals_and_rooms(players, client):
    ana, bo = players[:2]
    rid = started_room(players)
    players[2].post("/api/rooms", {"game": "arboretum", "players": 2})  # one room waits
    draw = {"type": "draw", "source": "deck"}

    out_of_turn = bo.post(f"/api/rooms/{rid}/moves", {"move": draw})
    assert out_of_turn.status_code == 403 and out_of_turn.json()["rule"] == TURN_RULE
    illegal = ana.post(f"/api/rooms/{rid}/moves",
                       {"move": {"type": "discard", "card": ["oak", 1]}})
    assert illegal.status_code == 422
    illegal_rule = illegal.json()["rule"]
    assert illegal_rule
    assert ana.post("/api/rooms/999/moves", {"move": draw}).status_code == 404  # no rule
    assert ana.post(f"/api/rooms/{rid}/moves", {"mvoe": draw}).status_code == 422  # format

    n = 7
    play_moves(players[:2], rid, n)
    samples = scrape(client)

    assert value(samples, "canopy_moves_total", game="arboretum") == n
    assert value(samples, "canopy_move_seconds_count") == n
    assert value(samples, "canopy_move_seconds_bucket", le="+Inf") == n
    assert 0 < value(samples, "canopy_move_seconds_sum") < n * 5  # seconds, not ms
    refusals = {labels: v for (name, labels), v in samples.items()
                if name == "canopy_refusals_total"}
    assert refusals == {
        frozenset({("status", "403"), ("rule", TURN_RULE)}): 1,
        frozenset({("status", "422"), ("rule", illegal_rule)}): 1,
        frozenset({("status", "404"), ("rule", "")}): 1,
        frozenset({("status", "422"), ("rule", "request format")}): 1,
    }
    assert value(samples, "canopy_rooms", status="playing") == 1
    assert value(samples, "canopy_rooms", status="lobby") == 1
    assert value(samples, "canopy_rooms", status="finished") == 0


def test_refused_moves_are_not_timed(players, client):
    rid = started_room(players)
    players[1].post(f"/api/rooms/{rid}/moves", {"move": {"type": "draw", "source": "deck"}})
    samples = scrape(client)
    assert value(samples, "canopy_moves_total", game="arboretum") is None
    assert value(samples, "canopy_move_seconds_count") == 0


def test_open_sockets_and_socket_refusals(players, client):
    bo = players[1]
    rid = started_room(players)
    assert value(scrape(client), "canopy_open_sockets") == 0
    with client.websocket_connect(f"/ws/rooms/{rid}?token={bo.token}") as ws:
        assert ws.receive_json()["type"] == "snapshot"
        assert value(scrape(client), "canopy_open_sockets") == 1
        ws.send_json({"type": "move", "move": {"type": "draw", "source": "deck"}})
        error = ws.receive_json()
        assert (error["type"], error["status"], error["rule"]) == ("error", 403, TURN_RULE)
    deadline = time.monotonic() + 5
    while value(samples := scrape(client), "canopy_open_sockets") != 0:
        assert time.monotonic() < deadline, "the closed socket is still counted"
        time.sleep(0.02)
    assert value(samples, "canopy_refusals_total", status="403", rule=TURN_RULE) == 1


def test_metrics_are_not_in_the_api_schema(client):
    paths = client.get("/openapi.json").json()["paths"]
    assert "/metrics" not in paths and "/healthz" not in paths


def test_each_app_has_its_own_registry(settings):
    first, second = create_app(settings), create_app(settings)
    first.state.metrics.move_played("arboretum", 0.002)
    assert b'canopy_moves_total{game="arboretum"} 1.0' in first.state.metrics.render()[0]
    assert b"canopy_moves_total{" not in second.state.metrics.render()[0]


def test_refusal_labels_stay_bounded():
    metrics = Metrics()
    for i in range(600):
        metrics.refused(422, f"rule {i}")
    metrics.refused(409, "x" * 500)
    metrics.refused(500, None)
    text = metrics.render()[0].decode()
    series = [line for line in text.splitlines() if line.startswith("canopy_refusals_total{")]
    assert len(series) <= 503
    assert 'rule="other"' in text and "x" * 81 not in text
    assert 'canopy_refusals_total{rule="",status="500"} 1.0' in text


# -- logs -----------------------------------------------------------------------------------


@pytest.fixture
def json_logging(settings):
    """An app made with LOG_FORMAT=json, a handler standing for uvicorn's on uvicorn.access,
    and every change to the loggers undone afterwards."""
    access = logging.getLogger("uvicorn.access")
    uvicorn_output = io.StringIO()
    uvicorn_handler = logging.StreamHandler(uvicorn_output)  # as uvicorn's dictConfig adds
    saved = access.level, access.propagate
    access.addHandler(uvicorn_handler)
    access.setLevel(logging.INFO)
    access.propagate = False  # as under uvicorn
    root = logging.getLogger()
    try:
        create_app(settings.model_copy(update={"log_format": "json"}))
        added = [h for h in root.handlers if isinstance(h, JsonHandler)]
        assert len(added) == 1
        root_output = io.StringIO()
        added[0].setStream(root_output)
        yield uvicorn_handler, uvicorn_output, root_output
    finally:
        for handler in [h for h in root.handlers if isinstance(h, JsonHandler)]:
            root.removeHandler(handler)
        access.removeHandler(uvicorn_handler)
        access.level, access.propagate = saved


def test_json_logs_are_one_object_per_line_without_tokens(json_logging):
    uvicorn_handler, uvicorn_output, root_output = json_logging
    assert isinstance(uvicorn_handler.formatter, JsonLines)
    logging.getLogger("uvicorn.access").info(
        '%s - "%s %s HTTP/%s" %d', "203.0.113.7:5123", "GET",
        "/ws/rooms/7?token=abc&x=1", "1.1", 101)
    logging.getLogger("uvicorn.access").info("GET /ws/rooms/7?%74oken=abc HTTP/1.1")
    lines = uvicorn_output.getvalue().splitlines()
    assert len(lines) == 2
    first, second = (json.loads(line) for line in lines)
    assert first["level"] == "INFO" and first["logger"] == "uvicorn.access"
    assert first["message"] == \
        '203.0.113.7:5123 - "GET /ws/rooms/7?token=[redacted]&x=1 HTTP/1.1" 101'
    assert "time" in first and "abc" not in second["message"]
    assert "abc" not in uvicorn_output.getvalue()

    try:
        raise ValueError("boom")
    except ValueError:
        logging.getLogger("canopy").exception("a move failed")
    (entry,) = (json.loads(line) for line in root_output.getvalue().splitlines())
    assert (entry["level"], entry["logger"], entry["message"]) == \
        ("ERROR", "canopy", "a move failed")
    assert "Traceback" in entry["exc_info"] and "ValueError: boom" in entry["exc_info"]


def test_json_logging_twice_adds_one_handler(json_logging):
    configure_logging("json")
    assert sum(isinstance(h, JsonHandler) for h in logging.getLogger().handlers) == 1


def test_text_logging_is_left_as_it_is():
    handler = logging.StreamHandler(io.StringIO())
    formatter = handler.formatter
    logging.getLogger("uvicorn.access").addHandler(handler)
    try:
        configure_logging("text")
        assert handler.formatter is formatter
        assert not any(isinstance(h, JsonHandler) for h in logging.getLogger().handlers)
    finally:
        logging.getLogger("uvicorn.access").removeHandler(handler)
