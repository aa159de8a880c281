"""Evo's component data: the spec's data invariants ("Tests that must exist"), and the climate
pile as setup builds it."""

from __future__ import annotations

from collections import Counter

import pytest

from app.games.evo import data
from app.games.evo.data import (
    CLIMATE_TOKENS,
    DIE_FACES,
    EVENT_CARDS,
    KILLER_BABY_WIN_FACES,
    MAPS,
    NEIGHBOUR_STEPS,
    NORMAL_GENES,
    TERRAINS,
    UNIQUE_GENES,
    WHEEL,
    WHEEL_START,
    IslandMap,
    climate_of,
)
from app.games.evo.rules import setup

Cell = tuple[int, int]

#: The spec's map table: players → spaces, beach, plains, hills, mountains, coastal.
MAP_TABLE = {
    2: (30, 6, 10, 8, 6, 18),
    3: (46, 12, 12, 12, 10, 21),
    4: (58, 16, 18, 12, 12, 24),
    5: (70, 16, 20, 21, 13, 29),
}
#: The spec's starting spaces.
STARTS = {
    2: [((-3, -1), (-3, 0)), ((2, -2), (2, -1))],
    3: [((3, -2), (4, -2)), ((-2, 4), (-1, 3)), ((-2, -2), (-2, -1))],
    4: [((-2, -2), (-1, -3)), ((3, -3), (3, -2)), ((0, 3), (1, 2)), ((-4, 2), (-4, 3))],
    5: [((1, -3), (2, -3)), ((4, -1), (5, -1)), ((1, 3), (2, 3)), ((-5, 3), (-4, 3)),
        ((-4, -1), (-3, -1))],
}


def _coastal(board: IslandMap, cell: Cell) -> bool:
    q, r = cell
    return any((q + dq, r + dr) not in board.terrain for dq, dr in NEIGHBOUR_STEPS)


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_map_counts_as_tabled(players):
    board = MAPS[players]
    spaces, beach, plains, hills, mountains, coastal = MAP_TABLE[players]
    counts = Counter(board.terrain.values())
    assert len(board.terrain) == spaces
    assert (counts["beach"], counts["plains"], counts["hills"], counts["mountains"]) == (
        beach, plains, hills, mountains)
    assert len(board.coastal) == coastal


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_coastal_case_equals_the_computed_flag(players):
    board = MAPS[players]
    for cell in board.terrain:
        assert (cell in board.coastal) == _coastal(board, cell), cell


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_mountains_inland_and_beaches_coastal(players):
    board = MAPS[players]
    for cell, terrain in board.terrain.items():
        if terrain == "mountains":
            assert cell not in board.coastal
        if terrain == "beach":
            assert cell in board.coastal


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_starting_spaces_plains_touching_hills_two_per_seat(players):
    board = MAPS[players]
    assert [set(pair) for pair in board.starts] == [set(pair) for pair in STARTS[players]]
    for pair in board.starts:
        assert len(set(pair)) == 2
        for q, r in pair:
            assert board.terrain[(q, r)] == "plains"
            assert any(board.terrain.get((q + dq, r + dr)) == "hills"
                       for dq, dr in NEIGHBOUR_STEPS)


def _regions(board: IslandMap) -> list[int]:
    sizes, seen = [], set()
    for start, terrain in board.terrain.items():
        if start in seen:
            continue
        group, todo = {start}, [start]
        while todo:
            q, r = todo.pop()
            for dq, dr in NEIGHBOUR_STEPS:
                cell = (q + dq, r + dr)
                if board.terrain.get(cell) == terrain and cell not in group:
                    group.add(cell)
                    todo.append(cell)
        seen |= group
        sizes.append(len(group))
    return sizes


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_every_terrain_region_has_three_spaces_or_more(players):
    assert min(_regions(MAPS[players])) >= 3


def _symmetries(board: IslandMap) -> set[tuple[bool, tuple[int, ...]]]:
    """Every (mirrored, seat permutation) of an isometry of the hex grid that maps the island
    onto itself, terrain onto terrain and starting pairs onto starting pairs."""
    seat_of = {cell: s for s, pair in enumerate(board.starts) for cell in pair}
    cells = sorted(board.terrain)
    found = set()
    for mirrored in (False, True):
        for turns in range(6):
            def turn(cell: Cell, mirrored: bool = mirrored, turns: int = turns) -> Cell:
                x, z = cell
                y = -x - z
                if mirrored:
                    y, z = z, y
                for _ in range(turns):
                    x, y, z = -z, -x, -y
                return (x, z)

            a = turn(cells[0])
            for target in cells:
                shift = (target[0] - a[0], target[1] - a[1])
                image = {c: (turn(c)[0] + shift[0], turn(c)[1] + shift[1]) for c in cells}
                if all(board.terrain.get(image[c]) == board.terrain[c] for c in cells) and \
                        all(image[c] in seat_of for c in seat_of):
                    found.add((mirrored, tuple(seat_of[image[board.starts[s][0]]]
                                               for s in range(board.players))))
    return found


