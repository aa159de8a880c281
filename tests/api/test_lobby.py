"""The lobby's API contract (DESIGN.md §5): players, games, rooms, seats, bots, start."""

from __future__ import annotations

import pytest

from tests.conftest import Player, bearer


def test_new_player_gets_token_and_cookie(client):
    response = client.post("/api/players", json={"name": "  Ana   Lima "})
    assert response.status_code == 200
    body = response.json()
    assert body["name"] == "Ana Lima"
    assert len(body["token"]) > 30
    cookie = response.headers["set-cookie"]
    assert "canopy_token=" in cookie and "HttpOnly" in cookie and "SameSite=lax" in cookie
    me = client.get("/api/players/me", headers=bearer(body["token"]))
    assert me.json() == {"id": body["id"], "name": "Ana Lima"}


def test_browser_cookie_is_recognised(client):
    client.post("/api/players", json={"name": "Ana"})
    assert client.get("/api/players/me").json()["name"] == "Ana"


def test_bad_names_are_refused(client):
    assert client.post("/api/players", json={"name": "   "}).status_code == 422
    assert client.post("/api/players", json={"name": "x" * 41}).status_code == 422
    assert client.post("/api/players", json={}).status_code == 422
    assert client.post("/api/players", content=b"{not json",
                       headers={"content-type": "application/json"}).status_code == 422


def test_unknown_or_missing_token_is_401(client):
    assert client.get("/api/players/me").status_code == 401
    response = client.get("/api/players/me", headers=bearer("forged"))
    assert response.status_code == 401
    assert "token" in response.json()["detail"]


def test_games_list_their_player_counts_and_options(client):
    games = {g["id"]: g for g in client.get("/api/games").json()}
    assert games["arboretum"]["min_players"] == 2
    assert games["arboretum"]["max_players"] == 4
    assert games["arboretum"]["options"]["type"] == "object"


def test_create_room_seats_the_creator(players):
    ana = players[0]
    response = ana.post("/api/rooms", {"game": "arboretum", "players": 3})
    assert response.status_code == 201
    room = response.json()
    assert room["status"] == "lobby"
    assert room["seats"][0]["player"] == {"id": ana.id, "name": "Ana"}
    assert [s["free"] for s in room["seats"]] == [False, True, True]
    assert room["invite"] == f"/r/{room['code']}"
    assert ana.get(f"/api/rooms/{room['id']}").json() == room


def test_create_room_errors(players, client):
    ana = players[0]
    assert client.post("/api/rooms", json={"game": "arboretum", "players": 2}).status_code == 401
    assert ana.post("/api/rooms", {"game": "chess", "players": 2}).status_code == 404
    too_many = ana.post("/api/rooms", {"game": "arboretum", "players": 5})
    assert too_many.status_code == 422 and "2–4" in too_many.json()["detail"]
    bad_options = ana.post("/api/rooms", {"game": "arboretum", "players": 2,
                                          "options": {"nope": 1}})
    assert bad_options.status_code == 422 and "nope" in bad_options.json()["detail"]
    assert ana.post("/api/rooms", {"game": "arboretum"}).status_code == 422
    assert ana.get("/api/rooms/999").status_code == 404


def test_join_leave_and_seat_errors(players):
    ana, bo, cai = players[:3]
    room = ana.post("/api/rooms", {"game": "arboretum", "players": 2}).json()
    rid = room["id"]
    assert bo.post(f"/api/rooms/{rid}/join", {"seat": 0}).status_code == 409  # taken
    assert bo.post(f"/api/rooms/{rid}/join", {"seat": 7}).status_code == 404  # no such seat
    joined = bo.post(f"/api/rooms/{rid}/join")
    assert joined.status_code == 200
    assert joined.json()["seats"][1]["player"]["name"] == "Bo"
    assert bo.post(f"/api/rooms/{rid}/join").status_code == 409  # already seated
    assert cai.post(f"/api/rooms/{rid}/join").status_code == 409  # full
    assert cai.post(f"/api/rooms/{rid}/leave").status_code == 403  # not seated
    left = bo.post(f"/api/rooms/{rid}/leave")
    assert left.status_code == 200 and left.json()["seats"][1]["free"]
    assert ana.post("/api/rooms/999/join").status_code == 404


