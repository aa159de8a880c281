"""Every stored game survives every upgrade (issue 23): databases written by this project's
own earlier releases, opened by today's server.

Each fixture in ``fixtures/`` was written by the server of one release — 7aa4a46 (schema
0002), and each later release that changed the schema or a rule (0003 … 0007) — playing
through its own API (``scripts/upgrade_fixtures.py``): three players, a finished game and a
game in progress of every game that release had, a room waiting for its start, and from 0006
on a turn-based room, a clock, a seat handed to a bot and a rematch offered. The manifest
beside each dump is what that server said. At 7aa4a46 both Evergreen games hold a power used
with no use left, which the POW-3 fix refuses today.

Today's server opens each, on SQLite and on PostgreSQL (the rows copied into a database
migrated to the fixture's revision), and must keep the players' tokens, the seats, the
versions and the results; show every finished game's result and replay; play every game in
progress to its end by its legal moves; start the waiting room; and never answer 500.
"""

from __future__ import annotations

import json
import random
import sqlite3
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import Boolean, MetaData
from starlette.websockets import WebSocketDisconnect

from app.config import Settings
from app.db import make_engine
from app.games.base import IllegalMove
from app.games.registry import get_game
from app.main import create_app, migrate
from app.rooms.rebuild import Diverged, rebuild
from tests.conftest import GENEROUS, bearer, drop_database
from tests.engines import Postgres

FIXTURES = Path(__file__).parent / "fixtures"
RELEASES = sorted(path.stem for path in FIXTURES.glob("*.json"))
#: The tables in the order their rows can be copied (each refers only to those before it;
#: a room's rematch refers to a later room: foreign keys are checked after the copy).
TABLES = ("player", "room", "seat", "game", "move")


@dataclass
class Release:
    """An old release's database opened by today's server."""

    name: str
    manifest: dict[str, Any]
    client: TestClient
    engine: str

    @property
    def tokens(self) -> dict[int, str]:
        return {p["id"]: p["token"] for p in self.manifest["players"]}

    def rooms(self, kind: str | None = None) -> list[dict[str, Any]]:
        return [r for r in self.manifest["rooms"] if kind is None or r["kind"] == kind]

    def as_player(self, player_id: int) -> dict[str, str]:
        return bearer(self.tokens[player_id])

    def seated(self, room: dict[str, Any]) -> int:
        """A person seated in ``room`` (its first), else its host (a table of bots is hosted
        by the first player, who watches)."""
        return next((s["player_id"] for s in room["seats"] if s["player_id"] is not None),
                    self.manifest["players"][0]["id"])


def manifest_of(name: str) -> dict[str, Any]:
    manifest: dict[str, Any] = json.loads((FIXTURES / f"{name}.json").read_text())
    return manifest


def restore_sqlite(name: str, path: Path) -> None:
    """The release's database as the file ``path``, exactly as that server left it."""
    with sqlite3.connect(path) as connection:
        connection.executescript((FIXTURES / f"{name}.sql").read_text())
    connection.close()


def restore_postgres(name: str, revision: str, server: Postgres, folder: Path) -> str:
    """The release's rows in a new PostgreSQL database migrated to the release's revision
    (where that release's server would have kept them); its URL."""
    database = f"upgrade_{name}_{int(time.time() * 1000) % 10**8}"
    server.sql(f'CREATE DATABASE "{database}" TEMPLATE template0')
    url = server.url(database)
    engine = make_engine(url)
    try:
        migrate(engine, revision)
        schema = MetaData()
        schema.reflect(engine)
        source = folder / "source.db"
        restore_sqlite(name, source)
        with sqlite3.connect(source) as old, engine.connect() as connection:
            raw = connection.connection.driver_connection
            assert raw is not None
            with raw.cursor() as cursor:
                cursor.execute("SET session_replication_role = replica")  # FKs after the copy
                for table in TABLES:
                    rows = old.execute(f'SELECT * FROM "{table}"')
                    columns = [d[0] for d in rows.description]
                    flags = [isinstance(schema.tables[table].c[c].type, Boolean)
                             for c in columns]
                    values = [[bool(v) if flag and v is not None else v
                               for v, flag in zip(row, flags, strict=True)] for row in rows]
                    if values:
                        names = ", ".join(f'"{c}"' for c in columns)
                        marks = ", ".join(["%s"] * len(columns))
                        cursor.executemany(
                            f'INSERT INTO "{table}" ({names}) VALUES ({marks})', values)
                    cursor.execute(f"SELECT setval(pg_get_serial_sequence('\"{table}\"', 'id'),"
                                   f" (SELECT coalesce(max(id), 0) + 1 FROM \"{table}\"), false)")
                cursor.execute("SET session_replication_role = DEFAULT")
            raw.commit()
        source.unlink()
    finally:
        engine.dispose()
    return url


