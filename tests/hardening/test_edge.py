"""The edge a stranger on the internet meets (app/guard.py and what it guards): cross-site
refusals (login CSRF included), socket handshakes from other sites, hosts, private rooms and
their invite codes, the body cap, socket caps and limits, REST rate limits, security headers
and pages without inline script, names that look like placeholders, moves with extra fields,
the flash cookie instead of ``?error=``, and invite links built from ``PUBLIC_ORIGIN``.

Each test is named after the item of the issue it proves. Apps are built with the settings
each test needs (the real defaults, or small limits), never the generous limits of
tests/conftest.py; a real uvicorn server is used where a real socket matters (chunked bodies,
the handshake's 403, socket caps and closes).
"""

from __future__ import annotations

import html
import json
import re
import socket
import sqlite3
import time
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass
from html.parser import HTMLParser
from http.cookies import SimpleCookie
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import httpx
import jsonpatch
import pytest
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect
from websockets.exceptions import ConnectionClosed, InvalidStatus
from websockets.sync.client import ClientConnection, connect
from websockets.typing import Origin

from app.config import Settings
from app.main import create_app
from tests.hardening.support import Client, Server, new_room

ORIGIN = "http://testserver"  # the TestClient's own origin
EVIL = "https://evil.example"
#: The invite codes' alphabet as the issue states it: 31 letters and digits, no look-alikes.
CODE_ALPHABET = "abcdefghjkmnpqrstuvwxyz23456789"
DRAW = {"type": "draw", "source": "deck"}
#: The pinned files of app/assets.py, written out: the test must not trust the module it checks.
HTMX_CDN_URLS = {"https://unpkg.com/htmx.org@2.0.11/dist/htmx.min.js",
                 "https://unpkg.com/htmx-ext-ws@2.0.4/dist/ws.min.js"}
SWAGGER_JS = "https://cdn.jsdelivr.net/npm/swagger-ui-dist@5.35.0/swagger-ui-bundle.js"
SWAGGER_CSS = "https://cdn.jsdelivr.net/npm/swagger-ui-dist@5.35.0/swagger-ui.css"


# -- apps, people and browsers ------------------------------------------------------------------


def make_settings(tmp_path: Path, **overrides: Any) -> Settings:
    values: dict[str, Any] = {"database_url": f"sqlite:///{tmp_path / 'canopy.db'}",
                              "htmx_source": "local", "bot_delay": 0.0}
    values.update(overrides)
    return Settings(**values)


@contextmanager
def serving(tmp_path: Path, **overrides: Any) -> Iterator[TestClient]:
    """A TestClient on an app with the real defaults except ``overrides``."""
    tmp_path.mkdir(parents=True, exist_ok=True)
    with TestClient(create_app(make_settings(tmp_path, **overrides))) as client:
        yield client


def count_rows(tmp_path: Path, table: str) -> int:
    conn = sqlite3.connect(tmp_path / "canopy.db")
    try:
        return int(conn.execute(f"SELECT count(*) FROM {table}").fetchone()[0])
    finally:
        conn.close()


@dataclass
class Person:
    """A player driving the JSON API with a bearer token (no cookie)."""

    client: TestClient
    id: int
    name: str
    token: str

    @property
    def auth(self) -> dict[str, str]:
        return {"Authorization": f"Bearer {self.token}"}

    @property
    def cookie(self) -> dict[str, str]:
        return {"Cookie": f"canopy_token={self.token}"}

    def get(self, path: str) -> httpx.Response:
        return self.client.get(path, headers=self.auth)

    def post(self, path: str, json: Any = None) -> httpx.Response:
        return self.client.post(path, json=json, headers=self.auth)

    def put(self, path: str, json: Any = None) -> httpx.Response:
        return self.client.put(path, json=json, headers=self.auth)

    def delete(self, path: str) -> httpx.Response:
        return self.client.delete(path, headers=self.auth)


def person(client: TestClient, name: str, **headers: str) -> Person:
    answer = client.post("/api/players", json={"name": name}, headers=headers)
    assert answer.status_code == 200, answer.text
    client.cookies.clear()  # each person keeps their own token; the client shares no cookie
    body = answer.json()
    return Person(client, body["id"], body["name"], body["token"])


def started(host: Person, others: list[Person], game: str = "arboretum") -> int:
    room = host.post("/api/rooms", {"game": game, "players": 1 + len(others)})
    assert room.status_code == 201, room.text
    rid = int(room.json()["id"])
    for other in others:
        joined = other.post(f"/api/rooms/{rid}/join")
        assert joined.status_code == 200, joined.text
    assert host.post(f"/api/rooms/{rid}/start").status_code == 200
    return rid


class Browser:
    """A browser as the server sees it: its own cookie jar, the app's ``Origin`` on every
    form POST, redirects followed only when asked."""

    def __init__(self, client: TestClient, origin: str | None = ORIGIN) -> None:
        self.client = client
        self.origin = origin
        self.jar: dict[str, str] = {}

    def request(self, method: str, url: str, data: dict[str, str] | None = None,
                **headers: str) -> httpx.Response:
        sent = dict(headers)
        if self.jar:
            sent["Cookie"] = "; ".join(f"{k}={v}" for k, v in self.jar.items())
        if method == "POST" and self.origin:
            sent["Origin"] = self.origin
        self.client.cookies.clear()
        answer = self.client.request(method, url, data=data, headers=sent,
                                     follow_redirects=False)
        self.client.cookies.clear()
        for raw in answer.headers.get_list("set-cookie"):
            parsed: SimpleCookie = SimpleCookie()
            parsed.load(raw)
            for name, morsel in parsed.items():
                if morsel["max-age"] == "0" or not morsel.value:
                    self.jar.pop(name, None)
                else:
                    self.jar[name] = morsel.value
        return answer

    def get(self, url: str, **headers: str) -> httpx.Response:
        return self.request("GET", url, None, **headers)

    def post(self, url: str, data: dict[str, str]) -> httpx.Response:
        return self.request("POST", url, data)


def location(answer: httpx.Response) -> str:
    assert answer.status_code == 303, (answer.status_code, answer.text[:300])
    return answer.headers["location"]


def invite_link(page: str) -> str:
    found = re.search(r'id="invite-link" readonly value="([^"]*)"', page)
    assert found, "the lobby page shows no invite link"
    return html.unescape(found.group(1))


