"""Bad input never gets a 5xx, never crashes a socket, never leaves a room stuck.

- REST: schemathesis generates requests from the app's own OpenAPI schema (valid and invalid
  ones, a fixed number per operation), authenticated with a bearer token (or a forged one, or
  none) and aimed at rooms that exist (in the lobby, playing, finished) as well as random ids.
- Websocket: malformed JSON, JSON nested past the parser's limit, binary frames, unknown types,
  wrong field types, oversized frames (counted in bytes), floods — each answered by an error
  frame with its status, or a close with a code and reason; afterwards the room still plays.
- The browser's form endpoint ``POST /rooms/{id}/act`` and the page routes never answer 5xx to
  garbage: missing fields, bad JSON, unknown, negative and huge ids.
"""

from __future__ import annotations

import contextlib
import itertools
import json
import random
import time
from collections.abc import Callable
from typing import Any, cast

import httpx
import jsonpatch
import pytest
import schemathesis
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from hypothesis.errors import Unsatisfiable
from schemathesis.checks import not_a_server_error
from schemathesis.generation import GenerationMode
from starlette.websockets import WebSocketDisconnect
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from app.config import Settings
from app.main import create_app
from tests.hardening.support import (
    Client,
    Server,
    bearer,
    check_stored,
    new_room,
    read_games,
)

DRAW = {"type": "draw", "source": "deck"}
HUGE = 10**30
#: Statuses an error frame may carry (README: the REST statuses, 413 and 429).
ERROR_STATUSES = {401, 403, 404, 409, 413, 422, 429}
Quiet = Callable[[], None]


def play_to_the_end(seated: list[Client], room: int, seed: int = 5) -> None:
    rng = random.Random(seed)
    for _ in range(400):
        state = seated[0].get(f"/api/rooms/{room}/state").json()
        if state["result"] is not None:
            return
        (seat,) = state["active_seats"]
        listed = seated[seat].get(f"/api/rooms/{room}/moves").json()
        answer = seated[seat].post(f"/api/rooms/{room}/moves",
                                   {"move": rng.choice(listed["moves"]),
                                    "expected_version": listed["version"]})
        assert answer.status_code == 200, answer.text
    raise AssertionError("the game did not end")


@pytest.fixture(scope="module")
def seeded(server: Server) -> dict[str, Any]:
    """Players and rooms in every state: lobby, playing (two seats), finished."""
    ana, bo, cai = (Client.create(server.base, name) for name in ("Ana", "Bo", "Cai"))
    lobby = ana.post("/api/rooms", {"game": "arboretum", "players": 3}).json()["id"]
    playing = new_room(ana, [bo])
    finished = new_room(bo, [ana])
    play_to_the_end([bo, ana], finished)
    return {"ana": ana, "bo": bo, "cai": cai, "lobby": lobby, "playing": playing,
            "finished": finished}


def server_errors(server: Server, since: int = 0) -> list[str]:
    """Tracebacks and 5xx lines in the server's output (from offset ``since``)."""
    lines = server.log_text()[since:].splitlines()
    return [line for line in lines
            if "Traceback" in line or "Exception in ASGI" in line or '" 50' in line]


@pytest.fixture
def quiet(server: Server) -> Quiet:
    """Call it at the end of a test: the server logged no traceback and no 5xx meanwhile."""
    mark = len(server.log_text())

    def check() -> None:
        errors = server_errors(server, mark)
        assert not errors, errors[:5]

    return check


# -- REST: schemathesis ---------------------------------------------------------------------


