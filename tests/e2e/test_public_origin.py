"""Chromium against a server started with ``PUBLIC_ORIGIN`` set to the address the browsers
use (http://localhost:<port>): Ana names herself and creates a private Arboretum table for
two, copies its invite link (which starts with PUBLIC_ORIGIN), Bo opens it in another browser,
names himself and sits, Ana starts and both play a few turns by clicks. A third browser that
reaches the same server through http://127.0.0.1:<port> — another origin — sees the pages but
its form posts are refused (403), and it gets no cookie."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from playwright.sync_api import Page, expect

from tests.e2e.conftest import free_port, serve
from tests.e2e.test_arboretum_browser import take_turn_step, version, wait_for_version

pytestmark = pytest.mark.e2e


@pytest.fixture(scope="module")
def origins(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, str]]:
    """(PUBLIC_ORIGIN, the same server through 127.0.0.1)."""
    port = free_port()
    public = f"http://localhost:{port}"
    for base in serve(tmp_path_factory, "app.main:app_factory", port=port,
                      PUBLIC_ORIGIN=public):
        yield public, base


def name_myself(page: Page, name: str) -> None:
    page.fill("input[name=name]", name)
    page.click("form[action='/name'] button[type=submit]")  # not the language switch's
    expect(page.locator(".me")).to_contain_text(name)


def test_friends_play_through_the_public_origin_and_another_origin_is_refused(
        origins: tuple[str, str], browser) -> None:
    public, other = origins
    ana_ctx = browser.new_context()
    ana_ctx.grant_permissions(["clipboard-read", "clipboard-write"], origin=public)
    bo_ctx, eve_ctx = browser.new_context(), browser.new_context()
    try:
        # Eve reaches the same server as http://127.0.0.1:<port>, not PUBLIC_ORIGIN: the
        # pages load, the forms are refused.
        eve = eve_ctx.new_page()
        eve.goto(other + "/")
        expect(eve.locator("input[name=name]")).to_be_visible()  # the page loads
        with eve.expect_response(lambda r: r.request.method == "POST"
                                 and r.url.endswith("/name")) as posted:
            eve.fill("input[name=name]", "Eve")
            eve.click("form[action='/name'] button[type=submit]")
        assert posted.value.status == 403
        assert posted.value.request.header_value("origin") == other
        assert not [c for c in eve_ctx.cookies() if c["name"] == "canopy_token"]
        eve.goto(other + "/")
        expect(eve.locator(".me")).to_have_count(0)

        ana = ana_ctx.new_page()
        ana.goto(public + "/")
        name_myself(ana, "Ana")
        ana.check("input[name=game][value=arboretum]")
        ana.select_option("#players-arboretum", "2")
        expect(ana.locator("input[type=checkbox][name=private]")).to_be_checked()
        ana.click("text=Create the table")
        expect(ana.locator("h1")).to_contain_text("private")
        link = ana.input_value("#invite-link")
        assert link.startswith(public + "/r/"), link
        expect(ana.locator(".invite .notice")).to_have_count(0)  # no "only this computer"
        ana.click("button[data-copy='#invite-link']")
        expect(ana.locator("button[data-copy='#invite-link']")).to_have_text("Copied")
        assert ana.evaluate("navigator.clipboard.readText()") == link

        bo = bo_ctx.new_page()
        bo.goto(link)  # a newcomer: the page asks for a name, which takes a seat
        assert bo.url.startswith(public + "/rooms/") and "invite=" in bo.url
        name_myself(bo, "Bo")
        expect(bo.locator("#lobby")).to_contain_text("Bo (you)")
        expect(ana.locator("#lobby")).to_contain_text("Bo")  # pushed to Ana's lobby live
        expect(ana.locator("#lobby .tag.host")).to_have_count(1)

        ana.click("text=Start the game")
        expect(ana.locator("#hand .pick")).to_have_count(7)
        bo.wait_for_selector(".seatbar")  # Bo's page reloads into the table
        expect(bo.locator("#hand .pick")).to_have_count(7)
        pages = [ana, bo]
        for _ in range(8):  # two whole turns each: draw, draw, plant, discard
            current = version(ana)
            mover = next((p for p in pages if p.locator(".seatchip.active.mine").count()),
                         None)
            assert mover is not None, "somebody must be active"
            take_turn_step(mover)
            for page in pages:
                wait_for_version(page, current + 1)
        assert version(ana) == version(bo) == 8
        assert "Bo" in ana.locator(".log").inner_text()

    finally:
        for ctx in (ana_ctx, bo_ctx, eve_ctx):
            ctx.close()
