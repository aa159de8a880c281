"""Chromium at one Evergreen table in two languages: a Spanish browser and a German browser
each read the whole table in their own language at the same time; the language switch turns
a page Dutch and remembers it; a refused move shows the rule it breaks, and its link opens the
rules panel at that rule. The expected words come from the catalogues, not from this file."""

from __future__ import annotations

import httpx
import pytest
from playwright.sync_api import Page, expect

from app.i18n import say
from app.identity import COOKIE
from tests.e2e.test_conventions import check_page
from tests.games.test_languages import assert_translated, english_messages, shown

pytestmark = pytest.mark.e2e


class Person:
    """A player whose browser speaks ``language`` (its Accept-Language)."""

    def __init__(self, base: str, name: str, language: str) -> None:
        self.api = httpx.Client(base_url=base)
        self.token = self.api.post("/api/players", json={"name": name}).json()["token"]
        self.api.cookies.clear()
        self.api.headers["Authorization"] = f"Bearer {self.token}"
        self.language = language

    def page(self, browser, base: str) -> Page:
        context = browser.new_context(locale=self.language)
        context.add_cookies([{"name": COOKIE, "value": self.token, "url": base}])
        return context.new_page()

    def post(self, path: str, body: dict | None = None) -> dict:
        answer = self.api.post(path, json=body or {})
        assert answer.status_code < 300, answer.text
        return answer.json()


def readable(page: Page, locale: str) -> None:
    """The whole page in ``locale``: its language tag, and no English left in what it shows
    or reads out (the game's regions, the seat bar, the log, the rules panel)."""
    assert page.get_attribute("html", "lang") == locale
    assert_translated(shown(page.content()), locale, english_messages(locale),
                      f"the table page in {locale}")


def test_a_spanish_and_a_german_player_read_one_table_each_in_their_language(
        server: str, browser) -> None:
    ana, max_ = Person(server, "Ana", "es-ES"), Person(server, "Max", "de-DE")
    room = ana.post("/api/rooms", {"game": "evergreen", "players": 2})
    max_.post(f"/api/rooms/{room['id']}/join", {"code": room.get("code")})
    ana.post(f"/api/rooms/{room['id']}/start")
    pages = {"es": ana.page(browser, server), "de": max_.page(browser, server)}
    for locale, page in pages.items():
        page.goto(f"{server}/rooms/{room['id']}")
        expect(page.locator(".seatbar")).to_be_visible()
        expect(page.locator("summary", has_text=say("Game log", locale))).to_be_visible()
        readable(page, locale)
    # a move by whoever the table waits for reaches both pages, each in its language
    before = int(pages["de"].get_attribute(".seatbar", "data-version") or 0)
    mover = next(page for page in pages.values()
                 if page.locator("button[hx-post$='/act']:not(:disabled)").count())
    mover.locator("button[hx-post$='/act']:not(:disabled)").first.click()
    for locale, page in pages.items():
        page.wait_for_function("v => +document.querySelector('.seatbar').dataset.version > v",
                               arg=before, timeout=15_000)
        readable(page, locale)
    check_page(pages["de"], "evergreen-table-de")
    for page in pages.values():
        page.context.close()


def test_the_switch_turns_the_page_dutch_and_remembers_it(server: str, browser) -> None:
    ana = Person(server, "Ana", "es-ES")
    page = ana.page(browser, server)
    page.goto(server + "/")
    assert page.get_attribute("html", "lang") == "es"
    page.locator("details.language summary").click()
    page.locator("details.language button[value=nl]").click()
    expect(page.locator("html")).to_have_attribute("lang", "nl")
    assert page.url == server + "/"
    page.goto(server + "/")                         # the cookie remembers it
    assert page.get_attribute("html", "lang") == "nl"
    other = ana.page(browser, server)               # the player's record too: a new browser
    other.context.clear_cookies(name="canopy_lang")
    other.goto(server + "/")
    assert other.get_attribute("html", "lang") == "nl"
    page.context.close()
    other.context.close()


def test_a_refusal_links_to_its_rule_in_the_rules_panel(server: str, browser) -> None:
    ana = Person(server, "Ana", "de-DE")
    room = ana.post("/api/rooms", {"game": "evergreen", "players": 1})["id"]
    ana.post(f"/api/rooms/{room}/start")
    page = ana.page(browser, server)
    page.goto(f"{server}/rooms/{room}")
    expect(page.locator(".seatbar")).to_be_visible()
    # a move the page does not offer (a space off the planet), sent as a click sends it
    page.evaluate("""room => htmx.ajax('POST', `/rooms/${room}/act`, {target: '#flash',
        values: {move: JSON.stringify({type: 'plant', cell: [0, 0], by: 'action'})}})""",
                  room)
    toast = page.locator("#flash .flash")
    expect(toast).to_be_visible()
    link = toast.locator("a.rule-link")
    expect(link).to_be_visible()
    anchor = link.get_attribute("data-rule")
    assert_translated(toast.inner_text(), "de", english_messages("de"), "the refusal")
    link.click()
    expect(page.locator("details#rules")).to_have_attribute("open", "")
    rule = page.locator(f"#rule-{anchor}")
    expect(rule).to_be_visible()
    assert page.evaluate("location.hash") == f"#rule-{anchor}"
    page.context.close()
