"""What an attacker's probe of the live server found (issue 28, items 3, 4, 9 and 10), each
test named after its item:

- **3** socket handshakes had no rate limit, and each one cost database work: now an address
  gets ``RATE_HANDSHAKES`` of them (both sockets together), refused with an HTTP 429 and
  ``Retry-After`` before the accept and before any database work; a reconnect to a room whose
  table is in memory costs no SQL statement until it closes.
- **4** uvicorn read websocket frames up to 16 MiB before the app's 16 KiB check: the server
  as scripts/serve starts it refuses a frame over ``WS_MAX_MESSAGE`` from its header (1009).
- **9** a 27-byte resync answered the whole view, as often as asked: one full resync per
  socket per ``WS_RESYNC_SECONDS``; a resync from the present is never refused.
- **10** slow partial requests were held forever: a request's headers have
  ``HEADER_TIMEOUT`` seconds, its body ``BODY_TIMEOUT`` (then a 408), on a real server; and
  its headers at most ``MAX_HEADER_BYTES`` (431: httptools has no limit).

Real servers (tests/hardening/support.py) start as scripts/serve does, through
``python -m app.serving``; the in-process tests use the real defaults (tests/hardening/
test_edge.py's ``serving``) but for the limit each one is about.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import socket
import struct
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import event
from starlette.testclient import WebSocketDenialResponse
from websockets.exceptions import ConnectionClosed, InvalidStatus
from websockets.sync.client import ClientConnection, connect

from app.config import Settings
from tests.hardening.support import ROOT, Client, Server, new_room
from tests.hardening.test_edge import Person, person, serving, started

DRAW = {"type": "draw", "source": "deck"}


class Statements:
    """Every SQL statement an engine runs while :attr:`on` (a ``before_cursor_execute``
    listener)."""

    def __init__(self) -> None:
        self.seen: list[str] = []
        self.on = False

    def __call__(self, conn: Any, cursor: Any, statement: str, *args: Any) -> None:
        if self.on and not statement.startswith("PRAGMA wal_checkpoint"):  # the checkpointer's
            self.seen.append(" ".join(statement.split()))

    def take(self) -> list[str]:
        taken, self.seen = self.seen, []
        return taken

    def awaited(self, count: int, within: float = 5.0) -> list[str]:
        """The statements once there are ``count`` of them (a socket's close runs on the
        server's side after the client's close returns)."""
        deadline = time.monotonic() + within
        while len(self.seen) < count and time.monotonic() < deadline:
            time.sleep(0.01)
        return self.take()


@pytest.fixture
def statements() -> Iterator[Statements]:
    yield Statements()


def counting(client: Any, statements: Statements) -> None:
    event.listen(client.app.state.engine, "before_cursor_execute", statements)


def new_lobby(host: Person) -> int:
    room = host.post("/api/rooms", {"game": "arboretum", "players": 2})
    assert room.status_code == 201, room.text
    return int(room.json()["id"])


def played(host: Person, others: list[Person], moves: int) -> int:
    """A started Arboretum room moved on by ``moves`` draws and discards."""
    rid = started(host, others)
    seats = [host, *others]
    for version in range(moves):
        state = host.get(f"/api/rooms/{rid}/state").json()
        mover = seats[state["active_seats"][0]]
        move = mover.get(f"/api/rooms/{rid}/moves").json()["moves"][0]
        answer = mover.post(f"/api/rooms/{rid}/moves", {"move": move, "expected_version": version})
        assert answer.status_code == 200, answer.text
    return rid


# -- item 3: handshakes ---------------------------------------------------------------------------


def test_item3_handshakes_are_rate_limited_per_address_before_any_database_work(
        tmp_path: Path, statements: Statements) -> None:
    with serving(tmp_path, rate_handshakes="3/minute") as client:
        ana = person(client, "Ana")
        rid = new_lobby(ana)  # its sockets' closes store nothing: any statement is a refusal's
        counting(client, statements)
        for path in (f"/ws/rooms/{rid}", f"/ws/rooms/{rid}/html", f"/ws/rooms/{rid}"):
            with client.websocket_connect(f"{path}?token={ana.token}") as ws:
                ws.receive_text()
        statements.on = True
        for path in (f"/ws/rooms/{rid}", f"/ws/rooms/{rid}/html", "/ws/rooms/999999"):
            with pytest.raises(WebSocketDenialResponse) as refused, \
                    client.websocket_connect(f"{path}?token={ana.token}",
                                             headers={"accept-language": "de"}):
                pass
            answer = refused.value
            assert answer.status_code == 429, answer.text
            wait = int(answer.headers["retry-after"])
            assert 1 <= wait <= 61
            assert answer.json()["detail"] == ("zu viele Socket-Verbindungen von deiner Adresse; "
                                               f"versuch es in {wait} s noch einmal")
        assert statements.take() == []  # refused before the token, the room or the database
        # Another address has its own budget (behind a trusted proxy: its X-Forwarded-For).
    with serving(tmp_path / "proxied", rate_handshakes="1/minute",
                 trust_forwarded=True) as client:
        ana = person(client, "Ana")
        rid = started(ana, [person(client, "Bo")])
        url = f"/ws/rooms/{rid}?token={ana.token}"
        for address in ("203.0.113.1", "203.0.113.2"):
            with client.websocket_connect(url, headers={"x-forwarded-for": address}) as ws:
                assert ws.receive_json()["type"] == "snapshot"
        with pytest.raises(WebSocketDenialResponse) as refused, \
                client.websocket_connect(url, headers={"x-forwarded-for": "203.0.113.1"}):
            pass
        assert refused.value.status_code == 429


def test_item3_a_reconnect_to_a_table_in_memory_costs_no_sql_statement(
        tmp_path: Path, statements: Statements) -> None:
    """The token is known (cached), the room's table is in memory (it exists: no room
    query), the seat's view was computed for this version (the table keeps it), and the seat
    was seen a moment ago (the close stored it): the second opening runs no statement. Its
    close stores when its person was last seen: one UPDATE of the seat."""
    with serving(tmp_path) as client:
        ana, bo = person(client, "Ana"), person(client, "Bo")
        rid = played(ana, [bo], 3)
        counting(client, statements)
        url = f"/ws/rooms/{rid}?token={bo.token}"
        for attempt in range(3):
            statements.on = True
            with client.websocket_connect(url) as ws:
                snapshot = ws.receive_json()
                assert snapshot["type"] == "snapshot" and snapshot["version"] == 3
                ws.send_json({"type": "ping"})  # the server reads once the opening is done
                assert ws.receive_json() == {"type": "pong"}
                opening = statements.take()
            closing = statements.awaited(1)
            if attempt:
                assert opening == [], opening
            assert len(closing) == 1 and re.match(r"UPDATE seat SET last_seen=", closing[0]), \
                closing
            statements.on = False
        # The htmx socket alike: its opening and close together run the one UPDATE.
        for _ in range(2):
            statements.on = True
            with client.websocket_connect(f"/ws/rooms/{rid}/html?token={bo.token}") as ws:
                assert "hx-swap-oob" in ws.receive_text()
            (update,) = statements.awaited(1)
            assert update.startswith("UPDATE seat SET last_seen=")
            assert statements.awaited(1, within=0.3) == []  # that was the close's, the only one
        # The REST view is what the socket showed.
        assert bo.get(f"/api/rooms/{rid}/state").json()["view"] == snapshot["view"]


def test_item3_a_real_server_answers_429_with_retry_after_before_the_accept(
        probe_server: Server) -> None:
    ana = Client.create(probe_server.base, "Ana")
    rid = new_room(ana, [], game="evergreen")
    url = f"{probe_server.ws_base}/ws/rooms/{rid}?token={ana.token}"
    address = {"X-Forwarded-For": "198.51.100.3"}  # RATE_HANDSHAKES=4/minute
    for path in ("", "/html", "", "/html"):
        with connect(url.replace("?", f"{path}?"), additional_headers=address,
                     open_timeout=5) as ws:
            ws.recv(timeout=5)
    for path in ("", "/html"):
        with pytest.raises(InvalidStatus) as refused, \
                connect(url.replace("?", f"{path}?"), additional_headers=address,
                        open_timeout=5):
            pass
        response = refused.value.response
        assert response.status_code == 429
        assert 1 <= int(response.headers["Retry-After"]) <= 61
        assert "socket connections" in json.loads(response.body)["detail"]
    with connect(url, additional_headers={"X-Forwarded-For": "198.51.100.4"},
                 open_timeout=5) as ws:  # another address
        assert json.loads(ws.recv(timeout=5))["type"] == "snapshot"


# -- the real server of items 3, 4 and 10 ----------------------------------------------------------


@pytest.fixture(scope="module")
def probe_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """A real server, started as scripts/serve starts it (``python -m app.serving``), with
    small limits: frames of 4096 bytes, 4 handshakes a minute per address (each test uses its
    own address, as ``X-Forwarded-For``: the server trusts it), one second for a request's
    headers and one for its body."""
    srv = Server(tmp_path_factory.mktemp("probe") / "canopy.db", WS_MAX_MESSAGE="4096",
                 RATE_HANDSHAKES="4/minute", TRUST_FORWARDED="true", HEADER_TIMEOUT="1",
                 BODY_TIMEOUT="1")
    srv.start()
    yield srv
    srv.stop()


# -- item 4: frames over WS_MAX_MESSAGE ------------------------------------------------------------


def close_of(ws: ClientConnection, within: float = 5.0) -> tuple[int, str, list[str]]:
    """The close the server sent (code, reason) and the messages before it."""
    before: list[str] = []
    deadline = time.monotonic() + within
    with pytest.raises(ConnectionClosed) as closed:
        while True:
            message = ws.recv(timeout=max(0.01, deadline - time.monotonic()))
            before.append(str(message))
    assert closed.value.rcvd is not None, "closed without a close frame"
    return closed.value.rcvd.code, closed.value.rcvd.reason, before


def masked_frame_header(length: int, opcode: int = 0x1) -> tuple[bytes, bytes]:
    """A client's frame header declaring ``length`` payload bytes, and its mask."""
    mask = os.urandom(4)
    return struct.pack("!BBQ", 0x80 | opcode, 0x80 | 127, length) + mask, mask


