"""Decisions that are not turns, through the real app (TestClient, SQLite): sealed bids made by
every seat at once, and a prompt one seat answers while the player it concerns waits. The game
is the test-only Sealed bids (tests/games/sealed), installed in the registry for these tests.

A sealed bid is an ordinary move: nothing any other seat or a spectator can read — its view,
its log, its JSON socket's patches, its htmx socket's regions — tells the amount before the
last bid reveals them all."""

from __future__ import annotations

import contextlib
import dataclasses
import random
import re
import time
from typing import Any

import jsonpatch
import pytest

from app.rooms.table import fill_names
from tests.conftest import Player
from tests.games.sealed import GAME
from tests.games.sealed.fixtures import sealed_app, sealed_client, sealed_game  # noqa: F401
from tests.leakcheck import check_playout
from tests.realtime.test_sockets import receive_until

NAMES = ("Ana", "Bo", "Cai", "Dee", "Eve")
#: Round 1's bids: Ana's 3 is the only 3, so it wins, and Bo (the seat after Ana) decides.
ROUND_1 = (3, 1, 0, 1, 0)
#: Round 2's: Bo and Dee tie at 2, the lower seat (Bo) wins, and Cai decides.
ROUND_2 = (0, 2, 0, 2, 1)


@pytest.fixture
def app(sealed_app):  # noqa: F811 — the conftest's client and players play on this app
    return sealed_app


@pytest.fixture
def five(client, players) -> list[Player]:
    return [*players, Player(client, "Eve")]


def new_room(owner: Player, players: int, **options: Any) -> int:
    response = owner.post("/api/rooms", {"game": "sealed", "players": players,
                                         "options": options})
    assert response.status_code == 201, response.text
    return int(response.json()["id"])


def start_room(people: list[Player], **options: Any) -> int:
    rid = new_room(people[0], len(people), **options)
    for p in people[1:]:
        assert p.post(f"/api/rooms/{rid}/join").status_code == 200
    assert people[0].post(f"/api/rooms/{rid}/start").status_code == 200
    return rid


def bid(player: Player, rid: int, amount: int) -> Any:
    return player.post(f"/api/rooms/{rid}/moves", {"move": {"type": "bid", "amount": amount}})


def answer(player: Player, rid: int, accept: Any) -> Any:
    return player.post(f"/api/rooms/{rid}/moves",
                       {"move": {"type": "answer", "accept": accept}})


# -- what a seat may see of the bids --------------------------------------------------------------


def shown_bids(message: Any) -> list[tuple[int, Any]]:
    """Every (seat, amount) a JSON message shows: seat entries of a view (``{"seat", "bid"}``)
    and patch operations that set ``/seats/<s>/bid`` or a whole ``/seats/<s>``."""
    found: list[tuple[int, Any]] = []
    if isinstance(message, dict):
        if "seat" in message and "bid" in message:
            found.append((message["seat"], message["bid"]))
        path = message.get("path")
        if isinstance(path, str) and "value" in message:
            match = re.fullmatch(r"/seats/(\d+)/bid", path)
            if match:
                found.append((int(match.group(1)), message["value"]))
        for value in message.values():
            found.extend(shown_bids(value))
    elif isinstance(message, list):
        for value in message:
            found.extend(shown_bids(value))
    return found


def assert_sealed(message: Any, viewer: int | None, placed: dict[int, int]) -> None:
    """A JSON message shows no amount but the viewer's own."""
    for seat, amount in shown_bids(message):
        if amount is not None:
            assert seat == viewer and amount == placed[seat], \
                f"seat {viewer} is shown the bid of seat {seat}: {message}"


def check_sealed_view(view: dict[str, Any], viewer: int | None, placed: dict[int, int]) -> None:
    """Who has bid is public; the amount only to its bidder."""
    for entry in view["seats"]:
        seat = entry["seat"]
        assert entry["has_bid"] == (seat in placed)
        assert entry["bid"] == (placed[seat] if seat == viewer and seat in placed else None)
    assert view["revealed"] is False


def regions_of(html: str) -> dict[str, str]:
    """The out-of-band regions of an htmx socket message, by id."""
    parts = re.split(r'<div id="([\w-]+)" hx-swap-oob="innerHTML">', html)
    return dict(zip(parts[1::2], parts[2::2], strict=True))


