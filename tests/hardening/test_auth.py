"""Authorization (DESIGN.md §3.4): every way of acting without the right is refused with its
status — 401 missing or unknown token, 403 not your seat / not your turn / spectator, 404
unknown room, 409 game over or wrong phase — through REST, the websocket and the browser form,
and nothing changes. Tokens never appear in what the server says (views, patches, logs, room
JSON, error messages, pages, fragments) nor in its access log, whatever way a websocket client
passes ``?token=`` (the redacting filter of app/main.py, checked on a real uvicorn's output).
"""

from __future__ import annotations

import contextlib
import json
import logging
import tempfile
from typing import Any

import httpx
import pytest
from fastapi.testclient import TestClient
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from app.config import Settings
from app.main import RedactTokens, create_app
from tests.hardening.support import Client, Server, bearer, new_room, read_games

DRAW = {"type": "draw", "source": "deck"}


class Recorder:
    """Everything the server said to us, to search for tokens afterwards."""

    def __init__(self) -> None:
        self.texts: list[str] = []

    def http(self, response: httpx.Response) -> httpx.Response:
        self.texts.append(response.text)
        self.texts.extend(f"{k}: {v}" for k, v in response.headers.items()
                          if k.lower() != "set-cookie")
        return response

    def ws(self, raw: str | bytes) -> dict[str, Any]:
        text = raw if isinstance(raw, str) else raw.decode()
        self.texts.append(text)
        message: dict[str, Any] = json.loads(text)
        return message


@pytest.fixture(scope="module")
def table(server: Server) -> dict[str, Any]:
    """Room ``mine``: Ana (seat 0) and Bo (seat 1), playing. Room ``theirs``: Cai and Dee,
    playing. Room ``done``: Ana and Bo, finished. Eve has no seat anywhere."""
    ana, bo, cai, dee, eve = (Client.create(server.base, n)
                              for n in ("Ana", "Bo", "Cai", "Dee", "Eve"))
    mine = new_room(ana, [bo])
    theirs = new_room(cai, [dee])
    done = new_room(ana, [bo])
    seated = [ana, bo]
    for _ in range(400):
        state = ana.get(f"/api/rooms/{done}/state").json()
        if state["result"] is not None:
            break
        (seat,) = state["active_seats"]
        listed = seated[seat].get(f"/api/rooms/{done}/moves").json()
        assert seated[seat].post(f"/api/rooms/{done}/moves",
                                 {"move": listed["moves"][0],
                                  "expected_version": listed["version"]}).status_code == 200
    lobby = ana.post("/api/rooms", {"game": "arboretum", "players": 3}).json()["id"]
    return {"ana": ana, "bo": bo, "cai": cai, "dee": dee, "eve": eve, "mine": mine,
            "theirs": theirs, "done": done, "lobby": lobby}


def versions(server: Server) -> dict[int, int]:
    return {rid: game.version for rid, game in read_games(server.db).items()}


