"""The edge (DESIGN.md §1): what a stranger on the internet can send is checked here, once,
before any service sees it. The HTTP middleware :class:`Edge` and both sockets
(:class:`SocketGate`) use it; lobby, rooms and games never look at a request.

- **Cross-site requests.** A state-changing request that does not carry
  ``Authorization: Bearer`` may ride on the player cookie (or set it, as the name form does),
  so it must come from the app's own pages: its ``Origin`` must be the app's origin exactly
  (scheme, host and port), or, where a browser sends no ``Origin``, its ``Sec-Fetch-Site`` must
  be ``same-origin``. A request with neither header is a script's, and is refused only if it
  carries the cookie. Socket handshakes with a foreign ``Origin`` are refused (403).
- **Sizes and rates.** Request bodies are capped (413 before they are read whole, declared or
  chunked); sockets per player and per address are capped; sign-ups, new rooms, starts, joins,
  wrong invite codes, pages rendered anew and socket handshakes are rate limited per address —
  an IPv6 client per /64 (:func:`rate_key`) — (429 with ``Retry-After``; a handshake's before
  it is accepted). How long a request's headers and body may take is the HTTP protocol's
  business (app/serving.py).
- **Headers.** Every answer carries a Content-Security-Policy (scripts only from the app and
  the pinned CDN files, no framing), ``nosniff``, ``Referrer-Policy: same-origin``, and HSTS
  behind HTTPS; every ``/api/`` answer ``Cache-Control: no-store`` (the pages set it
  themselves).
"""

from __future__ import annotations

import asyncio
import contextlib
import ipaddress
import json
import logging
import time
from collections.abc import AsyncIterator, Callable, Iterable
from dataclasses import dataclass, field
from typing import Literal
from urllib.parse import urlsplit

from anyio import to_thread
from limits import RateLimitItem, parse
from limits.errors import StorageError
from limits.storage import MemoryStorage, RedisStorage, Storage
from limits.strategies import MovingWindowRateLimiter
from starlette.datastructures import Headers
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from app.assets import HTMX_CDN, SWAGGER
from app.config import Settings
from app.errors import ApiError
from app.games.words import N_, Msg
from app.i18n import choose, say
from app.identity import COOKIE

log = logging.getLogger("canopy.guard")

SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})
DEFAULT_PORTS = {"http": 80, "https": 443}


# -- origins and addresses ------------------------------------------------------------------


def _origin_key(origin: str) -> tuple[str, str, int] | None:
    """(scheme, host, port) of an origin or URL; ``None`` if it is not one."""
    try:
        parts = urlsplit(origin.strip())
        port = parts.port
    except ValueError:
        return None
    if parts.scheme not in DEFAULT_PORTS or not parts.hostname:
        return None
    return parts.scheme, parts.hostname.lower(), port or DEFAULT_PORTS[parts.scheme]


def own_origin(settings: Settings, scope: Scope) -> str:
    """The app's origin: ``PUBLIC_ORIGIN`` when set, else the one this request was sent to."""
    if settings.public_origin:
        return settings.public_origin.rstrip("/")
    scheme = {"ws": "http", "wss": "https"}.get(scope.get("scheme", "http"),
                                                scope.get("scheme", "http"))
    host = Headers(scope=scope).get("host") or "localhost"
    return f"{scheme}://{host}"


def same_origin(origin: str, settings: Settings, scope: Scope) -> bool:
    theirs = _origin_key(origin)
    return theirs is not None and theirs == _origin_key(own_origin(settings, scope))


def is_loopback(origin: str) -> bool:
    """Whether an origin names this machine only (127.0.0.0/8, ::1, localhost)."""
    key = _origin_key(origin)
    if key is None:
        return False
    host = key[1].strip("[]")
    if host == "localhost" or host.endswith(".localhost"):
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def client_address(settings: Settings, scope: Scope) -> str:
    """The client's address: the peer's, or the first ``X-Forwarded-For`` entry when the
    server sits behind a proxy that sets it (``TRUST_FORWARDED``)."""
    if settings.trust_forwarded:
        forwarded = Headers(scope=scope).get("x-forwarded-for", "")
        first = forwarded.split(",")[0].strip()
        if first:
            return first
    client = scope.get("client")
    return str(client[0]) if client else "unknown"


def _has_bearer(headers: Headers) -> bool:
    scheme, _, value = headers.get("authorization", "").partition(" ")
    return scheme.lower() == "bearer" and bool(value.strip())


