"""Evo's table page: every decision is answerable by clicks and every control sends a legal
move, the island's drawing, the two-click movement, the words a waiting seat reads, and the
end screen's ranking with its tie-break."""

from __future__ import annotations

import json
import random
import re
from dataclasses import replace
from html.parser import HTMLParser

import pytest

from app.config import Settings
from app.games.base import Move
from app.games.evo import GAME, data, phrases, rules
from app.games.evo import views as V
from app.games.evo.rules import MUTATION, State
from app.games.evo.table import (
    ISLANDS,
    STEP_ORDER,
    controls,
    outlook,
    regions,
    space_words,
    waiting_words,
    win_faces,
)
from app.games.words import Msg
from app.i18n import say
from app.rooms.table import Table
from app.web.render import make_environment, render_regions, table_context
from tests.unit.evo import new_game, play, position

ENV = make_environment(Settings(htmx_source="local"))
NAMES = ["Ana", "Bo", "Cy", "Di", "Ed"]


def words(message: Msg | None, reader: int | None = 0) -> str:
    """A Msg as the seat ``reader`` reads it in English."""
    assert message is not None
    return say(message, "en", NAMES, reader)


def room(state: State) -> Table:
    return Table(room_id=1, game_row_id=1, game=GAME, seed=1, players=state.players,
                 options=GAME.Options(), state=state, version=0,
                 seat_players={s: s + 1 for s in range(state.players)}, seat_bots={},
                 names=NAMES[: state.players])


def shown(state: State, seat: int | None) -> dict[str, str]:
    return render_regions(ENV, room(state), seat)


def page(state: State, seat: int | None) -> str:
    return ENV.get_template(GAME.template).render(**table_context(room(state), seat))


class Buttons(HTMLParser):
    """The moves a page's buttons send (each button carries its whole move)."""

    def __init__(self) -> None:
        super().__init__()
        self.moves: list[Move] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = {k: v or "" for k, v in attrs}
        if tag == "button" and "hx-vals" in a:
            self.moves.append(json.loads(json.loads(a["hx-vals"])["move"]))


def offered(state: State, seat: int | None) -> list[Move]:
    parser = Buttons()
    parser.feed(page(state, seat))
    return parser.moves


def key(move: Move) -> str:
    return json.dumps(move, sort_keys=True)


def expected(legal: list[Move]) -> set[str]:
    """The legal moves the page offers: where two kinds of step take the same dinosaur to the
    same space, the one first in STEP_ORDER (a walk rather than a swim, a swim rather than the
    flight of the phase)."""
    best: dict[tuple[str, str], Move] = {}
    kept = []
    for move in legal:
        if move["type"] in rules.STEPS:
            spot = (key(move["from"]), key(move["to"]))
            known = best.get(spot)
            if known is None or STEP_ORDER.index(move["type"]) < STEP_ORDER.index(known["type"]):
                best[spot] = move
        else:
            kept.append(move)
    return {key(m) for m in [*kept, *best.values()]}


@pytest.mark.parametrize(("players", "seed"), [(2, 1), (3, 2), (4, 3), (5, 4)])
def test_every_decision_is_answered_by_clicks_and_every_control_sends_a_legal_move(
        players: int, seed: int) -> None:
    """Whole random games: at every few steps each active seat's page offers every legal move
    (the table is played by clicks alone) and nothing else; a spectator's page and the pages
    of seats not asked offer no move at all."""
    state = new_game(players, seed)
    rng = random.Random(seed)
    phases: set[str] = set()
    steps = 0
    while state.phase != rules.OVER:
        active = sorted(rules.active_seats(state))
        seat = rng.choice(active)
        legal = rules.legal_moves(state, seat)
        if steps % 4 == 0 or state.phase not in (rules.MUTATION, rules.MOVEMENT):
            clicks = {key(m) for m in offered(state, seat)}
            want = expected(legal)
            assert clicks == want, (f"{state.phase}: not clickable {sorted(want - clicks)[:2]}; "
                                    f"not legal {sorted(clicks - want)[:2]}")
            phases.add(state.phase)
            idle = next((s for s in range(players) if s not in active), None)
            if idle is not None:
                assert offered(state, idle) == []
            assert offered(state, None) == []
        state = play(state, seat, rng.choice(legal))
        steps += 1
    assert {rules.MUTATION, rules.MOVEMENT, rules.BIRTH, rules.MOVE_WINDOW} <= phases


