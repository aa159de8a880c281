"""EFF-1…3, ACT-1…6, POW-1…7, TIM-1…3 and the rulebook's Daniel and Sonia examples."""

from __future__ import annotations

from app.games.evergreen import rules
from app.games.evergreen.data import POWERS

from .helpers import act_state, board, cell_move, play, refused

POWER = {"type": "power"}
DONE = {"type": "done"}
SPROUT, GROW_SMALL, GROW_LARGE, BUSH, LAKE, BLOOM = range(6)


def act(kind: str, r: int, c: int) -> dict[str, object]:
    return cell_move(kind, (r, c), "action")


def pwr(kind: str, r: int, c: int) -> dict[str, object]:
    if kind in ("bush", "lake"):
        return cell_move(kind, (r, c))
    return cell_move(kind, (r, c), "power")


def by_lake(r: int, c: int) -> dict[str, object]:
    return cell_move("grow", (r, c), "lake")


def track(state: rules.State, power: str) -> int:
    return board(state).tracks[POWERS.index(power)]


# --- the two effects --------------------------------------------------------------------------


def test_eff_1_plant_sprout_needs_an_empty_cell():
    state = act_state(7, {(2, 8): "small"})  # swamp card
    state = play(state, 0, act("plant", 2, 7))
    assert board(state).planet[(2, 7)] == "sprout"
    refused(state, 0, act("plant", 2, 7), "EFF-1")
    refused(state, 0, act("plant", 2, 8), "EFF-1")
    bush = act_state(40, {(0, 4): "lake"})
    bush = play(bush, 0, POWER)
    refused(bush, 0, pwr("bush", 0, 4), "EFF-1")


def test_eff_2_grow_one_stage_never_more():
    planet = {(2, 7): "sprout", (2, 8): "small", (3, 7): "large", (3, 8): "bush", (4, 7): "lake"}
    state = act_state(8, planet)  # swamp card
    for r, c in ((3, 7), (3, 8), (4, 7), (4, 8)):  # large, bush, lake, empty
        refused(state, 0, act("grow", r, c), "EFF-2")
    state = play(state, 0, act("grow", 2, 7), act("grow", 2, 8))
    assert board(state).planet[(2, 7)] == "small"  # sprout -> small, never large
    assert board(state).planet[(2, 8)] == "large"


def test_eff_3_no_piece_on_a_crack_nor_off_the_planet():
    state = act_state(37, {})  # wild card: any biome
    for cell in ((2, 3), (3, 6), (6, 5), (5, 2)):
        refused(state, 0, act("plant", *cell), "EFF-3")
        refused(state, 0, act("grow", *cell), "EFF-3")
    for cell in ((0, 0), (8, 8), (9, 4), (-1, 3), (4, 9)):
        refused(state, 0, act("plant", *cell), "EFF-3")
    powered = play(state, 0, POWER)
    refused(powered, 0, pwr("plant", 3, 6), "EFF-3")
    lake = play(act_state(41, {}), 0, POWER)
    refused(lake, 0, pwr("lake", 6, 5), "EFF-3")


# --- the action -------------------------------------------------------------------------------


def test_act_1_a_plants_up_to_three_sprouts():
    state = play(act_state(7, {}), 0, act("plant", 2, 6), act("plant", 2, 7), act("plant", 2, 8))
    turn = state.turns[0]
    assert turn.actions == ("A",) and turn.action_closed
    assert sorted(board(state).planet) == [(2, 6), (2, 7), (2, 8)]
    refused(state, 0, act("plant", 3, 7), "ACT-1")


def test_act_2_b_grows_two_different_cells():
    state = act_state(8, {(2, 7): "sprout", (2, 8): "sprout"})
    one = play(state, 0, act("grow", 2, 7))
    assert one.turns[0].actions == ("B", "C", "D")
    refused(one, 0, act("grow", 2, 7), "ACT-2")  # no sprout -> small -> large on one cell
    two = play(one, 0, act("grow", 2, 8))
    assert two.turns[0].actions == ("B",) and two.turns[0].action_closed
    assert board(two).planet == {(2, 7): "small", (2, 8): "small"}


def test_act_3_c_cannot_grow_its_own_sprout():
    state = act_state(7, {(2, 8): "sprout"})
    planted = play(state, 0, act("plant", 2, 7))
    refused(planted, 0, act("grow", 2, 7), "ACT-3")
    done = play(planted, 0, act("grow", 2, 8))
    assert done.turns[0].actions == ("C",) and done.turns[0].action_closed
    # either order
    other = play(state, 0, act("grow", 2, 8), act("plant", 2, 7))
    assert other.turns[0].actions == ("C",)
    assert board(other).planet == board(done).planet