def expect_429(answer: httpx.Response) -> None:
    assert answer.status_code == 429, (answer.status_code, answer.text)
    retry = answer.headers.get("retry-after")
    assert retry is not None and retry.isdigit() and int(retry) >= 1, retry


# -- item 1: login CSRF and cross-site requests --------------------------------------------------


def test_item1_login_csrf_a_cross_site_name_form_sets_no_cookie(tmp_path: Path) -> None:
    with serving(tmp_path) as client:
        for headers in ({"Origin": EVIL}, {"Sec-Fetch-Site": "cross-site"}):
            refused = client.post("/name", data={"name": "Mallory"}, headers=headers,
                                  follow_redirects=False)
            assert refused.status_code == 403, (headers, refused.status_code, refused.text)
            assert "set-cookie" not in refused.headers
            assert not client.cookies
        assert count_rows(tmp_path, "player") == 0
        own = client.post("/name", data={"name": "Ana"}, headers={"Origin": ORIGIN},
                          follow_redirects=False)
        assert own.status_code == 303
        assert "canopy_token=" in own.headers["set-cookie"]
        assert count_rows(tmp_path, "player") == 1


def test_item1_cookie_requests_must_come_from_the_app_origin(tmp_path: Path) -> None:
    with serving(tmp_path, max_open_rooms=50) as client:
        ana = person(client, "Ana")
        body = {"game": "arboretum", "players": 2}

        def create(**headers: str) -> httpx.Response:
            return client.post("/api/rooms", json=body, headers={**ana.cookie, **headers})

        refused = [{"Origin": EVIL}, {"Origin": "http://testserver:8080"},
                   {"Origin": "https://testserver"}, {"Origin": "http://games.testserver"},
                   {"Origin": "null"}, {"Sec-Fetch-Site": "cross-site"},
                   {"Sec-Fetch-Site": "same-site"}, {}]
        for headers in refused:
            answer = create(**headers)
            assert answer.status_code == 403, (headers, answer.status_code, answer.text)
        assert client.get("/api/rooms").json() == []
        assert create(Origin=ORIGIN).status_code == 201
        assert create(**{"Sec-Fetch-Site": "same-origin"}).status_code == 201
        # The same cookie-borne refusal for another state-changing route.
        rid = client.get("/api/rooms").json()[0]["id"]
        answer = client.post(f"/api/rooms/{rid}/leave", headers={**ana.cookie, "Origin": EVIL})
        assert answer.status_code == 403
        # Bearer requests are not a browser's: no Origin check at all.
        for headers in ({"Origin": EVIL}, {"Sec-Fetch-Site": "cross-site"}, {}):
            answer = client.post("/api/rooms", json=body, headers={**ana.auth, **headers})
            assert answer.status_code == 201, (headers, answer.status_code, answer.text)
        assert len(client.get("/api/rooms").json()) == 5


def test_item1_public_origin_is_the_only_accepted_origin(tmp_path: Path) -> None:
    with serving(tmp_path, public_origin="https://games.example.org",
                 max_open_rooms=50) as client:
        ana = person(client, "Ana")
        body = {"game": "arboretum", "players": 2}

        def create(origin: str) -> int:
            return client.post("/api/rooms", json=body,
                               headers={**ana.cookie, "Origin": origin}).status_code

        assert create("https://games.example.org") == 201
        for other in ("http://testserver", "https://chat.example.org",
                      "http://games.example.org", "https://games.example.org:8443", EVIL):
            assert create(other) == 403, other
        refused = client.post("/name", data={"name": "Bo"}, headers={"Origin": ORIGIN},
                              follow_redirects=False)
        assert refused.status_code == 403 and "set-cookie" not in refused.headers
        client.cookies.clear()
        own = client.post("/name", data={"name": "Bo"},
                          headers={"Origin": "https://games.example.org"},
                          follow_redirects=False)
        assert own.status_code == 303 and "canopy_token=" in own.headers["set-cookie"]


# -- item 2: socket handshakes from another site -------------------------------------------------


def test_item2_testclient_socket_handshake_from_another_site_is_refused(
        tmp_path: Path) -> None:
    """Starlette's TestClient reports a handshake refused before ``accept`` as
    WebSocketDisconnect with the close code the app used (1008); a real server answers 403
    (the next test)."""
    with serving(tmp_path) as client:
        ana = person(client, "Ana")
        rid = started(ana, [], game="evergreen")
        for path in (f"/ws/rooms/{rid}", f"/ws/rooms/{rid}/html"):
            for origin in (EVIL, "http://testserver:8080", "null"):
                for auth in (f"?token={ana.token}", ""):
                    headers = {"origin": origin} if auth else {"origin": origin, **ana.cookie}
                    with pytest.raises(WebSocketDisconnect) as refused, \
                            client.websocket_connect(path + auth, headers=headers) as ws:
                        ws.receive_text()
                    assert refused.value.code == 1008, (path, origin)
        with client.websocket_connect(f"/ws/rooms/{rid}?token={ana.token}",
                                      headers={"origin": ORIGIN}) as ws:
            assert ws.receive_json()["type"] == "snapshot"
        with client.websocket_connect(f"/ws/rooms/{rid}?token={ana.token}") as ws:  # no Origin
            assert ws.receive_json()["type"] == "snapshot"
        with client.websocket_connect(f"/ws/rooms/{rid}/html",
                                      headers={"origin": ORIGIN, **ana.cookie}) as ws:
            assert "hx-swap-oob" in ws.receive_text()
        with client.websocket_connect(f"/ws/rooms/{rid}/html?token={ana.token}") as ws:
            assert "hx-swap-oob" in ws.receive_text()


@pytest.fixture(scope="module")
def edge_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """A real uvicorn with small socket limits: 2 sockets per player, 3 per address, 5
    messages per second (bursts of 10); the REST limits stay generous."""
    srv = Server(tmp_path_factory.mktemp("edge") / "canopy.db", WS_PER_PLAYER="2",
                 WS_PER_ADDRESS="3", WS_RATE="5")
    srv.start()
    yield srv
    srv.stop()


