"""Component data (spec *Components*): the tables, their counts and the import-time checks."""

from __future__ import annotations

import dataclasses
from collections import Counter

import pytest

from app.games.mycelia import data
from app.games.mycelia.data import (
    ADVANCED_BOARDS,
    BASE_CARDS,
    BASE_COST_COUNTS,
    BOARDS,
    CARDS,
    DIE_FACES,
    EXP_CARDS,
    EXP_COST_COUNTS,
    NEW_DEW,
    NEW_DEW_BACK,
    RUNES,
    SANCTUARY_CELL,
    SOLO_CARDS,
    START_DEW,
    STARTING_DECK,
    TILES,
    CardDef,
    SoloCard,
    Tile,
    card_id,
    check_board,
    check_card,
    check_card_set,
    check_new_dew,
    check_new_dew_back,
    check_solo_cards,
    check_start_dew,
    check_tiles,
    def_of,
)
from app.games.mycelia.notation import parse_fn

# --- the tables as the spec prints them ---------------------------------------------------------


def test_counts_of_the_rulebook():
    assert sum(card.copies for card in STARTING_DECK) * len(RUNES) == 24
    assert len(BASE_CARDS) == 20 and sum(card.copies for card in BASE_CARDS) == 40
    assert len(EXP_CARDS) == 15 and sum(card.copies for card in EXP_CARDS) == 30
    assert {letter: tile.count for letter, tile in TILES.items()} == {
        "a": 4, "b": 4, "c": 2, "d": 2, "e": 2,
    }
    assert sum(tile.count for tile in TILES.values()) == 14
    assert len(SOLO_CARDS) == 6
    assert len(DIE_FACES) == 6
    assert len(START_DEW) == len(NEW_DEW) == 8


def test_hero_costs_scale_from_2_to_8():
    assert Counter(card.cost for card in BASE_CARDS) == Counter(BASE_COST_COUNTS)
    assert BASE_COST_COUNTS == {2: 3, 3: 3, 4: 3, 5: 3, 6: 3, 7: 3, 8: 2}
    assert Counter(card.cost for card in EXP_CARDS) == Counter(EXP_COST_COUNTS)
    assert EXP_COST_COUNTS == {2: 1, 3: 2, 4: 3, 5: 3, 6: 2, 7: 2, 8: 2}
    assert {card.cost for card in STARTING_DECK} == {0}


def test_board_front_as_printed_in_the_spec():
    assert BOARDS["front"] == (
        ("moss", "water", "leaf", "moss", "water"),
        ("leaf", "earth", "sanctuary", "water", "leaf"),
        ("water", "leaf", "moss", "earth", "moss"),
        ("earth", "moss", "water", "leaf", "earth"),
    )
    front = BOARDS["front"]
    for r in range(4):
        for c in range(5):
            for dr, dc in ((0, 1), (1, 0)):
                if r + dr < 4 and c + dc < 5:
                    assert front[r][c] != front[r + dr][c + dc], (r, c)


@pytest.mark.parametrize(
    ("name", "counts"),
    [
        ("front", {"leaf": 5, "moss": 5, "water": 5, "earth": 4}),
        ("marsh", {"leaf": 4, "moss": 4, "water": 8, "earth": 3}),
        ("stone_circle", {"leaf": 4, "moss": 4, "water": 6, "earth": 5}),
        ("terraces", {"leaf": 4, "moss": 5, "water": 6, "earth": 4}),
        ("quarters", {"leaf": 5, "moss": 4, "water": 4, "earth": 6}),
    ],
)
def test_V1_boards_field_counts(name, counts):
    fields = Counter(kind for row in BOARDS[name] for kind in row)
    assert fields == Counter({**counts, "sanctuary": 1})
    r, c = SANCTUARY_CELL
    assert BOARDS[name][r][c] == "sanctuary"


def test_V1_four_different_backs_and_the_stone_circle():
    assert set(ADVANCED_BOARDS) == set(BOARDS) - {"front"}
    assert len({BOARDS[name] for name in ADVANCED_BOARDS}) == 4
    ring = [BOARDS["stone_circle"][r][c] for r, c in ((0, 2), (1, 1), (1, 3), (2, 2))]
    assert ring == ["earth"] * 4
    assert set(data.BOARD_NAMES) == set(BOARDS)


def test_R2_starting_patterns_hold_20_drops_and_none_on_the_sanctuary():
    r, c = SANCTUARY_CELL
    for side, pattern in START_DEW.items():
        assert sum(map(sum, pattern)) == 20, side
        assert pattern[r][c] == 0
    assert START_DEW["4B"] == ((0, 3, 0, 0, 2), (0, 0, 0, 4, 0), (3, 0, 0, 0, 3), (0, 0, 2, 0, 3))
    assert [sum(row) for row in START_DEW["3A"]] == [1, 2, 7, 10]


