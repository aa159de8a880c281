"""END-1…3, FIN-1…3, SOLO-4 and MOV-1…5: rounds, seasons, the end, moves, undo."""

from __future__ import annotations

import json
import random
from dataclasses import replace

import pytest

from app.games.base import IllegalMove, Move
from app.games.evergreen import rules
from app.games.evergreen.data import CARDS, CRACKS, PLANET, SOLO_TITLES
from app.games.evergreen.rules import solo_title
from app.games.evergreen.scoring import largest_forest, light_points

from .helpers import (
    act_state,
    board,
    cell_move,
    finish_round,
    new_game,
    play,
    random_playout,
    refused,
)

DONE = {"type": "done"}
UNDO = {"type": "undo"}
POWER = {"type": "power"}

PLANET_A = {(0, 4): "large", (1, 4): "small", (1, 5): "bush", (2, 7): "sprout", (6, 1): "large"}
PLANET_B = {(4, 4): "small", (4, 5): "small", (5, 5): "large"}


def season_end_state(season: int, players: int = 2) -> rules.State:
    """Act phase of the last round of ``season``; every seat has the season's cards."""
    state = act_state(7, PLANET_A, players=players)
    rounds = rules.SEASONS[season][1]
    fronts = tuple(tuple(range(1 + 6 * p, 1 + 6 * p + rounds)) for p in range(len(state.fronts)))
    boards = tuple(
        replace(b, planet=dict(PLANET_B)) if seat == 1 else b for seat, b in enumerate(state.boards)
    )
    return replace(
        state,
        season=season,
        round=rounds,
        fronts=fronts,
        sun=rules.sun_after("N", season),
        boards=boards,
        turns=tuple(rules.Turn(origin=b) for b in boards),
    )


def all_done(state: rules.State) -> rules.State:
    for seat in sorted(rules.active_seats(state)):
        state = rules.apply(state, seat, DONE)
    return state


def test_end_1_round_ends_when_every_seat_is_done():
    state = act_state(7, {}, players=2)
    state = play(state, 0, DONE)
    assert state.phase == rules.ACT and rules.active_seats(state) == {1}
    state = play(state, 1, DONE)
    assert state.phase == rules.SELECT and state.round == 2 and state.season == 0
    game = new_game(3, 5)
    for expected in (1, 2, 3, 4, 5):
        assert game.round == expected and game.season == 0
        game = finish_round(game)
    assert game.season == 1 and game.round == 1


def test_end_2_season_end_scores_light_and_forest_then_changes_season():
    state = season_end_state(0)
    cards = [c for front in state.fronts for c in front]
    state = all_done(state)
    for seat, planet in ((0, PLANET_A), (1, PLANET_B)):
        assert board(state, seat).light == (light_points(planet, "N", CRACKS),)
        assert board(state, seat).forest == (largest_forest(planet),)
    assert board(state, 0).light == (4,) and board(state, 0).forest == (3,)
    assert board(state, 1).light == (4,) and board(state, 1).forest == (3,)
    assert state.season == 1 and state.sun == "E" and state.round == 1
    assert set(cards) <= set(state.discard)  # every participant's cards were discarded
    assert state.fronts == ((), ())


def test_end_2_sun_moves_clockwise_each_season():
    state = new_game(2, 8)
    suns: list[str] = []
    while state.phase != rules.OVER:
        if state.round == 1 and state.phase == rules.SELECT and len(suns) == state.season:
            suns.append(state.sun)
        state = finish_round(state)
    assert suns == ["N", "E", "S", "W"]
    assert state.sun == "W"  # winter's end: no sun move
    east = rules.setup(2, rules.Options(sun_start="E"), 1)
    assert [rules.sun_after(east.sun, i) for i in range(4)] == ["E", "S", "W", "N"]


def test_end_2_winter_end_stops_without_discard_or_sun_move():
    state = season_end_state(3)
    fronts, discard = state.fronts, state.discard
    state = all_done(state)
    assert state.phase == rules.OVER
    assert state.sun == "W" and state.fronts == fronts and state.discard == discard
    assert board(state, 0).light == (light_points(PLANET_A, "W"),)


def test_end_3_the_season_change_does_not_touch_the_marker():
    state = replace(season_end_state(0), marker_holder=1, first=0)
    state = all_done(state)
    assert state.season == 1 and state.first == 1
    assert rules.active_seats(state) == {1}