@pytest.fixture(params=[(name, engine) for name in RELEASES for engine in ("sqlite",
                                                                             "postgresql")],
                ids=lambda p: f"{p[0]}-{p[1]}")
def release(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Release]:
    name, engine = request.param
    manifest = manifest_of(name)
    server: Postgres | None = None
    if engine == "sqlite":
        url = f"sqlite:///{tmp_path / 'canopy.db'}"
        restore_sqlite(name, tmp_path / "canopy.db")
    else:
        server = request.getfixturevalue("postgres")
        url = restore_postgres(name, manifest["revision"], server, tmp_path)
    app = create_app(Settings(database_url=url, bot_delay=0.0, htmx_source="local",
                              cleanup_every_minutes=0, **GENEROUS))
    try:
        with TestClient(app) as client:
            yield Release(name, manifest, client, engine)
    finally:
        if server is not None:
            drop_database(server, url)


def test_players_keep_their_tokens(release: Release):
    for player in release.manifest["players"]:
        me = release.client.get("/api/players/me", headers=bearer(player["token"]))
        assert me.status_code == 200
        assert me.json()["id"] == player["id"] and me.json()["name"] == player["name"]


def test_rooms_keep_their_seats_versions_and_results(release: Release):
    for room in release.rooms():
        host = release.as_player(release.seated(room))
        got = release.client.get(f"/api/rooms/{room['id']}", headers=host)
        assert got.status_code == 200, got.text
        body = got.json()
        assert (body["game"], body["status"], body["players"], body["private"]) == (
            room["game"], room["status"], room["players"], room["private"])
        seats = {s["index"]: s for s in body["seats"]}
        for seat in room["seats"]:
            now = seats[seat["index"]]
            assert (now["player"] or {}).get("id") == seat["player_id"]
            assert now["bot"] == seat["bot"]
        if room["status"] == "lobby":
            continue
        state = release.client.get(f"/api/rooms/{room['id']}/state", headers=host)
        assert state.status_code == 200, state.text
        state_body = state.json()
        assert state_body["version"] == room["version"]
        assert state_body["rules_version"] == 1  # every fixture game predates versions
        if room["result"] is None:
            assert state_body["result"] is None
            assert state_body["active_seats"] == room["active_seats"]
        else:
            for key in ("scores", "ranking", "winners"):
                assert state_body["result"][key] == room["result"][key], key


def test_finished_games_show_their_result_and_replay(release: Release):
    client = release.client
    for room in release.rooms("finished"):
        rid, last = room["id"], room["version"]
        reader = release.as_player(release.seated(room))  # a private game's replay is theirs
        summary = client.get(f"/api/rooms/{rid}/replay", headers=reader)
        assert summary.status_code == 200, summary.text
        body = summary.json()
        assert body["versions"] == last + 1
        for key in ("scores", "ranking", "winners"):
            assert body["result"][key] == room["result"][key], key
        assert body["timeline"][-1] == room["result"]["scores"]
        first = body["first_version"]
        if "power-without-use" in room["features"] or refused_today(release, room):
            # refused today (POW-3; Evo's births before rules version 2): only the end shows
            assert first == last and body["notice"]
            assert client.get(f"/api/rooms/{rid}/replay/0", headers=reader).status_code == 404
        else:  # rebuilt move by move under today's rules
            assert first == 0 and body["notice"] is None
        for version in sorted({first, last, *range(first, last, 17)}):
            step = client.get(f"/api/rooms/{rid}/replay/{version}", headers=reader)
            assert step.status_code == 200, (version, step.text)
            assert step.json()["version"] == version
        end = client.get(f"/api/rooms/{rid}/replay/{last}", headers=reader).json()
        assert end["result"]["scores"] == room["result"]["scores"]
        assert end["log"], "the log of a finished game"
        page = client.get(f"/rooms/{rid}/replay", headers=reader)
        assert page.status_code == 200 and "Replay of" in page.text
        if first:
            assert "cannot be shown one by one" in page.text