def test_act_4_d_one_effect_anywhere():
    state = act_state(7, {(6, 1): "small"})  # swamp card
    outside = play(state, 0, act("plant", 0, 4))  # snow cell
    assert outside.turns[0].actions == ("D",) and outside.turns[0].action_closed
    refused(outside, 0, act("plant", 2, 7), "ACT-4")
    grown = play(state, 0, act("grow", 6, 1))  # flowers cell
    assert board(grown).planet[(6, 1)] == "large" and grown.turns[0].actions == ("D",)
    refused(grown, 0, act("plant", 2, 7), "ACT-4")


def test_act_5_a_b_c_stay_in_the_card_biome_unless_wild():
    state = play(act_state(7, {}), 0, act("plant", 2, 7))
    refused(state, 0, act("plant", 0, 4), "ACT-5")
    legal = rules.legal_moves(state, 0)
    assert act("plant", 0, 4) not in legal and act("plant", 2, 8) in legal
    wild = play(act_state(37, {}), 0, act("plant", 0, 4), act("plant", 6, 1), act("plant", 2, 7))
    assert wild.turns[0].actions == ("A",)
    wild_b = play(act_state(38, {(0, 4): "sprout", (6, 1): "sprout"}), 0, act("grow", 0, 4))
    refused(wild_b, 0, act("grow", 0, 4), "ACT-2")  # different cells still
    wild_b = play(wild_b, 0, act("grow", 6, 1))
    assert wild_b.turns[0].actions == ("B",)


def test_act_6_the_engine_infers_the_action():
    state = act_state(7, {(2, 8): "sprout", (3, 8): "small"})
    assert state.turns[0].actions == ("A", "B", "C", "D")
    planted = play(state, 0, act("plant", 2, 7))
    assert planted.turns[0].actions == ("A", "C", "D") and not planted.turns[0].action_closed
    grown = play(state, 0, act("grow", 2, 8))
    assert grown.turns[0].actions == ("B", "C", "D")
    # legal action moves are exactly those that keep an action consistent
    legal = [m for m in rules.legal_moves(planted, 0) if m.get("by") == "action"]
    cells = {(m["type"], tuple(m["cell"])) for m in legal}
    assert ("grow", (2, 8)) in cells and ("grow", (3, 8)) in cells  # C
    assert ("grow", (2, 7)) not in cells  # C's own sprout
    assert all(rules.PLANET[cell] == "swamp" for _, cell in cells)
    # done without any effect: an action with no effect
    finished = play(act_state(7, {}, players=2), 0, DONE)
    assert finished.turns[0].done and finished.turns[0].effects == ()
    assert board(finished).planet == {}


# --- the power --------------------------------------------------------------------------------


def test_pow_1_the_power_is_optional_and_activated_once():
    state = act_state(7, {})
    skipped = play(state, 0, act("plant", 2, 7))
    assert board(skipped).tracks == (0,) * 6
    powered = play(state, 0, POWER)
    refused(powered, 0, POWER, "POW-1")


def test_pow_2_upgrade_then_read_the_value():
    state = play(act_state(7, {}), 0, POWER)
    assert track(state, "sprout") == 1 and state.turns[0].budget_left == 2
    state = play(act_state(7, {}, tracks=(3, 0, 0, 0, 0, 0)), 0, POWER)
    assert track(state, "sprout") == 4 and state.turns[0].budget_left == 5
    state = play(act_state(7, {}, tracks=(5, 0, 0, 0, 0, 0)), 0, POWER)
    assert track(state, "sprout") == 5 and state.turns[0].budget_left == 6  # upgrade skipped


def test_pow_3_up_to_the_budget_anywhere():
    state = play(act_state(9, {(0, 4): "small", (6, 1): "small"}, tracks=(0, 0, 1, 0, 0, 0)),
                 0, POWER)  # fmt: skip
    assert state.turns[0].budget_left == 2
    state = play(state, 0, pwr("grow", 0, 4), pwr("grow", 6, 1))  # snow and flowers
    assert board(state).planet == {(0, 4): "large", (6, 1): "large"}
    refused(state, 0, pwr("grow", 0, 4), "POW-3")
    once = play(act_state(7, {}), 0, POWER, pwr("plant", 0, 4), DONE)  # 1 of 2 is enough
    assert track(once, "sprout") == 1 and board(once).planet == {(0, 4): "sprout"}


