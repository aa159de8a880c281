"""Every registered game declares ``score`` (GameSpec.score): each seat's score as the game
stands, for the score timeline of a replay and for ranking a game ended by a clock.

For every game and every player count it allows, whole games from several seeds (random
moves, and one bot-vs-bot game): at every version the score is one ``int`` per seat, reading
it changes nothing, a state rebuilt from its dump scores the same, and the last version's
score is exactly the result's scores (the timeline ends on the final score). The bots' games
show scores that change along the way.
"""

from __future__ import annotations

import pytest

from app.games.base import GameSpec, seeded_rng
from app.games.registry import GAMES
from tests.games.test_contract import CASES, playout

SEEDS = (11, 12, 13)


@pytest.mark.parametrize("game", [pytest.param(g, id=gid) for gid, g in sorted(GAMES.items())])
def test_every_game_declares_a_score(game: GameSpec) -> None:
    assert game.score is not None, f"{game.id} declares no score"
    assert callable(game.score)


def check_scores(game: GameSpec, players: int, states: list) -> None:
    """The score of every version: one int per seat, pure, the same after dump/load, and the
    result's scores at the end."""
    assert game.score is not None
    for version, state in enumerate(states):
        before = game.dump(state)
        score = game.score(state)
        assert game.dump(state) == before, f"score changed the state at version {version}"
        assert isinstance(score, tuple), f"score is a {type(score).__name__}, not a tuple"
        assert len(score) == players, f"{len(score)} scores for {players} seats"
        assert all(type(s) is int for s in score), f"not all ints at version {version}: {score}"
        assert game.score(game.load(before)) == score, "a loaded state scores differently"
        # Read only from what everyone sees: a spectator's twin of the state (the hidden
        # parts redealt, app.games.base conceal) scores the same, so a replay's score line
        # tells nothing hidden.
        twin = game.conceal(state, None, seeded_rng("score twin", version))
        assert game.score(twin) == score, f"the score reads hidden cards at version {version}"
    final = states[-1]
    result = game.result(final)
    assert result is not None, "the playout reached the end of the game"
    assert game.score(final) == tuple(result.scores), "the timeline ends on the final score"
    assert game.result(states[0]) is None, "the first version is not already the end"


@pytest.mark.parametrize(("game", "players"), CASES)
@pytest.mark.parametrize("seed", SEEDS)
def test_random_games_score_every_version_and_end_on_the_result(
    game: GameSpec, players: int, seed: int
) -> None:
    _, states = playout(game, players, seed=seed)
    check_scores(game, players, states)


@pytest.mark.parametrize(("game", "players"), CASES)
def test_bot_games_score_every_version_and_end_on_the_result(
    game: GameSpec, players: int
) -> None:
    """Bots play on purpose, so their games also show a timeline worth drawing: the scores
    change between the deal and the end."""
    _, states = playout(game, players, seed=players + 100, bots=True)
    check_scores(game, players, states)
    assert game.score is not None
    assert len({game.score(state) for state in states}) > 1, "the scores never changed"