def masked(data: bytes, mask: bytes) -> bytes:
    return bytes(b ^ mask[i % 4] for i, b in enumerate(data))


def test_item4_the_server_refuses_a_frame_over_ws_max_message_from_its_header(
        probe_server: Server) -> None:
    ana = Client.create(probe_server.base, "Ana")
    rid = new_room(ana, [], game="evergreen")
    address = {"X-Forwarded-For": "198.51.100.10"}
    url = f"{probe_server.ws_base}/ws/rooms/{rid}?token={ana.token}"
    with connect(url, additional_headers=address, open_timeout=5) as ws:
        assert json.loads(ws.recv(timeout=5))["type"] == "snapshot"
        # A header claiming 15 MB and 1 KiB of it: the close comes at once, the server never
        # waits for (nor keeps) the rest.
        header, mask = masked_frame_header(15_000_000)
        started_at = time.monotonic()
        ws.socket.sendall(header + masked(b"x" * 1024, mask))
        code, reason, before = close_of(ws)
        assert time.monotonic() - started_at < 3
        assert code == 1009 and "4096" in reason, (code, reason)
        assert before == []  # the app never saw it: no error frame of its own
    with connect(url, additional_headers=address, open_timeout=5) as ws:
        ws.recv(timeout=5)
        ws.send("x" * 4097)  # WS_MAX_MESSAGE + 1, sent whole: refused by the server alike
        code, _, before = close_of(ws)
        assert code == 1009 and before == []
    with connect(url, additional_headers=address, open_timeout=5) as ws:
        ws.recv(timeout=5)
        ws.send(json.dumps({"type": "ping", "pad": "p" * 4000}))  # within: the app answers
        assert json.loads(ws.recv(timeout=5)) == {"type": "pong"}