def test_POW_3_done_refused_before_one_application():
    state = play(act_state(7, {}, players=2), 0, POWER)
    assert state.turns[0].applied == 0
    refused(state, 0, DONE, "POW-3")
    assert DONE not in rules.legal_moves(state, 0)
    applied = play(state, 0, pwr("plant", 0, 4))
    assert applied.turns[0].applied == 1 and DONE in rules.legal_moves(applied, 0)
    finished = play(applied, 0, DONE)
    assert finished.turns[0].done and track(finished, "sprout") == 1


def test_POW_3_action_refused_before_one_application():
    # An action effect would close the power (TIM-2) with no application: the track would
    # have moved for nothing.
    state = play(act_state(7, {}), 0, POWER)
    refused(state, 0, act("plant", 2, 7), "POW-3")
    assert not [m for m in rules.legal_moves(state, 0) if m.get("by") == "action"]
    state = play(state, 0, pwr("plant", 0, 4), act("plant", 2, 7))
    assert state.turns[0].power_closed and board(state).planet[(2, 7)] == "sprout"


def test_POW_3_power_not_activated_without_a_legal_application():
    full = {cell: "bush" for cell in rules.PLAYABLE}
    for card, planet in (
        (8, {}),  # grow_small: no sprout
        (8, {(0, 4): "small", (0, 5): "large"}),
        (9, {(0, 4): "sprout", (0, 5): "large"}),  # grow_large: no small tree
        (7, full),  # sprout: no empty cell
        (10, full),  # bush
        (11, full),  # lake
    ):
        state = act_state(card, planet)
        refused(state, 0, POWER, "POW-3")
        assert POWER not in rules.legal_moves(state, 0)
        assert DONE in rules.legal_moves(state, 0)  # skipping the power stays legal (POW-1)
    # a crack is no empty cell (EFF-3): one free playable cell is enough, and it is offered
    one_left = dict(full)
    del one_left[(4, 4)]
    state = play(act_state(7, one_left), 0, POWER)
    powered = [m for m in rules.legal_moves(state, 0) if m.get("by") == "power"]
    assert powered == [pwr("plant", 4, 4)]
    # the application may come from the action done before: grow_small after planting
    after_action = play(act_state(8, {}), 0, act("plant", 2, 7))
    assert POWER in rules.legal_moves(after_action, 0)
    after_action = play(after_action, 0, POWER, pwr("grow", 2, 7))
    assert board(after_action).planet == {(2, 7): "small"}
    # bloom has no target: always possible (POW-6), even on a full planet
    assert POWER in rules.legal_moves(act_state(12, full), 0)


def test_POW_3_lake_counts_once_its_grows_do_not():
    planet = {(0, 3): "sprout"}
    state = play(act_state(11, planet, players=2), 0, POWER)
    refused(state, 0, DONE, "POW-3")
    state = play(state, 0, pwr("lake", 0, 4))
    assert state.turns[0].applied == 1
    assert DONE in rules.legal_moves(state, 0)  # the lake's grows are "up to 2": 0 is fine
    state = play(state, 0, by_lake(0, 3))
    assert state.turns[0].applied == 1


def test_POW_3_undo_walks_back_through_the_activation():
    state = act_state(7, {}, players=2)
    start = rules.dump(state)
    powered = play(state, 0, POWER)
    applied = play(powered, 0, pwr("plant", 0, 4))
    back = play(applied, 0, {"type": "undo"})
    assert rules.dump(back) == rules.dump(powered)
    assert back.turns[0].applied == 0 and DONE not in rules.legal_moves(back, 0)
    assert {"type": "undo"} in rules.legal_moves(back, 0)
    before = play(back, 0, {"type": "undo"})
    assert rules.dump(before) == start and track(before, "sprout") == 0
    assert DONE in rules.legal_moves(before, 0) and POWER in rules.legal_moves(before, 0)


def test_POW_6_bloom_is_its_own_application_and_pays_its_full_value():
    state = play(act_state(12, {}, players=2), 0, POWER)
    assert state.turns[0].applied == 1 and board(state).bloom == 2
    assert DONE in rules.legal_moves(state, 0)
    assert [m for m in rules.legal_moves(state, 0) if m.get("by") == "action"]
    finished = play(state, 0, DONE)
    assert board(finished).bloom == 2  # "up to" never lowers bloom: the full value


