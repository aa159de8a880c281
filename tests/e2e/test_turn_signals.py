"""Your turn, noticed, in Chromium: Bo's table tab is in the background when Ana finishes her
turn; its title and favicon say it is his move, his chime plays and a notification appears
(he switched both on with a click). After his move the tab is plain again. A spectator's page
never shows any of it, and has no switches.

The browser's Notification is replaced by a recorder in Bo's context (headless Chromium shows
none), and the tones are counted where WebAudio makes them."""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from tests.e2e.test_arboretum_browser import (
    take_turn_step,
    two_at_a_table,
    version,
    wait_for_version,
)

pytestmark = pytest.mark.e2e

MARKED = re.compile(r"^● Your turn — ")
PLAIN_ICON = "/static/canopy.svg"
TURN_ICON = "/static/turn-favicon.svg"

#: Bo's browser: a Notification that records what it was asked to show (its permission is
#: granted by the click that asks), and WebAudio oscillators counted as they are made.
RECORDERS = """
window.__notes = [];
window.__tones = 0;
class RecordedNotification {
  constructor(title, options) { window.__notes.push({title, body: options && options.body}); }
  close() { window.__notes.closed = (window.__notes.closed || 0) + 1; }
  static requestPermission() {
    RecordedNotification.permission = "granted";
    return Promise.resolve("granted");
  }
}
RecordedNotification.permission = "default";
window.Notification = RecordedNotification;
const RealAudio = window.AudioContext;
window.AudioContext = class extends RealAudio {
  createOscillator() { window.__tones += 1; return super.createOscillator(); }
};
"""

HIDE = """hidden => {
  Object.defineProperty(document, "hidden", {configurable: true, get: () => hidden});
  Object.defineProperty(document, "visibilityState", {configurable: true,
                                                      get: () => hidden ? "hidden" : "visible"});
  document.dispatchEvent(new Event("visibilitychange"));
}"""


def icon(page: Page) -> str:
    return page.get_attribute("link[rel~='icon']", "href") or ""


def shoot(page: Page, name: str) -> None:
    """Screenshots at 1280 and 390 px into $SCREENSHOTS_DIR, when it is set."""
    out = os.environ.get("SCREENSHOTS_DIR")
    if not out:
        return
    Path(out).mkdir(parents=True, exist_ok=True)
    for width, height in ((1280, 800), (390, 844)):
        page.set_viewport_size({"width": width, "height": height})
        page.wait_for_timeout(150)
        page.screenshot(path=f"{out}/{name}-{width}.png")
    page.set_viewport_size({"width": 1280, "height": 800})


def play_the_turn(page: Page, others: list[Page]) -> None:
    """The page's player makes every step of their turn; each page follows every step."""
    while page.locator(".seatchip.active.mine").count():
        current = version(page)
        take_turn_step(page)
        for each in (page, *others):
            wait_for_version(each, current + 1)


