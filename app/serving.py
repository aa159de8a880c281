"""How uvicorn serves Canopy: the options every start uses, and an HTTP protocol that gives a
request's headers and body a deadline.

``python -m app.serving [uvicorn options]`` runs uvicorn's own command line with, first:

- ``--http app.serving:TimedHttpProtocol``: uvicorn's httptools protocol, plus the deadlines
  and the header cap below;
- ``--ws-max-size WS_MAX_MESSAGE``: the websocket library refuses a frame (or a fragmented
  message) over the app's limit when its header declares the size, closing with 1009, before
  it reads the payload (uvicorn's default is 16 MiB: eight sockets each holding an
  unfinished 15 MB frame cost the server 120 MB before the app saw a byte);
- ``--ws-per-message-deflate false`` (README, Performance).

The caller adds the app (``--factory app.main:app_factory``) and the rest (host, port,
``--proxy-headers`` …); an option given again later wins. ``scripts/serve``, the Dockerfile
(hence docker-compose.yml) and the tests and benchmarks that start a server all start it so.

**Deadlines.** uvicorn closes a kept-alive connection that stays idle ``--timeout-keep-alive``
seconds after a response, but nothing else: a connection that sends half a request line, or
headers one byte at a time, or a body that never comes, is held as long as the client likes
(and one that sends nothing at all, forever). uvicorn has no option for it
(``--timeout-graceful-shutdown`` is about stopping, ``--limit-concurrency`` answers 503 once
that many connections are open, slow ones included, and ``h11_max_incomplete_event_size``
caps the size of headers under h11, not their time), so the protocol here keeps two timers:

- ``HEADER_TIMEOUT``: from the connection's start, or from the first byte of each later
  request on a kept-alive connection, to the end of the request's headers; past it the
  connection is closed (no answer: nothing was asked yet);
- ``BODY_TIMEOUT``: from the end of the headers to the end of the body, as a whole (not
  between reads: a body that trickles in a byte at a time ends all the same); past it the
  answer is a 408 (if the app has not started one) and the connection is closed; the app's
  ``receive()`` returns ``http.disconnect``.

**Size.** httptools, the parser under uvicorn's default protocol, takes request headers of
any size (a client sent a gigabyte of them in three seconds on loopback, every byte kept in
the request's header list): past ``MAX_HEADER_BYTES`` of request line and headers the answer
is a 431 and the connection is closed.

A websocket handshake has no body: its timers stop when its headers are in. These are a last
line: on the internet a reverse proxy in front (README, Hosting in public) buffers requests
and has its own timeouts, so that uvicorn only ever sees whole requests.
"""

from __future__ import annotations

import asyncio
import json
import logging
import sys
from collections.abc import Sequence
from typing import Any

import uvicorn.main
from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

from app.config import Settings, get_settings
from app.games.words import Msg
from app.i18n import choose, say

log = logging.getLogger("canopy.serving")


def server_options(settings: Settings) -> list[str]:
    """uvicorn's options that every start of Canopy's server uses (from ``settings``)."""
    return ["--http", "app.serving:TimedHttpProtocol",
            "--ws-max-size", str(settings.ws_max_message),
            "--ws-per-message-deflate", "false"]


def main(argv: Sequence[str] | None = None) -> None:
    """uvicorn's command line, :func:`server_options` first, then ``argv``."""
    args = list(sys.argv[1:] if argv is None else argv)
    uvicorn.main.main([*server_options(get_settings()), *args])


