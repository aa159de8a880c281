"""Issue 12, item 5: "At the end, 'Play again' offers the same seats, game and options; each
player accepts or declines; bots accept; the new room starts when all seats are filled." Through
the API and the pages, on a real SQLite file; the games are finished by bots playing every
seat (the people hand their seats over), so a person whose seat a bot played at the end is
invited as a person."""

from __future__ import annotations

import time
from concurrent.futures import ThreadPoolExecutor
from datetime import timedelta
from typing import Any

from sqlalchemy import update
from sqlmodel import Session, col, select

from app.lobby.cleanup import sweep
from app.models import Room, Seat
from app.models import now as utc_now
from tests.conftest import Player, started_room

ORIGIN = {"Origin": "http://testserver"}


def finish(players: list[Player], rid: int) -> dict[str, Any]:
    """Every person at the table hands their seat to a bot; the bots play to the end."""
    for p in players:
        answer = p.post(f"/api/rooms/{rid}/hand-over")
        assert answer.status_code == 200, answer.text
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        state: dict[str, Any] = players[0].get(f"/api/rooms/{rid}/state").json()
        if state["result"] is not None:
            assert players[0].get(f"/api/rooms/{rid}").json()["status"] == "finished"
            return state
        time.sleep(0.02)
    raise AssertionError("the bots did not finish")


def room(player: Player, rid: int) -> dict[str, Any]:
    body: dict[str, Any] = player.get(f"/api/rooms/{rid}").json()
    return body


def page(player: Player, path: str) -> str:
    answer = player.client.get(path, headers={"Cookie": f"canopy_token={player.token}"})
    assert answer.status_code == 200
    return answer.text


def form(player: Player, path: str, data: dict[str, str] | None = None) -> Any:
    """A form the page sends, with the player's cookie; the redirect not followed."""
    return player.client.post(path, data=data or {}, follow_redirects=False,
                              headers={**ORIGIN, "Cookie": f"canopy_token={player.token}"})


def test_an_offer_keeps_game_seats_options_and_settings_and_starts_once_accepted(players, app):
    ana, bo = players[:2]
    made = ana.post("/api/rooms", {"game": "evergreen", "players": 2, "private": True,
                                   "options": {"sun_start": "E"}, "pace": "turn",
                                   "move_hours": 48, "public_replay": True}).json()
    old = made["id"]
    assert bo.post(f"/api/rooms/{old}/join", {"code": made["code"]}).status_code == 200
    assert ana.post(f"/api/rooms/{old}/start").status_code == 200
    finish([ana, bo], old)

    offered = bo.post(f"/api/rooms/{old}/rematch")
    assert offered.status_code == 201, offered.text
    new = offered.json()
    assert new["id"] != old and new["status"] == "lobby" and new["rematch_of"] == old
    assert new["game"] == "evergreen" and new["players"] == 2 and new["private"] is True
    assert new["options"] == {"sun_start": "E"}
    assert new["table"] == made["table"] == {"pace": "turn", "away_minutes": 5,
                                             "move_hours": 48, "clock": None,
                                             "public_replay": True}
    assert new["host"] == {"id": bo.id, "name": "Bo"}, "the offerer hosts the rematch"
    assert new["code"] != made["code"]
    seats = new["seats"]
    assert seats[0]["player"]["id"] == ana.id and seats[0]["invited"] is True
    assert seats[1]["player"]["id"] == bo.id and seats[1]["invited"] is False
    assert not any(s["free"] or s["bot"] for s in seats)

    # the finished room names its rematch
    assert room(ana, old)["rematch_id"] == new["id"]
    assert room(ana, new["id"])["seats"][0]["invited"] is True

    accepted = ana.post(f"/api/rooms/{new['id']}/rematch/answer", {"accept": True})
    assert accepted.status_code == 200, accepted.text
    assert accepted.json()["status"] == "playing", "the last acceptance starts the game"
    state = ana.get(f"/api/rooms/{new['id']}/state").json()
    assert state["your_seat"] == 0 and state["pace"] == "turn"
    assert [s["player"]["id"] for s in room(ana, new["id"])["seats"]] == [ana.id, bo.id]
    assert bo.get(f"/api/rooms/{new['id']}/state").json()["your_seat"] == 1
    # and the people play it themselves: no bot carried over from the end of the old game
    assert not any(s["bot"] for s in room(ana, new["id"])["seats"])


