"""LGT-1…4, FOR-1…2, FIN-1 and the rulebook examples of spec §5 (scoring functions)."""

from __future__ import annotations

import pytest

from app.games.evergreen.data import CRACKS, PLANET
from app.games.evergreen.scoring import fertility_points, largest_forest, light_points

Board = dict[tuple[int, int], str]


def row(*pieces: str | None, r: int = 0) -> Board:
    return {(r, c): piece for c, piece in enumerate(pieces) if piece is not None}


LIGHT_ROWS: dict[str, tuple[tuple[str | None, ...], int]] = {
    "A": (("small", "large", "small", "small", None, "small"), 4),
    "B": (("small", "small", "bush", "small"), 2),
    "C": (("large", "large", "small", "large"), 2),
    "D": (("small", None, "small", "large", None, "small"), 4),
    "E": (("lake", "small", "sprout", "small", "small", "small"), 2),
}


@pytest.mark.parametrize("name", sorted(LIGHT_ROWS))
def test_light_rulebook_rows(name: str):
    pieces, expected = LIGHT_ROWS[name]
    assert light_points(row(*pieces), "W") == expected


def test_light_example_d_with_cracks():
    pieces, expected = LIGHT_ROWS["D"]
    cracks = frozenset({(0, 1), (0, 4)})
    assert light_points(row(*pieces), "W") == expected == 4
    assert light_points(row(*pieces), "W", cracks) == 4
    with pytest.raises(ValueError):
        light_points({**row(*pieces), (0, 1): "small"}, "W", cracks)


def _stacked() -> Board:
    board: Board = {}
    for r, name in enumerate("ABCDE"):
        board.update(row(*LIGHT_ROWS[name][0], r=r))
    return board


def test_light_stacked_mirrored_and_turned_boards():
    board = _stacked()
    assert light_points(board, "W") == 14
    assert light_points({(r, 8 - c): p for (r, c), p in board.items()}, "E") == 14
    assert light_points({(c, r): p for (r, c), p in board.items()}, "N") == 14
    assert light_points({(8 - c, r): p for (r, c), p in board.items()}, "S") == 14


@pytest.mark.parametrize(
    ("pieces", "expected"),
    [
        (("small", "small"), 1),
        (("small", "large"), 3),
        (("large", "small"), 2),
        (("large", "large"), 2),
        (("large", None, "large"), 2),
        (("large", None, None, "large"), 4),
        (("small", None, "small"), 2),
    ],
)
def test_light_shadow_size_pictures(pieces: tuple[str | None, ...], expected: int):
    assert light_points(row(*pieces), "W") == expected


def test_lgt_1_shadows_point_away_from_the_sun():
    pair = {(4, 4): "small", (5, 4): "small"}  # (4,4) is north of (5,4)
    assert light_points(pair, "N") == 1  # the northern tree shades the southern one
    assert light_points(pair, "S") == 1  # the southern tree shades the northern one
    assert light_points(pair, "E") == 2 and light_points(pair, "W") == 2  # side by side
    pair = {(4, 4): "small", (4, 5): "large"}
    assert light_points(pair, "W") == 3  # small does not shade the larger tree
    assert light_points(pair, "E") == 2  # the large tree (east) shades the small one


def test_lgt_2_only_trees_cast_and_cells_count_for_distance():
    for blocker in ("sprout", "bush", "lake"):
        assert light_points(row("small", blocker, "small"), "W") == 2
        assert light_points(row(blocker, "small"), "W") == 1
    # a crack is an ordinary cell: a large tree's shadow passes over it
    assert light_points(row("large", None, "large"), "W", frozenset({(0, 1)})) == 2
    assert light_points(row("large", None, None, "small"), "W") == 3


def test_lgt_3_equal_or_greater_shades_and_a_shaded_tree_casts():
    assert light_points(row("small", "small"), "W") == 1
    assert light_points(row("small", "large"), "W") == 3
    assert light_points(row("large", "large", None, "large"), "W") == 2
    assert light_points(row("small", "small", "small"), "W") == 1


def test_lgt_4_points_per_lit_tree():
    assert light_points(row("small"), "N") == 1
    assert light_points(row("large"), "N") == 2
    assert light_points(row("sprout", "bush", "lake"), "N") == 0
    assert light_points({}, "E") == 0


def test_light_rejects_unknown_pieces_and_sides():
    with pytest.raises(ValueError):
        light_points(row("tree"), "N")
    with pytest.raises(ValueError):
        light_points(row("small"), "north")
    with pytest.raises(ValueError):
        light_points({(2, 3): "sprout"}, "N", CRACKS)


FOREST: Board = {
    (3, 3): "small", (3, 4): "large", (4, 4): "bush", (4, 5): "large", (5, 5): "small",
    (1, 1): "large", (2, 1): "small", (3, 1): "small",
    (6, 1): "small", (6, 2): "large",
    (6, 4): "large", (7, 4): "small",
    (6, 3): "sprout",
}  # fmt: skip


def test_for_rulebook_biggest_forest():
    assert largest_forest(FOREST) == 5
    joined = {**FOREST, (3, 2): "bush"}
    assert largest_forest(joined) == 9
    joined[(6, 3)] = "small"
    assert largest_forest(joined) == 9
    joined[(5, 4)] = "bush"
    assert largest_forest(joined) == 15
    assert largest_forest({**FOREST, (3, 2): "lake"}) == 5


def test_for_1_orthogonal_groups_of_trees_and_bushes():
    assert largest_forest({(0, 0): "small", (1, 1): "large"}) == 1  # diagonal: two forests
    assert largest_forest({(0, 0): "small", (0, 1): "sprout", (0, 2): "small"}) == 1
    assert largest_forest({(0, 0): "small", (0, 1): "lake", (0, 2): "small"}) == 1
    assert largest_forest({(0, 0): "bush", (0, 1): "bush", (1, 1): "large"}) == 3
    with pytest.raises(ValueError):
        largest_forest({(0, 0): "rock"})


def test_for_2_largest_forest_size():
    assert largest_forest({}) == 0
    assert largest_forest({(0, 0): "sprout", (0, 1): "lake"}) == 0
    assert largest_forest({(0, 0): "small", (5, 5): "large", (5, 6): "bush"}) == 2


def test_fin_1_rulebook_final_scoring_miguel():
    fertility = {"snow": 0, "swamp": 0, "rock": 3, "flowers": 5, "wheat": 5, "meadow": 2}
    board: Board = {
        (0, 4): "large",
        (2, 7): "large",
        (6, 1): "large",
        (7, 4): "large", (7, 6): "large", (8, 5): "large", (6, 7): "large",
        (3, 4): "large", (5, 4): "large",
        (3, 0): "small", (4, 0): "sprout",
    }  # fmt: skip
    assert fertility_points(board, PLANET, fertility) == 29


def test_fertility_points_missing_cells_and_biomes_add_zero():
    assert fertility_points({(20, 20): "large"}, PLANET, {"snow": 3}) == 0
    assert fertility_points({(0, 4): "large"}, PLANET, {"rock": 3}) == 0
    assert fertility_points({(0, 4): "small"}, PLANET, {"snow": 3}) == 0
    with pytest.raises(ValueError):
        fertility_points({(0, 4): "huge"}, PLANET, {"snow": 3})
