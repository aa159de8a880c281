"""Chromium plays Evergreen against a real server: a whole 2-player game in two browser
contexts (simultaneous action phases, live progress of the other planet) and a solo game
against the automa on a phone-sized screen."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from tests.e2e.test_arboretum_browser import (
    sit_down,
    two_at_a_table,
    version,
    wait_for_version,
)

pytestmark = pytest.mark.e2e


def my_step(page: Page, acted: dict[str, bool]) -> bool:
    """One click of the active player: pick, one placement per round, then Done. Once in a
    game, with two tools to choose from, it chooses the second and clicks a lit space that
    only the other fits: the page sends the other tool's move, and no refusal shows."""
    if not page.locator(".seatchip.active.mine").count():
        return False
    current = version(page)
    round_key = page.locator(".season.now").inner_text()
    tools = page.locator(".planet-panel.mine input[name=ev-tool]")
    if page.locator("button.pick-btn").count():
        page.locator("button.pick-btn").first.click()
    elif not acted.get("other tool") and tools.count() >= 2:
        second = tools.nth(1).get_attribute("data-tool")
        tools.nth(1).check()
        other = page.locator(f".planet-panel.mine button.cellbtn:not(.tool-{second}):visible")
        if not other.count():
            acted["other tool"] = True  # every lit space fits the second tool too
            return my_step(page, acted)
        sent = other.first.get_attribute("class")
        other.first.click()
        acted["other tool"] = True
        acted[round_key] = True
        wait_for_version(page, current + 1)
        expect(page.locator("#flash")).to_be_empty()
        assert sent is not None and f"tool-{second}" not in sent
        return True
    elif page.locator("button.done-btn").count():
        tool = page.locator(".planet-panel.mine input[name=ev-tool]:checked")
        targets = page.locator(
            f".planet-panel.mine button.cellbtn.tool-{tool.get_attribute('data-tool')}"
            if tool.count() else ".no-tool")
        if not acted.get(round_key) and targets.count():
            targets.first.click()  # a space lit for the chosen tool
            acted[round_key] = True
        else:
            page.locator("button.done-btn").click()
    else:
        return False
    wait_for_version(page, current + 1)
    return True


def test_two_people_play_a_whole_game(server: str, browser) -> None:
    ana_ctx, bo_ctx, ana, bo = two_at_a_table(server, browser, "evergreen")
    ana.click("text=Start the game")
    bo.wait_for_selector(".ev")
    expect(ana.locator(".ev")).not_to_contain_text("reconstructed")  # no internal note

    checked_live = False
    acted: dict[int, dict[str, bool]] = {0: {}, 1: {}}
    for _ in range(600):
        if ana.locator(".fertable").count() and bo.locator(".fertable").count():
            break
        moved = False
        for i, page in enumerate((ana, bo)):
            before = version(page)
            if my_step(page, acted[i]):
                moved = True
                other = bo if page is ana else ana
                wait_for_version(other, before + 1)
                status = page.locator(".planet-panel.mine .pstatus").inner_text()
                if not checked_live and status.startswith(("action:", "power:", "lake:")):
                    # The other player sees this planet's progress live.
                    panel = other.locator(f"#planet-{i} .pstatus")
                    expect(panel).to_have_text(status)
                    checked_live = True
        if not moved:
            ana.wait_for_timeout(50)
    expect(ana.locator("#seats")).to_contain_text("Game over")
    expect(bo.locator(".fertable")).to_be_visible()
    assert checked_live, "a placing step was seen live on the other screen"
    assert acted[0].get("other tool") or acted[1].get("other tool")
    # The log speaks to its reader, in the rulebook's words.
    log = ana.locator(".log").inner_text()
    assert "You took" in log and "Bo took" in log and "card 1" not in log
    # The end screen: the final scores come before the planets.
    scores, planet = ana.locator("#scores").bounding_box(), ana.locator("#planet-0").bounding_box()
    assert scores and planet and scores["y"] < planet["y"]
    ana_ctx.close()
    bo_ctx.close()


def test_solo_game_against_the_automa(server: str, browser) -> None:
    ctx = browser.new_context(viewport={"width": 390, "height": 844})
    page = ctx.new_page()
    sit_down(page, server, "Sol")
    page.check("input[name=game][value=evergreen]")
    page.select_option("#players-evergreen", "1")
    page.click("text=Create the table")
    page.click("text=Start the game")
    page.wait_for_selector(".ev")
    acted: dict[str, bool] = {}
    measured = False
    for _ in range(400):
        if page.locator(".fertable").count():
            break
        cell = page.locator(".planet-panel.mine button.cellbtn:visible")
        if not measured and cell.count():
            # On a phone the player's own planet comes first, with spaces a finger can hit.
            box, mine, row = (cell.first.bounding_box(), page.locator("#planet-0").bounding_box(),
                              page.locator("#row").bounding_box())
            assert box and mine and row and mine["y"] < row["y"]
            assert box["width"] >= 32 and box["height"] >= 32
            measured = True
        if not my_step(page, acted):
            page.wait_for_timeout(50)
    assert measured
    expect(page.locator(".ev-status")).to_contain_text("Title:")
    assert "automa" in page.locator(".log").inner_text().lower()
    scores = page.locator("#scores").bounding_box()
    planet = page.locator("#planet-0").bounding_box()
    assert scores and planet and scores["y"] < planet["y"], "the final scores come first"
    ctx.close()