def test_symmetry_as_tabled():
    assert (False, (1, 0)) in _symmetries(MAPS[2])  # 180°: 0↔1
    assert (False, (1, 2, 0)) in _symmetries(MAPS[3])  # 120°: 0→1→2
    four = _symmetries(MAPS[4])
    assert (True, (1, 0, 3, 2)) in four and (True, (3, 2, 1, 0)) in four  # two mirror axes
    assert (True, (0, 4, 3, 2, 1)) in _symmetries(MAPS[5])  # 1↔4, 2↔3, seat 0 on the axis


def test_wheel_one_temperate_terrain_per_section_neighbours_hot_and_cold():
    assert len(WHEEL) == 12 and WHEEL_START == 0
    for section in range(12):
        row = [climate_of(section, terrain) for terrain in TERRAINS]
        t = row.index("temperate")
        assert row.count("temperate") == 1
        for i, climate in enumerate(row):
            expected = {t: "temperate", t - 1: "hot", t + 1: "cold"}.get(i, "deadly")
            assert climate == expected
    assert Counter(WHEEL) == {"beach": 2, "plains": 6, "hills": 3, "mountains": 1}


def test_wheel_table_rows():
    """Spot checks of the spec's wheel table: S0, S3 and S7."""
    assert [climate_of(0, t) for t in TERRAINS] == ["hot", "temperate", "cold", "deadly"]
    assert [climate_of(3, t) for t in TERRAINS] == ["deadly", "deadly", "hot", "temperate"]
    assert [climate_of(7, t) for t in TERRAINS] == ["temperate", "cold", "deadly", "deadly"]


def test_climate_tokens_2_5_3_2_and_the_meteorite():
    counts = {t.id: t.count for t in CLIMATE_TOKENS.values()}
    assert counts == {"cw2": 2, "cw1": 5, "stay": 3, "ccw1": 2, "meteorite": 1}
    assert sum(counts.values()) == 13
    steps = {t.id: t.steps for t in CLIMATE_TOKENS.values()}
    assert steps == {"cw2": 2, "cw1": 1, "stay": 0, "ccw1": -1, "meteorite": None}


def test_genes_36_normal_and_12_unique():
    assert dict(NORMAL_GENES) == {"legs": 8, "horn": 6, "parasol": 6, "fur": 6, "egg": 6,
                                  "vial": 4}
    assert sum(NORMAL_GENES.values()) == 36
    assert len(set(UNIQUE_GENES)) == 12 and data.UNIQUE_IN_BAG == 8
    assert sum(NORMAL_GENES.values()) + len(UNIQUE_GENES) == 48
    assert set(data.GENES) == set(NORMAL_GENES) | set(UNIQUE_GENES)


def test_fifteen_distinct_event_cards_by_timing():
    assert len(EVENT_CARDS) == 15 == len({c.name for c in EVENT_CARDS.values()})
    timings = Counter(c.timing for c in EVENT_CARDS.values())
    assert [timings[t] for t in data.TIMINGS] == [3, 3, 2, 2, 5]


def test_die_six_faces_one_stalemate():
    assert len(DIE_FACES) == 6 and DIE_FACES.count("stalemate") == 1
    assert sorted(f for f in DIE_FACES if f in KILLER_BABY_WIN_FACES) == ["+1", "+1", "-1", "0"]


def test_players_and_bids():
    assert (data.START_MP, data.DINOSAURS_PER_PLAYER, data.BASE_MOVEMENT, data.BASE_EGGS) == (
        6, 8, 2, 1)
    assert (data.MIN_BID, data.MAX_BID) == (0, 6)


def test_the_docstring_tells_players_the_data_is_a_reconstruction():
    assert data.__doc__ is not None and "reconstruction" in data.__doc__
    assert data.DATA_NOTE == "component data reconstructed"


def test_a_broken_map_is_refused_on_import():
    board = MAPS[2]
    beach = next(c for c, t in board.terrain.items() if t == "beach")
    broken = IslandMap(2, {**board.terrain, beach: "mountains"}, board.coastal, board.starts)
    with pytest.raises(ValueError, match="touch the sea"):
        data._check_map(broken)


@pytest.mark.parametrize("seed", range(300))
def test_climate_pile_twelve_tokens_meteorite_at_ten_to_twelve(seed):
    """Setup has already revealed round 1's token: the pile is the rest of the twelve."""
    state = setup(2 + seed % 4, None, seed)
    full = (*state.revealed, *state.pile)
    assert len(full) == 12 and len(state.revealed) == 1
    assert full.index("meteorite") + 1 in (10, 11, 12)
    every = Counter((*full, state.set_aside))
    assert every == {t.id: t.count for t in CLIMATE_TOKENS.values()}


def test_every_meteorite_position_occurs():
    """Positions 10, 11 and 12, i.e. games of 9, 10 and 11 complete rounds."""
    positions = Counter()
    for seed in range(300):
        state = setup(2, None, seed)
        positions[(*state.revealed, *state.pile).index("meteorite") + 1] += 1
    assert set(positions) == {10, 11, 12}