def test_the_regions_are_the_shared_ones_and_one_sheet_per_species() -> None:
    ids = [r.id for r in regions(3)]
    assert ids == ["prompt", "scores", "roll", "island", "hand", "climate", "lab", "track",
                   "sheet-0", "sheet-1", "sheet-2"]
    html = shown(new_game(3), 0)
    assert set(ids) <= set(html)


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_the_island_draws_every_space_and_the_coast_faces_the_sea(players: int) -> None:
    """Each space of the map once, in its terrain; one coastline edge per side of a space that
    has no neighbour on the map (the 5-player bay too)."""
    board = data.MAPS[players]
    isle = ISLANDS[players]
    assert {h.at for h in isle.spaces} == set(board.terrain)
    assert all(h.terrain == board.terrain[h.at] for h in isle.spaces)
    sea_sides = sum(1 for (q, r) in board.terrain for dq, dr in data.NEIGHBOUR_STEPS
                    if (q + dq, r + dr) not in board.terrain)
    assert isle.coast.count("M") == sea_sides
    assert all(0 < h.left < 100 and 0 < h.top < 100 for h in isle.spaces)
    html = shown(new_game(players), None)["island"]
    assert html.count("<polygon") == len(board.terrain)
    assert html.count('class="dino seat-') == 2 * players


def test_a_dinosaur_is_chosen_first_then_its_targets_light_up() -> None:
    """"Fase de movimiento": the mover's dinosaurs are radios; each target is a button shown
    by a style rule once its dinosaur is chosen; an attack names its odds."""
    state = position(2, board={(0, 0): 0, (1, 0): 1, (-2, 0): 0},
                     genes={0: ("horn",)})
    found = controls(V.view(state, 0), rules.legal_moves(state, 0), 0)
    origins = [i for items in found["spaces"].values() for i in items if i["kind"] == "origin"]
    assert {i["value"] for i in origins} == {"0,0", "-2,0"}
    attack = next(i for i in found["spaces"]["1,0"] if "step-attack" in i["cls"])
    faces = win_faces(1, 0)
    assert faces == 4  # +1 horn against none wins on -1, 0 and both +1
    assert words(space_words(V.view(state, 0), [1, 0])) == "the plains at D6"
    assert words(attack["label"]) == (f"Attack Bo's dinosaur on the plains at D6: wins on "
                                      f"{faces} of the die's 6 faces")
    assert any('input[name="evo-from-step"][value="0,0"]:checked' in rule
               for rule in found["rules"])
    html = shown(state, 0)["island"]
    assert (f'aria-label="Movement: choose your dinosaur on '
            f'{words(space_words(V.view(state, 0), [0, 0]))}"') in html
    assert "End your movement" in shown(state, 0)["prompt"]


def test_migration_is_a_card_to_choose_before_its_dinosaur() -> None:
    """Migration (move-turn): its dinosaurs show once its card is ticked in the hand."""
    state = position(2, board={(0, 0): 0, (3, -1): 1}, hands={0: ("migration",)})
    found = controls(V.view(state, 0), rules.legal_moves(state, 0), 0)
    assert found["tools"] == {"migration": True}
    assert any(i["cls"] == "org org-mig" for i in found["spaces"]["0,0"])
    assert all(":has(#evo-tool-migration:checked)" in r for r in found["rules"]
               if "evo-from-mig" in r)
    assert 'id="evo-tool-migration"' in shown(state, 0)["hand"]


def test_the_lab_offers_each_bid_as_a_button_of_its_column() -> None:
    state = new_game(2)
    seat = rules.bidder(state)
    assert seat is not None
    lab = shown(state, seat)["lab"]
    for column, value in rules.bid_options(state, seat):
        assert f'title="Bid {value} on column {column}"' in lab
    assert "hx-post" not in shown(state, 1 - seat)["lab"]


def test_a_sealed_window_tells_the_waiting_seat_nothing_of_the_choice() -> None:
    """"Cartas de evento": after Ana seals her card, Bo's page says only that she chose; Ana's
    page says what she chose."""
    state = position(2, phase=rules.MOVE_WINDOW, board={(0, 0): 0, (3, -1): 1},
                     hands={0: ("rage",), 1: ("herd",)})
    state = play(state, 0, {"type": "play_events", "cards": [{"card": "rage"}]})
    ana, bo = shown(state, 0), shown(state, 1)
    assert "Your choice is sealed: Battle Rage" in ana["prompt"]
    assert "Battle Rage" not in "".join(bo.values())
    assert "Play Herd Defence" in bo["prompt"] and "Play no card" in bo["prompt"]
    assert words(waiting_words(V.view(state, 0))) == "Waiting for Bo (choosing event cards)"


