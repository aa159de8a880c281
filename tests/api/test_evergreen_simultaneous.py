"""Evergreen's simultaneous action phase through the API: both seats act at once, each undoes
its own steps, `done` is final, and the round advances only when every seat is done."""

from __future__ import annotations

import threading

from tests.conftest import started_room


def state_of(player, rid):
    return player.get(f"/api/rooms/{rid}/state").json()


def to_act_phase(players, rid):
    """Both seats pick a card (first legal pick) until the action phase opens."""
    for _ in range(10):
        state = state_of(players[0], rid)
        if state["view"]["phase"] == "act":
            return state
        (seat,) = state["active_seats"]
        pick = players[seat].get(f"/api/rooms/{rid}/moves").json()["moves"][0]
        assert players[seat].post(f"/api/rooms/{rid}/moves", {"move": pick}).status_code == 200
    raise AssertionError("the action phase did not open")


def first_step(player, rid):
    moves = player.get(f"/api/rooms/{rid}/moves").json()["moves"]
    return next(m for m in moves if m["type"] in ("plant", "grow") and m.get("by") == "action")


def test_both_seats_act_at_once_and_undo_their_own_steps(players):
    ana, bo = players[:2]
    rid = started_room(players, game="evergreen")
    state = to_act_phase(players, rid)
    assert state["active_seats"] == [0, 1]
    moves = {0: first_step(ana, rid), 1: first_step(bo, rid)}
    answers = {}

    def send(seat, player):
        answers[seat] = player.post(f"/api/rooms/{rid}/moves", {"move": moves[seat]})

    threads = [threading.Thread(target=send, args=(s, p)) for s, p in ((0, ana), (1, bo))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert answers[0].status_code == answers[1].status_code == 200
    after = state_of(ana, rid)
    assert after["version"] == state["version"] + 2
    for seat in (0, 1):
        turn = after["view"]["seats"][seat]["turn"]
        assert [e["cell"] for e in turn["effects"]] == [moves[seat]["cell"]]
    # Undo takes back only the caller's own step.
    undone = bo.post(f"/api/rooms/{rid}/moves", {"move": {"type": "undo"}})
    assert undone.status_code == 200
    view = undone.json()["view"]
    assert view["seats"][1]["turn"]["effects"] == []
    assert [e["cell"] for e in view["seats"][0]["turn"]["effects"]] == [moves[0]["cell"]]
    nothing = bo.post(f"/api/rooms/{rid}/moves", {"move": {"type": "undo"}})
    assert nothing.status_code == 422 and nothing.json()["rule"] == "MOV-4"


def test_done_is_final_and_the_round_waits_for_everyone(players):
    ana, bo = players[:2]
    rid = started_room(players, game="evergreen")
    state = to_act_phase(players, rid)
    round_before = state["view"]["round"]
    assert ana.post(f"/api/rooms/{rid}/moves", {"move": {"type": "done"}}).status_code == 200
    waiting = state_of(ana, rid)
    assert waiting["active_seats"] == [1] and waiting["view"]["phase"] == "act"
    assert waiting["view"]["seats"][0]["status"]["text"] == "done"
    for move in ({"type": "undo"}, {"type": "done"}, first_step(bo, rid)):
        refused = ana.post(f"/api/rooms/{rid}/moves", {"move": move})
        assert refused.status_code == 409, refused.text
        assert refused.json()["rule"] == "TIM-3"
        assert refused.json()["detail"]
    assert state_of(ana, rid)["version"] == waiting["version"]
    assert bo.post(f"/api/rooms/{rid}/moves", {"move": {"type": "done"}}).status_code == 200
    advanced = state_of(ana, rid)
    assert advanced["view"]["phase"] == "select"
    assert advanced["view"]["round"] == round_before + 1


def test_a_stale_version_in_the_simultaneous_phase_is_409(players):
    ana, bo = players[:2]
    rid = started_room(players, game="evergreen")
    state = to_act_phase(players, rid)
    version = state["version"]
    assert ana.post(f"/api/rooms/{rid}/moves", {"move": first_step(ana, rid),
                                                 "expected_version": version}).status_code == 200
    stale = bo.post(f"/api/rooms/{rid}/moves", {"move": first_step(bo, rid),
                                                "expected_version": version})
    assert stale.status_code == 409 and stale.json()["version"] == version + 1
    fresh = bo.post(f"/api/rooms/{rid}/moves", {"move": first_step(bo, rid)})
    assert fresh.status_code == 200


def test_a_bot_acts_as_soon_as_the_phase_opens(players):
    import time

    ana = players[0]
    rid = ana.post("/api/rooms", {"game": "evergreen", "players": 2}).json()["id"]
    ana.post(f"/api/rooms/{rid}/bots")
    ana.post(f"/api/rooms/{rid}/start")
    for _ in range(400):
        state = state_of(ana, rid)
        if state["view"]["phase"] == "act" and state["view"]["seats"][1]["done"]:
            break
        if 0 in state["active_seats"] and state["view"]["phase"] == "select":
            pick = ana.get(f"/api/rooms/{rid}/moves").json()["moves"][0]
            ana.post(f"/api/rooms/{rid}/moves", {"move": pick})
        time.sleep(0.01)
    assert state["view"]["phase"] == "act" and state["active_seats"] == [0]
    assert state["view"]["seats"][1]["status"]["text"] == "done"


def test_solo_game_against_the_automa_to_its_title(players):
    ana = players[0]
    room = ana.post("/api/rooms", {"game": "evergreen", "players": 1,
                                   "options": {"sun_start": "E"}}).json()
    assert room["options"] == {"sun_start": "E"}
    rid = room["id"]
    assert ana.post(f"/api/rooms/{rid}/start").status_code == 200
    assert state_of(ana, rid)["view"]["sun"] == "E"
    for _ in range(3000):
        state = state_of(ana, rid)
        if state["result"]:
            break
        moves = ana.get(f"/api/rooms/{rid}/moves").json()["moves"]
        move = next((m for m in moves if m["type"] in ("pick", "plant", "grow")),
                    {"type": "done"})
        assert ana.post(f"/api/rooms/{rid}/moves", {"move": move}).status_code == 200
    title = state["result"]["details"]["title"]
    assert title["en"] and state["result"]["winners"] == [0]
    bad = ana.post("/api/rooms", {"game": "evergreen", "players": 1,
                                  "options": {"sun_start": "X"}})
    assert bad.status_code == 422 and "sun_start" in bad.json()["detail"]
