"""Private rooms are private on every path (issue 28, items 2, 8, 12 and 13).

A stranger — another player, or a client with no token — is told about a private room exactly
what they are told about a room id that does not exist: the same status and the same words,
on the room's JSON, its state, log and moves, its replay, its pages and both sockets. Its host,
the people seated and whoever holds its watch link or invite code read it; a public room stays
readable by anyone. Wrong codes on the invite and watch pages count against the address's
wrong-code limit; a freed seat gives the room a new invite code; private answers are never
cached."""

from __future__ import annotations

import re
from typing import Any

import httpx
import pytest
from fastapi.testclient import TestClient
from sqlalchemy import update
from sqlmodel import Session
from starlette.websockets import WebSocketDisconnect

from app.config import Settings
from app.main import create_app
from app.models import Game as GameRow
from app.models import Room
from tests.conftest import GENEROUS, Player

#: A room id no test creates: what every path says about a room that does not exist.
NOWHERE = 987_654
#: The read paths of a room (``{id}`` is the room id).
API_PATHS = ["/api/rooms/{id}", "/api/rooms/{id}/state", "/api/rooms/{id}/log",
             "/api/rooms/{id}/moves", "/api/rooms/{id}/replay", "/api/rooms/{id}/replay/0"]
PAGE_PATHS = ["/rooms/{id}", "/rooms/{id}/replay"]
#: What a finished game stored as its result (a forfeit: no move needed to end it).
FORFEIT = {"scores": [0, 4], "ranking": [1, 0], "winners": [1], "details": {},
           "headline": "{p0} ran out of time", "shown": [], "forfeit": 0}


def private_room(host: Player, *, status: str = "playing", seated: bool = True) -> int:
    """A private two-seat Arboretum room of ``host`` (with a bot beside them when seated):
    waiting in its ``lobby``, ``playing``, or ``finished``."""
    made = host.post("/api/rooms", {"game": "arboretum", "players": 2, "private": True,
                                    "seated": seated})
    assert made.status_code == 201, made.text
    rid = int(made.json()["id"])
    if status == "lobby":
        return rid
    for _ in range(1 if seated else 2):
        assert host.post(f"/api/rooms/{rid}/bots").status_code == 200
    assert host.post(f"/api/rooms/{rid}/start").status_code == 200
    if status == "finished":
        finish(host.client, rid)
    return rid


def finish(client: TestClient, rid: int) -> None:
    """End the room's game as the platform would (a stored result)."""
    app: Any = client.app
    with Session(app.state.engine) as session:
        session.execute(update(Room).where(Room.id == rid).values(status="finished"))  # type: ignore[arg-type]
        session.execute(update(GameRow).where(GameRow.room_id == rid)  # type: ignore[arg-type]
                        .values(result=FORFEIT, finished=True))
        session.commit()


def anonymous(client: TestClient, path: str, **headers: str) -> httpx.Response:
    client.cookies.clear()
    return client.get(path, headers=headers)


def said(answer: httpx.Response, rid: int) -> tuple[int, str]:
    """An answer's status and words, with the room id taken out (the only difference an
    unknown room may show: in its words, and in the page's own address)."""
    return answer.status_code, answer.text.replace(f"room {rid}", "room ID").replace(
        f"/rooms/{rid}", "/rooms/ID")


def socket_refusal(client: TestClient, url: str, *, frame: bool) -> tuple[int, Any]:
    """Open a socket that is refused: the close code, and the error frame before it (JSON
    socket) or None (htmx socket)."""
    error = None
    with client.websocket_connect(url) as ws:
        if frame:
            error = ws.receive_json()
        with pytest.raises(WebSocketDisconnect) as closed:
            ws.receive_text()
    return closed.value.code, error


# -- item 2: strangers are told nothing --------------------------------------------------------


