"""The move write on a real PostgreSQL: the unique ``(game, seq)`` guard between two writers
(two processes' connections), and group commit when one job of a shared transaction fails —
PostgreSQL aborts the whole transaction at the first error, so the others must be rerun alone
and committed."""

from __future__ import annotations

import asyncio
import functools
import threading
import time
from datetime import UTC, datetime
from typing import Any

import pytest
from sqlalchemy import event, select
from sqlalchemy.engine import Connection, Engine
from sqlmodel import Session

from app.db import GroupCommit, make_engine
from app.models import Game, Move, Player, Room
from app.rooms.store import GameStore, StaleTable


def new_game(engine: Engine, code: str) -> int:
    """A room and its game at version 0; returns the game row's id."""
    with Session(engine) as session:
        player = Player(name="Ana", token_hash=f"hash-{code}")
        session.add(player)
        session.flush()
        assert player.id is not None
        room = Room(code=code, game_id="arboretum", players=2, status="playing",
                    created_by=player.id, host_id=player.id)
        session.add(room)
        session.flush()
        assert room.id is not None
        game = Game(room_id=room.id, seed="1", state={"turn": 0}, version=0)
        session.add(game)
        session.commit()
        assert game.id is not None
        return game.id


def move_job(game_row: int, version: int, mark: str) -> Any:
    """The job that stores the move after ``version`` (as :meth:`GameStore.save` hands it to
    the writer), the move and the snapshot marked ``mark``."""
    return functools.partial(GameStore._write, 0, game_row, version, 0, {"mark": mark},
                             lambda: {"turn": version + 1, "mark": mark}, [], None, None,
                             datetime.now(UTC))


def stored(engine: Engine, game_row: int) -> tuple[int, dict[str, Any], list[tuple[int, str]]]:
    """(version, snapshot, [(seq, mark) of each move]) of a game, as committed."""
    with Session(engine) as session:
        game = session.get(Game, game_row)
        assert game is not None
        moves = session.execute(select(Move.seq, Move.move).where(Move.game_id == game_row)
                                .order_by(Move.seq)).all()
        return game.version, game.state, [(seq, move["mark"]) for seq, move in moves]


@pytest.fixture
def second_engine(head_url: str) -> Any:
    """Another process's engine on the same database."""
    engine = make_engine(head_url)
    yield engine
    engine.dispose()


def test_two_writers_of_one_seq_one_wins_the_other_is_stale(head_engine: Engine,
                                                             second_engine: Engine):
    """Writer B inserts the same ``(game, seq)`` while writer A's transaction is open: B waits
    on the unique index, and when A commits, B is refused (StaleTable) and stores nothing."""
    game_row = new_game(head_engine, "race")
    outcome: list[BaseException | None] = []

    def second_writer() -> None:
        try:
            with second_engine.begin() as connection:
                move_job(game_row, 0, "B")(connection)
        except BaseException as exc:  # the outcome the test checks
            outcome.append(exc)
        else:
            outcome.append(None)

    with head_engine.begin() as connection:
        move_job(game_row, 0, "A")(connection)
        backend = connection.exec_driver_sql("SELECT pg_backend_pid()").scalar_one()
        thread = threading.Thread(target=second_writer)
        thread.start()
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline and not blocked_by(second_engine, backend):
            time.sleep(0.01)
        assert blocked_by(second_engine, backend), "B did not wait for A's row"
    thread.join(timeout=30)
    assert len(outcome) == 1 and isinstance(outcome[0], StaleTable)
    assert stored(head_engine, game_row) == (1, {"turn": 1, "mark": "A"}, [(1, "A")])


def blocked_by(engine: Engine, backend: int) -> bool:
    """Whether some session waits for a lock that ``backend`` holds."""
    with engine.connect() as connection:
        return bool(connection.exec_driver_sql(
            "SELECT count(*) FROM pg_stat_activity "
            f"WHERE {int(backend)} = ANY(pg_blocking_pids(pid))").scalar_one())


def test_a_writer_that_read_an_older_version_is_stale(head_engine: Engine,
                                                      second_engine: Engine):
    game_row = new_game(head_engine, "late")
    with head_engine.begin() as connection:
        move_job(game_row, 0, "A")(connection)
    with pytest.raises(StaleTable), second_engine.begin() as connection:
        move_job(game_row, 0, "B")(connection)
    assert stored(head_engine, game_row) == (1, {"turn": 1, "mark": "A"}, [(1, "A")])
    with second_engine.begin() as connection:  # B, having caught up, moves on
        move_job(game_row, 1, "B")(connection)
    assert stored(head_engine, game_row) == (2, {"turn": 2, "mark": "B"},
                                             [(1, "A"), (2, "B")])


