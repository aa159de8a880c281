"""Chromium plays Arboretum against a real server: two people in two browser contexts, and
one person against a bot. Every click goes through the page as a player would make it."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import Page, expect

pytestmark = pytest.mark.e2e


def version(page: Page) -> int:
    return int(page.get_attribute(".seatbar", "data-version") or "0")


def sit_down(page: Page, base: str, name: str) -> None:
    page.goto(base + "/")
    page.fill("input[name=name]", name)
    page.click("form[action='/name'] button[type=submit]")  # not the language switch's
    expect(page.locator(".me")).to_contain_text(name)


def take_turn_step(page: Page) -> None:
    """One step for the active player: draw, plant or discard — as a person clicks it."""
    step = page.locator(".steps li.now").inner_text()
    if step.startswith("Draw"):
        deck = page.locator("button.draw-deck")
        (deck if deck.count() else page.locator("button.take").first).click()
    elif step == "Plant":
        page.locator("#hand .pick").first.click()
        page.locator("#arboreta button.target").first.click()
    else:
        page.locator("#hand .pick").first.click()
        page.click("text=Discard the chosen card")


def wait_for_version(page: Page, at_least: int) -> None:
    page.wait_for_function(
        "v => +document.querySelector('.seatbar').dataset.version >= v", arg=at_least,
        timeout=15_000)


def two_at_a_table(server: str, browser, game: str) -> tuple[Any, Any, Page, Page]:
    """Ana opens a 2-seat table, Bo follows her invite link and sits down."""
    ana_ctx, bo_ctx = browser.new_context(), browser.new_context()
    ana, bo = ana_ctx.new_page(), bo_ctx.new_page()
    sit_down(ana, server, "Ana")
    ana.check(f"input[name=game][value={game}]")
    ana.select_option(f"#players-{game}", "2")
    ana.click("text=Create the table")
    invite = ana.input_value("#invite-link")
    sit_down(bo, server, "Bo")
    bo.goto(invite)
    bo.click("button:has-text('Sit here')")
    expect(ana.locator("#lobby")).to_contain_text("Bo")  # pushed to Ana's lobby live
    return ana_ctx, bo_ctx, ana, bo


def test_two_people_play_a_whole_game(server: str, browser) -> None:
    ana_ctx, bo_ctx, ana, bo = two_at_a_table(server, browser, "arboretum")
    ana.click("text=Start the game")
    expect(ana.locator("#hand .pick")).to_have_count(7)
    bo.wait_for_selector(".seatbar")  # Bo's page reloads into the table
    expect(bo.locator("#hand .pick")).to_have_count(7)
    expect(bo.locator("#hand .pick input:enabled")).to_have_count(0)  # not Bo's turn

    # The cards Ana draws are marked new for her only; the log tells each of them once.
    ana.locator("button.draw-deck").click()
    wait_for_version(ana, 1)
    ana.locator("button.draw-deck").click()
    wait_for_version(ana, 2)
    expect(ana.locator("#hand .new-tag")).to_have_count(2)
    expect(ana.locator("#hand .pick:has(.new-tag)")).to_have_count(2)
    wait_for_version(bo, 2)
    expect(bo.locator("#hand .new-tag")).to_have_count(0)
    ana_log, bo_log = ana.locator("#log").inner_text(), bo.locator("#log").inner_text()
    assert ana_log.count("You drew ") == 2 and "You drew from the deck" not in ana_log
    assert bo_log.count("Ana drew from the deck") == 2 and "Ana drew " in bo_log

    # A space cannot be clicked before a card is chosen; choosing one lights every space.
    targets = ana.locator("#arboreta button.target")
    expect(targets.first).to_be_disabled()
    assert targets.first.evaluate("b => getComputedStyle(b).cursor") != "pointer"
    ana.locator("#hand .pick").first.click()
    expect(targets.first).to_be_enabled()
    assert version(ana) == 2

    pages = {"Ana": ana, "Bo": bo}
    for _ in range(400):
        if ana.locator(".arb-scoring table").count():
            break
        current = version(ana)
        mover = next((p for p in pages.values() if p.locator(".seatchip.active.mine").count()),
                     None)
        assert mover is not None, "somebody must be active until the game ends"
        take_turn_step(mover)
        for page in pages.values():
            wait_for_version(page, current + 1)
    expect(ana.locator(".arb-scoring")).to_contain_text("Final scoring")
    expect(bo.locator(".arb-scoring")).to_contain_text("Final scoring")
    assert ana.locator(".seatchip .score").count() == 2
    assert ana.locator(".tag.win").count() >= 1
    # The end screen: the scoring before the boards.
    scoring = ana.locator("#scoring").bounding_box()
    board = ana.locator("#arboretum-0").bounding_box()
    assert scoring is not None and board is not None and scoring["y"] < board["y"]
    expect(ana.locator("#log")).to_contain_text("Game over. You scored ")
    ana_ctx.close()
    bo_ctx.close()


def test_one_person_against_a_bot(server: str, browser) -> None:
    ctx = browser.new_context(viewport={"width": 390, "height": 844})  # a phone
    page = ctx.new_page()
    sit_down(page, server, "Cai")
    page.check("input[name=game][value=arboretum]")
    page.click("text=Create the table")
    page.click("button:has-text('Add a bot')")
    page.click("text=Start the game")
    expect(page.locator("#hand .pick")).to_have_count(7)
    # On a phone: the hand, the draw sources just under it, your own board, then the bot's
    # board folded, one tap away.
    tops = [page.locator(sel).bounding_box() for sel in ("#hand", "#sources", "#arboretum-0")]
    assert all(box is not None for box in tops)
    assert [box["y"] for box in tops] == sorted(box["y"] for box in tops)  # type: ignore[index]
    other = page.locator("details#arboretum-1")
    expect(other).not_to_have_attribute("open", "")
    expect(other.locator(".board")).to_be_hidden()
    other.locator("summary").click()
    expect(other.locator(".board")).to_be_visible()
    for _ in range(400):
        if page.locator(".arb-scoring table").count():
            break
        if page.locator(".seatchip.active.mine").count():
            current = version(page)
            take_turn_step(page)
            wait_for_version(page, current + 1)
        else:
            page.wait_for_timeout(50)
    expect(page.locator(".arb-scoring")).to_contain_text("Final scoring")
    assert "Bot 2" in page.locator(".log").inner_text()
    expect(other).to_have_attribute("open", "")  # still as Cai left it, through every move
    ctx.close()


def test_a_turn_with_the_keyboard_only(server: str, browser) -> None:
    """Every control is a native button or radio: a whole turn by Enter, Space and arrows."""
    ctx = browser.new_context()
    page = ctx.new_page()
    sit_down(page, server, "Dee")
    page.check("input[name=game][value=arboretum]")
    page.click("text=Create the table")
    page.click("button:has-text('Add a bot')")
    page.click("text=Start the game")
    expect(page.locator("#hand .pick")).to_have_count(7)
    for step in (1, 2):
        page.locator("button.draw-deck").focus()
        page.keyboard.press("Enter")
        wait_for_version(page, step)
    expect(page.locator(".steps li[aria-current=step]")).to_have_text("Plant")
    page.locator("#hand input[name=card]").first.focus()
    page.keyboard.press("Space")
    page.locator("#arboreta button.target").first.focus()
    page.keyboard.press("Enter")
    wait_for_version(page, 3)
    expect(page.locator(".steps li[aria-current=step]")).to_have_text("Discard")
    page.locator("#hand input[name=card]").first.focus()
    page.keyboard.press("ArrowRight")  # moves the choice to the next card
    chosen = page.locator("#hand input[name=card]:checked + .acard").get_attribute("title")
    page.locator("button.discard-btn").focus()
    page.keyboard.press("Enter")
    wait_for_version(page, 4)
    assert chosen is not None
    expect(page.locator("#log")).to_contain_text(f"You discarded {chosen}")
    ctx.close()
