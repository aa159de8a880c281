"""MOV-2 and MOV-6 (views) and the log events."""

from __future__ import annotations

import json
from dataclasses import replace

from app.games.evergreen import GAME, rules
from app.games.evergreen.views import events, view, words

from .helpers import (
    act_state,
    cell_move,
    finish_round,
    new_game,
    play,
    random_playout,
    select_state,
)

POWER = {"type": "power"}
DONE = {"type": "done"}


def english(value: object) -> str:
    """A view's words (a message as JSON) in English."""
    return words(value).english()  # type: ignore[union-attr]


def act(kind: str, r: int, c: int) -> dict[str, object]:
    return cell_move(kind, (r, c), "action")


def test_game_value_declares_evergreen():
    # The declaration's shape (``GAME`` in ``__init__``) belongs to the platform; these are
    # the game's own facts in it.
    assert GAME.id == "evergreen" and GAME.title == "Evergreen"
    assert (GAME.min_players, GAME.max_players) == (1, 4)
    assert GAME.template == "evergreen/table.html"
    assert isinstance(GAME.summary, str) and "\n" not in GAME.summary
    state = GAME.setup(2, GAME.Options(), 4)
    assert GAME.legal_moves(state, min(GAME.active_seats(state))) == rules.legal_moves(
        state, min(rules.active_seats(state))
    )


def test_mov_2_the_view_shows_the_power_applications():
    state = play(act_state(7, {}, players=2), 0, POWER)
    power = view(state, 1)["seats"][0]["turn"]["power"]
    assert power["activated"] is True and power["applied"] == 0 and power["budget_left"] == 2
    state = play(state, 0, cell_move("plant", (0, 4), "power"))
    power = view(state, 1)["seats"][0]["turn"]["power"]
    assert power["applied"] == 1 and power["budget_left"] == 1


def test_view_shape_for_the_template():
    state = new_game(1, 2)
    seen = view(state, 0)
    json.dumps(seen)
    assert seen["phase"] == "select" and seen["solo"] is True
    assert seen["season"] == "spring" and seen["round"] == 1 and seen["rounds_in_season"] == 5
    assert seen["sun"] == "N" and seen["shadow"] == "S" and seen["shadow_step"] == [1, 0]
    assert [s["sun"] for s in seen["seasons"]] == ["N", "E", "S", "W"]
    assert [p["automa"] for p in seen["participants"]] == [False, True]
    assert len(seen["row"]) == 3 and len(seen["fertility_zone"]) == 6
    assert set(seen["cards"]) == {str(i) for i in range(1, 43)}
    assert english(seen["cards"]["7"]["label"]) == "Swamp (plant a sprout, 2 fertility)"
    assert seen["cards"]["7"] == {
        "id": 7,
        "biome": "swamp",
        "top": "fertility",
        "icons": 2,
        "power": "sprout",
        "colour": seen["cards"]["7"]["colour"],
        "label": seen["cards"]["7"]["label"],
        "biome_name": "Swamp",
        "power_name": "plant a sprout",
        "power_title": "Plant a sprout",
    }
    (me,) = seen["seats"]
    assert len(me["planet"]) == 9 and all(len(line) == 9 for line in me["planet"])
    cells = [cell for line in me["planet"] for cell in line if cell is not None]
    assert len(cells) == 69 and sum(cell["crack"] for cell in cells) == 4
    assert me["planet"][0][0] is None
    assert me["planet"][2][3] == {"cell": [2, 3], "biome": None, "crack": True, "piece": None}
    assert me["planet"][0][4]["biome"] == "snow"
    assert [t["power"] for t in me["tracks"]] == list(rules.POWERS)
    assert me["tracks"][0] == {
        "power": "sprout",
        "name": "plant a sprout",
        "title": "Plant a sprout",
        "position": 0,
        "values": [0, 2, 3, 4, 5, 6],
        "value": 0,
    }
    assert me["breakdown"]["starting"] == me["score"]
    assert seen["result"] is None and seen["data_note"] == "component data reconstructed"


def test_mov_2_turn_record_and_status_in_the_view():
    state = select_state(2, (7, 8, 24), first=0)
    assert english(view(state, None)["seats"][0]["status"]) == "choosing a card"
    assert english(view(state, None)["seats"][1]["status"]) == "waiting"
    state = act_state(8, {(2, 7): "sprout", (2, 8): "sprout"}, players=2)
    assert english(view(state, 1)["seats"][0]["status"]) == "playing the action and the power"
    state = play(state, 0, act("grow", 2, 7))
    seat = view(state, 1)["seats"][0]
    assert english(seat["status"]) == "action: up to 1 more sprout to plant or 1 more tree to grow"
    assert seat["turn"]["effects"] == [{"kind": "grow", "cell": [2, 7]}]
    assert seat["turn"]["actions"] == ["B", "C", "D"]
    assert seat["turn"]["power"]["activated"] is False and seat["card"] == 8
    state = play(state, 0, act("grow", 2, 8), DONE)
    assert english(view(state, None)["seats"][0]["status"]) == "done"
    assert view(state, None)["seats"][0]["done"] is True
    sprout = play(act_state(7, {}, players=2), 0, POWER)
    assert english(view(sprout, 0)["seats"][0]["status"]) == "power: up to 2 more sprouts to plant"
    lake = play(act_state(41, {(0, 3): "sprout"}, players=2), 0, POWER, cell_move("lake", (0, 4)))
    seat = view(lake, 0)["seats"][0]
    assert english(seat["status"]) == "lake: up to 2 trees to grow beside it"
    assert seat["turn"]["power"]["lake"] == [0, 4]
    planted = play(act_state(7, {}, players=2), 0, act("plant", 2, 7))
    assert english(view(planted, 0)["seats"][0]["status"]) == (
        "action: up to 2 more sprouts to plant or 1 more tree to grow")
    full = play(planted, 0, act("plant", 2, 8), act("plant", 3, 7), POWER)
    assert english(view(full, 0)["seats"][0]["status"]) == (
        "action done; power: up to 2 more sprouts to plant")


