"""The Evo bot: always legal in every phase (bids, windows, movement, flight from a fight,
birth, survival), plays sensibly on hand-built positions, beats a random player and plays
five-player games to the end. Positions on the 2-player island (tests/unit/evo/test_rules.py
draws it):

    r=-3        (-1,-3)p (0,-3)h (1,-3)h (2,-3)p
    r=-2  (-3,-2)b (-2,-2)p (-1,-2)M (0,-2)M (1,-2)H (2,-2)p (3,-2)b
    r=-1  (-4,-1)b (-3,-1)P (-2,-1)H (-1,-1)M (0,-1)M (1,-1)H (2,-1)P (3,-1)b
    r=0   (-4,0)b (-3,0)p (-2,0)H (-1,0)M (0,0)M (1,0)p (2,0)b
    r=1         (-3,1)p (-2,1)h (-1,1)h (0,1)p

Section 0 of the wheel: plains temperate, beach hot, hills cold, mountains deadly.
"""

from __future__ import annotations

import random
import time
from collections import Counter
from dataclasses import replace

import pytest

from app.games.base import Move
from app.games.evo import rules, views
from app.games.evo.bot import bot_move, rounds_left, win_chance
from app.games.evo.rules import BIRTH, MUTATION, SURVIVAL, SURVIVAL_WINDOW, State
from tests.unit.evo import cells, new_game, play, position

Cell = tuple[int, int]


def answer(state: State, seat: int = 0) -> Move:
    """The bot's move for ``seat``, checked to be one of its legal moves."""
    legal = rules.legal_moves(state, seat)
    move = bot_move(views.view(state, seat), legal, random.Random(0))
    assert move in legal, move
    return move


def run_turn(state: State, seat: int = 0) -> tuple[State, list[Move]]:
    """Let the bot play for ``seat`` while it is active in the same phase: its moves."""
    moves: list[Move] = []
    phase = state.phase
    while seat in rules.active_seats(state) and state.phase == phase:
        move = answer(state, seat)
        moves.append(move)
        state = play(state, seat, move)
        assert len(moves) < 40, "the bot did not end its turn"
    return state, moves


def dinosaurs_of(state: State, seat: int = 0) -> list[Cell]:
    return rules.dinosaurs(state, seat)


def seeing(state: State, token: str) -> State:
    """The climate pile with ``token`` on top (the sixth-sense holder sees it)."""
    return replace(state, pile=(token, *state.pile[1:]))


# --- movement: to temperate ground ("Fase de movimiento", "Fase climática") ------------------


@pytest.mark.parametrize("start", [(-1, -1), (-2, -1)], ids=["deadly", "cold"])
def test_the_bot_moves_a_dinosaur_off_deadly_or_cold_ground_onto_temperate_ground(start):
    # Section 0: the mountains at (-1, -1) are deadly and 2 steps from the plains; the hills
    # at (-2, -1) are cold (no fur) and next to them. 2 movement points reach either way.
    state = position(board={start: 0, (2, -1): 1}, section=0)
    assert rules.climate_at(state, start) != "temperate"
    state, _ = run_turn(state)
    (end,) = dinosaurs_of(state)
    assert rules.climate_at(state, end) == "temperate"


def test_the_bot_heads_for_next_rounds_temperate_ground_when_the_wheel_will_turn():
    # 4-player island, section 0: the plains at (-4, 0) are 2 steps from the hills. With sixth
    # sense the bot sees the next token: "cw1" turns the wheel to section 1 (hills temperate,
    # plains hot), so it moves to plains next to the hills (still temperate this round).
    # "stay" keeps the plains temperate: it stays.
    board = {(-4, 0): 0, (3, -3): 1, (0, 3): 2, (-4, 3): 3}
    state = position(4, board=board, genes={0: ("sixth_sense",)}, section=0)
    turning, _ = run_turn(seeing(state, "cw1"))
    (end,) = dinosaurs_of(turning)
    assert end != (-4, 0)
    assert rules.climate_at(turning, end) == "temperate"
    assert any(turning.map.terrain[n] == "hills"
               for n in rules.geometry(4).neighbours[end])
    staying, moves = run_turn(seeing(state, "stay"))
    assert dinosaurs_of(staying) == [(-4, 0)] and moves == [{"type": "done"}]


# --- attacks: the odds of the die ("Fase de movimiento", spec "Combat die") -------------------


