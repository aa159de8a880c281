"""Chromium plays Evo against a real server, every move a click on the page as a person makes
it: a whole 2-player game in two browser contexts, and a 5-player game of one person and four
bots on a phone-sized screen.

The clicks: a bid button in the lab (mutation), a prompt's choice (the sealed event-card
windows, the survival keep choices, Adrenaline Rush's place, Chameleon Skin's "stay"), a
dinosaur on the island (a radio) then a target space that appears (movement, and Migration
once its card is chosen), a lit space (birth, a chameleon's step aside), a card's play
button, or the end of a movement or birth turn. Each choice is drawn with a seeded
``random.Random`` among the controls the page shows (the game's own seed is the server's, so
games differ from run to run). Whenever one player seals a window's choice while the other
still chooses, the other page must show none of the sealed cards."""

from __future__ import annotations

import random
import re
import time
from collections import Counter
from collections.abc import Callable

import pytest
from playwright.sync_api import Locator, Page, expect

from app.identity import COOKIE
from tests.e2e.test_arboretum_browser import version, wait_for_version
from tests.e2e.test_conventions import Player, check_page
from tests.e2e.test_mycelia_browser import two_at_a_table

pytestmark = pytest.mark.e2e

#: What a player sees at a glance: their seat, whether the table waits for them, the phase,
#: and how many of each kind of control the page shows now.
LOOK = """() => {
  const q = (sel) => document.querySelector(sel);
  const shown = (el) => el.getClientRects().length > 0 &&
    getComputedStyle(el).visibility !== 'hidden';
  const count = (sel) => [...document.querySelectorAll(sel)].filter(shown).length;
  const chips = [...document.querySelectorAll('.seatbar .seatchip')];
  return {
    seat: chips.findIndex(c => c.classList.contains('mine')),
    over: !!q('.scoretable'),
    active: !!q('.seatchip.active.mine'),
    phase: (q('#prompt .phaseline strong') || {textContent: ''}).textContent.trim(),
    ask: (q('#prompt .ask') || {textContent: ''}).textContent.trim(),
    bids: count('#lab button.bid'),
    choices: count('#prompt button.choice'),
    origins: count('#island label.sbtn.org'),
    lit: count('#island button.sbtn.lit'),
    end: count('#prompt button.end-btn'),
    plays: count('#hand button.play-btn'),
    migration: !!q('#evo-tool-migration'),
  };
}"""

#: The sizes of the island's controls shown now (lit spaces, dinosaurs to choose, targets).
SPOT_SIZES = """() => [...document.querySelectorAll(
    '#island button.sbtn.lit, #island label.sbtn.org, #island button.sbtn.tgt')]
  .filter(el => el.getClientRects().length && getComputedStyle(el).display !== 'none')
  .map(el => { const b = el.getBoundingClientRect();
               return [Math.round(b.width * 10) / 10, Math.round(b.height * 10) / 10]; })"""

CLICK = 5_000  # ms: a control the page showed a moment ago is there at once, or it is a bug


def shown(page: Page, selector: str) -> list[Locator]:
    found = page.locator(selector)
    return [found.nth(i) for i in range(found.count()) if found.nth(i).is_visible()]


def click_one(rng: random.Random, page: Page, selector: str) -> None:
    choices = shown(page, selector)
    assert choices, f"nothing to click for {selector}"
    rng.choice(choices).click(timeout=CLICK)


def two_clicks(rng: random.Random, page: Page, origins: str, targets: str) -> None:
    """Choose one of your dinosaurs (a radio on the island), then one of the spaces it may go
    to, which appear once it is chosen."""
    click_one(rng, page, origins)
    lit = shown(page, targets)
    assert lit, f"choosing a dinosaur ({origins}) shows where it may go"
    rng.choice(lit).click(timeout=CLICK)


def bid(rng: random.Random, page: Page) -> None:
    """A bid a thrifty person makes: on a random open column, one of its two lowest values."""
    columns = shown(page, "#lab .col.open")
    assert columns, "a bid button is shown in an open column"
    buttons = rng.choice(columns).locator("button.bid")
    rng.choice([buttons.nth(i) for i in range(min(2, buttons.count()))]).click(timeout=CLICK)


