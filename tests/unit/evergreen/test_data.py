"""Component data of spec §1 and §4 (cards, planet, cracks, tracks, seasons, solo titles)."""

from __future__ import annotations

from collections import Counter

from app.games.evergreen import data
from app.games.evergreen.data import (
    BIOME_COLOURS,
    BIOMES,
    CARDS,
    CRACKS,
    PLANET,
    POWERS,
    ROW_SIZE,
    SEASONS,
    SOLO_TITLES,
    TRACKS,
)


def _span(row: int, first: int, last: int) -> list[tuple[int, int]]:
    return [(row, c) for c in range(first, last + 1)]


def test_cards_follow_the_latin_square():
    base = ("F1", "F2", "none", "F1", "F2", "aridity")
    for k, biome in enumerate(BIOMES):
        for p, power in enumerate(POWERS):
            card = CARDS[6 * k + p + 1]
            code = base[(p + k) % 6]
            assert card.biome == biome and card.power == power
            if code == "aridity":
                assert (card.top, card.icons) == ("aridity", 0)
            elif code == "none":
                assert (card.top, card.icons) == ("none", 0)
            else:
                assert (card.top, card.icons) == ("fertility", int(code[1]))
    for p, power in enumerate(POWERS):
        wild = CARDS[37 + p]
        assert (wild.biome, wild.power, wild.top, wild.icons) == ("wild", power, "none", 0)


def test_card_totals():
    assert len(CARDS) == 42
    assert set(Counter(card.biome for card in CARDS.values()).values()) == {6}
    assert set(Counter(card.power for card in CARDS.values()).values()) == {7}
    icons = Counter(card.icons for card in CARDS.values() if card.top == "fertility")
    assert icons == {1: 12, 2: 12}
    assert sum(card.icons for card in CARDS.values()) == 36
    assert sum(card.top == "aridity" for card in CARDS.values()) == 6
    assert {card.biome for card in CARDS.values() if card.top == "aridity"} == set(BIOMES)
    assert sum(card.top == "none" for card in CARDS.values()) == 12
    # rulebook examples stay possible
    assert (CARDS[7].biome, CARDS[7].power) == ("swamp", "sprout")
    assert (CARDS[29].biome, CARDS[29].power) == ("wheat", "lake")
    assert (CARDS[6].biome, CARDS[6].top) == ("snow", "aridity")


def test_planet_cells_and_cracks():
    assert isinstance(PLANET, dict)
    assert len(PLANET) == 65
    assert frozenset({(2, 3), (3, 6), (6, 5), (5, 2)}) == CRACKS
    assert not CRACKS & set(PLANET)
    expected = {
        "snow": _span(0, 2, 6) + _span(1, 3, 6) + [(2, 4), (2, 5)],
        "swamp": [(1, 7), *_span(2, 6, 8), (3, 7), (3, 8), *_span(4, 6, 8), (5, 7), (5, 8)],
        "rock": [(1, 1), (1, 2), *_span(2, 0, 2), *_span(3, 0, 2), (4, 0), (4, 1)],
        "flowers": [(5, 0), (5, 1), *_span(6, 0, 3), *_span(7, 1, 3), (8, 2), (8, 3)],
        "wheat": [(5, 6), *_span(6, 6, 8), *_span(7, 4, 7), *_span(8, 4, 6)],
        "meadow": [*_span(3, 3, 5), *_span(4, 2, 5), *_span(5, 3, 5), (6, 4)],
    }
    for biome, cells in expected.items():
        assert sorted(cells) == sorted(c for c, b in PLANET.items() if b == biome), biome
    extents = {0: (2, 6), 8: (2, 6), 1: (1, 7), 7: (1, 7)}
    everything = set(PLANET) | CRACKS
    for line in range(9):
        first, last = extents.get(line, (0, 8))
        assert {c for r, c in everything if r == line} == set(range(first, last + 1))
        assert {r for r, c in everything if c == line} == set(range(first, last + 1))
    # the crack set is invariant under a quarter turn (spec 1.2)
    assert {(c, 8 - r) for r, c in CRACKS} == CRACKS


def test_tracks_and_seasons():
    assert TRACKS == {
        "sprout": (0, 2, 3, 4, 5, 6),
        "grow_small": (0, 2, 2, 3, 3, 4),
        "grow_large": (0, 1, 2, 2, 3, 3),
        "bush": (0, 1, 1, 2, 2, 2),
        "lake": (0, 1, 1, 1, 2, 2),
        "bloom": (0, 2, 3, 4, 6, 8),
    }
    assert SEASONS == (("spring", 5), ("summer", 4), ("autumn", 3), ("winter", 2))
    assert sum(rounds for _, rounds in SEASONS) == 14
    assert ROW_SIZE == {1: 3, 2: 3, 3: 4, 4: 5}


def test_solo_titles_and_colours():
    assert [t.id for t in SOLO_TITLES] == [
        "broccoli", "bonsai", "olive", "holm_oak", "birch", "pine", "oak", "baobab", "sequoia",
    ]  # fmt: skip
    assert [(t.low, t.high) for t in SOLO_TITLES] == [
        (0, 120), (121, 135), (136, 150), (151, 160), (161, 170), (171, 180), (181, 190),
        (191, 200), (201, None),
    ]  # fmt: skip
    assert SOLO_TITLES[3].es == "Encina" and SOLO_TITLES[3].de == "Stechpalme"
    assert SOLO_TITLES[-1].es == "Secuoya legendaria"
    assert set(BIOME_COLOURS) == {*BIOMES, "wild"}
    assert all(v.startswith("#") and len(v) == 7 for v in BIOME_COLOURS.values())


def test_module_says_the_data_is_reconstructed():
    assert "RECONSTRUCTED" in (data.__doc__ or "")
    assert data.DATA_NOTE == "component data reconstructed"