def test_item4_every_start_goes_through_app_serving(tmp_path: Path) -> None:
    """scripts/serve, the image's command (which docker-compose.yml's services run: none
    overrides it) and the servers of the tests start ``python -m app.serving``, whose options
    carry ``--ws-max-size`` from the setting."""
    from app.serving import server_options

    options = server_options(Settings(ws_max_message=5000))
    assert options[options.index("--ws-max-size") + 1] == "5000"
    assert "app.serving:TimedHttpProtocol" in options
    serve = (ROOT / "scripts/serve").read_text()
    assert re.search(r"^exec \.venv/bin/python -m app\.serving ", serve, re.M)
    (cmd,) = re.findall(r"^CMD (\[.*\])$", (ROOT / "Dockerfile").read_text(), re.M)
    assert json.loads(cmd)[:3] == ["python", "-m", "app.serving"]
    compose = (ROOT / "docker-compose.yml").read_text()
    assert not re.search(r"^\s+(command|entrypoint):", compose, re.M)


# -- item 9: resync ------------------------------------------------------------------------------


def test_item9_one_full_resync_per_socket_per_second_and_the_present_always(
        tmp_path: Path) -> None:
    with serving(tmp_path, ws_resync_seconds=0.5) as client:
        ana, bo = person(client, "Ana"), person(client, "Bo")
        rid = played(ana, [bo], 3)
        rest = bo.get(f"/api/rooms/{rid}/state").json()
        url = f"/ws/rooms/{rid}?token={bo.token}"
        with client.websocket_connect(url) as ws, client.websocket_connect(url) as other:
            assert ws.receive_json()["type"] == other.receive_json()["type"] == "snapshot"
            ws.send_json({"type": "resync", "since": 0})
            full = ws.receive_json()
            assert full["ops"] == [{"op": "replace", "path": "", "value": rest["view"]}]
            ws.send_json({"type": "resync", "since": 1})
            refusal = ws.receive_json()
            assert refusal["type"] == "error" and refusal["status"] == 429, refusal
            assert 0 < refusal["retry_after"] <= 0.5
            assert "resync" in refusal["detail"]
            # The present is cheap and never refused: nothing to send but the public part.
            for _ in range(3):
                ws.send_json({"type": "resync", "since": 3})
                assert ws.receive_json() == {"type": "patch", "from": 3, "to": 3, "ops": [],
                                             "active_seats": rest["active_seats"],
                                             "statuses": rest["statuses"], "result": None}
            # The limit is per socket: the other socket's first full resync is answered.
            other.send_json({"type": "resync", "since": 2})
            assert other.receive_json()["ops"][0]["value"] == rest["view"]
            time.sleep(refusal["retry_after"])
            ws.send_json({"type": "resync", "since": 1})
            again = ws.receive_json()
            assert (again["type"], again["from"], again["to"]) == ("patch", 1, 3), again
            # A refusal changed nothing: the moves go on and the patches chain.
            move = bo.get(f"/api/rooms/{rid}/moves").json()["moves"]
            if move:
                assert bo.post(f"/api/rooms/{rid}/moves", {"move": move[0]}).status_code == 200
                patch = ws.receive_json()
                assert (patch["type"], patch["from"], patch["to"]) == ("patch", 3, 4)