def test_finished_games_of_people_offer_a_rematch(release: Release):
    """A rematch of an older release's finished game: a new room of the same game, seats and
    options (one offered before the upgrade is found again)."""
    for room in release.rooms("finished"):
        people = [s["player_id"] for s in room["seats"] if s["player_id"] is not None]
        if not people:
            continue
        offered = release.client.post(f"/api/rooms/{room['id']}/rematch",
                                      headers=release.as_player(people[0]))
        assert offered.status_code in (200, 201), offered.text
        assert offered.json()["game"] == room["game"]
        assert offered.json()["status"] in ("lobby", "playing")


def stored_game(release: Release, room: dict[str, Any]
                ) -> tuple[int, str, str, int, list[tuple[int, str]]]:
    """The room's stored game as the release's dump holds it: seed, state, options, players
    and its moves (seat, move JSON) in order."""
    with sqlite3.connect(":memory:") as db:
        db.executescript((FIXTURES / f"{release.name}.sql").read_text())
        seed, state, options, players = db.execute(
            "SELECT seed, state, options, players FROM game JOIN room ON "
            "room.id = game.room_id WHERE room.id = ?", (room["id"],)).fetchone()
        moves = db.execute("SELECT seat, move FROM move JOIN game ON game.id = "
                           "move.game_id WHERE game.room_id = ? ORDER BY seq",
                           (room["id"],)).fetchall()
    return int(seed), state, options, players, moves


def refused_today(release: Release, room: dict[str, Any]) -> IllegalMove | None:
    """The first of the room's stored moves today's rules refuse, replayed from the deal."""
    seed, _, options, players, moves = stored_game(release, room)
    game = get_game(room["game"])
    state = game.setup(players, game.Options.model_validate(json.loads(options)), seed)
    for seat, move in moves:
        try:
            state = game.apply(state, seat, json.loads(move))
        except IllegalMove as exc:
            return exc
    return None


def test_an_evo_birth_of_rules_version_1_stays_a_fact(release: Release):
    """Before Evo's rules version 2 newborns were placed one at a time round the table; today
    each player places all its newborns in its turn. A finished game whose births went round
    the table stands as stored — its result, its final board and its log — and its replay
    shows the end with a notice, since today's rules refuse its first round-robin placement
    ("it is not your turn"): the only refusal its moves meet."""
    from app.games.evo import rules as evo

    finished = [r for r in release.rooms("finished") if r["game"] == "evo"]
    if not finished:
        pytest.skip(f"{release.name} had no Evo")
    for room in finished:
        refusal = refused_today(release, room)
        if refusal is None:  # births that never differed (one newborn each)
            continue
        assert refusal.rule == evo.RULE_TURN, refusal
        seed, _, _, players, moves = stored_game(release, room)
        game = get_game("evo")
        state = game.setup(players, game.Options(), seed)
        for seat, move in moves:
            if seat not in game.active_seats(state):
                assert state.phase == evo.BIRTH and json.loads(move)["type"] == "place"
                break
            state = game.apply(state, seat, json.loads(move))
        reader = release.as_player(release.seated(room))
        body = release.client.get(f"/api/rooms/{room['id']}/replay", headers=reader).json()
        assert body["first_version"] == room["version"] and body["notice"]
        assert body["result"]["scores"] == room["result"]["scores"]


@pytest.mark.parametrize("release", [("r0002", "sqlite"), ("r0002", "postgresql")],
                         ids=["r0002-sqlite", "r0002-postgresql"], indirect=True)