def test_bots_accept_and_the_host_cannot_start_while_an_answer_is_awaited(players):
    ana, bo = players[:2]
    rid = ana.post("/api/rooms", {"game": "arboretum", "players": 3}).json()["id"]
    assert bo.post(f"/api/rooms/{rid}/join").status_code == 200
    assert ana.post(f"/api/rooms/{rid}/bots", {"level": "random"}).status_code == 200
    assert ana.post(f"/api/rooms/{rid}/start").status_code == 200
    finish([ana, bo], rid)

    new = bo.post(f"/api/rooms/{rid}/rematch").json()
    bot = new["seats"][2]
    assert bot["bot"] == "random" and bot["player"] is None and not bot["invited"]
    refused = bo.post(f"/api/rooms/{new['id']}/start")
    assert refused.status_code == 409 and "Ana" in refused.json()["detail"]
    joined = players[2].post(f"/api/rooms/{new['id']}/join")
    assert joined.status_code == 409, "an invited seat is taken"
    assert ana.post(f"/api/rooms/{new['id']}/rematch/answer",
                    {"accept": True}).json()["status"] == "playing"


def test_a_rematch_of_the_offerer_and_bots_starts_at_once(players):
    ana = players[0]
    rid = ana.post("/api/rooms", {"game": "arboretum", "players": 2}).json()["id"]
    assert ana.post(f"/api/rooms/{rid}/bots").status_code == 200
    assert ana.post(f"/api/rooms/{rid}/start").status_code == 200
    finish([ana], rid)
    new = ana.post(f"/api/rooms/{rid}/rematch")
    assert new.status_code == 201 and new.json()["status"] == "playing"
    assert ana.get(f"/api/rooms/{new.json()['id']}/state").json()["your_seat"] == 0


def test_a_declined_seat_is_free_for_anyone_with_the_invite_link(players):
    ana, bo, cai, dee = players
    made = ana.post("/api/rooms", {"game": "arboretum", "players": 2, "private": True}).json()
    assert bo.post(f"/api/rooms/{made['id']}/join", {"code": made["code"]}).status_code == 200
    assert ana.post(f"/api/rooms/{made['id']}/start").status_code == 200
    finish([ana, bo], made["id"])
    new = ana.post(f"/api/rooms/{made['id']}/rematch").json()
    nid = new["id"]

    # a private rematch: to a stranger it is 404, as an unknown room (app/rooms/access.py)
    assert cai.post(f"/api/rooms/{nid}/rematch/answer", {"accept": True}).status_code == 404
    declined = bo.post(f"/api/rooms/{nid}/rematch/answer", {"accept": False})
    assert declined.status_code == 200, declined.text
    seats = room(ana, nid)["seats"]
    assert seats[1]["free"] and seats[1]["player"] is None and not seats[1]["invited"]
    assert room(ana, nid)["status"] == "lobby"
    assert bo.post(f"/api/rooms/{nid}/rematch/answer", {"accept": True}).status_code == 404
    assert dee.post(f"/api/rooms/{nid}/join").status_code == 404, "private: the link is needed"
    joined = cai.post(f"/api/rooms/{nid}/join", {"code": new["code"]})
    assert joined.status_code == 200, joined.text
    assert joined.json()["status"] == "playing", "the last seat taken starts a rematch"
    assert cai.get(f"/api/rooms/{nid}/state").json()["your_seat"] == 1


def test_two_offers_make_one_rematch(players, client):
    ana, bo = players[:2]
    rid = started_room(players)
    finish([ana, bo], rid)
    with ThreadPoolExecutor(2) as pool:
        answers = list(pool.map(lambda p: p.post(f"/api/rooms/{rid}/rematch"), [ana, bo]))
    assert sorted(a.status_code for a in answers) == [200, 201]
    assert len({a.json()["id"] for a in answers}) == 1
    again = ana.post(f"/api/rooms/{rid}/rematch")
    assert again.status_code == 200 and again.json()["id"] == answers[0].json()["id"]
    with Session(client.app.state.engine) as session:
        rematches = session.exec(select(Room).where(Room.rematch_of == rid)).all()
    assert len(rematches) == 1


def test_only_the_players_of_a_finished_game_may_offer(players, client):
    ana, bo, cai = players[:3]
    rid = started_room(players)
    assert ana.post(f"/api/rooms/{rid}/rematch").status_code == 409, "not over yet"
    waiting = ana.post("/api/rooms", {"game": "arboretum", "players": 2}).json()["id"]
    assert ana.post(f"/api/rooms/{waiting}/rematch").status_code == 409
    finish([ana, bo], rid)
    assert cai.post(f"/api/rooms/{rid}/rematch").status_code == 403, "a spectator"
    assert client.post(f"/api/rooms/{rid}/rematch").status_code == 401
    watched = cai.post("/api/rooms", {"game": "arboretum", "players": 2, "seated": False})
    wid = watched.json()["id"]
    for _ in range(2):
        assert cai.post(f"/api/rooms/{wid}/bots").status_code == 200
    assert cai.post(f"/api/rooms/{wid}/start").status_code == 200
    _bots_finish(cai, wid)
    refused = cai.post(f"/api/rooms/{wid}/rematch")
    assert refused.status_code == 403, "the host who watched did not play"
    assert room(cai, wid)["rematch_id"] is None
    assert ana.post("/api/rooms/99999/rematch").status_code == 404


