"""Evo's sealed decisions through the platform (TestClient, SQLite): the two event-card windows
and the survival keep choices have several prompted seats at once; each submission is an
ordinary move kept sealed until the last prompted seat has submitted, then all are revealed
and applied together (rules.py's docstring, spec "Digital moves").

The positions are hand-built the way tests/api/test_mycelia_prompts.py builds one: a room is
started, then its stored game is replaced by a state made from it with the rules module (cards
dealt from the deck, the window opened as the rules open it). Two rooms get the same state;
the first seat submits one thing in one room and another thing in the other, and what the
second seat (and a seat that is not prompted, and a spectator) can read — GET /state, /log,
/moves, the room page and the JSON socket's messages — must be the same in both rooms:
only that the first seat has sealed. The survival window is checked the same way, and its
cards' effect on the keep choices that follow; the keep choices are sealed like a window."""

from __future__ import annotations

import contextlib
from dataclasses import replace
from typing import Any

from fastapi import FastAPI
from fastapi.testclient import TestClient
from sqlmodel import Session, select

from app.games.evo import rules
from app.games.evo.phrases import space_labels
from app.games.evo.rules import MOVE_WINDOW, MOVEMENT, SURVIVAL, SURVIVAL_WINDOW, State
from app.models import Game
from tests.conftest import Player, started_room
from tests.realtime.test_sockets import receive_until

#: Ana holds two cards of the movement window; Bo one of it and one of the survival window
#: (a holder is prompted whatever its cards); Cai holds none and is not asked.
HANDS: dict[int, tuple[str, ...]] = {0: ("rage", "herd"), 1: ("camouflage", "sunshade")}
#: The names the page and the log give Ana's cards.
ANA_CARDS = ("Battle Rage", "Herd Defence")
ANA_PLAYS = {"type": "play_events", "cards": [{"card": "rage"}, {"card": "herd"}]}


# -- building a position --------------------------------------------------------------------------


def stored(app: FastAPI, rid: int) -> State:
    with Session(app.state.engine) as session:
        row = session.exec(select(Game).where(Game.room_id == rid)).one()
        return rules.load(row.state)


def store(app: FastAPI, rid: int, state: State) -> None:
    """Replace the room's game by ``state`` (its version stays) and drop the cached table."""
    with Session(app.state.engine) as session:
        row = session.exec(select(Game).where(Game.room_id == rid)).one()
        row.state = rules.dump(state)
        session.add(row)
        session.commit()
    app.state.rooms.tables.forget(rid)


def with_hands(state: State, hands: dict[int, tuple[str, ...]]) -> State:
    """``state`` with ``hands`` dealt from the deck (every other hand empty)."""
    given = [card for hand in hands.values() for card in hand]
    return replace(state, hands=tuple(hands.get(s, ()) for s in range(state.players)),
                   deck=tuple(card for card in state.deck if card not in given))


def rooms_with(app: FastAPI, players: list[Player], n: int, state_of: Any,
               rooms: int = 2) -> list[int]:
    """``rooms`` started rooms of ``n`` seats holding the same state, ``state_of(the first
    room's stored state)``."""
    rids = [started_room(players, n, game="evo") for _ in range(rooms)]
    state = state_of(stored(app, rids[0]))
    for rid in rids:
        store(app, rid, state)
    return rids


def window_state(state: State) -> State:
    """The movement window opening, Ana and Bo holding :data:`HANDS`."""
    opened = rules._open_window(with_hands(state, HANDS), MOVE_WINDOW, [])
    assert opened.prompted == {0, 1}
    return opened


# -- what a seat can read -------------------------------------------------------------------------


def page_of(client: TestClient, rid: int, who: Player | None) -> str:
    client.cookies.clear()
    if who is not None:
        client.cookies.set("canopy_token", who.token)
    page = client.get(f"/rooms/{rid}")
    client.cookies.clear()
    assert page.status_code == 200, page.text
    return page.text