def test_rest_refusals_have_the_right_status(server: Server, table: dict[str, Any]) -> None:
    ana, bo, cai, eve = table["ana"], table["bo"], table["cai"], table["eve"]
    mine, theirs, done, lobby = table["mine"], table["theirs"], table["done"], table["lobby"]
    rec = Recorder()
    before = versions(server)
    anonymous = httpx.Client(base_url=server.base, timeout=10)
    forged = httpx.Client(base_url=server.base, timeout=10, headers=bearer("forged-token"))
    basic = httpx.Client(base_url=server.base, timeout=10,
                         headers={"Authorization": f"Basic {ana.token}"})
    cookie_forged = httpx.Client(base_url=server.base, timeout=10,  # from the site's page
                                 cookies={"canopy_token": "forged"},
                                 headers={"Origin": server.base})
    move = {"move": DRAW}
    cases: list[tuple[httpx.Response, int, str]] = [
        # no token, a forged one, a token in the wrong scheme
        (anonymous.post(f"/api/rooms/{mine}/moves", json=move), 401, "token"),
        (forged.post(f"/api/rooms/{mine}/moves", json=move), 401, "token"),
        (basic.post(f"/api/rooms/{mine}/moves", json=move), 401, "token"),
        (cookie_forged.post(f"/api/rooms/{mine}/moves", json=move), 401, "token"),
        (anonymous.get(f"/api/rooms/{mine}/moves"), 401, "token"),
        (forged.get(f"/api/rooms/{mine}/state"), 401, "token"),  # unknown token: 401 even here
        (forged.get("/api/players/me"), 401, "token"),
        (anonymous.post(f"/api/rooms/{lobby}/join"), 401, "token"),
        (anonymous.post("/api/rooms", json={"game": "arboretum", "players": 2}), 401, "token"),
        # acting out of turn, for no seat, in a foreign room
        (bo.post(f"/api/rooms/{mine}/moves", move), 403, "waiting for"),
        (bo.post(f"/api/rooms/{mine}/moves", {"move": {**DRAW, "seat": 0}}), 422,
         "no field seat"),  # a move never names its seat: the token does
        (eve.post(f"/api/rooms/{mine}/moves", move), 403, "no seat"),
        (eve.get(f"/api/rooms/{mine}/moves"), 403, "no seat"),
        (ana.post(f"/api/rooms/{theirs}/moves", move), 403, "no seat"),
        (eve.post(f"/api/rooms/{lobby}/start"), 403, "host"),
        (eve.post(f"/api/rooms/{lobby}/bots"), 403, "host"),
        (eve.http.delete(f"/api/rooms/{lobby}/bots/1"), 403, "host"),
        (eve.post(f"/api/rooms/{lobby}/leave"), 403, "no seat"),
        (cai.post(f"/api/rooms/{mine}/start"), 403, "host"),
        # a finished game, a running one
        (ana.post(f"/api/rooms/{done}/moves", move), 409, "over"),
        (bo.post(f"/api/rooms/{done}/moves", move), 409, "over"),
        (ana.post(f"/api/rooms/{done}/join"), 409, "already have a seat"),
        (eve.post(f"/api/rooms/{done}/join"), 409, "finished"),
        (ana.post(f"/api/rooms/{done}/leave"), 409, "started"),
        (ana.post(f"/api/rooms/{mine}/leave"), 409, "started"),
        (ana.post(f"/api/rooms/{mine}/bots"), 409, "playing"),
        (ana.post(f"/api/rooms/{mine}/start"), 409, "started"),
        (ana.post(f"/api/rooms/{mine}/moves", {"move": DRAW, "expected_version": 7}), 409,
         "stale"),
        # unknown rooms and seats
        (ana.post("/api/rooms/987654/moves", move), 404, "no room"),
        (ana.get("/api/rooms/987654/state"), 404, "no room"),
        (ana.post("/api/rooms/987654/join"), 404, "no room"),
        (ana.post(f"/api/rooms/{lobby}/bots", {"seat": 9}), 404, "no seat 9"),
        (ana.http.delete(f"/api/rooms/{lobby}/bots/0"), 404, "no bot"),
    ]
    for response, status, words in cases:
        rec.http(response)
        assert response.status_code == status, (response.request.url, response.text)
        assert words in response.json()["detail"], (response.request.url, response.text)
    assert ana.get(f"/api/rooms/{done}/moves").json()["moves"] == []
    assert anonymous.get(f"/api/rooms/{mine}/state").json()["your_seat"] is None  # spectator
    assert versions(server) == before, "a refused request changed a game"
    for client in (anonymous, forged, basic, cookie_forged):
        client.close()
    assert_no_tokens(table, rec.texts)


