"""The chess clocks' reading (app/rooms/clocks.py): the increment comes once per turn, and a
seat a bot took when its time ran out is remembered, in the stored reading, until a move
logs it."""

from __future__ import annotations

from app.rooms.clocks import Clocks, ran_out_line

SETTING = {"minutes": 5, "increment": 3, "on_timeout": "bot"}


def test_the_increment_is_added_when_the_turn_ends_not_for_a_move_within_it() -> None:
    clocks = Clocks.start(SETTING, 2, frozenset({0}), now=0.0)
    within = clocks.after_move(0, 10.0, frozenset({0}), turn_ended=False)
    assert within.left == (290.0, 300.0)
    again = within.after_move(0, 20.0, frozenset({0}), turn_ended=False)
    assert again.left == (280.0, 300.0)
    passed = again.after_move(0, 25.0, frozenset({1}), turn_ended=True)
    assert passed.left == (278.0, 300.0) and passed.running == frozenset({1})


def test_a_seat_out_of_time_is_kept_in_the_stored_reading_until_a_move_logs_it() -> None:
    clocks = Clocks.start(SETTING, 2, frozenset({0}), now=0.0).timed_out(0)
    stored = Clocks.from_json(clocks.to_json())
    assert stored.ran_out == (0,)
    assert stored.logged().ran_out == () and "ran_out" not in stored.logged().to_json()
    older = clocks.to_json()
    del older["ran_out"]  # a reading stored before this field: nobody out of time
    assert Clocks.from_json(older).ran_out == ()
    line = ran_out_line(1)
    assert line.msg is not None and line.text == "Time ran out for {p1}; a bot took the seat."
