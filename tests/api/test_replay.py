"""Replays of finished games (issue 12, item 6): a whole game is played through the API while
every view is recorded at every version; afterwards the replay's view at each version equals
the spectator view stored then, hidden cards stay hidden unless the room chose public
replays (then a seat's view equals that seat's recorded view), the timeline ends on the
result's scores, and a running game's replay is refused. The pages: the replay page and the
player page render for every game, with the chart as an inline SVG."""

from __future__ import annotations

import dataclasses
import json
import random
import re
import time
from dataclasses import dataclass, field
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import update
from sqlmodel import Session

from app.games.registry import GAMES, get_game
from app.models import Game as GameRow
from app.models import Room
from app.rooms.replay import timeline
from tests.conftest import Databases, Player, started_room


@dataclass
class Played:
    """A game played to its end, and what everyone saw at each version."""

    room: int
    spectator: dict[int, dict[str, Any]] = field(default_factory=dict)
    seats: dict[int, dict[int, dict[str, Any]]] = field(default_factory=dict)
    result: dict[str, Any] | None = None


def set_public(app: Any, room: int, public: bool = True) -> None:
    """The room's replay shows every hand (the column as the lobby's option sets it)."""
    with Session(app.state.engine) as session:
        session.execute(update(Room).where(Room.id == room).values(public_replay=public))  # type: ignore[arg-type]
        session.commit()


def play_through(client: TestClient, people: list[Player], room: int, game_id: str,
                 seed: int = 7) -> Played:
    """Play the room's game to its end through the API, each seat choosing with the game's
    own bot from what its view shows; record the spectator's view (no token) and each seat's
    view at every version."""
    game = get_game(game_id)
    rng = random.Random(seed)
    played = Played(room)
    for _ in range(3000):
        spectator = client.get(f"/api/rooms/{room}/state").json()
        version = spectator["version"]
        played.spectator[version] = spectator["view"]
        for seat, person in enumerate(people):
            mine = person.get(f"/api/rooms/{room}/state").json()
            assert mine["version"] == version
            played.seats.setdefault(seat, {})[version] = mine["view"]
        if spectator["result"] is not None:
            played.result = spectator["result"]
            return played
        seat = spectator["active_seats"][0]
        person = people[seat]
        legal = person.get(f"/api/rooms/{room}/moves").json()["moves"]
        move = game.bots[0].choose(played.seats[seat][version], legal, rng)
        answer = person.post(f"/api/rooms/{room}/moves",
                             {"move": move, "expected_version": version})
        assert answer.status_code == 200, answer.text
    raise AssertionError("the game did not end")


def hidden_values(seat_view: Any, spectator_view: Any) -> list[Any]:
    """What the seat's view holds where the spectator's differs: the seat's secrets (its hand,
    its sealed choices), as leaves of its JSON."""
    if isinstance(seat_view, dict) and isinstance(spectator_view, dict):
        return [leaf for key in seat_view
                for leaf in hidden_values(seat_view[key], spectator_view.get(key))]
    if isinstance(seat_view, list) and isinstance(spectator_view, list) \
            and len(seat_view) == len(spectator_view):
        return [leaf for a, b in zip(seat_view, spectator_view, strict=True)
                for leaf in hidden_values(a, b)]
    return [] if seat_view == spectator_view else [seat_view]


@dataclass
class Finished:
    app: Any
    client: TestClient
    people: list[Player]
    games: dict[str, Played]


@pytest.fixture(scope="module")
def finished(tmp_path_factory: pytest.TempPathFactory, databases: Databases) -> Any:
    """One app, and a two-seat game of each registered game played to its end."""
    from app.config import Settings
    from app.main import create_app
    from tests.conftest import GENEROUS

    url = databases.new(tmp_path_factory.mktemp("replay"))
    app = create_app(Settings(database_url=url, bot_delay=0.0, htmx_source="local",
                              **GENEROUS))
    with TestClient(app) as client:
        people = [Player(client, name) for name in ("Ana", "Bo")]
        games = {}
        for game_id in sorted(GAMES):
            room = started_room(people, 2, game_id)
            games[game_id] = play_through(client, people, room, game_id)
        yield Finished(app, client, people, games)
    databases.drop(url)