def test_E3_new_dew_rulebook_example_side_1A_snail():
    """"Una gota ... dos casillas por debajo de la casilla de Santuario y una gota ... justo a
    la derecha": side 1A, snail → row 4 column 3 and row 2 column 4; the table then shows 1B."""
    assert set(NEW_DEW["1A"]["snail"]) == {(3, 2), (1, 3)}
    r, c = SANCTUARY_CELL
    assert {(r + 2, c), (r, c + 1)} == set(NEW_DEW["1A"]["snail"])
    assert NEW_DEW_BACK["1A"] == "1B"


def test_E3_new_dew_sides_add_one_or_two_drops_per_face():
    for side, faces in NEW_DEW.items():
        assert tuple(faces) == DIE_FACES
        assert sorted(len(cells) for cells in faces.values()) == [1, 1, 1, 2, 2, 2], side
        assert all(SANCTUARY_CELL not in cells for cells in faces.values())
    assert NEW_DEW_BACK == {
        "1A": "1B", "1B": "1A", "2A": "2B", "2B": "2A",
        "3A": "3B", "3B": "3A", "4A": "4B", "4B": "4A",
    }


def test_tiles_costs_and_names():
    assert [(t.letter, t.cost) for t in TILES.values()] == [
        ("a", 1), ("b", 3), ("c", 3), ("d", 3), ("e", 3),
    ]
    assert data.STARTING_TILES == ("a", "b")
    assert data.MAX_TILES == 4
    for tile in TILES.values():
        assert tile.name and tile.text.endswith(".") and "_" not in tile.text


def test_R25_tile_c_moves_the_second_drop_too():
    """Rulebook: "Si en la misma casilla hay otra gota, mueve también esa gota"."""
    assert "move it 1 field too" in TILES["c"].text
    assert "may" not in TILES["c"].text


def test_starting_deck_of_one_rune():
    assert [(card.id, card.copies, card.play) for card in STARTING_DECK] == [
        ("st_leaf", 2, "+1"),
        ("st_gift", 1, "+2 & !+1"),
        ("st_water", 1, "water1:m"),
        ("st_moss", 1, "moss1:m"),
        ("st_drift", 1, "leaf1:m"),
    ]
    assert RUNES == ("fehu", "uruz", "thurisaz", "ansuz")


def test_X3_one_time_effects_of_the_rulebook():
    once = {card.id: card.once for card in CARDS.values() if card.once}
    assert once == {
        "hydnum_repandum": "trash",
        "tylopilus_formosus": "trash",
        "auricularia_auricula_judae": "tile:e",
        "suillus_luteus": "tile:c",
        "tremella_mesenterica": "tile:d",
        "fomes_fomentarius": "!any1:m",
        "clavulinopsis_fusiformis": "sanctuary",
    }
    # one tile-granting card per letter, 2 copies each, matches the 2 tiles per letter
    for letter in "cde":
        granting = [c for c in CARDS.values() if c.once == f"tile:{letter}"]
        assert sum(c.copies for c in granting) == TILES[letter].count
    assert CARDS["clavulinopsis_fusiformis"].copies == data.EXTRA_SANCTUARY_FIELDS


def test_the_rulebook_symbol_examples_are_cards():
    plays = {card.play for card in BASE_CARDS}
    for text in ("any1:m", "water1:x", "any=2:xx", "moss~3:xxx", "leaf0:A", "water~2:xxn",
                 "3x any1:m", "+3 & 2x water1:x", "any1:C"):
        assert text in plays


def test_cards_carry_their_parsed_functions():
    for card in CARDS.values():
        assert card.play_fn == parse_fn(card.play)
        assert card.once_fn == (None if card.once is None else parse_fn(card.once))
    assert CARDS["auricularia_auricula_judae"].name == "Auricularia auricula-judae"
    assert len(CARDS) == 5 + 20 + 15


def test_S1_solo_cards_and_gwidyon_drops():
    assert {card.id: card.effects for card in SOLO_CARDS} == {
        "g_flip1": ({"flip": 1}, {"gw_remove": 1}),
        "g_flip2": ({"flip": 1}, {"gw_remove": 2}),
        "g_market": ({"market_wipe": 1},),
        "g_leaf3": ({"you_gain": 1}, {"gw_remove": 3}),
        "g_leaf1": ({"you_gain": 1}, {"gw_remove": 1}),
        "g_move": ({"you": "any1:m"},),
    }
    assert all(card.name and "_" not in card.name for card in SOLO_CARDS)
    assert (data.GWIDYON_DROPS_DEFAULT, data.GWIDYON_DROPS_MIN, data.GWIDYON_DROPS_MAX) == (
        20, 20, 25,
    )