def test_item2_real_server_answers_403_to_a_foreign_handshake(edge_server: Server) -> None:
    ana = Client.create(edge_server.base, "Ana")
    rid = new_room(ana, [], game="evergreen")
    for path in (f"/ws/rooms/{rid}", f"/ws/rooms/{rid}/html"):
        url = f"{edge_server.ws_base}{path}?token={ana.token}"
        with pytest.raises(InvalidStatus) as refused, \
                connect(url, origin=Origin(EVIL), open_timeout=5):
            pass
        assert refused.value.response.status_code == 403
        for origin in (Origin(edge_server.base), None):
            with connect(url, origin=origin, open_timeout=5) as ws:
                first = ws.recv(timeout=5)
                if path.endswith("/html"):
                    assert "hx-swap-oob" in first
                else:
                    assert json.loads(first)["type"] == "snapshot"


# -- item 3: the host -----------------------------------------------------------------------------


def host_tags(page: str) -> list[str]:
    """The occupants shown with the "host" tag on a lobby page."""
    return [name.strip() for name in re.findall(
        r'<span class="occupant">([^<]*)<span class="tag host">host</span>', page)]


def test_item3_only_the_host_runs_the_room(tmp_path: Path) -> None:
    with serving(tmp_path) as client:
        ana, bo, cai = (person(client, n) for n in ("Ana", "Bo", "Cai"))
        room = ana.post("/api/rooms", {"game": "evergreen", "players": 3})
        assert room.status_code == 201
        rid = room.json()["id"]
        assert room.json()["host"] == {"id": ana.id, "name": "Ana"}
        assert bo.post(f"/api/rooms/{rid}/join", {"seat": 1}).status_code == 200
        attempts = {
            "start": lambda p: p.post(f"/api/rooms/{rid}/start"),
            "add a bot": lambda p: p.post(f"/api/rooms/{rid}/bots", {"seat": 2}),
            "change options": lambda p: p.put(f"/api/rooms/{rid}/options", {"sun_start": "E"}),
            "remove a player": lambda p: p.delete(f"/api/rooms/{rid}/seats/0"),
        }
        for what, attempt in attempts.items():
            for who in (bo, cai):  # seated, and not seated
                answer = attempt(who)
                assert answer.status_code == 403, (what, who.name, answer.text)
                assert "host" in answer.json()["detail"] and "Ana" in answer.json()["detail"]
        assert ana.post(f"/api/rooms/{rid}/bots", {"seat": 2}).status_code == 200
        answer = bo.delete(f"/api/rooms/{rid}/bots/2")
        assert answer.status_code == 403 and "Ana" in answer.json()["detail"]
        assert ana.delete(f"/api/rooms/{rid}/bots/2").status_code == 200
        changed = ana.put(f"/api/rooms/{rid}/options", {"sun_start": "E"})
        assert changed.status_code == 200 and changed.json()["options"] == {"sun_start": "E"}
        assert ana.get(f"/api/rooms/{rid}").json()["options"] == {"sun_start": "E"}
        removed = ana.delete(f"/api/rooms/{rid}/seats/1")
        assert removed.status_code == 200 and removed.json()["seats"][1]["free"]

        # The host leaves: the next person seated hosts.
        assert bo.post(f"/api/rooms/{rid}/join", {"seat": 1}).status_code == 200
        assert cai.post(f"/api/rooms/{rid}/join", {"seat": 2}).status_code == 200
        assert host_tags(client.get(f"/rooms/{rid}").text) == ["Ana"]
        assert ana.post(f"/api/rooms/{rid}/leave").status_code == 200
        assert client.get(f"/api/rooms/{rid}").json()["host"] == {"id": bo.id, "name": "Bo"}
        page = client.get(f"/rooms/{rid}", headers=cai.cookie).text
        assert host_tags(page) == ["Bo"]
        assert "Waiting for" in page and "Bo" in page
        answer = cai.post(f"/api/rooms/{rid}/bots", {"seat": 0})
        assert answer.status_code == 403 and "Bo" in answer.json()["detail"]
        assert ana.post(f"/api/rooms/{rid}/bots", {"seat": 0}).status_code == 403
        assert bo.post(f"/api/rooms/{rid}/bots", {"seat": 0}).status_code == 200
        assert cai.post(f"/api/rooms/{rid}/start").status_code == 403
        assert bo.post(f"/api/rooms/{rid}/start").status_code == 200


# -- item 4: private rooms and invite codes ------------------------------------------------------


def test_item4_private_rooms_are_unlisted_and_their_code_shown_only_to_seated_players(
        tmp_path: Path) -> None:
    with serving(tmp_path) as client:
        ana, bo = person(client, "Ana"), person(client, "Bo")
        private = ana.post("/api/rooms", {"game": "arboretum", "players": 3, "private": True})
        public = ana.post("/api/rooms", {"game": "arboretum", "players": 3})
        assert private.status_code == public.status_code == 201
        pid, uid = private.json()["id"], public.json()["id"]
        listed = client.get("/api/rooms").json()
        assert [r["id"] for r in listed] == [uid]
        assert listed[0]["code"] is None and listed[0]["invite"] is None
        assert all(r["code"] is None and r["invite"] is None
                   for r in bo.get("/api/rooms").json())
        mine = ana.get(f"/api/rooms/{pid}").json()
        code = mine["code"]
        assert mine["private"] is True and mine["invite"] == f"/r/{code}"
        assert len(code) == 14 and set(code) <= set(CODE_ALPHABET), code
        assert len(set(CODE_ALPHABET)) == 31 and 31 ** 14 >= 2 ** 64
        assert ana.get(f"/api/rooms/{uid}").json()["code"] != code  # one code per room
        for viewer in (bo.get, client.get):  # not seated; nobody
            # a private room is 404 to them, as an unknown room (tests/api/test_private_rooms.py)
            assert viewer(f"/api/rooms/{pid}").status_code == 404
            assert viewer(f"/api/rooms/{uid}").json()["code"] is None
        assert bo.post(f"/api/rooms/{uid}/join").status_code == 200  # public: no code
        assert bo.get(f"/api/rooms/{uid}").json()["code"] is not None