# -- item 10: slow requests ------------------------------------------------------------------------


def raw(server: Server) -> socket.socket:
    host, port = server.base.removeprefix("http://").split(":")
    conn = socket.create_connection((host, int(port)), timeout=10)
    return conn


def read_until_closed(conn: socket.socket, within: float = 8.0) -> tuple[bytes, float]:
    """What the server sent until it closed the connection, and how long that took."""
    started_at = time.monotonic()
    conn.settimeout(within)
    received = b""
    while True:
        chunk = conn.recv(65536)
        if not chunk:
            return received, time.monotonic() - started_at
        received += chunk


def read_response(conn: socket.socket) -> bytes:
    """One whole response (with a Content-Length) from a kept-alive connection."""
    conn.settimeout(5)
    received = b""
    while b"\r\n\r\n" not in received:
        received += conn.recv(65536)
    head, body = received.split(b"\r\n\r\n", 1)
    (length,) = re.findall(rb"(?im)^content-length: *(\d+)", head)
    while len(body) < int(length):
        body += conn.recv(65536)
    return head + b"\r\n\r\n" + body


def test_item10_half_a_request_line_is_closed_after_the_header_timeout(
        probe_server: Server) -> None:
    for sent in (b"GET /healthz HT", b""):  # half a request line; nothing at all
        with raw(probe_server) as conn:
            conn.sendall(sent)
            received, took = read_until_closed(conn)
            assert received == b"" and 0.8 <= took < 5, (received, took)