def _bots_finish(watcher: Player, rid: int) -> None:
    deadline = time.monotonic() + 60
    while watcher.get(f"/api/rooms/{rid}/state").json()["result"] is None:
        assert time.monotonic() < deadline, "the bots did not finish"
        time.sleep(0.02)


def test_the_pages_offer_play_again_then_the_rematch_and_its_answers(players):
    ana, bo, cai = players[:3]
    rid = started_room(players)
    finish([ana, bo], rid)
    finished = page(ana, f"/rooms/{rid}")
    assert f'action="/rooms/{rid}/rematch"' in finished and "Play again" in finished
    assert "Play again" not in page(cai, f"/rooms/{rid}"), "a spectator is not offered one"

    moved = form(ana, f"/rooms/{rid}/rematch")
    assert moved.status_code == 303
    nid = room(ana, rid)["rematch_id"]
    assert moved.headers["location"] == f"/rooms/{nid}"
    for reader in (ana, bo, cai):
        shown = page(reader, f"/rooms/{rid}")
        assert "Rematch offered" in shown and f'href="/rooms/{nid}"' in shown
        assert f'action="/rooms/{rid}/rematch"' not in shown
    assert form(bo, f"/rooms/{rid}/rematch").headers["location"] == f"/rooms/{nid}"

    hosting = page(ana, f"/rooms/{nid}")
    assert "Invited: Bo — waiting for an answer" in hosting
    assert f'action="/rooms/{nid}/rematch/answer"' not in hosting
    invited = page(bo, f"/rooms/{nid}")
    assert f'action="/rooms/{nid}/rematch/answer"' in invited
    assert "Accept" in invited and "Decline" in invited
    assert form(bo, f"/rooms/{nid}/rematch/answer", {"accept": "true"}).status_code == 303
    assert room(ana, nid)["status"] == "playing"


def test_a_refused_offer_from_the_page_says_why(players):
    ana = players[0]
    rid = started_room(players)
    moved = form(ana, f"/rooms/{rid}/rematch")
    assert moved.status_code == 303 and moved.headers["location"] == f"/rooms/{rid}"
    assert "canopy_flash" in moved.headers["set-cookie"]
    assert room(ana, rid)["rematch_id"] is None


def test_a_rematch_closed_before_its_start_can_be_offered_anew(players):
    ana, bo = players[:2]
    rid = started_room(players)
    finish([ana, bo], rid)
    first = ana.post(f"/api/rooms/{rid}/rematch").json()["id"]
    assert ana.post(f"/api/rooms/{first}/leave").status_code == 200
    assert room(ana, first)["host"]["id"] == bo.id, "the invitee hosts once the host left"
    assert bo.post(f"/api/rooms/{first}/rematch/answer", {"accept": False}).json()["status"] \
        == "closed"
    assert ana.get(f"/api/rooms/{first}").status_code == 404
    assert room(ana, rid)["rematch_id"] is None
    assert "Play again" in page(bo, f"/rooms/{rid}"), "the finished table forgot it"
    second = bo.post(f"/api/rooms/{rid}/rematch")
    assert second.status_code == 201 and second.json()["host"]["id"] == bo.id
    assert [s["invited"] for s in second.json()["seats"]] == [True, False]


def test_the_clean_up_removes_an_unanswered_rematch_and_the_game_may_offer_another(
        players, client):
    ana, bo = players[:2]
    rid = started_room(players)
    finish([ana, bo], rid)
    nid = ana.post(f"/api/rooms/{rid}/rematch").json()["id"]
    engine = client.app.state.engine
    ancient = utc_now() - timedelta(days=3)
    with Session(engine) as session:
        session.execute(update(Room).where(col(Room.id) == nid).values(created=ancient))
        session.execute(update(Seat).where(col(Seat.room_id) == nid).values(joined=ancient))
        session.commit()
    assert sweep(engine, utc_now(), timedelta(hours=24), timedelta(days=90)) == (1, 0)
    assert ana.get(f"/api/rooms/{nid}").status_code == 404
    assert room(ana, rid)["rematch_id"] is None
    assert ana.post(f"/api/rooms/{rid}/rematch").status_code == 201
