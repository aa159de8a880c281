"""The platform's pages and API in Spanish, German and Dutch: the home page, a lobby, a table (its
seat bar, log heading, result and switch; the game's own regions where the game's catalogue is
done), a rules page and the error pages show no English (the nets of
tests/games/test_languages.py); the language switch keeps the reader's choice (a cookie, and the
player's record for their other browsers) over ``Accept-Language``; the API's words follow
``Accept-Language`` while its machine fields stay the same in every language."""

from __future__ import annotations

import re
import time
from functools import cache

import pytest
from fastapi.testclient import TestClient

from app.catalogues import domains, read
from app.games.registry import GAMES
from app.i18n import COOKIE, LOCALES, say
from tests.conftest import Player, started_room
from tests.games.test_languages import assert_translated, english_messages, shown

TRANSLATED = [code for code in LOCALES if code != "en"]
ORIGIN = {"Origin": "http://testserver"}


@cache
def pieces(locale: str) -> list[str]:
    return english_messages(locale)


@cache
def game_done(game_id: str, locale: str) -> bool:
    """Whether the game's own words are translated in ``locale`` (its summary is, and its
    catalogue has no empty entry): the pages show them then, and are checked whole (each
    game is translated by its own helper; tests/games/test_languages.py checks it whole)."""
    if say(GAMES[game_id].summary, locale) == GAMES[game_id].summary:
        return False
    domain = next(d for d in domains() if d.name == game_id)
    for message in read(domain.po(locale), locale):
        if message.id:
            strings = message.string if isinstance(message.string, tuple | list) \
                else [message.string]
            if not all(strings):
                return False
    return True


def page(client: TestClient, path: str, locale: str, token: str | None = None) -> str:
    """A page as a browser that asks for ``locale`` sees it (with the player's cookie)."""
    headers = {"Accept-Language": f"{locale},en;q=0.5"}
    if token:
        headers["Cookie"] = f"canopy_token={token}"
    answer = client.get(path, headers=headers)
    client.cookies.clear()
    assert answer.status_code in (200, 404), answer.text[:300]
    return answer.text


def lang_of(html: str) -> str:
    found = re.search(r'<html lang="([^"]+)"', html)
    assert found, html[:200]
    return found.group(1)


def check(html: str, locale: str, where: str) -> None:
    assert lang_of(html) == locale, where
    assert_translated(shown(html), locale, pieces(locale), where)


def element(html: str, pattern: str) -> str:
    """The first match of ``pattern`` (a regular expression over the HTML, across lines)."""
    found = re.search(pattern, html, flags=re.S)
    assert found, f"{pattern!r} not in the page"
    return found.group(0)


def without_game_words(html: str, locale: str) -> str:
    """The home page less the words of the games whose catalogue is not done yet (their
    summaries and options)."""
    def keep(match: re.Match[str]) -> str:
        return match.group(0) if game_done(match.group(1), locale) else ""

    return re.sub(r'<div class="game-pick" data-game="(\w+)">.*?</fieldset>\s*</div>', keep,
                  html, flags=re.S)


def finished_bot_table(host: Player, game: str = "arboretum") -> int:
    """A table of two bots watched by its host, played to its end."""
    room = host.post("/api/rooms", {"game": game, "players": 2, "seated": False}).json()
    for _ in range(2):
        assert host.post(f"/api/rooms/{room['id']}/bots").status_code == 200
    assert host.post(f"/api/rooms/{room['id']}/start").status_code == 200
    for _ in range(600):
        if host.get(f"/api/rooms/{room['id']}/state").json()["result"] is not None:
            return int(room["id"])
        time.sleep(0.05)
    raise AssertionError("the bots did not finish")


# -- pages --------------------------------------------------------------------------------------


