"""Mycelia's table page: every prompt is answerable by clicks and every control sends a legal
move, waiting seats read who decides what, the boards, cards and the final scoring as each
seat sees them, and the regions that change with a move."""

from __future__ import annotations

import dataclasses
import json
import random
import re
from html.parser import HTMLParser
from typing import Any

import pytest

from app.config import Settings
from app.games.base import Move
from app.games.mycelia import GAME
from app.games.mycelia import rules as R
from app.games.mycelia import views as V
from app.games.mycelia.data import CARDS
from app.games.mycelia.rules import State
from app.games.mycelia.table import PICTURES, controls, regions, waiting_words
from app.i18n import say
from app.rooms.table import Table
from app.web.render import make_environment, render_regions, table_context
from app.web.words import raw_fragment
from tests.unit.mycelia.helpers import SKIP, field, table, with_player

ENV = make_environment(Settings(htmx_source="local"))
NAMES = ["Ana", "Bo", "Cy", "Di"]


def room(state: State) -> Table:
    return Table(room_id=1, game_row_id=1, game=GAME, seed=1, players=state.players,
                 options=GAME.Options(), state=state, version=0,
                 seat_players={s: s + 1 for s in range(state.players)}, seat_bots={},
                 names=NAMES[: state.players])


def shown(state: State, seat: int | None) -> dict[str, str]:
    return render_regions(ENV, room(state), seat)


def page(state: State, seat: int | None) -> str:
    return ENV.get_template(GAME.template).render(**table_context(room(state), seat))


class Controls(HTMLParser):
    """The moves a page's controls send: buttons with their own move, and the submit buttons
    and radios of forms (a form's hidden move plus the fields its controls add)."""

    def __init__(self) -> None:
        super().__init__()
        self.direct: list[Move] = []
        self.forms: dict[str, Move] = {}
        self.fields: list[tuple[str, str, Any, str]] = []   # form, name, value, kind
        self.form: str | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = {k: v or "" for k, v in attrs}
        if tag == "form":
            self.form = a["id"]
        elif tag == "input" and a.get("type") == "hidden" and a.get("name") == "move":
            assert self.form is not None, "a move field outside a form"
            self.forms[self.form] = json.loads(a["value"])
        elif tag == "button" and "hx-vals" in a:
            self.direct.append(json.loads(json.loads(a["hx-vals"])["move"]))
        elif tag == "button" and a.get("type") == "submit":
            owner = a.get("form") or self.form
            assert owner, "a submit button without a form"
            self.fields.append((owner, a["name"], json.loads(a["value"]), "submit"))
        elif tag == "input" and a.get("form") and a.get("type") == "radio":
            self.fields.append((a["form"], a["name"], json.loads(a["value"]), "pick"))

    def handle_endtag(self, tag: str) -> None:
        if tag == "form":
            self.form = None

    def moves(self) -> list[Move]:
        """Every move a click can send: a direct button's, a submit button's with its form,
        and tile c's second drop with each first destination its form offers."""
        sent = list(self.direct)
        for form, name, value, kind in self.fields:
            if kind != "submit":
                continue
            base = self.forms[form]
            if name == "to2":
                sent += [{**base, "to": to, "to2": value} for f, n, to, k in self.fields
                         if f == form and k == "pick"]
            else:
                sent.append({**base, name: value})
        return sent


def offered(state: State, seat: int) -> list[Move]:
    parser = Controls()
    parser.feed(page(state, seat))
    return parser.moves()


def key(move: Move) -> str:
    """A move as the page offers it: the copies of one card in a discard pile are one card to
    remove (X2, tile e), so the page offers one of them."""
    if move["type"] in ("trash", "tile") and "card" in move:
        move = {**move, "card": move["card"].partition("#")[0]}
    return json.dumps(move, sort_keys=True)


def assert_clickable(state: State, seat: int) -> None:
    """The seat's page offers exactly its legal moves."""
    legal = {key(m) for m in R.legal_moves(state, seat)}
    clicks = {key(m) for m in offered(state, seat)}
    assert clicks == legal, (f"not clickable: {sorted(legal - clicks)[:3]}; "
                             f"not legal: {sorted(clicks - legal)[:3]}")