def test_mov_6_no_view_holds_the_deck_order_seed_or_counter():
    state = new_game(3, 5)
    shuffled = replace(state, deck=tuple(reversed(state.deck)), seed=99, counter=state.counter + 7)
    for seat in (None, 0, 1, 2):
        seen = view(state, seat)
        assert seen == view(shuffled, seat)
        for key in ("deck", "seed", "counter"):
            assert key not in seen
        assert seen["deck_count"] == len(state.deck)


def test_mov_6_everything_else_is_public():
    state = act_state(7, {(2, 7): "sprout"}, players=2)
    state = play(state, 0, POWER, cell_move("plant", (0, 4), "power"))
    spectator = view(state, None)
    other = view(state, 1)
    assert spectator["seats"] == other["seats"]  # in-progress steps are visible to all
    assert other["seats"][0]["turn"]["steps"] == [POWER, cell_move("plant", (0, 4), "power")]
    assert other["seats"][0]["planet"][0][4]["piece"] == "sprout"
    assert spectator["you"] is None and other["you"] == 1


def test_view_result_when_over():
    state, _ = random_playout(2, 13)
    seen = view(state, 0)
    assert seen["phase"] == "over"
    assert seen["result"] == rules.result(state).to_json()  # type: ignore[union-attr]
    assert all(english(s["status"]) == "finished" for s in seen["seats"])


# --- events -----------------------------------------------------------------------------------


def test_pick_events_and_cleanup():
    state = select_state(2, (24, 7, 13), first=0)
    after = play(state, 0, {"type": "pick", "card": 7})
    (event,) = events(state, 0, {"type": "pick", "card": 7}, after)
    assert event.text == "{p0} took Swamp (plant a sprout, 2 fertility)."
    assert event.seats is None
    final = play(after, 1, {"type": "pick", "card": 13})
    texts = [e.text for e in events(after, 1, {"type": "pick", "card": 13}, final)]
    assert texts == [
        "{p1} took Rock (plant a sprout).",
        "{p0} kept the first-player marker.",
        "The card left over, Flowers (bloom), went to the discard pile.",
    ]


def test_solo_events_name_the_automa():
    state = select_state(1, (6, 37, 24), first=0)
    after = play(state, 0, {"type": "pick", "card": 24})
    texts = [e.text for e in events(state, 0, {"type": "pick", "card": 24}, after)]
    assert texts[0] == "{p0} took Flowers (bloom)."
    assert texts[1] == "The automa took Wild (plant a sprout)."
    assert texts[-1].startswith("The card left over, Snow (bloom, aridity), dried the Snow pile")


def test_done_event_summarises_the_act_phase():
    planet = {(2, 7): "sprout", (2, 8): "sprout", (0, 4): "sprout", (0, 5): "sprout"}
    state = act_state(8, planet, players=2)
    state = play(
        state,
        0,
        POWER,
        cell_move("grow", (0, 4), "power"),
        cell_move("grow", (0, 5), "power"),
        act("grow", 2, 7),
        act("grow", 2, 8),
    )
    after = play(state, 0, DONE)
    (event,) = events(state, 0, DONE, after)
    assert event.text == ("{p0} finished the round: grew 2 trees with the action; "
                          "grew 2 small trees with the power.")
    bloom = play(act_state(12, {}, players=2), 0, POWER)
    (event,) = events(bloom, 0, DONE, play(bloom, 0, DONE))
    assert event.text == "{p0} finished the round: took no action; bloomed for 2 points."


def test_season_scoring_and_game_end_events():
    state = new_game(2, 6)
    for _ in range(4):
        state = finish_round(state)
    while state.phase == rules.SELECT:
        (seat,) = rules.active_seats(state)
        state = play(state, seat, rules.legal_moves(state, seat)[0])
    planet = {(0, 4): "large", (1, 4): "small", (1, 5): "bush", (6, 1): "large"}
    boards = (replace(state.boards[0], planet=planet), state.boards[1])
    state = replace(state, boards=boards, turns=tuple(rules.Turn(origin=b) for b in boards))
    mid = play(state, 0, DONE)
    after = play(mid, 1, DONE)
    texts = [e.text for e in events(mid, 1, DONE, after)]
    assert "{p0} scored 4 light and 3 forest points in spring." in texts
    assert "{p1} scored 0 light and 0 forest points in spring." in texts
    assert "Summer began: the light now comes from the east." in texts
    final, log = random_playout(2, 17)
    replayed = new_game(2, 17)
    for seat, move in log[:-1]:
        replayed = rules.apply(replayed, seat, move)
    seat, move = log[-1]
    texts = [e.text for e in events(replayed, seat, move, final)]
    result = rules.result(final)
    assert result is not None
    winner = result.winners[0]
    assert texts[-1] == f"Game over: {{p{winner}}} won with {result.scores[winner]} points."
    assert any(t.endswith("fertility points.") for t in texts)