def cross_site_refusal(settings: Settings, scope: Scope) -> Msg | None:
    """Why this state-changing request may not be served (``None``: it may)."""
    headers = Headers(scope=scope)
    if scope["method"] in SAFE_METHODS or _has_bearer(headers):
        return None
    origin = headers.get("origin")
    if origin is not None:
        if same_origin(origin, settings, scope):
            return None
        return Msg("a request from {origin} may not act here (only this site's own pages may)",
                   {"origin": origin[:80]})
    fetch_site = headers.get("sec-fetch-site")
    if fetch_site is not None:
        return None if fetch_site == "same-origin" else \
            Msg("a request from another site may not act here (only this site's own pages may)")
    if COOKIE in _cookie_names(headers):
        return Msg("a request that carries the player cookie must come from this site's pages")
    return None


def _cookie_names(headers: Headers) -> set[str]:
    return {part.split("=", 1)[0].strip() for part in headers.get("cookie", "").split(";")}


# -- response headers -----------------------------------------------------------------------


def content_security_policy(settings: Settings, path: str) -> str:
    scripts = ["'self'"]
    styles = ["'self'", "'unsafe-inline'"]  # the games colour pieces with style attributes
    if path == "/docs":
        scripts.append(SWAGGER["js"][0])
        styles.append(SWAGGER["css"][0])
    elif settings.htmx_source == "cdn":
        scripts += [url for url, _ in HTMX_CDN.values()]
    return "; ".join([
        "default-src 'self'", f"script-src {' '.join(scripts)}", f"style-src {' '.join(styles)}",
        "img-src 'self' data:", "connect-src 'self'", "object-src 'none'", "base-uri 'self'",
        "form-action 'self'", "frame-ancestors 'none'"])


def security_headers(settings: Settings, path: str) -> list[tuple[bytes, bytes]]:
    headers = [
        (b"content-security-policy", content_security_policy(settings, path).encode()),
        (b"x-content-type-options", b"nosniff"),
        (b"referrer-policy", b"same-origin"),
        (b"x-frame-options", b"DENY"),
    ]
    if settings.cookie_secure:
        headers.append((b"strict-transport-security", b"max-age=31536000; includeSubDomains"))
    if path.startswith("/api/"):
        # Every JSON answer is the present for one caller: a token, a hand, a room's codes;
        # what the rest shows changes with every move. None may be kept by a browser or proxy.
        headers.append((b"cache-control", b"no-store"))
    return headers


# -- the HTTP middleware ----------------------------------------------------------------------


class BodyTooLarge(HTTPException):
    """A body that grew past the cap while it was read (an HTTPException, so that FastAPI's
    body parsing passes it on as a 413 instead of "error parsing the body")."""

    def __init__(self, cap: int) -> None:
        super().__init__(413, too_large(cap).english())
        self.cap = cap


def too_large(cap: int) -> Msg:
    return Msg("the request body is over {cap} bytes", {"cap": str(cap)})  # as configured


async def _refuse(scope: Scope, send: Send, status: int, detail: Msg,
                  extra: Iterable[tuple[bytes, bytes]] = ()) -> None:
    """A refusal of the edge, its words in the caller's ``Accept-Language``."""
    locale = choose([], Headers(scope=scope).get("accept-language"))
    body = json.dumps({"detail": say(detail, locale)}).encode()
    await send({"type": "http.response.start", "status": status,
                "headers": [(b"content-type", b"application/json"),
                            (b"content-length", str(len(body)).encode()), *extra]})
    await send({"type": "http.response.body", "body": body})


class Turns:
    """At most ``most`` requests of one address served at once; the others wait their turn
    (in order). A visitor who sends requests as fast as it can on many connections then
    takes one or two places in the event loop's queue, not all of them, and everyone else's
    request is served between two of its own (bench/visitor.py). Static files and the
    health check are not counted."""

    def __init__(self, most: int) -> None:
        self.most = most
        self._by_address: dict[str, tuple[asyncio.Semaphore, int]] = {}

    @contextlib.asynccontextmanager
    async def turn(self, address: str) -> AsyncIterator[None]:
        gate, users = self._by_address.get(address, (asyncio.Semaphore(self.most), 0))
        self._by_address[address] = (gate, users + 1)
        try:
            async with gate:
                yield
        finally:
            gate, users = self._by_address[address]
            if users == 1:
                del self._by_address[address]  # nobody of that address waits: forget it
            else:
                self._by_address[address] = (gate, users - 1)