@pytest.mark.parametrize(("players", "seed", "options"), [
    (3, 7, {"expansion": True}),  # tile d, a fifth tile to return, an extra sanctuary field
    (2, 1, {"expansion": True}), (1, 2, {"expansion": True}), (3, 3, {}),
    (4, 4, {"expansion": True, "advanced_boards": True})])
def test_every_prompt_is_answered_by_clicks_and_every_control_sends_a_legal_move(
        players: int, seed: int, options: dict[str, bool]) -> None:
    """Whole random games: at every prompt, and every sixth step besides, the active seat's
    page offers every legal move (the table is played by clicks alone) and offers nothing
    else; the other seats' pages offer no move at all."""
    state = R.setup(players, R.Options(**options), seed)
    rng = random.Random(seed)
    kinds: set[str] = set()
    steps = 0
    while state.phase != R.OVER:
        (seat,) = R.active_seats(state)
        legal = R.legal_moves(state, seat)
        if steps % 6 == 0 or state.pending is not None:
            assert_clickable(state, seat)
            kinds.add(state.pending.kind if state.pending is not None else "main")
            other = next((s for s in range(players) if s != seat), None)
            if other is not None:
                assert offered(state, other) == []
        state = R.apply(state, seat, rng.choice(legal))
        steps += 1
    assert {"main", "choose_field", "move_drop"} <= kinds


def amanita_bonus() -> State:
    """Ana played Amanita muscaria and skipped her removals: the bonus waits for Bo (B1, B3)."""
    state = table(2, hands={0: ("amanita_muscaria",)})
    state = R.apply(state, 0, {"type": "play", "card": "amanita_muscaria#50"})
    state = R.apply(state, 0, SKIP)
    assert state.pending is not None and state.pending.seat == 1 and state.pending.bonus
    return state


def test_a_neighbour_to_clear_is_a_lit_field_too() -> None:
    """R17: Armillaria mellea's C: after its field, the neighbours with drops light up."""
    state = table(2, boards={0: ("0 2 0 0 0", "3 1 0 0 0", "0 0 0 0 0", "0 0 0 0 1")},
                  hands={0: ("armillaria_mellea",)})
    state = R.apply(state, 0, {"type": "play", "card": "armillaria_mellea#50"})
    state = R.apply(state, 0, field((1, 1)))
    assert state.pending is not None and state.pending.kind == "adjacent"
    assert_clickable(state, 0)
    board = shown(state, 0)["board-0"]
    assert ("Armillaria mellea: remove every drop from the water field in row 1, column 2"
            in board)
    assert "Armillaria mellea: choose a field next to the earth field in row 2, column 2" in \
        shown(state, 0)["prompt"]


def test_a_waiting_seat_reads_who_decides_what() -> None:
    state = amanita_bonus()
    assert say(waiting_words(V.view(state, 0)), "en", NAMES, 0) == \
        "Bo is choosing a field for Amanita muscaria's bonus"
    assert say(waiting_words(V.view(state, 0)), "es", NAMES, 0) == \
        "Bo está eligiendo una casilla para el bonus de Amanita muscaria"
    for reader in (0, None):
        prompt = shown(state, reader)["prompt"]
        assert "Bo is choosing a field for Amanita muscaria&#39;s bonus" in prompt
        assert "hx-post" not in prompt
    assert "Your card waits for the other players" in shown(state, 0)["prompt"]
    bo = shown(state, 1)
    assert "Amanita muscaria, a bonus for you: choose any field with at least 1 drop" in \
        bo["prompt"]
    assert ">Let the bonus pass<" in bo["prompt"] and "Skip the rest" not in bo["prompt"]
    lit = re.findall(r'<button type="button" class="fbtn lit[^"]*"', bo["board-1"])
    assert len(lit) == sum(1 for row in state.seats[1].drops for n in row if n)
    assert "fbtn" not in shown(state, 0)["board-1"]


def test_the_prompt_counts_the_repetitions_and_offers_skip_and_skip_rest() -> None:
    state = table(2, hands={0: ("amanita_muscaria",)})
    state = R.apply(state, 0, {"type": "play", "card": "amanita_muscaria#50"})
    prompt = shown(state, 0)["prompt"]
    assert ("Amanita muscaria: choose any field with at least 1 drop to remove 1 drop there "
            "— 1 of 2") in prompt
    assert (">Skip this part (2 times left): only the bonus of Amanita muscaria is left<"
            in prompt) and "Skip the rest" not in prompt
    assert "Ana is choosing a field for Amanita muscaria" in shown(state, 1)["prompt"]
    leccinum = table(2, hands={0: ("leccinum_scabrum",)})     # leaf1:m & water1:x
    leccinum = R.apply(leccinum, 0, {"type": "play", "card": "leccinum_scabrum#50"})
    prompt = shown(leccinum, 0)["prompt"]
    assert ">Skip this part<" in prompt and ">Skip the rest of Leccinum scabrum<" in prompt


