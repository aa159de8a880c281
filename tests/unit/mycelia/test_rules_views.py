"""Views, prompt texts, statuses, log lines and the hidden information (R8)."""

from __future__ import annotations

import dataclasses
import json
import random
from dataclasses import replace

import pytest

from app.games.base import IllegalMove
from app.games.mycelia import GAME, rules, views
from app.games.mycelia.table import doing_words
from app.rooms.table import fill_names
from app.web.words import raw_fragment
from tests.leakcheck import check_playout

from .helpers import (
    END,
    SKIP,
    field,
    new_game,
    play,
    play_card,
    player,
    table,
    with_player,
)

NAMES = ["Ana", "Bo", "Cy", "Di"]


def lines(before, seat, move, after, reader):
    return [fill_names(event.text, NAMES, reader)
            for event in views.events(before, seat, move, after) if event.visible_to(reader)]


def test_view_shape_for_the_table():
    state = new_game(2, 4, expansion=True)
    shown = views.view(state, 0)
    json.dumps(shown)
    assert shown["game"] == "mycelia" and shown["you"] == 0 and shown["phase"] == "main"
    assert shown["sanctuary"] == {"count": 0, "capacity": 10, "full": False}
    seat = shown["seats"][0]
    assert len(seat["rows"]) == 4 and all(len(row) == 5 for row in seat["rows"])
    assert seat["rows"][1][2] == {"cell": [1, 2], "type": "sanctuary", "type_name": "sanctuary",
                                  "drops": 0, "extra": False}
    assert [tile["letter"] for tile in seat["tiles"]] == ["a", "b"]
    assert seat["tiles"][0]["used"] is False
    assert {card["card"] for card in seat["hand"]} == set(state.seats[0].hand)
    market = shown["market"][0]
    assert {"card", "name", "cost", "text", "once_text"} <= set(market)
    assert shown["new_dew"]["side"] == state.new_dew and len(shown["new_dew"]["faces"]) == 6
    assert shown["supply"]["sanctuary_fields"] == 2
    assert shown["pending"] is None and shown["gwidyon"] is None and shown["result"] is None
    solo = views.view(new_game(1), 0)["gwidyon"]
    assert solo == {"drops": 20, "token": "remove", "deck_count": 6, "revealed": [],
                    "last": None}


def test_prompt_texts_in_plain_words():
    some = ("1 0 0 0 0", "0 0 0 0 0", "0 0 0 0 0", "0 0 0 0 1")
    state = table(3, boards={0: some, 1: some, 2: some}, hands={0: ("amanita_muscaria",)})
    state = play_card(state, 0, player(state).hand[0])
    shown = views.view(state, 2)["pending"]
    assert shown["prompt_text"] == ("Amanita muscaria: choose any field with at least 1 drop "
                                    "to remove 1 drop there — 1 of 2")
    assert shown["source"] == {"card": state.pending.card, "fn": "play", "part": 0,
                               "rep": [1, 2]}
    # after the removals only the bonus is left: a skip forgoes as much as "skip the rest"
    assert shown["options"] == [[0, 0], [3, 4]] and shown["can_skip_rest"] is False
    assert shown["skips"] == {"kind": "choose_field", "n": 2, "left": "bonus"}
    state = play(state, 0, field((0, 0)), SKIP)
    bonus = views.view(state, 1)["pending"]
    assert bonus["prompt_text"] == ("Amanita muscaria, a bonus for you: choose any field with "
                                    "at least 1 drop to remove 1 drop there")
    assert bonus["bonus"] is True and bonus["can_skip_rest"] is False and bonus["owner"] == 0
    lactarius = table(2, hands={0: ("lactarius_deliciosus",)})
    lactarius = play_card(lactarius, 0, player(lactarius).hand[0])
    shown = views.view(lactarius, 0)["pending"]
    assert shown["option_texts"] == [
        "gain 3 leaves", "move 1 drop from any field with at least 1 drop to a neighbouring field"]
    assert raw_fragment(shown["prompt_text"]) is None