#: Paths served without waiting for the address's turn.
UNCOUNTED = ("/static/", "/healthz", "/metrics")


class Edge:
    """The HTTP middleware: cross-site refusals, the body cap, the security headers, each
    address's turns (:class:`Turns`)."""

    def __init__(self, app: ASGIApp, settings: Settings) -> None:
        self.app = app
        self.settings = settings
        self.turns = Turns(settings.requests_per_address)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        settings = self.settings
        extra = security_headers(settings, scope.get("path", ""))
        refusal = cross_site_refusal(settings, scope)
        if refusal is not None:
            await _refuse(scope, send, 403, refusal, extra)
            return
        cap = settings.max_body_bytes
        declared = Headers(scope=scope).get("content-length")
        if declared is not None and (not declared.isdigit() or int(declared) > cap):
            await _refuse(scope, send, 413, too_large(cap), extra)
            return
        received = 0
        started = False

        async def capped_receive() -> Message:
            nonlocal received
            message = await receive()
            if message["type"] == "http.request":
                received += len(message.get("body", b""))
                if received > cap:
                    raise BodyTooLarge(cap)
            return message

        async def send_with_headers(message: Message) -> None:
            nonlocal started
            if message["type"] == "http.response.start":
                started = True
                message = {**message, "headers": [*message.get("headers", []), *extra]}
            await send(message)

        path: str = scope.get("path", "")
        try:
            if path.startswith(UNCOUNTED) or self.turns.most <= 0:
                await self.app(scope, capped_receive, send_with_headers)
            else:
                async with self.turns.turn(rate_key(client_address(settings, scope))):
                    await self.app(scope, capped_receive, send_with_headers)
        except BodyTooLarge:
            if not started:
                await _refuse(scope, send, 413, too_large(cap), extra)


# -- sockets ----------------------------------------------------------------------------------


@dataclass
class SocketGate:
    """Counts the open sockets per player and per address, and admits new ones."""

    settings: Settings
    by_player: dict[int, int] = field(default_factory=dict)
    by_address: dict[str, int] = field(default_factory=dict)

    def foreign_origin(self, scope: Scope) -> str | None:
        """The handshake's ``Origin`` if it is another site's (refuse it), else ``None``."""
        origin = Headers(scope=scope).get("origin")
        if origin is None or same_origin(origin, self.settings, scope):
            return None
        return origin

    def admit(self, scope: Scope, player_id: int | None) -> tuple[str, int | None]:
        """Count a new socket in, or 429 when its player or address holds too many."""
        address = client_address(self.settings, scope)
        if self.by_address.get(address, 0) >= self.settings.ws_per_address:
            raise ApiError(429, Msg("too many open connections from your address (at most "
                                    "{most})", {"most": self.settings.ws_per_address}))
        if player_id is not None and \
                self.by_player.get(player_id, 0) >= self.settings.ws_per_player:
            raise ApiError(429, Msg("too many open connections for one player (at most "
                                    "{most}): close other tabs",
                                    {"most": self.settings.ws_per_player}))
        self.by_address[address] = self.by_address.get(address, 0) + 1
        if player_id is not None:
            self.by_player[player_id] = self.by_player.get(player_id, 0) + 1
        return address, player_id

    def release(self, ticket: tuple[str, int | None]) -> None:
        address, player_id = ticket
        self.by_address[address] -= 1
        if not self.by_address[address]:
            del self.by_address[address]
        if player_id is not None:
            self.by_player[player_id] -= 1
            if not self.by_player[player_id]:
                del self.by_player[player_id]

    def open_count(self) -> int:
        return sum(self.by_address.values())


# -- rate limits ------------------------------------------------------------------------------

RateKind = Literal["signups", "rooms", "joins", "wrong_codes", "starts", "renders",
                   "handshakes"]
RATE_KINDS: tuple[RateKind, ...] = ("signups", "rooms", "joins", "wrong_codes", "starts",
                                    "renders", "handshakes")


def rate_key(address: str) -> str:
    """Whom a rate limit counts: an IPv4 client by its address, an IPv6 client by its /64
    (one host or one home network is given a whole /64 and may use any address in it, so
    counting single addresses would let it pass every limit by changing address). An
    IPv4-mapped IPv6 address counts as the IPv4 address; what is not an address (a test
    client's name, "unknown") as itself."""
    try:
        ip = ipaddress.ip_address(address.strip().strip("[]").split("%")[0])
    except ValueError:
        return address
    if isinstance(ip, ipaddress.IPv6Address):
        if ip.ipv4_mapped is not None:
            return str(ip.ipv4_mapped)
        return str(ipaddress.IPv6Network((ip, 64), strict=False))
    return str(ip)