def test_R11_skip_says_what_it_skips_and_the_log_says_what_was_skipped() -> None:
    """Item 9: Macrolepiota procera (any2:mm), move 1 of 2: the Skip button names the 2 moves
    it forgoes and that the card ends with them; skipping is logged so; no second button does
    the same thing."""
    state = table(2, boards={0: ("2 0 0 0 0", "0 0 0 0 0", "0 0 0 0 0", "0 0 0 0 1")},
                  hands={0: ("macrolepiota_procera",)})
    state = R.apply(state, 0, {"type": "play", "card": "macrolepiota_procera#50"})
    state = R.apply(state, 0, field((0, 0)))
    prompt = shown(state, 0)["prompt"]
    assert "move 1 of 2" in prompt
    assert ">Skip the 2 moves left: Macrolepiota procera ends<" in prompt
    assert "Skip the rest" not in prompt
    assert_clickable(state, 0)
    after = R.apply(state, 0, SKIP)
    lines = [e.text for e in V.events(state, 0, SKIP, after)]
    assert lines == ["{p0} skipped the 2 moves left of Macrolepiota procera: nothing of it was "
                     "left."]


def test_a_removal_offers_the_most_by_default_and_fewer_by_choice() -> None:
    """R16: Calvatia gigantea on a field of exactly 2 drops: the lit field removes both; the
    small number choice brings up its 1-drop button."""
    state = table(2, boards={0: ("2 0 0 0 0", "0 0 0 0 0", "0 0 0 0 0", "0 0 0 0 1")},
                  hands={0: ("calvatia_gigantea",)})
    state = R.apply(state, 0, {"type": "play", "card": "calvatia_gigantea#50"})
    html = shown(state, 0)
    assert 'name="myc-count" value="max" checked' in html["prompt"]
    assert 'name="myc-count" value="n1"' in html["prompt"]
    buttons = re.findall(r'class="fbtn (lit cnt[^"]*)"[^>]*aria-label="([^"]+)"', html["board-0"])
    assert buttons == [("lit cnt cnt-2 cnt-max",
                        "Calvatia gigantea: remove 2 drops from the moss field in row 1, column 1"),
                       ("lit cnt cnt-1",
                        "Calvatia gigantea: remove 1 drop from the moss field in row 1, column 1")]


def test_a_drop_moved_onto_the_sanctuary_says_where_it_goes() -> None:
    state = table(2, boards={0: ("0 0 1 0 0", "0 0 0 0 0", "0 0 0 0 0", "0 0 0 0 1")},
                  hands={0: ("coprinus_comatus",)})
    state = R.apply(state, 0, {"type": "play", "card": "coprinus_comatus#50"})
    state = R.apply(state, 0, field((0, 2)))
    board = shown(state, 0)["board-0"]
    assert ("Coprinus comatus: move the drop to the sanctuary field in row 2, column 3, where "
            "it goes to the Sanctuary of Life") in board
    assert "The fields the drop may go to are lit" in shown(state, 0)["prompt"]


def test_tile_b_takes_two_clicks_and_no_script() -> None:
    """R23: the field a drop leaves is a radio; its neighbours become the submit buttons of
    that field's form, shown by a style rule that reads the radio."""
    state = table(2, boards={0: ("0 0 0 0 0", "0 3 0 0 0", "0 0 0 0 0", "0 0 0 0 1")},
                  hands={0: ()})
    state = with_player(state, 0, leaves=3)
    found = controls(V.view(state, 0), R.legal_moves(state, 0), 0)
    assert {"id": "myc-b-1-1", "move": {"type": "tile", "tile": "b", "from": [1, 1]}} in \
        found["forms"]
    rule = ('.myc:has(#myc-tool-b:checked):has(input[name="myc-origin-b"][value="1-1"]:checked) '
            ".tgt-b-1-1 { display: flex; }")
    assert rule in found["rules"]
    arrows = {item["cls"].split()[2]: item["value"] for item in found["fields"]["1-1"]
              if item["kind"] == "submit" and item["form"] == "myc-b-1-1"}
    assert arrows == {"to-up": [0, 1], "to-left": [1, 0], "to-right": [1, 2], "to-down": [2, 1]}
    assert [i["kind"] for i in found["fields"]["1-1"]] == ["origin"] + ["submit"] * 4
    html = shown(state, 0)
    assert '<input type="radio" name="myc-tool" id="myc-tool-b" value="b">' in html["hand"]
    assert "<style>" in html["board-0"] and "<script" not in page(state, 0)