@pytest.mark.parametrize("locale", TRANSLATED)
def test_the_home_page_reads_in_the_language(client, players, locale):
    ana, bo = players[:2]
    ana.post("/api/rooms", {"game": "arboretum", "players": 3, "private": True})
    bo.post("/api/rooms", {"game": "arboretum", "players": 2})
    started_room([bo, ana])
    newcomer = page(client, "/", locale)
    check(newcomer, locale, "the home page of a newcomer")
    home = page(client, "/", locale, ana.token)
    assert 'class="badge lobby"' in home and 'class="badge playing"' in home
    check(without_game_words(home, locale), locale, "the home page")


@pytest.mark.parametrize("locale", TRANSLATED)
def test_a_lobby_reads_in_the_language(client, players, locale):
    """The host's view (a bot, a free seat, the invite link), a seated guest's, a watcher's
    and a newcomer's, before the game starts."""
    ana, bo, cai = players[:3]
    rid = ana.post("/api/rooms", {"game": "arboretum", "players": 4}).json()["id"]
    code = ana.get(f"/api/rooms/{rid}").json()["code"]
    assert ana.post(f"/api/rooms/{rid}/bots").status_code == 200
    assert bo.post(f"/api/rooms/{rid}/join", {"code": code}).status_code == 200
    for who, token in (("the host", ana.token), ("a guest", bo.token), ("a watcher", cai.token),
                       ("a newcomer", None)):
        html = page(client, f"/rooms/{rid}", locale, token)
        assert 'id="lobby"' in html
        check(html, locale, f"the lobby of {who}")
    assert cai.post(f"/api/rooms/{rid}/join", {"code": code}).status_code == 200
    full = page(client, f"/rooms/{rid}", locale, players[3].token)
    check(full, locale, "a full lobby for a watcher")


def platform_parts(html: str) -> str:
    """What the platform says on a table page: the top bar (the language switch, "watching"),
    the seat bar or result, the rules panel's title, the log's heading, the connection
    banner."""
    parts = [element(html, r'<header class="topbar">.*?</header>'),
             element(html, r'<p id="connection".*?</p>'),
             element(html, r'<div id="seats">.*?</ol>\s*</div>'),
             element(html, r'<details class="logbox".*?</summary>'),
             element(html, r'<h2 class="sr-only">.*?</h2>')]
    if 'id="rules"' in html:
        parts.append(element(html, r'<details id="rules".*?</summary>'))
    return "\n".join(parts)


@pytest.mark.parametrize("locale", TRANSLATED)
def test_a_table_reads_in_the_language(client, players, locale):
    """A running table for a seat and a watcher, and a finished one (its result): the
    platform's parts always, the whole page where the game's catalogue is done."""
    ana, bo, cai = players[:3]
    rid = started_room(players)
    assert ana.post(f"/api/rooms/{rid}/moves", {"move": {"type": "draw", "source": "deck"}}) \
        .status_code == 200
    done = game_done("arboretum", locale)
    for who, token in (("a seat", ana.token), ("a watcher", cai.token), ("a newcomer", None)):
        html = page(client, f"/rooms/{rid}", locale, token)
        assert 'class="seatbar"' in html
        check(html if done else platform_parts(html), locale, f"the table of {who}")
    over = finished_bot_table(bo)
    html = page(client, f"/rooms/{over}", locale, bo.token)
    result = element(html, r'<section class="result".*?</section>')
    assert "Game over" not in result
    check(html if done else platform_parts(html), locale, "a finished table")


@pytest.mark.parametrize("locale", TRANSLATED)
def test_the_rules_page_and_the_error_pages_read_in_the_language(client, players, locale):
    ana = players[0]
    rules = page(client, "/games/arboretum/rules", locale, ana.token)
    if game_done("arboretum", locale):
        check(rules, locale, "the rules page")
    else:
        check(element(rules, r"<header.*?</header>") + element(rules, r"<h1>.*?</h1>")
              + element(rules, r"<summary>.*?</summary>"), locale, "the rules page")
    for path in ("/rooms/999999", "/r/nosuchcode", "/games/nosuchgame/rules",
                 "/games/arboretum/components"):
        html = page(client, path, locale, ana.token)
        assert 'class="card narrow"' in html, path
        check(html, locale, f"the error page of {path}")


