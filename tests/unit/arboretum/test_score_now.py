"""Arboretum's score as the game stands (rules.score_now): the paths laid out (rulebook
"Puntuación de los caminos") as if every seat kept the right to score them — the hands that
decide those rights are secret until the end — and the result's scores once the game is over.

The hand-built position, 2 players, six species (Ana is seat 0, Bo seat 1)::

    Ana's arboretum                  Bo's arboretum
    Cassia 1  Olive 3  Cassia 5      Jacaranda 2  Jacaranda 4  Jacaranda 6  Jacaranda 8
    Lilac 2   Lilac 7                Dogwood 1    Dogwood 5

    Ana's hand: Cassia 7, Lilac 1, Jacaranda 1, Jacaranda 7, Magnolia 2, Magnolia 6, Olive 6
    Bo's hand:  Cassia 4, Lilac 8, Jacaranda 3, Jacaranda 5, Magnolia 3, Olive 1, Olive 2

During the game, every path counts: Ana's Cassia 1 → Olive 3 → Cassia 5 (3 cards + 1 for the
1 = 4) and Lilac 2 → 7 (2): 6; Bo's four Jacarandas (2 per card + 2 for the 8 = 10) and
Dogwood 1 → Jacaranda 2 → Jacaranda 4 → Dogwood 5 (4 cards + 1 = 5): 15. Olive and Magnolia
have no path.

At the end, who may score each species (the highest sum in hand):
- Cassia: Ana 7 against Bo 4 → Ana: Cassia 1 → Olive 3 → Cassia 5, 3 cards + 1 for the 1 = 4.
- Lilac: Bo's 8 counts 0 because Ana holds the Lilac 1, so Ana (1 against 0) → Lilac 2 → 7 = 2.
- Jacaranda: 1 + 7 = 8 against 3 + 5 = 8, a tie: both score. Bo: 4 Jacarandas in a row,
  2 per card (8) + 2 for ending on the 8 = 10; Ana has none.
- Dogwood: nobody holds one, so everyone scores it. Bo: Dogwood 1 → Jacaranda 2 →
  Jacaranda 4 → Dogwood 5, 4 mixed cards + 1 for the 1 = 5 (better than Dogwood 1 → 5, 3).
- Olive (Ana 6 against 3) and Magnolia (Ana 8 against 3): Ana, with no path of either.

So Ana 4 + 2 = 6 and Bo 10 + 5 = 15.
"""

from __future__ import annotations

from dataclasses import replace

from app.games.arboretum import GAME, rules
from app.games.arboretum.data import SPECIES, VALUES
from app.games.arboretum.rules import ArboretumState

SIX = SPECIES[:6]  # cassia, dogwood, jacaranda, olive, lilac, magnolia

ANA_TREES = {(0, 0): ("cassia", 1), (0, 1): ("olive", 3), (0, 2): ("cassia", 5),
             (1, 0): ("lilac", 2), (1, 1): ("lilac", 7)}
BO_TREES = {(0, 0): ("jacaranda", 2), (0, 1): ("jacaranda", 4), (0, 2): ("jacaranda", 6),
            (0, 3): ("jacaranda", 8), (1, 0): ("dogwood", 1), (1, 1): ("dogwood", 5)}
ANA_HAND = [("cassia", 7), ("lilac", 1), ("jacaranda", 1), ("jacaranda", 7), ("magnolia", 2),
            ("magnolia", 6), ("olive", 6)]
BO_HAND = [("cassia", 4), ("lilac", 8), ("jacaranda", 3), ("jacaranda", 5), ("magnolia", 3),
           ("olive", 1), ("olive", 2)]


def position(ana_hand: list[tuple[str, int]] = ANA_HAND,
             bo_hand: list[tuple[str, int]] = BO_HAND, step: str = "draw") -> ArboretumState:
    """The position above, Ana to draw; every other card of the six species in the deck."""
    used = {*ANA_TREES.values(), *BO_TREES.values(), *ana_hand, *bo_hand}
    deck = [[s, v] for s in SIX for v in VALUES if (s, v) not in used]
    return rules.load({
        "seed": 1, "species": list(SIX), "deck": deck if step != "over" else [],
        "hands": [[list(c) for c in ana_hand], [list(c) for c in bo_hand]],
        "arboreta": [[[list(cell), list(card)] for cell, card in trees.items()]
                     for trees in (ANA_TREES, BO_TREES)],
        "discards": [[], []], "turn": 0, "step": step,
        "draws_left": 2 if step == "draw" else 0, "just_drawn": 0,
    })


def test_during_the_game_every_path_laid_out_counts() -> None:
    state = position()
    assert not state.over and rules.result(state) is None
    assert rules.score_now(state) == (6, 15)
    assert GAME.score is rules.score_now


def test_the_hands_do_not_move_the_score_during_the_game() -> None:
    """Bo draws the Cassia 6, which would take the Cassia right from Ana at the end; Ana's
    Lilac 1 swapped for the Lilac 3 would let Bo's 8 count. Neither shows before the end."""
    drawn = position(bo_hand=[*BO_HAND, ("cassia", 6)])
    swapped = [("lilac", 3) if card == ("lilac", 1) else card for card in ANA_HAND]
    assert rules.score_now(drawn) == rules.score_now(position(ana_hand=swapped)) == (6, 15)


def test_at_the_end_it_is_the_result_with_the_rights_applied() -> None:
    over = position(step="over")
    result = rules.result(over)
    assert result is not None
    assert rules.score_now(over) == result.scores == (6, 15)
    swapped = [("lilac", 3) if card == ("lilac", 1) else card for card in ANA_HAND]
    over = position(ana_hand=swapped, step="over")
    assert rules.score_now(over) == (4, 15)  # Bo's 8 takes the Lilac right: Ana loses 2


def test_a_fresh_deal_scores_nothing_and_reading_changes_nothing() -> None:
    state = rules.setup(4, seed=5)
    before = rules.dump(state)
    assert rules.score_now(state) == (0, 0, 0, 0)
    assert rules.dump(state) == before
    planted = (((0, 0), state.hands[0][0]),)
    one_tree = replace(state, arboreta=(planted, *state.arboreta[1:]),
                       hands=(state.hands[0][1:], *state.hands[1:]))
    assert rules.score_now(one_tree) == (0, 0, 0, 0)  # a path needs 2 cards
