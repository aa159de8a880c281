"""The Mycelia bot: always legal, answers every prompt (a bonus on its own board included),
plays sensibly, beats a random player and plays the solo game against Gwidyon."""

from __future__ import annotations

import random
import time
from collections import Counter

import pytest

from app.games.base import Move
from app.games.mycelia import rules, views
from app.games.mycelia.bot import _Table, bot_move
from app.games.mycelia.rules import State

from .helpers import (
    END,
    SKIP,
    at,
    cards,
    new_game,
    pending,
    play_card,
    player,
    table,
    with_drops,
    with_player,
)

OPTIONS = [
    pytest.param({}, id="base"),
    pytest.param({"expansion": True}, id="expansion"),
    pytest.param({"advanced_boards": True}, id="advanced"),
    pytest.param({"expansion": True, "advanced_boards": True}, id="both"),
]
FAR_AND_NEAR = ("0 0 0 0 0", "0 0 0 1 0", "0 0 0 0 0", "1 0 0 0 0")


def answer(state: State, seat: int = 0) -> Move:
    """The bot's move for ``seat``, checked to be one of its legal moves."""
    legal = rules.legal_moves(state, seat)
    move = bot_move(views.view(state, seat), legal, random.Random(0))
    assert move in legal, move
    return move


def run_bot(state: State, seat: int = 0, until: str = "end_turn") -> State:
    """Let the bot play for ``seat`` until it makes a move of type ``until`` (or is no longer
    active)."""
    for _ in range(60):
        if seat not in rules.active_seats(state):
            return state
        move = answer(state, seat)
        state = rules.apply(state, seat, move)
        if move["type"] == until:
            return state
    raise AssertionError("the bot did not finish its turn")


def play_game(players: int, seed: int, bots: set[int], options: dict[str, bool] | None = None,
              ) -> tuple[State, Counter[str]]:
    """A whole game, the seats in ``bots`` played by the bot, the others at random; the prompt
    kinds the bot answered ("bonus" for a bonus prompt on its own board)."""
    state = new_game(players, seed, **(options or {}))
    rng = random.Random(seed)
    answered: Counter[str] = Counter()
    moves = 0
    while state.phase != rules.OVER:
        (seat,) = rules.active_seats(state)
        legal = rules.legal_moves(state, seat)
        if seat in bots:
            move = bot_move(views.view(state, seat), legal, rng)
            assert move in legal, move
            if state.pending is not None:
                answered[state.pending.kind] += 1
                answered["bonus"] += state.pending.bonus
        else:
            move = rng.choice(legal)
        state = rules.apply(state, seat, move)
        moves += 1
        assert moves < 20000, "the game ended"
    return state, answered


# --- always legal, every prompt answered ---------------------------------------------------------


@pytest.mark.parametrize("options", OPTIONS)
@pytest.mark.parametrize("players", [1, 2, 3, 4])
def test_the_bot_always_plays_a_legal_move_over_whole_games(players, options):
    answered: Counter[str] = Counter()
    for seed in range(2):
        state, kinds = play_game(players, 300 + seed, set(range(players)), options)
        assert rules.result(state) is not None
        answered += kinds
        if players > 1:   # and beside random players, who make other situations
            state, kinds = play_game(players, 400 + seed, {seed % players}, options)
            assert rules.result(state) is not None
            answered += kinds
    assert answered["choose_field"] and answered["move_drop"]


def test_the_bot_moves_a_drop_onto_the_sanctuary_rather_than_nearer_it():
    state = table(2, boards={0: FAR_AND_NEAR}, hands={0: ("coprinus_comatus",)})
    state = run_bot(state, until="move_drop")
    assert at(state, (1, 3)) == 0 and at(state, (3, 0)) == 1 and state.sanctuary == 1


def test_the_bot_removes_the_drop_farthest_from_the_sanctuary():
    # Pleurotus ostreatus (water1:x): the water fields in row 2, column 4 (next to the
    # sanctuary) and in row 4, column 3 (two fields away) hold a drop each.
    board = ("0 0 0 0 0", "0 0 0 1 0", "0 0 0 0 0", "0 0 1 0 0")
    state = table(2, boards={0: board}, hands={0: ("pleurotus_ostreatus",)})
    state = run_bot(state, until="choose_field")
    assert at(state, (3, 2)) == 0 and at(state, (1, 3)) == 1


def test_the_bot_clears_its_board_with_its_action_tile():
    state = table(2, boards={0: ("0 0 0 0 0", "0 0 0 1 0", "0 0 0 0 0", "0 0 0 0 0")},
                  hands={0: ()})
    state = with_player(state, 0, leaves=3)
    assert answer(state) == {"type": "tile", "tile": "b", "from": [1, 3], "to": [1, 2]}
    state = run_bot(state)
    assert rules.total_drops(player(state)) == 0 and state.end_triggered