def assert_sealed_html(html: str, viewer: int | None, placed: dict[int, int]) -> None:
    for region, content in regions_of(html).items():
        if region.startswith("bidder-") and int(region.removeprefix("bidder-")) == viewer:
            own = placed.get(viewer) if viewer is not None else None
            assert re.findall(r'data-bid="(\d)"', content) == ([str(own)] if own is not None
                                                               else [])
        else:
            assert "data-bid" not in content, f"{region} shows seat {viewer} a bid"
        if region == "log":
            mine = [f"You sealed a bid of {placed[viewer]}"] if viewer in placed else []
            assert re.findall(r"You sealed a bid of \d", content) == mine


def html_until(ws: Any, version: int) -> list[str]:
    """The htmx socket's messages up to the one that brings the seat bar to ``version``."""
    messages = []
    while True:
        messages.append(ws.receive_text())
        if f'data-version="{version}"' in messages[-1]:
            return messages


def expected_log(viewer: int | None, placed: dict[int, int]) -> list[str]:
    lines = []
    for seat, amount in placed.items():
        lines.append(f"You sealed a bid of {amount}" if seat == viewer
                     else f"{NAMES[seat]} sealed a bid")
    return lines


# -- the game through the API ---------------------------------------------------------------------


def test_sealed_bids_stay_sealed_then_one_seat_decides(client, five):
    ana, bo, cai, dee, eve = five
    rid = start_room(five)
    spy = Player(client, "Spy")  # a spectator with a name
    watchers: list[tuple[int | None, Player | None]] = [
        *enumerate(five), (None, spy), (None, None)]  # and one without

    state = ana.get(f"/api/rooms/{rid}/state").json()
    assert state["active_seats"] == [0, 1, 2, 3, 4]
    assert state["statuses"] == ["bidding"] * 5
    assert state["version"] == 0 and state["result"] is None

    with contextlib.ExitStack() as stack:
        sockets = []  # (seat, json socket, its view, htmx socket)
        for seat, who in watchers:
            query = f"?token={who.token}" if who else ""
            ws = stack.enter_context(client.websocket_connect(f"/ws/rooms/{rid}{query}"))
            html = stack.enter_context(client.websocket_connect(f"/ws/rooms/{rid}/html{query}"))
            snapshot = ws.receive_json()
            assert snapshot["type"] == "snapshot" and snapshot["your_seat"] == seat
            check_sealed_view(snapshot["view"], seat, {})
            first = html_until(html, 0)
            assert {"board", "seats", "log", *(f"bidder-{s}" for s in range(5))} <= \
                set(regions_of("".join(first)))
            sockets.append((seat, ws, snapshot["view"], html))

        placed: dict[int, int] = {}
        for seat in range(4):  # every bid but the last: nothing revealed
            response = bid(five[seat], rid, ROUND_1[seat])
            assert response.status_code == 200, response.text
            placed[seat] = ROUND_1[seat]
            version = seat + 1
            own = response.json()
            assert own["view"]["seats"][seat]["bid"] == ROUND_1[seat], "the bidder sees its bid"
            assert own["statuses"][seat] == "bid sealed"
            assert own["active_seats"] == list(range(seat + 1, 5))
            for i, (viewer, ws, view, html) in enumerate(sockets):
                who = watchers[i][1]
                rest = (who.get(f"/api/rooms/{rid}/state") if who
                        else client.get(f"/api/rooms/{rid}/state")).json()
                check_sealed_view(rest["view"], viewer, placed)
                assert rest["statuses"] == ["bid sealed"] * (seat + 1) + \
                    ["bidding"] * (4 - seat)
                log = (who.get(f"/api/rooms/{rid}/log") if who
                       else client.get(f"/api/rooms/{rid}/log")).json()
                assert [line["text"] for line in log["events"]] == expected_log(viewer, placed)
                assert_sealed(log, viewer, placed)
                for line in log["events"]:
                    if line["text"].startswith("You sealed a bid of"):
                        assert viewer == line["seat"]
                    else:
                        assert "amount" not in line["params"]
                patch, others = receive_until(ws, "patch")
                assert (patch["from"], patch["to"]) == (version - 1, version)
                for message in (*others, patch):
                    assert_sealed(message, viewer, placed)
                view = jsonpatch.apply_patch(view, patch["ops"])
                assert view == rest["view"]
                sockets[i] = (viewer, ws, view, html)
                for message in html_until(html, version):
                    assert_sealed_html(message, viewer, placed)
            if seat == 0:
                again = bid(ana, rid, 0)
                assert again.status_code == 409, again.text
                assert again.json()["rule"] == "BID-2"
                assert "bid sealed" in again.json()["detail"]
                assert bid(bo, rid, 7).json()["rule"] == "BID-1"
                assert bid(bo, rid, True).json()["rule"] == "BID-1"
                assert ana.get(f"/api/rooms/{rid}/moves").json()["moves"] == [], \
                    "a seat that has bid has no moves"
                assert len(bo.get(f"/api/rooms/{rid}/moves").json()["moves"]) == 4

        # the last bid reveals every bid to everyone
        assert bid(eve, rid, ROUND_1[4]).status_code == 200
        reveal = ("Bids of round 1: {p0} 3, {p1} 1, {p2} 0, {p3} 1, {p4} 0. {p0} won the "
                  "round; {p1} may accept or refuse the prize.")
        for i, (viewer, ws, view, html) in enumerate(sockets):
            who = watchers[i][1]
            rest = (who.get(f"/api/rooms/{rid}/state") if who
                    else client.get(f"/api/rooms/{rid}/state")).json()
            assert [e["bid"] for e in rest["view"]["seats"]] == list(ROUND_1)
            assert rest["view"]["revealed"] is True and rest["view"]["winner"] == 0
            assert rest["view"]["prompted"] == 1
            log = (who.get(f"/api/rooms/{rid}/log") if who
                   else client.get(f"/api/rooms/{rid}/log")).json()
            assert fill_names(reveal, NAMES, viewer) in [line["text"] for line in log["events"]]
            patch = receive_until(ws, "patch")[0]
            assert patch["to"] == 5 and patch["active_seats"] == [1]
            assert jsonpatch.apply_patch(view, patch["ops"]) == rest["view"]
            shown = "".join(html_until(html, 5))
            regions = regions_of(shown)
            for seat, amount in enumerate(ROUND_1):
                assert f'data-bid="{amount}"' in regions[f"bidder-{seat}"]
            assert "won the round" in regions["log"]

    state = cai.get(f"/api/rooms/{rid}/state").json()
    assert state["active_seats"] == [1]
    assert state["statuses"] == ["waiting for an answer", "deciding on the prize", "", "", ""]
    assert state["view"]["prizes"] == {"accept": 4, "refuse": 1}

    # the winner waits: its answer is out of turn, and the refusal says who the table waits for
    refused = answer(ana, rid, True)
    assert refused.status_code == 403, refused.text
    assert refused.json()["rule"] == "TURN-1"
    assert "Bo (deciding on the prize)" in refused.json()["detail"]
    assert answer(cai, rid, False).json()["rule"] == "TURN-1"
    assert bid(dee, rid, 2).status_code == 403
    for waiting in (ana, cai, dee, eve):
        assert waiting.get(f"/api/rooms/{rid}/moves").json()["moves"] == []
    assert bo.get(f"/api/rooms/{rid}/moves").json()["moves"] == [
        {"type": "answer", "accept": True}, {"type": "answer", "accept": False}]
    # the prompted seat's own mistakes are the game's refusals
    early = bid(bo, rid, 2)
    assert (early.status_code, early.json()["rule"]) == (422, "TURN-1")
    assert answer(bo, rid, "yes").json()["rule"] == "ASK-1"
    dance = bo.post(f"/api/rooms/{rid}/moves", {"move": {"type": "dance"}})
    assert (dance.status_code, dance.json()["rule"]) == (422, "move format")
    assert cai.get(f"/api/rooms/{rid}/state").json()["version"] == 5, "refusals change nothing"

    accepted = answer(bo, rid, True)
    assert accepted.status_code == 200, accepted.text
    state = accepted.json()
    assert state["view"]["round"] == 2 and state["view"]["phase"] == "bid"
    assert state["view"]["scores"] == [4, 0, 0, 0, 0]
    assert state["active_seats"] == [0, 1, 2, 3, 4]
    assert state["statuses"] == ["bidding"] * 5
    check_sealed_view(state["view"], 1, {})  # round 2 starts with no bids
    texts = [line["text"] for line in bo.get(f"/api/rooms/{rid}/log").json()["events"]]
    assert texts[-2:] == ["You accepted: Ana scored 4.", "Round 2 of 2: seal your bids."]

    # round 2: Bo and Dee tie, Bo wins, Cai decides and refuses
    for player, amount in zip(five, ROUND_2, strict=True):
        assert bid(player, rid, amount).status_code == 200
    state = ana.get(f"/api/rooms/{rid}/state").json()
    assert state["active_seats"] == [2]
    assert state["statuses"] == ["", "waiting for an answer", "deciding on the prize", "", ""]
    assert answer(bo, rid, True).json()["rule"] == "TURN-1"
    assert answer(cai, rid, False).status_code == 200
    final = eve.get(f"/api/rooms/{rid}/state").json()
    assert final["active_seats"] == [] and final["statuses"] == [""] * 5
    assert final["result"]["scores"] == [4, 1, 0, 0, 0]
    assert final["result"]["ranking"] == [0, 1, 2, 3, 4]
    assert final["result"]["winners"] == [0]
    assert [r["points"] for r in final["result"]["details"]["rounds"]] == [4, 1]
    assert [e["bid"] for e in final["view"]["seats"]] == list(ROUND_2), "last bids stay shown"
    assert ana.get(f"/api/rooms/{rid}").json()["status"] == "finished"
    late = bid(ana, rid, 1)
    assert late.status_code == 409 and "over" in late.json()["detail"]