@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_the_replay_shows_at_each_version_what_a_spectator_saw(finished, game_id):
    client, games = finished.client, finished.games
    played = games[game_id]
    summary = client.get(f"/api/rooms/{played.room}/replay").json()
    assert summary["versions"] == len(played.spectator)
    assert summary["names"] == ["Ana", "Bo"] and summary["public"] is False
    for version, seen in played.spectator.items():
        answer = client.get(f"/api/rooms/{played.room}/replay/{version}")
        assert answer.status_code == 200, answer.text
        body = answer.json()
        assert body["view"] == seen, f"version {version} differs from what a spectator saw"
        assert body["seat"] is None and body["scores"] == summary["timeline"][version]
    assert body["result"]["scores"] == played.result["scores"]


def compact(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"), sort_keys=True)


@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_hidden_cards_stay_hidden_without_public_replays(finished, game_id):
    client, people, games = finished.client, finished.people, finished.games
    played = games[game_id]
    room = played.room
    # A seat's view is refused, to a stranger and to a player of the game alike.
    refused = people[0].get(f"/api/rooms/{room}/replay/1?seat=0")
    assert refused.status_code == 403 and "hidden" in refused.json()["detail"]
    assert client.get(f"/api/rooms/{room}/replay/1?seat=1").status_code == 403
    # What a seat's view held and the spectator's did not (its hand …), at each version, is
    # in no answer of the replay at that version (unless a spectator saw it anywhere then).
    # The live log keeps the last lines only (LOG_KEPT): the replay's log of the whole game
    # ends with exactly those lines, and is what a spectator could read.
    live_log = client.get(f"/api/rooms/{room}/log").json()["events"]
    whole_log = client.get(f"/api/rooms/{room}/replay/{max(played.spectator)}").json()["log"]
    assert whole_log[len(whole_log) - len(live_log):] == live_log
    spectator_log = compact(whole_log)
    hidden_seen = 0
    for version, seen in played.spectator.items():
        public = compact(seen) + spectator_log
        secrets = {compact(leaf) for views in played.seats.values()
                   for leaf in hidden_values(views[version], seen)
                   # An empty hand or pile hides nothing.
                   if leaf not in (None, [], {}, "")
                   and not isinstance(leaf, (int, float, bool))}
        secrets = {secret for secret in secrets if secret not in public}
        hidden_seen += len(secrets)
        answer = client.get(f"/api/rooms/{room}/replay/{version}").json()
        assert answer["view"] == seen
        leaked = [secret for secret in secrets if secret in compact(answer)]
        assert not leaked, f"version {version} shows what only a seat saw: {leaked[:3]}"
    if game_id == "arboretum":
        assert hidden_seen, "the hands were hidden from the spectator all game long"
    summary = compact(client.get(f"/api/rooms/{room}/replay").json())
    assert "cards" not in summary


@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_public_replays_show_each_seat_what_it_saw(finished, game_id):
    app, client, games = finished.app, finished.client, finished.games
    played = games[game_id]
    room = played.room
    set_public(app, room)
    app.state.replays.load(room)  # rebuilt with the room's choice (it never changes in play)
    try:
        assert client.get(f"/api/rooms/{room}/replay").json()["public"] is True
        for seat, views in played.seats.items():
            for version, seen in views.items():
                body = client.get(f"/api/rooms/{room}/replay/{version}?seat={seat}").json()
                assert body["view"] == seen, f"seat {seat} at version {version}"
                assert body["seat"] == seat
        assert client.get(f"/api/rooms/{room}/replay/0?seat=5").status_code == 404
    finally:
        set_public(app, room, False)
        app.state.replays.load(room)


@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_the_timeline_ends_on_the_result(finished, game_id):
    client, games = finished.client, finished.games
    played = games[game_id]
    summary = client.get(f"/api/rooms/{played.room}/replay").json()
    timeline = summary["timeline"]
    assert len(timeline) == summary["versions"]
    assert all(len(scores) == 2 for scores in timeline)
    assert timeline[-1] == played.result["scores"] == summary["result"]["scores"]
    assert len({tuple(scores) for scores in timeline[:-1]}) > 1, \
        "the scores move during the game (the game's own count, not zeros until the end)"


def test_evo_objeto_del_juego_mp_stay_secret_in_every_view_and_replay_step(finished):
    """Evo keeps each MP total to its owner until the meteorite falls ("Los jugadores
    revelan sus fichas de MP"): every seat's view at every version showed its own total
    only, a spectator's none, and so does every replay step before the end — a seat's step
    of a public replay its own total only; at the end every total shows."""
    app, client, played = finished.app, finished.client, finished.games["evo"]
    room, last = played.room, max(played.spectator)

    def totals(view: dict[str, Any]) -> list[Any]:
        return [s["mp"] for s in view["seats"]]

    for version, seen in played.spectator.items():
        ended = seen["result"] is not None
        assert ended == (version == last)
        for seat, views in played.seats.items():
            mine = totals(views[version])
            assert all(isinstance(mp, int) for mp in mine) if ended else \
                [mp is None for mp in mine] == [s != seat for s in range(2)], (version, seat)
        answer = client.get(f"/api/rooms/{room}/replay/{version}").json()
        assert totals(answer["view"]) == (totals(seen) if ended else [None, None])
    set_public(app, room)
    app.state.replays.load(room)
    try:
        for version in (1, last // 2, last - 1):
            for seat in (0, 1):
                view = client.get(f"/api/rooms/{room}/replay/{version}?seat={seat}").json()
                assert [mp is None for mp in totals(view["view"])] == \
                    [s != seat for s in range(2)]
    finally:
        set_public(app, room, False)
        app.state.replays.load(room)


def test_a_game_without_a_running_count_scores_zeros_until_the_end():
    """The fallback for a game that declares no ``score``: zeros, then the result's scores."""
    game = dataclasses.replace(get_game("arboretum"), score=None)
    rng = random.Random(2)
    states = [game.setup(2, game.Options(), 11)]
    while game.result(states[-1]) is None:
        seat = min(game.active_seats(states[-1]))
        states.append(game.apply(states[-1], seat,
                                 rng.choice(game.legal_moves(states[-1], seat))))
    result = game.result(states[-1])
    assert result is not None
    scores = timeline(game, states, 2, None)
    assert scores[:-1] == [(0, 0)] * (len(states) - 1) and scores[-1] == result.scores
    forfeit = {"scores": [0, 5], "ranking": [1, 0], "winners": [1], "forfeit": 0}
    assert timeline(game, states[:9], 2, forfeit)[-1] == (0, 5), "the stored result counts"


def test_the_log_up_to_a_version_is_the_spectators(finished):
    client, games = finished.client, finished.games
    played = games["arboretum"]
    last = len(played.spectator) - 1
    body = client.get(f"/api/rooms/{played.room}/replay/{last}",
                      headers={"Accept-Language": "en"}).json()
    spectator_log = client.get(f"/api/rooms/{played.room}/log").json()["events"]
    assert [line["text"] for line in body["log"]][-len(spectator_log):] == \
        [line["text"] for line in spectator_log]
    early = client.get(f"/api/rooms/{played.room}/replay/3").json()["log"]
    assert early and all(line["version"] <= 3 for line in early)
    assert all(line["seat"] in (0, 1) for line in early)


def test_versions_outside_the_game_are_refused(finished):
    client, games = finished.client, finished.games
    room = games["arboretum"].room
    versions = len(games["arboretum"].spectator)
    assert client.get(f"/api/rooms/{room}/replay/{versions}").status_code == 404
    assert client.get(f"/api/rooms/{room}/replay/-1").status_code == 404
    assert client.get(f"/api/rooms/{room}/replay/x").status_code == 422
    assert client.get("/api/rooms/999999/replay").status_code == 404


def test_a_running_game_has_no_replay_yet(players, client):
    room = started_room(players)
    refused = client.get(f"/api/rooms/{room}/replay")
    assert refused.status_code == 409 and "not over" in refused.json()["detail"]
    assert client.get(f"/api/rooms/{room}/replay/0").status_code == 409
    page = client.get(f"/rooms/{room}/replay")
    assert page.status_code == 409 and "not over" in page.text
    lobby = players[0].post("/api/rooms", {"game": "arboretum", "players": 2}).json()
    assert client.get(f"/api/rooms/{lobby['id']}/replay").status_code == 409


# -- pages ----------------------------------------------------------------------------------


def finished_bot_room(host: Player, game: str) -> int:
    """A table of two bots watched by its host, played to its end."""
    room = host.post("/api/rooms", {"game": game, "players": 2, "seated": False}).json()
    for _ in range(2):
        assert host.post(f"/api/rooms/{room['id']}/bots").status_code == 200
    assert host.post(f"/api/rooms/{room['id']}/start").status_code == 200
    for _ in range(1200):
        if host.get(f"/api/rooms/{room['id']}/state").json()["result"] is not None:
            return int(room["id"])
        time.sleep(0.02)
    raise AssertionError("the bots did not finish")


#: Controls that make a move: a replay shows none of them.
MOVE_CONTROLS = re.compile(r'<(?!form)[a-z]+[^>]*hx-post='
                           r'|<button[^>]*type="submit"(?![^>]*disabled)'
                           r'|<input[^>]*type="radio"(?![^>]*disabled)')


@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_the_replay_page_renders_read_only_with_its_chart(finished, game_id):
    client, games = finished.client, finished.games
    played = games[game_id]
    room = played.room
    last = len(played.spectator) - 1
    for version in sorted({0, 1, last // 3, last // 2, last - 1, last}):
        page = client.get(f"/rooms/{room}/replay?v={version}")
        assert page.status_code == 200, page.text
        html = page.text
        assert page.headers["cache-control"] == "no-store"
        assert "<svg" in html and 'class="pygal-chart"' in html and "<script" not in \
            html.split('class="pygal-chart"', 1)[1].split("</svg>", 1)[0]
        assert 'src="/static/replay.js"' in html and "/static/replay.css" in html
        board = html.split('class="table game-', 1)[1].split('class="logbox"', 1)[0]
        controls = MOVE_CONTROLS.findall(board)
        assert not controls, f"version {version}: move controls in the replay: {controls[:3]}"
        assert "ws-connect" not in html, "a replay is no live table"
        assert ('data-step="next"' in html) == (version < last)
        assert ('data-step="prev"' in html) == (version > 0)
    assert "Final result" in html and "winner" in html
    assert client.get(f"/rooms/{room}/replay?seat=0").status_code == 403
    assert client.get(f"/rooms/{room}/replay?v={last + 1}").status_code == 404
    assert client.get(f"/rooms/{room}/replay?v=abc").status_code == 404


@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_a_public_replay_page_shows_each_hand_read_only(finished, game_id):
    """Every version as every seat saw it, rendered: no move control anywhere (a seat that
    was to move then is shown its hand, never a way to play it)."""
    app, client, games = finished.app, finished.client, finished.games
    played = games[game_id]
    room = played.room
    set_public(app, room)
    app.state.replays.load(room)
    try:
        last = len(played.spectator) - 1
        page = client.get(f"/rooms/{room}/replay?v=1").text
        assert "See as:" in page and f'href="/rooms/{room}/replay?v=1&amp;seat=1"' in page
        for version in range(last + 1):
            for seat in (0, 1):
                page = client.get(f"/rooms/{room}/replay?v={version}&seat={seat}")
                assert page.status_code == 200
                board = page.text.split('class="table game-', 1)[1].split('class="logbox"')[0]
                controls = MOVE_CONTROLS.findall(board)
                assert not controls, f"v{version} seat {seat}: move controls: {controls[:3]}"
    finally:
        set_public(app, room, False)
        app.state.replays.load(room)


@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_bot_games_have_replay_pages(client, players, game_id):
    """A table of bots, played to its end without a person: its replay opens at the deal and
    ends on the game's own final scoring beside the ranking."""
    room = finished_bot_room(players[0], game_id)
    page = client.get(f"/rooms/{room}/replay")
    assert page.status_code == 200 and "Bot 1" in page.text and 'class="pygal-chart"' in page.text
    versions = client.get(f"/api/rooms/{room}/replay").json()["versions"]
    end = client.get(f"/rooms/{room}/replay?v={versions - 1}").text
    assert "Final result" in end and "data-scores" in end
    assert client.get(f"/rooms/{room}/replay?v={versions}").status_code == 404


def test_the_player_page_lists_finished_games_newest_first(finished):
    client, people, games = finished.client, finished.people, finished.games
    ana = people[0]
    page = client.get(f"/players/{ana.id}")
    assert page.status_code == 200
    html = page.text
    assert "Ana&#39;s finished games" in html or "Ana's finished games" in html
    rooms = [int(r) for r in re.findall(r'href="/rooms/(\d+)/replay">', html)]
    expected = sorted((g.room for g in games.values()), reverse=True)
    assert list(dict.fromkeys(rooms)) == expected, "the newest first, each with its replay"
    for game_id in GAMES:
        assert get_game(game_id).title in html
    assert "Bo" in html and "winner" in html
    mine = client.get(f"/players/{ana.id}", headers={"Cookie": f"canopy_token={ana.token}"})
    assert "Your finished games" in mine.text
    assert f'href="/players/{ana.id}"' in mine.text and "Your games" in mine.text
    assert client.get("/players/999999").status_code == 404


def test_a_private_table_is_listed_to_its_players_only(client, players):
    ana, cai = players[0], players[2]
    room = ana.post("/api/rooms", {"game": "arboretum", "players": 2, "private": True}).json()
    assert ana.post(f"/api/rooms/{room['id']}/bots").status_code == 200
    assert ana.post(f"/api/rooms/{room['id']}/start").status_code == 200
    game = get_game("arboretum")
    rng = random.Random(1)
    for _ in range(500):
        state = ana.get(f"/api/rooms/{room['id']}/state").json()
        if state["result"] is not None:
            break
        if 0 in state["active_seats"]:
            legal = ana.get(f"/api/rooms/{room['id']}/moves").json()["moves"]
            ana.post(f"/api/rooms/{room['id']}/moves",
                     {"move": game.bots[0].choose(state["view"], legal, rng),
                      "expected_version": state["version"]})
        else:
            time.sleep(0.01)
    link = f'href="/rooms/{room["id"]}/replay"'
    own = client.get(f"/players/{ana.id}", headers={"Cookie": f"canopy_token={ana.token}"})
    assert link in own.text and "private" in own.text
    assert link not in client.get(f"/players/{ana.id}").text
    assert link not in client.get(f"/players/{ana.id}",
                                  headers={"Cookie": f"canopy_token={cai.token}"}).text


def test_a_game_ended_by_a_forfeit_replays_its_moves_and_the_stored_result(app, client,
                                                                           players):
    """A seat out of time that loses: the state is not over, the stored result tells the
    end. The replay shows the moves as they were, waits for nobody at the end, and shows
    the stored result (the game's own final scoring needs a game its rules ended)."""
    ana = players[0]
    room = started_room(players)
    for version in range(3):
        seat = client.get(f"/api/rooms/{room}/state").json()["active_seats"][0]
        legal = players[seat].get(f"/api/rooms/{room}/moves").json()["moves"]
        assert players[seat].post(f"/api/rooms/{room}/moves", {
            "move": legal[0], "expected_version": version}).status_code == 200
    forfeit = {"scores": [0, 4], "ranking": [1, 0], "winners": [1], "details": {},
               "headline": "{p0} ran out of time", "shown": [], "forfeit": 0}
    with Session(app.state.engine) as session:
        session.execute(update(Room).where(Room.id == room).values(status="finished"))  # type: ignore[arg-type]
        session.execute(update(GameRow).where(GameRow.room_id == room)  # type: ignore[arg-type]
                        .values(result=forfeit, finished=True))
        session.commit()
    summary = client.get(f"/api/rooms/{room}/replay").json()
    assert summary["versions"] == 4 and summary["result"] == forfeit
    assert summary["timeline"][-1] == [0, 4]
    end = client.get(f"/api/rooms/{room}/replay/3").json()
    assert end["active_seats"] == [] and end["result"] == forfeit
    assert client.get(f"/api/rooms/{room}/replay/2").json()["active_seats"]
    page = client.get(f"/rooms/{room}/replay?v=3").text
    assert "Ana ran out of time" in page and "data-scores" not in page
    mine = client.get(f"/players/{ana.id}").text
    assert f'href="/rooms/{room}/replay"' in mine and "Ana ran out of time" in mine


def test_G4_a_mycelia_replay_reads_drops_left_beside_leaves_and_places_only_winners(finished):
    """Item 5: the chart counts dew drops left (never "-20 … 0"), the seat list reads drops
    left beside leaves at each version, the final result places only the winners (the
    rulebook ranks nobody else), and every move has a caption of its own (item 9)."""
    client, played = finished.client, finished.games["mycelia"]
    room = played.room
    last = len(played.spectator) - 1
    html = client.get(f"/rooms/{room}/replay?v=1").text
    chart = html.split('class="pygal-chart"', 1)[1].split("</svg>", 1)[0]
    labels = re.findall(r"<text[^>]*>(-?\d+)</text>", chart)
    assert labels and all(not label.startswith("-") for label in labels), labels
    assert "Dew drops left over the game" in html
    seats = html.split('class="replay-scores"', 1)[1].split("</ol>", 1)[0]
    assert re.search(r"\d+ drops? left, \d+ lea(f|ves)", seats), seats
    end = client.get(f"/rooms/{room}/replay?v={last}").text
    final = end.split('class="card replay-final"', 1)[1].split("</section>", 1)[0]
    result = client.get(f"/api/rooms/{room}/replay").json()["result"]
    assert result["placed"] == len(result["winners"])
    placed = final.split("</ol>", 1)[0] if "<ol" in final else ""
    assert placed.count("<li") == len(result["winners"])
    if len(result["winners"]) < 2:
        assert "Not placed by the rules:" in final
    lines = client.get(f"/api/rooms/{room}/replay/{last}").json()["log"]
    assert {line["version"] for line in lines} >= set(range(1, last + 1))
