"""The Arboretum bot plays sensibly from its own view: it beats a random player, keeps the high
cards of the species it builds, keeps a 1 that may cancel an opponent's 8, draws and plays to
grow its paths, and stays fast."""

from __future__ import annotations

import copy
import random
import time
from typing import Any

from app.games.arboretum import GAME
from app.games.arboretum import rules as R
from app.games.arboretum.bot import bot_move
from app.games.arboretum.rules import ArboretumState

SIX = ["cassia", "jacaranda", "olive", "maple", "oak", "willow"]


def make(
    hands: list[list[tuple[str, int]]],
    *,
    arboreta: list[list[tuple[tuple[int, int], tuple[str, int]]]],
    discards: list[list[tuple[str, int]]] | None = None,
    step: str,
    deck: list[tuple[str, int]] | None = None,
) -> ArboretumState:
    return R.load(
        {
            "seed": 1,
            "species": SIX,
            "deck": [list(c) for c in (deck or [("cassia", 8), ("olive", 8), ("maple", 8)])],
            "hands": [[list(c) for c in hand] for hand in hands],
            "arboreta": [[[list(cell), list(card)] for cell, card in p] for p in arboreta],
            "discards": [[list(c) for c in pile] for pile in (discards or [[], []])],
            "turn": 0,
            "step": step,
            "draws_left": 2 if step == "draw" else 0,
        }
    )


def bot_choice(state: ArboretumState) -> dict[str, Any]:
    view = GAME.view(state, 0)
    legal = GAME.legal_moves(state, 0)
    move = bot_move(view, legal, random.Random(0))
    assert move in legal
    return move


# The bot's arboretum: a run of oaks it is building.
OAK_RUN = [((0, 0), ("oak", 1)), ((0, 1), ("oak", 3)), ((0, 2), ("oak", 4))]
# The opponent builds willow.
WILLOWS = [((0, 0), ("willow", 2)), ((0, 1), ("willow", 3)), ((1, 1), ("willow", 5))]


def test_bot_beats_a_random_player() -> None:
    games, wins = 100, 0
    for game in range(games):
        bot_seat = game % 2
        rng = random.Random(game)
        state = GAME.setup(2, GAME.Options(), game)
        while GAME.active_seats(state):
            seat = state.turn
            legal = GAME.legal_moves(state, seat)
            if seat == bot_seat:
                move = bot_move(GAME.view(state, seat), legal, rng)
            else:
                move = rng.choice(legal)
            state = GAME.apply(state, seat, move)
        final = GAME.result(state)
        assert final is not None
        wins += final.winners == (bot_seat,)
    print(f"bot won {wins} of {games} two-player games against a random player")
    assert wins >= 80


def test_bot_keeps_a_high_card_of_the_species_it_builds() -> None:
    hand = [("oak", 7), ("cassia", 2), ("cassia", 5), ("olive", 3), ("maple", 2), ("maple", 6)]
    hand += [("jacaranda", 3), ("jacaranda", 4)]
    state = make([hand, []], arboreta=[OAK_RUN, WILLOWS], step="discard")
    assert bot_choice(state)["card"] != ["oak", 7]


def test_bot_discards_an_unneeded_high_card_rather_than_one_of_its_species() -> None:
    state = make([[("oak", 7), ("maple", 7)], []], arboreta=[OAK_RUN, WILLOWS], step="discard")
    assert bot_choice(state) == {"type": "discard", "card": ["maple", 7]}


def test_bot_keeps_a_1_while_the_8_of_its_species_is_unaccounted_for() -> None:
    # The willow 8 is nowhere in sight: an opponent building willow may hold it; the 1 cancels it.
    state = make([[("willow", 1), ("maple", 5)], []], arboreta=[OAK_RUN, WILLOWS], step="discard")
    assert bot_choice(state) == {"type": "discard", "card": ["maple", 5]}
    # Once the willow 8 is face up in a discard pile, that 1 is just a low card.
    state = make(
        [[("willow", 1), ("maple", 5)], []],
        arboreta=[OAK_RUN, WILLOWS],
        discards=[[], [("willow", 8)]],
        step="discard",
    )
    assert bot_choice(state) == {"type": "discard", "card": ["willow", 1]}


def test_bot_takes_a_discard_top_that_helps_its_path() -> None:
    hand = [("cassia", 2), ("olive", 3), ("maple", 2), ("jacaranda", 3), ("cassia", 5)]
    helpful = make(
        [hand, []], arboreta=[OAK_RUN, WILLOWS], discards=[[], [("oak", 5)]], step="draw"
    )
    assert bot_choice(helpful) == {"type": "draw", "source": 1}
    useless = make(
        [hand, []], arboreta=[OAK_RUN, WILLOWS], discards=[[], [("maple", 4)]], step="draw"
    )
    assert bot_choice(useless) == {"type": "draw", "source": "deck"}


def test_bot_plays_to_extend_an_increasing_run() -> None:
    hand = [("oak", 5), ("cassia", 2), ("olive", 3), ("maple", 2), ("jacaranda", 3)]
    state = make([hand, []], arboreta=[OAK_RUN, WILLOWS], step="play")
    move = bot_choice(state)
    assert move["card"] == ["oak", 5]
    after = R.apply(state, 0, move)
    # 1-3-4-5, all oaks, from a 1: 4 + 4 + 1.
    assert R.best_path_score(dict(after.arboreta[0]), "oak") == 9


def test_bot_starts_a_path_with_its_first_card() -> None:
    hand = [("oak", 2), ("oak", 6), ("cassia", 7), ("olive", 8), ("maple", 5)]
    state = make([hand, []], arboreta=[[], []], step="play")
    move = bot_choice(state)
    assert move["cell"] == [0, 0]
    assert move["card"][0] == "oak"


def test_bot_reads_only_its_view_and_changes_nothing() -> None:
    state = GAME.setup(3, GAME.Options(), 4)
    view = GAME.view(state, 0)
    legal = GAME.legal_moves(state, 0)
    view_copy, legal_copy = copy.deepcopy(view), copy.deepcopy(legal)
    bot_move(view, legal, random.Random(1))
    assert view == view_copy and legal == legal_copy
    # Two states differing only in hidden cards give the same view, hence the same move.
    other = R.load({**R.dump(state), "deck": list(reversed(R.dump(state)["deck"]))})
    assert GAME.view(other, 0) == view
    assert bot_move(GAME.view(other, 0), legal, random.Random(1)) == \
        bot_move(view, legal, random.Random(1))


def test_bot_is_fast_and_always_legal() -> None:
    elapsed, moves = 0.0, 0
    for players in (2, 3, 4):
        for game in range(3):
            rng = random.Random(game)
            state = GAME.setup(players, GAME.Options(), game)
            while GAME.active_seats(state):
                seat = state.turn
                legal = GAME.legal_moves(state, seat)
                view = GAME.view(state, seat)
                start = time.perf_counter()
                move = bot_move(view, legal, rng)
                elapsed += time.perf_counter() - start
                moves += 1
                assert move in legal
                state = GAME.apply(state, seat, move)
    mean_ms = 1000 * elapsed / moves
    print(f"bot: {mean_ms:.2f} ms per move over {moves} moves")
    assert mean_ms < 2.0