@pytest.mark.parametrize("status", ["lobby", "playing", "finished"])
def test_a_stranger_is_told_about_a_private_room_what_a_missing_room_gets(client, players,
                                                                          status):
    ana, bo = players[0], players[1]
    rid = private_room(ana, status=status)
    for template in API_PATHS + PAGE_PATHS:
        for who, get in (("Bo", bo.get), ("nobody", lambda p: anonymous(client, p))):
            there, nowhere = (get(template.format(id=i)) for i in (rid, NOWHERE))
            assert said(there, rid) == said(nowhere, NOWHERE), (template, who, status)
            assert there.status_code == 404, (template, who, status, there.text[:200])
    # Both sockets: a 404 error frame and the 4404 close (JSON); the 4404 close (htmx).
    for token in (f"?token={bo.token}", ""):
        client.cookies.clear()
        for frame, suffix in ((True, ""), (False, "/html")):
            got = [socket_refusal(client, f"/ws/rooms/{i}{suffix}{token}", frame=frame)
                   for i in (rid, NOWHERE)]
            assert got[0][0] == got[1][0] == 4404, (suffix, token, got)
            if frame:
                assert got[0][1]["status"] == 404
                assert got[0][1]["detail"].replace(f"room {rid}", "room ID") == \
                    got[1][1]["detail"].replace(f"room {NOWHERE}", "room ID")


def test_a_stranger_cannot_tell_a_private_room_by_writing_to_it(client, players):
    """Every write path a stranger may try answers as for an unknown room."""
    ana, bo = players[0], players[1]
    lobby, playing = private_room(ana, status="lobby"), private_room(ana)
    finished = private_room(ana, status="finished")
    writes = [("post", "/api/rooms/{id}/join", None), ("post", "/api/rooms/{id}/join",
                                                       {"code": "wrongwrongwrong"}),
              ("post", "/api/rooms/{id}/leave", None), ("post", "/api/rooms/{id}/bots", None),
              ("delete", "/api/rooms/{id}/bots/1", None),
              ("delete", "/api/rooms/{id}/seats/0", None),
              ("put", "/api/rooms/{id}/options", {}), ("put", "/api/rooms/{id}/table", {}),
              ("post", "/api/rooms/{id}/start", None), ("post", "/api/rooms/{id}/rematch", None),
              ("post", "/api/rooms/{id}/rematch/answer", {"accept": True}),
              ("post", "/api/rooms/{id}/moves", {"move": {"type": "draw", "source": "deck"}}),
              ("post", "/api/rooms/{id}/hand-over", None),
              ("post", "/api/rooms/{id}/take-back", None),
              ("post", "/api/rooms/{id}/seats/0/vote", None)]
    for rid in (lobby, playing, finished):
        for method, template, body in writes:
            def send(i: int, method: str = method, template: str = template,
                     body: Any = body) -> httpx.Response:
                return client.request(method, template.format(id=i), json=body,
                                      headers=bo.headers)
            there, nowhere = send(rid), send(NOWHERE)
            assert said(there, rid) == said(nowhere, NOWHERE), (template, rid)
            assert there.status_code == 404, (template, there.text)
    assert ana.get(f"/api/rooms/{lobby}").json()["seats"][1]["free"], "nothing changed"