def test_the_bot_recruits_by_value_per_leaf():
    # Every drop lies on moss: Hericium erinaceus (moss~3:xxx) removes three a turn, far more
    # per leaf than Cantharellus cibarius (+2); nothing else is affordable.
    moss = ("3 0 0 3 0", "0 0 0 0 0", "0 0 3 0 3", "0 3 0 0 0")
    state = table(2, boards={0: moss}, hands={0: ()})
    market = cards("hericium_erinaceus", "cantharellus_cibarius", "armillaria_mellea",
                   "morchella_esculenta", "phallus_impudicus", start=80)
    state = with_player(rules.replace(state, market=market), 0, leaves=6)
    assert answer(state) == {"type": "buy", "card": market[0]}
    # a card that does nothing on this board is not worth its leaves
    useless = cards("pleurotus_ostreatus", start=90)
    state = with_player(rules.replace(state, market=useless), 0, leaves=6)
    assert answer(state)["type"] != "buy"


def test_the_bot_answers_a_bonus_prompt_on_its_own_board():
    # B3: seat 0 plays Amanita muscaria (2x any1:x & !any1:x); the bot at seat 1 removes a
    # drop from its own board.
    state = table(2, boards={0: FAR_AND_NEAR, 1: FAR_AND_NEAR},
                  hands={0: ("amanita_muscaria",)})
    state = play_card(state, 0, player(state).hand[0])
    state = rules.apply(state, 0, SKIP)
    assert pending(state).seat == 1 and pending(state).bonus
    move = answer(state, 1)
    assert move["type"] == "choose_field" and move["cell"] == [3, 0]
    state = rules.apply(state, 1, move)
    assert rules.total_drops(player(state, 1)) == 1 and state.pending is None


def test_the_bot_answers_the_expansion_prompts():
    # X5: a fifth tile (d from Tremella mesenterica) — the market wipe goes back to the box.
    state = with_player(table(2, expansion=True), 0, tiles=("a", "b", "b", "c"),
                        used=(False,) * 4)
    tremella = cards("tremella_mesenterica", start=80)[0]
    state = with_player(rules.replace(state, market=(tremella,)), 0, leaves=5)
    state = rules.apply(state, 0, {"type": "buy", "card": tremella})
    assert pending(state).kind == "discard_tile"
    assert answer(state) == {"type": "discard_tile", "tile": "a"}
    # X6: the extra sanctuary field goes where it brings most drops nearer (the far corner
    # next to a full field), not next to the printed sanctuary.
    board = ("0 0 0 0 0", "0 1 0 0 0", "0 0 0 0 0", "1 4 0 0 0")
    state = table(2, boards={0: board}, expansion=True)
    clavulinopsis = cards("clavulinopsis_fusiformis", start=80)[0]
    state = with_player(rules.replace(state, market=(clavulinopsis,)), 0, leaves=6)
    state = rules.apply(state, 0, {"type": "buy", "card": clavulinopsis})
    assert pending(state).kind == "sanctuary_field"
    assert answer(state) == {"type": "choose_field", "cell": [3, 0]}
    # X2: recruiting Hydnum repandum, the bot removes the card that does nothing on its board
    # (Drift: no drop lies on leaf litter) from the game.
    board = ("0 0 0 0 0", "0 0 0 2 0", "0 0 0 0 0", "1 0 0 0 0")
    state = table(2, boards={0: board}, hands={0: ("st_leaf", "st_drift", "st_water")},
                  expansion=True)
    while player(state).hand or state.pending is not None:
        state = rules.apply(state, 0, answer(state))
    hydnum = cards("hydnum_repandum", start=80)[0]
    state = with_player(rules.replace(state, market=(hydnum,)), 0, leaves=3)
    state = rules.apply(state, 0, {"type": "buy", "card": hydnum})
    assert pending(state).kind == "trash"
    drift = next(card for card in player(state).discard if card.startswith("st_drift"))
    assert answer(state) == {"type": "trash", "card": drift}
    # R17: Armillaria mellea (any1:C) clears the fuller neighbour.
    board = ("0 0 0 3 0", "0 0 0 1 0", "0 0 0 1 0", "0 0 0 0 0")
    state = table(2, boards={0: board}, hands={0: ("armillaria_mellea",)})
    state = run_bot(state, until="play")
    assert answer(state) == {"type": "choose_field", "cell": [1, 3]}
    state = rules.apply(state, 0, answer(state))
    assert answer(state) == {"type": "choose_field", "cell": [0, 3]}