def test_pow_4_each_power_effect():
    sprout = play(act_state(7, {}), 0, POWER, pwr("plant", 0, 4))
    assert board(sprout).planet == {(0, 4): "sprout"}
    small = play(act_state(8, {(0, 4): "sprout", (0, 5): "small"}), 0, POWER)
    refused(small, 0, pwr("grow", 0, 5), "POW-4")  # grow_small grows sprouts only
    assert board(play(small, 0, pwr("grow", 0, 4))).planet[(0, 4)] == "small"
    large = play(act_state(9, {(0, 4): "sprout", (0, 5): "small"}), 0, POWER)
    refused(large, 0, pwr("grow", 0, 4), "POW-4")  # grow_large grows small trees only
    assert board(play(large, 0, pwr("grow", 0, 5))).planet[(0, 5)] == "large"
    bush = play(act_state(10, {}), 0, POWER, pwr("bush", 6, 1))
    assert board(bush).planet == {(6, 1): "bush"}
    # the card's power only
    refused(play(act_state(8, {(0, 5): "sprout"}), 0, POWER), 0, pwr("plant", 0, 4), "POW-4")
    refused(play(act_state(7, {}), 0, POWER), 0, pwr("bush", 0, 4), "POW-4")
    refused(play(act_state(7, {}), 0, POWER), 0, pwr("lake", 0, 4), "POW-5")
    refused(act_state(7, {}), 0, pwr("plant", 0, 4), "POW-2")  # not activated


def test_pow_5_lake_and_its_two_adjacent_grows():
    planet = {(0, 3): "sprout", (0, 5): "small", (1, 4): "sprout", (2, 5): "sprout"}
    state = play(act_state(11, planet, tracks=(0, 0, 0, 0, 3, 0)), 0, POWER)
    assert state.turns[0].budget_left == 2
    state = play(state, 0, pwr("lake", 0, 4))
    refused(state, 0, by_lake(2, 5), "POW-5")  # not adjacent
    state = play(state, 0, by_lake(0, 5))  # either stage
    refused(state, 0, by_lake(0, 5), "POW-5")  # not twice by one lake
    state = play(state, 0, by_lake(1, 4))
    refused(state, 0, by_lake(0, 3), "POW-5")  # at most 2
    assert board(state).planet[(0, 5)] == "large" and board(state).planet[(1, 4)] == "small"
    # a second lake may grow the same cell again
    state = play(state, 0, pwr("lake", 2, 4), by_lake(1, 4))
    assert board(state).planet[(1, 4)] == "large"


def test_pow_5_another_step_forfeits_the_lake_grows():
    planet = {(0, 3): "sprout", (1, 4): "sprout", (2, 7): "sprout"}
    state = play(act_state(11, planet, tracks=(0, 0, 0, 0, 3, 0)), 0, POWER, pwr("lake", 0, 4))
    after_action = play(state, 0, act("grow", 2, 7))
    refused(after_action, 0, by_lake(0, 3), "POW-5")
    next_lake = play(state, 0, pwr("lake", 3, 8))
    refused(next_lake, 0, by_lake(1, 4), "POW-5")
    assert next_lake.turns[0].lake == (3, 8)


def test_pow_6_bloom_scores_at_once_and_eight_again_at_the_end():
    state = act_state(12, {})
    start = board(state).score
    state = play(state, 0, POWER)
    assert board(state).bloom == 2 and board(state).score == start + 2
    assert track(state, "bloom") == 1 and state.turns[0].budget_left == 0
    top = play(act_state(12, {}, tracks=(0, 0, 0, 0, 0, 5)), 0, POWER)
    assert board(top).bloom == 8 and track(top, "bloom") == 5
    four = play(act_state(42, {}, tracks=(0, 0, 0, 0, 0, 3)), 0, POWER)
    assert board(four).bloom == 6 and track(four, "bloom") == 4


def test_pow_7_power_and_action_may_use_the_same_cells():
    state = play(act_state(7, {}), 0, POWER, pwr("plant", 2, 7), pwr("plant", 2, 8))
    state = play(state, 0, act("grow", 2, 7), act("grow", 2, 8))
    assert board(state).planet == {(2, 7): "small", (2, 8): "small"}
    back = play(act_state(8, {}), 0, act("plant", 2, 7), POWER, pwr("grow", 2, 7))
    assert board(back).planet == {(2, 7): "small"}


# --- timing -----------------------------------------------------------------------------------


def test_tim_1_power_and_action_are_uninterrupted_blocks():
    before = play(act_state(7, {}), 0, POWER, pwr("plant", 0, 4), act("plant", 2, 7))
    refused(before, 0, pwr("plant", 0, 5), "TIM-2")
    after = play(act_state(7, {}), 0, act("plant", 2, 7), POWER, pwr("plant", 0, 4))
    refused(after, 0, act("plant", 2, 8), "TIM-2")
    assert board(after).planet == {(2, 7): "sprout", (0, 4): "sprout"}