def test_the_seat_comes_from_the_token_never_from_the_move(server: Server,
                                                           table: dict[str, Any]) -> None:
    """A move (REST, form) that names a seat is refused (a move carries only its own fields;
    the seat is always the caller's), and nothing is stored."""
    ana, bo = Client.create(server.base, "Own"), Client.create(server.base, "Other")
    rid = new_room(ana, [bo])
    named = ana.post(f"/api/rooms/{rid}/moves", {"move": {**DRAW, "seat": 1}})
    assert named.status_code == 422 and named.json()["fields"] == ["seat"]
    form = ana.post(f"/rooms/{rid}/act", data={"move": json.dumps(DRAW), "seat": "1"})
    assert form.status_code == 200 and "no field seat" in form.text
    assert ana.post(f"/api/rooms/{rid}/moves", {"move": DRAW}).status_code == 200
    stored = read_games(server.db)[rid]
    assert [(seat, move) for _, seat, move in stored.moves] == [(0, DRAW)]
    refused = bo.post(f"/rooms/{rid}/act", data={"move": json.dumps(DRAW)})
    assert "waiting for" in refused.text
    assert read_games(server.db)[rid].version == 1


def test_form_refusals(server: Server, table: dict[str, Any]) -> None:
    """The browser form answers a flash message with the refusal (never a 5xx)."""
    ana, eve = table["ana"], table["eve"]
    mine, done = table["mine"], table["done"]
    before = versions(server)
    with httpx.Client(base_url=server.base, timeout=10,
                      headers={"Origin": server.base}) as anonymous:
        text = anonymous.post(f"/rooms/{mine}/act", data={"move": json.dumps(DRAW)}).text
        assert "choose a name" in text
        anonymous.cookies.set("canopy_token", "forged")
        text = anonymous.post(f"/rooms/{mine}/act", data={"move": json.dumps(DRAW)}).text
        assert "choose a name" in text  # an unknown cookie is a newcomer on the pages
    for who, rid, words in ((eve, mine, "no seat"), (ana, done, "over"),
                            (ana, 987654, "no room")):
        answer = who.post(f"/rooms/{rid}/act", data={"move": json.dumps(DRAW)})
        assert answer.status_code == 200 and words in answer.text, answer.text
    assert versions(server) == before


def test_websocket_refusals(server: Server, table: dict[str, Any]) -> None:
    ana, bo, eve = table["ana"], table["bo"], table["eve"]
    mine, theirs, done = table["mine"], table["theirs"], table["done"]
    rec = Recorder()
    before = versions(server)
    base = server.ws_base

    def refused(url: str, status: int, words: str, **kw: Any) -> None:
        with connect(url, **kw) as ws:
            first = rec.ws(ws.recv(timeout=10))
            assert first["type"] in ("snapshot", "lobby"), first
            ws.send(json.dumps({"type": "move", "move": DRAW}))
            while True:
                message = rec.ws(ws.recv(timeout=10))
                if message["type"] == "error":
                    break
            assert message["status"] == status and words in message["detail"], message
            ws.send('{"type": "ping"}')  # a refusal does not end the socket
            while rec.ws(ws.recv(timeout=10))["type"] != "pong":
                pass

    refused(f"{base}/ws/rooms/{mine}", 401, "token")  # no token: a spectator who cannot move
    refused(f"{base}/ws/rooms/{mine}?token={bo.token}", 403, "waiting for")
    refused(f"{base}/ws/rooms/{mine}?token={eve.token}", 403, "no seat")
    refused(f"{base}/ws/rooms/{theirs}?token={ana.token}", 403, "no seat")
    refused(f"{base}/ws/rooms/{done}?token={ana.token}", 409, "over")
    refused(f"{base}/ws/rooms/{mine}", 403, "waiting for",
            additional_headers=bearer(bo.token))
    refused(f"{base}/ws/rooms/{mine}", 403, "no seat",
            additional_headers={"Cookie": f"canopy_token={eve.token}"})
    for url, headers, code in (
            (f"{base}/ws/rooms/{mine}?token=forged", {}, 4401),
            (f"{base}/ws/rooms/{mine}", bearer("forged"), 4401),
            (f"{base}/ws/rooms/{mine}", {"Cookie": "canopy_token=forged"}, 4401),
            (f"{base}/ws/rooms/987654?token={ana.token}", {}, 4404),
            (f"{base}/ws/rooms/{10**30}?token={ana.token}", {}, 4404),
            (f"{base}/ws/rooms/-3", {}, 4404),
            (f"{base}/ws/rooms/abc", {}, 4404),
            (f"{base}/ws/rooms/%D9%A3", {}, 4404),  # an Arabic-Indic 3: int() reads it
            (f"{base}/ws/rooms/{'9' * 5000}", {}, 4404)):  # past int()'s 4300 digits
        with connect(url, additional_headers=headers) as ws:
            error = rec.ws(ws.recv(timeout=10))
            assert (error["type"], error["status"]) == ("error", code - 4000), error
            with pytest.raises(ConnectionClosed) as closed:
                ws.recv(timeout=10)
            assert closed.value.rcvd is not None and closed.value.rcvd.code == code
            assert closed.value.rcvd.reason, "the close names its reason"
            rec.texts.append(closed.value.rcvd.reason)
    with connect(f"{base}/ws/rooms/{mine}/html?token=forged") as ws, \
            pytest.raises(ConnectionClosed) as closed:
        ws.recv(timeout=10)
    assert closed.value.rcvd is not None and closed.value.rcvd.code == 4401
    assert versions(server) == before
    assert_no_tokens(table, rec.texts)


