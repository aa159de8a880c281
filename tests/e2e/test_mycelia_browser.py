"""Chromium plays Mycelia against a real server, every move a click on the page: a whole
2-player game in two browser contexts, a bonus prompt that crosses to the other player's
browser, and a solo game against Gwidyon on a phone-sized screen."""

from __future__ import annotations

from typing import Any

import httpx
import pytest
from playwright.sync_api import Locator, Page, expect

from app.identity import COOKIE
from tests.e2e.test_arboretum_browser import sit_down, version, wait_for_version
from tests.e2e.test_conventions import check_page

pytestmark = pytest.mark.e2e

#: What a player sees at a glance: whether the table waits for them, the lit fields of their
#: board (where they lie, how many drops, whether a sanctuary field is next to them), the
#: prompt's buttons and the main phase's (read from the page, in one look).
LOOK = """() => {
  const q = (sel) => document.querySelector(sel);
  const chips = [...document.querySelectorAll('.seatbar .seatchip')];
  const seat = chips.findIndex(c => c.classList.contains('mine'));
  const look = {seat, over: !!q('.scoretable'), active: !!q('.seatchip.active.mine'), lit: []};
  const board = q(`#board-${seat} .board`);
  if (board) {
    const rows = [...board.querySelectorAll('.frow')].map(r => [...r.querySelectorAll('.field')]);
    const sanctuaries = [];
    rows.forEach((row, r) => row.forEach((f, c) => {
      if (f.classList.contains('t-sanctuary')) sanctuaries.push([r, c]); }));
    rows.forEach((row, r) => row.forEach((f, c) => {
      const b = f.querySelector(':scope > button.fbtn.lit');
      if (b && getComputedStyle(b).display !== 'none') look.lit.push({r, c,
        label: b.getAttribute('aria-label'),
        drops: +((f.getAttribute('aria-label').match(/: (\\d+) drop/) || [0, 0])[1]),
        near: sanctuaries.some(([a, d]) => Math.abs(a - r) + Math.abs(d - c) === 1)}); }));
  }
  look.choices = document.querySelectorAll('#prompt button.choice').length;
  look.skip = !!q('#prompt .skip-btn');
  look.fewer = !!q('#prompt input[name=myc-count][value=n1]');
  look.solo = document.querySelectorAll(`#board-${seat} label.org-solo`).length;
  look.toolB = !!q('#myc-tool-b');
  look.buys = [...document.querySelectorAll('#market .mcard')].map(
    c => c.querySelector('button.buy-btn') ? +c.querySelector('.cost b').textContent : -1);
  look.plays = document.querySelectorAll('button.play-btn').length;
  look.end = !!q('#prompt button.end-btn');
  return look;
}"""


def two_at_a_table(server: str, browser, game: str,
                   expansion: bool = False) -> tuple[Any, Any, Page, Page]:
    """Ana opens a 2-seat table (with the expansion cards if asked), Bo follows her invite
    link and sits down."""
    ana_ctx, bo_ctx = browser.new_context(), browser.new_context()
    ana, bo = ana_ctx.new_page(), bo_ctx.new_page()
    sit_down(ana, server, "Ana")
    ana.check(f"input[name=game][value={game}]")
    ana.select_option(f"#players-{game}", "2")
    if expansion:
        ana.check(f"input[name=opt-{game}-expansion][value=true]")
    ana.click("text=Create the table")
    invite = ana.input_value("#invite-link")
    sit_down(bo, server, "Bo")
    bo.goto(invite)
    bo.click("button:has-text('Sit here')")
    expect(ana.locator("#lobby")).to_contain_text("Bo")
    return ana_ctx, bo_ctx, ana, bo


def mine(page: Page) -> int:
    """The reader's seat, from the seat bar."""
    return int(page.evaluate(LOOK)["seat"])


def lit_button(page: Page, seat: int, spot: dict[str, Any]) -> Locator:
    return page.locator(f"#board-{seat} .frow:nth-child({spot['r'] + 1}) "
                        f".field:nth-child({spot['c'] + 1}) > button.fbtn.lit").first


