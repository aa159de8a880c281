"""On a phone the game's prompt follows the player (app/static/table-life.js): after their own
move, and after a push that makes the game wait for them, the region a game marks with
``data-prompt`` (or the place it marks with ``data-prompt-focus``, where the answer is given)
is brought into view; a push that does not concern them leaves the page where it is."""

from __future__ import annotations

import time

import pytest
from playwright.sync_api import Page, expect

from app.identity import COOKIE
from tests.e2e.test_conventions import GAME_IDS, Player, seats_for

pytestmark = pytest.mark.e2e

PHONE = {"width": 390, "height": 844}
#: What the player may click now (the rules panel's and other hidden controls left out).
MOVES = "button[hx-post$='/act']:not(:disabled):visible"
#: The prompt, or where the game says its answer is given.
PROMPT = "[data-prompt], [data-prompt-focus]"


def phone_page(browser, base: str, player: Player) -> Page:
    context = browser.new_context(viewport=PHONE, reduced_motion="reduce")
    context.add_cookies([{"name": COOKIE, "value": player.token, "url": base}])
    return context.new_page()


def prompt_in_view(page: Page) -> bool:
    """The prompt or its focus shows at least in part on the screen."""
    return bool(page.evaluate("""(selector) => [...document.querySelectorAll(selector)]
        .some(e => { const r = e.getBoundingClientRect();
                     return r.height > 0 && r.bottom > 0 && r.top < innerHeight; })""",
                              PROMPT))


def prompt_text(page: Page) -> str:
    return " ".join(page.inner_text("[data-prompt]").split())


def settled(page: Page, player: Player, room: int) -> None:
    """Until the table waits for the player again (or the game ends) and the page shows that
    version."""
    for _ in range(150):
        state = player.api.get(f"/api/rooms/{room}/state").json()
        if state["result"] is not None or state["your_seat"] in state["active_seats"]:
            break
        time.sleep(0.1)
    expect(page.locator(".seatbar")).to_have_attribute("data-version", str(state["version"]))
    page.wait_for_timeout(300)  # the page's look after the swap


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_after_a_move_on_a_phone_the_prompt_is_in_view(server: str, browser, game_id: str):
    """Ana against bots on a 390 × 844 phone taps the lowest move on the page (a card below
    the prompt), scrolled to the top of her screen; once her move is back, the prompt is on
    the screen, every time it changed. At least one of those taps was made with the prompt
    scrolled out of view."""
    ana = Player(server, "Ana")
    room = ana.post("/api/rooms", {"game": game_id, "players": seats_for(game_id)})["id"]
    for _ in range(seats_for(game_id) - 1):
        ana.post(f"/api/rooms/{room}/bots")
    ana.post(f"/api/rooms/{room}/start")
    page = phone_page(browser, server, ana)
    page.goto(f"{server}/rooms/{room}")
    expect(page.locator(".seatchip.mine.active")).to_be_visible(timeout=15_000)
    followed = 0
    for _ in range(12):
        moves = page.locator(MOVES)
        if not moves.count():
            break
        before = prompt_text(page)
        version = page.get_attribute(".seatbar", "data-version") or ""
        moves.last.evaluate("e => e.scrollIntoView({block: 'start'})")  # read from there
        away = not prompt_in_view(page)
        moves.last.click()
        expect(page.locator(".seatbar")).not_to_have_attribute("data-version", version)
        settled(page, ana, room)
        if prompt_text(page) != before:
            assert prompt_in_view(page), \
                f"{game_id}: after the move the prompt is off the screen: {prompt_text(page)!r}"
            followed += away
        if followed >= 2:
            break
    assert followed, f"{game_id}: no move was made with the prompt out of view"
    page.context.close()


def test_a_push_that_makes_it_your_turn_brings_the_prompt_into_view(server: str, browser):
    """Bo reads the bottom of the page (the log) on his phone while Ana plays: her steps do
    not move his page; the move that hands the turn to him brings his prompt into view."""
    ana, bo = Player(server, "Ana"), Player(server, "Bo")
    room = ana.post("/api/rooms", {"game": "mycelia", "players": 2})["id"]
    bo.post(f"/api/rooms/{room}/join")
    ana.post(f"/api/rooms/{room}/start")
    page = phone_page(browser, server, bo)
    page.goto(f"{server}/rooms/{room}")
    expect(page.locator(".seatchip.active")).to_contain_text("Ana")

    def ana_moves() -> None:
        version = ana.api.get(f"/api/rooms/{room}/state").json()["version"]
        move = ana.api.get(f"/api/rooms/{room}/moves").json()["moves"][0]
        ana.post(f"/api/rooms/{room}/moves", {"move": move})
        expect(page.locator(".seatbar")).to_have_attribute("data-version", str(version + 1))
        page.wait_for_timeout(400)

    page.evaluate("window.scrollTo(0, document.documentElement.scrollHeight)")
    page.wait_for_timeout(200)
    assert not prompt_in_view(page), "the page is too short to test: the prompt shows anyway"
    ana_moves()  # her first draw: not Bo's concern
    assert not prompt_in_view(page), "a push for another seat moved Bo's page to the prompt"
    expect(page.locator("#log")).to_be_in_viewport()
    for _ in range(80):
        if 1 in ana.api.get(f"/api/rooms/{room}/state").json()["active_seats"]:
            break
        ana_moves()
    expect(page.locator("[data-prompt]")).to_contain_text("Your turn")
    assert prompt_in_view(page), "Bo's turn came and his prompt stayed off the screen"
    page.context.close()