def test_tile_c_moves_the_second_drop_in_a_third_step() -> None:
    state = table(2, boards={0: ("0 0 0 0 0", "0 2 0 0 0", "0 0 0 0 0", "0 0 0 0 1")},
                  hands={0: ()})
    state = with_player(state, 0, leaves=3, tiles=("a", "b", "c"), used=(False,) * 3)
    found = controls(V.view(state, 0), R.legal_moves(state, 0), 0)
    cell = found["fields"]["1-1"]
    kinds = [i["kind"] for i in cell if i.get("form") == "myc-c-1-1"]
    assert kinds == ["pick"] * 4 + ["submit"] * 4
    assert any(".two-c-1-1 { display: flex; }" in rule for rule in found["rules"])


def test_cards_show_symbols_with_their_words_on_hover_and_for_screen_readers() -> None:
    state = table(2)
    market = shown(state, 0)["market"]
    for card in state.market:
        definition = CARDS[card.split("#")[0]]
        text = V.card_json(card)["text"]
        assert f'title="{definition.name}: {text}' in market.replace("&#39;", "'")
        assert f'<p class="sr-only">{text}.</p>' in market.replace("&#39;", "'")
    assert market.count('<span class="fn" aria-hidden="true">') >= len(state.market)
    assert set(PICTURES) == set(CARDS)


def test_your_board_comes_first_and_the_others_fold() -> None:
    html = page(table(3), 1)
    order = re.findall(r'id="board-(\d)"', html)
    assert order == ["1", "0", "2"]
    assert html.index('id="board-1"') < html.index('id="hand"') < html.index('id="market"')
    assert html.count('<details class="other-board"') == 2
    spectator = page(table(3), None)
    assert re.findall(r'id="board-(\d)"', spectator) == ["0", "1", "2"]
    assert 'id="hand"' in spectator and "Your hand" not in spectator


def test_a_move_changes_only_its_regions() -> None:
    """Ana plays Leaf (+1 leaf): Bo's page gets her board (its leaves) and the prompt; his own
    board, his hand, the market and the Sanctuary of Life are not sent again."""
    state = table(2, hands={0: ("st_leaf", "st_leaf")})
    before = shown(state, 1)
    after = shown(R.apply(state, 0, {"type": "play", "card": "st_leaf#50"}), 1)
    game_regions = [region.id for region in regions(2)]
    changed = {name for name in game_regions if before[name] != after[name]}
    assert changed == {"board-0", "prompt"}


def test_the_final_scoring_is_marked_and_nothing_is_asked() -> None:
    state = R.setup(2, R.Options(), 5)
    rng = random.Random(5)
    while state.phase != R.OVER:
        (seat,) = R.active_seats(state)
        state = R.apply(state, seat, rng.choice(R.legal_moves(state, seat)))
    html = page(state, 0)
    assert html.index("data-scores") < html.index('id="board-0"')
    scores = shown(state, 0)["scores"]
    assert "Final scoring" in scores and "winner" in scores
    assert "hx-post" not in html and shown(state, 0)["prompt"].strip() == ""


def test_solo_shows_gwidyon() -> None:
    state = R.setup(1, R.Options(), 3)
    assert [r.id for r in regions(1)] == ["prompt", "scores", "hand", "market", "sanctuary",
                                         "gwidyon", "board-0"]
    assert [r.id for r in regions(3)][-3:] == ["board-0", "board-1", "board-2"]
    gw = shown(state, 0)["gwidyon"]
    assert "20</b> drops on his leaf-litter board" in gw and "remove side up" in gw


