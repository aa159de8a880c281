"""Replays of finished games and the list of a player's finished games (issue 12, item 6).

A replay is the game rebuilt from its move log, version by version: ``setup(players,
options, seed)``, then every stored move applied in order (app/rooms/rebuild.py) — trusted
only when it ends at the stored final state. A game played under rules changed since (or
dealt from component data changed since) cannot be rebuilt so: its replay shows what was
stored — the final boards, the result, the stored log lines — and says that its moves
cannot be shown one by one (``first`` is then the last version). A finished game never
changes, so a rebuilt replay is kept in a small LRU (:class:`Replays`) and served from there.

What a reader sees at a version is what a spectator saw then (``view(state, None)`` and the
public log lines), unless the room chose public replays: then any seat's view may be asked
for, with that seat's own log lines. Beside it the timeline: each seat's score at every
version (``GameSpec.score``; a game without it scores zeros until the end), the last point
being the stored result's scores. A game ended by the platform (a forfeit on time) shows its
moves as they were and the stored result.

Refusals: no such room (404), a game not finished (409), a seat's view of a replay that
keeps the hands hidden (403), no such seat or version (404).
"""

from __future__ import annotations

import logging
import threading
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from anyio import to_thread
from sqlalchemy import func
from sqlalchemy.engine import Engine
from sqlmodel import Session, col, select

from app.errors import ApiError
from app.games.base import GameSpec, Result, State
from app.games.registry import get_game
from app.games.words import N_, Msg
from app.i18n import DEFAULT, fill_names, say, words
from app.models import MAX_ID, Player, Room, Seat
from app.models import Game as GameRow
from app.models import Move as MoveRow
from app.rooms.rebuild import Diverged, Rebuilt, past_log, rebuild
from app.rooms.store import no_room, same_outcome, seat_names, stored_lines, unreadable
from app.rooms.table import LogLine

log = logging.getLogger("canopy")

#: What a replay says when its moves cannot be shown one by one.
NOT_STEPWISE = N_("This game's moves cannot be shown one by one: it was played under rules "
                  "this server has since changed. Its final boards, result and log are shown.")

#: Replays kept rebuilt in memory (least recently used dropped first).
REPLAYS_KEPT = 32
#: The most finished games a player's page lists.
GAMES_LISTED = 200


def _named(session: Session, ids: set[int]) -> dict[int, str]:
    if not ids:
        return {}
    return {p.id: p.name for p in session.exec(select(Player).where(col(Player.id).in_(ids)))
            if p.id is not None}


