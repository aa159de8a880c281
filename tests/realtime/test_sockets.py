"""The websocket contract: snapshot, RFC 6902 patches that rebuild the REST view, resync,
errors; and the htmx socket that pushes only the changed regions."""

from __future__ import annotations

import copy
import random

import jsonpatch
import pytest
from starlette.websockets import WebSocketDisconnect

from tests.conftest import started_room


def receive_until(ws, kind):
    """Messages up to and including the first of ``kind``; returns (that one, the others)."""
    others = []
    while True:
        message = ws.receive_json()
        if message["type"] == kind:
            return message, others
        others.append(message)


def test_two_clients_rebuild_the_rest_view_from_patches(players, client):
    ana, bo = players[:2]
    rid = started_room(players)
    rng = random.Random(11)
    with client.websocket_connect(f"/ws/rooms/{rid}?token={ana.token}") as wa, \
            client.websocket_connect(f"/ws/rooms/{rid}?token={bo.token}") as wb:
        views = {}
        for ws, seat in ((wa, 0), (wb, 1)):
            snap = ws.receive_json()
            assert snap["type"] == "snapshot" and snap["version"] == 0
            assert snap["your_seat"] == seat and snap["active_seats"] == [0]
            views[seat] = snap["view"]
        seats = {0: (ana, wa), 1: (bo, wb)}
        for version in range(1, 25):
            state = ana.get(f"/api/rooms/{rid}/state").json()
            (active,) = state["active_seats"]
            player, ws = seats[active]
            move = rng.choice(player.get(f"/api/rooms/{rid}/moves").json()["moves"])
            ws.send_json({"type": "move", "move": move, "expected_version": version - 1})
            for seat, (p, sock) in seats.items():
                patch, others = receive_until(sock, "patch")
                assert (patch["from"], patch["to"]) == (version - 1, version)
                if sock is ws:
                    ack = others[0] if others else receive_until(sock, "ack")[0]
                    assert ack == {"type": "ack", "version": version}
                views[seat] = jsonpatch.apply_patch(views[seat], patch["ops"])
                rest = p.get(f"/api/rooms/{rid}/state").json()
                assert views[seat] == rest["view"]
                assert patch["active_seats"] == rest["active_seats"]


def test_resync_sends_the_difference_since_a_version(players, client):
    ana, bo = players[:2]
    rid = started_room(players)
    with client.websocket_connect(f"/ws/rooms/{rid}?token={bo.token}") as wb:
        first = wb.receive_json()
        ana.post(f"/api/rooms/{rid}/moves", {"move": {"type": "draw", "source": "deck"}})
        ana.post(f"/api/rooms/{rid}/moves", {"move": {"type": "draw", "source": "deck"}})
        receive_until(wb, "patch")
        wb.send_json({"type": "resync", "since": 0})
        # the patch from version 0 may follow the notification of version 2
        while True:
            patch = receive_until(wb, "patch")[0]
            if patch["from"] == 0:
                break
        assert patch["to"] == 2
        rebuilt = jsonpatch.apply_patch(copy.deepcopy(first["view"]), patch["ops"])
        assert rebuilt == bo.get(f"/api/rooms/{rid}/state").json()["view"]
        wb.send_json({"type": "resync", "since": 99})
        error = receive_until(wb, "error")[0]
        assert error["status"] == 422 and "since" in error["detail"]


def test_socket_errors_are_clear_and_change_nothing(players, client):
    ana, bo, cai = players[:3]
    rid = started_room(players)
    def game(state: dict) -> dict:  # who was last seen changes as sockets come and go
        return {key: value for key, value in state.items() if key != "seats"}

    before = game(ana.get(f"/api/rooms/{rid}/state").json())
    with client.websocket_connect(f"/ws/rooms/{rid}?token={ana.token}") as wa:
        wa.receive_json()
        cases = [
            ("{not json", 422, "JSON"),
            ("[1, 2]", 422, "object"),
            ('{"type": "dance"}', 422, "unknown message type"),
            ('{"type": "move", "move": {"type": "discard", "card": ["oak", 1]}}', 422, ""),
            ('{"type": "move", "move": {"type": "draw", "source": "deck"}, '
             '"expected_version": 3}', 409, "stale"),
            ('{"type": "move", "move": "draw"}', 422, "JSON object"),
        ]
        for raw, status, words in cases:
            wa.send_text(raw)
            error = receive_until(wa, "error")[0]
            assert error["status"] == status, error
            assert words in error["detail"]
        wa.send_text('{"type": "ping"}')
        assert receive_until(wa, "pong")[0] == {"type": "pong"}
    with client.websocket_connect(f"/ws/rooms/{rid}?token={bo.token}") as wb:
        wb.receive_json()
        wb.send_json({"type": "move", "move": {"type": "draw", "source": "deck"}})
        assert receive_until(wb, "error")[0]["status"] == 403  # not Bo's turn
    with client.websocket_connect(f"/ws/rooms/{rid}?token={cai.token}") as wc:
        snap = wc.receive_json()
        assert snap["your_seat"] is None
        wc.send_json({"type": "move", "move": {"type": "draw", "source": "deck"}})
        assert receive_until(wc, "error")[0]["status"] == 403  # spectator
    with client.websocket_connect(f"/ws/rooms/{rid}") as anonymous:
        anonymous.receive_json()
        anonymous.send_json({"type": "move", "move": {"type": "draw", "source": "deck"}})
        assert receive_until(anonymous, "error")[0]["status"] == 401
    assert game(ana.get(f"/api/rooms/{rid}/state").json()) == before