# -- the language switch ------------------------------------------------------------------------


def switch(client: TestClient, language: str, next_page: str = "/", token: str | None = None,
           accept: str = "en") -> tuple[int, str, dict[str, str]]:
    """The switch's form as the page posts it: (status, where it goes, cookies set)."""
    headers = {**ORIGIN, "Accept-Language": accept}
    if token:
        headers["Cookie"] = f"canopy_token={token}"
    answer = client.post("/language", data={"language": language, "next": next_page},
                         headers=headers, follow_redirects=False)
    cookies = dict(answer.cookies)
    client.cookies.clear()
    return answer.status_code, answer.headers.get("location", ""), cookies


def test_the_switch_sets_the_cookie_and_goes_back(client, players):
    ana = players[0]
    rid = ana.post("/api/rooms", {"game": "arboretum", "players": 2}).json()["id"]
    status, where, cookies = switch(client, "de", f"/rooms/{rid}", ana.token)
    assert (status, where, cookies.get(COOKIE)) == (303, f"/rooms/{rid}", "de")
    # The cookie wins over the browser's Accept-Language.
    html = client.get(f"/rooms/{rid}", headers={"Accept-Language": "es",
                                                "Cookie": f"canopy_token={ana.token}; "
                                                          f"{COOKIE}=de"}).text
    client.cookies.clear()
    assert lang_of(html) == "de" and "Spiel starten" in html
    # Off the site, the switch goes home; a page's invite code comes back with it.
    assert switch(client, "nl", "https://elsewhere.example/")[1] == "/"
    assert switch(client, "nl", "/rooms/1?invite=abc")[1] == "/rooms/1?invite=abc"


def test_a_players_choice_follows_them_to_another_browser(client, players):
    """The choice is kept on the player's record: a second browser with the same token (no
    language cookie) reads the chosen language, whatever its Accept-Language."""
    ana, bo = players[:2]
    assert switch(client, "nl", "/", ana.token)[0] == 303
    elsewhere = client.get("/", headers={"Accept-Language": "es",
                                         "Cookie": f"canopy_token={ana.token}"}).text
    client.cookies.clear()
    assert lang_of(elsewhere) == "nl" and "Nieuwe tafel" in elsewhere
    # Bo chose nothing: his browser's language.
    theirs = client.get("/", headers={"Accept-Language": "es",
                                      "Cookie": f"canopy_token={bo.token}"}).text
    client.cookies.clear()
    assert lang_of(theirs) == "es"
    # A browser without a player keeps its choice in the cookie only.
    status, _, cookies = switch(client, "de")
    assert status == 303 and cookies.get(COOKIE) == "de"


@pytest.mark.parametrize("locale", TRANSLATED)
def test_an_unknown_language_is_refused_with_a_message(client, players, locale):
    ana = players[0]
    headers = {**ORIGIN, "Accept-Language": locale, "Cookie": f"canopy_token={ana.token}"}
    answer = client.post("/language", data={"language": "xx", "next": "/"}, headers=headers,
                         follow_redirects=False)
    assert answer.status_code == 303 and answer.headers["location"] == "/"
    assert COOKIE not in answer.cookies
    flash = answer.cookies.get("canopy_flash")
    client.cookies.clear()
    assert flash
    html = client.get("/", headers={"Accept-Language": locale,
                                    "Cookie": f"canopy_token={ana.token}; canopy_flash={flash}"}
                      ).text
    client.cookies.clear()
    message = element(html, r'<p class="flash error"[^>]*>.*?</p>')
    assert "choose one of the languages" not in message
    check(without_game_words(html, locale), locale, "the refusal of an unknown language")
    assert ana.get("/api/players/me").status_code == 200


# -- the API ------------------------------------------------------------------------------------