@dataclass(frozen=True)
class Replay:
    """A finished game, rebuilt: its state and log at every version, and its scores."""

    room_id: int
    game: GameSpec
    names: list[str]
    #: Seats a bot played (at the end of the game).
    bots: dict[int, str]
    #: The room chose public replays: every hand may be seen.
    public: bool
    #: The state at each version from ``first`` (version ``v`` is ``states[v - first]``).
    states: list[State]
    #: The first version that can be shown: 0 (the deal), or the last version when the moves
    #: cannot be rebuilt under today's rules (only the stored end is known).
    first: int
    #: Every log line of the game, in order: (version, seat that moved, event).
    lines: list[LogLine]
    #: The seat that made each move (``movers[v - 1]`` made version ``v``).
    movers: list[int]
    #: Each seat's score at each version (None before ``first``).
    timeline: list[tuple[int, ...] | None]
    #: The result stored when the game ended (a forfeit's too).
    stored_result: dict[str, Any] | None
    #: When the game ended (its last move), if it had any move.
    finished_at: datetime | None

    @property
    def last(self) -> int:
        """The last version (the number of moves)."""
        return self.first + len(self.states) - 1

    @property
    def players(self) -> int:
        return len(self.names)

    @property
    def stepwise(self) -> bool:
        """Every version can be shown (the moves were rebuilt under today's rules)."""
        return self.first == 0

    def state(self, version: int) -> State:
        return self.states[version - self.first]

    def rules_result(self) -> Result | None:
        """The result the rules give at the end, when it is the stored one (None when the
        platform ended the game, or today's rules would count its end otherwise)."""
        rules = self.game.result(self.states[-1])
        if rules is None or (self.stored_result is not None
                             and not same_outcome(rules.to_json(), self.stored_result)):
            return None
        return rules

    def check(self, version: int, seat: int | None) -> None:
        """Refuse a version outside the game or before the first that can be shown (404), a
        seat's view of a replay that keeps the hands hidden (403), a seat the game does not
        have (404)."""
        if not self.first <= version <= self.last:
            if 0 <= version < self.first:
                raise ApiError(404, Msg(NOT_STEPWISE), room=self.room_id,
                               first_version=self.first)
            raise ApiError(404, Msg("the replay of room {room} has no version {version}: it "
                                    "runs from {first} to {last}",
                                    {"room": str(self.room_id), "version": str(version),
                                     "first": str(self.first), "last": str(self.last)}))
        if seat is None:
            return
        if not self.public:
            raise ApiError(403, Msg("this game's replay shows what a spectator saw: the "
                                    "players' hands stay hidden"))
        if not 0 <= seat < self.players:
            raise ApiError(404, Msg("there is no seat {seat}", {"seat": str(seat)}))

    def view_at(self, version: int, seat: int | None = None) -> dict[str, Any]:
        """What ``seat`` saw at ``version`` (``None``: a spectator); checked first."""
        self.check(version, seat)
        view: dict[str, Any] = self.game.view(self.state(version), seat)
        return view

    def mover(self, version: int) -> int | None:
        """The seat whose move made ``version`` (None for the deal)."""
        return self.movers[version - 1] if version > 0 else None

    def active_at(self, version: int) -> list[int]:
        """The seats the game waited for at ``version`` (none once it was over)."""
        if version == self.last and self.stored_result is not None:
            return []
        return sorted(self.game.active_seats(self.state(version)))

    def statuses_at(self, version: int) -> list[str]:
        """What each seat was doing at ``version`` (message ids, as the seat bar shows)."""
        state = self.state(version)
        return [self.game.seat_status(state, seat).doing for seat in range(self.players)]

    def log_at(self, version: int, seat: int | None = None,
               locale: str = DEFAULT) -> list[dict[str, Any]]:
        """The log lines ``seat`` could read by ``version``, oldest first, in ``locale`` (the
        shape of :meth:`Table.log_for`)."""
        return [
            {"version": made, "seat": actor, **event.to_json(),
             "text": say(event.msg, locale, self.names, seat) if event.msg is not None
             else fill_names(event.text, self.names, seat)}
            for made, actor, event in self.lines
            if made <= version and event.visible_to(seat)
        ]

    def result_json(self, locale: str = DEFAULT) -> dict[str, Any] | None:
        """The result, its words in ``locale`` (players as ``{p0}`` …): the rules' result, or
        the stored one when the platform ended the game."""
        rules = self.rules_result()
        if rules is not None:
            return {**(self.stored_result or {}), **rules.to_json(words(locale))}
        return self.stored_result

    def at(self, version: int, seat: int | None = None,
           locale: str = DEFAULT) -> dict[str, Any]:
        """The replay at ``version`` as ``seat`` sees it (the API's answer)."""
        view = self.view_at(version, seat)
        return {
            "version": version,
            "first_version": self.first,
            "last_version": self.last,
            "seat": seat,
            "active_seats": self.active_at(version),
            "statuses": self.statuses_at(version),
            "scores": list(self.timeline[version] or ()),
            "view": view,
            "log": self.log_at(version, seat, locale),
            "result": self.result_json(locale) if version == self.last else None,
        }

    def summary(self, locale: str = DEFAULT) -> dict[str, Any]:
        """The whole replay at a glance (the API's answer): names, versions, timeline, result."""
        return {
            "room": self.room_id,
            "game": self.game.id,
            "title": self.game.title,
            "names": self.names,
            "versions": self.last + 1,
            "first_version": self.first,
            "notice": None if self.stepwise else say(Msg(NOT_STEPWISE), locale),
            "public": self.public,
            "timeline": [list(scores) if scores is not None else None
                         for scores in self.timeline],
            "result": self.result_json(locale),
            "finished": self.finished_at.isoformat() if self.finished_at else None,
        }


@dataclass(frozen=True)
class FinishedGame:
    """One line of a player's page: a finished game and how it ended."""

    room_id: int
    game: GameSpec
    names: list[str]
    #: The player's seat in it.
    seat: int
    finished_at: datetime
    result: dict[str, Any] | None
    private: bool