def test_fin_1_fertility_at_the_end_miguel():
    miguel = {
        (0, 4): "large", (2, 7): "large", (6, 1): "large",
        (7, 4): "large", (7, 6): "large", (8, 5): "large", (6, 7): "large",
        (3, 4): "large", (5, 4): "large", (3, 0): "small", (4, 0): "sprout",
    }  # fmt: skip
    state = season_end_state(3, players=1)
    zone = ((), (), ((15, True), (14, True)), ((20, True), (23, True), (19, True)),
            ((25, True), (28, True), (27, True)), ((33, True),))  # fmt: skip
    boards = (replace(board(state), planet=miguel),)
    state = replace(state, zone=zone, boards=boards, turns=(rules.Turn(origin=boards[0]),))
    assert rules.fertility(zone) == {
        "snow": 0, "swamp": 0, "rock": 3, "flowers": 5, "wheat": 5, "meadow": 2,
    }  # fmt: skip
    state = all_done(state)
    assert board(state).fertility == 29
    result = rules.result(state)
    assert result is not None
    table = {row["biome"]: row for row in result.details["fertility_table"][0]["biomes"]}
    assert [(table[b]["fertility"], table[b]["large"], table[b]["points"]) for b in
            ("snow", "swamp", "rock", "flowers", "wheat", "meadow")] == [
        (0, 1, 0), (0, 1, 0), (3, 0, 0), (5, 1, 5), (5, 4, 20), (2, 2, 4),
    ]  # fmt: skip


def _over(scores: tuple[int, ...], holder: int) -> rules.State:
    state = new_game(len(scores), 2)
    boards = tuple(replace(b, start=s) for b, s in zip(state.boards, scores, strict=True))
    return replace(state, phase=rules.OVER, boards=boards, marker_holder=holder, turns=())


def test_fin_2_most_points_wins_ties_by_turn_order_from_the_marker():
    result = rules.result(_over((10, 12, 9), holder=0))
    assert result is not None and result.ranking == (1, 0, 2) and result.winners == (1,)
    result = rules.result(_over((10, 10, 5), holder=1))
    assert result is not None and result.ranking == (1, 0, 2) and result.winners == (1,)
    result = rules.result(_over((10, 10, 10, 10), holder=2))
    assert result is not None and result.ranking == (2, 3, 0, 1) and result.winners == (2,)
    assert rules.result(new_game(2)) is None


def test_fin_3_result_details_per_player():
    state, _ = random_playout(3, 21)
    result = rules.result(state)
    assert result is not None
    for seat, details in enumerate(result.details["players"]):
        b = state.boards[seat]
        assert details == {
            "seat": seat,
            "starting": b.start,
            "bloom": b.bloom,
            "light": list(b.light),
            "forest": list(b.forest),
            "fertility": b.fertility,
            "total": b.score,
        }
        assert len(details["light"]) == len(details["forest"]) == 4
        assert details["total"] == result.scores[seat] == (
            details["starting"] + details["bloom"] + sum(details["light"])
            + sum(details["forest"]) + details["fertility"]
        )  # fmt: skip
    json.dumps(result.to_json())


def test_solo_4_titles():
    bounds = {0: "broccoli", 120: "broccoli", 121: "bonsai", 135: "bonsai", 136: "olive",
              150: "olive", 151: "holm_oak", 160: "holm_oak", 161: "birch", 170: "birch",
              171: "pine", 180: "pine", 181: "oak", 190: "oak", 191: "baobab", 200: "baobab",
              201: "sequoia", 350: "sequoia"}  # fmt: skip
    for points, title in bounds.items():
        assert solo_title(points).id == title
    result = rules.result(_over((150,), holder=0))
    assert result is not None
    assert result.details["title"] == {"id": "olive", "en": "Olive tree", "es": "Olivo",
                                       "de": "Olivenbaum"}  # fmt: skip
    assert result.winners == (0,) and len(SOLO_TITLES) == 9
    assert rules.result(_over((10, 12), holder=0)).details["title"] is None  # type: ignore[union-attr]


# --- moves ------------------------------------------------------------------------------------