def test_the_last_round_counts_double_when_chosen(players):
    ana, bo = players[:2]
    rid = start_room([ana, bo], rounds=1, double_last=True)
    bid(ana, rid, 3)
    bid(bo, rid, 0)
    assert bo.get(f"/api/rooms/{rid}/state").json()["view"]["prizes"] == \
        {"accept": 8, "refuse": 1}
    final = answer(bo, rid, True).json()
    assert final["result"]["scores"] == [8, 0] and final["result"]["winners"] == [0]


def test_a_lone_player_answers_its_own_prompt(players):
    ana = players[0]
    rid = start_room([ana], rounds=1)
    state = bid(ana, rid, 2).json()
    assert state["active_seats"] == [0] and state["statuses"] == ["deciding on the prize"]
    assert answer(ana, rid, False).json()["result"]["scores"] == [1]


# -- options --------------------------------------------------------------------------------------


def test_options_are_checked_by_the_api(players):
    ana = players[0]
    for options, field in (({"rounds": 9}, "rounds"), ({"rounds": 0}, "rounds"),
                           ({"colour": "red"}, "colour"), ({"pace": "slow"}, "pace")):
        response = ana.post("/api/rooms", {"game": "sealed", "players": 2, "options": options})
        assert response.status_code == 422, response.text
        assert response.json()["fields"] == [field]
        assert field in response.json()["detail"]
    rid = new_room(ana, 2, rounds=3, double_last=True)
    assert ana.get(f"/api/rooms/{rid}").json()["options"] == \
        {"rounds": 3, "double_last": True, "pace": "calm"}
    schema = next(g for g in ana.get("/api/games").json() if g["id"] == "sealed")["options"]
    assert schema["properties"]["rounds"]["maximum"] == 5