class Replays:
    """Finished games rebuilt from the database, the most recently used kept in memory."""

    def __init__(self, engine: Engine, kept: int = REPLAYS_KEPT) -> None:
        self.engine = engine
        self.kept = kept
        self._kept: OrderedDict[int, Replay] = OrderedDict()
        self._lock = threading.Lock()
        #: Rooms whose stored game this process found unreadable (logged once each).
        self._unreadable: set[int] = set()

    async def replay(self, room_id: int, charge: Callable[[], None] | None = None) -> Replay:
        """The room's finished game from memory, or rebuilt off the event loop — after
        ``charge()``, which may refuse it (a rebuild is charged to the reader's address)."""
        with self._lock:
            known = self._kept.get(room_id)
            if known is not None:
                self._kept.move_to_end(room_id)
                return known
        if charge is not None:
            charge()
        return await to_thread.run_sync(self.load, room_id)

    def load(self, room_id: int) -> Replay:
        """Rebuild the room's finished game from its move log (and keep it)."""
        replay = self._rebuild(room_id)
        with self._lock:
            self._kept[room_id] = replay
            self._kept.move_to_end(room_id)
            while len(self._kept) > self.kept:
                self._kept.popitem(last=False)
        return replay

    def _rebuild(self, room_id: int) -> Replay:
        if not 0 < room_id <= MAX_ID:
            raise ApiError(404, no_room(room_id))
        with Session(self.engine) as session:
            room = session.get(Room, room_id)
            if room is None:
                raise ApiError(404, no_room(room_id))
            row = session.exec(select(GameRow).where(GameRow.room_id == room_id)).first()
            if room.status != "finished" or row is None or row.id is None:
                raise ApiError(409, Msg("the game in room {room} is not over: its replay "
                                        "opens once it has ended", {"room": str(room_id)}))
            seats = list(session.exec(select(Seat).where(Seat.room_id == room_id)))
            named = _named(session, {s.player_id for s in seats if s.player_id is not None})
            moves = list(session.exec(select(MoveRow).where(MoveRow.game_id == row.id)
                                      .order_by(col(MoveRow.seq))))
            game = get_game(room.game_id)
            try:
                options = game.Options.model_validate(room.options)
                final = game.load(row.state)
            except Exception as exc:
                raise unreadable(room_id, exc, self._unreadable) from None
            try:
                past: Rebuilt | None = rebuild(
                    game, room.players, options, int(row.seed),
                    [(move.seat, move.move) for move in moves], final, keep_states=True)
            except Diverged as exc:
                log.info("room %s: its replay shows only its end (%s)", room_id, exc)
                past = None
            states = past.states if past is not None else [final]
            return Replay(
                room_id=room_id, game=game,
                names=seat_names(seats, room.players, named),
                bots={s.index: s.bot_level for s in seats if s.bot_level is not None},
                public=room.public_replay, states=states,
                first=0 if past is not None else len(moves),
                lines=past_log([stored_lines(move) for move in moves], past),
                movers=[move.seat for move in moves],
                timeline=timeline(game, states, room.players, row.result, len(moves)),
                stored_result=row.result,
                finished_at=moves[-1].created if moves else None)

    # -- a player's finished games ---------------------------------------------------------

    async def player_name(self, player_id: int) -> str:
        """The player's name (404 for no such player)."""
        return await to_thread.run_sync(self._player_name, player_id)

    def _player_name(self, player_id: int) -> str:
        with Session(self.engine) as session:
            player = session.get(Player, player_id) if 0 < player_id <= MAX_ID else None
            if player is None:
                raise ApiError(404, Msg("there is no player {player}",
                                        {"player": str(player_id)}))
            return player.name

    async def games_of(self, player_id: int, viewer: int | None) -> list[FinishedGame]:
        """The finished games the player sat in, the newest first. A private table is listed
        only to the people who sat at it (the player, a fellow player)."""
        return await to_thread.run_sync(self._games_of, player_id, viewer)

    def _games_of(self, player_id: int, viewer: int | None) -> list[FinishedGame]:
        with Session(self.engine) as session:
            seated = select(Seat.room_id).where(Seat.player_id == player_id)
            found = list(session.exec(
                select(Room, GameRow).join(GameRow, col(GameRow.room_id) == col(Room.id))
                .where(Room.status == "finished").where(col(Room.id).in_(seated))
                .order_by(col(Room.id).desc()).limit(GAMES_LISTED)))
            room_ids = [room.id for room, _ in found]
            seats: dict[int, list[Seat]] = {}
            for seat in session.exec(select(Seat).where(col(Seat.room_id).in_(room_ids))):
                seats.setdefault(seat.room_id, []).append(seat)
            named = _named(session, {s.player_id for room in seats.values() for s in room
                                     if s.player_id is not None})
            ended = dict(session.exec(
                select(MoveRow.game_id, func.max(MoveRow.created))
                .where(col(MoveRow.game_id).in_([row.id for _, row in found]))
                .group_by(col(MoveRow.game_id))).all())
            games = []
            for room, row in found:
                assert room.id is not None
                at_table = seats.get(room.id, [])
                people = {s.player_id for s in at_table if s.player_id is not None}
                if room.private and (viewer is None or viewer not in people):
                    continue
                mine = next(s.index for s in at_table if s.player_id == player_id)
                games.append(FinishedGame(
                    room_id=room.id, game=get_game(room.game_id),
                    names=seat_names(at_table, room.players, named), seat=mine,
                    finished_at=ended.get(row.id or 0) or room.created, result=row.result,
                    private=room.private))
            games.sort(key=lambda g: (g.finished_at, g.room_id), reverse=True)
            return games


def timeline(game: GameSpec, states: list[State], players: int,
             stored: dict[str, Any] | None, last: int | None = None
             ) -> list[tuple[int, ...] | None]:
    """Each seat's score at each version up to ``last`` (``states`` are the last versions):
    the game's own count as it stood (zeros for a game that counts only at the end; None
    before the first of ``states``, the versions that cannot be shown), the last one the
    result's scores (the stored result: a forfeit's too)."""
    score = game.score
    unknown = 0 if last is None else last + 1 - len(states)
    scores: list[tuple[int, ...] | None] = [None] * unknown
    scores += [tuple(int(s) for s in score(state)) if score is not None else (0,) * players
               for state in states]
    rules = game.result(states[-1])
    if stored and "scores" in stored:
        scores[-1] = tuple(int(s) for s in stored["scores"])
    elif rules is not None:
        scores[-1] = tuple(rules.scores)
    return scores
