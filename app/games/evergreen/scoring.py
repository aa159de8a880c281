"""Evergreen scoring: the three pure functions of spec §4 (no state, any integer coordinates).

- :func:`light_points` — LGT-1…4 (light from side ``sun``; shadows by coordinate offsets only,
  so cracks are ordinary cells for shadows and never change the result).
- :func:`largest_forest` — FOR-1…2 (largest orthogonally connected group of small/large/bush).
- :func:`fertility_points` — FIN-1 (Σ over large trees of their biome's fertility).

``board`` maps ``(row, col)`` to a piece id; absent cells are empty. An unknown piece string or
sun side raises :class:`ValueError`; so does a piece on one of the ``cracks`` (EFF-3).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from app.games.evergreen.data import PIECES, SUN_SIDES

Cell = tuple[int, int]

#: LGT-1: the step from a cell to the next cell in the shadow direction, per sun side.
SHADOW_STEP: dict[str, Cell] = {"N": (1, 0), "S": (-1, 0), "E": (0, -1), "W": (0, 1)}
#: LGT-2/4: shadow length = light points = size (small 1, large 2).
TREE_SIZE: dict[str, int] = {"small": 1, "large": 2}
#: FOR-1: pieces that make forests.
FOREST_PIECES = frozenset({"small", "large", "bush"})
_NEIGHBOURS: tuple[Cell, ...] = ((-1, 0), (1, 0), (0, -1), (0, 1))


def _check_pieces(board: Mapping[Cell, str]) -> None:
    for cell, piece in board.items():
        if piece not in PIECES:
            raise ValueError(f"unknown piece {piece!r} at {cell}")


def light_points(
    board: dict[tuple[int, int], str],
    sun: str,
    cracks: frozenset[tuple[int, int]] = frozenset(),
) -> int:
    """Light points of ``board`` with the light coming from ``sun`` (LGT-1…4).

    A tree is shaded iff a tree of equal or greater size has it inside its shadow (small: next
    1 cell, large: next 2 cells away from the sun); each lit small tree gives 1, each lit large
    tree 2. Sprouts, bushes and lakes neither collect light nor cast or block shadows.
    """
    for cell in cracks:
        if cell in board:
            raise ValueError(f"a piece ({board[cell]}) is on the crack {cell}")
    return sum(TREE_SIZE[board[cell]] for cell, lit in lit_trees(board, sun).items() if lit)


def lit_trees(board: Mapping[Cell, str], sun: str) -> dict[Cell, bool]:
    """Every tree of ``board`` and whether it is lit with the light from ``sun`` (LGT-1…3).

    A tree is shaded iff a tree of equal or greater size has it inside its shadow; the season
    scoring panel draws this, and :func:`light_points` counts it.
    """
    if sun not in SUN_SIDES:
        raise ValueError(f"unknown sun side {sun!r}; expected one of {', '.join(SUN_SIDES)}")
    _check_pieces(board)
    dr, dc = SHADOW_STEP[sun]
    lit: dict[Cell, bool] = {}
    for (r, c), piece in board.items():
        size = TREE_SIZE.get(piece)
        if size is None:
            continue
        shaded = False
        for distance in (1, 2):
            caster = board.get((r - distance * dr, c - distance * dc))
            other = TREE_SIZE.get(caster) if caster is not None else None
            if other is not None and other >= distance and other >= size:
                shaded = True
                break
        lit[(r, c)] = not shaded
    return lit


def forests(board: Mapping[Cell, str]) -> list[frozenset[Cell]]:
    """Every forest of ``board`` (FOR-1), largest first."""
    _check_pieces(board)
    todo = {cell for cell, piece in board.items() if piece in FOREST_PIECES}
    groups: list[frozenset[Cell]] = []
    while todo:
        start = todo.pop()
        group = {start}
        stack = [start]
        while stack:
            r, c = stack.pop()
            for dr, dc in _NEIGHBOURS:
                nxt = (r + dr, c + dc)
                if nxt in todo:
                    todo.remove(nxt)
                    group.add(nxt)
                    stack.append(nxt)
        groups.append(frozenset(group))
    groups.sort(key=len, reverse=True)
    return groups


def largest_forest(board: dict[tuple[int, int], str]) -> int:
    """FOR-2: the number of pieces in the largest forest (0 if there is none)."""
    groups = forests(board)
    return len(groups[0]) if groups else 0


def fertility_points(
    board: dict[tuple[int, int], str],
    biome_of: dict[tuple[int, int], str],
    fertility: dict[str, int],
) -> int:
    """FIN-1: Σ over cells holding a large tree of the fertility of the cell's biome.

    Large trees on cells missing from ``biome_of`` or in biomes missing from ``fertility``
    add 0.
    """
    _check_pieces(board)
    total = 0
    for cell, piece in board.items():
        if piece == "large":
            biome = biome_of.get(cell)
            if biome is not None:
                total += fertility.get(biome, 0)
    return total


def large_trees_by_biome(
    board: Mapping[Cell, str], biome_of: Mapping[Cell, str], biomes: Iterable[str]
) -> dict[str, int]:
    """The number of large trees per biome (the rulebook's final-scoring table, FIN-1)."""
    counts = {biome: 0 for biome in biomes}
    for cell, piece in board.items():
        biome = biome_of.get(cell)
        if piece == "large" and biome in counts:
            counts[biome] += 1
    return counts