def test_tim_2_switching_closes_the_first_block():
    state = play(act_state(7, {}), 0, act("plant", 2, 7), POWER)
    assert state.turns[0].action_closed and not state.turns[0].power_closed
    state = play(act_state(7, {}), 0, POWER, pwr("plant", 0, 4), act("plant", 2, 7))
    turn = state.turns[0]
    assert turn.power_closed and turn.budget_left == 0 and not turn.action_closed
    assert not [m for m in rules.legal_moves(state, 0) if m.get("by") == "power"]


def test_tim_3_done_is_final():
    state = act_state(7, {}, players=2)
    state = play(state, 0, POWER, pwr("plant", 0, 4), DONE)
    turn = state.turns[0]
    assert turn.done and turn.budget_left == 0  # unused effects are lost
    assert rules.active_seats(state) == {1}
    for move in (DONE, POWER, {"type": "undo"}, act("plant", 2, 7), pwr("plant", 0, 5)):
        refused(state, 0, move, "TIM-3")
    assert rules.legal_moves(state, 0) == []


# --- rulebook examples ------------------------------------------------------------------------


def test_example_daniel_power_first_then_action_b():
    state = act_state(7, {(2, 7): "sprout", (4, 7): "small"})
    state = play(state, 0, POWER)
    assert track(state, "sprout") == 1 and state.turns[0].budget_left == 2
    state = play(state, 0, pwr("plant", 0, 4), pwr("plant", 6, 1))
    state = play(state, 0, act("grow", 2, 7), act("grow", 4, 7))
    assert board(state).planet == {
        (0, 4): "sprout", (6, 1): "sprout", (2, 7): "small", (4, 7): "large",
    }  # fmt: skip
    assert state.turns[0].actions == ("B",)
    assert board(state).tracks == (1, 0, 0, 0, 0, 0)


def test_example_daniel_variant_action_closes_the_power():
    state = act_state(7, {(2, 7): "sprout", (4, 7): "small"})
    state = play(state, 0, POWER, pwr("plant", 0, 4), act("grow", 2, 7))
    refused(state, 0, pwr("plant", 6, 1), "TIM-2")


def test_example_sonia_action_a_then_lake():
    state = act_state(29, {})
    state = play(state, 0, act("plant", 7, 4), act("plant", 7, 6), act("plant", 8, 4))
    assert state.turns[0].actions == ("A",)
    state = play(state, 0, POWER)
    assert track(state, "lake") == 1 and state.turns[0].budget_left == 1
    state = play(state, 0, pwr("lake", 7, 5))
    refused(state, 0, by_lake(8, 4), "POW-5")  # diagonal
    state = play(state, 0, by_lake(7, 4), by_lake(7, 6))
    refused(state, 0, by_lake(7, 4), "POW-5")
    assert board(state).planet == {
        (7, 4): "small", (7, 6): "small", (8, 4): "sprout", (7, 5): "lake",
    }  # fmt: skip
    assert board(state).tracks[BLOOM] == 0 and board(state).tracks[LAKE] == 1


def test_POW_3_legal_moves_list_exactly_what_apply_accepts():
    """MOV-5 around POW-3: no ``power`` without an application, no ``done`` or action effect
    while the activated power owes one."""
    import json

    from app.games.base import IllegalMove

    cells = sorted(set(rules.PLANET) | rules.CRACKS)
    universe = [POWER, DONE, {"type": "undo"}]
    for r, c in cells:
        universe += [act("plant", r, c), act("grow", r, c), pwr("plant", r, c)]
        universe += [pwr("grow", r, c), pwr("bush", r, c), pwr("lake", r, c), by_lake(r, c)]
    full = {cell: "bush" for cell in rules.PLAYABLE}
    states = [
        act_state(8, {}),  # grow_small, nothing to grow: no power
        act_state(8, {(2, 7): "sprout"}),
        play(act_state(8, {(2, 7): "sprout"}), 0, POWER),  # owes its grow
        play(act_state(7, {}), 0, act("plant", 2, 7), POWER),  # owes, action closed
        play(act_state(11, {(0, 3): "sprout"}), 0, POWER),  # owes its lake
        play(act_state(11, {(0, 3): "sprout"}), 0, POWER, pwr("lake", 0, 4)),
        act_state(10, full),
        play(act_state(12, full), 0, POWER),
    ]
    key = lambda m: json.dumps(m, sort_keys=True)  # noqa: E731
    for state in states:
        accepted = []
        for move in universe:
            try:
                rules.apply(state, 0, move)
            except IllegalMove:
                continue
            accepted.append(move)
        assert sorted(map(key, accepted)) == sorted(map(key, rules.legal_moves(state, 0)))