def test_a_power_move_todays_rules_refuse_stays_a_fact(release: Release):
    """At 7aa4a46 a power could be used with no use left (POW-3 since): today's rules refuse
    the stored move, yet the game loads from its snapshot, keeps its version and result, and
    its log says what cannot be shown."""
    marked = [r for r in release.rooms() if "power-without-use" in r["features"]]
    assert {r["kind"] for r in marked} == {"finished", "in_progress"}
    for room in marked:
        rid = room["id"]
        host = release.as_player(release.seated(room))
        with sqlite3.connect(":memory:") as db:
            db.executescript((FIXTURES / f"{release.name}.sql").read_text())
            seed, state, options, players = db.execute(
                "SELECT seed, state, options, players FROM game JOIN room ON "
                "room.id = game.room_id WHERE room.id = ?", (rid,)).fetchone()
            moves = db.execute("SELECT seat, move FROM move JOIN game ON game.id = "
                               "move.game_id WHERE game.room_id = ? ORDER BY seq",
                               (rid,)).fetchall()
        game = get_game("evergreen")
        refused = None
        replayed = game.setup(players, game.Options.model_validate(json.loads(options)),
                              int(seed))
        for seat, move in moves:
            try:
                replayed = game.apply(replayed, seat, json.loads(move))
            except IllegalMove as exc:
                refused = exc
                break
        assert refused is not None and refused.rule == "POW-3"
        with pytest.raises(Diverged):
            rebuild(game, players, game.Options.model_validate(json.loads(options)),
                    int(seed), [(s, json.loads(m)) for s, m in moves],
                    game.load(json.loads(state)))
        body = release.client.get(f"/api/rooms/{rid}/state", headers=host).json()
        assert body["version"] == room["version"] == len(moves)
        log = release.client.get(f"/api/rooms/{rid}/log", headers=host).json()["events"]
        assert log[0]["key"] == "log.unavailable"
        assert "is not available" in log[0]["text"]
        rules = release.client.get(f"/rooms/{rid}", headers=host)
        assert "This game began under an earlier version of these rules" in rules.text


def _play_to_the_end(release: Release, room: dict[str, Any], rng: random.Random) -> int:
    """Play the room's game to its end: each person's decision by the game's own bot
    from that person's view and legal moves, the bots' by themselves. The moves made."""
    client, rid = release.client, room["id"]
    game = get_game(room["game"])
    bot = game.bots[0]
    people = {s["index"]: s["player_id"] for s in room["seats"] if s["player_id"] is not None}
    made, waited = 0, 0.0
    while True:
        state = client.get(f"/api/rooms/{rid}/state",
                           headers=release.as_player(next(iter(people.values())))).json()
        if state["result"] is not None:
            return made
        moved = False
        for seat in state["active_seats"]:
            if seat not in people or state["seats"][seat]["bot"] is not None:
                continue  # a bot plays it
            auth = release.as_player(people[seat])
            mine = client.get(f"/api/rooms/{rid}/state", headers=auth).json()
            legal = client.get(f"/api/rooms/{rid}/moves", headers=auth).json()["moves"]
            if not legal or mine["version"] != state["version"]:
                continue
            answer = client.post(f"/api/rooms/{rid}/moves", headers=auth,
                                 json={"move": bot.choose(mine["view"], legal, rng)})
            assert answer.status_code in (200, 409), answer.text  # 409: another seat first
            made += answer.status_code == 200
            moved = True
            break
        if not moved:  # the bots' turn
            time.sleep(0.01)
            waited += 0.01
            assert waited < 120, f"room {rid} stalled at version {state['version']}"
        assert made < 3000, f"room {rid} did not end"


def test_games_in_progress_play_to_their_end(release: Release):
    rng = random.Random(release.name)
    for room in release.rooms("in_progress"):
        _play_to_the_end(release, room, rng)
        rid = room["id"]
        host = release.as_player(release.seated(room))
        state = release.client.get(f"/api/rooms/{rid}/state", headers=host).json()
        assert state["version"] > room["version"] and state["result"]["ranking"]
        assert release.client.get(f"/api/rooms/{rid}", headers=host).json()["status"] \
            == "finished"
        replay = release.client.get(f"/api/rooms/{rid}/replay", headers=host)
        assert replay.status_code == 200 and replay.json()["versions"] == state["version"] + 1


