"""Issue 13, part 2: the Redis hub between processes. A move made through one instance reaches
the sockets another instance holds, as patches in order; the other's cached table follows; a
message that never arrived (a hub cut off, a subscription lost) is caught up by the resync;
who has a page open counts the pages of every instance."""

from __future__ import annotations

import time
from typing import Any

import jsonpatch
import redis

from app.rooms.broadcast import RedisHub, Seen, decode, encode
from app.rooms.events import GameMoved, LobbyChanged, PresenceChanged
from tests.conftest import Player, started_room
from tests.scale.conftest import (
    RESYNC,
    Instance,
    a_legal_move,
    instances,
    receive_until,
    scale_settings,
    wait_for,
)


def test_events_travel_as_short_lines_and_anything_else_is_ignored() -> None:
    seen = Seen(7, frozenset({3, 12}), 2)
    for event, extra in ((GameMoved(5, 41), None), (LobbyChanged(5), None),
                         (PresenceChanged(5, seen.players, seen.anonymous), seen)):
        line = encode("abc123", event, extra)
        assert len(line) < 40 and line.isascii()
        assert decode(line) == ("abc123", event, extra)
    for junk in (b"", b"abc m", b"abc m x 1", b"abc q 1 2", b"abc m 1 2 3", b"\xff m 1 2"):
        assert decode(junk) is None


def test_a_move_through_one_instance_reaches_the_other_s_socket_as_patches_in_order(
        pair: list[Instance]) -> None:
    """B's socket gets each move made through A as a patch from the version it last sent;
    B's cached table catches up with the stored moves (no whole load) and equals a table
    loaded afresh."""
    a, b = pair
    ana, bo = Player(a.client, "Ana"), Player(a.client, "Bo")
    rid = started_room([ana, bo])
    loads = []
    load = b.state.rooms.store.load
    b.state.rooms.store.load = lambda room_id, **kw: loads.append(room_id) or load(room_id, **kw)
    with b.client.websocket_connect(f"/ws/rooms/{rid}?token={bo.token}") as socket:
        snapshot = receive_until(socket, "snapshot")
        view, version = snapshot["view"], snapshot["version"]
        cached = b.state.rooms.cached(rid)
        for _ in range(10):
            player, move, at = a_legal_move(a, [ana, bo], rid)
            assert a.post(player, f"/api/rooms/{rid}/moves",
                          {"move": move, "expected_version": at}).status_code == 200
            patch = receive_until(socket, "patch")
            assert (patch["from"], patch["to"]) == (version, at + 1)
            version = patch["to"]
            view = jsonpatch.apply_patch(view, patch["ops"])
            assert view == b.get(bo, f"/api/rooms/{rid}/state").json()["view"]
            assert b.state.rooms.cached(rid) is cached and cached.version == version
    assert loads == [rid], "loaded once, then caught up"
    fresh = load(rid)
    assert [cached.view(seat) for seat in (None, 0, 1)] == \
        [fresh.view(seat) for seat in (None, 0, 1)]
    assert cached.log_for(0) == fresh.log_for(0) and cached.moved_at == fresh.moved_at


def test_a_seat_handed_to_a_bot_through_one_instance_shows_on_the_other_s_socket(
        pair: list[Instance]) -> None:
    """Who plays a seat changes no version: B's table is loaded again, and its socket says
    who plays the seats now."""
    a, b = pair
    ana, bo = Player(a.client, "Ana"), Player(a.client, "Bo")
    rid = started_room([ana, bo])
    with b.client.websocket_connect(f"/ws/rooms/{rid}?token={ana.token}") as socket:
        assert receive_until(socket, "snapshot")["seats"][1]["bot"] is None
        assert a.post(bo, f"/api/rooms/{rid}/hand-over").status_code == 200
        seats = receive_until(socket, "seats")
        assert seats["seats"][1]["bot"] is not None and seats["version"] == 0
        assert b.state.rooms.cached(rid).seat_bots == {1: seats["seats"][1]["bot"]}