def test_the_host_the_seated_and_link_holders_read_a_private_room(client, players):
    ana, bo, cai, dee = players
    rid = private_room(ana, status="lobby")
    room = ana.get(f"/api/rooms/{rid}").json()
    code, watch = room["code"], room["watch"]
    assert room["watch_link"] == f"/w/{watch}" and room["invite"] == f"/r/{code}"
    assert re.fullmatch(r"[a-z2-9]{14}", watch) and watch != code
    assert bo.post(f"/api/rooms/{rid}/join", {"code": code}).status_code == 200
    assert bo.get(f"/api/rooms/{rid}").json()["watch"] == watch, "the seated see the link"
    assert ana.post(f"/api/rooms/{rid}/start").status_code == 200
    readers = {
        "host": ana.get, "seated": bo.get,
        "watch ?watch=": lambda p: cai.get(f"{p}?watch={watch}"),
        "watch header": lambda p: client.get(p, headers={**cai.headers, "X-Watch-Code": watch}),
        "watch, no token": lambda p: anonymous(client, f"{p}?watch={watch}"),
        "invite code": lambda p: dee.get(f"{p}?watch={code}"),
    }
    for who, get in readers.items():
        assert get(f"/api/rooms/{rid}").status_code == 200, who
        state = get(f"/api/rooms/{rid}/state")
        assert state.status_code == 200, who
        assert state.json()["your_seat"] == (0 if who == "host" else 1 if who == "seated"
                                             else None), who
        assert get(f"/api/rooms/{rid}/log").status_code == 200, who
        assert get(f"/rooms/{rid}").status_code == 200, who
        assert get(f"/api/rooms/{rid}/replay").status_code == 409, (who, "not over yet")
    # a watcher reads the room but not its codes, and has no moves and no seat
    watched = cai.get(f"/api/rooms/{rid}?watch={watch}").json()
    assert watched["code"] is None and watched["watch"] is None and watched["invite"] is None
    assert cai.get(f"/api/rooms/{rid}/moves?watch={watch}").status_code == 403
    assert anonymous(client, f"/api/rooms/{rid}/moves?watch={watch}").status_code == 401
    # both sockets: a watcher's snapshot is the spectator's
    for url in (f"/ws/rooms/{rid}?token={cai.token}&watch={watch}",
                f"/ws/rooms/{rid}?watch={code}"):
        client.cookies.clear()
        with client.websocket_connect(url) as ws:
            snapshot = ws.receive_json()
            assert snapshot["type"] == "snapshot" and snapshot["your_seat"] is None
    with client.websocket_connect(f"/ws/rooms/{rid}/html?watch={watch}") as ws:
        assert "hx-swap-oob" in ws.receive_text()
    # a watch code never seats anyone
    assert client.get(f"/api/rooms/{rid}?watch=notthecode2345").status_code == 404


def test_a_watch_link_in_a_browser_is_remembered(client, players):
    ana, bo = players[0], players[1]
    rid = private_room(ana, status="lobby")
    watch = ana.get(f"/api/rooms/{rid}").json()["watch"]
    lobby = client.get(f"/rooms/{rid}", headers={"Cookie": f"canopy_token={ana.token}"}).text
    assert re.search(r'id="watch-link" readonly value="http://testserver/w/' + watch, lobby)
    assert 'data-copy="#watch-link"' in lobby
    client.cookies.clear()
    opened = client.get(f"/w/{watch}", headers=bo.headers, follow_redirects=False)
    assert opened.status_code == 303 and opened.headers["location"] == f"/rooms/{rid}"
    cookie = opened.headers["set-cookie"]
    assert cookie.startswith(f"canopy_watch={watch}") and "HttpOnly" in cookie
    jar = {"Cookie": f"canopy_watch={watch}; canopy_token={bo.token}"}
    page = client.get(f"/rooms/{rid}", headers=jar)
    assert page.status_code == 200 and "watch-link" not in page.text, "the link is the host's"
    with client.websocket_connect(f"/ws/rooms/{rid}/html?page=lobby", headers=jar) as ws:
        assert 'id="lobby"' in ws.receive_text()
    # the join form's answer: the watch link does not seat anyone
    assert bo.post(f"/api/rooms/{rid}/join", {"code": watch}).status_code == 404


def test_an_invite_link_lets_a_newcomer_see_the_room_before_joining(client, players):
    ana = players[0]
    rid = private_room(ana, status="lobby")
    code = ana.get(f"/api/rooms/{rid}").json()["code"]
    client.cookies.clear()
    landed = client.get(f"/r/{code}", follow_redirects=False)
    assert landed.headers["location"] == f"/rooms/{rid}?invite={code}"
    assert landed.headers["set-cookie"].startswith(f"canopy_watch={code}")
    remembered = {"Cookie": f"canopy_watch={code}"}
    assert client.get(f"/rooms/{rid}?invite={code}").status_code == 200
    assert client.get(f"/rooms/{rid}", headers=remembered).status_code == 200
    with client.websocket_connect(f"/ws/rooms/{rid}/html?page=lobby", headers=remembered) as ws:
        assert 'id="lobby"' in ws.receive_text()


