"""A finished game's replay in Chromium against a real server: the arrow keys step through
the moves, End and Home jump to the end and to the deal, the links work as well; the page
reads on a phone and a desktop (contrast, text sizes, touch targets, no sideways scroll), for
every game; a public replay's seat picker shows a player's hand. Screenshots go to
/tmp/replay-shots/ (and $SCREENSHOTS_DIR when set)."""

from __future__ import annotations

import random
import sqlite3
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from tests.e2e.conftest import serve
from tests.e2e.test_conventions import GAME_IDS, Player, check_page, seats_for

pytestmark = pytest.mark.e2e

SHOTS = Path("/tmp/replay-shots")
WIDTHS = {1280: 800, 390: 844}


@pytest.fixture(scope="module")
def database(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("replay-e2e") / "canopy.db"


@pytest.fixture(scope="module")
def replay_server(tmp_path_factory: pytest.TempPathFactory, database: Path) -> Iterator[str]:
    """The app under uvicorn on a database file this module can reach."""
    yield from serve(tmp_path_factory, "app.main:app_factory",
                     DATABASE_URL=f"sqlite:///{database}")


@pytest.fixture(scope="module")
def bot_games(replay_server: str, database: Path) -> dict[str, tuple[Player, int]]:
    """For each game, a table of bots that its host watched to the end; and "public", an
    Arboretum table whose room chose public replays, where Ana (seat 0) played a bot."""
    tables = {}
    for game_id in [*GAME_IDS, "public"]:
        public = game_id == "public"
        host = Player(replay_server, "Ana" if public else "Hostina")
        game = "arboretum" if public else game_id
        room = host.post("/api/rooms", {"game": game, "players": seats_for(game),
                                        "seated": public})["id"]
        if public:  # the room's choice (the lobby's option, when it has it)
            with sqlite3.connect(database) as db:
                db.execute("UPDATE room SET public_replay = 1 WHERE id = ?", (room,))
        for _ in range(seats_for(game) - public):
            host.post(f"/api/rooms/{room}/bots")
        host.post(f"/api/rooms/{room}/start")
        tables[game_id] = (host, room)
    rng = random.Random(5)
    for game_id, (host, room) in tables.items():
        for _ in range(3000):
            state = host.api.get(f"/api/rooms/{room}/state").json()
            if state["result"] is not None:
                break
            if state["your_seat"] in state["active_seats"]:
                legal = host.api.get(f"/api/rooms/{room}/moves").json()["moves"]
                host.api.post(f"/api/rooms/{room}/moves", json={
                    "move": rng.choice(legal), "expected_version": state["version"]})
            else:
                time.sleep(0.05)
        else:
            pytest.fail(f"{game_id} did not finish")
    return tables


def shoot(page: Page, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=True)


def where(page: Page) -> str:
    return page.inner_text(".replay-nav .where")


def test_the_keyboard_steps_through_a_replay(replay_server: str, browser, bot_games) -> None:
    host, room = bot_games["arboretum"]
    last = host.api.get(f"/api/rooms/{room}/replay").json()["versions"] - 1
    page = host.page(browser, replay_server)
    page.goto(f"{replay_server}/rooms/{room}/replay")
    expect(page.locator(".replay-nav .where")).to_contain_text("The deal")
    assert page.locator(".replay .pygal-chart").is_visible()
    page.keyboard.press("ArrowRight")
    expect(page).to_have_url(f"{replay_server}/rooms/{room}/replay?v=1")
    expect(page.locator(".replay-nav .where")).to_contain_text("Move 1")
    page.keyboard.press("ArrowRight")
    expect(page.locator(".replay")).to_have_attribute("data-version", "2")
    page.keyboard.press("ArrowLeft")
    expect(page.locator(".replay")).to_have_attribute("data-version", "1")
    page.keyboard.press("End")
    expect(page.locator(".replay")).to_have_attribute("data-version", str(last))
    assert f"of {last}" in where(page)
    expect(page.locator("[data-scores]").first).to_be_visible()  # the game's final scoring
    expect(page.locator(".replay-final")).to_contain_text("winner")
    page.keyboard.press("ArrowRight")  # nothing after the end
    page.wait_for_timeout(300)
    expect(page.locator(".replay")).to_have_attribute("data-version", str(last))
    page.keyboard.press("Home")
    expect(page.locator(".replay")).to_have_attribute("data-version", "0")
    page.get_by_role("link", name="Next move").click()  # the links work without keys
    expect(page.locator(".replay")).to_have_attribute("data-version", "1")
    page.get_by_role("link", name="Last: the end").click()
    expect(page.locator(".replay")).to_have_attribute("data-version", str(last))
    page.context.close()


def test_a_step_keeps_the_readers_place(replay_server: str, browser, bot_games) -> None:
    host, room = bot_games["arboretum"]
    page = host.page(browser, replay_server)
    page.set_viewport_size({"width": 390, "height": 844})
    page.goto(f"{replay_server}/rooms/{room}/replay?v=5")
    page.evaluate("window.scrollTo(0, 600)")
    page.wait_for_timeout(100)
    page.locator(".replay-nav a[data-step=next]").click()
    expect(page.locator(".replay")).to_have_attribute("data-version", "6")
    page.wait_for_timeout(200)
    assert page.evaluate("window.scrollY") > 300, "the next step opened at the top"
    page.context.close()


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_a_replay_reads_on_every_screen(replay_server: str, browser, bot_games,
                                         game_id: str) -> None:
    """Half-way and at the end, at 1280 and 390 px: contrast, text sizes, touch targets, no
    sideways scroll; the screenshots are looked at."""
    host, room = bot_games[game_id]
    last = host.api.get(f"/api/rooms/{room}/replay").json()["versions"] - 1
    page = host.page(browser, replay_server)
    for name, version in (("middle", last // 2), ("end", last)):
        page.goto(f"{replay_server}/rooms/{room}/replay?v={version}")
        check_page(page, f"replay-{game_id}-{name}")
        for width, height in WIDTHS.items():
            page.set_viewport_size({"width": width, "height": height})
            page.wait_for_timeout(150)
            chart = page.locator(".replay .pygal-chart").bounding_box()
            assert chart is not None and chart["width"] <= width, "the chart fits the screen"
            shoot(page, f"{game_id}-{name}-{width}")
    page.context.close()


def test_a_public_replay_shows_a_seat_its_hand(replay_server: str, browser, bot_games) -> None:
    host, room = bot_games["public"]
    page = host.page(browser, replay_server)
    page.goto(f"{replay_server}/rooms/{room}/replay?v=3")
    expect(page.locator(".seeas a[aria-current]")).to_have_text("Spectator")
    assert page.locator(".arb-hand .handcards").count() == 0, "a spectator sees no hand"
    page.locator(".seeas").get_by_role("link", name="Bot 2").click()
    expect(page.locator(".replay")).to_have_attribute("data-version", "3")
    expect(page.locator(".arb-hand .handcards .acard").first).to_be_visible()
    assert page.locator(".arb-hand input[type=radio]:not(:disabled)").count() == 0
    page.keyboard.press("ArrowRight")  # the next step keeps the seat
    expect(page).to_have_url(f"{replay_server}/rooms/{room}/replay?v=4&seat=1")
    for width, height in WIDTHS.items():
        page.set_viewport_size({"width": width, "height": height})
        page.wait_for_timeout(150)
        shoot(page, f"public-arboretum-seat-{width}")
    page.context.close()


def test_a_players_page_lists_their_finished_games(replay_server: str, browser,
                                                   bot_games) -> None:
    """Ana's games, from the top bar's link: the finished game, its players and its winner,
    and the way to its replay; readable at 1280 and 390 px."""
    ana, room = bot_games["public"]
    page = ana.page(browser, replay_server)
    page.goto(replay_server + "/")
    page.get_by_role("link", name="Your games").click()
    expect(page.locator("h1")).to_have_text("Your finished games")
    game = page.locator(".finished-game")
    expect(game).to_have_count(1)
    expect(game).to_contain_text("Arboretum")
    expect(game).to_contain_text("Bot 2")
    expect(game.locator(".tag.win").first).to_be_visible()
    check_page(page, "replay-player-page")
    for width, height in WIDTHS.items():
        page.set_viewport_size({"width": width, "height": height})
        page.wait_for_timeout(150)
        shoot(page, f"player-page-{width}")
    game.get_by_role("link", name="Watch the replay").click()
    expect(page).to_have_url(f"{replay_server}/rooms/{room}/replay")
    page.context.close()