def fuzz_operation(operation: Any, mode: GenerationMode, base: str, ids: list[int],
                   tokens: list[str], failures: list[str]) -> int:
    """Run a fixed number of schemathesis cases of one operation; returns how many."""
    calls = 0

    @settings(max_examples=25, deadline=None, database=None, derandomize=True,
              suppress_health_check=list(HealthCheck))
    @given(case=operation.as_strategy(generation_mode=mode),
           room=st.sampled_from([*ids, None]),
           auth=st.sampled_from([*tokens, tokens[0], "forged", None]))
    def run(case: Any, room: int | None, auth: str | None) -> None:
        nonlocal calls
        if room is not None and "room_id" in (case.path_parameters or {}):
            case.path_parameters["room_id"] = room  # a room that exists (or a huge id)
        headers = bearer(auth) if auth else {}
        response = case.call(base_url=base, headers=headers, timeout=10)
        calls += 1
        if response.status_code >= 500:
            failures.append(f"{operation.label}: {response.status_code} {response.text[:200]}")
        case.validate_response(response, checks=[not_a_server_error], headers=headers)

    try:
        run()
    except Unsatisfiable:  # nothing to break in a call without parameters or body
        assert mode == GenerationMode.NEGATIVE and not list(operation.iter_parameters()) \
            and not list(operation.body), operation.label
    return calls


def test_schemathesis_finds_no_server_error(
        server: Server, seeded: dict[str, Any], quiet: Quiet) -> None:
    schema = schemathesis.openapi.from_url(f"{server.base}/openapi.json")
    operations = [cast(Any, result).ok() for result in schema.get_all_operations()]
    assert len(operations) >= 15, [op.label for op in operations]
    ids = [seeded["lobby"], seeded["playing"], seeded["finished"], 0, -1, HUGE]
    tokens = [seeded["ana"].token, seeded["bo"].token, seeded["cai"].token]
    failures: list[str] = []
    calls = 0
    for operation in operations:
        for mode in (GenerationMode.POSITIVE, GenerationMode.NEGATIVE):
            calls += fuzz_operation(operation, mode, server.base, ids, tokens, failures)
    assert not failures, failures[:5]
    assert calls >= 400, calls
    quiet()


def test_a_huge_move_is_refused_and_not_stored(server: Server, seeded: dict[str, Any]) -> None:
    """A move body has no size limit of its own over REST or the form; it would be stored in
    the move log for ever (and replayed at every load). It is refused with 413 now."""
    ana, bo = Client.create(server.base, "Big"), Client.create(server.base, "Bigger")
    rid = new_room(ana, [bo])
    junk = "x" * 30_000  # within the body cap (64 KiB), over the move cap (16 KiB)
    answer = ana.post(f"/api/rooms/{rid}/moves", {"move": {**DRAW, "junk": junk},
                                                   "expected_version": 0})
    assert answer.status_code == 413 and "at most" in answer.text, answer.text
    form = ana.post(f"/rooms/{rid}/act", data={"move": json.dumps(DRAW),
                                               "junk": json.dumps(junk)})
    assert form.status_code == 200 and "at most" in form.text
    huge = "x" * 100_000  # over the body cap: refused before it is read
    for answer in (ana.post(f"/api/rooms/{rid}/moves", {"move": {**DRAW, "junk": huge}}),
                   ana.post(f"/rooms/{rid}/act", data={"move": json.dumps(DRAW),
                                                       "junk": json.dumps(huge)})):
        assert answer.status_code == 413 and "body" in answer.text, answer.text
    stored = read_games(server.db)[rid]
    assert stored.version == 0 and stored.moves == []
    fits = ana.post(f"/api/rooms/{rid}/moves", {"move": DRAW, "expected_version": 0})
    assert fits.status_code == 200


# -- websockets -------------------------------------------------------------------------------


def ws_url(server: Server, room: int, token: str | None) -> str:
    return f"{server.ws_base}/ws/rooms/{room}" + (f"?token={token}" if token else "")


def answers(ws: Any) -> list[dict[str, Any]]:
    """Everything the server sent back until it answered a marker message (an unknown type
    carrying a unique name: its error names it) — so the socket is alive and nothing is left
    unread. (A plain ping will not do: a fuzzed ping gets a pong that looks just the same.)"""
    marker = f"marker-{next(MARKERS)}"
    ws.send(json.dumps({"type": marker}))
    before: list[dict[str, Any]] = []
    while True:
        message = json.loads(ws.recv(timeout=10))
        if message["type"] == "error" and marker in message["detail"]:
            return before
        before.append(message)


