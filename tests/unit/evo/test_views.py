"""What each seat sees of an Evo game, the log, and the concealed twin (spec "Information")."""

from __future__ import annotations

import json
import random
from dataclasses import replace

from app.games.evo import rules, views
from app.games.evo.rules import MOVE_WINDOW, MUTATION, SURVIVAL
from app.rooms.table import fill_names
from app.web.words import raw_fragment
from tests.unit.evo import new_game, play, position

NAMES = ["Ana", "Bo", "Cy", "Di", "Ed"]


def lines(before, seat, move, reader, names=NAMES):
    after = rules.apply(before, seat, move)
    return [fill_names(e.text, names[:before.players], reader)
            for e in views.events(before, seat, move, after) if e.visible_to(reader)]


def test_hidden_parts_show_only_their_size():
    state = position(3, MUTATION, lab=("horn", "fur"), hands={1: ("rage", "sprint")},
                     board={(3, -2): 0, (-2, 4): 1, (-2, -2): 2}, seed=2**100 + 12345)
    for seat in (0, 2, None):
        seen = views.view(state, seat)
        assert seen["seats"][1]["hand"] is None and seen["seats"][1]["hand_count"] == 2
        assert seen["climate_pile"]["next"] is None
        text = json.dumps(seen)
        assert str(state.seed) not in text and "set_aside" not in text
    assert views.view(state, 1)["seats"][1]["hand"] == ["rage", "sprint"]
    seen = views.view(state, 0)
    assert seen["bag_count"] == len(state.bag) and seen["deck_count"] == len(state.deck)
    assert seen["climate_pile"]["count"] == len(state.pile)
    assert seen["seats"][0]["mp"] == state.mp[0]
    assert seen["seats"][2]["mp"] is None  # MP are secret until the end


def test_the_sixth_sense_holder_sees_the_next_climate_token():
    state = position(2, MUTATION, lab=("horn",), genes={1: ("sixth_sense",)},
                     board={(-3, -1): 0, (2, -1): 1})
    assert views.view(state, 1)["climate_pile"]["next"] == state.pile[0]
    assert views.view(state, 0)["climate_pile"]["next"] is None
    assert views.view(state, None)["climate_pile"]["next"] is None
    rng = random.Random(3)
    for _ in range(20):
        twin = views.conceal(state, 1, rng)
        assert twin.pile[0] == state.pile[0]
        assert views.view(twin, 1) == views.view(state, 1)


def test_sealed_window_choices_stay_hidden_until_the_last_is_in():
    state = position(phase=MOVE_WINDOW, board={(-3, -1): 0, (2, -1): 1},
                     hands={0: ("rage",), 1: ("herd",)})
    before = views.view(state, 1)
    sealed = play(state, 0, {"type": "play_events", "cards": [{"card": "rage"}]})
    other = views.view(sealed, 1)
    assert other["seats"][0]["sealed"] and other["seats"][0]["submission"] is None
    assert other["seats"][0]["hand_count"] == 1 and other["played_cards"] == []
    passed = play(state, 0, {"type": "pass"})
    assert views.view(passed, 1) == other != before
    assert views.view(sealed, 0)["seats"][0]["submission"] == {
        "cards": [{"card": "rage", "at": None}]}
    assert lines(state, 0, {"type": "play_events", "cards": [{"card": "rage"}]}, 1) == \
        lines(state, 0, {"type": "pass"}, 1) == ["Ana sealed a choice"]
    assert lines(state, 0, {"type": "play_events", "cards": [{"card": "rage"}]}, 0) == \
        ["You sealed Battle Rage"]
    revealed = lines(sealed, 1, {"type": "pass"}, 0)
    assert "Event cards revealed: you played Battle Rage; Bo played no card" in revealed
    after = play(sealed, 1, {"type": "pass"})
    assert views.view(after, 1)["played_cards"] == [{"seat": 0, "card": "rage"}]


def test_sealed_survival_choices():
    board = {(1, -2): 0, (-2, -1): 0, (0, -3): 1, (1, -3): 1}
    state = position(phase=SURVIVAL, board=board, genes={0: ("fur",), 1: ("fur",)})
    a = play(state, 0, {"type": "keep", "at": [[1, -2]]})
    b = play(state, 0, {"type": "keep", "at": [[-2, -1]]})
    assert views.view(a, 1) == views.view(b, 1)
    assert views.view(a, 0) != views.view(b, 0)
    assert views.view(a, 0)["seats"][0]["submission"] == {"keep": [[1, -2]]}
    assert lines(state, 0, {"type": "keep", "at": [[1, -2]]}, 1) == ["Ana chose survivors"]


def test_the_event_card_drawn_is_told_to_its_winner_only():
    state = position(2, MUTATION, lab=("horn",), board={(-3, -1): 0, (2, -1): 1})
    state = play(state, 0, {"type": "bid", "column": 1, "value": 2})
    move = {"type": "bid", "column": 2, "value": 0}
    card = rules.EVENT_CARDS[state.deck[0]].name
    assert f"You took the event card {card} for 2 MP" in lines(state, 1, move, 0)
    assert "Ana took an event card for 2 MP" in lines(state, 1, move, 1)
    assert not any(card in line for line in lines(state, 1, move, 1))
    assert not any(card in line for line in lines(state, 1, move, None))


def test_log_lines_are_plain_words_in_the_past_tense():
    state = position(board={(1, -2): 0, (2, -2): 1})
    text = lines(state, 0, {"type": "attack", "from": [1, -2], "to": [2, -2]}, 1)
    assert text[0].startswith("Ana attacked your dinosaur on the plains at B6 from the "
                              "hills at B5, 0 horns against 0; the die showed")
    for line in text + lines(state, 0, {"type": "done"}, 0):
        assert raw_fragment(line) is None, line


def test_the_view_is_json_and_names_every_space():
    state = new_game(5, seed=9)
    seen = views.view(state, 0)
    json.dumps(seen)
    assert len(seen["spaces"]) == 70
    assert sum(1 for s in seen["spaces"] if s["dinosaur"] is not None) == 10
    assert seen["lab"]["bidding"] and len(seen["lab"]["columns"]) == 5
    assert seen["data_note"] == "component data reconstructed"


def test_conceal_changes_only_what_the_seat_cannot_see():
    state = new_game(4, seed=5)
    state = replace(state, hands=(("rage",), ("herd", "sprint"), (), ("nest",)),
                    deck=tuple(c for c in state.deck if c not in ("rage", "herd", "sprint",
                                                                  "nest")))
    rng = random.Random(1)
    changed = {"hands": False, "pile": False, "bag": False}
    for _ in range(30):
        twin = views.conceal(state, 0, rng)
        assert views.view(twin, 0) == views.view(state, 0)
        assert twin.hands[0] == state.hands[0] and twin.seed != state.seed
        assert [len(h) for h in twin.hands] == [len(h) for h in state.hands]
        assert len(twin.bag) == len(state.bag) and sorted(twin.bag + twin.boxed) != []
        full = (*twin.revealed, *twin.pile)
        assert full.index("meteorite") in (9, 10, 11)
        changed["hands"] |= twin.hands != state.hands
        changed["pile"] |= twin.pile != state.pile
        changed["bag"] |= twin.bag != state.bag
    assert all(changed.values())
