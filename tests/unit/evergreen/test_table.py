"""The table speaks like the rulebook (issue 17): statuses, the guide of the seat's own table
(what each tool may click, why a step has no space to work on and what is possible instead),
the refusals in the game's words, and the template's space buttons (a lit space that fits
another tool sends that tool's move)."""

from __future__ import annotations

import html as html_lib
import json
import re
from dataclasses import replace

from app.config import Settings
from app.games.evergreen import GAME, rules
from app.games.evergreen.views import card_label, guide, status, view, words
from app.rooms.table import Table
from app.web.render import make_environment, render_regions
from app.web.words import raw_fragment

from .helpers import act_state, cell_move, play, refused

POWER = {"type": "power"}
DONE = {"type": "done"}
ENV = make_environment(Settings(htmx_source="local"))


def english(value: object) -> str:
    """A view's or a function's words in English (messages are shown in each reader's
    language)."""
    return words(value).english() if isinstance(value, dict) else value.english()  # type: ignore[union-attr]


def notes(state: rules.State, seat: int = 0) -> list[str]:
    seen = guide(state, seat)
    assert seen is not None
    return [english(note) for note in seen["notes"]]


def planet_html(state: rules.State, seat: int = 0) -> str:
    table = Table(room_id=7, game_row_id=1, game=GAME, seed=1, players=state.players,
                  options=GAME.Options(), state=state, version=3,
                  seat_players={s: s + 1 for s in range(state.players)}, seat_bots={},
                  names=["Ana", "Bo", "Cy", "Di"][: state.players])
    return render_regions(ENV, table, seat)[f"planet-{seat}"]


def spaces(html: str) -> dict[tuple[int, int], list[tuple[str, dict]]]:
    """Each lit space of a rendered planet: its buttons' classes and moves, in page order."""
    found: dict[tuple[int, int], list[tuple[str, dict]]] = {}
    for cls, vals in re.findall(r'<button type="button" class="(cellbtn[^"]*)"[^>]*?'
                                r"hx-vals='([^']*)'", html, re.S):
        move = json.loads(json.loads(html_lib.unescape(vals))["move"])
        found.setdefault(tuple(move["cell"]), []).append((cls, move))
    return found


def test_cards_are_named_by_biome_power_and_top_icon():
    assert english(card_label(21)) == "Flowers (grow a large tree, aridity)"
    assert english(card_label(7)) == "Swamp (plant a sprout, 2 fertility)"
    assert english(card_label(42)) == "Wild (bloom)"


def test_pow_5_a_lake_with_nothing_beside_it_says_why_and_what_is_possible():
    state = play(act_state(41, {}, players=2), 0, POWER, cell_move("lake", (0, 4)))
    assert english(status(state, 0)) == "lake: nothing beside it can grow"
    seen = guide(state, 0)
    assert seen is not None
    assert "grow-lake" not in [tool["id"] for tool in seen["tools"]]
    assert any(note.startswith("Nothing beside your lake can grow") for note in notes(state))
    assert notes(state)[-1] == ("You can plant a sprout with your action, undo your last step "
                                 "or press Done.")


def test_pow_5_a_lake_with_a_sprout_beside_it_chooses_its_grows():
    state = play(act_state(41, {(0, 3): "sprout"}, players=2), 0, POWER,
                 cell_move("lake", (0, 4)))
    seen = guide(state, 0)
    assert seen is not None and seen["chosen"] == "grow-lake"
    lake = next(tool for tool in seen["tools"] if tool["id"] == "grow-lake")
    assert lake["cells"] == [[0, 3]] and lake["move"] == {"type": "grow", "by": "lake"}
    assert english(lake["label"]) == "Lake: grow a tree beside it"