MARKERS = itertools.count()


BAD_FRAMES: list[tuple[str | bytes, int, str]] = [
    ("{not json", 422, "JSON"),
    ("", 422, "JSON"),
    ("[" * 5000, 422, "nested"),  # past json's recursion limit: was an uncaught RecursionError
    ('{"type": "move", "move": ' + "[" * 3000 + "]" * 3000 + "}", 422, "nested"),
    (b'{"type": "ping"}', 422, "binary"),  # was a KeyError that closed the socket silently
    (b"\x00\xff" * 100, 422, "binary"),
    ('"ping"', 422, "object"),
    ("null", 422, "object"),
    ("[]", 422, "object"),
    ("{}", 422, "unknown message type"),
    ('{"type": 5}', 422, "unknown message type"),
    ('{"type": "dance"}', 422, "unknown message type"),
    ('{"type": "move"}', 422, "JSON object"),
    ('{"type": "move", "move": "draw"}', 422, "JSON object"),
    ('{"type": "move", "move": []}', 422, "JSON object"),
    ('{"type": "move", "move": {}}', 422, "type"),
    ('{"type": "move", "move": {"type": ["draw"]}}', 422, "type"),
    ('{"type": "move", "move": {"type": "draw", "source": NaN}}', 422, "source"),
    ('{"type": "move", "move": {"type": "draw", "source": 1e400}}', 422, "source"),
    ('{"type": "move", "move": {"type": "play", "card": ["oak", true], "cell": [0, 0]}}',
     422, ""),
    ('{"type": "move", "move": {"type": "draw", "source": "deck"}, "expected_version": "0"}',
     422, "integer"),
    ('{"type": "move", "move": {"type": "draw", "source": "deck"}, "expected_version": true}',
     422, "integer"),
    ('{"type": "move", "move": {"type": "draw", "source": "deck"}, "expected_version": 0.5}',
     422, "integer"),
    ('{"type": "move", "move": {"type": "draw", "source": "deck"}, "expected_version": '
     + str(HUGE) + "}", 409, "stale"),
    ('{"type": "move", "move": {"type": "dig", "junk": "' + "x" * 16_000 + '"}}', 422,
     "type"),
    ('{"type": "resync"}', 422, "since"),
    ('{"type": "resync", "since": "0"}', 422, "since"),
    ('{"type": "resync", "since": -1}', 422, "since"),
    ('{"type": "resync", "since": true}', 422, "since"),
    ('{"type": "resync", "since": ' + str(HUGE) + "}", 422, "since"),
    (" " * 16_000 + '{"type": "dance"}', 422, "unknown"),
]


def test_bad_websocket_frames_get_an_error_and_the_socket_lives(
        server: Server, seeded: dict[str, Any], quiet: Quiet) -> None:
    """Each bad frame: one error frame with the right status, and the socket still answers.
    Bo's turn has not come (403 for his legal-looking moves), so nothing bad is played."""
    ana, bo = Client.create(server.base, "Wsa"), Client.create(server.base, "Wsb")
    rid = new_room(ana, [bo])
    # Ana (seat 0, active) sends the frames: well-formed moves would be played, so every
    # "move" frame above is broken in some way or refused for its version.
    with connect(ws_url(server, rid, ana.token), max_size=None) as ws:
        assert json.loads(ws.recv(timeout=10))["type"] == "snapshot"
        for frame, status, words in BAD_FRAMES:
            ws.send(frame)
            replies = answers(ws)
            errors = [m for m in replies if m["type"] == "error"]
            assert len(errors) == 1, (frame[:60], replies)
            assert errors[0]["status"] == status, (frame[:60], errors[0])
            assert words.lower() in errors[0]["detail"].lower(), (frame[:60], errors[0])
    assert read_games(server.db)[rid].version == 0, "no bad frame made a move"
    assert_room_still_plays(server, rid, ana, bo)
    quiet()


