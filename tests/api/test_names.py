"""Names through the API and the home page's form: bad names refused with 422 naming the rule
and nothing stored; names normalised; bots' names reserved; look-alike names told apart at a
table, each seat's label distinct."""

from __future__ import annotations

import pytest
from sqlmodel import Session, func, select

from app.models import Player as PlayerRow
from tests.conftest import Player

ORIGIN = "http://testserver"


def stored_players(client) -> int:
    with Session(client.app.state.engine) as session:
        return int(session.exec(select(func.count()).select_from(PlayerRow)).one())


@pytest.mark.parametrize("name,rule", [
    ("\u3164", "visible letter"), ("\u2800", "visible letter"), ("\u115f", "visible letter"),
    ("\u200b\u200b", "visible letter"), ("ana\u200b", "invisible or control"),
    ("a\u3164na", "invisible or control"), ("Bot 1", "bots'"), ("bot 3", "bots'"),
    ("Bot", "bots'"), ("ВОТ 2", "bots'"),
])
def test_a_bad_name_is_refused_with_its_rule_and_nothing_is_stored(client, name, rule):
    before = stored_players(client)
    answer = client.post("/api/players", json={"name": name})
    assert answer.status_code == 422, answer.text
    assert rule in answer.json()["detail"]
    assert "set-cookie" not in answer.headers
    assert stored_players(client) == before
    # The home page's form: back to the page with the refusal, no player, no cookie.
    form = client.post("/name", data={"name": name}, headers={"Origin": ORIGIN},
                       follow_redirects=False)
    assert form.status_code == 303
    assert "canopy_token" not in form.headers.get("set-cookie", "")
    assert stored_players(client) == before


def test_a_refusal_is_in_the_readers_language(client):
    answer = client.post("/api/players", json={"name": "Bot 7"},
                         headers={"Accept-Language": "es"})
    assert answer.status_code == 422
    assert "bots'" not in answer.json()["detail"]


def test_names_are_stored_normalised(client):
    answer = client.post("/api/players", json={"name": "  ｆｕｌｌ\u3000moon "})
    assert answer.status_code == 200
    assert answer.json()["name"] == "full moon"
    me = client.get("/api/players/me").json()
    assert me["name"] == "full moon"


def started(host: Player, guests: list[Player]) -> int:
    room = host.post("/api/rooms", {"game": "arboretum", "players": 1 + len(guests)}).json()
    for guest in guests:
        assert guest.post(f"/api/rooms/{room['id']}/join").status_code == 200
    assert host.post(f"/api/rooms/{room['id']}/start").status_code == 200
    return int(room["id"])


def test_a_name_like_a_twins_label_gets_a_label_of_its_own(client):
    first, second, third = (Player(client, name) for name in ("ana", "ana", "ana (1)"))
    rid = started(first, [second, third])
    names = [seat["name"] for seat in first.get(f"/api/rooms/{rid}/state").json()["seats"]]
    assert names == ["ana (1)", "ana (2)", "ana (1) (3)"]
    assert second.get(f"/api/rooms/{rid}/log").json()["names"] == names


def test_look_alike_names_are_told_apart_at_a_table(client):
    cyrillic, latin = Player(client, "аlice"), Player(client, "alice")
    assert cyrillic.name != latin.name
    rid = started(cyrillic, [latin])
    seats = cyrillic.get(f"/api/rooms/{rid}/state").json()["seats"]
    assert [seat["name"] for seat in seats] == ["аlice (1)", "alice (2)"]
    page = client.get(f"/rooms/{rid}", headers={"Cookie": f"canopy_token={latin.token}"})
    assert "alice (2)" in page.text and "аlice (1)" in page.text