def test_mov_1_active_seats():
    state = new_game(3, 2)
    assert rules.active_seats(state) == {state.first}
    other = (state.first + 1) % 3
    refused(state, other, {"type": "pick", "card": state.row[0]}, "MOV-1")
    refused(state, state.first, DONE, "MOV-1")
    while state.phase == rules.SELECT:
        (seat,) = rules.active_seats(state)
        state = play(state, seat, rules.legal_moves(state, seat)[0])
    assert rules.active_seats(state) == {0, 1, 2}  # simultaneous
    refused(state, 0, {"type": "pick", "card": 1}, "MOV-1")
    refused(state, 3, DONE, "MOV-1")
    refused(state, True, DONE, "MOV-1")
    for seed in range(6):  # the automa is never active
        solo = new_game(1, seed)
        assert rules.active_seats(solo) == {0}
    over, _ = random_playout(2, 4)
    assert rules.active_seats(over) == frozenset()
    refused(over, 0, DONE, "MOV-1")


MALFORMED: list[object] = [
    None,
    [],
    "done",
    {},
    {"type": 5},
    {"type": "jump"},
    {"type": "plant"},
    {"type": "plant", "cell": [2, 7]},
    {"type": "plant", "cell": [2, 7], "by": "lake"},
    {"type": "plant", "cell": [2, 7], "by": 1},
    {"type": "plant", "cell": [True, 7], "by": "action"},
    {"type": "plant", "cell": [2.0, 7], "by": "action"},
    {"type": "plant", "cell": [2], "by": "action"},
    {"type": "plant", "cell": [2, 7, 1], "by": "action"},
    {"type": "plant", "cell": "2,7", "by": "action"},
    {"type": "plant", "cell": {"r": 2}, "by": "action"},
    {"type": "grow", "cell": [2, 7], "by": "bush"},
    {"type": "bush"},
    {"type": "lake", "cell": None},
    {"type": "done", "extra": 1},
    {"type": "power", "cell": [2, 7]},
    {"type": "pick"},
    {"type": "pick", "card": True},
    {"type": "pick", "card": "7"},
    {"type": "pick", "card": 7.0},
]


@pytest.mark.parametrize("move", MALFORMED, ids=lambda m: json.dumps(m))
def test_mov_3_malformed_moves_are_illegal(move: object):
    for state in (new_game(2, 1), act_state(7, {}, players=2)):
        refused(state, 0, move, "MOV-3")  # type: ignore[arg-type]


@pytest.mark.parametrize("cell", [[0, 0], [9, 9], [-1, 4], [4, 100], [8, 8]])
def test_mov_3_cells_off_the_planet(cell: list[int]):
    state = act_state(37, {}, players=2)
    refused(state, 0, {"type": "plant", "cell": cell, "by": "action"}, "EFF-3")


def test_mov_3_every_refusal_names_a_clause():
    rng = random.Random(3)
    game = new_game(2, 9)
    for _ in range(200):
        seat = rng.choice(sorted(rules.active_seats(game)))
        move = rng.choice(
            [
                {"type": "pick", "card": rng.randint(1, 42)},
                cell_move(rng.choice(["plant", "grow"]), (rng.randint(0, 8), rng.randint(0, 8)),
                          rng.choice(["action", "power", "lake"])),
                cell_move(rng.choice(["bush", "lake"]), (rng.randint(0, 8), rng.randint(0, 8))),
                POWER, UNDO, DONE,
            ]
        )  # fmt: skip
        try:
            game = rules.apply(game, seat, move)
        except IllegalMove as error:
            assert error.rule and error.rule.split("-")[0] in {
                "SEL", "EFF", "ACT", "POW", "TIM", "MOV",
            }, error  # fmt: skip


def test_mov_4_undo_restores_exactly_including_track_and_bloom():
    state = act_state(12, {(2, 7): "sprout", (2, 8): "small"}, players=2)
    history = [rules.dump(state)]
    for move in (cell_move("grow", (2, 7), "action"), POWER):
        state = play(state, 0, move)
        history.append(rules.dump(state))
    assert board(state).bloom == 2 and board(state).tracks[5] == 1
    state = play(state, 0, UNDO)
    assert rules.dump(state) == history[1]
    assert board(state).bloom == 0 and board(state).tracks[5] == 0
    state = play(state, 0, UNDO)
    assert rules.dump(state) == history[0]
    refused(state, 0, UNDO, "MOV-4")