def test_tokens_appear_in_nothing_the_server_says(server: Server,
                                                  table: dict[str, Any]) -> None:
    """Views, patches, the log, room JSON, pages, htmx fragments, error messages: no token."""
    ana, bo, eve = table["ana"], table["bo"], table["eve"]
    rid = new_room(ana, [bo])
    rec = Recorder()
    with connect(f"{server.ws_base}/ws/rooms/{rid}?token={bo.token}") as wb, \
            connect(f"{server.ws_base}/ws/rooms/{rid}/html?token={bo.token}") as html, \
            connect(f"{server.ws_base}/ws/rooms/{rid}?token={eve.token}") as we:
        rec.ws(wb.recv(timeout=10))
        rec.ws(we.recv(timeout=10))
        rec.texts.append(str(html.recv(timeout=10)))
        for _ in range(6):  # Ana's whole turn: two draws, a play, a discard …
            listed = ana.get(f"/api/rooms/{rid}/moves").json()
            if not listed["moves"]:
                break
            rec.http(ana.post(f"/api/rooms/{rid}/moves", {"move": listed["moves"][0]}))
            rec.ws(wb.recv(timeout=10))
            rec.ws(we.recv(timeout=10))
            with contextlib.suppress(TimeoutError):  # only when a region changed
                rec.texts.append(str(html.recv(timeout=2)))
        wb.send(json.dumps({"type": "resync", "since": 0}))
        rec.ws(wb.recv(timeout=10))
    for who in (ana, bo, eve):
        for path in (f"/api/rooms/{rid}/state", f"/api/rooms/{rid}/moves",
                     f"/api/rooms/{rid}/log", f"/api/rooms/{rid}", "/api/rooms",
                     "/api/players/me", f"/rooms/{rid}", "/", "/openapi.json"):
            rec.http(who.get(path))
        rec.http(who.post(f"/rooms/{rid}/act", data={"move": "{"}))
        rec.http(who.post(f"/api/rooms/{rid}/moves", {"move": DRAW, "expected_version": 99}))
    assert len(rec.texts) > 40
    assert_no_tokens(table, rec.texts, extra=[ana.token, bo.token, eve.token])


def assert_no_tokens(table: dict[str, Any], texts: list[str],
                     extra: list[str] | None = None) -> None:
    tokens = [table[n].token for n in ("ana", "bo", "cai", "dee", "eve")] + (extra or [])
    for text in texts:
        for token in tokens:
            assert token not in text, f"a token leaked in: {text[:200]}"