def test_card_instances():
    assert card_id("st_leaf", 3) == "st_leaf#3"
    assert def_of("st_leaf#3") is CARDS["st_leaf"]
    assert def_of(card_id("amanita_muscaria", 2)).name == "Amanita muscaria"
    for bad in ("st_leaf", "st_leaf#", "st_leaf#0", "st_leaf#x", "nothing#1", "#1"):
        with pytest.raises(ValueError):
            def_of(bad)
    with pytest.raises(ValueError):
        card_id("nothing", 1)
    with pytest.raises(ValueError):
        card_id("st_leaf", 0)


# --- every check can fail ------------------------------------------------------------------------


def _with_cell(grid, cell, value):
    rows = [list(row) for row in grid]
    rows[cell[0]][cell[1]] = value
    return tuple(tuple(row) for row in rows)


def test_check_board_refuses_broken_boards():
    front = BOARDS["front"]
    check_board("front", front)
    with pytest.raises(ValueError, match="4 rows of 5"):
        check_board("short", front[:3])
    with pytest.raises(ValueError, match="4 rows of 5"):
        check_board("narrow", tuple(row[:4] for row in front))
    with pytest.raises(ValueError, match="unknown field type"):
        check_board("odd", _with_cell(front, (0, 0), "lava"))
    with pytest.raises(ValueError, match="sanctuary"):
        check_board("moved", _with_cell(_with_cell(front, (1, 2), "moss"), (0, 0), "sanctuary"))
    with pytest.raises(ValueError, match="sanctuary"):
        check_board("two", _with_cell(front, (3, 4), "sanctuary"))
    with pytest.raises(ValueError, match="sanctuary"):
        check_board("none", _with_cell(front, (1, 2), "moss"))


def test_check_start_dew_refuses_broken_patterns():
    even = START_DEW["1A"]
    with pytest.raises(ValueError, match="21 drops"):
        check_start_dew("1A", _with_cell(even, (0, 0), 2))
    with pytest.raises(ValueError, match="19 drops"):
        check_start_dew("1A", _with_cell(even, (0, 0), 0))
    with pytest.raises(ValueError, match="sanctuary"):
        check_start_dew("1A", _with_cell(_with_cell(even, (0, 0), 0), (1, 2), 1))
    with pytest.raises(ValueError, match="negative"):
        check_start_dew("1A", _with_cell(_with_cell(even, (0, 0), -1), (0, 1), 3))
    with pytest.raises(ValueError, match="4 rows of 5"):
        check_start_dew("1A", even[:3])


def _side(**changes):
    return {**NEW_DEW["1A"], **changes}


def test_check_new_dew_refuses_broken_sides():
    check_new_dew("1A", _side())
    with pytest.raises(ValueError, match="1 or 2"):
        check_new_dew("1A", _side(moon=((1, 0), (2, 0), (3, 0))))
    with pytest.raises(ValueError, match="1 or 2"):
        check_new_dew("1A", _side(moon=()))
    with pytest.raises(ValueError, match="1 or 2"):
        check_new_dew("1A", _side(sun=((2, 4), (2, 4))))
    with pytest.raises(ValueError, match="sanctuary"):
        check_new_dew("1A", _side(moon=((1, 2),)))
    with pytest.raises(ValueError, match="off the board"):
        check_new_dew("1A", _side(moon=((4, 0),)))
    with pytest.raises(ValueError, match="three 1-drop"):
        check_new_dew("1A", _side(moon=((1, 0), (2, 0))))
    without_sun = {face: cells for face, cells in NEW_DEW["1A"].items() if face != "sun"}
    with pytest.raises(ValueError, match="faces"):
        check_new_dew("1A", without_sun)


def test_check_new_dew_back_refuses_a_wrong_pairing():
    check_new_dew_back(NEW_DEW_BACK)
    with pytest.raises(ValueError):
        check_new_dew_back({**NEW_DEW_BACK, "1A": "2B"})
    with pytest.raises(ValueError):
        check_new_dew_back({**NEW_DEW_BACK, "1A": "1A"})
    with pytest.raises(ValueError):
        check_new_dew_back({side: back for side, back in NEW_DEW_BACK.items() if side != "4B"})


def _def(play, once=None, set_="exp", cost=4, copies=2):
    return CardDef(
        "test_card", "Test card", set_, cost, copies, play, once,
        parse_fn(play), None if once is None else parse_fn(once),
    )


def test_check_card_refuses_bonus_in_either_or():
    check_card(_def("+3 / any1:m"))
    with pytest.raises(ValueError, match="either-or"):
        check_card(_def("!+1 / any1:m"))
    with pytest.raises(ValueError, match="either-or"):
        check_card(_def("+1", once="trash / !any1:m"))