def test_pow_3_a_power_with_nothing_to_work_on_says_so():
    state = act_state(3, {}, players=2)  # Snow, grow a large tree; no small tree
    seen = guide(state, 0)
    assert seen is not None and POWER not in rules.legal_moves(state, 0)
    assert ("Your power (grow a large tree) cannot be used this round: no small tree is left "
            "to grow into a large tree.") in notes(state)
    assert notes(state)[-1] == "You can plant a sprout with your action or press Done."
    refusal = refused(state, 0, POWER, "POW-3")
    assert refusal.reason == ("your power (grow a large tree) cannot be used now: no small tree "
                              "is left to grow into a large tree")


def test_pow_3_power_uses_left_without_a_target_say_why():
    planet = {cell: "sprout" for cell in rules.PLAYABLE if cell != (0, 4)}
    state = play(act_state(7, planet, players=2), 0, POWER, cell_move("plant", (0, 4), "power"))
    assert english(status(state, 0)) == "power: no empty space is left for a sprout"
    seen = guide(state, 0)
    assert seen is not None
    assert "Your power has 1 more use, but no empty space is left for a sprout." in notes(state)


def test_the_guide_starts_with_what_the_card_allows_and_keeps_the_last_tool():
    state = act_state(7, {}, players=2)  # Swamp, plant a sprout
    seen = guide(state, 0)
    assert seen is not None and seen["chosen"] == "plant-action"
    assert notes(state) == ["Your action goes in Swamp (or a single sprout or grow anywhere). "
                             "Your power (plant a sprout, up to 2 times) works anywhere, before "
                             "or after the action."]
    assert english(seen["power_now"]) == "plant a sprout, up to 2 times"
    state = play(state, 0, POWER, cell_move("plant", (0, 4), "power"))
    seen = guide(state, 0)
    assert seen is not None and seen["chosen"] == "plant-power"
    assert [english(tool["label"]) for tool in seen["tools"]] == [
        "Action: plant a sprout", "Action: grow a tree", "Power: plant a sprout"]
    assert guide(play(state, 0, DONE), 0) is None
    assert view(state, 1)["guide"] is not None and view(state, None)["guide"] is None


def test_statuses_say_what_is_left_in_words():
    state = act_state(29, {}, players=2)  # Wheat, place a lake
    assert english(status(state, 0)) == "playing the action and the power"
    state = play(state, 0, *(cell_move("plant", cell, "action") for cell in
                             ((7, 4), (7, 6), (8, 4))))
    assert english(status(state, 0)) == "action done"
    state = play(state, 0, POWER)
    assert english(status(state, 0)) == "action done; power: up to 1 more lake to place"
    state = play(state, 0, cell_move("lake", (7, 5)))
    assert english(status(state, 0)) == "action done; lake: up to 2 trees to grow beside it"
    assert english(status(play(state, 0, DONE), 0)) == "done"
    for text in (english(status(state, 0)), *notes(state)):
        assert raw_fragment(text) is None


def test_refusals_name_things_as_the_rulebook_does():
    state = act_state(7, {(2, 7): "sprout"}, players=2)
    assert refused(state, 0, cell_move("plant", (2, 7), "action"), "EFF-1").reason == (
        "that space already holds a sprout")
    assert refused(state, 0, cell_move("grow", (2, 8), "action"), "EFF-2").reason == (
        "only a sprout or a small tree can grow; that space is empty")
    assert refused(state, 0, cell_move("bush", (2, 8)), "POW-4").reason == (
        "your power this round is plant a sprout, not plant a bush")
    assert refused(state, 0, cell_move("plant", (9, 9), "action"), "EFF-3").reason == (
        "that space is not on the planet")
    for field, ask in GAME.asks.items():
        assert raw_fragment(ask) is None, field


def test_a_space_that_fits_two_tools_has_a_button_for_each_power_first():
    state = play(act_state(7, {}, players=2), 0, POWER, cell_move("plant", (0, 4), "power"))
    html = planet_html(state)
    lit = spaces(html)
    assert lit[(0, 2)] == [
        ("cellbtn tool-plant-power", {"type": "plant", "by": "power", "cell": [0, 2]}),
        ("cellbtn tool-plant-action alt", {"type": "plant", "by": "action", "cell": [0, 2]}),
    ]
    assert lit[(0, 4)] == [  # the sprout the power planted: the action may grow it
        ("cellbtn tool-grow-action", {"type": "grow", "by": "action", "cell": [0, 4]})]
    assert 'data-tool="plant-power" checked' in html


