"""Every game's views are type-stable (app/realtime/diff.py ``view_diff``): wherever a view
holds a number or a boolean, it holds that one JSON type — integer, fraction or boolean — at
every version and for every seat, items of one list alike. The socket diff compares two
versions with ``==``, which says ``1 == 1.0 == True``: a place that held ``1`` and then
``true`` would go unpatched.

For every game and player count, a whole random game: each version's view for every seat and
for a spectator (on long games, every third version).
"""

from __future__ import annotations

from typing import Any

import pytest

from app.games.base import GameSpec
from app.realtime.diff import diff, view_diff
from tests.games.test_contract import CASES, playout


def kind(value: Any) -> str | None:
    """The JSON type of a number or boolean; None for anything else."""
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int):
        return "integer"
    if isinstance(value, float):
        return "fraction"
    return None


def record(value: Any, place: str, kinds: dict[str, set[str]]) -> None:
    """The kind at each place of ``value``; list items share their list's place (``*``)."""
    if isinstance(value, dict):
        for key, item in value.items():
            record(item, f"{place}/{key}", kinds)
    elif isinstance(value, list | tuple):
        for item in value:
            record(item, f"{place}/*", kinds)
    else:
        found = kind(value)
        if found is not None:
            kinds.setdefault(place, set()).add(found)


@pytest.mark.parametrize(("game", "players"), CASES)
def test_every_place_of_a_view_keeps_one_json_type(game: GameSpec, players: int) -> None:
    _, states = playout(game, players, seed=31)
    stride = 1 if len(states) < 600 else 3
    kinds: dict[str, set[str]] = {}
    for state in states[::stride]:
        for seat in (None, *range(players)):
            record(game.view(state, seat), "", kinds)
    mixed = {place: sorted(found) for place, found in kinds.items() if len(found) > 1}
    assert not mixed, f"{game.id}: places holding more than one JSON type: {mixed}"


def test_the_view_diff_relies_on_type_stability() -> None:
    """What the check above guards against: between documents that are not type-stable the
    view diff misses a change of type that the exact diff sees."""
    old, new = {"seen": [1, 2]}, {"seen": [True, 2]}
    assert view_diff(old, new) == []
    assert diff(old, new) == [{"op": "replace", "path": "/seen/0", "value": True}]