def test_unknown_room_and_forged_token_are_refused(players, client):
    rid = started_room(players)
    for url, status in ((f"/ws/rooms/{rid}?token=forged", 401), ("/ws/rooms/999", 404)):
        with client.websocket_connect(url) as ws:
            error = ws.receive_json()
            assert error["type"] == "error" and error["status"] == status
            with pytest.raises(WebSocketDisconnect) as closed:
                ws.receive_json()
            assert closed.value.code == 4000 + status


def test_oversized_messages_close_the_socket(players, client):
    rid = started_room(players)
    with client.websocket_connect(f"/ws/rooms/{rid}?token={players[0].token}") as ws:
        ws.receive_json()
        ws.send_text("x" * 20_000)
        assert receive_until(ws, "error")[0]["status"] == 413
        with pytest.raises(WebSocketDisconnect) as closed:
            ws.receive_json()
        assert closed.value.code == 1009


def test_lobby_messages_until_the_game_starts(players, client):
    ana, bo = players[:2]
    rid = ana.post("/api/rooms", {"game": "arboretum", "players": 2}).json()["id"]
    with client.websocket_connect(f"/ws/rooms/{rid}?token={ana.token}") as ws:
        lobby = ws.receive_json()
        assert lobby["type"] == "lobby" and lobby["room"]["seats"][1]["free"]
        bo.post(f"/api/rooms/{rid}/join")
        joined = receive_until(ws, "lobby")[0]
        assert joined["room"]["seats"][1]["player"]["name"] == "Bo"
        ana.post(f"/api/rooms/{rid}/start")
        snap = receive_until(ws, "snapshot")[0]
        assert snap["version"] == 0 and snap["your_seat"] == 0


def test_html_socket_pushes_only_changed_regions(players, client):
    ana, bo = players[:2]
    rid = started_room(players)
    with client.websocket_connect(f"/ws/rooms/{rid}/html?token={bo.token}") as ws:
        first = ws.receive_text()
        for region in ("seats", "log", "status", "hand", "sources", "arboretum-0",
                       "arboretum-1"):
            assert f'<div id="{region}" hx-swap-oob="innerHTML">' in first
        ana.post(f"/api/rooms/{rid}/moves", {"move": {"type": "draw", "source": "deck"}})
        update = ws.receive_text()
        assert 'id="status"' in update and 'id="log"' in update
        assert 'id="sources"' in update, "the deck is one card smaller"
        assert 'id="hand"' not in update, "Bo's hand did not change"
        assert 'id="arboretum-0"' in update, "Ana's hand count is shown by her arboretum"
        assert 'id="arboretum-1"' not in update, "Bo's arboretum did not change"
        assert "You drew" not in update, "Bo must not read Ana's private log line"


def test_the_html_socket_answers_the_pages_heartbeat(players, client):
    """A page asks "ping" when it has heard nothing for a while; "pong" tells it the
    connection still carries (canopy.js); any other text is read and ignored."""
    rid = started_room(players)
    with client.websocket_connect(f"/ws/rooms/{rid}/html?token={players[1].token}") as ws:
        ws.receive_text()  # the regions
        ws.send_text("hello")
        ws.send_text("ping")
        assert ws.receive_text() == "pong"
        players[0].post(f"/api/rooms/{rid}/moves", {"move": {"type": "draw", "source": "deck"}})
        assert 'id="status"' in ws.receive_text()


def test_a_lobby_page_opened_before_the_start_reloads_when_its_socket_comes_late(
        players, client):
    """Bo's lobby page may connect its socket after Ana pressed Start: the socket tells it
    to load the table at once, rather than wait for a start it has missed."""
    rid = started_room(players)
    with client.websocket_connect(f"/ws/rooms/{rid}/html?page=lobby&token={players[1].token}") \
            as ws:
        first = ws.receive_text()
        assert '<div id="lobby" hx-swap-oob="innerHTML">' in first
        assert 'data-reload="now"' in first


def test_a_step_on_one_planet_pushes_that_planet_and_the_seat_bar_only(players, client):
    from tests.api.test_evergreen_simultaneous import first_step, to_act_phase

    ana, bo = players[:2]
    rid = started_room(players, game="evergreen")
    to_act_phase(players, rid)
    with client.websocket_connect(f"/ws/rooms/{rid}/html?token={bo.token}") as ws:
        ws.receive_text()  # every region once
        ana.post(f"/api/rooms/{rid}/moves", {"move": first_step(ana, rid)})
        update = ws.receive_text()
        assert 'id="planet-0"' in update and 'id="seats"' in update  # Ana's status
        for untouched in ("planet-1", "row", "fertility", "tracks", "status"):
            assert f'id="{untouched}"' not in update, untouched