def reading(client: TestClient, rid: int, who: Player | None) -> dict[str, Any]:
    """Everything ``who`` (None: a spectator) can ask the API about the game."""
    get = who.get if who is not None else client.get
    state = get(f"/api/rooms/{rid}/state").json()
    log = get(f"/api/rooms/{rid}/log").json()
    moves = who.get(f"/api/rooms/{rid}/moves").json()["moves"] if who is not None else None
    return {"state": state, "moves": moves,
            "log": [(line["key"], line["text"], line["params"], line["seat"])
                    for line in log["events"]]}


def changed_paths(before: Any, after: Any, path: str = "") -> set[str]:
    """The JSON paths where two documents differ (lists compared item by item)."""
    if isinstance(before, dict) and isinstance(after, dict):
        keys = before.keys() | after.keys()
        return {p for k in keys for p in changed_paths(before.get(k), after.get(k),
                                                         f"{path}/{k}")}
    if isinstance(before, list) and isinstance(after, list) and len(before) == len(after):
        return {p for i, (b, a) in enumerate(zip(before, after, strict=True))
                for p in changed_paths(b, a, f"{path}/{i}")}
    return set() if before == after else {path}


def texts(log: list[tuple[str, str, Any, int]]) -> list[str]:
    return [text for _, text, _, _ in log]


def post(player: Player, rid: int, move: dict[str, Any], version: int | None = None) -> Any:
    body: dict[str, Any] = {"move": move}
    if version is not None:
        body["expected_version"] = version
    return player.post(f"/api/rooms/{rid}/moves", body)


def after_the_seal(client: TestClient, rid: int, players: list[Player], ana_move: dict[str, Any],
                   ) -> tuple[dict[str, Any], dict[str, Any], list[dict[str, Any]]]:
    """Ana submits ``ana_move`` while Bo's, Cai's and a spectator's JSON sockets listen; returns
    what each watcher read before and after (by name) and the messages the sockets got."""
    ana, bo, cai = players[:3]
    watchers: dict[str, Player | None] = {"Bo": bo, "Cai": cai, "spectator": None}
    before = {name: reading(client, rid, who) for name, who in watchers.items()}
    pages = {name: page_of(client, rid, who) for name, who in watchers.items()}
    with contextlib.ExitStack() as stack:
        sockets = {}
        for name, who in watchers.items():
            query = f"?token={who.token}" if who else ""
            ws = stack.enter_context(client.websocket_connect(f"/ws/rooms/{rid}{query}"))
            snapshot = ws.receive_json()
            assert snapshot["type"] == "snapshot"
            assert snapshot["view"] == before[name]["state"]["view"]
            sockets[name] = ws
        sealed = post(ana, rid, ana_move)
        assert sealed.status_code == 200, sealed.text
        messages = []
        for name, ws in sockets.items():
            patch, others = receive_until(ws, "patch")
            messages.append({"watcher": name, "patch": patch, "others": others})
    after = {name: reading(client, rid, who) for name, who in watchers.items()}
    for name, who in watchers.items():
        after[name]["page"] = page_of(client, rid, who)
        after[name]["page before"] = pages[name]
    after["Ana"] = sealed.json()
    return before, after, messages


def game_part(state: dict[str, Any]) -> dict[str, Any]:
    """A /state body without who was last seen when (it differs between the two rooms)."""
    return {key: value for key, value in state.items() if key != "seats"}


def comparable(after: dict[str, Any], messages: list[dict[str, Any]]) -> Any:
    """What the watchers read after Ana's seal, as one value to compare between rooms."""
    return ({name: (game_part(seen["state"]), seen["moves"], seen["log"])
             for name, seen in after.items() if name != "Ana"},
            [(m["watcher"], m["patch"]["ops"], m["patch"]["active_seats"],
              m["patch"]["statuses"], m["others"]) for m in messages])


# -- the movement window --------------------------------------------------------------------------


