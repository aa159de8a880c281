"""Backups (``scripts/backup``, ``app/backup.py``): a copy taken while clients play on the real
server is a consistent database, and a server started on it has every move acknowledged before
the backup began.

The play test: several people play Arboretum in a few rooms through the JSON API, in threads,
each acknowledged move recorded (room, version, seat, move, when). ``scripts/backup`` runs as a
subprocess in the middle of the play, which goes on a little after it; then the server stops.
The copy is restored as the README says — copied to a new path, the server started on it —
and:

- every move acknowledged before the backup started is in the copy, at its version, for its
  seat; the copy's move log of each game is a prefix of the live one (one instant of the
  database, not a mix), and replays from the seed to the copy's stored snapshot;
- the restored server answers ``GET /state`` of each room at the copy's version, and accepts
  a next move in each game still running.
"""

from __future__ import annotations

import contextlib
import os
import random
import shutil
import sqlite3
import subprocess
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import pytest

from app.backup import BackupError, backup, default_name, sqlite_file
from tests.hardening.support import (
    ROOT,
    Client,
    Server,
    bearer,
    check_stored,
    new_room,
    read_games,
)

#: Seats of the rooms played during the backup.
ROOMS = (2, 2, 3, 4)
#: Seconds each player rests after a move: the games must outlast the backup.
PACE = 0.02


@dataclass
class Ack:
    room: int
    seq: int
    seat: int
    move: Any
    at: float  # time.monotonic() when the answer arrived


@dataclass
class Play:
    stop: threading.Event = field(default_factory=threading.Event)
    lock: threading.Lock = field(default_factory=threading.Lock)
    acks: list[Ack] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)

    def player(self, client: Client, room: int, seat: int, seed: int) -> None:
        """Play random legal moves with ``expected_version`` until stopped or the game ends."""
        rng = random.Random(seed)
        with client.fresh() as http:
            while not self.stop.is_set():
                listed = http.get(f"/api/rooms/{room}/moves")
                if listed.status_code != 200:
                    self.errors.append(f"GET moves: {listed.status_code} {listed.text[:200]}")
                    return
                body = listed.json()
                if not body["moves"]:
                    if http.get(f"/api/rooms/{room}/state").json()["result"] is not None:
                        return
                    time.sleep(0.005)
                    continue
                move, version = rng.choice(body["moves"]), body["version"]
                answer = http.post(f"/api/rooms/{room}/moves",
                                   json={"move": move, "expected_version": version})
                if answer.status_code == 200:
                    with self.lock:
                        self.acks.append(Ack(room, version + 1, seat, move, time.monotonic()))
                elif answer.status_code != 409:
                    self.errors.append(f"POST move: {answer.status_code} {answer.text[:200]}")
                    return
                time.sleep(PACE)

    def count(self) -> int:
        with self.lock:
            return len(self.acks)


def run_backup(db: Path, dest: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "DATABASE_URL": f"sqlite:///{db}"}
    return subprocess.run([str(ROOT / "scripts" / "backup"), str(dest)], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=60)


def wait_until(condition: Any, timeout: float = 20.0) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.01)


@pytest.mark.timeout(180)
def test_a_backup_taken_during_play_restores_every_acknowledged_move(tmp_path: Path) -> None:
    live = Server(tmp_path / "live" / "canopy.db")
    live.db.parent.mkdir()
    live.start()
    play = Play()
    threads: list[threading.Thread] = []
    seats: dict[int, list[Client]] = {}
    try:
        rng = random.Random(13)
        for r, n in enumerate(ROOMS):
            clients = [Client.create(live.base, f"R{r}S{s}") for s in range(n)]
            seats[new_room(clients[0], clients[1:])] = clients
        threads = [threading.Thread(target=play.player, daemon=True,
                                    args=(client, rid, seat, rng.randrange(1 << 30)))
                   for rid, clients in seats.items() for seat, client in enumerate(clients)]
        for t in threads:
            t.start()
        wait_until(lambda: play.count() >= 40)  # moves stored before the backup

        copy = tmp_path / "backups" / "during-play.db"
        started = time.monotonic()
        made = run_backup(live.db, copy)
        finished = time.monotonic()
        assert made.returncode == 0, made.stderr
        assert str(copy) in made.stdout and f"{copy.stat().st_size} bytes" in made.stdout
        assert sorted(p.name for p in copy.parent.iterdir()) == [copy.name]  # no temp file

        count = play.count()
        wait_until(lambda: play.count() >= count + 20)  # keep playing a little
    finally:
        play.stop.set()
        for t in threads:
            t.join(10)
        live.stop()
    assert not play.errors, play.errors[:5]
    acks = list(play.acks)
    before = [a for a in acks if a.at < started]
    during = [a for a in acks if started <= a.at <= finished]
    assert len(before) >= 40
    assert during, "the backup was not taken while moves were being played"
    assert any(a.at > finished for a in acks)

    final = read_games(live.db)
    for game in final.values():
        check_stored(game)

    # Restore as the README says: the copy in place of the database file, no stale WAL files.
    restored_db = tmp_path / "restored" / "canopy.db"
    restored_db.parent.mkdir()
    shutil.copyfile(copy, restored_db)
    assert not any(restored_db.parent.glob("canopy.db-*"))
    with contextlib.closing(sqlite3.connect(restored_db)) as conn:
        assert conn.execute("PRAGMA integrity_check").fetchone() == ("ok",)

    restored = read_games(restored_db)
    assert set(restored) == set(seats)
    for rid, game in restored.items():
        check_stored(game)  # seq 1..V, replays to the stored snapshot and result
        assert game.moves == final[rid].moves[:game.version], \
            f"room {rid}: the copy's move log is not a prefix of the live one"
    for ack in before:
        moves = {seq: (seat, move) for seq, seat, move in restored[ack.room].moves}
        assert moves.get(ack.seq) == (ack.seat, ack.move), \
            f"a move acknowledged before the backup is missing from it: {ack}"
    assert sum(g.version for g in restored.values()) >= len(before)
    assert sum(g.version for g in restored.values()) < sum(g.version for g in final.values())

    server = Server(restored_db)
    server.start()
    moved: dict[int, int] = {}
    try:
        for rid, clients in seats.items():
            https = [httpx.Client(base_url=server.base, headers=bearer(c.token), timeout=10)
                     for c in clients]
            try:
                state = https[0].get(f"/api/rooms/{rid}/state")
                assert state.status_code == 200, state.text
                body = state.json()
                assert body["version"] == restored[rid].version
                assert (body["result"] is None) == (not restored[rid].finished)
                if body["result"] is not None:
                    continue
                seat = body["active_seats"][0]
                listed = https[seat].get(f"/api/rooms/{rid}/moves").json()
                assert listed["version"] == restored[rid].version and listed["moves"]
                answer = https[seat].post(f"/api/rooms/{rid}/moves",
                                          json={"move": listed["moves"][0],
                                                "expected_version": listed["version"]})
                assert answer.status_code == 200, answer.text
                assert answer.json()["version"] == restored[rid].version + 1
                moved[rid] = restored[rid].version + 1
            finally:
                for http in https:
                    http.close()
    finally:
        server.stop()
    assert moved, "no game was still running in the copy"
    after = read_games(restored_db)
    for rid, game in after.items():
        check_stored(game)
        assert game.version == moved.get(rid, restored[rid].version)


