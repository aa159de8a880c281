"""The one rule of who may read a room (app/rooms/access.py) and the codes a client presents
(app/identity.py ``watch_keys``), without a server."""

from __future__ import annotations

import pytest

from app.errors import ApiError
from app.identity import WATCH_KEPT, watch_keys
from app.rooms.access import Readers

PRIVATE = Readers(private=True, host_id=1, people=frozenset({2, 3}), code="invitecode2345",
                  watch="watchcode23456")


def test_a_private_room_admits_its_host_its_people_and_its_codes_only():
    assert PRIVATE.admits(1) and PRIVATE.admits(2) and PRIVATE.admits(3)
    assert PRIVATE.admits(None, ["watchcode23456"]) and PRIVATE.admits(9, ["invitecode2345"])
    for player, keys in ((9, []), (None, []), (9, ["watchcode2345"]), (None, ["WATCHCODE23456"]),
                         (9, ["", "é", "x" * 500])):
        assert not PRIVATE.admits(player, keys), (player, keys)
    with pytest.raises(ApiError) as refused:
        PRIVATE.check(7, 9, ["nope"])
    assert refused.value.status == 404 and refused.value.detail == "there is no room 7"


def test_a_public_room_admits_anyone():
    public = Readers(private=False, host_id=1, people=frozenset(), code="c", watch="w")
    assert public.admits(None) and public.admits(42, ["anything"])


def test_the_codes_a_client_presents():
    keys = watch_keys({"x-watch-code": "fromheader"}, {"canopy_watch": "one.two.bad code.é"},
                      {"watch": "fromquery"})
    assert keys == {"fromheader", "one", "two", "fromquery"}
    many = ".".join(f"code{i}" for i in range(100))
    assert len(watch_keys({}, {"canopy_watch": many}, {})) == WATCH_KEPT
    assert watch_keys({}, {}, {"watch": "x" * 100}) == frozenset()