def test_the_lobby_form_offers_and_takes_the_options(client, players):
    ana = players[0]
    client.cookies.set("canopy_token", ana.token)
    client.headers["Origin"] = "http://testserver"  # the forms are sent from the site's pages
    home = client.get("/").text
    number = re.search(r'<input type="number" name="opt-sealed-rounds"[^>]*>', home)
    assert number and 'min="1"' in number.group(0) and 'max="5"' in number.group(0)
    assert 'value="2"' in number.group(0)
    assert re.search(r'<input type="checkbox" name="opt-sealed-double_last" value="true"', home)
    assert 'type="hidden" name="opt-sealed-double_last" value="false"' in home
    select = re.search(r'<select name="opt-sealed-pace">(.*?)</select>', home, re.S)
    assert select and ">Calm</option>" in select.group(1) and ">Quick</option>" in select.group(1)
    assert "Last round counts double" in home and "Rounds" in home

    form = {"game": "sealed", "players-sealed": "3", "opt-sealed-rounds": "4",
            "opt-sealed-double_last": ["false", "true"], "opt-sealed-pace": "quick",
            "players-arboretum": "2"}
    created = client.post("/rooms", data=form, follow_redirects=False)
    assert created.status_code == 303, created.text
    match = re.fullmatch(r"/rooms/(\d+)", created.headers["location"])
    assert match, created.headers["location"]
    room = ana.get(f"/api/rooms/{match.group(1)}").json()
    assert room["game"] == "sealed" and room["players"] == 3
    assert room["options"] == {"rounds": 4, "double_last": True, "pace": "quick"}
    page = client.get(created.headers["location"]).text
    assert "<dt>Rounds</dt><dd>4</dd>" in page
    assert "<dt>Last round counts double</dt><dd>yes</dd>" in page
    assert "<dt>Pace</dt><dd>Quick</dd>" in page

    unticked = client.post("/rooms", data={**form, "opt-sealed-double_last": "false"},
                           follow_redirects=False)
    room = ana.get(unticked.headers["location"].replace("/rooms", "/api/rooms")).json()
    assert room["options"]["double_last"] is False

    bad = client.post("/rooms", data={**form, "opt-sealed-rounds": "0"}, follow_redirects=False)
    assert bad.status_code == 303 and bad.headers["location"] == "/"
    shown = client.get(bad.headers["location"]).text  # the refusal, carried by the flash cookie
    assert re.search(r'class="flash error"[^>]*>[^<]*rounds', shown)