def assert_room_still_plays(server: Server, rid: int, ana: Client, bo: Client) -> None:
    """A normal client plays a move through the socket, another sees it through REST."""
    with connect(ws_url(server, rid, ana.token)) as ws:
        snapshot = json.loads(ws.recv(timeout=10))
        version = snapshot["version"]
        moves = ana.get(f"/api/rooms/{rid}/moves").json()["moves"]
        assert moves, "it is Ana's turn"
        ws.send(json.dumps({"type": "move", "move": moves[0], "expected_version": version}))
        view = snapshot["view"]
        while True:
            message = json.loads(ws.recv(timeout=10))
            if message["type"] == "patch":
                view = jsonpatch.apply_patch(view, message["ops"])
            if message["type"] == "ack":
                assert message["version"] == version + 1
                break
            assert message["type"] != "error", message
    if message["type"] == "ack" and view is not snapshot["view"]:
        assert view == ana.get(f"/api/rooms/{rid}/state").json()["view"]
    assert bo.get(f"/api/rooms/{rid}/state").json()["version"] == version + 1
    check_stored(read_games(server.db)[rid])


def test_oversized_frames_close_with_1009(
        server: Server, seeded: dict[str, Any], quiet: Quiet) -> None:
    """Over WS_MAX_MESSAGE bytes: the server (started as scripts/serve starts it, with
    ``--ws-max-size`` from the setting: app/serving.py) closes with 1009 and a reason from the
    frame's header, before the app sees it (the app's own check, a 413 error frame and then
    1009, stays for servers started otherwise: tests/realtime). The limit counts bytes: 6000
    euro signs are 18 000 bytes (but only 6000 characters, which passed before)."""
    rid = seeded["playing"]
    token = seeded["cai"].token
    for frame in ('{"type": "ping", "pad": "' + "€" * 6000 + '"}', "x" * 16_385,
                  b"\x00" * 20_000, "y" * 1_000_000, "z" * (17 * 1024 * 1024)):
        with connect(ws_url(server, rid, token), max_size=None) as ws:
            ws.recv(timeout=10)
            with contextlib.suppress(ConnectionClosed):  # it may close while we still send
                ws.send(frame)
            with pytest.raises(ConnectionClosed) as closed:
                ws.recv(timeout=10)
            said = closed.value.rcvd
            if len(frame) <= 64 * 1024:  # sent whole before the close: the close is read
                assert said is not None
            elif said is None:  # still being sent when the server closed: the unsent rest
                continue  # meets a reset, which may overtake the close frame
            assert said.code == 1009
            assert "16384" in said.reason, said.reason
    with connect(ws_url(server, rid, token)) as ws:  # the room and the server are fine
        assert json.loads(ws.recv(timeout=10))["type"] == "snapshot"
        assert answers(ws) == []
    quiet()


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False)
    | st.text(max_size=20),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner,
                                                                 max_size=4),
    max_leaves=12)
messages = st.one_of(
    st.fixed_dictionaries({"type": st.sampled_from(["move", "resync", "ping", "Move", ""])},
                          optional={"move": json_values, "since": json_values,
                                    "expected_version": json_values}),
    st.fixed_dictionaries({"type": st.just("move"),
                           "move": st.fixed_dictionaries(
                               {"type": st.sampled_from(["draw", "play", "discard", "undo"])},
                               optional={"source": json_values, "card": json_values,
                                         "cell": json_values})},
                          optional={"expected_version": json_values}),
    json_values)