def test_item4_joining_a_private_room_needs_its_code(tmp_path: Path) -> None:
    with serving(tmp_path) as client:
        ana, bo = person(client, "Ana"), person(client, "Bo")
        rid = ana.post("/api/rooms", {"game": "arboretum", "players": 2,
                                      "private": True}).json()["id"]
        code = ana.get(f"/api/rooms/{rid}").json()["code"]
        for body in (None, {}, {"seat": 1}, {"code": "x" * 14}, {"code": code.upper()},
                     {"code": code[:-1]}, {"code": ""}):
            answer = bo.post(f"/api/rooms/{rid}/join", body)  # 404: as an unknown room
            assert answer.status_code == 404, (body, answer.status_code, answer.text)
        assert ana.get(f"/api/rooms/{rid}").json()["seats"][1]["free"]
        joined = bo.post(f"/api/rooms/{rid}/join", {"code": code})
        assert joined.status_code == 200
        assert joined.json()["seats"][1]["player"]["name"] == "Bo"
        assert bo.get(f"/api/rooms/{rid}").json()["code"] == code


def test_item4_wrong_codes_are_rate_limited_per_address(tmp_path: Path) -> None:
    with serving(tmp_path, rate_wrong_codes="3/minute", trust_forwarded=True) as client:
        ana, bo = person(client, "Ana"), person(client, "Bo")
        rid = ana.post("/api/rooms", {"game": "arboretum", "players": 3,
                                      "private": True}).json()["id"]
        code = ana.get(f"/api/rooms/{rid}").json()["code"]
        here = {**bo.auth, "X-Forwarded-For": "203.0.113.7"}
        for attempt in range(3):
            answer = client.post(f"/api/rooms/{rid}/join", json={"code": f"wrong{attempt}"},
                                 headers=here)
            assert answer.status_code == 404, answer.text
        expect_429(client.post(f"/api/rooms/{rid}/join", json={"code": "wrong"}, headers=here))
        # Even the right code, from that address, until the window passes.
        expect_429(client.post(f"/api/rooms/{rid}/join", json={"code": code}, headers=here))
        assert ana.get(f"/api/rooms/{rid}").json()["seats"][1]["free"]
        # Another address is not held back.
        elsewhere = {**bo.auth, "X-Forwarded-For": "198.51.100.9"}
        answer = client.post(f"/api/rooms/{rid}/join", json={"code": code}, headers=elsewhere)
        assert answer.status_code == 200, answer.text


def test_item4_the_new_table_form_makes_private_tables_by_default(tmp_path: Path) -> None:
    with serving(tmp_path) as client:
        ana = Browser(client)
        location(ana.post("/name", {"name": "Ana"}))
        home = ana.get("/").text
        assert re.search(r'<input type="checkbox" name="private"[^>]*\bchecked\b', home)
        made = location(ana.post("/rooms", {"game": "arboretum", "players-arboretum": "2"}))
        rid = int(made.rsplit("/", 1)[1])
        room = ana.get(f"/api/rooms/{rid}").json()
        assert room["private"] is True and room["code"] is not None
        assert client.get("/api/rooms").json() == []
        # The box unchecked: only the hidden "false" arrives, and the table is listed.
        made = location(ana.post("/rooms", {"game": "arboretum", "players-arboretum": "2",
                                            "private": "false"}))
        public = int(made.rsplit("/", 1)[1])
        assert [r["id"] for r in client.get("/api/rooms").json()] == [public]


def test_item4_an_invite_link_seats_a_newcomer(tmp_path: Path) -> None:
    with serving(tmp_path) as client:
        ana = Browser(client)
        location(ana.post("/name", {"name": "Ana"}))
        page_path = location(ana.post("/rooms", {"game": "arboretum",
                                                 "players-arboretum": "2"}))
        link = invite_link(ana.get(page_path).text)
        assert link.startswith(f"{ORIGIN}/r/")
        code = link.rsplit("/", 1)[1]

        bo = Browser(client)
        landing = location(bo.get(urlsplit(link).path))
        assert landing == f"{page_path}?invite={code}"
        page = bo.get(landing).text
        assert "Take a seat" in page
        form = dict(re.findall(r'<input type="hidden" name="(next|join|code)" value="([^"]*)"',
                               page))
        assert html.unescape(form["code"]) == code
        # the name takes the first free seat: one step from the link to the table
        assert location(bo.post("/name", {"name": "Bo", **form})) == page_path
        assert "canopy_token" in bo.jar and "canopy_flash" not in bo.jar
        room = bo.get(f"/api/rooms/{page_path.rsplit('/', 1)[1]}").json()
        assert room["seats"][1]["player"]["name"] == "Bo"
        assert room["private"] is True


# -- item 5: the body cap -------------------------------------------------------------------------


def test_item5_a_declared_body_over_the_cap_gets_413(tmp_path: Path) -> None:
    with serving(tmp_path) as client:
        big = json.dumps({"name": "x" * 400_000})
        answer = client.post("/api/players", content=big,
                             headers={"Content-Type": "application/json"})
        assert answer.status_code == 413, (answer.status_code, answer.text[:200])
        form = client.post("/name", data={"name": "y" * 400_000}, headers={"Origin": ORIGIN},
                           follow_redirects=False)
        assert form.status_code == 413
        assert "set-cookie" not in form.headers
        assert count_rows(tmp_path, "player") == 0
        # Just under the cap is read (and refused by the name's own rule, not by size).
        small = client.post("/api/players", json={"name": "z" * 60_000})
        assert small.status_code == 422