def answer(page: Page, look: dict[str, Any], tried: dict[str, bool]) -> None:
    """Answer the prompt on the reader's page as a player keen to empty the board would."""
    seat = look["seat"]
    if look["choices"]:
        page.locator("#prompt button.choice").first.click()
        return
    if look["fewer"] and not tried.get("fewer"):
        page.check("#prompt input[name=myc-count][value=n1]")  # each field's 1-drop button
        page.locator(f"#board-{seat} button.fbtn.cnt-1:visible").first.click()
        tried["fewer"] = True
        return
    if look["solo"]:  # Gwidyon's card: a field with a drop, then where it goes
        page.locator(f"#board-{seat} label.org-solo").first.click()
        arrows = page.locator(f"#board-{seat} button.tgt:visible")
        labels = [arrows.nth(i).get_attribute("aria-label") or "" for i in range(arrows.count())]
        assert labels, "choosing a field with a drop brings up its arrows"
        arrows.nth(next((i for i, label in enumerate(labels)
                         if "Sanctuary of Life" in label), 0)).click()
        tried["solo move"] = True
        return
    lit = look["lit"]
    onto = [spot for spot in lit if "Sanctuary of Life" in spot["label"]]
    removing = sorted((spot for spot in lit if ": remove" in spot["label"]
                       or ": place" in spot["label"]), key=lambda spot: -spot["drops"])
    near = [spot for spot in lit if spot["near"] and ": choose" in spot["label"]]
    pick = (onto or removing or near or [None])[0]
    if pick is not None:
        lit_button(page, seat, pick).click()
    elif look["skip"]:
        page.locator("#prompt button.skip-btn").click()
    else:
        lit_button(page, seat, lit[0]).click()


def use_tile_b(page: Page, seat: int) -> bool:
    """Action tile b, in two clicks on the board: a field with a drop, then a lit field next
    to it (a drop onto a sanctuary field where one is in reach)."""
    page.check("#myc-tool-b")
    origins = page.locator(f"#board-{seat} label.org-b")
    expect(origins.first).to_be_visible()
    for i in range(origins.count()):
        origins.nth(i).click()
        onto = page.locator(f"#board-{seat} button.tgt:visible[aria-label*='Sanctuary of Life']")
        if onto.count():
            onto.first.click()
            return True
    page.locator(f"#board-{seat} button.tgt:visible").first.click()
    return True


def my_step(page: Page, tried: dict[str, bool]) -> bool:
    """One click of the player whose page this is, if the table waits for them."""
    look = page.evaluate(LOOK)
    if not look["active"]:
        return False
    if look["choices"] or look["skip"] or look["lit"] or look["solo"]:
        answer(page, look, tried)
    elif not tried.get("tile b") and look["toolB"]:
        tried["tile b"] = use_tile_b(page, look["seat"])
    elif max(look["buys"], default=-1) >= 0:
        best = look["buys"].index(max(look["buys"]))
        page.locator("#market .mcard").nth(best).locator("button.buy-btn").click()
    elif look["plays"]:
        page.locator("button.play-btn").first.click()
    else:
        assert look["end"], "with nothing else to do the turn can end"
        page.locator("#prompt button.end-btn").click()
    return True


def play_out(pages: list[Page], tried: dict[str, bool], moves: int) -> None:
    """Click until the game is over, each page for its own seat; every page sees each move."""
    for _ in range(moves):
        if pages[0].locator(".scoretable").count():
            return
        current = version(pages[0])
        mover = next((p for p in pages if my_step(p, tried)), None)
        assert mover is not None, "somebody must be active until the game ends"
        for page in pages:
            wait_for_version(page, current + 1)
        expect(mover.locator("#flash")).to_be_empty()
    raise AssertionError(f"the game did not end in {moves} clicks")