def test_a_window_choice_stays_sealed_until_the_last_prompted_seat_submits(app, client, players):
    ana, bo, cai = players[:3]
    played, passed = rooms_with(app, players, 3, window_state)
    start = bo.get(f"/api/rooms/{played}/state").json()
    assert start["view"]["phase"] == MOVE_WINDOW and start["active_seats"] == [0, 1]
    assert start["statuses"] == ["choosing event cards", "choosing event cards", ""]
    assert start["view"]["window"] == {"phase": MOVE_WINDOW, "prompted": [0, 1], "sealed": []}
    version = start["version"]
    bo_moves = bo.get(f"/api/rooms/{played}/moves").json()["moves"]
    bo_dinosaurs = [s["at"] for s in start["view"]["spaces"] if s["dinosaur"] == 1]
    assert bo_moves == [{"type": "pass"}, *({"type": "play_events", "cards": [
        {"card": "camouflage", "at": at}]} for at in bo_dinosaurs)], \
        "Bo is asked although Sunshade is not for this window"
    assert ANA_PLAYS in ana.get(f"/api/rooms/{played}/moves").json()["moves"]
    assert cai.get(f"/api/rooms/{played}/moves").json()["moves"] == []

    # Ana plays two cards in one room and passes in the other: nobody else can tell which.
    seen = {}
    for rid, move in ((played, ANA_PLAYS), (passed, {"type": "pass"})):
        before, after, messages = after_the_seal(client, rid, players, move)
        seen[rid] = (before, after, messages)
        own = after["Ana"]
        assert own["version"] == version + 1 and own["active_seats"] == [1]
        assert own["statuses"] == ["choice sealed", "choosing event cards", ""]
        expected = ({"cards": [{"card": "rage", "at": None}, {"card": "herd", "at": None}]}
                    if move is ANA_PLAYS else {"cards": []})
        assert own["view"]["seats"][0]["submission"] == expected, "Ana sees her own choice"
        assert own["view"]["seats"][0]["hand"] == ["rage", "herd"], "nothing is played yet"
        for name in ("Bo", "Cai", "spectator"):
            view_before, view = before[name]["state"]["view"], after[name]["state"]["view"]
            assert after[name]["state"]["active_seats"] == [1]
            assert after[name]["state"]["statuses"] == own["statuses"]
            allowed = {"/active_seats", "/active_seats/0", "/active_seats/1", "/window/sealed",
                       "/seats/0/sealed", "/seats/0/status"}
            assert changed_paths(view_before, view) <= allowed, \
                f"{name} is shown more than the seal: {changed_paths(view_before, view)}"
            assert view["seats"][0]["sealed"] is True
            assert view["seats"][0]["submission"] is None and view["seats"][0]["hand"] is None
            assert view["seats"][0]["hand_count"] == 2 and view["seats"][0]["in_force"] == []
            assert view["window"]["sealed"] == [0]
            new_lines = after[name]["log"][len(before[name]["log"]):]
            assert new_lines == [("evo.sealed", "Ana sealed a choice", {"seat": 0}, 0)], \
                f"{name}'s log tells only that Ana sealed: {new_lines}"
            for card in ANA_CARDS:
                assert after[name]["page"].count(card) == after[name]["page before"].count(card)
        assert after["Bo"]["moves"] == bo_moves, "Bo's choices do not depend on Ana's"
        assert after["Cai"]["moves"] == []
        for message in messages:
            patch = message["patch"]
            assert (patch["from"], patch["to"]) == (version, version + 1)
            assert patch["active_seats"] == [1] and patch["result"] is None
            for op in patch["ops"]:
                assert op["path"].split("/")[1] in ("active_seats", "window", "seats"), op
                assert not any(card in str(op) for card in ("rage", "herd")), \
                    f"{message['watcher']}'s socket is told Ana's cards: {op}"
    assert comparable(seen[played][1], seen[played][2]) == \
        comparable(seen[passed][1], seen[passed][2]), "a play and a pass read the same"
    ana_log = texts(reading(client, played, ana)["log"])
    assert ana_log[-1] == "You sealed Battle Rage and Herd Defence"
    assert texts(reading(client, passed, ana)["log"])[-1] == "You sealed no card"

    # Ana cannot submit again, whatever she sends: refused with the rule, nothing changes.
    sealed_version = version + 1
    for move in (ANA_PLAYS, {"type": "pass"}, {"type": "play_events",
                                                "cards": [{"card": "herd"}]}):
        again = post(ana, played, move)
        assert again.status_code == 409, again.text
        body = again.json()
        assert body["rule"] == rules.RULE_EVENTS
        assert "finished this phase" in body["detail"] and "Bo" in body["detail"]
        assert body["version"] == sealed_version
    assert ana.get(f"/api/rooms/{played}/moves").json()["moves"] == []
    # Cai, who holds no card, is not asked.
    outsider = post(cai, played, {"type": "pass"})
    assert outsider.status_code == 403 and outsider.json()["rule"] == rules.RULE_TURN
    assert "waiting for Bo" in outsider.json()["detail"]
    # Bo's move made against the version before Ana's seal is stale.
    stale = post(bo, played, {"type": "pass"}, version=version)
    assert stale.status_code == 409, stale.text
    assert stale.json()["version"] == sealed_version and "stale" in stale.json()["detail"]
    unchanged = reading(client, played, bo)
    assert unchanged["state"] == seen[played][1]["Bo"]["state"], "refusals change nothing"
    assert unchanged["log"] == seen[played][1]["Bo"]["log"]
    assert ana.get(f"/api/rooms/{played}/state").json()["view"] == seen[played][1]["Ana"]["view"]

    # Bo's submission is the last: both are revealed and applied together.
    hidden_at = bo_dinosaurs[0]
    camouflage = {"type": "play_events", "cards": [{"card": "camouflage", "at": hidden_at}]}
    with client.websocket_connect(f"/ws/rooms/{played}?token={cai.token}") as ws:
        snapshot = ws.receive_json()
        assert snapshot["version"] == sealed_version
        last = post(bo, played, camouflage, version=sealed_version)
        assert last.status_code == 200, last.text
        patch = receive_until(ws, "patch")[0]
    assert (patch["from"], patch["to"]) == (sealed_version, sealed_version + 1)
    where = f"the {rules.MAPS[3].terrain[(hidden_at[0], hidden_at[1])]} at " \
            f"{space_labels(3)[(hidden_at[0], hidden_at[1])]}"
    for who, names in ((ana, ("you", "Bo")), (bo, ("Ana", "you")), (cai, ("Ana", "Bo")),
                       (None, ("Ana", "Bo"))):
        state = reading(client, played, who)
        view = state["state"]["view"]
        log = texts(state["log"])
        assert log.count(f"Event cards revealed: {names[0]} played Battle Rage and Herd Defence; "
                         f"{names[1]} played Camouflage on the dinosaur on {where}") == 1, log
        assert view["phase"] == MOVEMENT and view["window"] is None
        assert [s["hand_count"] for s in view["seats"]] == [0, 1, 0], "the cards left the hands"
        assert [s["in_force"] for s in view["seats"]] == [["herd", "rage"], ["camouflage"], []]
        assert view["played_cards"] == [
            {"seat": 0, "card": "rage"}, {"seat": 0, "card": "herd"},
            {"seat": 1, "card": "camouflage"}]
        assert [s["at"] for s in view["spaces"] if s["camouflaged"]] == [hidden_at]
        assert [s["sealed"] for s in view["seats"]] == [False, False, False]
        assert all(s["submission"] is None for s in view["seats"])
    assert reading(client, played, ana)["state"]["view"]["seats"][0]["hand"] == []
    assert reading(client, played, bo)["state"]["view"]["seats"][1]["hand"] == ["sunshade"]
    assert any(op["path"].startswith("/seats/0/in_force") for op in patch["ops"])

    # In the other room Bo passes too: nothing is played, and both passes are told.
    assert post(bo, passed, {"type": "pass"}).status_code == 200
    state = reading(client, passed, cai)
    assert texts(state["log"])[-1].startswith(
        "Event cards revealed: Ana played no card; Bo played no card")
    view = state["state"]["view"]
    assert view["phase"] == MOVEMENT
    assert [s["hand_count"] for s in view["seats"]] == [2, 2, 0]
    assert [s["in_force"] for s in view["seats"]] == [[], [], []] and view["played_cards"] == []