def test_item5_a_chunked_body_over_the_cap_gets_413_from_a_real_server(
        edge_server: Server) -> None:
    def players_named_x() -> int:
        conn = sqlite3.connect(edge_server.db)
        try:
            return int(conn.execute(
                "SELECT count(*) FROM player WHERE name LIKE 'xxxx%'").fetchone()[0])
        finally:
            conn.close()

    def body() -> Iterator[bytes]:  # no Content-Length: httpx sends it chunked
        yield b'{"name": "'
        for _ in range(8):
            yield b"x" * 65_536
        yield b'"}'

    answer = httpx.post(edge_server.base + "/api/players", content=body(),
                        headers={"Content-Type": "application/json"}, timeout=10)
    assert answer.request.headers.get("transfer-encoding") == "chunked"
    assert "content-length" not in answer.request.headers
    assert answer.status_code == 413, (answer.status_code, answer.text[:200])

    # Before being read in full: the 413 arrives while the chunked body is still unfinished,
    # and a declared length over the cap is refused before any byte of the body is sent.
    for head, first in (
            (b"Transfer-Encoding: chunked\r\n", b"%x\r\n%s\r\n" % (70_000, b"x" * 70_000)),
            (b"Content-Length: 400000\r\n", b"")):
        with socket.create_connection(("127.0.0.1", edge_server.port), timeout=5) as raw:
            raw.sendall(b"POST /api/players HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                        b"Content-Type: application/json\r\n" + head + b"\r\n" + first)
            reply = raw.recv(200)
        assert reply.startswith(b"HTTP/1.1 413"), reply
    assert players_named_x() == 0


# -- item 6: socket caps, limits and resync -------------------------------------------------------


def recv_json(ws: ClientConnection) -> dict[str, Any]:
    message: dict[str, Any] = json.loads(ws.recv(timeout=5))
    return message


def close_code(ws: ClientConnection) -> int:
    """The code the server closed ``ws`` with (messages before the close are skipped)."""
    deadline = time.monotonic() + 5
    with pytest.raises(ConnectionClosed) as closed:
        while True:
            ws.recv(timeout=max(0.01, deadline - time.monotonic()))
    assert closed.value.rcvd is not None, "closed without a close frame"
    return closed.value.rcvd.code


def open_lobby_socket(stack: ExitStack, url: str) -> tuple[ClientConnection, dict[str, Any]]:
    """A JSON socket of a room not started (closed with ``stack``) and its first message."""
    ws = stack.enter_context(connect(url, open_timeout=5))
    return ws, recv_json(ws)


def accepted_eventually(stack: ExitStack, url: str) -> ClientConnection:
    """A socket opened on ``url`` once the server has released one (it counts a closed
    socket out when it notices the close: a moment after the client's close returns)."""
    deadline = time.monotonic() + 5
    while True:
        ws, first = open_lobby_socket(stack, url)
        if first["type"] == "lobby":
            return ws
        ws.close()
        assert first.get("status") == 429 and time.monotonic() < deadline, first
        time.sleep(0.05)


def test_item6_sockets_are_capped_per_player_and_per_address(edge_server: Server) -> None:
    ana, bo = (Client.create(edge_server.base, n) for n in ("Ana", "Bo"))
    rid = new_room(ana, [bo], start=False)
    url = f"{edge_server.ws_base}/ws/rooms/{rid}"
    ana_url, bo_url = f"{url}?token={ana.token}", f"{url}?token={bo.token}"
    with ExitStack() as stack:
        a1, a2 = accepted_eventually(stack, ana_url), accepted_eventually(stack, ana_url)
        a3, refusal = open_lobby_socket(stack, ana_url)  # ws_per_player=2
        assert refusal["type"] == "error" and refusal["status"] == 429, refusal
        assert "player" in refusal["detail"]
        assert close_code(a3) == 4429
        a1.close()
        a1 = accepted_eventually(stack, ana_url)  # released: accepted again

        b1 = accepted_eventually(stack, bo_url)  # the address's third (ws_per_address=3)
        for over in (bo_url, url):  # Bo's first socket but the address's fourth; anonymous
            ws, refusal = open_lobby_socket(stack, over)
            assert refusal["type"] == "error" and refusal["status"] == 429, refusal
            assert "address" in refusal["detail"]
            assert close_code(ws) == 4429
        # The htmx socket counts and is refused alike (no error frame: htmx would take it
        # for HTML).
        html_ws = stack.enter_context(connect(f"{url}/html?token={bo.token}", open_timeout=5))
        assert close_code(html_ws) == 4429
        a2.close()
        b2 = accepted_eventually(stack, bo_url)
        for ws in (a1, b1, b2):
            ws.close()
    with ExitStack() as stack:  # every socket released: the caps are free again
        for target in (ana_url, ana_url, bo_url):
            accepted_eventually(stack, target)


def test_item6_htmx_socket_closes_on_a_message_over_ws_max_message(
        edge_server: Server) -> None:
    ana = Client.create(edge_server.base, "Ana")
    rid = new_room(ana, [], game="evergreen")
    url = f"{edge_server.ws_base}/ws/rooms/{rid}/html?token={ana.token}"
    with connect(url, open_timeout=5) as ws:
        assert "hx-swap-oob" in ws.recv(timeout=5)
        ws.send("x" * 16_385)  # WS_MAX_MESSAGE is 16 384 bytes by default
        assert close_code(ws) == 1009
    with connect(url, open_timeout=5) as ws:  # a message within the limit is fine
        ws.recv(timeout=5)
        ws.send("x" * 16_000)
        with pytest.raises(TimeoutError):
            ws.recv(timeout=0.5)


def test_item6_htmx_socket_closes_when_flooded(edge_server: Server) -> None:
    ana = Client.create(edge_server.base, "Ana")
    rid = new_room(ana, [], game="evergreen")
    url = f"{edge_server.ws_base}/ws/rooms/{rid}/html?token={ana.token}"
    with connect(url, open_timeout=5) as ws:
        assert "hx-swap-oob" in ws.recv(timeout=5)
        for _ in range(40):  # WS_RATE=5: bursts of 10
            try:
                ws.send("{}")
            except ConnectionClosed:
                break
        assert close_code(ws) == 1008


def test_item6_resync_answers_the_present_view_as_one_root_replace(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # Three full resyncs in a row: their limit per socket (tests/hardening/test_probe.py) off.
    with serving(tmp_path, ws_resync_seconds=0) as client:
        ana, bo = person(client, "Ana"), person(client, "Bo")
        rid = started(ana, [bo])
        seats = {0: ana, 1: bo}
        for version in range(3):
            state = ana.get(f"/api/rooms/{rid}/state").json()
            mover = seats[state["active_seats"][0]]
            move = mover.get(f"/api/rooms/{rid}/moves").json()["moves"][0]
            assert mover.post(f"/api/rooms/{rid}/moves",
                              {"move": move, "expected_version": version}).status_code == 200
        rest = bo.get(f"/api/rooms/{rid}/state").json()
        assert rest["version"] == 3
        with client.websocket_connect(f"/ws/rooms/{rid}?token={bo.token}") as ws:
            snapshot = ws.receive_json()
            assert snapshot["type"] == "snapshot" and snapshot["version"] == 3

            def replay(*_: Any, **__: Any) -> Any:
                raise AssertionError("a resync must not replay the move log")

            monkeypatch.setattr("app.rooms.store.rebuild", replay)  # the store's one replay
            for since in (0, 1, 2):
                ws.send_json({"type": "resync", "since": since})
                patch = ws.receive_json()
                assert patch["type"] == "patch", patch
                assert (patch["from"], patch["to"]) == (since, 3)
                assert patch["ops"] == [{"op": "replace", "path": "", "value": rest["view"]}]
                assert jsonpatch.apply_patch({"old": since}, patch["ops"]) == rest["view"]
                assert patch["active_seats"] == rest["active_seats"]
                assert patch["statuses"] == rest["statuses"]
                assert patch["result"] == rest["result"]
            ws.send_json({"type": "resync", "since": 3})
            patch = ws.receive_json()
            assert patch["type"] == "patch" and (patch["from"], patch["to"]) == (3, 3)
            assert patch["ops"] == []


# -- item 7: REST rate limits and open rooms per host --------------------------------------------


def test_item7_signups_are_rate_limited_per_address(tmp_path: Path) -> None:
    with serving(tmp_path, rate_signups="3/minute") as client:
        for n in range(3):
            person(client, f"P{n}")
        expect_429(client.post("/api/players", json={"name": "P3"}))
        client.cookies.clear()
        form = client.post("/name", data={"name": "P4"}, headers={"Origin": ORIGIN},
                           follow_redirects=False)  # a page answers with its page and words
        assert form.status_code == 303 and "canopy_token" not in form.headers.get(
            "set-cookie", "")
        shown = client.get("/", headers={"Origin": ORIGIN}).text
        assert re.search(r'class="flash error"[^>]*>[^<]*too many new players', shown)
        assert count_rows(tmp_path, "player") == 3


def test_item7_new_rooms_are_rate_limited_per_address(tmp_path: Path) -> None:
    with serving(tmp_path, rate_rooms="3/minute", max_open_rooms=10) as client:
        ana = person(client, "Ana")
        for _ in range(3):
            assert ana.post("/api/rooms", {"game": "arboretum", "players": 2}).status_code == 201
        expect_429(ana.post("/api/rooms", {"game": "arboretum", "players": 2}))
        assert count_rows(tmp_path, "room") == 3


def test_item7_joins_are_rate_limited_per_address(tmp_path: Path) -> None:
    with serving(tmp_path, rate_joins="3/minute") as client:
        ana, bo = person(client, "Ana"), person(client, "Bo")
        rid = ana.post("/api/rooms", {"game": "arboretum", "players": 2}).json()["id"]
        for _ in range(3):
            assert bo.post(f"/api/rooms/{rid}/join").status_code == 200
            assert bo.post(f"/api/rooms/{rid}/leave").status_code == 200
        expect_429(bo.post(f"/api/rooms/{rid}/join"))
        assert client.get(f"/api/rooms/{rid}").json()["seats"][1]["free"]


def test_item7_forwarded_addresses_count_apart_only_when_trusted(tmp_path: Path) -> None:
    def signup(client: TestClient, address: str) -> int:
        answer = client.post("/api/players", json={"name": "P"},
                             headers={"X-Forwarded-For": f"{address}, 10.0.0.1"})
        client.cookies.clear()
        return answer.status_code

    with serving(tmp_path / "trusted", rate_signups="2/minute", trust_forwarded=True) as client:
        assert [signup(client, "203.0.113.1") for _ in range(3)] == [200, 200, 429]
        assert signup(client, "203.0.113.2") == 200
    with serving(tmp_path / "direct", rate_signups="2/minute") as client:
        assert [signup(client, "203.0.113.1") for _ in range(2)] == [200, 200]
        assert signup(client, "203.0.113.2") == 429  # the header is anybody's to write


def test_item7_open_rooms_per_host_are_capped(tmp_path: Path) -> None:
    with serving(tmp_path, max_open_rooms=2) as client:
        ana, bo = person(client, "Ana"), person(client, "Bo")
        first = ana.post("/api/rooms", {"game": "arboretum", "players": 2}).json()["id"]
        assert ana.post("/api/rooms", {"game": "arboretum", "players": 2}).status_code == 201
        third = ana.post("/api/rooms", {"game": "arboretum", "players": 2})
        assert third.status_code == 409, third.text
        assert bo.post("/api/rooms", {"game": "arboretum", "players": 2}).status_code == 201
        assert ana.post(f"/api/rooms/{first}/bots").status_code == 200
        assert ana.post(f"/api/rooms/{first}/start").status_code == 200
        assert ana.post("/api/rooms", {"game": "arboretum", "players": 2}).status_code == 201
        assert ana.post("/api/rooms", {"game": "arboretum", "players": 2}).status_code == 409


# -- item 8: security headers and pages without inline script ------------------------------------


def csp(answer: httpx.Response) -> dict[str, list[str]]:
    policy = answer.headers.get("content-security-policy")
    assert policy, f"{answer.request.url} has no Content-Security-Policy"
    directives: dict[str, list[str]] = {}
    for part in policy.split(";"):
        words = part.split()
        if words:
            directives[words[0]] = words[1:]
    return directives


class ScriptAudit(HTMLParser):
    """What a page would run that is not a file: inline scripts, ``on…=`` handlers,
    ``javascript:`` URLs; and the scripts and stylesheets it loads."""

    def __init__(self) -> None:
        super().__init__()
        self.problems: list[str] = []
        self.scripts: list[dict[str, str | None]] = []
        self.styles: list[dict[str, str | None]] = []
        self.in_script = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        for name, value in attrs:
            if name.lower().startswith("on"):
                self.problems.append(f"<{tag} {name}=…>")
            if value and "javascript:" in "".join(value.split()).lower():
                self.problems.append(f"<{tag} {name}={value[:60]!r}>")
        if tag == "script":
            self.scripts.append(dict(attrs))
            if not dict(attrs).get("src"):
                self.problems.append("<script> without src")
            self.in_script = True
        if tag == "link" and dict(attrs).get("rel") == "stylesheet":
            self.styles.append(dict(attrs))

    def handle_endtag(self, tag: str) -> None:
        if tag == "script":
            self.in_script = False

    def handle_data(self, data: str) -> None:
        if self.in_script and data.strip():
            self.problems.append(f"inline script text {data.strip()[:60]!r}")


def audit(page: str) -> ScriptAudit:
    parser = ScriptAudit()
    parser.feed(page)
    assert "javascript:" not in page.lower()
    return parser


def every_page(client: TestClient) -> list[tuple[str, str]]:
    """(path, viewer's token or '' for nobody) for every kind of page: home, lobby, invite
    link, the table of each game (seated and watching), the data pages, error pages, /docs."""
    ana, bo, cai = (person(client, n) for n in ("Ana", "Bo", "Cai"))
    lobby = ana.post("/api/rooms", {"game": "arboretum", "players": 3}).json()["id"]
    arboretum = started(ana, [bo])
    evergreen = started(cai, [], game="evergreen")
    code = ana.get(f"/api/rooms/{lobby}").json()["code"]
    return [
        ("/", ""), ("/", ana.token), (f"/rooms/{lobby}", ana.token), (f"/rooms/{lobby}", ""),
        (f"/r/{code}", ""), (f"/rooms/{lobby}?invite={code}", ""),
        (f"/rooms/{arboretum}", ana.token), (f"/rooms/{arboretum}", bo.token),
        (f"/rooms/{arboretum}", ""), (f"/rooms/{evergreen}", cai.token),
        (f"/rooms/{evergreen}", ""), ("/rooms/999999", ""), ("/r/nosuchcode", ""),
        ("/docs", ""),
    ]


def fetch(client: TestClient, path: str, token: str) -> httpx.Response:
    """GET ``path`` as the holder of ``token`` (redirects followed, as a browser would)."""
    headers = {"Cookie": f"canopy_token={token}"} if token else {}
    return client.get(path, headers=headers)


def test_item8_security_headers_on_every_page_and_api_answer(tmp_path: Path) -> None:
    with serving(tmp_path, htmx_source="cdn") as client:
        pages = every_page(client)
        dee = person(client, "Dee")
        answers = [fetch(client, path, token) for path, token in pages]
        answers += [client.get(p) for p in ("/api/games", "/api/rooms", "/api/rooms/999999",
                                            "/healthz", "/openapi.json", "/static/canopy.js",
                                            "/nowhere")]
        answers += [
            client.post("/api/rooms", json={"game": "arboretum", "players": 2},
                        headers={**dee.cookie, "Origin": EVIL}),  # 403 at the edge
            client.post("/api/players", content=b"{" + b" " * 70_000 + b"}",
                        headers={"Content-Type": "application/json"}),  # 413 at the edge
            client.post("/api/rooms", json={"game": "arboretum"}, headers=dee.auth),  # 422
            client.post("/api/rooms/999999/start", headers=dee.auth),  # 404
        ]
        statuses = {a.status_code for a in answers}
        assert {200, 403, 404, 413, 422} <= statuses, statuses
        for answer in answers:
            where = f"{answer.request.method} {answer.request.url} ({answer.status_code})"
            directives = csp(answer)
            assert directives.get("frame-ancestors") == ["'none'"], where
            expected = {"'self'", SWAGGER_JS} if answer.request.url.path == "/docs" \
                else {"'self'", *HTMX_CDN_URLS}
            assert set(directives.get("script-src", [])) == expected, (where, directives)
            assert "'unsafe-inline'" not in directives.get("script-src", [])
            assert answer.headers.get("x-content-type-options") == "nosniff", where
            assert answer.headers.get("referrer-policy") == "same-origin", where
            assert "strict-transport-security" not in answer.headers, where


def test_item8_local_htmx_allows_only_self_and_hsts_only_behind_https(tmp_path: Path) -> None:
    with serving(tmp_path / "local") as client:
        for path in ("/", "/api/games"):
            assert csp(client.get(path))["script-src"] == ["'self'"]
            assert "strict-transport-security" not in client.get(path).headers
    with serving(tmp_path / "secure", cookie_secure=True) as client:
        for path in ("/", "/api/games", "/docs"):
            hsts = client.get(path).headers.get("strict-transport-security", "")
            assert hsts.startswith("max-age=") and int(hsts[8:].split(";")[0]) > 0, hsts


def test_item8_pages_have_no_inline_script(tmp_path: Path) -> None:
    with serving(tmp_path, htmx_source="cdn") as client:
        for path, token in every_page(client):
            answer = fetch(client, path, token)
            assert answer.headers["content-type"].startswith("text/html"), path
            found = audit(answer.text)
            assert not found.problems, (path, found.problems)
            allowed = {SWAGGER_JS} if path == "/docs" else HTMX_CDN_URLS
            for script in found.scripts:
                src = script["src"] or ""
                assert (src.startswith("/") and not src.startswith("//")) or src in allowed, \
                    (path, src)
        # A refusal page too (a form refused at the edge answers JSON, not a page).
        assert not audit(client.get("/rooms/0").text).problems


def test_item8_docs_load_swagger_only_from_pinned_urls_with_integrity(tmp_path: Path) -> None:
    with serving(tmp_path) as client:
        answer = client.get("/docs")
        assert answer.status_code == 200
        found = audit(answer.text)
        assert not found.problems, found.problems
        outside = [s for s in found.scripts if not (s.get("src") or "").startswith("/")]
        assert [s["src"] for s in outside] == [SWAGGER_JS]
        assert all((s.get("integrity") or "").startswith("sha384-") for s in outside)
        assert outside[0]["crossorigin"] == "anonymous"
        sheets = [s for s in found.styles if not (s.get("href") or "").startswith("/")]
        assert [s["href"] for s in sheets] == [SWAGGER_CSS]
        assert (sheets[0].get("integrity") or "").startswith("sha384-")
        assert csp(answer)["script-src"] == ["'self'", SWAGGER_JS]
        assert client.get("/openapi.json").status_code == 200


# -- item 9: names ---------------------------------------------------------------------------


def test_item9_a_name_like_a_placeholder_appears_as_typed(tmp_path: Path) -> None:
    with serving(tmp_path) as client:
        tricky, bo = person(client, "{p1}"), person(client, "Bo")
        rid = started(tricky, [bo])
        assert tricky.post(f"/api/rooms/{rid}/moves", {"move": DRAW}).status_code == 200
        log = bo.get(f"/api/rooms/{rid}/log").json()
        texts = [e["text"] for e in log["events"]]
        assert texts == ["{p1} drew from the deck"], texts
        assert not any("Bo" in t for t in texts)
        page = client.get(f"/rooms/{rid}", headers=bo.cookie).text
        assert "{p1} drew from the deck" in page and "Bo drew from the deck" not in page


def test_item9_two_players_of_one_name_are_told_apart(tmp_path: Path) -> None:
    """The code tells them apart by seat ("Ana (1)", "Ana (2)": no word of any language, since
    every reader shares a table's names)."""
    with serving(tmp_path) as client:
        first, second = person(client, "Ana"), person(client, "Ana")
        rid = started(first, [second])
        assert first.post(f"/api/rooms/{rid}/moves", {"move": DRAW}).status_code == 200
        log = second.get(f"/api/rooms/{rid}/log").json()
        assert log["names"] == ["Ana (1)", "Ana (2)"]
        assert [e["text"] for e in log["events"]] == ["Ana (1) drew from the deck"]


# -- item 10: a move with an extra field ----------------------------------------------------------


def test_item10_a_move_with_an_extra_field_is_refused_and_not_stored(tmp_path: Path) -> None:
    with serving(tmp_path) as client:
        ana, bo = person(client, "Ana"), person(client, "Bo")
        rid = started(ana, [bo])
        assert DRAW in ana.get(f"/api/rooms/{rid}/moves").json()["moves"]
        answer = ana.post(f"/api/rooms/{rid}/moves",
                          {"move": {**DRAW, "sneaky": "x" * 1000}, "expected_version": 0})
        assert answer.status_code == 422, answer.text
        assert "sneaky" in answer.json()["detail"]
        # The page's click endpoint merges form fields into the move: refused alike.
        flash = client.post(f"/rooms/{rid}/act",
                            data={"move": json.dumps(DRAW), "sneaky": "1"},
                            headers={**ana.cookie, "Origin": ORIGIN})
        assert flash.status_code == 200 and "sneaky" in flash.text
        assert count_rows(tmp_path, "move") == 0
        assert ana.get(f"/api/rooms/{rid}/state").json()["version"] == 0
        assert ana.post(f"/api/rooms/{rid}/moves", {"move": DRAW}).status_code == 200
        conn = sqlite3.connect(tmp_path / "canopy.db")
        try:
            rows = [json.loads(m) for (m,) in conn.execute("SELECT move FROM move")]
        finally:
            conn.close()
        assert rows == [DRAW]


# -- item 11: no ?error=, a flash cookie ----------------------------------------------------------


def test_item11_the_error_query_parameter_shows_nothing(tmp_path: Path) -> None:
    with serving(tmp_path) as client:
        ana = person(client, "Ana")
        rid = ana.post("/api/rooms", {"game": "arboretum", "players": 2}).json()["id"]
        text = "Your account is locked, call 555-0100"
        for path in ("/", f"/rooms/{rid}"):
            for headers in ({}, ana.cookie):
                page = client.get(path, params={"error": text}, headers=headers).text
                assert "555-0100" not in page and "account is locked" not in page, path


def test_item11_a_refused_form_shows_its_message_once(tmp_path: Path) -> None:
    with serving(tmp_path) as client:
        ana = Browser(client)
        back = location(ana.post("/name", {"name": "   "}))
        assert back == "/" and "error" not in back
        assert "canopy_flash" in ana.jar
        first = ana.get("/")
        assert "name must not be empty" in first.text
        assert 'role="alert"' in first.text
        assert "canopy_flash" not in ana.jar  # cleared by the page that showed it
        assert "name must not be empty" not in ana.get("/").text

        location(ana.post("/name", {"name": "Ana"}))
        back = location(ana.post("/rooms", {"game": "nosuchgame"}))
        assert back == "/" and "?" not in back
        assert "choose one of the games" in ana.get("/").text
        assert "choose one of the games" not in ana.get("/").text
        room_path = location(ana.post("/rooms", {"game": "arboretum",
                                                 "players-arboretum": "2"}))
        back = location(ana.post(f"{room_path}/start", {}))
        assert back == room_path
        page = ana.get(room_path).text
        assert page.count("still free") == 1
        assert "still free" not in ana.get(room_path).text


# -- item 15: invite links -----------------------------------------------------------------------


def test_item15_invite_link_starts_with_public_origin(tmp_path: Path) -> None:
    with serving(tmp_path, public_origin="https://games.example.org") as client:
        ana = person(client, "Ana")
        rid = ana.post("/api/rooms", {"game": "arboretum", "players": 2}).json()["id"]
        code = ana.get(f"/api/rooms/{rid}").json()["code"]
        for base in ("http://testserver", "http://127.0.0.1"):
            page = client.get(f"{base}/rooms/{rid}", headers=ana.cookie).text
            assert invite_link(page) == f"https://games.example.org/r/{code}"
            assert "works only on this computer" not in page


def test_item15_a_loopback_invite_link_warns_and_a_named_host_does_not(tmp_path: Path) -> None:
    with serving(tmp_path) as client:
        ana = person(client, "Ana")
        rid = ana.post("/api/rooms", {"game": "arboretum", "players": 2}).json()["id"]
        code = ana.get(f"/api/rooms/{rid}").json()["code"]
        for base in ("http://127.0.0.1", "http://localhost:8000"):
            page = client.get(f"{base}/rooms/{rid}", headers=ana.cookie).text
            assert invite_link(page) == f"{base}/r/{code}"
            assert "works only on this computer" in page and "PUBLIC_ORIGIN" in page
        page = client.get(f"http://127.0.0.1/rooms/{rid}",
                          headers={**ana.cookie, "Host": "games.example.org"}).text
        assert invite_link(page) == f"http://games.example.org/r/{code}"
        assert "works only on this computer" not in page


def test_item7_open_rooms_per_host_hold_under_concurrent_creations(tmp_path: Path) -> None:
    """Many creations at once by one host: never more than ``max_open_rooms`` wait."""
    from tests.hardening.support import Client, Server, run_threads

    server = Server(tmp_path / "canopy.db", MAX_OPEN_ROOMS="2", RATE_ROOMS="1000/minute")
    server.start()
    try:
        ana = Client.create(server.base, "Ana")
        answers: list[int] = []

        def create() -> None:
            with ana.fresh() as http:
                answers.append(http.post("/api/rooms", json={"game": "arboretum",
                                                             "players": 2}).status_code)

        run_threads([create] * 8)
        assert sorted(answers) == [201, 201] + [409] * 6, answers
    finally:
        server.stop()
