"""A table's live connection is always noticed when lost and always comes back (canopy.js):
a network gone quiet (no close) shows the banner within 5 s; a socket closed cleanly (1001,
which htmx's own extension never retries) is back within 3 s; and a restarted server's pages
are back within 3 s of it answering (tests/e2e/test_table_frame.py). Between the browser and
the server sits a TCP relay that can go quiet like a dead network, or close the page's socket
as a proxy going away does."""

from __future__ import annotations

import socket
import struct
import threading
import time
from collections.abc import Iterator

import pytest
from playwright.sync_api import Page, expect

from tests.e2e.test_conventions import Player


class Relay:
    """A TCP relay from a local port to the server. ``quiet()`` makes it a dead network: it
    stops passing bytes either way and takes new connections without answering them, closing
    nothing; ``mend()`` drops what went quiet and passes new connections again.
    ``close_sockets(code)`` sends each websocket's browser a close frame with ``code``."""

    def __init__(self, upstream: str) -> None:
        self.server = upstream
        host, port = upstream.removeprefix("http://").split(":")
        self.upstream = (host, int(port))
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.base = f"http://127.0.0.1:{self.listener.getsockname()[1]}"
        self.lock = threading.Lock()
        self.silent = False
        self.pairs: list[tuple[socket.socket, socket.socket | None, bool]] = []
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self) -> None:
        while True:
            try:
                client, _ = self.listener.accept()
            except OSError:
                return
            with self.lock:
                if self.silent:
                    self.pairs.append((client, None, False))
                    continue
            first = client.recv(65536)
            server = socket.create_connection(self.upstream)
            server.sendall(first)
            with self.lock:
                self.pairs.append((client, server, first.startswith(b"GET /ws/")))
            threading.Thread(target=self._pump, args=(client, server), daemon=True).start()
            threading.Thread(target=self._pump, args=(server, client), daemon=True).start()

    def _pump(self, source: socket.socket, sink: socket.socket) -> None:
        while True:
            try:
                data = source.recv(65536)
            except OSError:
                data = b""
            with self.lock:
                if not data:
                    for end in (source, sink):
                        end.close()
                    return
                if self.silent or sink.fileno() < 0:
                    continue  # a dead network swallows what is sent
                try:
                    sink.sendall(data)
                except OSError:
                    return

    def quiet(self) -> None:
        with self.lock:
            self.silent = True

    def mend(self) -> None:
        with self.lock:
            self.silent = False
            for client, server, _ in self.pairs:
                for end in (client, server):
                    if end is not None:
                        end.close()
            self.pairs = []

    def close_sockets(self, code: int) -> int:
        """Each websocket's browser gets a close frame with ``code``, then the connection
        closes, as a proxy going away does; returns how many."""
        closed = 0
        with self.lock:
            for client, server, websocket in self.pairs:
                if websocket and client.fileno() >= 0:
                    client.sendall(b"\x88\x02" + struct.pack("!H", code))
                    client.close()
                    assert server is not None
                    server.close()
                    closed += 1
        return closed

    def stop(self) -> None:
        self.listener.close()
        self.mend()


@pytest.fixture
def relay(server: str) -> Iterator[Relay]:
    relay = Relay(server)
    yield relay
    relay.stop()


def against_a_bot(server: str) -> tuple[Player, int]:
    """Ana's Arboretum table against a bot, started: Ana and the room."""
    ana = Player(server, "Ana")
    room = ana.post("/api/rooms", {"game": "arboretum", "players": 2})["id"]
    ana.post(f"/api/rooms/{room}/bots")
    ana.post(f"/api/rooms/{room}/start")
    return ana, room


def table_through(relay: Relay, browser) -> tuple[Player, Page, int]:
    """Ana's table against a bot, on her turn, with her page reached through the relay (her
    API calls go to the server directly)."""
    ana, room = against_a_bot(relay.server)
    page = ana.page(browser, relay.base)
    page.goto(f"{relay.base}/rooms/{room}")
    expect(page.locator(".seatchip.mine.active")).to_be_visible(timeout=15_000)
    expect(page.locator(".seatchip.mine .presence")).to_have_text("here")
    return ana, page, room


def move_by_api(ana: Player, room: int) -> int:
    """Ana makes a legal move through the API; returns the new version."""
    state = ana.api.get(f"/api/rooms/{room}/state").json()
    move = ana.api.get(f"/api/rooms/{room}/moves").json()["moves"][0]
    answer = ana.post(f"/api/rooms/{room}/moves",
                      {"move": move, "expected_version": state["version"]})
    return int(answer["version"])


def test_a_network_gone_quiet_shows_the_banner_within_5_s(relay: Relay, browser) -> None:
    ana, page, room = table_through(relay, browser)
    banner = page.locator("#connection")
    expect(banner).to_be_hidden()
    page.wait_for_timeout(500)
    relay.quiet()
    cut = time.monotonic()
    expect(banner).to_be_visible(timeout=6_000)
    assert time.monotonic() - cut <= 5.0, "the banner came later than 5 s after the network"
    assert page.evaluate("document.querySelector('.table').inert")
    version = move_by_api(ana, room)  # while the page hears nothing
    page.wait_for_timeout(1_000)
    relay.mend()
    expect(banner).to_be_hidden(timeout=5_000)
    expect(page.locator(".seatbar")).to_have_attribute("data-version", str(version))
    page.context.close()


def test_a_socket_closed_cleanly_comes_back_within_3_s(relay: Relay, browser) -> None:
    """1001 ("going away") is a clean close: htmx's extension alone never reconnects after
    it."""
    ana, page, room = table_through(relay, browser)
    assert relay.close_sockets(1001) == 1
    closed = time.monotonic()
    version = move_by_api(ana, room)
    expect(page.locator(".seatbar")).to_have_attribute("data-version", str(version),
                                                       timeout=3_000)
    expect(page.locator("#connection")).to_be_hidden()
    assert time.monotonic() - closed <= 3.0
    page.context.close()


def test_the_browser_going_offline_shows_the_banner_until_it_is_back(server: str,
                                                                     browser) -> None:
    """The browser says it is offline: the banner shows at once; back online, it goes, over
    the socket that outlived the blip or a new one."""
    ana, room = against_a_bot(server)
    page = ana.page(browser, server)
    page.goto(f"{server}/rooms/{room}")
    banner = page.locator("#connection")
    expect(page.locator(".seatchip.mine .presence")).to_have_text("here")
    page.context.set_offline(True)
    expect(banner).to_be_visible(timeout=1_000)
    page.context.set_offline(False)
    expect(banner).to_be_hidden(timeout=5_000)
    version = move_by_api(ana, room)
    expect(page.locator(".seatbar")).to_have_attribute("data-version", str(version))
    page.context.close()