def test_the_bot_attacks_when_the_odds_favour_it_and_not_otherwise():
    board = {(-3, -1): 0, (-3, 0): 1}   # both on temperate plains, side by side
    assert win_chance(1, 0) == 4 / 6 and win_chance(0, 1) == 1 / 6 and win_chance(0, 2) == 0
    favoured = position(board=board, genes={0: ("horn",)}, section=0)
    assert answer(favoured) == {"type": "attack", "from": [-3, -1], "to": [-3, 0]}
    for defence in (("horn",), ("bone_plates",)):   # 1 in 6, then no chance at all
        against = position(board=board, genes={1: defence}, section=0)
        _, moves = run_turn(against)
        assert all(move["type"] != "attack" for move in moves), moves


# --- the lab: bids by value, MP kept ("Fase de mutación") -------------------------------------


def bid_after_a_rival(gene: str) -> Move:
    """Seat 1 bids 2 for ``gene`` in column 2; the bot bids next."""
    state = position(phase=MUTATION, lab=(gene,), initiative=(1, 0),
                     board={(-3, -1): 0, (-3, 0): 0, (2, -2): 1, (2, -1): 1})
    state = play(state, 1, {"type": "bid", "column": 2, "value": 2})
    return answer(state)


def test_the_bot_bids_more_for_a_gene_valuable_to_it():
    # An egg in round 1 brings a newborn every round: worth outbidding the 2 for it. Sixth
    # sense is worth less than nothing at 3 MP: the bot takes the event card for 0 instead.
    assert bid_after_a_rival("egg") == {"type": "bid", "column": 2, "value": 3}
    assert bid_after_a_rival("sixth_sense") == {"type": "bid", "column": 1, "value": 0}
    # Bidding first, it pays more to keep an egg than a horn.
    first = {gene: answer(position(phase=MUTATION, lab=(gene,), board={(-3, -1): 0}))
             for gene in ("egg", "horn")}
    assert first["egg"]["column"] == first["horn"]["column"] == 2
    assert first["egg"]["value"] > first["horn"]["value"]


def test_the_bot_does_not_overpay_in_the_last_round():
    # MP are victory points: with the meteorite sure to fall next climate phase, an egg is
    # worth less than a single MP, so the bot bids 0 for it.
    state = position(phase=MUTATION, lab=("egg",), board={(-3, -1): 0})
    revealed = ("cw1",) * 5 + ("stay",) * 3 + ("cw2",) * 2 + ("ccw1",)
    state = replace(state, revealed=revealed, pile=("meteorite",), round=11)
    assert rounds_left(views.view(state, 0)) == 1
    move = answer(state)
    assert move["type"] == "bid" and move["value"] == 0


# --- birth: newborns on safe ground ("Fase de nacimiento") -----------------------------------


def test_the_bot_places_its_newborns_on_temperate_ground():
    # The parent on the plains at (-3, -1) has beach (hot), hills (cold) and plains
    # (temperate) around it: two eggs, two newborns on the two free plains.
    state = position(phase=BIRTH, board={(-3, -1): 0, (2, -1): 1}, genes={0: ("egg",)})
    placed = []
    for _ in range(2):
        move = answer(state)
        assert move["type"] == "place"
        placed.append(cells(move, "at"))
        state = play(state, 0, move)
        if 0 not in rules.active_seats(state):
            state = play(state, 1, {"type": "done"})
    assert sorted(placed) == [(-3, 0), (-2, -2)]


def test_the_bot_places_no_newborn_where_it_would_die():
    # A parent on the mountains at (0, -1): every free space next to it is deadly or cold.
    state = position(phase=BIRTH, board={(0, -1): 0, (2, -1): 1})
    assert answer(state) == {"type": "done"}


# --- survival: the sealed window and the survivors ("Fase de supervivencia") ------------------


def test_the_bot_plays_a_survival_card_when_it_saves_a_dinosaur_and_keeps_it_otherwise():
    # Section 0, hills cold, one fur: of two dinosaurs on the hills one dies, unless Winter
    # Coat adds a fur.
    cold = position(phase=SURVIVAL_WINDOW, board={(-2, -1): 0, (-2, 0): 0, (2, -1): 1},
                    genes={0: ("fur",)}, hands={0: ("winter_coat",)})
    assert answer(cold) == {"type": "play_events", "cards": [{"card": "winter_coat"}]}
    mild = position(phase=SURVIVAL_WINDOW, board={(-3, -1): 0, (-3, 0): 0, (2, -1): 1},
                    genes={0: ("fur",)}, hands={0: ("winter_coat",)})
    assert answer(mild) == {"type": "pass"}