def test_two_people_play_a_whole_game(server: str, browser) -> None:
    ana_ctx, bo_ctx, ana, bo = two_at_a_table(server, browser, "mycelia")
    ana.click("text=Start the game")
    bo.wait_for_selector(".myc")
    expect(ana.locator("#board-0 .board[data-board] .field")).to_have_count(20)
    expect(ana.locator("button.play-btn")).to_have_count(3)
    expect(bo.locator("button.play-btn")).to_have_count(0)  # not Bo's turn
    expect(bo.locator("#prompt")).to_contain_text("Ana's turn")

    # Ana plays a card that asks for a field: Bo's page says what she is deciding.
    tried: dict[str, bool] = {}
    for _ in range(12):
        if ana.locator("#board-0 .fbtn.lit").count():
            break
        my_step(ana, tried) or my_step(bo, tried)
        wait_for_version(ana, version(ana))
        ana.wait_for_timeout(100)
    if ana.locator("#board-0 .fbtn.lit").count():
        expect(bo.locator("#prompt")).to_contain_text("Ana is ")
        expect(bo.locator("#prompt")).to_contain_text(" for ")
        assert not bo.locator("#board-1 .fbtn").count()

    play_out([ana, bo], tried, 900)
    expect(ana.locator("#seats")).to_contain_text("Game over")
    expect(bo.locator(".scoretable")).to_be_visible()
    assert tried.get("tile b"), "action tile b was used by clicks"
    # The end screen: the final scoring before the boards.
    scores, board = ana.locator("#scores").bounding_box(), ana.locator("#board-0").bounding_box()
    assert scores and board and scores["y"] < board["y"]
    log = ana.locator(".log").inner_text()
    assert "You played" in log and "Bo played" in log and "_" not in log
    ana_ctx.close()
    bo_ctx.close()


BONUS_CARDS = ("Amanita muscaria", "Lycoperdon perlatum", "Fomes fomentarius")


def dig_for_a_bonus(page: Page) -> None:
    """A turn's click aimed at a card whose bonus the other player answers (B3): recruit one,
    play one, else wipe the market (tile a) and play on, skipping every prompt."""
    seat = mine(page)
    offered = page.locator("#market .mcard:has(button.buy-btn)")
    for i in range(offered.count()):
        if offered.nth(i).locator(".cname").inner_text() in BONUS_CARDS:
            offered.nth(i).locator("button.buy-btn").click()
            return
    skip = page.locator("#prompt .skip-rest-btn, #prompt .skip-btn")
    if skip.count():
        skip.first.click()
        return
    if page.locator(f"#board-{seat} .fbtn.lit").count():  # a field that cannot be skipped
        page.locator(f"#board-{seat} .fbtn.lit").first.click()
        return
    hand = page.locator("#hand .mcard:has(button.play-btn)")
    names = [hand.nth(i).locator(".cname").inner_text() for i in range(hand.count())]
    first = next((i for i, name in enumerate(names) if name in BONUS_CARDS), 0 if names else None)
    market = page.locator("#market .cname").all_inner_texts()
    wipe = page.locator("#hand button.tile-btn")
    if first is not None:
        hand.nth(first).locator("button.play-btn").click()
    elif wipe.count() and not set(market) & set(BONUS_CARDS):
        wipe.first.click()
    else:
        page.locator("#prompt button.end-btn").click()


