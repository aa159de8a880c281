"""Arboretum in Spanish, German and Dutch: the species by the rulebook's names, log lines and
refusals that name the right players in every language, the rules panel in the rulebook's
order, and the table's words."""

from __future__ import annotations

import re

import pytest

from app.config import Settings
from app.games.arboretum import GAME
from app.games.arboretum import rules as R
from app.games.arboretum.data import NAMES_EN, NAMES_ES, SPECIES
from app.games.base import IllegalMove
from app.i18n import say
from app.rooms.table import Table
from app.web.render import make_environment, render_regions

NAMES = ["Ana", "Bo", "Cy"]


def line(before: R.ArboretumState, seat: int, move: dict, reader: int | None,
         locale: str) -> list[str]:
    after = R.apply(before, seat, move)
    return [say(e.msg, locale, NAMES, reader) for e in GAME.events(before, seat, move, after)
            if e.msg is not None and e.visible_to(reader)]


def test_the_species_read_as_the_spanish_rulebook_names_them() -> None:
    assert {s: say(NAMES_EN[s], "es") for s in SPECIES} == dict(NAMES_ES)


@pytest.mark.parametrize("locale", ["es", "de", "nl"])
def test_every_species_has_its_own_name(locale: str) -> None:
    names = [say(NAMES_EN[s], locale) for s in SPECIES]
    assert len(set(names)) == len(names)


def _with_discard(seat: int, card: tuple[str, int]) -> R.ArboretumState:
    state = R.setup(3, 4)
    discards = tuple((card,) if s == seat else () for s in range(3))
    return R.load({**R.dump(state), "discards": [[list(c) for c in p] for p in discards],
                   "turn": 2, "species": list(SPECIES)})


@pytest.mark.parametrize(("locale", "text"), [
    ("en", "Cy took Oak 7 from Bo's discard pile"),
    ("es", "Cy tomó Roble 7 de la pila de descarte de Bo"),
    ("de", "Cy nahm Eiche 7 vom Ablagestapel von Bo"),
    ("nl", "Cy pakte Eik 7 van de aflegstapel van Bo"),
])
def test_a_line_names_the_mover_and_the_pile_whatever_their_seats(locale: str,
                                                                  text: str) -> None:
    state = _with_discard(1, ("oak", 7))
    assert line(state, 2, {"type": "draw", "source": 1}, None, locale) == [text]


def test_english_reads_you_for_the_reader_and_the_stored_text_keeps_the_seats() -> None:
    state = _with_discard(1, ("oak", 7))
    after = R.apply(state, 2, {"type": "draw", "source": 1})
    (event,) = GAME.events(state, 2, {"type": "draw", "source": 1}, after)
    assert event.text == "{p2} took Oak 7 from {p1's} discard pile"
    assert line(state, 2, {"type": "draw", "source": 1}, 1, "en") == [
        "Cy took Oak 7 from your discard pile"]


@pytest.mark.parametrize(("locale", "text"), [
    ("en", "it is Cy's turn"), ("es", "es el turno de Cy"), ("de", "Cy ist am Zug"),
    ("nl", "Cy is aan de beurt"),
])
def test_the_turn_refusal_names_whose_turn_it_is(locale: str, text: str) -> None:
    state = R.load({**R.dump(R.setup(3, 4)), "turn": 2})
    with pytest.raises(IllegalMove) as err:
        R.apply(state, 0, {"type": "draw", "source": "deck"})
    assert say(err.value.msg, locale, NAMES, 0) == text


@pytest.mark.parametrize(("locale", "end"), [
    ("es", "Cy ganó."), ("de", "Cy hat gewonnen."), ("nl", "Cy heeft gewonnen."),
])
def test_the_last_line_names_the_winner(locale: str, end: str) -> None:
    state = R.load({**R.dump(R.setup(3, 4)), "deck": [], "step": "discard", "draws_left": 0,
                    "turn": 2, "hands": [[["oak", 5]], [["maple", 5]], [["olive", 1]]],
                    "arboreta": [[], [], [[[0, 0], ["willow", 3]], [[0, 1], ["willow", 4]]]],
                    "species": list(SPECIES)})
    (_, over) = line(state, 2, {"type": "discard", "card": ["olive", 1]}, None, locale)
    assert over.endswith(end) and "Ana" in over and "Bo" in over


def test_the_rules_panel_follows_the_rulebook() -> None:
    ids = [rule.id for rule in GAME.rules]
    assert ids == [h for h in R.RULEBOOK_HEADINGS if h in ids]
    constants = {v for k, v in vars(R).items() if k.startswith("RULE_")}
    assert set(ids) == constants
    for rule in GAME.rules:
        for locale in ("es", "de", "nl"):
            assert say(rule.title, locale) != rule.title
            assert say(rule.text, locale) != rule.text


@pytest.mark.parametrize(("locale", "label"), [
    ("es", "Plantar la carta elegida debajo de Roble 3"),
    ("de", "Gewählte Karte unter Eiche 3 pflanzen"),
    ("nl", "Gekozen kaart onder Eik 3 planten"),
])
def test_each_space_says_where_it_lies_in_the_language(locale: str, label: str) -> None:
    state = R.setup(3, 5)
    state = R.apply(R.apply(state, 0, {"type": "draw", "source": "deck"}), 0,
                    {"type": "draw", "source": "deck"})
    state = R.load({**R.dump(state), "arboreta": [[[[0, 0], ["oak", 3]]], [], []],
                    "species": list(SPECIES)})
    table = Table(room_id=1, game_row_id=1, game=GAME, seed=1, players=3,
                  options=GAME.Options(), state=state, version=0,
                  seat_players={0: 1, 1: 2, 2: 3}, seat_bots={}, names=NAMES)
    board = render_regions(make_environment(Settings(htmx_source="local"), locale), table,
                           0)["arboretum-0"]
    assert label in re.findall(r'aria-label="([^"]+)"', board)