def test_the_bot_chooses_an_alternative_by_its_worth():
    # Lactarius deliciosus (+3 / any1:m): a drop next to the sanctuary is worth more than three
    # leaves, a drop far away is not.
    near = table(2, boards={0: FAR_AND_NEAR}, hands={0: ("lactarius_deliciosus",)})
    near = run_bot(near, until="play")
    assert answer(near) == {"type": "choose_option", "option": 1}
    far = ("0 0 0 0 0", "0 0 0 0 0", "0 0 0 0 0", "1 0 0 0 0")
    far_state = table(2, boards={0: far}, hands={0: ("lactarius_deliciosus",)})
    far_state = run_bot(far_state, until="play")
    assert answer(far_state) == {"type": "choose_option", "option": 0}


def test_the_bot_moves_a_drop_onto_the_sanctuary_for_gwidyons_card():
    # S3, g_move: the bot moves the drop next to the sanctuary onto it.
    state = table(1, boards={0: FAR_AND_NEAR}, hands={0: ()})
    assert state.gwidyon is not None
    state = rules.replace(state, gwidyon=rules.replace(state.gwidyon, deck=(
        "g_move", "g_flip1", "g_flip2", "g_market", "g_leaf3", "g_leaf1")))
    state = rules.apply(state, 0, END)
    assert pending(state).kind == "solo_move"
    assert answer(state) == {"type": "move_drop", "from": [1, 3], "to": [1, 2]}


def test_the_bot_ends_its_solo_turn_once_its_board_is_empty():
    # S9: with an empty board the bot ends its turn at once, keeping its bonus parts (Amanita
    # muscaria would remove a drop of Gwidyon's) in hand.
    state = table(1, boards={0: ("0 0 0 0 0",) * 4}, hands={0: ("amanita_muscaria",)})
    assert answer(state) == END


def test_the_bot_keeps_its_leaves_once_its_board_is_empty():
    # G4: leaves break the tie between empty boards.
    state = table(2, boards={0: ("0 0 0 0 0",) * 4}, hands={0: ()})
    state = with_player(state, 0, leaves=9)
    assert answer(state) == END


# --- the Sanctuary of Life -------------------------------------------------------------------


def _sanctuary_at(state: State, count: int) -> State:
    return rules.replace(state, sanctuary=count)


def test_the_leading_bot_does_not_fill_the_sanctuary_near_the_end():
    # The bot (2 drops) leads the other player (20): moving its near drop onto the sanctuary
    # would fill it and bring new dew just before the end, so it moves the far drop nearer.
    far_and_near = ("0 0 0 0 0", "0 0 0 1 0", "0 0 0 0 0", "0 0 0 0 1")
    state = table(2, boards={0: far_and_near}, hands={0: ("coprinus_comatus",)})
    full = run_bot(_sanctuary_at(state, 9), until="move_drop")
    assert at(full, (1, 3)) == 1 and at(full, (3, 4)) == 0 and full.sanctuary == 9
    # with room in the sanctuary it takes the drop off
    room = run_bot(_sanctuary_at(state, 5), until="move_drop")
    assert at(room, (1, 3)) == 0 and room.sanctuary == 6


def test_a_rotation_weighs_only_near_the_end_and_favours_the_trailing_bot():
    state = _sanctuary_at(new_game(2, 5), 9)
    early = _Table(views.view(state, 0))
    assert early.rotation == 0, "long before the end someone would fill it anyway"
    near = ("0 0 0 0 0", "0 0 0 1 0", "0 0 0 0 0", "0 0 0 0 0")
    leading = _Table(views.view(with_drops(state, 0, *near), 0))
    assert leading.rotation > 0
    trailing = _Table(views.view(with_drops(state, 1, *near), 0))
    assert trailing.rotation < 0
    # so the trailing bot prefers the move that fills the sanctuary
    assert trailing.outcome(1.0, 1, trailing.board) > 1.0 > leading.outcome(1.0, 1,
                                                                            leading.board)


# --- strength ----------------------------------------------------------------------------------


@pytest.mark.timeout(120)
def test_the_bot_beats_a_random_player_in_at_least_90_of_100_games():
    start = time.perf_counter()
    wins = 0
    for game in range(100):
        bot = game % 2                        # alternate seats
        state, _ = play_game(2, 1000 + game, {bot})
        result = rules.result(state)
        assert result is not None
        wins += result.winners == (bot,)
    print(f"\nMycelia bot against a random player: {wins} wins in 100 games "
          f"({time.perf_counter() - start:.1f} s)")
    assert wins >= 90


@pytest.mark.timeout(120)
def test_the_bot_plays_the_solo_game_against_gwidyon():
    start = time.perf_counter()
    wins = 0
    for seed in range(100):
        state, _ = play_game(1, seed, {0}, {"gwidyon_drops": 20})
        result = rules.result(state)
        assert result is not None and state.phase == rules.OVER
        wins += result.winners == (0,)
    print(f"\nMycelia bot against Gwidyon (20 drops): won {wins} of 100 games "
          f"({time.perf_counter() - start:.1f} s)")
    assert wins >= 20, "a random player wins none of these games"
