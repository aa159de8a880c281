"""Issue 12 in Chromium: a player leaves a running game, a bot plays their seat on, they come
back and take it back at their next decision — every step a click, every change pushed to the
other player's page."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.e2e.test_arboretum_browser import take_turn_step, two_at_a_table, version

pytestmark = pytest.mark.e2e


def test_a_player_leaves_the_bot_plays_on_and_the_player_takes_the_seat_back(server, browser):
    ana_ctx, bo_ctx, ana, bo = two_at_a_table(server, browser, "arboretum")
    ana.click("text=Start the game")
    bo.wait_for_selector(".seatbar")
    expect(ana.locator(".seatchip.mine.active")).to_have_count(1)

    # Ana leaves: a bot plays her turn; Bo's page says so and sees the turn come to him.
    ana.locator(".seatactions .leave summary").click()
    ana.locator(".seatactions .leave button[type=submit]").click()
    expect(bo.locator(".seatchip.seat-0")).to_contain_text("a bot plays for now")
    expect(ana.locator(".seatactions .takeback")).to_contain_text("A bot plays your seat.")
    expect(bo.locator(".seatchip.mine.active")).to_have_count(1, timeout=15_000)
    assert version(bo) >= 3  # the bot drew twice and played (an Arboretum turn)
    expect(ana.locator("#hand .pick input:enabled")).to_have_count(0)  # nothing for Ana

    # Ana takes her seat back while Bo plays; his turn ends and the next decision is hers.
    ana.locator(".seatactions .takeback button").click()
    expect(bo.locator(".seatchip.seat-0")).not_to_contain_text("a bot plays for now")
    expect(ana.locator(".seatactions .leave")).to_have_count(1)
    while not ana.locator(".seatchip.mine.active").count():
        before = version(bo)
        take_turn_step(bo)
        bo.wait_for_function("v => +document.querySelector('.seatbar').dataset.version > v",
                             arg=before, timeout=15_000)
        ana.wait_for_function("v => +document.querySelector('.seatbar').dataset.version > v",
                              arg=before, timeout=15_000)
    at = version(ana)
    ana.wait_for_timeout(400)  # a bot would have moved by now (BOT_DELAY is 0.05 s)
    assert version(ana) == at, "no bot plays Ana's seat any more"
    take_turn_step(ana)
    ana.wait_for_function("v => +document.querySelector('.seatbar').dataset.version > v",
                          arg=at, timeout=15_000)
    ana_ctx.close()
    bo_ctx.close()