def test_a_finished_private_games_replay_is_private(client, players):
    ana, bo = players[0], players[1]
    rid = private_room(ana, status="finished")
    watch = ana.get(f"/api/rooms/{rid}").json()["watch"]
    for path in (f"/api/rooms/{rid}/replay", f"/api/rooms/{rid}/replay/0",
                 f"/rooms/{rid}/replay"):
        assert ana.get(path).status_code == 200, path
        assert bo.get(path).status_code == 404, path
        assert anonymous(client, path).status_code == 404, path
        assert bo.get(f"{path}?watch={watch}").status_code == 200, path
    page = client.get(f"/rooms/{rid}/replay", headers={"Cookie": f"canopy_watch={watch}"})
    assert page.status_code == 200


def test_a_public_room_stays_readable_by_anyone(client, players):
    ana, bo = players[0], players[1]
    rid = int(ana.post("/api/rooms", {"game": "arboretum", "players": 2}).json()["id"])
    assert ana.post(f"/api/rooms/{rid}/bots").status_code == 200
    assert ana.post(f"/api/rooms/{rid}/start").status_code == 200
    for path in ("/api/rooms/{id}", "/api/rooms/{id}/state", "/api/rooms/{id}/log",
                 "/rooms/{id}"):
        assert bo.get(path.format(id=rid)).status_code == 200, path
        assert anonymous(client, path.format(id=rid)).status_code == 200, path
    assert bo.get(f"/api/rooms/{rid}/moves").status_code == 403, "no seat: as before"
    assert bo.get(f"/api/rooms/{rid}").json()["code"] is None
    with client.websocket_connect(f"/ws/rooms/{rid}") as ws:
        assert ws.receive_json()["type"] == "snapshot"
    finish(client, rid)
    assert anonymous(client, f"/api/rooms/{rid}/replay").status_code == 200
    assert anonymous(client, f"/rooms/{rid}/replay").status_code == 200


# -- item 12: a freed seat, a new invite code ----------------------------------------------------


def test_a_removed_player_cannot_come_back_with_the_old_code(client, players):
    ana, bo = players[0], players[1]
    rid = private_room(ana, status="lobby")
    old = ana.get(f"/api/rooms/{rid}").json()["code"]
    assert bo.post(f"/api/rooms/{rid}/join", {"code": old}).status_code == 200
    client.cookies.clear()
    with client.websocket_connect(f"/ws/rooms/{rid}/html?page=lobby&token={bo.token}") as page, \
            client.websocket_connect(f"/ws/rooms/{rid}?token={bo.token}") as api:
        assert "Bo" in page.receive_text() and api.receive_json()["type"] == "lobby"
        freed = ana.delete(f"/api/rooms/{rid}/seats/1")
        assert freed.status_code == 200
        # Bo's open pages hear that they are out, not that the room closed (the page may
        # first get the panel pushed when the JSON socket opened)
        pushed = [page.receive_text()]
        while "<form" in pushed[-1] and len(pushed) < 4:
            pushed.append(page.receive_text())
        assert "Your seat at this private table was freed" in pushed[-1], pushed
        assert "This room was closed" not in pushed[-1]
        assert api.receive_json()["status"] == 404
        with pytest.raises(WebSocketDisconnect) as closed:
            api.receive_text()
        assert closed.value.code == 4404
    new = freed.json()["code"]
    assert new != old and re.fullmatch(r"[a-z2-9]{14}", new)
    assert bo.post(f"/api/rooms/{rid}/join", {"code": old}).status_code == 404
    assert bo.get(f"/api/rooms/{rid}").status_code == 404, "no longer seated: a stranger"
    page = anonymous(client, f"/r/{old}")
    assert page.status_code == 404
    assert "This link is no longer valid" in page.text
    assert "Ask the host for a new link" in page.text
    assert bo.post(f"/api/rooms/{rid}/join", {"code": new}).status_code == 200