def test_random_messages_never_break_the_socket(
        server: Server, seeded: dict[str, Any], quiet: Quiet) -> None:
    """Hypothesis-generated messages (JSON of every shape, text, bytes) from a seated player
    whose turn it is not, and from a spectator: each is answered (error frame with a README
    status, or a pong/patch) and the socket stays open; the game does not move."""
    rid = seeded["playing"]
    before = read_games(server.db)[rid].version
    for token in (seeded["bo"].token, seeded["cai"].token):
        with connect(ws_url(server, rid, token), max_size=None) as ws:
            ws.recv(timeout=10)

            @settings(max_examples=120, deadline=None, database=None, derandomize=True,
                      suppress_health_check=list(HealthCheck))
            @given(frame=st.one_of(messages.map(json.dumps), st.text(max_size=50),
                                   st.binary(max_size=50)), ws=st.just(ws))
            def run(frame: str | bytes, ws: Any) -> None:
                ws.send(frame)
                for reply in answers(ws):
                    if reply["type"] == "error":
                        assert reply["status"] in ERROR_STATUSES, (frame, reply)
                    else:
                        assert reply["type"] in ("patch", "pong"), (frame, reply)

            run()
    assert read_games(server.db)[rid].version == before
    quiet()


def test_rate_and_size_settings_are_per_connection() -> None:
    """WS_RATE=5 (bursts of 10) and WS_MAX_MESSAGE=1024, in-process: a flood of 60 pings gets
    at most the burst (plus what refills meanwhile) answered, the rest 429, the socket stays
    open, another connection of the same player is not throttled, and after a pause the first
    is served again; 1025 bytes close the socket with 1009."""
    import tempfile

    folder = tempfile.mkdtemp()
    app = create_app(Settings(database_url=f"sqlite:///{folder}/limits.db", bot_delay=0.0,
                              htmx_source="local", ws_rate=5, ws_max_message=1024))
    with TestClient(app) as client:
        token = client.post("/api/players", json={"name": "Flood"}).json()["token"]
        client.cookies.clear()
        rid = client.post("/api/rooms", json={"game": "arboretum", "players": 2},
                          headers=bearer(token)).json()["id"]
        with client.websocket_connect(f"/ws/rooms/{rid}?token={token}") as ws, \
                client.websocket_connect(f"/ws/rooms/{rid}?token={token}") as other:
            assert ws.receive_json()["type"] == "lobby"
            assert other.receive_json()["type"] == "lobby"
            started = time.monotonic()
            for _ in range(60):
                ws.send_text('{"type": "ping"}')
            replies = [ws.receive_json() for _ in range(60)]
            elapsed = time.monotonic() - started
            pongs = sum(r == {"type": "pong"} for r in replies)
            limited = [r for r in replies if r.get("status") == 429]
            assert pongs + len(limited) == 60, replies
            assert 10 <= pongs <= 10 + 5 * elapsed + 1, (pongs, elapsed)
            assert limited and "slow down" in limited[0]["detail"]
            other.send_text('{"type": "ping"}')
            assert other.receive_json() == {"type": "pong"}, "each connection has its bucket"
            time.sleep(0.5)  # 2.5 tokens come back
            ws.send_text('{"type": "ping"}')
            assert ws.receive_json() == {"type": "pong"}
            ws.send_text('{"type": "ping", "pad": "' + "a" * 1000 + '"}')
            error = ws.receive_json()
            assert (error["status"], error["type"]) == (413, "error")
            assert "1024" in error["detail"]
            with pytest.raises(WebSocketDisconnect) as closed:
                ws.receive_json()
            assert closed.value.code == 1009
            other.send_text('{"type": "ping", "pad": "' + "a" * 900 + '"}')
            assert other.receive_json() == {"type": "pong"}


# -- the browser's form endpoint and the pages ---------------------------------------------------


