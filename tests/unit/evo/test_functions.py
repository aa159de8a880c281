"""The two functions the outside checks call: ``survivors`` and ``attack_wins`` (spec
"Functions the outside checks call"), with the spec's numbers."""

from __future__ import annotations

import pytest

from app.games.evo.data import DIE_FACES
from app.games.evo.rules import attack_wins, survivors


@pytest.mark.parametrize(("d", "wins"), [(-3, 0), (-2, 0), (-1, 1), (0, 2), (1, 4), (2, 5),
                                         (3, 5)])
def test_combat_odds_over_the_six_faces(d, wins):
    attacker, defender = (d, 0) if d >= 0 else (0, -d)
    assert sum(attack_wins(attacker, defender, face) == "win" for face in DIE_FACES) == wins


def test_the_stalemate_face_never_wins():
    assert attack_wins(10, 0, "stalemate") == "stalemate"
    assert attack_wins(0, 10, "stalemate") == "stalemate"


@pytest.mark.parametrize(("attacker", "defender", "face", "outcome"), [
    (0, 0, "0", "win"), (0, 0, "+1", "fail"), (1, 0, "-1", "win"), (2, 1, "+2", "fail"),
])
def test_attack_wins_examples(attacker, defender, face, outcome):
    assert attack_wins(attacker, defender, face) == outcome


@pytest.mark.parametrize("face", ["+3", "1", "", "draw"])
def test_attack_wins_refuses_an_unknown_face(face):
    with pytest.raises(ValueError):
        attack_wins(0, 0, face)


@pytest.mark.parametrize(("args", "expected"), [
    (("hot", 5, 9, 2), 2), (("cold", 3, 1, 0), 1), (("temperate", 4, 0, 0), 4),
    (("deadly", 4, 9, 9), 0), (("cold", 0, 3, 3), 0),
])
def test_survivors_examples(args, expected):
    assert survivors(*args) == expected


@pytest.mark.parametrize("args", [("warm", 1, 0, 0), ("hot", -1, 0, 0), ("cold", 1, -1, 0),
                                  ("hot", 1, 0, -2), ("temperate", 1.0, 0, 0)])
def test_survivors_refuses_unknown_climates_and_negative_numbers(args):
    with pytest.raises(ValueError):
        survivors(*args)
