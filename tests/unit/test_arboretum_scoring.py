"""Arboretum scoring: the right to score and the paths (rulebook "Puntuación de los caminos",
pages 6-7; spec §Scoring and its rulebook examples)."""

from __future__ import annotations

import itertools

from hypothesis import given, settings
from hypothesis import strategies as st

from app.games.arboretum.data import SPECIES
from app.games.arboretum.rules import (
    ArboretumState,
    best_path,
    best_path_score,
    frontier_of,
    result,
    scoring_rights,
)

# --- the rulebook's example (3 players: Carlos, Juan, María) -------------------------------------

CARLOS = [
    ("jacaranda", 7),
    ("lilac", 6),
    ("lilac", 7),
    ("oak", 3),
    ("oak", 8),
    ("royal_poinciana", 1),
    ("royal_poinciana", 5),
]
JUAN = [
    ("jacaranda", 2),
    ("jacaranda", 5),
    ("lilac", 4),
    ("lilac", 5),
    ("royal_poinciana", 3),
    ("willow", 7),
    ("cassia", 6),
]
MARIA = [
    ("cassia", 5),
    ("oak", 2),
    ("oak", 7),
    ("royal_poinciana", 8),
    ("willow", 1),
    ("willow", 3),
    ("willow", 8),
]
EXAMPLE_SPECIES = ["cassia", "jacaranda", "lilac", "royal_poinciana", "oak", "willow"]
CARLOS_SEAT, JUAN_SEAT, MARIA_SEAT = 0, 1, 2


def test_rulebook_rights_example() -> None:
    rights = scoring_rights([CARLOS, JUAN, MARIA], EXAMPLE_SPECIES)
    assert rights == {
        "jacaranda": {CARLOS_SEAT, JUAN_SEAT},  # 7 = 2 + 5: a tie, both score
        "lilac": {CARLOS_SEAT},  # 13 against Juan's 9: Carlos keeps Juan from scoring lilac
        "oak": {CARLOS_SEAT},  # 11 against María's 9
        "royal_poinciana": {CARLOS_SEAT},  # 6, Juan 3, María 0 (her 8 against Carlos's 1)
        "cassia": {JUAN_SEAT},  # 6 against María's 5
        "willow": {MARIA_SEAT},  # 12 against Juan's 7
    }
    by_seat = {seat: {s for s, seats in rights.items() if seat in seats} for seat in range(3)}
    assert by_seat[CARLOS_SEAT] == {"jacaranda", "lilac", "oak", "royal_poinciana"}
    assert by_seat[JUAN_SEAT] == {"jacaranda", "cassia"}
    assert by_seat[MARIA_SEAT] == {"willow"}


def test_rights_default_to_all_ten_species_and_unheld_species_go_to_everyone() -> None:
    rights = scoring_rights([CARLOS, JUAN, MARIA])
    assert list(rights) == list(SPECIES)
    for kind in ("dogwood", "olive", "magnolia", "maple"):
        assert rights[kind] == {0, 1, 2}
    assert rights["lilac"] == {CARLOS_SEAT}


def test_rights_accept_json_cards() -> None:
    hands = [[list(card) for card in hand] for hand in (CARLOS, JUAN, MARIA)]
    assert scoring_rights(hands, EXAMPLE_SPECIES) == scoring_rights(
        [CARLOS, JUAN, MARIA], EXAMPLE_SPECIES
    )


def test_the_8_counts_zero_against_an_opponents_1() -> None:
    # María's 8 alone would beat Carlos's 1 + 5; against his 1 it counts 0.
    assert scoring_rights([[("oak", 1), ("oak", 5)], [("oak", 8)]], ["oak"]) == {"oak": {0}}
    # Without the 1 in an opponent's hand, the 8 counts 8.
    assert scoring_rights([[("oak", 2), ("oak", 5)], [("oak", 8)]], ["oak"]) == {"oak": {1}}
    # The 1 always counts 1: an 8 (as 0) against a lone 1 loses.
    assert scoring_rights([[("oak", 1)], [("oak", 8)]], ["oak"]) == {"oak": {0}}