def test_access_log_never_shows_a_token(server: Server, table: dict[str, Any]) -> None:
    """uvicorn logs every websocket URL (query string included) and every request line; the
    filter blanks ``token`` — also when the name is percent-encoded (``%74oken``), which the
    server accepts as the token all the same but the old pattern let into the log."""
    ana, eve = table["ana"], table["eve"]
    rid = table["mine"]
    urls = [f"/ws/rooms/{rid}?token={ana.token}", f"/ws/rooms/{rid}?x=1&token={eve.token}",
            f"/ws/rooms/{rid}?%74oken={eve.token}", f"/ws/rooms/{rid}?TOKEN={ana.token}",
            f"/ws/rooms/{rid}/html?token={ana.token}", f"/ws/rooms/987654?token={ana.token}"]
    for url in urls:
        with connect(server.ws_base + url) as ws:
            ws.recv(timeout=10)
    with connect(f"{server.ws_base}/ws/rooms/{rid}?%74oken={eve.token}") as ws:
        assert json.loads(ws.recv(timeout=10))["your_seat"] is None  # Eve, recognised
    with connect(f"{server.ws_base}/ws/rooms/{rid}?%74oken=forged") as ws:
        assert json.loads(ws.recv(timeout=10))["status"] == 401  # … so it is a token
    httpx.get(f"{server.base}/api/rooms/{rid}/state?token={ana.token}", timeout=10)
    httpx.get(f"{server.base}/ws/rooms/{rid}?token={ana.token}", timeout=10)  # no upgrade
    log = server.log_text()
    assert log.count("[redacted]") >= len(urls) + 3, log[-2000:]
    assert '"WebSocket /ws/rooms/' in log, "the websocket access lines are there"
    assert_no_tokens(table, [log])


def test_redaction_rules() -> None:
    cases = {
        "/ws/rooms/1?token=abc": "/ws/rooms/1?token=[redacted]",
        "/ws/rooms/1?a=1&token=abc&b=2": "/ws/rooms/1?a=1&token=[redacted]&b=2",
        "/ws/rooms/1?%74oken=abc": "/ws/rooms/1?%74oken=[redacted]",
        "/ws/rooms/1?%74%6F%6B%65%6E=abc": "/ws/rooms/1?%74%6F%6B%65%6E=[redacted]",
        "/ws/rooms/1?Token=abc": "/ws/rooms/1?Token=[redacted]",
        "/ws/rooms/1?tokens=abc&mytoken=x": "/ws/rooms/1?tokens=abc&mytoken=x",
        '127.0.0.1 - "GET /x?token=abc HTTP/1.1" 200': '127.0.0.1 - "GET /x?token=[redacted] '
                                                     'HTTP/1.1" 200',
    }
    for raw, redacted in cases.items():
        for msg, args in (("%s - %s", ("127.0.0.1:5", raw)), (raw, ())):
            record = logging.LogRecord("uvicorn.error", logging.INFO, __file__, 1, msg, args,
                                       None)
            assert RedactTokens().filter(record)
            assert record.getMessage().endswith(redacted), (raw, record.getMessage())


def test_cookie_secure_setting_reaches_the_api_cookie() -> None:
    """COOKIE_SECURE marks the token cookie Secure for the JSON API too (it only did for the
    browser form): behind HTTPS the token must never travel in clear."""
    folder = tempfile.mkdtemp()
    for secure in (True, False):
        app = create_app(Settings(database_url=f"sqlite:///{folder}/c{secure}.db",
                                  htmx_source="local", cookie_secure=secure))
        with TestClient(app) as client:
            api = client.post("/api/players", json={"name": "Sec"}).headers["set-cookie"]
            form = client.post("/name", data={"name": "Sec"}, follow_redirects=False,
                               headers={"Origin": "http://testserver"}).headers["set-cookie"]
            for cookie in (api, form):
                assert "httponly" in cookie.lower() and "samesite=lax" in cookie.lower()
                assert ("secure" in cookie.lower().split("; ")) == secure, cookie
