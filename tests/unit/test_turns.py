"""Each address's requests are served one at a time (app/guard.py ``Turns``): a second waits
for the first; another address never waits for it; nothing is kept once nobody waits."""

from __future__ import annotations

import asyncio

from app.guard import Turns


def test_one_address_waits_its_turn_and_others_do_not():
    async def scenario() -> list[str]:
        turns, order = Turns(1), []

        async def request(address: str, name: str, hold: float) -> None:
            async with turns.turn(address):
                order.append(f"{name} in")
                await asyncio.sleep(hold)
                order.append(f"{name} out")

        await asyncio.gather(request("a", "a1", 0.05), request("a", "a2", 0.0),
                             request("b", "b1", 0.0))
        assert turns._by_address == {}  # forgotten once served
        return order

    order = asyncio.run(scenario())
    assert order.index("a1 out") < order.index("a2 in")  # the same address: one at a time
    assert order.index("b1 in") < order.index("a1 out")  # another address: at once


def test_two_at_a_time_when_allowed():
    async def scenario() -> int:
        turns, inside, most = Turns(2), 0, 0

        async def request() -> None:
            nonlocal inside, most
            async with turns.turn("a"):
                inside += 1
                most = max(most, inside)
                await asyncio.sleep(0.01)
                inside -= 1

        await asyncio.gather(*(request() for _ in range(6)))
        return most

    assert asyncio.run(scenario()) == 2
