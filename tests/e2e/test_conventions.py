"""The table conventions (README "Adding a game" → "Table conventions"), checked in Chromium
for every registered game at 1280 and 390 px, on a running table and on the end screen:

- contrast: axe-core's color-contrast rule finds nothing (WCAG AA);
- text: every text a person reads is at least 12 px, 14 px on a phone (decoration inside
  ``aria-hidden`` aside);
- touch: on a phone every enabled control is at least 44 × 44 px;
- nothing scrolls sideways;
- the end screen's first screenful holds the result, the way back to the tables and the
  start of the game's score summary (the element marked ``data-scores``);
- a double click on a move never shows an error, and the move is made once;
- every button state (hover, focus, active, disabled) keeps its label at AA contrast.

Screenshots go to $SCREENSHOTS_DIR when it is set.
"""

from __future__ import annotations

import os
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from playwright.sync_api import Page, expect

from app.games.registry import GAMES
from app.identity import COOKIE
from tests.e2e.conftest import ROOT

pytestmark = pytest.mark.e2e

AXE = (ROOT / "node_modules/axe-core/axe.min.js").read_text()
WIDTHS = {1280: 800, 390: 844}
GAME_IDS = sorted(GAMES)

CHECKS = (Path(__file__).with_name("page_checks.js")).read_text()


def shoot(page: Page, name: str) -> None:
    out = os.environ.get("SCREENSHOTS_DIR")
    if out:
        Path(out).mkdir(parents=True, exist_ok=True)
        page.screenshot(path=f"{out}/{name}.png", full_page=True)


def run_check(page: Page, name: str, *args: object) -> list[str]:
    """One of page_checks.js's checks, in the page (axe-core loaded for it)."""
    page.evaluate(AXE + ";" + CHECKS)
    found = page.evaluate(f"(args) => window.canopyChecks.{name}(...args)", list(args))
    return list(found)


def check_page(page: Page, name: str) -> None:
    """Contrast, text sizes, touch targets and width at 1280 and 390 px."""
    for width, height in WIDTHS.items():
        page.set_viewport_size({"width": width, "height": height})
        page.wait_for_timeout(200)
        where = f"{name} at {width} px"
        overflow = page.evaluate("document.documentElement.scrollWidth - window.innerWidth")
        assert overflow <= 0, f"{where} scrolls sideways by {overflow} px"
        small = run_check(page, "smallText", 12 if width > 600 else 14)
        assert not small, f"{where}: text too small: {small[:8]}"
        if width <= 600:
            targets = run_check(page, "smallTargets")
            assert not targets, f"{where}: touch targets under 44 px: {targets[:8]}"
        violations = run_check(page, "contrast")
        assert not violations, f"{where}: contrast under AA: {violations[:6]}"
        shoot(page, f"{name}-{width}")


class Player:
    """A person scripted through the API, whose browser context carries the same cookie."""

    def __init__(self, base: str, name: str) -> None:
        self.api = httpx.Client(base_url=base)
        self.token = self.api.post("/api/players", json={"name": name}).json()["token"]
        self.api.cookies.clear()
        self.api.headers["Authorization"] = f"Bearer {self.token}"

    def page(self, browser, base: str) -> Page:
        context = browser.new_context()
        context.add_cookies([{"name": COOKIE, "value": self.token, "url": base}])
        return context.new_page()

    def post(self, path: str, body: dict | None = None) -> dict:
        answer = self.api.post(path, json=body or {})
        assert answer.status_code < 300, answer.text
        return answer.json()


def seats_for(game_id: str) -> int:
    game = GAMES[game_id]
    return max(game.min_players, min(2, game.max_players))


def running_table(base: str, browser, game_id: str) -> tuple[Player, Page, int]:
    """Ana against bots; her page once it is her turn."""
    ana = Player(base, "Ana")
    room = ana.post("/api/rooms", {"game": game_id, "players": seats_for(game_id)})["id"]
    for _ in range(seats_for(game_id) - 1):
        ana.post(f"/api/rooms/{room}/bots")
    ana.post(f"/api/rooms/{room}/start")
    page = ana.page(browser, base)
    page.goto(f"{base}/rooms/{room}")
    expect(page.locator(".seatchip.mine.active")).to_be_visible(timeout=15_000)
    return ana, page, room