def test_form_and_pages_never_answer_5xx(
        server: Server, seeded: dict[str, Any], quiet: Quiet) -> None:
    ana = seeded["ana"]
    rooms = [seeded["lobby"], seeded["playing"], seeded["finished"]]
    ids: list[Any] = [*rooms, 0, -1, 999_999, HUGE, -HUGE, "abc", "9" * 5000, "1.5", "%00"]
    cookie = {"canopy_token": ana.token}
    jar = [cookie, {"canopy_token": "forged"}, {}]
    forms: list[dict[str, Any]] = [
        {}, {"move": ""}, {"move": "{bad"}, {"move": "null"}, {"move": "[1, 2]"},
        {"move": "[" * 5000},  # json's RecursionError: was a 500
        {"move": json.dumps(DRAW), "card": "{bad"},
        {"move": json.dumps(DRAW), "card": "[" * 5000},
        {"move": json.dumps(DRAW), "expected_version": "²"},
        {"move": json.dumps(DRAW), "expected_version": "9" * 5000},
        {"move": json.dumps({"type": "play"}), "card": '["oak", 1e999]', "cell": "[0, 0]"},
        {"move": json.dumps({"type": "draw"}), "source": "NaN"},
    ]
    seats = ["", "abc", "-1", "-5", "²", "9" * 5000, str(HUGE), "1", " 1 "]
    answers: list[tuple[str, int]] = []
    with httpx.Client(base_url=server.base, timeout=10, follow_redirects=False) as http:
        def go(method: str, url: str, cookies: dict[str, str], **kw: Any) -> httpx.Response:
            http.cookies.clear()
            http.cookies.update(cookies)
            response = http.request(method, url, **kw)
            answers.append((f"{method} {url[:60]} {str(kw)[:80]}", response.status_code))
            return response

        for rid in ids:
            for cookies in jar:
                go("GET", f"/rooms/{rid}", cookies)
                for form in forms:
                    go("POST", f"/rooms/{rid}/act", cookies, data=form)
                go("POST", f"/rooms/{rid}/act", cookies, content=b"\xff\xfe{",
                   headers={"content-type": "application/json"})
                go("POST", f"/rooms/{rid}/act", cookies, content=b"--x\r\nbroken",
                   headers={"content-type": "multipart/form-data; boundary=x"})
            for action in ("join", "leave", "bot", "unbot", "start", "dance", "act"):
                for seat in seats:
                    go("POST", f"/rooms/{rid}/{action}", cookie,
                       data={"seat": seat, "level": seat})
        for code in ("nope", "x" * 5000, "%00", "é", "..%2F..%2Fetc"):
            go("GET", f"/r/{code}", cookie)
        for form in ({}, {"name": ""}, {"name": "x" * 100_000}, {"name": "\x00"},
                     {"name": "Zed", "next": "//evil.example"}, {"name": "Zed", "next": "/\\x"}):
            go("POST", "/name", {}, data=form)
        for form in ({}, {"game": "arboretum"}, {"game": "arboretum", "players": "abc"},
                     {"game": "arboretum", "players": str(HUGE)},
                     {"game": "chess", "players": "2"},
                     {"game": "arboretum", "players": "2", "opt_x": "1"},
                     {"game": "evergreen", "players": "2", "opt_solo": "maybe"}):
            go("POST", "/rooms", cookie, data=form)
        for path in ("/", "/?error=%00", "/static/vendor/x.js", "/static/../../etc/passwd",
                     "/games/nope/data", "/games/arboretum/data", "/healthz", "/nope"):
            go("GET", path, cookie)
    five = [a for a in answers if a[1] >= 500]
    assert not five, five[:10]
    assert len(answers) > 600
    quiet()
    # the rooms are intact after all that
    for rid in rooms[1:]:
        check_stored(read_games(server.db)[rid])


def test_redirects_stay_on_the_site(server: Server) -> None:
    """``next`` after choosing a name only ever leads to a path of this site."""
    with httpx.Client(base_url=server.base, timeout=10, follow_redirects=False,
                      headers={"Origin": server.base}) as http:
        for target in ("//evil.example/", "/\\evil.example/", "https://evil.example/",
                       "/\t/evil.example/", "javascript:alert(1)"):
            answer = http.post("/name", data={"name": "Nav", "next": target})
            assert answer.status_code == 303
            location = answer.headers["location"]
            assert location.startswith("/") and not location.startswith(("//", "/\\")), location
            assert httpx.URL(server.base).join(location).host == "127.0.0.1", location


