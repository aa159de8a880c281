"""How a table plays (issue 12, items 2, 4 and 6 as room settings): pace, away limit, time per
move, clock and public replays are chosen when a room is created — through the API and the
new-table form — and changed by the host before the start; the lobby says them in words, the
started game runs by them, and bad values are refused naming the field."""

from __future__ import annotations

import re
from typing import Any

import pytest

from tests.conftest import Player

ORIGIN = {"Origin": "http://testserver"}
DEFAULTS = {"pace": "live", "away_minutes": 5, "move_hours": 24, "clock": None,
            "public_replay": False}


def create(player: Player, **table: Any) -> Any:
    return player.post("/api/rooms", {"game": "arboretum", "players": 2, **table})


def lobby_page(player: Player, rid: int) -> str:
    answer = player.client.get(f"/rooms/{rid}", headers={"Cookie": f"canopy_token={player.token}"})
    assert answer.status_code == 200
    return answer.text


def said(page: str) -> str:
    """The lobby panel's settings in words (not the host's settings form)."""
    found = re.search(r'<ul class="table-words".*?</ul>', page, re.S)
    assert found is not None
    return " ".join(found.group(0).split())


def form(player: Player, path: str, data: dict[str, Any]) -> Any:
    return player.client.post(path, data=data, follow_redirects=False,
                              headers={**ORIGIN, "Cookie": f"canopy_token={player.token}"})


def test_a_room_is_live_without_clock_by_default(players):
    made = create(players[0])
    assert made.status_code == 201
    assert made.json()["table"] == DEFAULTS
    page = said(lobby_page(players[0], made.json()["id"]))
    assert "Live: after 5 minutes away, a seat may be voted to a bot" in page
    assert "Clock:" not in page and "Replay shows every hand" not in page


@pytest.mark.parametrize(("table", "words"), [
    ({"pace": "turn", "move_hours": 24}, ["Turn-based: 24 h per move"]),
    ({"pace": "turn", "move_hours": 336, "public_replay": True},
     ["Turn-based: 2 weeks per move", "Replay shows every hand"]),
    ({"clock": {"minutes": 10, "increment": 5}, "away_minutes": 1},
     ["Live: after 1 minute away", "Clock: 10 min + 5 s, then a bot plays on"]),
    ({"clock": {"minutes": 30, "increment": 0, "on_timeout": "lose"}},
     ["Clock: 30 min + 0 s, then the player loses"]),
])
def test_the_settings_round_trip_and_the_lobby_says_them_in_words(players, table, words):
    ana = players[0]
    made = create(ana, **table)
    assert made.status_code == 201, made.text
    expected = {**DEFAULTS, **table}
    if expected["clock"] is not None:
        expected["clock"] = {"on_timeout": "bot", **expected["clock"]}
    assert made.json()["table"] == expected
    assert ana.get(f"/api/rooms/{made.json()['id']}").json()["table"] == expected
    page = said(lobby_page(ana, made.json()["id"]))
    for words_said in words:
        assert words_said in page


@pytest.mark.parametrize(("table", "field"), [
    ({"away_minutes": 0}, "away_minutes"),
    ({"away_minutes": 121}, "away_minutes"),
    ({"pace": "turn", "move_hours": 0}, "move_hours"),
    ({"pace": "turn", "move_hours": 337}, "move_hours"),
    ({"pace": "slow"}, "pace"),
    ({"clock": {"minutes": 0, "increment": 5}}, "minutes"),
    ({"clock": {"minutes": 181, "increment": 5}}, "minutes"),
    ({"clock": {"minutes": 10, "increment": 121}}, "increment"),
    ({"clock": {"minutes": 10, "increment": 5, "on_timeout": "draw"}}, "on_timeout"),
    ({"clock": {"minutes": 10}, "public_replay": "maybe"}, "public_replay"),
])
def test_bad_values_are_refused_naming_the_field(players, table, field):
    refused = create(players[0], **table)
    assert refused.status_code == 422
    assert field in refused.text
    assert not players[0].get("/api/rooms").json(), "no room was made"


def test_a_clock_is_only_for_a_live_table(players):
    refused = create(players[0], pace="turn", clock={"minutes": 10, "increment": 5})
    assert refused.status_code == 422
    assert refused.json()["fields"] == ["clock"]
    assert "live" in refused.json()["detail"]