def test_mov_4_repeated_undo_walks_back_through_every_step():
    state = act_state(11, {(0, 3): "sprout", (1, 4): "small"}, players=2, tracks=(0, 0, 0, 0, 3, 0))
    moves = [
        POWER,
        cell_move("lake", (0, 4)),
        cell_move("grow", (0, 3), "lake"),
        cell_move("grow", (1, 4), "lake"),
        cell_move("lake", (4, 6)),
        cell_move("plant", (2, 7), "action"),
    ]
    dumps = [rules.dump(state)]
    for move in moves:
        state = play(state, 0, move)
        dumps.append(rules.dump(state))
    for expected in reversed(dumps[:-1]):
        state = play(state, 0, UNDO)
        assert rules.dump(state) == expected
    # undo after a lake grow keeps the lake's remaining grow available
    half = play(rules.load(dumps[3]), 0, UNDO)
    assert {"type": "grow", "cell": [0, 3], "by": "lake"} in rules.legal_moves(half, 0)


def test_mov_4_picks_cannot_be_undone():
    state = new_game(2, 3)
    seat = state.first
    state = play(state, seat, rules.legal_moves(state, seat)[0])
    refused(state, seat, UNDO, "MOV-1")
    refused(state, 1 - seat, UNDO, "MOV-1")


def test_mov_5_legal_moves_are_complete_and_exact():
    universe: list[Move] = [{"type": "pick", "card": c} for c in CARDS]
    cells = sorted(set(PLANET) | CRACKS)
    for cell in cells:
        for by in ("action", "power"):
            universe.append(cell_move("plant", cell, by))
        for by in ("action", "power", "lake"):
            universe.append(cell_move("grow", cell, by))
        universe.append(cell_move("bush", cell))
        universe.append(cell_move("lake", cell))
    universe += [POWER, UNDO, DONE]
    rng = random.Random(5)
    for players in (1, 2, 4):
        state = new_game(players, 40 + players)
        checked = 0
        while state.phase != rules.OVER and checked < 12:
            seat = rng.choice(sorted(rules.active_seats(state)))
            legal = rules.legal_moves(state, seat)
            assert len(legal) <= 300
            if rng.random() < 0.3:
                checked += 1
                accepted = []
                for move in universe:
                    try:
                        rules.apply(state, seat, move)
                    except IllegalMove:
                        continue
                    accepted.append(move)
                key = lambda m: json.dumps(m, sort_keys=True)  # noqa: E731
                assert sorted(map(key, accepted)) == sorted(map(key, legal))
            move = rng.choice(legal) if rng.random() > 0.25 or DONE not in legal else DONE
            state = rules.apply(state, seat, move)


def test_refused_move_leaves_the_state_unchanged():
    state = act_state(7, {(2, 7): "sprout"}, players=2)
    before = rules.dump(state)
    for move in (cell_move("plant", (2, 7), "action"), {"type": "pick", "card": 3}, UNDO):
        with pytest.raises(IllegalMove):
            rules.apply(state, 0, move)
        assert rules.dump(state) == before


def test_apply_never_mutates_its_input_and_dump_round_trips():
    state = act_state(7, {(2, 7): "sprout"}, players=2)
    before = rules.dump(state)
    after = play(state, 0, POWER, cell_move("plant", (0, 4), "power"), DONE)
    assert rules.dump(state) == before
    assert board(state).planet == {(2, 7): "sprout"}
    for s in (state, after):
        assert rules.load(json.loads(json.dumps(rules.dump(s)))) == s


def test_tim_3_a_done_seat_is_done_for_now_and_a_waiting_picker_is_not():
    """TIM-3: ``rules.done_for_now`` tells a seat that sent done (the platform answers 409)
    from one that waits for its pick."""
    state = act_state(1, players=2)
    assert rules.done_for_now(state, 0) is None  # still acting
    state = play(state, 0, {"type": "done"})
    finished = rules.done_for_now(state, 0)
    assert finished is not None and finished.rule == "TIM-3"
    assert rules.done_for_now(state, 1) is None
    selection = new_game(2)
    waiting = next(s for s in range(2) if s not in rules.active_seats(selection))
    assert rules.done_for_now(selection, waiting) is None


# --- stored games (dumps written before POW-3's ``applied`` existed) ------------------------


def old_shape(data: dict[str, object]) -> dict[str, object]:
    """A dump as the code before POW-3 wrote it: no ``applied`` in the turn records."""
    old = json.loads(json.dumps(data))
    for turn in old["turns"]:
        del turn["applied"]
    return old