def test_the_outlook_counts_the_survivors_of_this_round() -> None:
    """"Fase de supervivencia": on hot ground one dinosaur per parasol survives."""
    state = position(2, board={(0, 0): 0, (1, 0): 0, (3, -1): 1}, genes={0: ("parasol",)})
    hot = next(t for t, c in rules.climates(state).items() if c == "hot")
    cells = [c for c, t in data.MAPS[2].terrain.items() if t == hot][:2]
    state = replace(state, board={cells[0]: 0, cells[1]: 0, (3, -1): 1})
    assert outlook(V.view(state, 0), 0) == [{"climate": "hot", "dinosaurs": 2, "survive": 1}]


def test_the_last_roll_is_its_own_region_so_it_animates_once() -> None:
    state = position(2, board={(0, 0): 0, (1, 0): 1})
    before = shown(state, 0)["roll"]
    assert "die" not in before
    state = play(state, 0, {"type": "attack", "from": [0, 0], "to": [1, 0]})
    roll = shown(state, 1)["roll"]
    assert 'class="die' in roll
    assert f"Ana attacked {words(space_words(V.view(state, 0), [1, 0]))}" in roll


def test_the_end_ranks_by_mp_and_breaks_ties_on_dinosaurs() -> None:
    """"Objeto del juego": Ana and Bo have 9 MP; Bo has more dinosaurs and wins on it."""
    state = position(2, board={(0, 0): 0, (1, 0): 1, (3, -1): 1}, mp=(9, 9))
    state = replace(state, phase=rules.OVER)
    result = rules.result(state)
    assert result is not None
    assert result.winners == (1,)
    assert isinstance(result.headline, Msg)
    assert result.headline.english() == ("{p1} won on the tie-break: 9 MP like {p0}, and more "
                                         "dinosaurs on the island (2 to 1)")
    assert [s.english() for s in result.shown if isinstance(s, Msg)] == [
        "9 MP, 1 dinosaur", "9 MP, 2 dinosaurs"]
    scores = shown(state, 0)["scores"]
    rows = re.findall(r"<tr class=\"seat-(\d)\"><td>(\d)</td>", scores)
    assert rows == [("1", "1"), ("0", "2")]
    assert "Dinosaurs <span class=\"muted\">(tie-break)</span>" in scores


def test_shared_win_headline() -> None:
    state = position(3, board={(0, 0): 0, (1, 0): 1}, mp=(4, 4, 1))
    state = replace(state, phase=rules.OVER)
    result = rules.result(state)
    assert result is not None and result.winners == (0, 1)
    assert isinstance(result.headline, Msg)
    assert result.headline.english() == ("{p0} and {p1} shared the win with 4 MP and 1 "
                                         "dinosaur each")


# --- issue 24: births, positions, MP, the rules panel, the end ------------------------------


def test_fase_de_nacimiento_the_prompt_moves_on_to_the_end_of_the_turn() -> None:
    """Once its newborns are placed, a seat holding a card is asked to end its birth turn
    (the table waits for a card holder, "Cartas de evento"): never "0 newborns to place"."""
    state = position(2, rules.BIRTH, board={(-3, -1): 0, (2, -1): 1}, hands={0: ("rage",)})
    before = shown(state, 0)["prompt"]
    assert "Your birth turn: 1 newborn to place" in before
    assert "You place them all in this turn." in before and "Place no more newborns" in before
    state = play(state, 0, {"type": "place", "at": [-2, -1]})
    assert rules.active_seats(state) == {0}
    prompt = shown(state, 0)["prompt"]
    assert "0 newborns" not in prompt and "newborn to place" not in prompt
    assert "Your birth turn: all your newborns are placed" in prompt
    assert "End your birth turn" in prompt and "Place no more newborns" not in prompt
    assert offered(state, 0) == [{"type": "done"}]
    assert rules.seat_status(state, 0).doing == "ending the birth turn"
    # Without a card the turn ends by itself once the last newborn is placed.
    bare = position(2, rules.BIRTH, board={(-3, -1): 0, (2, -1): 1})
    assert rules.active_seats(play(bare, 0, {"type": "place", "at": [-2, -1]})) == {1}


def test_fase_de_nacimiento_without_a_dinosaur_the_words_say_any_empty_space() -> None:
    """A player with no dinosaur places its first newborn on any empty space (spec, "No
    parent"): the prompt says so, not "near a parent", and the outlook does not call its
    dinosaurs safe."""
    state = position(2, rules.BIRTH, board={(2, -1): 1}, genes={0: ("egg",)})
    regions = shown(state, 0)
    assert "You have no dinosaur on the island: your first newborn is born on any empty "\
        "space" in regions["prompt"]
    assert "near a parent" not in regions["prompt"]
    assert "You: no dinosaur on the island" in regions["climate"]
    assert "You: every dinosaur safe" not in regions["climate"]
    state = play(state, 0, {"type": "place", "at": [-3, -1]})
    prompt = shown(state, 0)["prompt"]
    assert "next to one of your newborns" in prompt and "near a parent" not in prompt
    assert "You: every dinosaur safe" in shown(state, 0)["climate"]  # plains: temperate