def test_statuses_say_what_each_seat_does():
    """A status is a fixed message id (shown in each reader's language); the board says which
    card and how many in hand (table.doing_words)."""
    state = table(2, boards={0: ("1 0 0 0 0",) + ("0 0 0 0 0",) * 3},
                  hands={0: ("coprinus_comatus", "st_leaf", "st_leaf")})
    assert rules.seat_status(state, 0).doing == "playing cards"
    assert doing_words(views.view(state, 1), 0).english() == "playing cards, 3 in hand"
    assert rules.seat_status(state, 1).doing == "waiting"
    asked = play_card(state, 0, player(state).hand[0])
    assert rules.seat_status(asked, 0).doing == "resolving a card"
    assert doing_words(views.view(asked, 1), 0).english() == "resolving Coprinus comatus"
    done = with_player(state, 0, hand=())
    assert rules.seat_status(done, 0).doing == "recruiting or ending the turn"


def test_log_lines_one_per_happening_and_you_for_your_own():
    state = table(2, hands={0: ("st_gift",)})
    after = play_card(state, 0, player(state).hand[0])
    move = {"type": "play", "card": player(state).hand[0]}
    assert lines(state, 0, move, after, 0) == [
        "You played Gift of leaves.", "You gained 2 leaves with Gift of leaves.",
        "Bo gained 1 leaf from the bonus of Gift of leaves."]
    assert lines(state, 0, move, after, 1)[2] == "You gained 1 leaf from the bonus of Gift of " \
                                                 "leaves."
    ended = rules.apply(after, 0, END)
    mine = lines(after, 0, END, ended, 0)
    theirs = lines(after, 0, END, ended, 1)
    drawn = [views.card_name(card) for card in player(ended).hand]
    assert mine[0] == "You ended the turn." and theirs[0] == "Ana ended the turn."
    assert f"You drew {drawn[0]}, {drawn[1]} and {drawn[2]}." in mine
    assert "Ana drew 3 cards." in theirs and not any("drew 3" in line for line in mine)
    assert not any(name in line for line in theirs if "drew" in line for name in drawn)


def test_move_and_rotation_lines_name_fields_for_people():
    board = ("0 0 1 0 0", "0 0 0 0 0", "0 0 0 0 0", "0 0 0 0 1")
    state = table(2, boards={0: board}, hands={0: ("st_drift",)})
    asked = play(state, 0, {"type": "play", "card": player(state).hand[0]}, field((0, 2)))
    move = {"type": "move_drop", "from": [0, 2], "to": [1, 2]}
    after = rules.apply(asked, 0, move)
    assert lines(asked, 0, move, after, 1) == [
        "Ana moved a drop from the leaf litter field in row 1, column 3 onto the sanctuary "
        "field in row 2, column 3: it went to the Sanctuary of Life."]
    full = replace(table(2, hands={0: ()}), sanctuary=10)
    turned = rules.apply(full, 0, END)
    text = lines(full, 0, END, turned, None)
    assert any(line.startswith("The Sanctuary of Life turned: the die showed the ")
               for line in text)
    assert any(line.startswith("The new-dew table was turned over to side ") for line in text)


def test_conceal_hides_what_a_seat_cannot_see_and_nothing_else():
    state = with_player(new_game(3, 2), 0, leaves=20)
    state = rules.apply(state, 0, {"type": "buy", "card": state.market[0]})
    rng = random.Random(1)
    twins = [views.conceal(state, 0, rng) for _ in range(20)]
    assert all(views.view(twin, 0) == views.view(state, 0) for twin in twins)
    assert all(twin.seats[0].hand == state.seats[0].hand for twin in twins)
    assert all(twin.seats[0].draw[0] == state.seats[0].draw[0] for twin in twins), "known"
    assert any(twin.seats[1].hand != state.seats[1].hand for twin in twins)
    assert any(twin.market_deck != state.market_deck for twin in twins)
    assert all(twin.seed != state.seed for twin in twins)
    spectator = views.conceal(state, None, rng)
    assert views.view(spectator, None) == views.view(state, None)
    solo = new_game(1, 3)
    assert any(views.conceal(solo, 0, rng).gwidyon != solo.gwidyon for _ in range(10))


