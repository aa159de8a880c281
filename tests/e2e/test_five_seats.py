"""Five players at one table, at 1280 px and 390 px: the lobby and the table lay every seat
out without sideways scrolling, each seat in its own colour with its letter. Played with the
test-only Sealed bids game (1–5 players); screenshots go to $SCREENSHOTS_DIR when it is set."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from tests.e2e.conftest import serve

pytestmark = pytest.mark.e2e


@pytest.fixture(scope="module")
def sealed_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    yield from serve(tmp_path_factory, "tests.games.sealed.serve:app_factory")


def check_layout(page, name: str) -> None:
    out = os.environ.get("SCREENSHOTS_DIR")
    for width in (1280, 390):
        page.set_viewport_size({"width": width, "height": 844})
        page.wait_for_timeout(150)
        overflow = page.evaluate("document.documentElement.scrollWidth - window.innerWidth")
        assert overflow <= 0, f"{name} scrolls sideways by {overflow} px at {width} px"
        if out:
            Path(out).mkdir(parents=True, exist_ok=True)
            page.screenshot(path=f"{out}/five-{name}-{width}.png", full_page=True)


def test_five_players_fit_the_lobby_and_the_table(sealed_server: str, browser) -> None:
    api = httpx.Client(base_url=sealed_server)
    ctx = browser.new_context()
    page = ctx.new_page()
    page.goto(sealed_server + "/")
    page.fill("input[name=name]", "Anastasia Longname")
    page.click("form[action='/name'] button[type=submit]")  # not the language switch's
    page.check("input[name=game][value=sealed]")
    page.select_option("#players-sealed", "5")
    page.click("text=Create the table")
    page.wait_for_selector(".seats-lobby")
    room = int(page.url.rstrip("/").rsplit("/", 1)[-1])
    code = page.input_value("#invite-link").rsplit("/r/", 1)[1]  # the table is private
    for name in ("Bo", "Cai", "Dee"):
        token = api.post("/api/players", json={"name": name}).json()["token"]
        api.cookies.clear()  # the next player is another script: no shared cookie jar
        joined = api.post(f"/api/rooms/{room}/join", json={"code": code},
                          headers={"Authorization": f"Bearer {token}"})
        assert joined.status_code == 200, joined.text
    page.select_option("#level-4", "random")
    page.click("button[aria-label='Add a bot on seat 5']")
    page.wait_for_selector(".seat-4 .tag")
    assert page.locator(".seats-lobby .seat-slot").count() == 5
    check_layout(page, "lobby")
    page.click("text=Start the game")
    page.wait_for_selector(".seatbar")
    chips = page.locator(".seatbar .seatchip")
    assert chips.count() == 5
    colours = {chips.nth(i).locator(".dot").evaluate("e => getComputedStyle(e).backgroundColor")
               for i in range(5)}
    letters = [chips.nth(i).locator(".dot").evaluate(
        "e => getComputedStyle(e, '::after').content") for i in range(5)]
    assert len(colours) == 5 and letters == ['"A"', '"B"', '"C"', '"D"', '"E"']
    # everyone bids at once (the bot may have bid already)
    assert page.locator(".seatbar .seatchip.active").count() >= 4
    check_layout(page, "table")
    ctx.close()