def test_the_survival_window_is_revealed_before_the_survivors_are_chosen(app, client, players):
    """Ana's Heat Wave and Bo's Sunshade are sealed together in the survival window; once both
    are in, Bo's two dinosaurs on the hot beach have one parasol between them (his gene, +1,
    -1), so Bo alone chooses which survives."""
    ana, bo = players[:2]

    def heat(state: State) -> State:
        state = replace(with_hands(state, {0: ("heat_wave",), 1: ("sunshade",)}),
                        board={(-3, -1): 0, (-3, 0): 0, (-4, -1): 1, (3, -1): 1}, section=0,
                        genes=((), ("parasol",)), in_force=frozenset())
        return rules._open_window(state, SURVIVAL_WINDOW, [])

    (rid,) = rooms_with(app, players, 2, heat, rooms=1)
    before = reading(client, rid, bo)
    assert before["state"]["active_seats"] == [0, 1]
    bo_moves = before["moves"]
    assert bo_moves == [{"type": "pass"},
                        {"type": "play_events", "cards": [{"card": "sunshade"}]}]
    wave = {"type": "play_events", "cards": [{"card": "heat_wave"}]}
    assert post(ana, rid, wave, version=before["state"]["version"]).status_code == 200
    after = reading(client, rid, bo)
    assert changed_paths(before["state"]["view"], after["state"]["view"]) <= {
        "/active_seats", "/active_seats/0", "/active_seats/1", "/window/sealed",
        "/seats/0/sealed", "/seats/0/status"}
    assert after["log"][len(before["log"]):] == [
        ("evo.sealed", "Ana sealed a choice", {"seat": 0}, 0)]
    assert after["moves"] == bo_moves
    assert "Heat Wave" not in str(after), "Bo reads nothing of Ana's card"

    shade = post(bo, rid, bo_moves[1], version=after["state"]["version"])
    assert shade.status_code == 200, shade.text
    state = shade.json()
    view = state["view"]
    assert texts(reading(client, rid, ana)["log"])[-2:] == [
        "Event cards revealed: you played Heat Wave; Bo played Sunshade",
        "Bo may choose which dinosaurs survive"]
    assert view["phase"] == SURVIVAL and state["active_seats"] == [1]
    assert [s["in_force"] for s in view["seats"]] == [["heat_wave"], ["sunshade"]]
    assert [s["hand_count"] for s in view["seats"]] == [0, 0]
    assert view["seats"][1]["survival"]["kept"] == 1
    keeps = bo.get(f"/api/rooms/{rid}/moves").json()["moves"]
    assert keeps == [{"type": "keep", "at": [[-4, -1]]}, {"type": "keep", "at": [[3, -1]]}]
    assert ana.get(f"/api/rooms/{rid}/moves").json()["moves"] == []
    kept = post(bo, rid, keeps[1]).json()
    assert sorted(s["at"] for s in kept["view"]["spaces"] if s["dinosaur"] == 1) == [[3, -1]]
    assert "Bo lost 1 dinosaur to the climate (1 hot)" in texts(reading(client, rid, None)["log"])