def test_quick_moves_come_as_a_chain_of_patches_ending_at_the_present(
        pair: list[Instance]) -> None:
    """However the events bunch up, each patch starts where the last ended and the view they
    build is the stored one."""
    a, b = pair
    ana, bo = Player(a.client, "Ana"), Player(a.client, "Bo")
    rid = started_room([ana, bo])
    with b.client.websocket_connect(f"/ws/rooms/{rid}?token={ana.token}") as socket:
        snapshot = receive_until(socket, "snapshot")
        view, version = snapshot["view"], snapshot["version"]
        for _ in range(12):  # straight on, not waiting for the patches
            player, move, at = a_legal_move(a, [ana, bo], rid)
            assert a.post(player, f"/api/rooms/{rid}/moves",
                          {"move": move, "expected_version": at}).status_code == 200
        final = a.get(ana, f"/api/rooms/{rid}/state").json()
        while version < final["version"]:
            patch = receive_until(socket, "patch")
            assert patch["from"] == version and patch["to"] > version
            view = jsonpatch.apply_patch(view, patch["ops"])
            version = patch["to"]
        assert version == final["version"] and view == final["view"]


def test_the_other_instance_s_cached_table_follows_moves_without_any_socket(
        shared_database: str, redis_url: str) -> None:
    """B answers from the table it cached; a move through A drops it (no socket, and no
    resync for a minute: the event alone does it)."""
    slow = scale_settings(shared_database, redis_url, resync_seconds=60)
    with instances(slow, slow) as (a, b):
        ana, bo = Player(a.client, "Ana"), Player(a.client, "Bo")
        rid = started_room([ana, bo])
        assert b.get(ana, f"/api/rooms/{rid}/state").json()["version"] == 0
        for version in range(1, 6):
            player, move, at = a_legal_move(a, [ana, bo], rid)
            assert a.post(player, f"/api/rooms/{rid}/moves", {"move": move}).status_code == 200
            wait_for(lambda v=version: b.get(ana, f"/api/rooms/{rid}/state").json()["version"]
                     == v, 5, f"B at version {version}")
        # and B's own move, on the table it loaded again, is accepted (no 409)
        player, move, at = a_legal_move(b, [ana, bo], rid)
        assert b.post(player, f"/api/rooms/{rid}/moves",
                      {"move": move, "expected_version": at}).status_code == 200


def test_a_move_whose_message_never_arrives_is_caught_up_by_the_resync(
        shared_database: str, redis_url: str) -> None:
    """A moves through a hub that does not reach B (memory://): nothing is published to B,
    and B's socket catches up from the database within a resync period or two."""
    with instances(scale_settings(shared_database, "memory://"),
                   scale_settings(shared_database, redis_url)) as (a, b):
        ana, bo = Player(a.client, "Ana"), Player(a.client, "Bo")
        rid = started_room([ana, bo])
        with b.client.websocket_connect(f"/ws/rooms/{rid}?token={bo.token}") as socket:
            view = receive_until(socket, "snapshot")["view"]
            assert b.state.rooms.cached(rid).version == 0
            player, move, _ = a_legal_move(a, [ana, bo], rid)
            assert a.post(player, f"/api/rooms/{rid}/moves", {"move": move}).status_code == 200
            patch = receive_until(socket, "patch", seconds=4 * RESYNC + 2)
            assert (patch["from"], patch["to"]) == (0, 1)
            view = jsonpatch.apply_patch(view, patch["ops"])
            assert view == a.get(bo, f"/api/rooms/{rid}/state").json()["view"]


def _kill_subscription(redis_url: str, hub: RedisHub) -> None:
    """End the hub's pub/sub connection from the server's side, as a Redis restart would."""
    with redis.Redis.from_url(redis_url) as admin:
        clients = [c for c in admin.client_list(_type="pubsub")
                   if c["name"] == f"canopy-{hub.process}"]
        assert len(clients) == 1, "one pub/sub connection per process"
        admin.client_kill_filter(_id=clients[0]["id"])


def test_a_message_published_while_a_subscription_is_down_is_caught_up_on_resubscribing(
        shared_database: str, redis_url: str) -> None:
    slow = scale_settings(shared_database, redis_url, resync_seconds=60)  # no periodic help
    with instances(slow, slow) as (a, b):
        ana, bo = Player(a.client, "Ana"), Player(a.client, "Bo")
        rid = started_room([ana, bo])
        hub: RedisHub = b.state.hub
        hub.RETRY_FIRST = 1.0  # the move below is published while B is not subscribed
        with b.client.websocket_connect(f"/ws/rooms/{rid}?token={bo.token}") as socket:
            view = receive_until(socket, "snapshot")["view"]
            _kill_subscription(redis_url, hub)
            wait_for(lambda: not hub.subscribed.is_set(), 5, "B noticing")
            sent = a.state.hub.sent
            player, move, _ = a_legal_move(a, [ana, bo], rid)
            assert a.post(player, f"/api/rooms/{rid}/moves", {"move": move}).status_code == 200
            wait_for(lambda: a.state.hub.sent > sent, 5, "A's event sent")
            assert not hub.subscribed.is_set(), "B was away when it was sent"
            patch = receive_until(socket, "patch", seconds=10)
            assert (patch["from"], patch["to"]) == (0, 1)
            assert jsonpatch.apply_patch(view, patch["ops"]) == \
                b.get(bo, f"/api/rooms/{rid}/state").json()["view"]
            assert hub.subscribed.is_set()