def test_a_bonus_is_answered_in_the_other_players_browser(server: str, browser) -> None:
    ana_ctx, bo_ctx, ana, bo = two_at_a_table(server, browser, "mycelia", expansion=True)
    ana.click("text=Start the game")
    bo.wait_for_selector(".myc")
    pages = [ana, bo]
    for _ in range(300):
        waiting = [p for p in pages if "a bonus for you" in p.locator("#prompt").inner_text()]
        if waiting:
            break
        current = version(ana)
        mover = next(p for p in pages if p.locator(".seatchip.active.mine").count())
        dig_for_a_bonus(mover)
        for page in pages:
            wait_for_version(page, current + 1)
    else:
        pytest.fail("no bonus prompt came up")
    answering = waiting[0]
    owner = bo if answering is ana else ana
    seat, name = mine(answering), ("Ana" if answering is ana else "Bo")
    # The owner's page says who decides what, and offers nothing to click.
    expect(owner.locator("#prompt")).to_contain_text(f"{name} is ")
    expect(owner.locator("#prompt")).to_contain_text("'s bonus")
    assert not owner.locator("#prompt button, #board-0 .fbtn, #board-1 .fbtn").count()
    assert owner.locator(".seatchip.active:not(.mine)").count() == 1
    # The bonus is answered by a click in the other browser.
    current = version(answering)
    lit_before = answering.locator(f"#board-{seat} .fbtn.lit").count()
    assert lit_before > 0
    answering.locator(f"#board-{seat} .fbtn.lit").first.click()
    wait_for_version(owner, current + 1)
    expect(answering.locator("#flash")).to_be_empty()
    expect(owner.locator("#log")).to_contain_text(name)
    ana_ctx.close()
    bo_ctx.close()


def test_solo_game_against_gwidyon(server: str, browser) -> None:
    ctx = browser.new_context(viewport={"width": 390, "height": 844})
    page = ctx.new_page()
    sit_down(page, server, "Sol")
    page.check("input[name=game][value=mycelia]")
    page.select_option("#players-mycelia", "1")
    page.click("text=Create the table")
    page.click("text=Start the game")
    page.wait_for_selector(".myc")
    expect(page.locator("#gwidyon")).to_contain_text("20 drops on his leaf-litter board")
    # On a phone the player's own board comes first, with fields a finger can hit.
    board, hand = page.locator("#board-0").bounding_box(), page.locator("#hand").bounding_box()
    field = page.locator("#board-0 .field").first.bounding_box()
    assert board and hand and field and board["y"] < hand["y"] and field["width"] >= 44
    tried: dict[str, bool] = {}
    play_out([page], tried, 500)
    expect(page.locator("#scores")).to_contain_text("Gwidyon")
    assert "Gwidyon revealed" in page.locator(".log").inner_text()
    scores = page.locator("#scores").bounding_box()
    board = page.locator("#board-0").bounding_box()
    assert scores and board and scores["y"] < board["y"], "the final scoring comes first"
    ctx.close()


def test_the_two_step_move_is_readable_and_large_enough(server: str, browser) -> None:
    """Action tile b with a field chosen: its arrows, the tiles and the hints pass the table
    conventions (contrast, text sizes, 44 px targets, 36 px on the board) at 1280 and 390 px."""
    ctx = browser.new_context()
    page = ctx.new_page()
    sit_down(page, server, "Sol")
    token = next(c["value"] for c in ctx.cookies() if c["name"] == COOKIE)
    api = httpx.Client(base_url=server, headers={"Authorization": f"Bearer {token}"})
    room = api.post("/api/rooms", json={"game": "mycelia", "players": 1}).json()["id"]
    api.post(f"/api/rooms/{room}/start")
    for _ in range(200):  # play cards and skip their prompts until 3 leaves pay for tile b
        state = api.get(f"/api/rooms/{room}/state").json()
        me = state["view"]["seats"][0]
        if not state["view"]["pending"] and me["leaves"] >= 3 and not me["tiles"][1]["used"]:
            break
        legal = api.get(f"/api/rooms/{room}/moves").json()["moves"]
        move = next((m for m in legal if m["type"] in ("play", "skip", "end_turn")), legal[0])
        api.post(f"/api/rooms/{room}/moves", json={"move": move})
    page.goto(f"{server}/rooms/{room}")
    page.check("#myc-tool-b")
    page.locator("#board-0 label.org-b").first.click()
    expect(page.locator("#board-0 button.tgt:visible").first).to_be_visible()
    check_page(page, "mycelia-tile-b")
    assert page.locator("#board-0 button.tgt:visible").count() >= 1
    ctx.close()