# -- the survival keep choices --------------------------------------------------------------------

#: Two dinosaurs each on the cold hills of the 2-player island (wheel section 0), one fur each:
#: each player keeps one of two.
SURVIVAL_BOARD = {(1, -2): 0, (-2, -1): 0, (0, -3): 1, (1, -3): 1}


def survival_state(state: State) -> State:
    state = replace(state, board=dict(SURVIVAL_BOARD), section=0,
                    genes=(("fur",), ("fur",)), hands=((), ()), in_force=frozenset())
    chosen = rules._start_survival(state, [])
    assert chosen.phase == SURVIVAL and chosen.prompted == {0, 1}
    return chosen


def test_survival_keep_choices_are_sealed_the_same_way(app, client, players):
    ana, bo = players[:2]
    first, second = rooms_with(app, players, 2, survival_state)
    start = bo.get(f"/api/rooms/{first}/state").json()
    version = start["version"]
    assert start["active_seats"] == [0, 1]
    assert start["statuses"] == ["choosing survivors", "choosing survivors"]
    options = ana.get(f"/api/rooms/{first}/moves").json()["moves"]
    assert options == [{"type": "keep", "at": [[-2, -1]]}, {"type": "keep", "at": [[1, -2]]}]
    bo_options = bo.get(f"/api/rooms/{first}/moves").json()["moves"]
    assert len(bo_options) == 2

    seen = {}
    for rid, keep in ((first, options[0]), (second, options[1])):
        before = reading(client, rid, bo)
        with client.websocket_connect(f"/ws/rooms/{rid}?token={bo.token}") as ws:
            assert ws.receive_json()["type"] == "snapshot"
            kept = post(ana, rid, keep, version=version)
            assert kept.status_code == 200, kept.text
            patch = receive_until(ws, "patch")[0]
        own = kept.json()
        assert own["view"]["seats"][0]["submission"] == {"keep": keep["at"]}
        assert own["statuses"] == ["survivors chosen", "choosing survivors"]
        after = reading(client, rid, bo)
        view = after["state"]["view"]
        assert after["state"]["active_seats"] == [1]
        assert view["seats"][0]["sealed"] is True and view["seats"][0]["submission"] is None
        assert changed_paths(before["state"]["view"], view) <= {
            "/active_seats", "/active_seats/0", "/active_seats/1",
            "/seats/0/sealed", "/seats/0/status"}
        assert sorted(s["at"] for s in view["spaces"] if s["dinosaur"] == 0) == \
            [[-2, -1], [1, -2]], "both of Ana's dinosaurs stand until Bo has chosen"
        assert after["log"][len(before["log"]):] == [
            ("evo.kept", "Ana chose survivors", {"seat": 0}, 0)]
        assert after["moves"] == bo_options
        seen[rid] = (after["state"], after["log"], patch["ops"], patch["statuses"])
        assert texts(reading(client, rid, ana)["log"])[-1] == \
            f"You chose the survivors on the hills at " \
            f"{space_labels(2)[(keep['at'][0][0], keep['at'][0][1])]}"
    assert seen[first] == seen[second], "Bo cannot tell which dinosaur Ana kept"

    again = post(ana, first, options[1])
    assert again.status_code == 409 and again.json()["rule"] == rules.RULE_SURVIVAL
    stale = post(bo, first, bo_options[0], version=version)
    assert stale.status_code == 409 and stale.json()["version"] == version + 1
    assert reading(client, first, bo)["state"] == seen[first][0], "refusals change nothing"

    done = post(bo, first, bo_options[1], version=version + 1)
    assert done.status_code == 200, done.text
    board = {tuple(s["at"]): s["dinosaur"] for s in done.json()["view"]["spaces"]
             if s["dinosaur"] is not None}
    assert board == {tuple(options[0]["at"][0]): 0, tuple(bo_options[1]["at"][0]): 1}, \
        "both choices were applied together"
    log = texts(reading(client, first, None)["log"])
    assert "Ana lost 1 dinosaur to the climate (1 cold)" in log
    assert "Bo lost 1 dinosaur to the climate (1 cold)" in log
    assert done.json()["view"]["round"] == start["view"]["round"] + 1