# -- bots and the page ----------------------------------------------------------------------------


def test_bots_and_a_person_finish_a_sealed_game(players):
    ana = players[0]
    rid = new_room(ana, 5, rounds=3)
    for seat in range(1, 5):
        level = "bot" if seat % 2 else "random"
        added = ana.post(f"/api/rooms/{rid}/bots", {"seat": seat, "level": level})
        assert added.status_code == 200, added.text
    assert ana.post(f"/api/rooms/{rid}/start").status_code == 200
    deadline = time.monotonic() + 30
    state = ana.get(f"/api/rooms/{rid}/state").json()
    while state["result"] is None and time.monotonic() < deadline:
        if 0 in state["active_seats"]:
            moves = ana.get(f"/api/rooms/{rid}/moves").json()["moves"]
            move = next(m for m in moves if m.get("amount") == 1 or m.get("accept") is False)
            assert ana.post(f"/api/rooms/{rid}/moves", {"move": move}).status_code == 200
        else:
            time.sleep(0.01)
        state = ana.get(f"/api/rooms/{rid}/state").json()
    result = state["result"]
    assert result is not None, f"the game did not finish: {state}"
    rounds = result["details"]["rounds"]
    assert len(rounds) == 3
    for record in rounds:
        assert record["bids"][0] == 1, "Ana bid 1 each round"
        assert record["bids"][1] == 2 and record["bids"][3] == 2, "the bots bid 2"
    assert sum(result["scores"]) == sum(r["points"] for r in rounds)
    assert sorted(result["ranking"]) == [0, 1, 2, 3, 4]
    assert ana.get(f"/api/rooms/{rid}").json()["status"] == "finished"


def test_the_room_page_shows_every_seat_and_every_region_once(client, five):
    rid = start_room(five)
    assert bid(five[2], rid, 3).status_code == 200
    regions = ["seats", "log", "board", *(f"bidder-{s}" for s in range(5))]
    for viewer, who in ((0, five[0]), (2, five[2]), (None, None)):
        client.cookies.clear()
        if who:
            client.cookies.set("canopy_token", who.token)
        page = client.get(f"/rooms/{rid}")
        assert page.status_code == 200, page.text
        html = page.text
        for seat in range(5):
            assert f"seatchip seat-{seat}" in html, f"the seat bar lacks seat {seat}"
            assert re.search(rf'class="bidder seat-{seat}\b', html)
            assert NAMES[seat] in html
        assert html.count('<span class="dot"') >= 10
        for region in regions:
            assert len(re.findall(rf'\bid="{region}"', html)) == 1, region
        bids = re.findall(r'data-bid="(\d)"', html)
        assert bids == (["3"] if viewer == 2 else []), "only Cai sees Cai's sealed bid"
        if viewer == 0:
            assert re.findall(r">Bid (\d)</button>", html) == ["0", "1", "2", "3"], \
                "Ana is offered her four bids"
        else:
            assert "</button>" not in html.split('id="board"')[1], "no buttons but her own"
    client.cookies.clear()


def test_no_page_shows_a_games_data_notes(client):
    """Internal notes (where component data comes from) never reach a page."""
    assert client.get("/games/sealed/data").status_code == 404


# -- the rules alone ------------------------------------------------------------------------------


@pytest.mark.parametrize("players", range(1, 6))
def test_no_seat_learns_a_sealed_bid(players):
    for seed in range(5):
        assert check_playout(GAME, players, seed) == 2 * (players + 1)


def test_the_leak_checker_catches_a_bid_shown_early():
    def leaky(state, seat):
        view = GAME.view(state, seat)
        view["bids"] = list(state.bids)
        return view

    with pytest.raises(AssertionError, match="hidden information"):
        check_playout(dataclasses.replace(GAME, view=leaky), 3, seed=1)


def test_states_round_trip_and_apply_is_pure():
    rng = random.Random(5)
    state = GAME.setup(4, GAME.Options(rounds=3, double_last=True), 0)
    while GAME.active_seats(state):
        assert GAME.load(GAME.dump(state)) == state
        seat = rng.choice(sorted(GAME.active_seats(state)))
        dumped = GAME.dump(state)
        state = GAME.apply(state, seat, rng.choice(GAME.legal_moves(state, seat)))
        assert GAME.dump(GAME.load(dumped)) == dumped
    assert GAME.load(GAME.dump(state)) == state
    final = GAME.result(state)
    assert final is not None and len(final.details["rounds"]) == 3