def shared_storage(broadcast_url: str) -> Storage | None:
    """Where every process counts alike: Redis when the processes share a Redis hub (same URL;
    short timeouts, since the counting runs on the request's path); None with one process."""
    if not broadcast_url.startswith(("redis://", "rediss://")):
        return None
    return RedisStorage(broadcast_url, wrap_exceptions=True, socket_connect_timeout=0.5,
                        socket_timeout=0.5)


class RateLimits:
    """Per-address limits (the ``limits`` library's moving windows): in memory with one
    process; in Redis where ``BROADCAST_URL`` is Redis, so that every process counts the same
    requests. While Redis does not answer, each process counts on its own for
    ``FALLBACK_SECONDS`` (a limit still holds, per process) and then tries Redis again."""

    FALLBACK_SECONDS = 10.0

    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        self.local = MovingWindowRateLimiter(MemoryStorage())
        shared = shared_storage(settings.broadcast_url)
        self.shared = MovingWindowRateLimiter(shared) if shared is not None else None
        self._fallback_until = 0.0
        self.items: dict[str, RateLimitItem] = {
            kind: parse(getattr(settings, f"rate_{kind}")) for kind in RATE_KINDS}

    @property
    def limiter(self) -> MovingWindowRateLimiter:
        """The shared counters, unless they failed a moment ago."""
        if self.shared is not None and time.monotonic() >= self._fallback_until:
            return self.shared
        return self.local

    def _count(self, kind: RateKind, address: str, *, hit: bool) -> bool:
        """Whether the address is within its ``kind`` limit (counting one request if
        ``hit``)."""
        limiter = self.limiter
        item = self.items[kind]
        try:
            return limiter.hit(item, kind, address) if hit else limiter.test(item, kind,
                                                                             address)
        except StorageError as exc:
            log.warning("the shared rate limits do not answer (%s); counting in this process "
                        "for %g s", exc.storage_error, self.FALLBACK_SECONDS)
            self._fallback_until = time.monotonic() + self.FALLBACK_SECONDS
            return self._count(kind, address, hit=hit)

    def _refusal(self, kind: RateKind, address: str, what: str) -> ApiError:
        item = self.items[kind]
        try:
            reset, _ = self.limiter.get_window_stats(item, kind, address)
        except StorageError:
            reset = time.time() + item.get_expiry()
        wait = max(1, int(reset - time.time()) + 1)
        return ApiError(429, Msg("too many {what} from your address; try again in {wait} s",
                                 {"what": Msg(what), "wait": wait}),
                        headers={"Retry-After": str(wait)})

    def hit(self, kind: RateKind, scope: Scope, what: str) -> None:
        """Count one request of ``kind``; 429 once the address is over its limit (``what``:
        the requests counted, a message id marked with ``N_``, "new rooms")."""
        address = rate_key(client_address(self.settings, scope))
        if not self._count(kind, address, hit=True):
            raise self._refusal(kind, address, what)

    async def hit_soon(self, kind: RateKind, scope: Scope, what: str) -> None:
        """:meth:`hit` from the event loop: in place while the counters are this process's
        (a dictionary: microseconds), in a worker thread while they are Redis's (its client
        waits for the answer; the loop must not)."""
        if self.limiter is self.local:
            self.hit(kind, scope, what)
        else:
            await to_thread.run_sync(self.hit, kind, scope, what)

    def check(self, kind: RateKind, scope: Scope, what: str) -> None:
        """429 if the address is over its limit of ``kind`` (without counting)."""
        address = rate_key(client_address(self.settings, scope))
        if not self._count(kind, address, hit=False):
            raise self._refusal(kind, address, what)


#: What ``RATE_RENDERS`` counts, in words.
RENDERS = N_("pages to render")


def render_charge(request: Request) -> Callable[[], None]:
    """Counts one page made anew, or one replay rebuilt, against the address's
    ``RATE_RENDERS`` (429 past it): a caller charges it only when nothing was kept."""
    limits: RateLimits = request.app.state.limits
    return lambda: limits.hit("renders", request.scope, RENDERS)


def rate_limited(kind: RateKind, what: str) -> Callable[[Request], None]:
    """A route dependency that counts the request against its address's ``kind`` limit."""
    def dependency(request: Request) -> None:
        limits: RateLimits = request.app.state.limits
        limits.hit(kind, request.scope, what)

    return dependency
