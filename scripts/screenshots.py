"""Screenshots of every page at 1280 px and 390 px wide, for looking at what players see.

    .venv/bin/python scripts/screenshots.py [BASE_URL] [OUT_DIR]

Drives Debian's Chromium through Playwright against a running server: picks a name, opens a
table of each game with bots, plays a few moves and photographs the home page, the lobby and
the table.
"""

from __future__ import annotations

import random
import sys
from pathlib import Path
from typing import Any

import httpx
from playwright.sync_api import Page, sync_playwright

CHROMIUM = "/usr/bin/chromium"
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--no-first-run"]


def shoot(page: Page, out: Path, name: str) -> None:
    for width, label in ((1280, "desktop"), (390, "mobile")):
        page.set_viewport_size({"width": width, "height": 900})
        page.wait_for_timeout(150)
        page.screenshot(path=str(out / f"{name}-{label}.png"), full_page=True)


def main() -> None:
    base = sys.argv[1] if len(sys.argv) > 1 else "http://127.0.0.1:8000"
    out = Path(sys.argv[2] if len(sys.argv) > 2 else "screenshots")
    out.mkdir(parents=True, exist_ok=True)
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        page = browser.new_page()
        page.goto(base + "/")
        shoot(page, out, "welcome")
        page.fill("input[name=name]", "Ana")
        page.click("button[type=submit]")
        shoot(page, out, "home")
        game = sys.argv[3] if len(sys.argv) > 3 else "arboretum"
        page.check(f"input[name=game][value={game}]")
        page.click("text=Create the table")
        shoot(page, out, f"{game}-lobby")
        page.click("button:has-text('Add a bot')")
        page.click("text=Start the game")
        page.wait_for_selector(".seatbar")
        page.wait_for_timeout(500)
        shoot(page, out, f"{game}-table")
        if game == "evergreen":
            page.click("button.pick-btn >> nth=0")
            page.wait_for_selector("#ev-form")
            page.wait_for_timeout(300)
            shoot(page, out, f"{game}-act")
            page.click("#planet-0 button.target >> nth=0")
            page.wait_for_timeout(600)
            shoot(page, out, f"{game}-act-step")
            finished_game(browser, base, out, "evergreen", 2)
        if game == "arboretum":
            play_a_turn(page)
            shoot(page, out, f"{game}-table-played")
            finished_game(browser, base, out)
        browser.close()


def play_a_turn(page: Page) -> None:
    """Draw twice, plant the first card of the hand, discard the next one."""
    for _ in range(2):
        page.click("button.draw-deck")
        page.wait_for_timeout(300)
    page.click("#hand .pick >> nth=0")
    page.click("#arboreta button.target >> nth=0")
    page.wait_for_timeout(300)
    page.click("#hand .pick >> nth=0")
    page.click("text=Discard the chosen card")
    page.wait_for_timeout(1500)


def finished_game(browser: Any, base: str, out: Path, game: str = "arboretum",
                  players: int = 3) -> None:
    """A game played to its end through the API, then its final screen."""
    api = httpx.Client(base_url=base)
    token = api.post("/api/players", json={"name": "Ana"}).json()["token"]
    headers = {"Authorization": f"Bearer {token}"}
    room = api.post("/api/rooms", json={"game": game, "players": players},
                    headers=headers).json()
    others = []
    for name in ("Bo", "Cai")[: players - 1]:
        api.cookies.clear()  # scripts identify with the bearer token, not a cookie jar
        t = api.post("/api/players", json={"name": name}).json()["token"]
        others.append({"Authorization": f"Bearer {t}"})
        api.post(f"/api/rooms/{room['id']}/join", headers=others[-1])
    api.post(f"/api/rooms/{room['id']}/start", headers=headers)
    seats = [headers, *others]
    rng = random.Random(5)
    while True:
        state = api.get(f"/api/rooms/{room['id']}/state").json()
        if state["result"]:
            break
        seat = state["active_seats"][0]
        moves = api.get(f"/api/rooms/{room['id']}/moves", headers=seats[seat]).json()["moves"]
        view = state["view"]
        if game == "evergreen" and view["season"] == "winter" and view["round"] == 2 and \
                view["phase"] == "select" and not (out / "evergreen-season-desktop.png").exists():
            shot_of(browser, base, token, room["id"], out, "evergreen-season")
        plays = [m for m in moves if m["type"] in ("play", "grow", "plant")]
        if game == "arboretum" and plays and rng.random() < 0.7:
            move = max(plays, key=lambda m: -abs(m["cell"][0]) - abs(m["cell"][1]))
        elif plays and rng.random() < 0.8:
            move = rng.choice(plays)
        else:
            move = rng.choice(moves)
        api.post(f"/api/rooms/{room['id']}/moves", json={"move": move}, headers=seats[seat])
    shot_of(browser, base, token, room["id"], out, f"{game}-final")


def shot_of(browser: Any, base: str, token: str, room_id: int, out: Path, name: str) -> None:
    context = browser.new_context()
    context.add_cookies([{"name": "canopy_token", "value": token, "url": base}])
    page = context.new_page()
    page.goto(f"{base}/rooms/{room_id}")
    shoot(page, out, name)
    context.close()


if __name__ == "__main__":
    main()