def test_the_8_keeps_its_value_when_its_owner_also_holds_the_1() -> None:
    # 1 + 8 = 9 beats 7 (were the 8 worth 0, 1 would lose).
    assert scoring_rights([[("oak", 1), ("oak", 8)], [("oak", 7)]], ["oak"]) == {"oak": {0}}
    hands = [[("oak", 1), ("oak", 8)], [("oak", 7), ("oak", 3)]]
    assert scoring_rights(hands, ["oak"]) == {"oak": {1}}  # 10 beats 9


def test_the_8_counts_zero_against_any_opponent_holding_the_1() -> None:
    hands = [[("oak", 8)], [("oak", 2)], [("oak", 1)]]
    assert scoring_rights(hands, ["oak"]) == {"oak": {1}}


def test_ties_all_win_the_right() -> None:
    hands = [[("maple", 7)], [("maple", 3), ("maple", 4)], [("maple", 6)]]
    assert scoring_rights(hands, ["maple"]) == {"maple": {0, 1}}


def test_nobody_holding_a_species_gives_everyone_the_right() -> None:
    assert scoring_rights([[], [], [], []], ["willow"]) == {"willow": {0, 1, 2, 3}}
    assert scoring_rights([[("oak", 4)], []], ["willow", "oak"]) == {
        "willow": {0, 1},
        "oak": {0},
    }


# --- the rulebook's path points (Carlos = 19) --------------------------------------------------


def row(*cards: tuple[str, int], r: int = 0) -> dict[tuple[int, int], tuple[str, int]]:
    return {(r, c): card for c, card in enumerate(cards)}


def test_rulebook_oak_path_scores_9() -> None:
    # 4 oaks, starting with a 1, not ending with an 8: 4 + 4 + 1 [A, B, C].
    grid = row(("oak", 1), ("oak", 4), ("oak", 5), ("oak", 6))
    assert best_path_score(grid, "oak") == 9


def test_rulebook_jacaranda_path_scores_7() -> None:
    # 5 cards, not all jacaranda, not starting with a 1, ending with the 8: 5 + 2 [A, D].
    grid = row(("jacaranda", 3), ("maple", 4), ("willow", 5), ("dogwood", 6), ("jacaranda", 8))
    assert best_path_score(grid, "jacaranda") == 7


def test_rulebook_poinciana_path_scores_3() -> None:
    # 3 cards: 3 [A].
    grid = row(("royal_poinciana", 2), ("lilac", 3), ("royal_poinciana", 7))
    assert best_path_score(grid, "royal_poinciana") == 3


# Carlos's arboretum holding the three paths at once (connected, as if really played), with
# none of the cards the example puts in the hands.
CARLOS_ARBORETUM = {
    (0, 0): ("oak", 1),
    (0, 1): ("oak", 4),
    (0, 2): ("oak", 5),
    (0, 3): ("oak", 6),
    (1, 0): ("jacaranda", 3),
    (2, 0): ("maple", 4),
    (3, 0): ("willow", 5),
    (3, 1): ("dogwood", 6),
    (3, 2): ("jacaranda", 8),
    (4, 2): ("royal_poinciana", 2),
    (4, 3): ("lilac", 3),
    (4, 4): ("royal_poinciana", 7),
}


def test_carlos_arboretum_paths_and_total_19() -> None:
    grid = CARLOS_ARBORETUM
    assert best_path(grid, "oak") == (9, [(0, 0), (0, 1), (0, 2), (0, 3)])
    assert best_path(grid, "jacaranda") == (7, [(1, 0), (2, 0), (3, 0), (3, 1), (3, 2)])
    assert best_path(grid, "royal_poinciana") == (3, [(4, 2), (4, 3), (4, 4)])
    for kind in ("lilac", "maple", "dogwood", "willow", "cassia"):
        assert best_path_score(grid, kind) == 0
    assert sum(best_path_score(grid, s) for s in ("jacaranda", "oak", "royal_poinciana")) == 19