def test_item10_headers_that_trickle_are_closed_although_bytes_keep_coming(
        probe_server: Server) -> None:
    with raw(probe_server) as conn:
        started_at = time.monotonic()
        closed = False
        request = b"GET /healthz HTTP/1.1\r\nHost: x\r\nX-Slow: " + b"a" * 200
        for byte in request:
            try:
                conn.sendall(bytes([byte]))
            except OSError:
                closed = True
                break
            time.sleep(0.05)
            conn.settimeout(0.001)
            try:
                if conn.recv(1) == b"":
                    closed = True
                    break
            except TimeoutError:
                pass
        assert closed and 0.8 <= time.monotonic() - started_at < 5


def test_item10_a_stalled_body_gets_408_and_a_close(probe_server: Server) -> None:
    with raw(probe_server) as conn:
        conn.sendall(b"POST /api/players HTTP/1.1\r\nHost: x\r\nContent-Type: application/json"
                     b"\r\nContent-Length: 100\r\nAccept-Language: nl\r\n\r\n{\"name\": ")
        received, took = read_until_closed(conn)
        assert received.startswith(b"HTTP/1.1 408 "), received
        assert b"connection: close" in received.lower()
        body = json.loads(received.split(b"\r\n\r\n", 1)[1])
        assert body["detail"] == "de inhoud van het verzoek kwam niet binnen 1 s binnen"
        assert 0.8 <= took < 5
    # A body that trickles in ends all the same: the deadline is for the whole body.
    with raw(probe_server) as conn:
        conn.sendall(b"POST /api/players HTTP/1.1\r\nHost: x\r\nContent-Type: application/json"
                     b"\r\nContent-Length: 100\r\n\r\n")
        started_at = time.monotonic()
        received = b""
        try:
            while time.monotonic() - started_at < 5 and b"\r\n\r\n" not in received:
                conn.sendall(b" ")
                conn.settimeout(0.1)
                with contextlib.suppress(TimeoutError):
                    received += conn.recv(65536)
        except OSError:
            pass
        assert received.startswith(b"HTTP/1.1 408 "), received
        assert 0.8 <= time.monotonic() - started_at < 5
    assert "Traceback" not in probe_server.log_text()


def test_item10_headers_over_max_header_bytes_get_431_and_a_close(
        probe_server: Server) -> None:
    """httptools keeps headers of any size; the server stops at MAX_HEADER_BYTES (32 KiB)."""
    with raw(probe_server) as conn:
        # Just past the cap, and no more (bytes the server never reads would reset the
        # connection and lose its answer).
        conn.sendall(b"GET /healthz HTTP/1.1\r\nHost: x\r\nAccept-Language: es\r\n"
                     + b"".join(b"X-Big: " + b"a" * 8300 + b"\r\n" for _ in range(4)))
        received, _ = read_until_closed(conn)
        assert received.startswith(b"HTTP/1.1 431 "), received
        assert json.loads(received.split(b"\r\n\r\n", 1)[1])["detail"] == \
            "las cabeceras de la petición superan los 32768 bytes"
    with raw(probe_server) as conn:  # 20 KB of headers are fine
        conn.sendall(b"GET /healthz HTTP/1.1\r\nHost: x\r\nX-Big: " + b"b" * 20_000
                     + b"\r\n\r\n")
        assert read_response(conn).startswith(b"HTTP/1.1 200 ")


def test_item10_prompt_requests_keep_alive_and_sockets_outlive_the_deadlines(
        probe_server: Server) -> None:
    with raw(probe_server) as conn:
        for _ in range(2):  # two requests on one kept-alive connection, a pause between
            body = b'{"name": "Eve"}'
            conn.sendall(b"POST /api/players HTTP/1.1\r\nHost: x\r\nContent-Type: "
                         b"application/json\r\nContent-Length: %d\r\n\r\n%s" % (len(body), body))
            answer = read_response(conn)
            assert answer.startswith(b"HTTP/1.1 200 "), answer
            time.sleep(0.6)
    ana = Client.create(probe_server.base, "Ana")
    rid = new_room(ana, [], game="evergreen")
    with connect(f"{probe_server.ws_base}/ws/rooms/{rid}?token={ana.token}",
                 additional_headers={"X-Forwarded-For": "198.51.100.20"}, open_timeout=5) as ws:
        assert json.loads(ws.recv(timeout=5))["type"] == "snapshot"
        time.sleep(2.5)  # past both deadlines: a socket is no request
        ws.send(json.dumps({"type": "ping"}))
        assert json.loads(ws.recv(timeout=5)) == {"type": "pong"}