def my_step(page: Page, rng: random.Random, tally: Counter[str]) -> Callable[[], None] | None:
    """The next click (or two-click move) of the player whose page this is, if the table waits
    for them, to be made by calling it; what kind of click it is goes to ``tally``."""
    look = page.evaluate(LOOK)
    if not look["active"] or look["over"]:
        return None
    if look["choices"] or (look["lit"] and "Chameleon" in look["ask"]):
        # a window, the survivors to keep, Adrenaline Rush's place, a chameleon's escape
        options = shown(page, "#prompt button.choice") + shown(page, "#island button.sbtn.lit")
        assert options, f"the prompt's choices are shown: {look}"
        chosen = rng.choice(options)
        words = chosen.inner_text().split(" ")
        tally["choice: " + (" ".join(words[:3]) if words[0] == "Play" else words[0]
                            or "step aside")] += 1
        return lambda: chosen.click(timeout=CLICK)
    if look["bids"]:
        if look["plays"] and rng.random() < 0.3:
            tally["card"] += 1
            return lambda: click_one(rng, page, "#hand button.play-btn")
        tally["bid"] += 1
        return lambda: bid(rng, page)
    if look["plays"] and rng.random() < 0.25:
        tally["card"] += 1
        return lambda: click_one(rng, page, "#hand button.play-btn")
    if look["migration"] and rng.random() < 0.3:
        tally["migration"] += 1

        def migrate() -> None:
            page.check("#evo-tool-migration", timeout=CLICK)
            two_clicks(rng, page, "#island label.sbtn.org-mig", "#island button.sbtn.tgt")

        return migrate
    if look["origins"] and not (look["end"] and rng.random() < 0.25):
        tally["step"] += 1
        return lambda: two_clicks(rng, page, "#island label.sbtn.org",
                                  "#island button.sbtn.tgt")
    if look["lit"] and not (look["end"] and rng.random() < 0.1):
        tally["newborn"] += 1
        return lambda: click_one(rng, page, "#island button.sbtn.lit")
    assert look["end"], f"the table waits for this page but offers nothing to click: {look}"
    tally["end " + look["phase"].split(" ")[0].lower()] += 1
    return lambda: page.locator("#prompt button.end-btn").click(timeout=CLICK)


def click_and_wait(page: Page, click: Callable[[], None]) -> None:
    """Make the click, and wait for its answer: empty when the move was made (or dropped as
    meant for an older version of the table), a message in the toast when refused."""
    with page.expect_response(lambda r: r.url.endswith("/act")
                              and r.request.method == "POST") as answer:
        click()
    assert answer.value.ok and not answer.value.text().strip(), \
        f"a click was refused: {answer.value.status} {answer.value.text()}"


def check_sealed(mover: Page, others: list[Page], tally: Counter[str]) -> None:
    """While another player still chooses in the same window, the player who sealed sees their
    choice, and the other page shows none of the cards in it."""
    sealed = mover.locator("#prompt .ask.waiting", has_text="Your choice is sealed")
    waiting = [p for p in others if p.locator("#prompt button.choice").count()]
    if not sealed.count() or not waiting:
        return
    tally["sealed while another chose"] += 1
    choice = sealed.inner_text().split(": ", 1)[1]
    cards = [] if "kept" in choice or choice == "no card" else choice.split(" and ")
    for page in waiting:
        text = page.locator("body").inner_text()
        assert not any(card.split(" on your dinosaur")[0] in text for card in cards), \
            f"a page shows another player's sealed choice ({choice})"
        expect(page.locator("#seats")).to_contain_text(re.compile("choice sealed|survivors chosen"))


def play_out(pages: list[Page], rng: random.Random, tally: Counter[str], clicks: int) -> None:
    """Click until the game is over, each page for its own seat; every page sees each move."""
    for _ in range(clicks):
        if pages[0].locator(".scoretable").count():
            return
        current = version(pages[0])
        steps = ((p, my_step(p, rng, tally)) for p in rng.sample(pages, len(pages)))
        mover, click = next(((p, c) for p, c in steps if c is not None), (None, None))
        assert mover is not None and click is not None, "somebody is active until the end"
        click_and_wait(mover, click)
        for page in pages:
            wait_for_version(page, current + 1)
        expect(mover.locator("#flash")).to_be_empty()
        check_sealed(mover, [p for p in pages if p is not mover], tally)
    raise AssertionError(f"the game did not end in {clicks} clicks: {tally}")