# -- the module itself --------------------------------------------------------------------------


def make_db(path: Path) -> Path:
    conn = sqlite3.connect(path)
    conn.execute("PRAGMA journal_mode=WAL")
    conn.execute("CREATE TABLE t (x INTEGER)")
    conn.executemany("INSERT INTO t VALUES (?)", [(i,) for i in range(100)])
    conn.commit()
    conn.close()
    return path


def test_only_sqlite_files_are_backed_up(tmp_path: Path) -> None:
    assert sqlite_file("sqlite:///./data/canopy.db") == Path("./data/canopy.db")
    assert sqlite_file("sqlite:////srv/canopy.db") == Path("/srv/canopy.db")
    assert sqlite_file("sqlite+pysqlite:///x.db?timeout=5") == Path("x.db")
    for url in ("postgresql://u:secret@db/canopy", "mysql://x", "sqlite://",
                "sqlite:///:memory:", "canopy.db", "sqlite:///file:x.db?mode=ro&uri=true"):
        with pytest.raises(BackupError) as refused:
            sqlite_file(url)
        assert "secret" not in str(refused.value)
    with pytest.raises(BackupError, match="no database"):
        backup(f"sqlite:///{tmp_path / 'missing.db'}", tmp_path / "copy.db")
    assert not (tmp_path / "copy.db").exists()

    env = {**os.environ, "DATABASE_URL": "postgresql://u:secret@db/canopy"}
    script = subprocess.run([str(ROOT / "scripts" / "backup")], cwd=tmp_path, env=env,
                            capture_output=True, text=True, timeout=60)
    assert script.returncode == 2
    assert "SQLite databases only" in script.stderr and "secret" not in script.stderr


def test_the_copy_lands_where_asked_whole_and_checked(tmp_path: Path, monkeypatch) -> None:
    db = make_db(tmp_path / "canopy.db")
    url = f"sqlite:///{db}"
    monkeypatch.chdir(tmp_path)
    default = backup(url)
    assert default.parent == Path("backups") and default.name.startswith("canopy-")
    assert len(default.name) == len(default_name())
    (tmp_path / "nightly").mkdir()
    folder = backup(url, tmp_path / "nightly")  # an existing folder: a name inside it
    assert folder.parent == tmp_path / "nightly" and folder.name.startswith("canopy-")
    named = backup(url, tmp_path / "deep" / "er" / "copy.db")
    for path in (default, folder, named):
        with contextlib.closing(sqlite3.connect(path)) as conn:
            assert conn.execute("PRAGMA integrity_check").fetchone() == ("ok",)
            assert conn.execute("SELECT count(*) FROM t").fetchone() == (100,)
    assert sorted(p.name for p in named.parent.iterdir()) == ["copy.db"]
    with pytest.raises(BackupError, match="the database itself"):
        backup(url, db)
    with pytest.raises(BackupError, match="the database itself"):
        backup(url, tmp_path / "." / "canopy.db")
    with contextlib.closing(sqlite3.connect(db)) as conn:
        assert conn.execute("SELECT count(*) FROM t").fetchone() == (100,)

    # the script: DEST relative to where it is run, path and size printed
    env = {**os.environ, "DATABASE_URL": url}
    script = subprocess.run([str(ROOT / "scripts" / "backup"), "mine.db"], cwd=tmp_path,
                            env=env, capture_output=True, text=True, timeout=60)
    assert script.returncode == 0, script.stderr
    mine = tmp_path / "mine.db"
    assert script.stdout.strip() == f"{mine} {mine.stat().st_size} bytes"