def test_rooms_waiting_for_their_start_start(release: Release):
    client = release.client
    for room in release.rooms("lobby"):
        rid, host = room["id"], release.as_player(room["seats"][0]["player_id"])
        seated = {s["player_id"] for s in room["seats"]}
        code = client.get(f"/api/rooms/{rid}", headers=host).json()["code"]
        for player_id in release.tokens:
            if player_id not in seated:
                joined = client.post(f"/api/rooms/{rid}/join", headers=release.as_player(
                    player_id), json={"code": code})
                assert joined.status_code == 200, joined.text
        started = client.post(f"/api/rooms/{rid}/start", headers=host)
        assert started.status_code == 200, started.text
        assert client.get(f"/api/rooms/{rid}/state", headers=host).json()["version"] == 0
    for room in release.rooms("rematch"):  # the invitee answers: it deals by itself
        rid = room["id"]
        for seat in room["seats"][1:]:
            answer = client.post(f"/api/rooms/{rid}/rematch/answer", json={"accept": True},
                                 headers=release.as_player(seat["player_id"]))
            assert answer.status_code == 200, answer.text
        assert client.get(f"/api/rooms/{rid}", headers=release.as_player(
            room["seats"][0]["player_id"])).json()["status"] == "playing"


def test_no_request_to_a_room_of_an_older_release_answers_500(release: Release):
    client = release.client
    newcomer = client.post("/api/players", json={"name": "Dee"}).json()["token"]
    client.cookies.clear()
    for room in release.rooms():
        rid = room["id"]
        readers = [release.as_player(release.seated(room)), bearer(newcomer), {}]
        for headers in readers:
            for path in (f"/api/rooms/{rid}", f"/api/rooms/{rid}/state",
                         f"/api/rooms/{rid}/log", f"/api/rooms/{rid}/moves",
                         f"/api/rooms/{rid}/replay", f"/api/rooms/{rid}/replay/0",
                         f"/api/rooms/{rid}/replay/{room['version'] or 0}",
                         f"/rooms/{rid}", f"/rooms/{rid}/replay", f"/games/{room['game']}/rules"):
                answer = client.get(path, headers=headers)
                assert answer.status_code < 500, (path, answer.status_code, answer.text[:300])
        token = release.tokens[release.seated(room)]
        for path in (f"/ws/rooms/{rid}?token={token}", f"/ws/rooms/{rid}/html?token={token}"):
            with client.websocket_connect(path) as socket:
                first = socket.receive_text()
                assert '"status": 500' not in first and '"status":500' not in first


def test_the_clean_up_runs_over_an_older_database(release: Release):
    """The clean-up sweeps an old database without failing; it removes only rooms never
    started (those of the fixture are days old) and keeps every game."""
    from datetime import UTC, datetime, timedelta

    from app.lobby.cleanup import sweep

    engine = release.client.app.state.engine  # type: ignore[attr-defined]
    rooms, _ = sweep(engine, datetime.now(UTC) + timedelta(days=1), timedelta(hours=24),
                     timedelta(days=90))
    assert rooms == len(release.rooms("lobby")) + len(release.rooms("rematch"))
    for room in release.rooms():
        if room["status"] != "lobby":
            state = release.client.get(f"/api/rooms/{room['id']}/state",
                                       headers=release.as_player(release.seated(room)))
            assert state.status_code == 200 and state.json()["version"] == room["version"]