@pytest.mark.parametrize("players", sorted(ISLANDS))
def test_spaces_are_named_by_the_labels_the_map_draws(players: int) -> None:
    """Log lines, tooltips and the die panel name a space by the label drawn on it ("C4": row
    from the top, place from the left); the legend explains it and the starting circles."""
    labels = phrases.space_labels(players)
    assert len(set(labels.values())) == len(labels) == len(data.MAPS[players].terrain)
    for (q, r), label in labels.items():
        row = sorted({rr for _, rr in labels}).index(r)
        left = sorted(qq for qq, rr in labels if rr == r).index(q) + 1
        assert label == f"{'ABCDEFGHIJ'[row]}{left}"
    state = new_game(players)
    island = shown(state, None)["island"]
    drawn = re.findall(r'<text class="lbl"[^>]*>(\w+)</text>', island)
    assert sorted(drawn) == sorted(labels.values())
    assert "A starting space" in island and 'class="ic startkey"' in island
    cell = next(iter(labels))
    assert words(space_words(V.view(state, 0), [*cell])).endswith(f" at {labels[cell]}")


def test_no_words_name_a_space_by_its_coordinates() -> None:
    state = position(2, board={(0, 0): 0, (1, 0): 1})
    state = play(state, 0, {"type": "attack", "from": [0, 0], "to": [1, 0]})
    html = "".join(shown(state, 1).values())
    assert re.search(r"\(-?\d+, -?\d+\)", html) is None
    assert "attacked the plains at D6" in html


def test_objeto_del_juego_no_region_shows_another_seats_mp() -> None:
    """MP totals are secret until the end: what is pushed to a seat shows its own total
    only; a spectator sees none; once the game is over, every total."""
    mp = (37, 41, 43)
    state = position(3, MUTATION, lab=("horn", "fur"), mp=mp,
                     board={(3, -2): 0, (-2, 4): 1, (-2, -2): 2})

    def totals(html: str) -> set[int]:
        return {int(n) for n in re.findall(r"(\d+)(?:</b>)? MP\b", html)}

    for seat in (0, 1, 2):
        html = "".join(shown(state, seat).values())
        assert totals(html) == {mp[seat]}, seat
        assert "MP: secret until the end" in html
    assert totals("".join(shown(state, None).values())) == set()
    over = replace(state, phase=rules.OVER)
    assert set(mp) <= totals("".join(shown(over, 1).values()))


def test_objeto_del_juego_no_log_line_tells_a_total() -> None:
    """The log tells what changes MP (bids paid, MP scored), never a seat's total."""
    rng = random.Random(5)
    state = new_game(3, seed=9)
    while not state.over:
        seat = min(rules.active_seats(state))
        move = rng.choice(rules.legal_moves(state, seat))
        after = play(state, seat, move)
        for line in V.events(state, seat, move, after):
            if line.key != "evo.game_over":
                assert "mp" not in line.params and "scores" not in line.params, line.key
        state = after


def test_como_se_juega_round_1_opens_at_mutation_with_its_climate_drawn() -> None:
    """The rules panel says what the table does: every round begins with its climate phase,
    which plays itself, so round 1 opens at its mutation phase with one token revealed."""
    state = new_game(2)
    assert state.phase == MUTATION and state.round == 1 and len(state.revealed) == 1
    text = next(r.text for r in GAME.rules if r.id == rules.RULE_TURN)
    assert "climate phase plays itself" in text and "round 1's mutation phase" in text
    assert "Mutation phase" in shown(state, 0)["prompt"]


def test_fase_climatica_the_end_screen_no_longer_foretells_the_meteorite() -> None:
    """Once the meteorite has fallen the climate panel says so — not where it lies, nor
    (to the sixth-sense holder) the next token."""
    state = position(2, board={(0, 0): 0, (1, 0): 1}, genes={0: ("sixth_sense",)})
    climate = shown(state, 0)["climate"]
    assert "The meteorite lies among the last 3" in climate and "Sixth sense" in climate
    over = replace(state, phase=rules.OVER, round=10)
    for seat in (0, 1, None):
        climate = shown(over, seat)["climate"]
        assert "The meteorite fell at the start of round 10: the game is over." in climate
        assert "lies among" not in climate and "Sixth sense" not in climate
        assert "Climate tokens left" not in climate


def test_rules_version_2_changed_births_and_mp() -> None:
    assert GAME.rules_version == 2
    (change,) = GAME.rule_changes
    assert change.version == 2 and set(change.rules) == {rules.RULE_BIRTH, rules.RULE_GOAL}
    assert set(change.rules) <= GAME.rule_ids
