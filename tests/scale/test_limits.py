"""Issue 13: with a Redis hub the per-address rate limits are counted in Redis, so every
process counts the same requests; while Redis does not answer, each process counts alone."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient
from httpx import Response

from app.errors import ApiError
from app.guard import RateLimits
from tests.engines import free_port
from tests.scale.conftest import instances, scale_settings


def test_sign_ups_are_counted_across_instances(shared_database: str, redis_url: str) -> None:
    limited = scale_settings(shared_database, redis_url, rate_signups="3/minute")
    with instances(limited, limited) as (a, b):
        def sign_up(client: TestClient) -> Response:
            response = client.post("/api/players", json={"name": "Ana"})
            client.cookies.clear()  # a script's request: no player cookie
            return response

        for client in (a.client, a.client, b.client):
            assert sign_up(client).status_code == 200
        refused = sign_up(b.client)
        assert refused.status_code == 429 and int(refused.headers["Retry-After"]) >= 1
        assert sign_up(a.client).status_code == 429


def test_without_redis_each_process_still_counts_on_its_own() -> None:
    nowhere = f"redis://127.0.0.1:{free_port()}/0"
    limits = RateLimits(scale_settings("sqlite://", nowhere, rate_signups="2/minute"))
    scope = {"type": "http", "client": ("203.0.113.9", 5000), "headers": []}
    limits.hit("signups", scope, "new players")
    limits.hit("signups", scope, "new players")
    with pytest.raises(ApiError) as refused:
        limits.hit("signups", scope, "new players")
    assert refused.value.status == 429
    assert limits.limiter is limits.local


def test_socket_handshakes_are_counted_across_instances(shared_database: str,
                                                        redis_url: str) -> None:
    """Issue 28: the handshakes of both sockets are counted in Redis too (from a worker
    thread: the Redis client waits, the event loop must not); the one over the limit is
    refused before the accept (HTTP 429 with Retry-After), on either process."""
    from starlette.testclient import WebSocketDenialResponse

    limited = scale_settings(shared_database, redis_url, rate_handshakes="3/minute")
    with instances(limited, limited) as (a, b):
        token = a.client.post("/api/players", json={"name": "Ana"}).json()["token"]
        a.client.cookies.clear()
        room = a.client.post("/api/rooms", json={"game": "arboretum", "players": 2},
                             headers={"Authorization": f"Bearer {token}"}).json()["id"]
        for client, path in ((a.client, ""), (b.client, "/html"), (a.client, "")):
            with client.websocket_connect(f"/ws/rooms/{room}{path}?token={token}") as ws:
                ws.receive_text()
        for client in (b.client, a.client):
            with pytest.raises(WebSocketDenialResponse) as refused, \
                    client.websocket_connect(f"/ws/rooms/{room}?token={token}"):
                pass
            assert refused.value.status_code == 429
            assert int(refused.value.headers["Retry-After"]) >= 1
