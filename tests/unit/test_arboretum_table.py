"""Arboretum's table page: what each region shows a seat (the new cards, the controls that
need a card first, the boards' order), the ink of every card colour, and the asks."""

from __future__ import annotations

import re

import pytest

from app.config import Settings
from app.games.arboretum import DARK_INK, GAME, LIGHT_INK, ink_on
from app.games.arboretum import rules as R
from app.games.arboretum.data import COLOURS
from app.games.arboretum.rules import ArboretumState
from app.rooms.table import Table
from app.web.render import make_environment, render_regions, table_context

ENV = make_environment(Settings(htmx_source="local"))
NAMES = ["Ana", "Bo", "Cy"]


def contrast(ink: str, paper: str) -> float:
    """WCAG 2 contrast ratio of two ``#rrggbb`` colours."""

    def lum(colour: str) -> float:
        def channel(c: float) -> float:
            return c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4

        r, g, b = (int(colour[i : i + 2], 16) / 255 for i in (1, 3, 5))
        return 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b)

    light, dark = sorted((lum(ink), lum(paper)), reverse=True)
    return (light + 0.05) / (dark + 0.05)


@pytest.mark.parametrize("species", sorted(COLOURS))
def test_every_card_value_reads_at_aa_contrast(species: str) -> None:
    """Values are 14 px bold on the mini chips: normal text, so 4.5:1 (WCAG AA)."""
    ink = GAME.extras["inks"][species]
    assert ink == ink_on(COLOURS[species])
    assert contrast(ink, COLOURS[species]) >= 4.5


def test_dark_ink_where_white_is_weak() -> None:
    inks = GAME.extras["inks"]
    assert {s for s, ink in inks.items() if ink == DARK_INK} == {
        "cassia", "dogwood", "magnolia", "royal_poinciana"}  # fmt: skip
    assert inks["maple"] == inks["willow"] == LIGHT_INK


def test_the_table_asks_for_a_card_and_a_space_in_the_games_words() -> None:
    assert GAME.asks["card"] == "Choose a card from your hand first"
    assert GAME.asks["cell"] == "Choose a highlighted space of your arboretum"


def regions(state: ArboretumState, seat: int | None) -> dict[str, str]:
    table = Table(room_id=1, game_row_id=1, game=GAME, seed=1, players=state.players,
                  options=GAME.Options(), state=state, version=0,
                  seat_players={s: s + 1 for s in range(state.players)}, seat_bots={},
                  names=NAMES[: state.players])
    return render_regions(ENV, table, seat)


def page(state: ArboretumState, seat: int | None) -> str:
    table = Table(room_id=1, game_row_id=1, game=GAME, seed=1, players=state.players,
                  options=GAME.Options(), state=state, version=0,
                  seat_players={s: s + 1 for s in range(state.players)}, seat_bots={},
                  names=NAMES[: state.players])
    return ENV.get_template(GAME.template).render(**table_context(table, seat))


def drawn_once(players: int = 3) -> ArboretumState:
    state = R.setup(players, 5)
    return R.apply(state, 0, {"type": "draw", "source": "deck"})


def test_the_card_just_drawn_is_marked_new_in_its_owners_hand_only() -> None:
    state = drawn_once()
    kind, value = state.hands[0][-1]
    mine = regions(state, 0)["hand"]
    assert mine.count('class="new-tag"') == 1
    marked = re.search(r'<span class="acard sp-(\w+) " title="([^"]+)">.*?class="new-tag"', mine)
    assert marked is not None and marked.group(1) == kind and marked.group(2).endswith(f" {value}")
    assert "1 new" in mine
    for other in (1, 2, None):
        assert "new-tag" not in regions(state, other)["hand"]


def test_out_of_turn_the_hand_cannot_be_chosen() -> None:
    state = drawn_once()
    hand = regions(state, 1)["hand"]
    assert hand.count('type="radio"') == 7 and hand.count("disabled") == 7
    assert "choosing" not in hand


def test_spaces_and_discard_wait_for_a_chosen_card() -> None:
    state = R.apply(drawn_once(), 0, {"type": "draw", "source": "deck"})
    board = regions(state, 0)["arboretum-0"]
    targets = re.findall(r"<button [^>]*class=\"cell target\"[^>]*>", board)
    assert targets and all('data-needs="card"' in t and 'form="hand-form"' in t for t in targets)
    assert 'aria-label="Plant the chosen card as your first tree"' in board
    assert "choosing" in regions(state, 0)["hand"]
    kind, value = state.hands[0][0]
    state = R.apply(state, 0, {"type": "play", "card": [kind, value], "cell": [0, 0]})
    hand = regions(state, 0)["hand"]
    assert re.search(r'<button type="submit" class="discard-btn" data-needs="card">', hand)


def test_each_space_says_where_it_lies() -> None:
    planted = R.load({**R.dump(drawn_once()), "step": "play", "draws_left": 0,
                      "arboreta": [[[[0, 0], ["oak", 3]]], [], []], "species": list(R.SPECIES)})
    board = regions(planted, 0)["arboretum-0"]
    labels = set(re.findall(r'aria-label="(Plant the chosen card [^"]+)"', board))
    assert labels == {f"Plant the chosen card {where} Oak 3"
                      for where in ("below", "above", "right of", "left of")}


def test_your_board_comes_first_and_the_others_fold() -> None:
    html = page(drawn_once(), 1)
    order = re.findall(r'<(section|details) id="arboretum-(\d)"', html)
    assert order == [("section", "1"), ("details", "0"), ("details", "2")]
    assert html.index('id="hand"') < html.index('id="sources"') < html.index('id="arboreta"')
    spectator = re.findall(r'<(section|details) id="arboretum-(\d)"', page(drawn_once(), None))
    assert spectator == [("details", "0"), ("details", "1"), ("details", "2")]


def test_an_empty_deck_and_empty_piles_say_so() -> None:
    state = R.setup(2, 3)
    sources = regions(state, 0)["sources"]
    assert sources.count(">Empty</span>") == 2  # both discard piles
    emptied = R.load({**R.dump(state), "deck": [], "step": "play", "draws_left": 0})
    assert 'class="deckpile empty">Empty<' in regions(emptied, 0)["sources"]


def test_the_end_screen_shows_the_scoring_and_no_turn_or_hand() -> None:
    state = R.setup(2, 3)
    while not state.over:
        state = R.apply(state, state.turn, R.legal_moves(state, state.turn)[0])
    for seat in (0, None):
        shown = regions(state, seat)
        assert "Final scoring" in shown["scoring"] and "data-scores" in shown["scoring"]
        assert not shown["status"].strip() and not shown["hand"].strip()
