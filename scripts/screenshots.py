"""Screenshots of every page at 1280 px and 390 px wide, in every language, for looking at what
players see.

    .venv/bin/python scripts/screenshots.py [BASE_URL] [OUT_DIR] [LANGUAGES]

Drives Debian's Chromium through Playwright against a running server (best started with
``BOT_DELAY=0.05``): the welcome and home pages, then for every game a lobby, a running table
against a bot (after a few clicks), a refusal's toast, the banner of a lost connection, the
rules panel and the end of a game of bots watched by its host — each as the whole page and as
the first screenful. Each language (``en,es,de,nl`` by default) is a browser of that
``Accept-Language``; files are named ``<language>-<page>-<desktop|mobile>.png``.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

import httpx
from playwright.sync_api import Browser, Locator, Page, sync_playwright

from app.games.registry import GAMES
from app.i18n import LOCALES, say

CHROMIUM = "/usr/bin/chromium"
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--no-first-run"]
SIZES = ((1280, 800, "desktop"), (390, 844, "mobile"))


def shoot(page: Page, out: Path, name: str, whole: bool = True) -> None:
    language = page.evaluate("document.documentElement.lang")
    for width, height, label in SIZES:
        page.set_viewport_size({"width": width, "height": height})
        page.wait_for_timeout(200)
        page.screenshot(path=str(out / f"{language}-{name}-{label}.png"), full_page=whole)


def player_page(browser: Browser, base: str, name: str, language: str) -> tuple[Page, str]:
    """A new browser context of that language with a named player (cookie) and their token."""
    api = httpx.Client(base_url=base)
    token = api.post("/api/players", json={"name": name}).json()["token"]
    context = browser.new_context(locale=language)
    context.add_cookies([{"name": "canopy_token", "value": token, "url": base}])
    return context.new_page(), token


def button(page: Page, words: str) -> Locator:
    """The button a person finds by its words, in the page's language."""
    text = say(words, page.evaluate("document.documentElement.lang"))
    return page.locator("button", has_text=text).first


def running_table(browser: Browser, base: str, out: Path, game_id: str, language: str) -> None:
    page, _ = player_page(browser, base, "Ana Longname-Example", language)
    page.goto(base + "/")
    page.check(f"input[name=game][value={game_id}]")
    button(page, "Create the table").click()
    shoot(page, out, f"{game_id}-lobby")
    button(page, "Add a bot").click()
    button(page, "Start the game").click()
    page.wait_for_selector(".seatbar")
    page.wait_for_timeout(800)
    shoot(page, out, f"{game_id}-table")
    for _ in range(3):  # a few clicks on whatever the table offers now
        move = page.locator("button[hx-post$='/act']:not(:disabled)")
        if not move.count():
            break
        move.first.click()
        page.wait_for_timeout(700)
    shoot(page, out, f"{game_id}-table-played")
    # a click that lacks a field the game asks for: the toast with the game's words
    game = GAMES[game_id]
    kind = next((k for k, fields in game.moves.items() if set(fields) & set(game.asks)), None)
    if kind is not None:
        room = page.locator(".table").get_attribute("data-room")
        page.evaluate("([room, move]) => htmx.ajax('POST', `/rooms/${room}/act`, "
                      "{target: '#flash', values: {move}})",
                      [room, f'{{"type": "{kind}"}}'])
        page.wait_for_selector("#flash .flash")
        shoot(page, out, f"{game_id}-refusal", whole=False)
    # the banner of a lost connection, as the socket's close shows it
    page.evaluate("document.querySelector('.table').dispatchEvent("
                  "new CustomEvent('htmx:wsClose', {bubbles: true}))")
    shoot(page, out, f"{game_id}-offline", whole=False)
    page.goto(f"{base}/games/{game_id}/rules")
    shoot(page, out, f"{game_id}-rules")
    page.context.close()


def end_screen(browser: Browser, base: str, out: Path, game_id: str, language: str) -> None:
    """A table of bots that its host watches to the end."""
    page, token = player_page(browser, base, "Hostina", language)
    api = httpx.Client(base_url=base, headers={"Authorization": f"Bearer {token}"})
    game = GAMES[game_id]
    players = max(game.min_players, min(3, game.max_players))
    room = api.post("/api/rooms", json={"game": game_id, "players": players,
                                        "seated": False}).json()["id"]
    for _ in range(players):
        api.post(f"/api/rooms/{room}/bots")
    api.post(f"/api/rooms/{room}/start")
    deadline = time.monotonic() + 180
    while api.get(f"/api/rooms/{room}/state").json()["result"] is None:
        if time.monotonic() > deadline:
            raise SystemExit(f"the bots did not finish {game_id}: start the server with "
                             "BOT_DELAY=0.05")
        time.sleep(0.3)
    page.goto(f"{base}/rooms/{room}")
    shoot(page, out, f"{game_id}-end-first-screen", whole=False)
    shoot(page, out, f"{game_id}-end")
    page.goto(f"{base}/rooms/{room}/replay?v=12")
    shoot(page, out, f"{game_id}-replay")
    page.context.close()


def table_life(browser: Browser, base: str, out: Path, language: str) -> None:
    """Life around a table: a clock per seat, leaving to a bot, the seat a bot plays, the
    rematch and replay at the end, a player's page of finished games."""
    page, token = player_page(browser, base, "Ana", language)
    api = httpx.Client(base_url=base, headers={"Authorization": f"Bearer {token}"})
    _, bo_token = player_page(browser, base, "Bo", language)
    bo = httpx.Client(base_url=base, headers={"Authorization": f"Bearer {bo_token}"})
    room = api.post("/api/rooms", json={
        "game": "arboretum", "players": 2,
        "clock": {"minutes": 10, "increment": 5, "on_timeout": "bot"}}).json()["id"]
    bo.post(f"/api/rooms/{room}/join")
    api.post(f"/api/rooms/{room}/start")
    page.goto(f"{base}/rooms/{room}")
    page.locator(".seatactions .leave summary").click()
    page.wait_for_timeout(1200)
    shoot(page, out, "life-clocks-leave", whole=False)
    page.locator(".seatactions .leave button[type=submit]").click()
    page.wait_for_selector(".seatactions .takeback")
    shoot(page, out, "life-bot-plays-for-you", whole=False)
    me = api.get("/api/players/me").json()["id"]
    page.goto(f"{base}/players/{me}")
    shoot(page, out, "life-player-page")
    turn = api.post("/api/rooms", json={"game": "evergreen", "players": 2, "pace": "turn",
                                        "move_hours": 48}).json()["id"]
    page.goto(f"{base}/rooms/{turn}")
    shoot(page, out, "life-turn-based-lobby")
    page.context.close()


def main() -> None:
    base = sys.argv[1] if len(sys.argv) > 1 else "http://127.0.0.1:8000"
    out = Path(sys.argv[2] if len(sys.argv) > 2 else "screenshots")
    languages = (sys.argv[3] if len(sys.argv) > 3 else ",".join(LOCALES)).split(",")
    out.mkdir(parents=True, exist_ok=True)
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        for language in languages:
            page = browser.new_context(locale=language).new_page()
            page.goto(base + "/")
            shoot(page, out, "welcome")
            page.fill("input[name=name]", "Ana")
            page.locator("form[action='/name'] button[type=submit]").click()
            shoot(page, out, "home")
            page.context.close()
            table_life(browser, base, out, language)
            for game_id in GAMES:
                running_table(browser, base, out, game_id, language)
                end_screen(browser, base, out, game_id, language)
        browser.close()


if __name__ == "__main__":
    main()