def test_a_space_that_fits_one_tool_sends_that_tool_whatever_is_chosen():
    state = act_state(7, {(2, 7): "sprout"}, players=2)
    html = planet_html(state)
    assert 'data-tool="plant-action" checked' in html  # the chosen tool does not fit (2, 7)
    assert spaces(html)[(2, 7)] == [
        ("cellbtn tool-grow-action", {"type": "grow", "by": "action", "cell": [2, 7]})]


def test_only_your_own_planet_has_controls():
    state = act_state(7, {}, players=2)
    table = Table(room_id=7, game_row_id=1, game=GAME, seed=1, players=2,
                  options=GAME.Options(), state=state, version=3,
                  seat_players={0: 1, 1: 2}, seat_bots={}, names=["Ana", "Bo"])
    seen_by_bo = render_regions(ENV, table, 1)["planet-0"]
    assert not spaces(seen_by_bo) and "ev-tool" not in seen_by_bo
    assert "Ana’s planet" in seen_by_bo
    seen_by_ana = render_regions(ENV, table, 0)["planet-0"]
    assert spaces(seen_by_ana) and "Your planet" in seen_by_ana


def test_sel_2_an_empty_deck_looks_empty():
    state = replace(act_state(7, {}, players=2), deck=())
    table = Table(room_id=7, game_row_id=1, game=GAME, seed=1, players=2,
                  options=GAME.Options(), state=state, version=3,
                  seat_players={0: 1, 1: 2}, seat_bots={}, names=["Ana", "Bo"])
    row = render_regions(ENV, table, 0)["row"]
    assert 'class="pile deck empty"' in row
    assert "The deck is empty: the discard pile is shuffled into it when a card is needed" in row


def test_the_words_are_the_rulebooks_in_spanish_and_german():
    """Cards, statuses and refusals read in each rulebook's own words (ES «Brote», «Bioma»,
    «Fertilidad»; DE «Spross», «Biom», «Fruchtbarkeit»)."""
    from app.i18n import say

    assert say(card_label(7), "es") == "Pantano (Plantar Brote, Fertilidad 2)"
    assert say(card_label(7), "de") == "Sumpf (Spross pflanzen, Fruchtbarkeit 2)"
    assert say(card_label(42), "de") == "Freies Biom (Knospen zählen)"
    assert say(card_label(21), "es") == "Flores (Cultivar Árbol grande, Aridez)"
    state = act_state(7, {(2, 7): "sprout"}, players=2)
    refusal = refused(state, 0, cell_move("plant", (2, 7), "action"), "EFF-1")
    assert say(refusal.msg, "es") == "esa casilla ya tiene un Brote"
    assert say(refusal.msg, "de") == "auf diesem Feld steht schon ein Spross"


def test_the_seat_bar_status_is_a_message_id_and_every_cited_rule_has_a_panel_entry():
    state = play(act_state(7, {}, players=2), 0, POWER)
    assert GAME.seat_status(state, 0).doing == "planting and growing"
    assert english(status(state, 0)) == "power: up to 2 more sprouts to plant"
    assert GAME.seat_status(play(state, 0, cell_move("plant", (0, 4), "power"), DONE), 0) \
        .finished == "TIM-3"
    assert [rule.id for rule in GAME.rules][:2] == ["MOV-1", "SEL-3"]
    assert {"MOV-1", "MOV-3", "MOV-4", "SEL-3", "EFF-1", "EFF-2", "EFF-3", "TIM-2", "TIM-3",
            *(f"ACT-{i}" for i in range(1, 7)), *(f"POW-{i}" for i in range(1, 6))} \
        == GAME.rule_ids