def _here(instance: Instance, viewer: Player, rid: int) -> list[bool]:
    seats = instance.get(viewer, f"/api/rooms/{rid}/state").json()["seats"]
    return [seat["here"] for seat in seats]


def test_who_is_here_counts_the_pages_open_in_every_instance(
        pair: list[Instance], redis_url: str) -> None:
    a, b = pair
    ana, bo, cai = (Player(a.client, name) for name in ("Ana", "Bo", "Cai"))
    rid = started_room([ana, bo, cai], n=3)
    assert _here(a, ana, rid) == [False, False, False]
    with a.client.websocket_connect(f"/ws/rooms/{rid}?token={ana.token}") as wa:
        receive_until(wa, "snapshot")
        with b.client.websocket_connect(f"/ws/rooms/{rid}/html?token={bo.token}") as wb:
            wb.receive_text()
            for instance in (a, b):
                wait_for(lambda i=instance: _here(i, cai, rid) == [True, True, False], 5,
                         "both pages seen from both instances")
        wait_for(lambda: _here(a, cai, rid) == [True, False, False], 5, "Bo's page closed")
        assert _here(b, cai, rid) == [True, False, False]


def test_a_dead_instance_s_pages_vanish_within_two_resync_periods(
        pair: list[Instance], redis_url: str) -> None:
    """Another process shows Cai's page, then dies without a word: its presence is no longer
    refreshed, expires, and the next resync forgets it."""
    a, _ = pair
    ana, bo, cai = (Player(a.client, name) for name in ("Ana", "Bo", "Cai"))
    rid = started_room([ana, bo, cai], n=3)
    hub: RedisHub = a.state.hub
    with redis.Redis.from_url(redis_url) as ghost:  # what a third process would write
        ghost.sadd("canopy:0:processes", "ghost")
        ghost.hset("canopy:0:presence:ghost", mapping={"stamp": 1, str(rid): f"1 0 {cai.id}"})
        ghost.pexpire("canopy:0:presence:ghost", int(hub.presence_ttl * 1000))
        died = time.monotonic()
    wait_for(lambda: _here(a, ana, rid) == [False, False, True], 3 * RESYNC + 2,
             "the other process's page")
    wait_for(lambda: _here(a, ana, rid) == [False, False, False], 10, "its page gone")
    assert time.monotonic() - died < hub.presence_ttl + 2 * RESYNC + 0.5
    assert hub.presence_ttl == max(1.0, 2 * RESYNC)


def test_presence_is_told_with_the_event_so_other_pages_redraw_at_once(
        shared_database: str, redis_url: str) -> None:
    """With no resync for a minute, a page opened in B shows in A's seat bar by the event."""
    slow = scale_settings(shared_database, redis_url, resync_seconds=60)
    with instances(slow, slow) as (a, b):
        ana, bo = Player(a.client, "Ana"), Player(a.client, "Bo")
        rid = started_room([ana, bo])
        with a.client.websocket_connect(f"/ws/rooms/{rid}/html?token={ana.token}") as page:
            first = page.receive_text()
            assert 'id="seats"' in first
            with b.client.websocket_connect(f"/ws/rooms/{rid}?token={bo.token}") as wb:
                receive_until(wb, "snapshot")
                redrawn = page.receive_text()  # Bo is here now
                assert 'id="seats"' in redrawn and redrawn != first
                assert _here(a, ana, rid) == [True, True]


def test_an_instance_on_memory_is_one_process_as_before(settings: Any) -> None:
    from app.rooms.events import MemoryHub
    from app.rooms.lease import AlwaysHeld

    with instances(settings) as (only,):
        assert isinstance(only.state.hub, MemoryHub)
        assert isinstance(only.state.lease, AlwaysHeld) and only.state.lease.held
        assert only.state.resync is None