def test_a_closed_room_closes_its_sockets_cleanly(
        server: Server, quiet: Quiet) -> None:
    """The last player leaves a lobby: its sockets get a 404 error frame and a 4404 close with
    a reason. The writer task used to die on the ApiError (a traceback in the log) and the
    connection dropped without a close frame."""
    owner, watcher = Client.create(server.base, "Closer"), Client.create(server.base, "Watch")
    rid = owner.post("/api/rooms", {"game": "arboretum", "players": 2}).json()["id"]
    with connect(ws_url(server, rid, owner.token)) as mine, \
            connect(ws_url(server, rid, watcher.token)) as theirs, \
            connect(ws_url(server, rid, None)) as anonymous:
        for ws in (mine, theirs, anonymous):
            assert json.loads(ws.recv(timeout=10))["type"] == "lobby"
        assert owner.post(f"/api/rooms/{rid}/leave").json()["status"] == "closed"
        for ws in (mine, theirs, anonymous):
            error = json.loads(ws.recv(timeout=10))
            assert (error["type"], error["status"]) == ("error", 404), error
            with pytest.raises(ConnectionClosed) as closed:
                ws.recv(timeout=10)
            assert closed.value.rcvd is not None, "closed with a close frame"
            assert closed.value.rcvd.code == 4404 and "no room" in closed.value.rcvd.reason
    quiet()


def test_html_socket_ignores_what_it_is_sent(server: Server, quiet: Quiet) -> None:
    """The htmx socket acts on nothing it receives — text or binary — and keeps pushing."""
    ana, bo = Client.create(server.base, "Htmx"), Client.create(server.base, "Page")
    rid = new_room(ana, [bo])
    with connect(f"{server.ws_base}/ws/rooms/{rid}/html?token={bo.token}") as html:
        assert 'hx-swap-oob' in html.recv(timeout=10)
        for frame in (b"\x00\x01binary", "{not json", '{"type": "move", "move": {}}', "x" * 5000):
            html.send(frame)
        assert ana.post(f"/api/rooms/{rid}/moves", {"move": DRAW}).status_code == 200
        assert 'id="status"' in html.recv(timeout=10)
    quiet()


def test_an_unexpected_failure_is_an_error_frame_not_a_dead_socket(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A busy database (503, as over REST) or a bug (500) while handling a message: an error
    frame, the socket stays open, the next move is played."""
    import tempfile

    from sqlalchemy.exc import OperationalError

    folder = tempfile.mkdtemp()
    app = create_app(Settings(database_url=f"sqlite:///{folder}/fail.db", bot_delay=0.0,
                              htmx_source="local"))
    with TestClient(app) as client:
        tokens = []
        for name in ("Ana", "Bo"):
            tokens.append(client.post("/api/players", json={"name": name}).json()["token"])
            client.cookies.clear()
        rid = client.post("/api/rooms", json={"game": "arboretum", "players": 2},
                          headers=bearer(tokens[0])).json()["id"]
        client.post(f"/api/rooms/{rid}/join", headers=bearer(tokens[1]))
        client.post(f"/api/rooms/{rid}/start", headers=bearer(tokens[0]))
        rooms = app.state.rooms
        play = rooms.play
        failures = [OperationalError("INSERT", {}, Exception("database is locked")),
                    RuntimeError("a bug")]

        async def failing(*args: Any, **kw: Any) -> int:
            raise failures.pop(0)

        with client.websocket_connect(f"/ws/rooms/{rid}?token={tokens[0]}") as ws:
            assert ws.receive_json()["type"] == "snapshot"
            monkeypatch.setattr(rooms, "play", failing)
            for status in (503, 500):
                ws.send_json({"type": "move", "move": DRAW, "expected_version": 0})
                error = ws.receive_json()
                assert (error["type"], error["status"]) == ("error", status), error
            monkeypatch.setattr(rooms, "play", play)
            ws.send_json({"type": "move", "move": DRAW, "expected_version": 0})
            replies = [ws.receive_json(), ws.receive_json()]
            assert {"type": "ack", "version": 1} in replies, replies
