"""Evergreen's score as the game stands (rules.score_now): each seat's score track — starting
points (SET-4), bloom (POW-6), light and forest at each season's end (END-2), fertility at
the end of the game (FIN-1) — never what the planet would score if the season ended now."""

from __future__ import annotations

from dataclasses import replace

from app.games.evergreen import GAME, rules
from app.games.evergreen.rules import Options, State, Turn

from .helpers import act_state

DONE = {"type": "done"}

#: PLANET_A of test_flow.py: with the sun in the east (summer) its three trees are lit
#: (2 + 1 + 2 = 5 light) and its largest forest is large (0,4) – small (1,4) – bush (1,5): 3.
PLANET_A = {(0, 4): "large", (1, 4): "small", (1, 5): "bush", (2, 7): "sprout", (6, 1): "large"}
#: With the sun in the east the small tree (4,5) shades the small tree (4,4): 1 + 2 = 3 light;
#: the three trees make one forest: 3.
PLANET_B = {(4, 4): "small", (4, 5): "small", (5, 5): "large"}
#: The rulebook's final scoring example (Miguel): 29 fertility points with the zone below.
MIGUEL = {
    (0, 4): "large", (2, 7): "large", (6, 1): "large", (7, 4): "large", (7, 6): "large",
    (8, 5): "large", (6, 7): "large", (3, 4): "large", (5, 4): "large", (3, 0): "small",
    (4, 0): "sprout",
}  # fmt: skip
MIGUEL_ZONE = ((), (), ((15, True), (14, True)), ((20, True), (23, True), (19, True)),
               ((25, True), (28, True), (27, True)), ((33, True),))  # fmt: skip


def last_round(season: int, players: int, planets: tuple[dict, ...],
               parts: tuple[dict, ...]) -> State:
    """The act phase of the last round of ``season``: every seat holds the season's cards,
    has its planet and the score parts of the seasons before."""
    state = act_state(7, players=players)
    rounds = rules.SEASONS[season][1]
    fronts = tuple(tuple(range(1 + 6 * p, 1 + 6 * p + rounds)) for p in range(len(state.fronts)))
    boards = tuple(replace(board, planet=dict(planets[seat]), **parts[seat])
                   for seat, board in enumerate(state.boards))
    return replace(state, season=season, round=rounds, fronts=fronts,
                   sun=rules.sun_after("N", season), boards=boards,
                   turns=tuple(Turn(origin=board) for board in boards))


def everyone_done(state: State) -> State:
    for seat in sorted(rules.active_seats(state)):
        state = rules.apply(state, seat, DONE)
    return state


def test_the_score_track_in_summer_then_its_season_end() -> None:
    """Summer, last round. Seat 0: starting 0, bloom 3, spring light 4 and forest 3 → 10;
    seat 1: starting 1, spring light 4 and forest 3 → 8. The trees now on the planets do
    not count before the season ends; then seat 0 adds 5 light and 3 forest (18) and
    seat 1 3 light and 3 forest (14)."""
    state = last_round(1, 2, (PLANET_A, PLANET_B), (
        {"start": 0, "bloom": 3, "light": (4,), "forest": (3,)},
        {"start": 1, "bloom": 0, "light": (4,), "forest": (3,)}))
    assert rules.score_now(state) == (10, 8)
    after = everyone_done(state)
    assert after.season == 2 and after.phase != rules.OVER
    assert rules.score_now(after) == (18, 14)
    assert GAME.score is rules.score_now


def test_the_end_adds_winter_light_forest_and_fertility() -> None:
    """Solo, winter's last round, Miguel's planet; starting 0, bloom 2, light 3 + 4 + 5 and
    forest 2 + 3 + 4 so far: 23. Winter's sun is in the west: the large tree (7,4) shades
    the large tree (7,6) two cells away, the other 8 large trees and the small tree are lit
    (16 + 1 = 17); no two trees touch (largest forest 1); fertility 29. 23 + 17 + 1 + 29 = 70,
    the result's score."""
    state = last_round(3, 1, (MIGUEL,), (
        {"start": 0, "bloom": 2, "light": (3, 4, 5), "forest": (2, 3, 4)},))
    state = replace(state, zone=MIGUEL_ZONE)
    assert rules.score_now(state) == (23,)
    over = everyone_done(state)
    assert over.phase == rules.OVER
    result = rules.result(over)
    assert result is not None
    assert rules.score_now(over) == result.scores == (70,)
    assert over.boards[0].light == (3, 4, 5, 17) and over.boards[0].forest == (2, 3, 4, 1)
    assert over.boards[0].fertility == 29


def test_the_deal_shows_the_starting_points() -> None:
    """SET-4: 0, 1, 2, 3 points by turn order from the first player."""
    state = rules.setup(4, Options(), 3)
    first = state.first
    assert rules.score_now(state) == tuple((seat - first) % 4 for seat in range(4))
