"""What the pages say and keep (app/web/pages.py): a click that lacks a field gets the game's
words, a click from a page behind the game is dropped without a word, a refusal reaches a
page only in plain words; pages are never kept by the browser; a player finds their own
private tables on the home page."""

from __future__ import annotations

import json

from app.rooms.table import fill_names
from app.web.words import raw_fragment
from tests.conftest import Player, started_room

ORIGIN = {"Origin": "http://testserver"}


def click(player: Player, rid: int, **fields: object) -> str:
    """A click on the table as the page sends it (a form, with the player's cookie)."""
    form = {key: value if isinstance(value, str) else json.dumps(value)
            for key, value in fields.items()}
    answer = player.client.post(f"/rooms/{rid}/act", data=form,
                                headers={**ORIGIN, "Cookie": f"canopy_token={player.token}"})
    assert answer.status_code == 200
    return answer.text


def version(player: Player, rid: int) -> int:
    return int(player.get(f"/api/rooms/{rid}/state").json()["version"])


def test_a_click_without_a_card_asks_for_one_in_the_games_words(players):
    ana = players[0]
    rid = started_room(players)
    click(ana, rid, move={"type": "draw", "source": "deck"})
    click(ana, rid, move={"type": "draw", "source": "deck"})
    text = click(ana, rid, move={"type": "play"}, cell=[0, 0])
    assert "Choose a card from your hand first" in text
    assert version(ana, rid) == 2, "the click changed nothing"
    api = ana.post(f"/api/rooms/{rid}/moves", {"move": {"type": "play", "cell": [0, 0]}})
    assert api.status_code == 422 and api.json()["rule"], "the API keeps its precise refusal"


def test_a_click_from_a_page_behind_the_game_is_dropped_without_a_word(players):
    """A double click: the second click carries the version the page showed, which the
    first one moved on."""
    ana = players[0]
    rid = started_room(players)
    draw = {"type": "draw", "source": "deck"}
    assert click(ana, rid, move=draw, expected_version="0") == ""
    assert click(ana, rid, move=draw, expected_version="0") == ""
    assert version(ana, rid) == 1
    assert click(ana, rid, move=draw, expected_version="1") == ""
    assert version(ana, rid) == 2


def test_a_refusal_reaches_the_page_in_plain_words(players):
    ana, bo = players[:2]
    rid = started_room(players)
    out_of_turn = click(bo, rid, move={"type": "draw", "source": "deck"})
    assert "waiting for Ana" in out_of_turn
    malformed = click(ana, rid, move={"type": "draw", "source": ["deck", None]})
    shown = malformed.split(">", 1)[1].rsplit("<", 1)[0]
    assert shown and raw_fragment(shown) is None, shown
    api = ana.post(f"/api/rooms/{rid}/moves", {"move": {"type": "draw", "source": ["x"]}})
    assert api.status_code == 422


def test_pages_are_not_kept_by_the_browser(players, client):
    ana = players[0]
    rid = ana.post("/api/rooms", {"game": "arboretum", "players": 2}).json()["id"]
    for path in ("/", f"/rooms/{rid}"):
        assert client.get(path).headers["cache-control"] == "no-store"
    moved = client.post("/name", data={"name": "Zed"}, headers=ORIGIN, follow_redirects=False)
    assert moved.status_code == 303 and moved.headers["cache-control"] == "no-store"


def test_the_home_page_lists_your_own_private_tables(players, client):
    ana, bo = players[:2]
    rid = ana.post("/api/rooms", {"game": "arboretum", "players": 2, "private": True}).json()["id"]
    mine = client.get("/", headers={"Cookie": f"canopy_token={ana.token}"}).text
    assert "Your tables" in mine and f'href="/rooms/{rid}"' in mine
    theirs = client.get("/", headers={"Cookie": f"canopy_token={bo.token}"}).text
    assert f'href="/rooms/{rid}"' not in theirs, "a private table is listed to its people only"