def test_carlos_final_score_is_19_in_a_finished_game() -> None:
    species = tuple(s for s in SPECIES if s not in ("olive", "magnolia"))  # 8 for 3 players
    plantings = tuple(CARLOS_ARBORETUM.items())
    state = ArboretumState(
        seed=0,
        species=species,
        deck=(),
        hands=(tuple(CARLOS), tuple(JUAN), tuple(MARIA)),
        arboreta=(plantings, (), ()),
        discards=((), (), ()),
        turn=2,
        step="over",
        draws_left=0,
        frontiers=(frontier_of(plantings), frontier_of(()), frontier_of(())),
    )
    final = result(state)
    assert final is not None
    assert final.scores == (19, 0, 0)
    assert final.winners == (0,)
    details = final.details
    assert details["rights"]["lilac"] == [0]
    assert details["rights"]["maple"] == [0, 1, 2]  # nobody holds maple
    carlos = details["paths"][0]
    assert carlos["oak"] == {"score": 9, "cells": [[0, 0], [0, 1], [0, 2], [0, 3]]}
    assert carlos["jacaranda"]["score"] == 7
    assert carlos["royal_poinciana"]["score"] == 3
    assert carlos["lilac"] == {"score": 0, "cells": []}  # the right without a path
    assert set(carlos) == {"dogwood", "jacaranda", "lilac", "maple", "royal_poinciana", "oak"}
    assert set(details["paths"][2]) == {"dogwood", "maple", "willow"}
    assert details["species_counts"] == [7, 0, 0]


# --- path rules one by one ---------------------------------------------------------------------


def test_values_must_strictly_increase() -> None:
    assert best_path_score(row(("oak", 2), ("maple", 2), ("oak", 5)), "oak") == 0
    assert best_path_score(row(("oak", 2), ("maple", 6), ("oak", 5)), "oak") == 0
    assert best_path_score(row(("oak", 2), ("maple", 3), ("oak", 5)), "oak") == 3


def test_a_path_may_be_read_from_either_end_of_the_grid() -> None:
    # The values decrease from left to right: the path runs right to left.
    assert best_path(row(("oak", 7), ("maple", 4), ("oak", 2)), "oak") == (
        3,
        [(0, 2), (0, 1), (0, 0)],
    )


def test_adjacency_is_orthogonal_only() -> None:
    diagonal = {(0, 0): ("oak", 2), (1, 1): ("oak", 5)}
    assert best_path_score(diagonal, "oak") == 0
    bent = {(0, 0): ("oak", 2), (1, 0): ("maple", 3), (1, 1): ("oak", 5)}
    assert best_path_score(bent, "oak") == 3


def test_first_and_last_cards_must_be_of_the_species() -> None:
    assert best_path_score(row(("maple", 1), ("oak", 2), ("oak", 3)), "oak") == 2
    assert best_path_score(row(("oak", 2), ("oak", 3), ("maple", 8)), "oak") == 2
    assert best_path_score(row(("maple", 1), ("oak", 2), ("maple", 8)), "oak") == 0


def test_a_path_has_at_least_two_cards() -> None:
    assert best_path(row(("oak", 1)), "oak") == (0, [])
    assert best_path(row(("oak", 8), ("maple", 1)), "oak") == (0, [])
    assert best_path_score({}, "oak") == 0
    assert best_path_score(row(("oak", 7), ("oak", 8)), "oak") == 4  # 2 cards + 2 for the 8


def test_bonus_per_card_needs_four_cards() -> None:
    assert best_path_score(row(("oak", 2), ("oak", 3), ("oak", 4)), "oak") == 3
    assert best_path_score(row(("oak", 2), ("oak", 3), ("oak", 4), ("oak", 6)), "oak") == 8


def test_bonus_per_card_needs_every_card_of_the_species() -> None:
    grid = row(("oak", 2), ("oak", 3), ("maple", 4), ("oak", 6))
    assert best_path_score(grid, "oak") == 4
    grid = row(("oak", 2), ("oak", 3), ("maple", 4), ("oak", 6), ("oak", 7))
    assert best_path_score(grid, "oak") == 5


def test_start_with_1_and_end_with_8_bonuses() -> None:
    assert best_path_score(row(("oak", 1), ("oak", 5)), "oak") == 3
    assert best_path_score(row(("oak", 2), ("oak", 8)), "oak") == 4
    assert best_path_score(row(("oak", 1), ("maple", 4), ("oak", 8)), "oak") == 6
    full = row(*[("oak", v) for v in range(1, 9)])
    assert best_path_score(full, "oak") == 8 + 8 + 1 + 2  # the longest path: 19


