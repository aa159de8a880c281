"""Identity without sign-up: a player picks a name and receives a token.

API clients send it as ``Authorization: Bearer <token>``; browsers keep it in an HttpOnly,
SameSite=Lax cookie. Only the token's SHA-256 is stored, so a leaked database leaks no token.
"""

from __future__ import annotations

import hashlib
import secrets
import threading
import weakref
from collections import OrderedDict
from collections.abc import Iterable, Mapping
from datetime import datetime
from typing import Annotated

from fastapi import Depends, Header, Query, Request, Response
from sqlalchemy.engine import Engine
from sqlmodel import Session, select

from app import speedups
from app.errors import ApiError
from app.games.words import Msg
from app.models import Player
from app.names import clean_name

COOKIE = "canopy_token"
#: The cookie that remembers the watch and invite links a browser opened (app/rooms/access.py):
#: their codes, newest first, separated by dots.
WATCH_COOKIE = "canopy_watch"
#: The header and query parameter by which API clients present a room's watch (or invite)
#: code.
WATCH_HEADER = "x-watch-code"
WATCH_PARAM = "watch"
#: Codes a browser remembers (each 14 characters: the cookie stays small), and the longest
#: text taken for a code (longer is no code of ours).
WATCH_KEPT = 20
CODE_MAX = 32
#: How long a browser remembers a watch link (seconds): 90 days.
WATCH_MAX_AGE = 90 * 24 * 3600


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def create_player(engine: Engine, name: str) -> tuple[Player, str]:
    """A new player and their token (returned once, never stored in clear); the name is
    cleaned and checked first (:func:`app.names.clean_name`: 422, nothing stored)."""
    token = secrets.token_urlsafe(32)
    player = Player(name=clean_name(name), token_hash=hash_token(token))
    with Session(engine, expire_on_commit=False) as session:
        session.add(player)
        session.commit()
        session.refresh(player)
    _remember(engine, player)
    return player, token


#: Known tokens per database: token hash → (id, name, created, language). A row changes only
#: through :func:`remember_language`, which updates it here too, so a hit needs no query
#: (every REST request and socket looks its caller up); the clean-up
#: removes idle players and forgets them here (:func:`forget_players`). Only tokens that matched
#: a player are kept; the least recently used go past the bound.
_KNOWN: weakref.WeakKeyDictionary[
    Engine, OrderedDict[str, tuple[int, str, datetime, str | None]]] = \
    weakref.WeakKeyDictionary()
_KNOWN_MAX = 20_000
_known_lock = threading.Lock()
TOKEN_CACHE = speedups.on("token-cache")
#: How many times players were forgotten: a lookup that read a player from the database
#: before a removal must not put them back into the cache after it.
_forgotten = 0


def _remember(engine: Engine, player: Player, since: int | None = None) -> None:
    if player.id is None:
        return
    with _known_lock:
        if since is not None and since != _forgotten:
            return  # players were removed meanwhile: maybe this one
        known = _KNOWN.setdefault(engine, OrderedDict())
        known[player.token_hash] = (player.id, player.name, player.created, player.language)
        if len(known) > _KNOWN_MAX:
            known.popitem(last=False)


def remember_language(engine: Engine, player: Player, language: str) -> None:
    """Keep the language a player chose with the switch (their record and the cache)."""
    with Session(engine) as session:
        row = session.get(Player, player.id)
        if row is None:
            return
        row.language = language
        session.add(row)
        session.commit()
    player.language = language
    _remember(engine, player)


def forget_players(engine: Engine, ids: Iterable[int]) -> None:
    """Drop removed players from the token cache: their tokens then match nobody (401)."""
    global _forgotten
    gone = set(ids)
    with _known_lock:
        _forgotten += 1
        known = _KNOWN.get(engine)
        if known is not None and gone:
            for token_hash in [h for h, (pid, *_) in known.items() if pid in gone]:
                del known[token_hash]


def player_for_token(engine: Engine, token: str) -> Player | None:
    token_hash = hash_token(token)
    hit = None
    with _known_lock:
        since = _forgotten
        known = _KNOWN.get(engine) if TOKEN_CACHE else None
        if known is not None:
            hit = known.get(token_hash)
            if hit is not None:
                known.move_to_end(token_hash)
    if hit is not None:
        player_id, name, created, language = hit
        return Player(id=player_id, name=name, token_hash=token_hash, created=created,
                      language=language)
    with Session(engine, expire_on_commit=False) as session:
        player = session.exec(select(Player).where(Player.token_hash == token_hash)).first()
    if player is not None:
        _remember(engine, player, since)
    return player