def test_check_card_refuses_tile_and_sanctuary_when_played():
    check_card(_def("+2", once="tile:c"))
    check_card(_def("+2", once="sanctuary"))
    with pytest.raises(ValueError, match="recruited"):
        check_card(_def("+2 & tile:c"))
    with pytest.raises(ValueError, match="recruited"):
        check_card(_def("sanctuary"))


def test_check_card_refuses_a_function_that_does_not_match_its_text():
    with pytest.raises(ValueError, match="differs"):
        check_card(dataclasses.replace(_def("+2"), play_fn=parse_fn("+3")))
    with pytest.raises(ValueError, match="without its text"):
        check_card(dataclasses.replace(_def("+2"), once_fn=parse_fn("trash")))
    with pytest.raises(ValueError, match="one-time"):
        check_card(_def("+2", once="trash", set_="base"))


def test_every_function_parses_at_definition():
    with pytest.raises(ValueError, match="card broken"):
        data._card("base", "broken", "Broken", 2, 2, "any1:q")
    with pytest.raises(ValueError, match="card broken"):
        data._card("exp", "broken", "Broken", 2, 2, "+1", "tile:a")


def test_check_card_set_refuses_wrong_copies_and_costs():
    check_card_set("base", BASE_CARDS, BASE_COST_COUNTS, 2)
    one_copy = (dataclasses.replace(BASE_CARDS[0], copies=1), *BASE_CARDS[1:])
    with pytest.raises(ValueError, match="copies"):
        check_card_set("base", one_copy, BASE_COST_COUNTS, 2)
    cheaper = (dataclasses.replace(BASE_CARDS[-1], cost=7), *BASE_CARDS[:-1])
    with pytest.raises(ValueError, match="costs"):
        check_card_set("base", cheaper, BASE_COST_COUNTS, 2)
    with pytest.raises(ValueError, match="costs"):
        check_card_set("base", BASE_CARDS[:-1], BASE_COST_COUNTS, 2)
    with pytest.raises(ValueError, match="belongs to set"):
        check_card_set("base", (*BASE_CARDS, EXP_CARDS[0]), BASE_COST_COUNTS, 2)
    with pytest.raises(ValueError, match="costs"):
        check_card_set("exp", EXP_CARDS, BASE_COST_COUNTS, 2)
    extra_leaf = (dataclasses.replace(STARTING_DECK[0], copies=3), *STARTING_DECK[1:])
    with pytest.raises(ValueError, match="7 cards per rune"):
        check_card_set("start", extra_leaf, {0: 5}, 6)


def test_check_solo_cards_and_tiles_refuse_broken_copies():
    check_solo_cards(SOLO_CARDS)
    with pytest.raises(ValueError, match="6 different"):
        check_solo_cards(SOLO_CARDS[:5])
    with pytest.raises(ValueError, match="unknown effect"):
        check_solo_cards((*SOLO_CARDS[:5], SoloCard("g_move", "Your move", ({"dance": 1},))))
    with pytest.raises(ValueError):
        check_solo_cards((*SOLO_CARDS[:5], SoloCard("g_move", "Your move", ({"you": "any:m"},))))
    with pytest.raises(ValueError, match="positive"):
        check_solo_cards((SoloCard("g_x", "X", ({"gw_remove": 0},)), *SOLO_CARDS[1:]))
    check_tiles(TILES)
    with pytest.raises(ValueError, match="counts"):
        check_tiles({**TILES, "c": Tile("c", 3, 3, "Move two drops", "…")})
    with pytest.raises(ValueError, match="cost"):
        check_tiles({**TILES, "a": Tile("a", 4, 3, "Market wipe", "…")})


def test_the_import_time_check_covers_every_table(monkeypatch):
    data._check_all()
    monkeypatch.setitem(START_DEW, "2B", _with_cell(START_DEW["2B"], (0, 0), 3))
    with pytest.raises(ValueError, match="starting dew 2B"):
        data._check_all()
    monkeypatch.undo()
    monkeypatch.setitem(BOARDS, "marsh", _with_cell(BOARDS["marsh"], (0, 0), "sanctuary"))
    with pytest.raises(ValueError, match="board marsh"):
        data._check_all()
    monkeypatch.undo()
    monkeypatch.setitem(NEW_DEW, "3B", {**NEW_DEW["3B"], "moon": ((1, 2),)})
    with pytest.raises(ValueError, match="new dew 3B"):
        data._check_all()
    monkeypatch.undo()
    monkeypatch.setattr(data, "EXP_CARDS", EXP_CARDS[1:])
    with pytest.raises(ValueError, match="exp cards"):
        data._check_all()
    monkeypatch.undo()
    data._check_all()