class TimedHttpProtocol(HttpToolsProtocol):
    """uvicorn's httptools protocol with deadlines for a request's headers and its body (see
    the module's docstring); a setting of 0 or less turns its deadline off."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        settings = get_settings()
        self.header_timeout = settings.header_timeout
        self.body_timeout = settings.body_timeout
        self.max_header_bytes = settings.max_header_bytes
        self._headers_due: asyncio.TimerHandle | None = None
        self._body_due: asyncio.TimerHandle | None = None
        #: Bytes received since the last request's headers were in, while no body is read:
        #: the next request's line and headers (a chunk that also holds a body or a pipelined
        #: request is counted whole: the count errs on the large side by one read at most).
        self._header_bytes = 0
        self._in_body = False

    # -- the timers --------------------------------------------------------------------------

    def _await_headers(self) -> None:
        if self._headers_due is None and self.header_timeout > 0:
            self._headers_due = self.loop.call_later(self.header_timeout, self._headers_late)

    def _headers_in(self) -> None:
        if self._headers_due is not None:
            self._headers_due.cancel()
            self._headers_due = None

    def _await_body(self) -> None:
        if self._body_due is None and self.body_timeout > 0:
            self._body_due = self.loop.call_later(self.body_timeout, self._body_late)

    def _body_in(self) -> None:
        if self._body_due is not None:
            self._body_due.cancel()
            self._body_due = None

    def _headers_late(self) -> None:
        self._headers_due = None
        if not self.transport.is_closing():
            log.debug("closed a connection from %s: no complete request headers within %g s",
                      self.client, self.header_timeout)
            self.transport.close()

    def _body_late(self) -> None:
        self._body_due = None
        if self.transport.is_closing():
            return
        log.debug("closed a connection from %s: no complete request body within %g s",
                  self.client, self.body_timeout)
        cycle = self.cycle
        if cycle is not None and not cycle.response_started and not cycle.disconnected:
            # The app's receive() answers http.disconnect from now on, and its send() is
            # dropped: the 408 is the answer.
            cycle.disconnected = True
            cycle.keep_alive = False
            cycle.message_event.set()
            self.transport.write(self._request_timeout())
        self.transport.close()

    def _language(self) -> str:
        """The language of the request's ``Accept-Language`` (of the headers read so far)."""
        return choose([], next((value.decode("latin-1") for name, value in self.headers or []
                                if name == b"accept-language"), None))

    def _request_timeout(self) -> bytes:
        """A 408 in the request's language."""
        return _answer(b"408 Request Timeout", say(
            Msg("the request body did not arrive within {seconds} s",
                {"seconds": f"{self.body_timeout:g}"}), self._language()))

    # -- uvicorn's protocol, with the timers ---------------------------------------------------

    def data_received(self, data: bytes) -> None:
        if not self._in_body:
            self._header_bytes += len(data)
        super().data_received(data)
        if self._header_bytes > self.max_header_bytes > 0 and not self._in_body \
                and not self.transport.is_closing():
            log.debug("closed a connection from %s: request headers over %d bytes",
                      self.client, self.max_header_bytes)
            self._headers_in()
            self.transport.write(_answer(b"431 Request Header Fields Too Large", say(
                Msg("the request's headers are over {cap} bytes",
                    {"cap": str(self.max_header_bytes)}), self._language())))
            self.transport.close()

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._await_headers()

    def connection_lost(self, exc: Exception | None) -> None:
        self._headers_in()
        self._body_in()
        super().connection_lost(exc)

    def on_message_begin(self) -> None:
        super().on_message_begin()
        self._await_headers()  # a later request on a kept-alive connection

    def on_headers_complete(self) -> None:
        self._headers_in()
        self._header_bytes = 0
        super().on_headers_complete()
        if not (self.parser.should_upgrade() and self._should_upgrade()):
            self._in_body = True
            self._await_body()

    def on_message_complete(self) -> None:
        self._in_body = False
        self._body_in()
        super().on_message_complete()

    def handle_websocket_upgrade(self) -> None:
        self._headers_in()
        self._body_in()
        super().handle_websocket_upgrade()


def _answer(status: bytes, detail: str) -> bytes:
    """A whole answer that closes the connection: ``status`` and ``{"detail"}``."""
    body = json.dumps({"detail": detail}).encode()
    return (b"HTTP/1.1 %s\r\ncontent-type: application/json\r\n"
            b"x-content-type-options: nosniff\r\ncontent-length: %d\r\n"
            b"connection: close\r\n\r\n" % (status, len(body))) + body


if __name__ == "__main__":
    main()