def test_the_asks_and_words_are_plain() -> None:
    for ask in GAME.asks.values():
        assert raw_fragment(ask) is None
    # Every field an ask covers is required by each move that carries it.
    for field_name in GAME.asks:
        for kind, fields in GAME.moves.items():
            if field_name in fields:
                assert field_name in R._REQUIRED[kind], (field_name, kind)


def test_X8_tile_e_with_an_empty_discard_pile_is_offered_to_remove_no_card() -> None:
    """Item 3: tile e may be used to remove nothing, like "Eliminar cartas": the page offers
    it (every legal move is clickable), with or without cards in the discard pile."""
    state = with_player(table(2, expansion=True), 0, tiles=("a", "b", "e"),
                        used=(False,) * 3, leaves=5, discard=())
    assert {"type": "tile", "tile": "e"} in R.legal_moves(state, 0)
    assert_clickable(state, 0)
    hand = shown(state, 0)["hand"]
    assert "Your discard pile is empty: you may still use the tile and remove no card." in hand
    assert ">Remove no card<" in hand
    card = state.seats[0].hand[0]
    with_card = with_player(state, 0, discard=(card,))
    assert_clickable(with_card, 0)
    assert "Remove one card of your discard pile from the game, or none:" in \
        shown(with_card, 0)["hand"]


def test_one_card_in_hand_reads_in_the_singular() -> None:
    """Item 14: "play the 1 card… Play them one at a time" read wrong with one card."""
    state = with_player(table(2), 0, hand=table(2).seats[0].hand[:1])
    prompt = shown(state, 0)["prompt"]
    assert "Your turn: play the card in your hand" in prompt
    assert "Play them" not in prompt and "Before or after it you may recruit" in prompt
    three = shown(table(2), 0)["prompt"]
    assert "Your turn: play the 3 cards in your hand" in three and "Play them one at a time" \
        in three


def test_S3_gwidyons_card_reads_as_his_card_not_as_an_instruction_title() -> None:
    """Item 14: "Gwidyon's card Your move: …" read as an instruction: the card's name is
    quoted and the prompt says what his card has you do."""
    state = table(1, boards={0: ("0 0 0 0 0", "0 2 0 0 0", "0 0 0 0 0", "0 0 0 0 0")})
    state = dataclasses.replace(state, gwidyon=dataclasses.replace(
        state.gwidyon, deck=("g_move", *state.gwidyon.deck[1:])))
    state = with_player(state, 0, hand=())
    state = R.apply(state, 0, {"type": "end_turn"})
    assert state.pending is not None and state.pending.kind == "solo_move"
    prompt = shown(state, 0)["prompt"]
    assert ("Gwidyon&#39;s card “Your move”: it has you move 1 drop on your board 1 field up, "
            "down, left or right") in prompt
    assert_clickable(state, 0)


def test_the_folded_boards_have_a_marker_and_no_second_title_on_phones() -> None:
    """Item 14: on phones the folded board of another player shows ▸/▾ and its title once
    (the heading inside is for screen readers only there)."""
    css = (GAME.folder / "static" / "table.css").read_text()
    assert '.other-board > summary::before { content: "▸"' in css
    assert '.other-board[open] > summary::before { content: "▾"; }' in css
    phone = css.split("@media (max-width: 600px) {\n  .other-board", 1)[1].split("}\n}", 1)[0]
    assert ".other-board .pboard > header > h2" in phone and "clip-path" in phone


def test_the_rules_panel_explains_the_symbols_and_colours_and_has_no_move_notation() -> None:
    """Item 12: the rules panel draws the field colours and the card symbols as the board
    draws them, and keeps the move notation (API docs) out."""
    html = ENV.get_template("rules.html").render(game=GAME, player=None, rules_open=True)
    assert "How a move is written" not in html and "move format" not in html
    legend = html.split('id="rule-legend"', 1)[1].split("</section>", 1)[0]
    for colour in ("#b0532c", "#5e8c34", "#79b4d2", "#8b6a45"):
        assert f"background: {colour}" in legend
    for badge in (">1+<", ">0+<", ">=2<", ">≤2<", ">2×<"):
        assert badge in legend
    assert 'class="lg-bonus"' in legend and "a dashed box: a bonus for the other players" in \
        legend
    assert "<use" not in legend          # drawn inline: the page of its own has no symbols