def test_pure_path_may_beat_a_longer_mixed_path_and_vice_versa() -> None:
    # A pure 4-card path (8 points) against a 5-card mixed one (5 points) from the same start.
    grid = {
        (0, 0): ("oak", 2),
        (0, 1): ("oak", 3),
        (0, 2): ("oak", 4),
        (0, 3): ("oak", 5),
        (1, 0): ("maple", 3),
        (2, 0): ("maple", 4),
        (3, 0): ("maple", 5),
        (4, 0): ("maple", 6),
        (4, 1): ("oak", 7),
    }
    assert best_path(grid, "oak") == (8, [(0, 0), (0, 1), (0, 2), (0, 3)])
    # Only 3 oaks in a row: the mixed path of 6 cards wins.
    del grid[(0, 3)]
    assert best_path(grid, "oak") == (6, [(0, 0), (1, 0), (2, 0), (3, 0), (4, 0), (4, 1)])


def test_a_card_may_be_used_in_paths_of_several_species() -> None:
    # The maple 5 in the middle serves an oak path, a willow path and is the end of a maple one.
    grid = {
        (0, 0): ("oak", 2),
        (0, 1): ("maple", 5),
        (0, 2): ("oak", 7),
        (1, 1): ("willow", 3),
        (-1, 1): ("willow", 8),
        (0, -1): ("maple", 1),
    }
    assert best_path(grid, "oak") == (3, [(0, 0), (0, 1), (0, 2)])
    assert best_path(grid, "willow") == (5, [(1, 1), (0, 1), (-1, 1)])
    assert best_path(grid, "maple") == (4, [(0, -1), (0, 0), (0, 1)])


def test_negative_coordinates_are_fine() -> None:
    grid = {(-5, -7): ("lilac", 1), (-5, -6): ("lilac", 2)}
    assert best_path(grid, "lilac") == (3, [(-5, -7), (-5, -6)])


def test_best_path_accepts_json_shaped_cards() -> None:
    grid = {(0, 0): ["oak", 1], (0, 1): ["oak", 5]}
    assert best_path_score(grid, "oak") == 3


# --- the dynamic programme against brute force ---------------------------------------------------


def brute_force(grid: dict[tuple[int, int], tuple[str, int]], species: str) -> int:
    """Every increasing path, enumerated: the definition, spelled out slowly."""
    best = 0

    def walk(path: list[tuple[int, int]]) -> None:
        nonlocal best
        cards = [grid[c] for c in path]
        if len(path) >= 2 and cards[-1][0] == species:
            n = len(path)
            points = n
            if n >= 4 and all(s == species for s, _ in cards):
                points += n
            points += 1 if cards[0][1] == 1 else 0
            points += 2 if cards[-1][1] == 8 else 0
            best = max(best, points)
        r, c = path[-1]
        for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1)):
            nxt = (r + dr, c + dc)
            if nxt in grid and grid[nxt][1] > cards[-1][1]:
                walk([*path, nxt])

    for cell, (s, _) in grid.items():
        if s == species:
            walk([cell])
    return best


def path_value(grid: dict[tuple[int, int], tuple[str, int]], species: str, cells: list) -> int:
    cards = [grid[c] for c in cells]
    n = len(cells)
    points = n + (n if n >= 4 and all(s == species for s, _ in cards) else 0)
    return points + (cards[0][1] == 1) + 2 * (cards[-1][1] == 8)


ALL_CARDS = [(s, v) for s in ("oak", "maple", "willow") for v in range(1, 9)]
CELLS = list(itertools.product(range(4), range(4)))


@settings(max_examples=300, deadline=None)
@given(
    st.lists(st.sampled_from(ALL_CARDS), min_size=0, max_size=16, unique=True),
    st.permutations(CELLS),
    st.sampled_from(["oak", "maple", "willow"]),
)
def test_best_path_matches_brute_force(cards, cells, species) -> None:
    grid = dict(zip(cells, cards, strict=False))
    score, path = best_path(grid, species)
    assert score == brute_force(grid, species)
    if score == 0:
        assert path == []
        return
    assert len(path) >= 2
    assert grid[path[0]][0] == species and grid[path[-1]][0] == species
    for a, b in itertools.pairwise(path):
        assert abs(a[0] - b[0]) + abs(a[1] - b[1]) == 1
        assert grid[a][1] < grid[b][1]
    assert path_value(grid, species, path) == score