def test_a_host_may_watch_a_table_of_bots(players):
    host = players[0]
    room = host.post("/api/rooms", {"game": "arboretum", "players": 2, "seated": False}).json()
    assert all(seat["free"] for seat in room["seats"])
    assert room["invite"], "the host holds the invite link without a seat"
    for _ in range(2):
        assert host.post(f"/api/rooms/{room['id']}/bots").status_code == 200
    assert host.post(f"/api/rooms/{room['id']}/start").status_code == 200
    state = host.get(f"/api/rooms/{room['id']}/state").json()
    assert state["your_seat"] is None and state["version"] >= 0


def test_log_lines_speak_to_their_reader():
    names = ["Ana", "Bo", "{p0}"]
    line = "{p1} took Oak 7 from {p0's} discard pile. {p0} drew from the deck"
    assert fill_names(line, names) == \
        "Bo took Oak 7 from Ana's discard pile. Ana drew from the deck"
    assert fill_names(line, names, 0) == \
        "Bo took Oak 7 from your discard pile. You drew from the deck"
    assert fill_names(line, names, 1) == \
        "You took Oak 7 from Ana's discard pile. Ana drew from the deck"
    assert fill_names("{p2} and {p0}", names, 0) == "{p0} and you", "a name is shown as typed"


def test_a_reconstructed_games_components_are_explained_for_players(players, client):
    """The table links to a page that says, in plain words, that the component data is a
    reconstruction; a game with printed data has no such page."""
    page = client.get("/games/evergreen/components")
    assert page.status_code == 200 and "rebuilt" in page.text
    assert raw_fragment(page.text.split("<h1>", 1)[1].split("</section>", 1)[0]
                        .replace("<p>", " ").replace("</p>", " ").replace("</h1>", " ")
                        .split("<a ", 1)[0]) is None
    assert client.get("/games/arboretum/components").status_code == 404
    rid = started_room(players, game="evergreen")
    table = client.get(f"/rooms/{rid}").text
    assert 'href="/games/evergreen/components"' in table


def test_an_option_for_some_player_counts_shows_only_at_those_counts(players, client):
    """An option declared for some player counts (``json_schema_extra={"players": [1]}``):
    Mycelia's Gwidyon drops show at a solo table, not at a table of two; the new-table form
    marks it so that it shows only while one player is chosen."""
    ana = players[0]
    cookie = {"Cookie": f"canopy_token={ana.token}"}
    duo = ana.post("/api/rooms", {"game": "mycelia", "players": 2}).json()["id"]
    page = client.get(f"/rooms/{duo}", headers=cookie).text
    assert "dew drops (solo)" not in page and "opt-mycelia-gwidyon_drops" not in page
    assert "opt-mycelia-expansion" in page  # the options for every count stay
    solo = ana.post("/api/rooms", {"game": "mycelia", "players": 1}).json()["id"]
    page = client.get(f"/rooms/{solo}", headers=cookie).text
    assert "dew drops (solo)" in page and "opt-mycelia-gwidyon_drops" in page
    home = client.get("/", headers=cookie).text
    field = home[home.index('name="opt-mycelia-gwidyon_drops"') - 300:]
    assert 'data-players="1"' in field[:300]


def test_a_solo_lobby_offers_no_invite_link_and_no_away_vote(players, client):
    """A room for one seat has nobody to invite and nobody to vote: no invite link, no line
    on voting an away seat to a bot; a room of two has both."""
    ana = players[0]
    cookie = {"Cookie": f"canopy_token={ana.token}"}
    solo = ana.post("/api/rooms", {"game": "mycelia", "players": 1}).json()["id"]
    page = client.get(f"/rooms/{solo}", headers=cookie).text
    assert 'id="invite-link"' not in page and "voted to a bot" not in page
    duo = ana.post("/api/rooms", {"game": "mycelia", "players": 2}).json()["id"]
    page = client.get(f"/rooms/{duo}", headers=cookie).text
    assert 'id="invite-link"' in page and "voted to a bot" in page