def test_POW_3_load_accepts_a_dump_without_applied_and_plays_on():
    fresh = rules.dump(act_state(7, {(2, 8): "sprout"}, players=2))
    assert all("applied" in turn for turn in fresh["turns"])
    state = rules.load(old_shape(fresh))
    assert state == rules.load(fresh)
    state = play(state, 0, POWER)
    refused(state, 0, DONE, "POW-3")
    state = play(state, 0, cell_move("plant", (0, 4), "power"), DONE)
    state = play(state, 1, DONE)
    assert state.phase == rules.SELECT and state.round == 2
    # a whole game continues from an old-shape dump taken mid act phase
    game = new_game(3, 11)
    while game.phase != rules.ACT:
        (seat,) = rules.active_seats(game)
        game = play(game, seat, rules.legal_moves(game, seat)[0])
    game = rules.load(old_shape(rules.dump(game)))
    rng = random.Random(11)
    while game.phase != rules.OVER:
        seat = rng.choice(sorted(rules.active_seats(game)))
        game = rules.apply(game, seat, rng.choice(rules.legal_moves(game, seat)))
    assert rules.result(game) is not None


def test_POW_3_old_dump_counts_the_applications_already_made():
    # mid-power: sprout power with one application made, bloom activated
    sprout = play(act_state(7, {}, players=2), 0, POWER, cell_move("plant", (0, 4), "power"))
    loaded = rules.load(old_shape(rules.dump(sprout)))
    assert loaded.turns[0].applied == 1 and loaded == sprout
    assert DONE in rules.legal_moves(loaded, 0)
    bloom = play(act_state(12, {}, players=2), 0, POWER)
    loaded = rules.load(old_shape(rules.dump(bloom)))
    assert loaded.turns[0].applied == 1 and DONE in rules.legal_moves(loaded, 0)
    fresh = play(act_state(7, {}, players=2), 0, POWER)
    loaded = rules.load(old_shape(rules.dump(fresh)))
    assert loaded.turns[0].applied == 0 and DONE not in rules.legal_moves(loaded, 0)


def test_POW_3_undo_still_works_on_an_old_game_that_skipped_the_application():
    """The old rules let a seat activate the power and go on with its action at once; undo
    replays such a record without refusing it."""
    state = act_state(7, {}, players=2)
    turn = state.turns[0]
    steps = (("power", "", None), ("plant", "action", (2, 7)), ("plant", "action", (2, 8)))
    old_board = replace(
        board(state),
        planet={(2, 7): "sprout", (2, 8): "sprout"},
        tracks=(1, 0, 0, 0, 0, 0),
    )
    old_turn = replace(
        turn,
        steps=steps,
        effects=(("plant", (2, 7)), ("plant", (2, 8))),
        actions=("A",),
        activated=True,
        power_closed=True,
    )
    data = old_shape(rules.dump(replace(
        state,
        boards=(old_board, *state.boards[1:]),
        turns=(old_turn, *state.turns[1:]),
    )))  # fmt: skip
    loaded = rules.load(data)
    assert loaded.turns[0].applied == 0
    assert DONE in rules.legal_moves(loaded, 0)  # the power is closed: nothing is owed
    back = play(loaded, 0, UNDO)
    assert board(back).planet == {(2, 7): "sprout"} and board(back).tracks[0] == 1
    back = play(back, 0, UNDO, UNDO)
    assert board(back).planet == {} and board(back).tracks[0] == 0
    assert play(loaded, 0, DONE).turns[0].done


def test_mov_3_every_illegal_move_in_the_source_names_a_clause():
    """Statically: each ``IllegalMove(...)`` in app/games/evergreen/ passes a clause id of the
    spec (``"POW-3"``) or the variable ``rule`` holding one (ACT-1…6, from ``_violations``)."""
    import ast
    import re
    from pathlib import Path

    calls = 0
    for source in sorted(Path(rules.__file__).parent.glob("*.py")):
        for node in ast.walk(ast.parse(source.read_text(encoding="utf-8"))):
            if not (isinstance(node, ast.Call) and getattr(node.func, "id", "") == "IllegalMove"):
                continue
            calls += 1
            args = [*node.args, *(k.value for k in node.keywords if k.arg == "rule")]
            assert len(args) == 2, f"{source.name}:{node.lineno} names no rule"
            rule = args[1]
            if isinstance(rule, ast.Constant):
                assert re.fullmatch(r"(SEL|EFF|ACT|POW|TIM|MOV)-\d+", rule.value), rule.value
            else:
                assert isinstance(rule, ast.Name) and rule.id == "rule", source.name
    assert calls >= 30
    assert all(re.fullmatch(r"ACT-[1-6]", rule) for rule in rules._ACTION_REASONS)