def test_the_bot_keeps_the_survivors_with_the_best_prospects():
    # 5-player island, section 3: mountains temperate, hills hot. One parasol saves one of
    # the two dinosaurs on the hills; the next token ("stay", seen with sixth sense) keeps the
    # mountains temperate, so the bot keeps the one next to them.
    board = {(-4, 0): 0, (-3, 0): 0, (1, -3): 1, (4, -1): 2, (1, 3): 3, (-5, 3): 4}
    state = position(5, board=board, genes={0: ("parasol", "sixth_sense")}, section=3)
    state = rules._start_survival(seeing(state, "stay"), [])
    assert state.phase == SURVIVAL and 0 in rules.active_seats(state)
    assert answer(state) == {"type": "keep", "at": [[-3, 0]]}


def test_a_beaten_chameleon_steps_aside_onto_temperate_ground():
    state = position(board={(-3, 0): 0, (-3, -1): 1}, genes={0: ("chameleon",)},
                     initiative=(1, 0), section=0)
    state = replace(state, flee=((-3, -1), (-3, 0)))
    move = answer(state)
    assert move["type"] == "flee" and move["to"] is not None
    assert rules.climate_at(state, cells(move)) == "temperate"


# --- always legal ------------------------------------------------------------------------------


def test_the_bot_always_returns_a_legal_move_in_every_phase():
    """Over random games of 2 to 5 players, the bot answers for every active seat in every
    state (the game goes on at random), and every move type of Evo is offered and chosen."""
    offered: Counter[str] = Counter()
    chosen: Counter[str] = Counter()
    phases: set[str] = set()
    for game in range(16):
        players = 2 + game % 4
        state = new_game(players, 700 + game)
        rng = random.Random(game)
        while state.phase != rules.OVER:
            active = sorted(rules.active_seats(state))
            for seat in active:
                legal = rules.legal_moves(state, seat)
                move = bot_move(views.view(state, seat), legal, rng)
                assert move in legal, (state.phase, move)
                offered.update({m["type"] for m in legal})
                chosen[move["type"]] += 1
                phases.add(state.phase)
            seat = rng.choice(active)
            state = play(state, seat, rng.choice(rules.legal_moves(state, seat)))
    assert phases == set(rules.PHASES) - {rules.CLIMATE, rules.OVER}
    assert set(offered) == set(chosen) == set(rules.MOVE_FIELDS)


# --- whole games -------------------------------------------------------------------------------


def play_game(players: int, seed: int, bots: set[int]) -> State:
    """A whole game, the seats in ``bots`` played by the bot, the others at random."""
    state = new_game(players, seed)
    rng = random.Random(seed)
    moves = 0
    while state.phase != rules.OVER:
        seat = min(rules.active_seats(state))
        legal = rules.legal_moves(state, seat)
        if seat in bots:
            move = bot_move(views.view(state, seat), legal, rng)
            assert move in legal, move
        else:
            move = rng.choice(legal)
        state = play(state, seat, move)
        moves += 1
        assert moves < 5000, "the game did not end"
    return state


@pytest.mark.timeout(60)
def test_the_bot_beats_a_random_player_in_at_least_90_of_100_games():
    start = time.perf_counter()
    wins = 0
    for game in range(100):
        bot = game % 2                        # alternate seats
        result = rules.result(play_game(2, 1000 + game, {bot}))
        assert result is not None
        wins += result.winners == (bot,)
    print(f"\nEvo bot against a random player: {wins} wins in 100 games "
          f"({time.perf_counter() - start:.1f} s)")
    assert wins >= 90


@pytest.mark.timeout(60)
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_bots_play_five_player_games_to_the_end(seed):
    state = play_game(5, seed, set(range(5)))
    result = rules.result(state)
    assert result is not None and not rules.active_seats(state)
    assert 9 <= result.details["rounds"] <= 11
    assert sorted(result.ranking) == list(range(5))
    assert sum(result.details["dinosaurs"]) > 10, "the bots keep their dinosaurs alive"
