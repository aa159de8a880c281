"""The table in memory: names filled into log lines, the LRU of tables."""

from __future__ import annotations

import asyncio

from app.rooms.table import Tables, fill_names


def test_names_are_filled_in_one_pass_and_shown_as_typed():
    assert fill_names("{p0} took a card from {p1}", ["{p1}", "Bo"]) == "{p1} took a card from Bo"
    assert fill_names("{p0} and {p7}", ["Ana"]) == "Ana and {p7}"


class _Table:
    def __init__(self, room_id: int) -> None:
        self.room_id = room_id


def test_the_least_recently_used_idle_tables_leave_first():
    tables = Tables(kept=2)

    async def scenario() -> None:
        for room in (1, 2):
            tables.put(_Table(room), busy=lambda _: False)  # type: ignore[arg-type]
        tables.get(1)  # 2 is now the least recently used
        async with tables.lock(2):  # a move holds room 2: it stays; 1 goes instead
            tables.put(_Table(3), busy=lambda _: False)  # type: ignore[arg-type]
            assert (tables.peek(1), tables.peek(2) is not None) == (None, True)
        tables.put(_Table(4), busy=lambda room: room == 3)  # type: ignore[arg-type]
        assert tables.peek(2) is None and tables.peek(3) is not None

    asyncio.run(scenario())


def test_two_players_of_one_name_are_told_apart_by_their_seats():
    from app.rooms.store import told_apart

    assert told_apart(["Ana", "Bo", "Ana"]) == ["Ana (1)", "Bo", "Ana (3)"]
    assert told_apart(["Ana", "Bo"]) == ["Ana", "Bo"]