def token_from(request_headers: dict[str, str] | None, cookies: dict[str, str],
               query_token: str | None = None) -> str | None:
    """The token a client presented: bearer header first, then query parameter, then cookie."""
    if request_headers is not None:
        auth = request_headers.get("authorization", "")
        scheme, _, value = auth.partition(" ")
        if scheme.lower() == "bearer" and value.strip():
            return value.strip()
    if query_token:
        return query_token
    return cookies.get(COOKIE) or None


def optional_player(request: Request) -> Player | None:
    """The caller, ``None`` when no token was sent; a token that matches nobody is a 401."""
    token = token_from(dict(request.headers), dict(request.cookies))
    if token is None:
        return None
    player = player_for_token(request.app.state.engine, token)
    if player is None:
        raise ApiError(401, Msg("unknown or expired token: create a player with POST "
                                "/api/players"))
    return player


def required_player(request: Request) -> Player:
    """The caller; 401 when no token or an unknown one was sent."""
    player = optional_player(request)
    if player is None:
        raise ApiError(401, Msg("this needs a player token: POST /api/players, then send "
                                "'Authorization: Bearer <token>'"))
    return player


Caller = Annotated[Player, Depends(required_player)]
MaybeCaller = Annotated[Player | None, Depends(optional_player)]

#: How long a browser keeps the player cookie.
COOKIE_MAX_AGE = 60 * 60 * 24 * 365


def set_cookie(response: Response, token: str, *, secure: bool) -> None:
    """Give the browser its player token: HttpOnly, SameSite=Lax, Secure behind HTTPS."""
    response.set_cookie(COOKIE, token, httponly=True, samesite="lax", max_age=COOKIE_MAX_AGE,
                        secure=secure)


def _codes(text: str | None) -> list[str]:
    """The plausible codes in ``text`` (dot-separated): short ASCII letters and digits."""
    if not text:
        return []
    return [code for code in text[:WATCH_KEPT * (CODE_MAX + 1)].split(".")
            if 0 < len(code) <= CODE_MAX and code.isascii() and code.isalnum()][:WATCH_KEPT]


def watch_keys(headers: Mapping[str, str], cookies: Mapping[str, str],
               query: Mapping[str, str]) -> frozenset[str]:
    """The room codes a client presents (app/rooms/access.py): ``?watch=``, the
    ``X-Watch-Code`` header, and the codes of the links its browser opened (the cookie)."""
    return frozenset([*_codes(query.get(WATCH_PARAM)), *_codes(headers.get(WATCH_HEADER)),
                      *_codes(cookies.get(WATCH_COOKIE))])


def request_keys(request: Request) -> frozenset[str]:
    """The codes a request presents (:func:`watch_keys`)."""
    return watch_keys(request.headers, request.cookies, request.query_params)


def declared_keys(
        request: Request,
        watch: Annotated[str | None, Query(
            description="a private room's watch code (its invite code works too): read the "
                        "room without a seat")] = None,
        x_watch_code: Annotated[str | None, Header(
            description="the same as ?watch=")] = None) -> frozenset[str]:
    """:func:`request_keys`, with the query parameter and the header declared for /docs."""
    return request_keys(request)


#: A route's dependency: the codes the caller presents.
WatchKeys = Annotated[frozenset[str], Depends(declared_keys)]


def remember_code(response: Response, cookies: Mapping[str, str], code: str, *,
                  secure: bool) -> None:
    """Let the browser remember a room code it was given by a link (newest first, at most
    :data:`WATCH_KEPT`): HttpOnly, SameSite=Lax, Secure behind HTTPS, like the player
    cookie."""
    kept = [code, *(c for c in _codes(cookies.get(WATCH_COOKIE)) if c != code)][:WATCH_KEPT]
    response.set_cookie(WATCH_COOKIE, ".".join(kept), httponly=True, samesite="lax",
                        max_age=WATCH_MAX_AGE, secure=secure, path="/")
