"""Mycelia's bonus prompts cross seats through the API (issue 9, B1-B3): seat 0 plays Amanita
muscaria (``2x any1:x & !any1:x``); once it passes its own removals, the bonus prompt moves
to seat 1, who answers on their own board, while seat 0 is refused until the walk returns."""

from __future__ import annotations

from sqlmodel import Session, select

from app.games.mycelia import GAME, rules
from app.models import Game
from tests.conftest import started_room
from tests.unit.mycelia.helpers import table


def dealt_with_amanita(app, players) -> int:
    """A started 2-player Mycelia room whose stored game has Amanita in seat 0's hand."""
    rid = started_room(players, game="mycelia")
    state = table(2, hands={0: ("amanita_muscaria", "st_leaf", "st_leaf")})
    with Session(app.state.engine) as session:
        row = session.exec(select(Game).where(Game.room_id == rid)).one()
        row.state = rules.dump(state)
        session.add(row)
        session.commit()
    app.state.rooms.tables.forget(rid)
    return rid


def test_B3_a_bonus_prompt_is_answered_by_the_other_seat_while_the_player_waits(app, players):
    ana, bo = players[:2]
    rid = dealt_with_amanita(app, players)
    amanita = next(card for card in ana.get(f"/api/rooms/{rid}/state").json()["view"]
                   ["seats"][0]["hand"] if card["name"] == "Amanita muscaria")["card"]
    played = ana.post(f"/api/rooms/{rid}/moves", {"move": {"type": "play", "card": amanita}})
    assert played.status_code == 200, played.text
    state = played.json()
    assert state["active_seats"] == [0] and state["view"]["pending"]["kind"] == "choose_field"

    skipped = ana.post(f"/api/rooms/{rid}/moves", {"move": {"type": "skip"}}).json()
    pending = skipped["view"]["pending"]
    assert skipped["active_seats"] == [1]
    assert (pending["seat"], pending["kind"], pending["bonus"]) == (1, "choose_field", True)
    assert "Amanita muscaria" in pending["prompt_text"]

    # the player whose turn it is waits: refused, and told whom the table waits for
    waiting = ana.post(f"/api/rooms/{rid}/moves", {"move": {"type": "end_turn"}})
    assert waiting.status_code == 403 and "waiting for Bo" in waiting.json()["detail"]
    assert waiting.json()["rule"] == GAME.turn_rule
    assert ana.get(f"/api/rooms/{rid}/moves").json()["moves"] == []

    answers = bo.get(f"/api/rooms/{rid}/moves").json()["moves"]
    assert answers and {m["type"] for m in answers} <= {"choose_field", "skip"}
    choice = next(m for m in answers if m["type"] == "choose_field")
    before = bo.get(f"/api/rooms/{rid}/state").json()["view"]["seats"][1]["drops"]
    answered = bo.post(f"/api/rooms/{rid}/moves", {"move": choice})
    assert answered.status_code == 200, answered.text
    after = answered.json()
    assert after["view"]["seats"][1]["drops"] == before - 1, "Bo removed 1 drop of his own"
    assert after["active_seats"] == [0] and after["view"]["pending"] is None
    log = [line["text"] for line in bo.get(f"/api/rooms/{rid}/log").json()["events"]]
    assert any(line.startswith("You removed 1 drop") for line in log)