def test_two_people_play_a_whole_game(server: str, browser) -> None:
    started = time.monotonic()
    ana_ctx, bo_ctx, ana, bo = two_at_a_table(server, browser, "evo")
    ana.click("text=Start the game")
    bo.wait_for_selector(".evo")
    ana.wait_for_selector(".evo")
    for page in (ana, bo):
        expect(page.locator("#island .spot")).to_have_count(
            page.locator("#island svg.isle-map g.sp").count())
        expect(page.locator("#lab .col")).to_have_count(2)
    check_page(ana, "evo-two-start")
    ana.set_viewport_size({"width": 1280, "height": 800})

    rng = random.Random(2024)
    tally: Counter[str] = Counter()
    play_out([ana, bo], rng, tally, 1500)
    for page in (ana, bo):
        expect(page.locator(".scoretable")).to_be_visible()
        expect(page.locator(".scoretable tbody tr")).to_have_count(2)
        expect(page.locator("#scores")).to_contain_text("Final ranking")
        expect(page.locator("#seats")).to_contain_text("Game over")
    log = ana.locator("#log").inner_text()
    assert "the meteorite fell" in log, "the game ends when the meteorite falls"
    assert "You bid" in log and "Bo bid" in log
    assert tally["bid"] and tally["step"] and tally["newborn"], tally
    assert any(kind.startswith("end ") for kind in tally), tally
    # The end screen: the final ranking before the island.
    scores, island = ana.locator("#scores").bounding_box(), ana.locator("#island").bounding_box()
    assert scores and island and scores["y"] < island["y"]
    check_page(ana, "evo-two-end")
    check_page(bo, "evo-two-end-bo")
    print(f"\nEvo, two people: {sum(tally.values())} clicks in "
          f"{time.monotonic() - started:.0f} s: {dict(tally)}")
    ana_ctx.close()
    bo_ctx.close()


def test_five_players_with_four_bots_on_a_phone(server: str, browser) -> None:
    started = time.monotonic()
    ana = Player(server, "Ana")
    room = ana.post("/api/rooms", {"game": "evo", "players": 5})["id"]
    for _ in range(4):
        ana.post(f"/api/rooms/{room}/bots")
    ana.post(f"/api/rooms/{room}/start")
    ctx = browser.new_context(viewport={"width": 390, "height": 844})
    ctx.add_cookies([{"name": COOKIE, "value": ana.token, "url": server}])
    page = ctx.new_page()
    page.goto(f"{server}/rooms/{room}")
    page.wait_for_selector(".evo")
    expect(page.locator(".seatbar .seatchip")).to_have_count(5)
    expect(page.locator("#lab .col")).to_have_count(5)

    rng = random.Random(5)
    tally: Counter[str] = Counter()
    widths: list[int] = []
    sizes: list[list[float]] = []
    deadline = time.monotonic() + 180
    while not page.locator(".scoretable").count():
        assert time.monotonic() < deadline, f"the game did not end in 3 minutes: {tally}"
        widths.append(page.evaluate("document.documentElement.scrollWidth"))
        sizes.extend(page.evaluate(SPOT_SIZES))
        click = my_step(page, rng, tally)
        if click is None:
            page.wait_for_timeout(40)
            continue
        click_and_wait(page, click)
        # the page shows the table as it is once the move is made (bots move meanwhile)
        wait_for_version(page, ana.api.get(f"/api/rooms/{room}/state").json()["version"])
        expect(page.locator("#flash")).to_be_empty()
    expect(page.locator(".scoretable tbody tr")).to_have_count(5)
    expect(page.locator("#scores")).to_contain_text("Final ranking")
    widths.append(page.evaluate("document.documentElement.scrollWidth"))
    assert max(widths) <= 390, f"the page scrolls sideways on a phone: {max(widths)} px"
    assert tally["bid"] and tally["step"], tally
    assert sizes, "the island offered spaces to click"
    small = [size for size in sizes if min(size) < 36]
    assert not small, f"island controls under 36 px on a phone: {small[:5]}"
    log = page.locator("#log").inner_text()
    assert "the meteorite fell" in log
    print(f"\nEvo, one person and four bots: {sum(tally.values())} clicks in "
          f"{time.monotonic() - started:.0f} s; the island's controls {min(map(min, sizes))} "
          f"px and more: {dict(tally)}")
    ctx.close()