def test_a_stored_game_that_cannot_be_read_is_a_409_naming_its_room(
        tmp_path: Path, caplog: pytest.LogCaptureFixture):
    """A game whose stored state this server cannot read at all answers 409 naming the room
    and the reason on every path (never 500, never a dropped connection), is logged once, and
    every other room keeps working."""
    name = RELEASES[-1]
    manifest = manifest_of(name)
    restore_sqlite(name, tmp_path / "canopy.db")
    broken = next(r for r in manifest["rooms"] if r["kind"] == "in_progress")
    other = next(r for r in manifest["rooms"] if r["kind"] == "finished")
    with sqlite3.connect(tmp_path / "canopy.db") as db:
        db.execute("UPDATE game SET state = '{\"from\": \"the future\"}' WHERE room_id = ?",
                   (broken["id"],))
    app = create_app(Settings(database_url=f"sqlite:///{tmp_path / 'canopy.db'}",
                              bot_delay=0.0, htmx_source="local", cleanup_every_minutes=0,
                              **GENEROUS))
    token = manifest["players"][0]["token"]
    rid = broken["id"]
    with TestClient(app) as client:
        for path in (f"/api/rooms/{rid}/state", f"/api/rooms/{rid}/log",
                     f"/api/rooms/{rid}/moves", f"/rooms/{rid}"):
            for _ in range(2):
                answer = client.get(path, headers=bearer(token))
                assert answer.status_code == 409, (path, answer.text[:300])
        body = client.get(f"/api/rooms/{rid}/state", headers=bearer(token)).json()
        assert body["room"] == rid and body["reason"] == "unreadable stored game"
        assert f"room {rid} cannot be opened" in body["detail"]
        move = client.post(f"/api/rooms/{rid}/moves", headers=bearer(token),
                           json={"move": {"type": "draw", "source": "deck"}})
        assert move.status_code == 409
        for path in (f"/ws/rooms/{rid}?token={token}", f"/ws/rooms/{rid}/html?token={token}"):
            with client.websocket_connect(path) as socket:
                if "/html" not in path:  # the JSON socket says why first
                    error = json.loads(socket.receive_text())
                    assert error["type"] == "error" and error["status"] == 409
                with pytest.raises(WebSocketDisconnect) as closed:
                    socket.receive_text()
                assert closed.value.code == 4409
        # the same connection goes on; every other room works (read by one seated in it)
        tokens = {p["id"]: p["token"] for p in manifest["players"]}
        reader = bearer(tokens[next(s["player_id"] for s in other["seats"]
                                    if s["player_id"] is not None)])
        assert client.get(f"/api/rooms/{other['id']}/state", headers=reader).status_code == 200
        assert client.get(f"/api/rooms/{other['id']}/replay", headers=reader).status_code == 200
    logged = [r for r in caplog.records if f"room {rid} cannot be read" in r.getMessage()]
    assert len(logged) == 1


@pytest.mark.parametrize("release", [("r0007", "sqlite"), ("r0007", "postgresql")],
                         ids=["r0007-sqlite", "r0007-postgresql"], indirect=True)
def test_the_newest_migration_goes_back_and_forth(release: Release):
    """Rolling back keeps the moves made after an upgrade: 0009 and 0008 go back to 0007
    (the previous release's schema) and forward again (every room drawing a new watch
    code), and every game still reads; a game dealt under today's rules stores their
    version."""
    from sqlalchemy import inspect

    client = release.client
    room = release.rooms("lobby")[0]
    rid, host = room["id"], release.as_player(room["seats"][0]["player_id"])
    code = client.get(f"/api/rooms/{rid}", headers=host).json()["code"]
    client.post(f"/api/rooms/{rid}/join", headers=release.as_player(3), json={"code": code})
    assert client.post(f"/api/rooms/{rid}/start", headers=host).status_code == 200
    assert client.get(f"/api/rooms/{rid}/state", headers=host).json()["rules_version"] \
        == get_game(room["game"]).rules_version
    engine = client.app.state.engine  # type: ignore[attr-defined]
    migrate(engine, "0007", down=True)
    assert "rules_version" not in {c["name"] for c in inspect(engine).get_columns("game")}
    migrate(engine, "head")
    client.app.state.rooms.tables.forget(rid)  # type: ignore[attr-defined]
    for listed in release.rooms():
        if listed["status"] != "lobby":
            assert client.get(f"/api/rooms/{listed['id']}/state", headers=release.as_player(
                release.seated(listed))).status_code == 200
    assert client.get(f"/api/rooms/{rid}/state", headers=host).json()["version"] == 0