@pytest.fixture(scope="module")
def finished(server: str) -> Iterator[dict[str, tuple[Player, int]]]:
    """For each game, a table of bots only that its host watched to the end."""
    tables = {}
    for game_id in GAME_IDS:
        host = Player(server, "Hostina Watchwell-Longname")
        room = host.post("/api/rooms", {"game": game_id, "players": seats_for(game_id),
                                        "seated": False})["id"]
        for _ in range(seats_for(game_id)):
            host.post(f"/api/rooms/{room}/bots")
        host.post(f"/api/rooms/{room}/start")
        tables[game_id] = (host, room)
    for game_id, (host, room) in tables.items():
        for _ in range(600):
            if host.api.get(f"/api/rooms/{room}/state").json()["result"] is not None:
                break
            time.sleep(0.1)
        else:
            pytest.fail(f"the bots did not finish {game_id} in 60 s")
    yield tables


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_a_running_table_is_readable_on_every_screen(server: str, browser, game_id: str):
    """The table as dealt, then after each of a few clicks on the moves it offers (a game's
    next step shows other controls: a board's spaces, a tool bar)."""
    _, page, _ = running_table(server, browser, game_id)
    check_page(page, f"{game_id}-table")
    for step in range(1, 4):
        page.set_viewport_size({"width": 1280, "height": 800})
        move = page.locator("button[hx-post$='/act']:not(:disabled)")
        if not move.count():
            break
        version = page.get_attribute(".seatbar", "data-version")
        move.first.click()
        expect(page.locator(".seatbar")).not_to_have_attribute("data-version", version or "")
        page.wait_for_timeout(300)
        check_page(page, f"{game_id}-table-step{step}")
    page.context.close()


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_the_end_screen_leads_with_the_result(server: str, browser, finished, game_id: str):
    host, room = finished[game_id]
    page = host.page(browser, server)
    page.goto(f"{server}/rooms/{room}")
    for width, height in WIDTHS.items():
        page.set_viewport_size({"width": width, "height": height})
        page.evaluate("window.scrollTo(0, 0)")
        title = page.locator(".result h1")
        expect(title).to_contain_text("Game over")
        for what, element in (("the result", title),
                              ("the way back", page.get_by_role("link", name="Back to tables")),
                              ("the score summary", page.locator("[data-scores]").first)):
            # Retried: the page's socket may swap the region in again as it connects.
            expect(element, f"{what} is not in the first screenful at {width} px") \
                .to_be_in_viewport()
    check_page(page, f"{game_id}-end")
    page.get_by_role("link", name="Back to tables").click()
    expect(page).to_have_url(server + "/")
    page.context.close()


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_a_double_click_makes_one_move_and_shows_no_error(server: str, browser, game_id: str):
    ana, page, room = running_table(server, browser, game_id)
    before = ana.api.get(f"/api/rooms/{room}/state").json()["version"]
    move = page.locator("button[hx-post$='/act']:not(:disabled)").first
    move.dblclick()
    page.wait_for_timeout(1000)
    assert not page.locator("#flash .flash").count(), page.inner_text("#flash")
    after = ana.api.get(f"/api/rooms/{room}/state").json()
    assert after["version"] > before
    log = ana.api.get(f"/api/rooms/{room}/log").json()["events"]
    mine = [e for e in log if e["version"] > before and e["seat"] == after["your_seat"]]
    assert len({e["version"] for e in mine}) == 1, f"one click, one move: {mine}"
    page.context.close()


def luminance(css: str) -> tuple[float, float]:
    """Relative luminance and alpha of a computed CSS colour."""
    inside = css[css.index("(") + 1:-1].replace("/", ",").split(",")
    r, g, b = (float(v) / 255 for v in inside[:3])
    alpha = float(inside[3]) if len(inside) > 3 else 1.0

    def channel(c: float) -> float:
        return c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4

    return 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b), alpha


def contrast(ink: str, paper: str, behind: str) -> float:
    """The contrast of ``ink`` on ``paper`` (transparent paper: what is ``behind`` it)."""
    lum, _ = luminance(ink)
    back, alpha = luminance(paper)
    if alpha < 0.5:
        back, _ = luminance(behind)
    light, dark = max(lum, back), min(lum, back)
    return (light + 0.05) / (dark + 0.05)


def test_every_button_state_keeps_its_label_readable(server: str, browser) -> None:
    """Hover, focus, press and disable each kind of button of the lobby (Leave, Copy, Add a
    bot, Start …): the label keeps 4.5:1 against its background in every state."""
    ana = Player(server, "Ana")
    room = ana.post("/api/rooms", {"game": GAME_IDS[0], "players": 3})["id"]
    page = ana.page(browser, server)
    page.goto(f"{server}/rooms/{room}")
    buttons = page.locator("main button, main a.button")
    assert buttons.count() >= 4
    behind = page.evaluate("getComputedStyle(document.querySelector('.card')).backgroundColor")
    for i in range(buttons.count()):
        button = buttons.nth(i)
        if not button.is_visible():
            continue
        label = button.inner_text().strip()
        states = {"rest": lambda b: None, "hover": lambda b: b.hover(),
                  "focus": lambda b: b.focus()}
        for state, enter in states.items():
            enter(button)
            ink, paper = button.evaluate(
                "e => [getComputedStyle(e).color, getComputedStyle(e).backgroundColor]")
            ratio = contrast(ink, paper, behind)
            assert ratio >= 4.5, f"{label!r} when {state}: {ratio:.2f}:1 ({ink} on {paper})"
        if not button.is_disabled():
            button.hover()
            page.mouse.down()
            ink, paper = button.evaluate(
                "e => [getComputedStyle(e).color, getComputedStyle(e).backgroundColor]")
            page.mouse.move(0, 0)
            page.mouse.up()
            ratio = contrast(ink, paper, behind)
            assert ratio >= 4.5, f"{label!r} when pressed: {ratio:.2f}:1"
    disabled = page.locator("main button:disabled")
    assert disabled.count(), "Start waits for every seat: a disabled button to check"
    ink, paper = disabled.first.evaluate(
        "e => [getComputedStyle(e).color, getComputedStyle(e).backgroundColor]")
    assert contrast(ink, paper, behind) >= 4.5
    page.context.close()


def test_the_home_page_and_a_lobby_are_readable_on_every_screen(server: str, browser) -> None:
    ana = Player(server, "Ana Longname-Example")
    room = ana.post("/api/rooms", {"game": GAME_IDS[0], "players": 3})["id"]
    ana.post(f"/api/rooms/{room}/bots")
    page = ana.page(browser, server)
    page.goto(server + "/")
    check_page(page, "home")
    page.goto(f"{server}/rooms/{room}")
    check_page(page, "lobby")
    page.context.close()