def test_the_unseat_form_also_changes_the_code(client, players):
    ana, bo = players[0], players[1]
    rid = private_room(ana, status="lobby")
    old = ana.get(f"/api/rooms/{rid}").json()["code"]
    assert bo.post(f"/api/rooms/{rid}/join", {"code": old}).status_code == 200
    client.cookies.clear()
    done = client.post(f"/rooms/{rid}/unseat", data={"seat": "1"},
                       headers={"Cookie": f"canopy_token={ana.token}",
                                "Origin": "http://testserver"}, follow_redirects=False)
    assert done.status_code == 303
    room = ana.get(f"/api/rooms/{rid}").json()
    assert room["seats"][1]["free"] and room["code"] != old
    assert bo.post(f"/api/rooms/{rid}/join", {"code": old}).status_code == 404


# -- item 8: wrong codes on the link pages ---------------------------------------------------------


@pytest.mark.parametrize("link", ["r", "w"])
def test_wrong_link_codes_count_against_the_address(tmp_path, link):
    settings = Settings(database_url=f"sqlite:///{tmp_path / 'canopy.db'}", bot_delay=0.0,
                        htmx_source="local",
                        **{**GENEROUS, "rate_wrong_codes": "3/minute"})
    with TestClient(create_app(settings)) as client:
        ana = Player(client, "Ana")
        rid = private_room(ana, status="lobby")
        room = ana.get(f"/api/rooms/{rid}").json()
        right = room["code"] if link == "r" else room["watch"]
        for attempt in range(3):
            wrong = client.get(f"/{link}/wrongcode{attempt}", follow_redirects=False)
            assert wrong.status_code == 404, wrong.text[:200]
        refused = client.get(f"/{link}/wrongcode9", follow_redirects=False)
        assert refused.status_code == 429
        assert int(refused.headers["retry-after"]) >= 1
        # even the right code, from that address, until the window passes (as the join API)
        assert client.get(f"/{link}/{right}", follow_redirects=False).status_code == 429
        api = client.post(f"/api/rooms/{rid}/join", json={"code": right}, headers=ana.headers)
        assert api.status_code == 429, "the pages and the join API count together"


# -- item 13: nothing private is cached ------------------------------------------------------------


def test_private_answers_are_not_cached(client, players):
    ana = players[0]
    made = client.post("/api/players", json={"name": "Eve"})
    assert made.headers["cache-control"] == "no-store"
    client.cookies.clear()
    rid = private_room(ana)
    for path in ("/api/players/me", f"/api/rooms/{rid}", f"/api/rooms/{rid}/state",
                 f"/api/rooms/{rid}/moves", f"/api/rooms/{rid}/log", "/api/rooms",
                 f"/api/rooms/{NOWHERE}"):
        answer = ana.get(path)
        assert answer.headers.get("cache-control") == "no-store", (path, answer.status_code)


def test_the_flash_cookie_is_secure_behind_https(tmp_path):
    settings = Settings(database_url=f"sqlite:///{tmp_path / 'canopy.db'}", bot_delay=0.0,
                        htmx_source="local", cookie_secure=True, **GENEROUS)
    with TestClient(create_app(settings), base_url="https://testserver") as client:
        refused = client.post("/rooms", data={"game": "arboretum"},
                              headers={"Origin": "https://testserver"}, follow_redirects=False)
        assert refused.status_code == 303
        flash = [c for c in refused.headers.get_list("set-cookie")
                 if c.startswith("canopy_flash=")]
        assert flash and "Secure" in flash[0] and "HttpOnly" in flash[0]