def test_last_person_leaving_closes_the_room(players):
    ana = players[0]
    rid = ana.post("/api/rooms", {"game": "arboretum", "players": 2}).json()["id"]
    assert ana.post(f"/api/rooms/{rid}/leave").json()["status"] == "closed"
    assert ana.get(f"/api/rooms/{rid}").status_code == 404


def test_bots_can_be_added_and_removed_before_the_start(players):
    ana, bo = players[:2]
    rid = ana.post("/api/rooms", {"game": "arboretum", "players": 3}).json()["id"]
    assert bo.post(f"/api/rooms/{rid}/bots").status_code == 403  # only seated players
    room = ana.post(f"/api/rooms/{rid}/bots", {"seat": 2, "level": "random"}).json()
    assert room["seats"][2]["bot"] == "random"
    assert ana.post(f"/api/rooms/{rid}/bots", {"level": "genius"}).status_code == 422
    assert ana.post(f"/api/rooms/{rid}/bots", {"seat": 2}).status_code == 409
    assert ana.delete(f"/api/rooms/{rid}/bots/1").status_code == 404  # no bot there
    room = ana.delete(f"/api/rooms/{rid}/bots/2").json()
    assert room["seats"][2]["free"]


def test_start_needs_every_seat_and_happens_once(players):
    ana, bo, cai = players[:3]
    rid = ana.post("/api/rooms", {"game": "arboretum", "players": 2}).json()["id"]
    early = ana.post(f"/api/rooms/{rid}/start")
    assert early.status_code == 409 and "1 seat is still free" in early.json()["detail"]
    assert ana.get(f"/api/rooms/{rid}/state").status_code == 409  # not started
    bo.post(f"/api/rooms/{rid}/join")
    assert cai.post(f"/api/rooms/{rid}/start").status_code == 403
    started = ana.post(f"/api/rooms/{rid}/start")
    assert started.status_code == 200 and started.json()["status"] == "playing"
    assert started.json()["version"] == 0
    assert ana.post(f"/api/rooms/{rid}/start").status_code == 409
    assert bo.post(f"/api/rooms/{rid}/leave").status_code == 409
    assert ana.post(f"/api/rooms/{rid}/bots").status_code == 409
    assert cai.post(f"/api/rooms/{rid}/join").status_code == 409


def test_room_list_shows_open_and_running_rooms(players):
    ana, bo = players[:2]
    waiting = ana.post("/api/rooms", {"game": "arboretum", "players": 2}).json()["id"]
    running = ana.post("/api/rooms", {"game": "arboretum", "players": 2}).json()["id"]
    bo.post(f"/api/rooms/{running}/join")
    ana.post(f"/api/rooms/{running}/start")
    listed = {r["id"]: r["status"] for r in ana.get("/api/rooms").json()}
    assert listed[waiting] == "lobby" and listed[running] == "playing"


def test_invite_link_leads_to_the_room(players, client):
    ana = players[0]
    room = ana.post("/api/rooms", {"game": "arboretum", "players": 2}).json()
    response = client.get(room["invite"], follow_redirects=False)
    assert response.status_code == 303
    assert response.headers["location"] == f"/rooms/{room['id']}?invite={room['code']}"
    assert client.get("/r/nosuchcode").status_code == 404


def test_player_helper_isolated(client):
    a, b = Player(client, "A"), Player(client, "B")
    assert a.token != b.token


def test_the_database_refuses_a_second_seat_for_the_same_player(players, app):
    """Migration 0002: a unique (room, player) index guards what the lobby's lock ensures."""
    from sqlalchemy.exc import IntegrityError
    from sqlmodel import Session

    from app.models import Seat

    ana = players[0]
    rid = ana.post("/api/rooms", {"game": "arboretum", "players": 3}).json()["id"]
    with Session(app.state.engine) as session:
        session.add(Seat(room_id=rid, index=2, player_id=ana.id))
        with pytest.raises(IntegrityError):
            session.commit()
    with Session(app.state.engine) as session:  # bots have no player: NULLs never clash
        session.add(Seat(room_id=rid, index=1, bot_level="random"))
        session.add(Seat(room_id=rid, index=2, bot_level="random"))
        session.commit()