def test_a_failing_job_in_a_group_is_rerun_alone_and_the_others_commit(head_engine: Engine):
    """Three moves arrive together and share one transaction; the second repeats the first's
    ``(game, seq)``. PostgreSQL aborts that transaction; each job then runs alone: the first
    and third are committed, the second alone is refused — as if each had been alone."""
    first, other = new_game(head_engine, "g1"), new_game(head_engine, "g2")
    transactions: list[str] = []
    for name in ("begin", "commit", "rollback"):
        event.listen(head_engine, name, functools.partial(
            lambda name, _conn: transactions.append(name), name))
    writer = GroupCommit(head_engine)
    sizes: list[int] = []
    run = writer._run

    def counted(jobs: list[Any]) -> list[Exception | None]:
        sizes.append(len(jobs))
        return run(jobs)

    writer._run = counted  # type: ignore[method-assign]

    async def three_at_once() -> list[BaseException | None]:
        jobs = [move_job(first, 0, "first"), move_job(first, 0, "again"),
                move_job(other, 0, "other")]
        results = await asyncio.gather(*(writer.write(job) for job in jobs),
                                       return_exceptions=True)
        return list(results)

    results = asyncio.run(three_at_once())
    assert sizes == [3], "the three jobs were one group"
    assert results[0] is None and results[2] is None
    assert isinstance(results[1], StaleTable)
    # the group's transaction rolled back, then one each: two commits and a rollback
    assert transactions == ["begin", "rollback", "begin", "commit", "begin", "rollback",
                            "begin", "commit"]
    assert stored(head_engine, first) == (1, {"turn": 1, "mark": "first"}, [(1, "first")])
    assert stored(head_engine, other) == (1, {"turn": 1, "mark": "other"}, [(1, "other")])


def test_two_processes_groups_crossing_on_two_games_deadlock_and_one_wins_both(
        head_engine: Engine, second_engine: Engine):
    """Process A's group writes game 1 then game 2, process B's group game 2 then game 1,
    each second write only once both firsts are in: each waits for the other, PostgreSQL
    aborts one group (deadlock), whose jobs are rerun alone and find both seqs taken
    (StaleTable); the other group commits both moves. No game has two moves 1."""
    one, two = new_game(head_engine, "d1"), new_game(head_engine, "d2")
    firsts_in = threading.Barrier(2, timeout=30)

    def second_write(game_row: int, mark: str) -> Any:
        waited: list[bool] = []

        def job(connection: Connection) -> None:
            if not waited:  # in the shared transaction; not again in the rerun
                waited.append(True)
                firsts_in.wait()
            move_job(game_row, 0, mark)(connection)

        return job

    outcomes: dict[str, list[BaseException | None]] = {}
    errors: dict[str, list[BaseException]] = {"A": [], "B": []}

    def process(name: str, engine: Engine, jobs: list[Any]) -> None:
        event.listen(engine, "handle_error",
                     lambda context: errors[name].append(context.original_exception))
        writer = GroupCommit(engine)

        async def together() -> list[BaseException | None]:
            return list(await asyncio.gather(*(writer.write(job) for job in jobs),
                                             return_exceptions=True))

        outcomes[name] = asyncio.run(together())

    a = threading.Thread(target=process, args=(
        "A", head_engine, [move_job(one, 0, "A"), second_write(two, "A")]))
    b = threading.Thread(target=process, args=(
        "B", second_engine, [move_job(two, 0, "B"), second_write(one, "B")]))
    a.start()
    b.start()
    a.join(timeout=60)
    b.join(timeout=60)
    assert not a.is_alive() and not b.is_alive()
    winner = "A" if outcomes["A"] == [None, None] else "B"
    loser = "B" if winner == "A" else "A"
    assert outcomes[winner] == [None, None]
    assert [type(outcome) for outcome in outcomes[loser]] == [StaleTable, StaleTable]
    for game_row in (one, two):
        assert stored(head_engine, game_row) == (1, {"turn": 1, "mark": winner},
                                                 [(1, winner)])
    assert [type(error).__name__ for error in errors[loser]] == \
        ["DeadlockDetected", "UniqueViolation", "UniqueViolation"]
    assert errors[winner] == []


def test_a_group_without_a_failure_is_one_transaction(head_engine: Engine):
    games = [new_game(head_engine, f"one{i}") for i in range(3)]
    commits: list[Connection] = []
    event.listen(head_engine, "commit", commits.append)
    writer = GroupCommit(head_engine)

    async def together() -> None:
        await asyncio.gather(*(writer.write(move_job(g, 0, str(g))) for g in games))

    asyncio.run(together())
    assert len(commits) == 1
    assert [stored(head_engine, g)[0] for g in games] == [1, 1, 1]


def test_a_move_is_committed_before_it_is_published(client: Any, players: list[Any],
                                                    head_url: str):
    """When the room service publishes GameMoved, another connection (another process)
    already reads the move and the new version from PostgreSQL."""
    from app.rooms.events import GameMoved
    from tests.conftest import started_room

    hub = client.app.state.rooms.hub
    publish = hub.publish
    other = make_engine(head_url)
    seen: list[tuple[int, int, int]] = []

    async def checked(event: Any) -> None:
        if isinstance(event, GameMoved):
            with other.connect() as connection:
                version, moves = connection.exec_driver_sql(
                    "SELECT game.version, (SELECT count(*) FROM move "
                    "WHERE move.game_id = game.id) FROM game WHERE game.room_id = %(room)s",
                    {"room": event.room_id}).one()
            seen.append((event.version, version, moves))
        await publish(event)

    hub.publish = checked
    try:
        room = started_room(players, 2)
        for _ in range(3):
            state = players[0].get(f"/api/rooms/{room}/state").json()
            mover = players[state["active_seats"][0]]
            legal = mover.get(f"/api/rooms/{room}/moves").json()
            assert mover.post(f"/api/rooms/{room}/moves", {
                "move": legal["moves"][0], "expected_version": legal["version"]}
            ).status_code == 200
    finally:
        hub.publish = publish
        other.dispose()
    assert seen == [(1, 1, 1), (2, 2, 2), (3, 3, 3)]