def test_the_host_changes_the_settings_before_the_start_only(players):
    ana, bo = players[:2]
    rid = create(ana).json()["id"]
    assert bo.post(f"/api/rooms/{rid}/join").status_code == 200
    changed = ana.client.put(f"/api/rooms/{rid}/table", headers=ana.headers,
                             json={"pace": "turn", "move_hours": 72})
    assert changed.status_code == 200, changed.text
    assert changed.json()["table"] == {**DEFAULTS, "pace": "turn", "move_hours": 72}
    not_host = bo.client.put(f"/api/rooms/{rid}/table", headers=bo.headers, json={})
    assert not_host.status_code == 403
    clash = ana.client.put(f"/api/rooms/{rid}/table", headers=ana.headers,
                           json={"pace": "turn", "clock": {"minutes": 5, "increment": 3}})
    assert clash.status_code == 422 and clash.json()["fields"] == ["clock"]
    assert ana.post(f"/api/rooms/{rid}/start").status_code == 200
    state = ana.get(f"/api/rooms/{rid}/state").json()
    assert state["pace"] == "turn" and state["deadline"] is not None
    late = ana.client.put(f"/api/rooms/{rid}/table", headers=ana.headers, json={})
    assert late.status_code == 409


def test_a_clocked_room_starts_with_the_clocks_it_chose(players):
    ana, bo = players[:2]
    rid = create(ana, clock={"minutes": 5, "increment": 3}).json()["id"]
    assert bo.post(f"/api/rooms/{rid}/join").status_code == 200
    assert ana.post(f"/api/rooms/{rid}/start").status_code == 200
    clocks = ana.get(f"/api/rooms/{rid}/state").json()["clocks"]
    assert clocks is not None and clocks["left"][1] == 300


# -- the pages ---------------------------------------------------------------------------------


def test_the_new_table_form_has_the_table_fieldset(players):
    home = players[0].client.get("/", headers={"Cookie": f"canopy_token={players[0].token}"})
    html = home.text
    assert 'class="table-settings"' in html
    for field in ('name="pace" value="live"', 'name="pace" value="turn"', 'name="move_hours"',
                  'value="168"', 'name="clock"', 'value="10+5"', 'name="on_timeout"',
                  'name="public_replay"'):
        assert field in html, field


def new_table(player: Player, **fields: Any) -> dict[str, Any]:
    """The new-table form sent as a browser sends it; the room it made."""
    data = {"game": "arboretum", "players-arboretum": "2", "private": ["false", "true"],
            "seated": ["false", "true"], "public_replay": ["false"], **fields}
    moved = form(player, "/rooms", data)
    assert moved.status_code == 303
    location = moved.headers["location"]
    assert location.startswith("/rooms/"), moved.headers.get("set-cookie")
    body: dict[str, Any] = player.get(f"/api{location}").json()
    return body


def test_the_form_makes_a_turn_based_table_and_ignores_its_hidden_clock(players):
    made = new_table(players[0], pace="turn", move_hours="168", clock="10+5",
                     on_timeout="lose", public_replay=["false", "true"])
    assert made["table"] == {**DEFAULTS, "pace": "turn", "move_hours": 168,
                             "public_replay": True}
    assert "Turn-based: 1 week per move" in said(lobby_page(players[0], made["id"]))


def test_the_form_makes_a_live_table_with_a_clock(players):
    made = new_table(players[0], pace="live", move_hours="24", clock="15+10",
                     on_timeout="lose")
    assert made["table"] == {**DEFAULTS, "clock": {"minutes": 15, "increment": 10,
                                                   "on_timeout": "lose"}}
    assert "Clock: 15 min + 10 s, then the player loses" in said(
        lobby_page(players[0], made["id"]))
    plain = new_table(players[0], pace="live", clock="")
    assert plain["table"] == DEFAULTS


def test_a_bad_form_value_comes_back_in_words(players):
    moved = form(players[0], "/rooms", {"game": "arboretum", "players-arboretum": "2",
                                        "pace": "live", "clock": "999+1"})
    assert moved.status_code == 303 and moved.headers["location"] == "/"
    assert "canopy_flash" in moved.headers["set-cookie"]
    assert not players[0].get("/api/rooms").json()


def test_the_host_form_changes_the_settings_and_keeps_the_rest(players):
    ana = players[0]
    rid = create(ana, away_minutes=12).json()["id"]
    assert "Save how the table plays" in lobby_page(ana, rid)
    moved = form(ana, f"/rooms/{rid}/table", {"pace": "live", "move_hours": "24",
                                             "clock": "5+3", "on_timeout": "bot",
                                             "public_replay": ["false", "true"]})
    assert moved.status_code == 303
    assert ana.get(f"/api/rooms/{rid}").json()["table"] == {
        **DEFAULTS, "away_minutes": 12, "public_replay": True,
        "clock": {"minutes": 5, "increment": 3, "on_timeout": "bot"}}