def test_a_background_tab_is_told_when_its_turn_comes(server: str, browser) -> None:
    ana_ctx, bo_ctx, ana, bo = two_at_a_table(server, browser, "arboretum")
    room = ana.url.rsplit("/", 1)[-1].split("?")[0]
    bo_ctx.add_init_script(RECORDERS)  # from Bo's next page on: the table
    ana.click("text=Start the game")
    expect(ana.locator("#hand .pick")).to_have_count(7)
    bo.wait_for_selector(".seatbar")
    expect(bo.locator("#hand .pick")).to_have_count(7)
    plain = bo.title()
    assert not MARKED.match(plain) and icon(bo) == PLAIN_ICON, "not Bo's move yet"
    expect(ana).to_have_title(MARKED)  # Ana's own move, from the page's first view
    assert icon(ana) == TURN_ICON

    # A spectator: no switches, and (checked at each step below) never a marked title.
    watcher = browser.new_context().new_page()  # by the private table's watch link
    watch_link = ana.request.get(f"{server}/api/rooms/{room}").json()["watch_link"]
    watcher.goto(f"{server}{watch_link}")
    expect(watcher.locator(".tablename")).to_contain_text("watching")
    expect(watcher.locator(".turn-signals")).to_have_count(0)

    # Bo switches both signals on, by click and by keyboard; both say so with aria-pressed.
    bell = bo.locator(".turn-signals [data-signal=notify]")
    sound = bo.locator(".turn-signals [data-signal=sound]")
    expect(bell).to_be_visible()
    expect(bell).to_have_attribute("aria-pressed", "false")
    shoot(bo, "table-switches-off")
    bell.click()
    expect(bell).to_have_attribute("aria-pressed", "true")
    sound.focus()
    bo.keyboard.press("Enter")
    expect(sound).to_have_attribute("aria-pressed", "true")
    assert bo.evaluate("localStorage.getItem('canopy.sound')") == "on"
    tones = bo.evaluate("window.__tones")
    assert tones >= 1, "switching sound on plays a sample"
    shoot(bo, "table-switches-on")

    # Bo's tab goes to the background; Ana plays her whole turn.
    bo.evaluate(HIDE, True)
    assert bo.evaluate("document.hidden") is True
    play_the_turn(ana, [bo, watcher])
    expect(bo).to_have_title(MARKED)
    assert bo.title() == "● Your turn — " + plain
    assert icon(bo) == TURN_ICON
    notes = bo.evaluate("window.__notes")
    assert len(notes) == 1 and notes[0]["title"] == "Your turn"
    assert f"#{room} is waiting for you." in notes[0]["body"]
    assert bo.evaluate("window.__tones") > tones, "the chime plays"
    expect(ana).not_to_have_title(MARKED)
    assert icon(ana) == PLAIN_ICON
    assert not MARKED.match(watcher.title()) and icon(watcher) == PLAIN_ICON

    # Bo comes back to the tab (the notification closes) and moves: the tab is plain again.
    bo.evaluate(HIDE, False)
    assert bo.evaluate("window.__notes.closed") == 1
    shoot(bo, "table-your-move")
    play_the_turn(bo, [ana, watcher])
    expect(bo).to_have_title(plain)
    assert icon(bo) == PLAIN_ICON
    expect(ana).to_have_title(MARKED)
    assert len(bo.evaluate("window.__notes")) == 1, "no notification for a visible tab"
    assert not MARKED.match(watcher.title()) and icon(watcher) == PLAIN_ICON

    # Ana's home page: the table is hers to move, marked.
    ana.goto(server + "/")
    expect(ana.locator(".rooms li", has_text=f"#{room}").locator(".badge.yours")).to_have_text(
        "Your turn")
    shoot(ana, "home-your-move")
    for ctx in (ana_ctx, bo_ctx, watcher.context):
        ctx.close()


def test_a_notification_waits_for_the_click_that_allows_it(server: str, browser) -> None:
    """Without Bo's click on the bell no notification is shown, even in the background; the
    title still changes. A refused permission says how to allow it."""
    ana_ctx, bo_ctx, ana, bo = two_at_a_table(server, browser, "arboretum")
    bo_ctx.add_init_script(RECORDERS.replace('"granted"', '"denied"'))
    ana.click("text=Start the game")
    expect(ana.locator("#hand .pick")).to_have_count(7)
    bo.wait_for_selector(".seatbar")
    expect(bo.locator("#hand .pick")).to_have_count(7)
    bo.evaluate(HIDE, True)
    play_the_turn(ana, [bo])
    expect(bo).to_have_title(MARKED)
    assert bo.evaluate("window.__notes") == [] and bo.evaluate("window.__tones") == 0
    bo.evaluate(HIDE, False)
    bell = bo.locator(".turn-signals [data-signal=notify]")
    bell.click()
    expect(bo.locator("#flash")).to_contain_text("Notifications are blocked")
    expect(bell).to_have_attribute("aria-pressed", "false")
    for ctx in (ana_ctx, bo_ctx):
        ctx.close()