def in_language(player: Player, path: str, locale: str, method: str = "get",
                json: object = None) -> tuple[int, dict]:
    headers = {**player.headers, "Accept-Language": locale}
    answer = player.client.request(method.upper(), path, headers=headers, json=json)
    return answer.status_code, answer.json()


def test_the_api_words_follow_accept_language_and_its_fields_do_not(players):
    ana, bo = players[:2]
    rid = started_room(players)
    assert ana.post(f"/api/rooms/{rid}/moves", {"move": {"type": "draw", "source": "deck"}}) \
        .status_code == 200
    answers = {code: {
        "log": in_language(bo, f"/api/rooms/{rid}/log", code)[1],
        "state": in_language(bo, f"/api/rooms/{rid}/state", code)[1],
        "turn": in_language(bo, f"/api/rooms/{rid}/moves", code, "post",
                            {"move": {"type": "draw", "source": "deck"}}),
        "room": in_language(bo, "/api/rooms/999999", code),
        "seat": in_language(bo, "/api/rooms/999999/join", code, "post"),
    } for code in LOCALES}
    english = answers["en"]
    assert english["turn"][0] == 403 and english["room"][0] == 404
    for code in TRANSLATED:
        said = answers[code]
        # The machine fields: identical.
        assert [{k: v for k, v in e.items() if k != "text"} for e in said["log"]["events"]] == \
            [{k: v for k, v in e.items() if k != "text"} for e in english["log"]["events"]]
        assert said["state"]["statuses"] == english["state"]["statuses"]
        assert said["state"]["active_seats"] == english["state"]["active_seats"]
        for kind in ("turn", "room", "seat"):
            status, body = said[kind]
            assert status == english[kind][0]
            assert {k: v for k, v in body.items() if k != "detail"} == \
                {k: v for k, v in english[kind][1].items() if k != "detail"}
            # The words: in the language asked for.
            assert body["detail"] != english[kind][1]["detail"], (code, kind, body)
            assert_translated(body["detail"], code, pieces(code), f"the API's {kind} refusal")
        assert said["turn"][1]["rule"] == english["turn"][1]["rule"]
        texts = [e["text"] for e in said["log"]["events"]]
        assert texts != [e["text"] for e in english["log"]["events"]], code
        for text in texts:
            assert_translated(text, code, pieces(code), "a log line")


@pytest.mark.parametrize("locale", TRANSLATED)
def test_the_api_refusals_of_the_platform_are_translated(client, players, locale):
    """The lobby's, the identity's and the edge's refusals, in the caller's language."""
    ana, bo = players[:2]
    rid = ana.post("/api/rooms", {"game": "arboretum", "players": 2}).json()["id"]
    headers = {"Accept-Language": locale}
    cases = [
        client.post("/api/players", json={"name": "   "}, headers=headers),
        client.get("/api/players/me", headers=headers),
        client.get("/api/players/me", headers={**headers, "Authorization": "Bearer nope"}),
        client.post("/api/rooms", json={"game": "chess", "players": 2},
                    headers={**headers, **ana.headers}),
        client.post("/api/rooms", json={"game": "arboretum", "players": 9},
                    headers={**headers, **ana.headers}),
        client.post(f"/api/rooms/{rid}/start", headers={**headers, **ana.headers}),
        client.post(f"/api/rooms/{rid}/start", headers={**headers, **bo.headers}),
        client.post(f"/api/rooms/{rid}/join", json={"seat": 7},
                    headers={**headers, **bo.headers}),
        client.post(f"/api/rooms/{rid}/join", headers={**headers, **ana.headers}),
        client.post("/name", data={"name": "Zed"},
                    headers={**headers, "Origin": "https://elsewhere.example"}),
        client.get("/api/no/such/thing", headers=headers),
    ]
    client.cookies.clear()
    for answer in cases:
        assert answer.status_code >= 400, answer.text
        detail = answer.json()["detail"]
        assert isinstance(detail, str) and detail
        assert_translated(detail, locale, pieces(locale), f"the refusal {detail!r}")
