"""The frame every game's table lives in, in Chromium against a real server: joining from an
invite link in one step, Back showing the present, the connection banner while the server is
away, and who is at the table, pushed live."""

from __future__ import annotations

import time

import pytest
from playwright.sync_api import Page, expect

from tests.e2e.conftest import free_port, serve
from tests.e2e.test_arboretum_browser import sit_down
from tests.e2e.test_conventions import Player, shoot

pytestmark = pytest.mark.e2e


def test_a_name_typed_on_an_invite_link_takes_a_seat(server: str, browser) -> None:
    """Bo follows Ana's invite link and types his name: he is seated, no further click. Cy,
    a latecomer to the full table, is told so and watches."""
    ana_ctx, bo_ctx, cy_ctx = browser.new_context(), browser.new_context(), browser.new_context()
    ana, bo, cy = ana_ctx.new_page(), bo_ctx.new_page(), cy_ctx.new_page()
    sit_down(ana, server, "Ana")
    ana.check("input[name=game][value=arboretum]")
    ana.select_option("#players-arboretum", "2")
    ana.click("text=Create the table")
    invite = ana.input_value("#invite-link")

    bo.goto(invite)
    bo.fill("input[name=name]", "Bo")
    bo.click("button:has-text('Take a seat')")
    expect(bo.locator(".seats-lobby")).to_contain_text("Bo (you)")
    expect(ana.locator("#lobby")).to_contain_text("Bo")  # pushed to Ana live

    cy.goto(invite)
    expect(cy.locator(".notice")).to_contain_text("Every seat at this table is taken")
    cy.fill("input[name=name]", "Cy")
    cy.click("button:has-text('Watch')")
    expect(cy.locator("#flash")).to_contain_text("you are watching")
    expect(cy.locator(".seats-lobby")).not_to_contain_text("Cy")
    for context in (ana_ctx, bo_ctx, cy_ctx):
        context.close()


def test_a_host_watches_a_table_of_bots_and_bots_keep_their_names(server: str,
                                                                  browser) -> None:
    page = browser.new_context().new_page()
    sit_down(page, server, "Hostina")
    page.check("input[name=game][value=arboretum]")
    page.select_option("#players-arboretum", "2")
    page.uncheck("input[name=seated][value=true]")
    page.click("text=Create the table")
    expect(page.locator(".seats-lobby")).not_to_contain_text("Hostina")
    for seat in (1, 2):
        page.click(f"button[aria-label='Add a bot on seat {seat}']")
        expect(page.locator(f".seats-lobby .seat-{seat - 1}")).to_contain_text(f"Bot {seat}")
    page.click("text=Start the game")
    chips = page.locator(".seatbar .seatchip .name")
    expect(chips.nth(0)).to_contain_text("Bot 1")
    expect(chips.nth(1)).to_contain_text("Bot 2")
    expect(page.locator(".tablename")).to_contain_text("watching")
    expect(page.locator(".result h1")).to_contain_text("Game over", timeout=60_000)
    page.context.close()


def test_back_after_playing_shows_the_present(server: str, browser) -> None:
    """A (private) table created and played on: Back to the home page lists it among the
    player's tables — the page is loaded again, not shown from before."""
    page = browser.new_context().new_page()
    sit_down(page, server, "Ana")
    expect(page.locator("main")).not_to_contain_text("Your tables")
    page.check("input[name=game][value=arboretum]")
    page.select_option("#players-arboretum", "2")
    page.click("text=Create the table")
    page.click("button[aria-label='Add a bot on seat 2']")
    page.click("text=Start the game")
    expect(page.locator(".seatchip.mine.active")).to_be_visible(timeout=15_000)
    page.locator("button.draw-deck").click()
    expect(page.locator(".seatbar")).not_to_have_attribute("data-version", "0")
    for _ in range(8):
        if page.url == server + "/":
            break
        page.go_back()
    assert page.url == server + "/"
    expect(page.locator("main")).to_contain_text("Your tables")
    expect(page.locator(".rooms").first).to_contain_text("Arboretum")


def test_the_banner_shows_while_the_connection_is_down(tmp_path_factory, browser) -> None:
    """The server stops: the banner comes and the table takes no clicks; it comes back on
    the same port and database: within 3 s of its answering the banner goes and the table is
    live again."""
    port = free_port()
    db_dir = tmp_path_factory.mktemp("restart")
    database = f"sqlite:///{db_dir}/canopy.db"
    first = serve(tmp_path_factory, "app.main:app_factory", port=port, DATABASE_URL=database)
    base = next(first)
    ana = Player(base, "Ana")
    room = ana.post("/api/rooms", {"game": "arboretum", "players": 2})["id"]
    ana.post(f"/api/rooms/{room}/bots")
    ana.post(f"/api/rooms/{room}/start")
    page = ana.page(browser, base)
    page.goto(f"{base}/rooms/{room}")
    expect(page.locator(".seatchip.mine .presence")).to_have_text("here")
    banner = page.locator("#connection")
    expect(banner).to_be_hidden()

    for _ in first:  # stops the server
        pass
    expect(banner).to_be_visible(timeout=10_000)
    assert page.evaluate("document.querySelector('.table').inert")
    shoot(page, "connection-lost")

    page.wait_for_timeout(6_000)  # down a while: the page's tries keep failing meanwhile
    second = serve(tmp_path_factory, "app.main:app_factory", port=port, DATABASE_URL=database)
    next(second)
    answering = time.monotonic()
    expect(banner).to_be_hidden(timeout=3_000)
    assert time.monotonic() - answering <= 3.0, "back later than 3 s after the server answered"
    assert not page.evaluate("document.querySelector('.table').inert")
    page.locator("button.draw-deck").click()
    expect(page.locator(".seatbar")).not_to_have_attribute("data-version", "0")
    page.context.close()
    for _ in second:
        pass


def test_who_is_at_the_table_is_pushed_live(server: str, browser) -> None:
    """Bo opens the table: Ana sees him there; he closes it: Ana sees him away. A third
    page is counted as watching."""
    ana, bo = Player(server, "Ana"), Player(server, "Bo")
    room = ana.post("/api/rooms", {"game": "arboretum", "players": 2, "private": False})["id"]
    bo.post(f"/api/rooms/{room}/join")
    ana.post(f"/api/rooms/{room}/start")
    ana_page = ana.page(browser, server)
    ana_page.goto(f"{server}/rooms/{room}")
    bo_chip = ana_page.locator(".seatchip.seat-1 .presence")
    expect(bo_chip).to_have_text("away")
    bo_page: Page = bo.page(browser, server)
    bo_page.goto(f"{server}/rooms/{room}")
    expect(bo_chip).to_have_text("here")
    guest = browser.new_context().new_page()
    guest.goto(f"{server}/rooms/{room}")
    expect(ana_page.locator(".watching")).to_have_text("1 watching")
    guest.context.close()
    bo_page.context.close()
    expect(bo_chip).to_have_text("away")
    expect(ana_page.locator(".watching")).to_have_count(0)
    ana_page.context.close()