@pytest.mark.parametrize("players", [1, 2, 3, 4])
def test_no_seat_learns_what_it_may_not_see(players):
    moves = check_playout(GAME, players, seed=players * 5 + 1, max_steps=20000, sample=0.05)
    assert moves > 0


@pytest.mark.parametrize("players", [1, 2, 3, 4])
def test_every_string_a_person_reads_is_plain_words(players):
    rng = random.Random(players)
    state = new_game(players, players, expansion=True, advanced_boards=players % 2 == 0)
    steps = 0
    while state.phase != rules.OVER and steps < 1500:
        seat = rng.choice(sorted(rules.active_seats(state)))
        move = rng.choice(rules.legal_moves(state, seat))
        after = rules.apply(state, seat, move)
        steps += 1
        for s in range(players):
            assert raw_fragment(rules.seat_status(after, s).doing) is None
        for reader in (*range(players), None):
            for line in lines(state, seat, move, after, reader):
                assert raw_fragment(line) is None, line
        pending = views.view(after, seat)["pending"]
        if pending is not None:
            assert raw_fragment(pending["prompt_text"]) is None, pending["prompt_text"]
            assert all(raw_fragment(text) is None for text in pending["option_texts"])
        probes = [m for other in rules.active_seats(after) if other != seat
                  for m in rules.legal_moves(after, other)[:2]] + [move]
        for probe in probes:
            for s in sorted(rules.active_seats(after)) or [seat]:
                try:
                    rules.apply(after, s, probe)
                except IllegalMove as exc:
                    text = fill_names(exc.reason, NAMES, s)
                    assert raw_fragment(text) is None, (text, exc.rule)
        state = after
    shown = views.view(state, 0)
    for card in shown["market"]:
        assert raw_fragment(card["text"]) is None and raw_fragment(card["name"]) is None


class _EverythingOn(rules.Options):
    """The table settings with the expansion and the advanced boards."""

    expansion: bool = True
    advanced_boards: bool = True


@pytest.mark.parametrize("players", [1, 2, 3, 4])
def test_no_seat_learns_what_it_may_not_see_with_the_expansion_and_advanced_boards(players):
    """One-time effects, trashed cards, taken tiles and extra sanctuary fields hide nothing
    they should not (R8)."""
    game = dataclasses.replace(GAME, Options=_EverythingOn)
    moves = check_playout(game, players, seed=players * 7 + 3, max_steps=20000, sample=0.05)
    assert 0 < moves < 20000


def test_R13_a_card_without_a_fitting_field_says_so_in_the_log():
    """R13, item 9: Drift (leaf1:m) with no drop on a leaf litter field lapses; the log says
    so instead of only "Bo played Drift."."""
    dry = ("0 0 0 0 0", "0 0 0 0 0", "0 0 0 0 0", "0 0 0 0 1")   # the drop is on earth
    state = table(2, boards={0: dry}, hands={0: ("st_drift",)})
    card = player(state).hand[0]
    after = rules.apply(state, 0, {"type": "play", "card": card})
    lines = [e.text for e in views.events(state, 0, {}, after)]
    assert lines == ["{p0} played Drift.",
                     "Drift had nothing to act on: it needs a leaf litter field with at least "
                     "1 drop, and {p0's} board had none."]


@pytest.mark.parametrize(("players", "options"), [(2, {"expansion": True}), (1, {}),
                                                  (3, {"expansion": True})])
def test_R10_every_move_says_what_happened_to_everyone(players, options):
    """Item 9: every move of a whole random game has a public log line (a replay's caption
    is never a bare "Ana moved."), skips and cards without effect included."""
    state = rules.setup(players, rules.Options(**options), 5)
    rng = random.Random(5)
    keys: set[str] = set()
    while state.phase != rules.OVER:
        (seat,) = rules.active_seats(state)
        move = rng.choice(rules.legal_moves(state, seat))
        after = rules.apply(state, seat, move)
        public = [e for e in views.events(state, seat, move, after) if e.seats is None]
        assert public, f"{move} logs nothing for the table"
        keys.update(e.key for e in public)
        state = after
    assert "mycelia.skipped" in keys
