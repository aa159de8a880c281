"""Who plays a seat of a running game: its person, or a bot standing in for them.

- A seated person may **leave**: a bot of the level they choose plays their seat from the next
  decision on, through the same path as people (:mod:`app.rooms.bots`).
- They may **come back** at any time: the bot stops and the seat waits for them again (a bot
  move already on its way is refused under the room's lock: it was meant for a seat that is
  theirs again).
- When a person has been away past the room's limit (:meth:`Table.overdue`), the other people
  at the table may **vote** to hand the seat to a bot (the game's first level): a majority of
  them decides (one vote of two, two of three …). Bots do not vote. Coming back clears the
  votes.
- **Last seen**: opening or closing a page of the room, or a move, marks its person as seen.

Each change is stored (committed in order with the moves), then the table changes, then its
pages are told (:class:`LobbyChanged`) and the bots and clocks follow.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import TYPE_CHECKING

from app.errors import ApiError
from app.games.words import Msg
from app.rooms.events import LobbyChanged
from app.rooms.table import Table

if TYPE_CHECKING:
    from app.rooms.service import RoomService


#: A page opened this soon after its person was last seen stores nothing (:meth:`Seating.seen`).
SEEN_AGAIN_SECONDS = 60.0


class Seating:
    def __init__(self, rooms: RoomService) -> None:
        self.rooms = rooms

    async def _person_seat(self, room_id: int, player_id: int | None) -> tuple[Table, int]:
        table = await self.rooms.readable(room_id, player_id)  # a stranger: 404 if private
        seat = table.seat_of(player_id)
        if seat is None:
            raise ApiError(403, Msg("you have no seat in this game"))
        return table, seat

    async def leave(self, room_id: int, player_id: int | None, level: str | None) -> Table:
        """Hand the caller's seat to a bot of ``level`` (the game's first by default)."""
        table, seat = await self._person_seat(room_id, player_id)
        bot = table.game.bot(level) if level is not None else table.game.bots[0]
        if bot is None:
            raise ApiError(422, Msg("unknown bot level {level}; choose one of {known}",
                                    {"level": repr(level),
                                     "known": ", ".join(b.id for b in table.game.bots)}))
        await self.hand_over(table, seat, bot.id, refuse_twice=True)
        return table

    async def hand_over(self, table: Table, seat: int, level: str, *,
                        refuse_twice: bool = False, ran_out: bool = False) -> None:
        """A bot of ``level`` plays the person's ``seat`` from now on (``ran_out``: because
        its time ran out, which the next move's log lines say)."""
        async with self.rooms.tables.lock(table.room_id):
            table = await self.rooms.current(table.room_id)
            if table.finished:
                raise ApiError(409, Msg("the game is over"))
            if seat in table.seat_bots:
                if refuse_twice:
                    raise ApiError(409, Msg("a bot already plays your seat"))
                return
            await self.rooms.store.save_seat(table.room_id, seat, bot_level=level, votes=None)
            table.seat_bots[seat] = level
            table.votes.pop(seat, None)
            if ran_out and table.clocks is not None:
                table.clocks = table.clocks.timed_out(seat)
            await self._reseated(table)

    async def come_back(self, room_id: int, player_id: int | None) -> Table:
        """The caller takes their seat back from the bot that played it."""
        table, seat = await self._person_seat(room_id, player_id)
        async with self.rooms.tables.lock(room_id):
            table = await self.rooms.current(room_id)
            if seat not in table.seat_bots:
                raise ApiError(409, Msg("you play your seat yourself already"))
            if table.finished:
                raise ApiError(409, Msg("the game is over"))
            now = self.rooms.clock()
            await self.rooms.store.save_seat(room_id, seat, bot_level=None, votes=None,
                                             last_seen=datetime.fromtimestamp(now, UTC))
            del table.seat_bots[seat]
            table.votes.pop(seat, None)
            table.last_seen[seat] = now
            await self._reseated(table)
        return table

    async def vote(self, room_id: int, player_id: int | None, seat: int,
                   present: frozenset[int]) -> Table:
        """The caller votes to hand the away person's ``seat`` to a bot; ``present``: the
        players with a page of the room open now."""
        table, mine = await self._person_seat(room_id, player_id)
        assert player_id is not None  # seated
        if mine in table.seat_bots:
            raise ApiError(403, Msg("a bot plays your seat: take it back to vote"))
        if not 0 <= seat < table.players or seat not in table.seat_players:
            raise ApiError(404, Msg("no person sits on seat {seat}", {"seat": str(seat + 1)}))
        if seat == mine:
            raise ApiError(409, Msg("you cannot vote on your own seat: leave the game "
                                    "instead"))
        async with self.rooms.tables.lock(room_id):
            table = await self.rooms.current(room_id)
            if seat in table.seat_bots:
                raise ApiError(409, Msg("a bot plays that seat already"))
            if not table.overdue(seat, present, self.rooms.clock()):
                limit = (Msg("the game has waited for them {hours} h",
                             {"hours": table.move_hours}) if table.pace == "turn"
                         else Msg("they have been away {minutes} min",
                                  {"minutes": table.away_minutes}))
                raise ApiError(409, Msg("{player} is not away long enough: a vote opens once "
                                        "{limit}", {"player": f"{{p{seat}}}", "limit": limit}),
                               names=table.names, reader=mine)
            votes = table.votes.get(seat, frozenset()) | {player_id}
            if len(votes) < table.votes_needed(seat):
                await self.rooms.store.save_seat(room_id, seat, votes=sorted(votes))
                table.votes[seat] = votes
                await self._reseated(table)
                return table
        await self.hand_over(table, seat, table.game.bots[0].id)
        return table

    async def seen(self, room_id: int, player_id: int | None, *, opened: bool = False) -> None:
        """The person opened (``opened``) or closed a page of the room (running games only).

        A page opened within :data:`SEEN_AGAIN_SECONDS` of the seat's last sign of life (a
        reload, a socket that reconnects: the close just stored it) changes nothing and
        writes nothing: while a page is open the seat shows "here", not when it was last seen,
        and the close stores the time again. (Votes to hand the seat to a bot are cleared all
        the same.) So the stored time may lag by that much while the page is open."""
        table = self.rooms.cached(room_id)
        seat = table.seat_of(player_id) if table is not None else None
        if table is None or seat is None or table.finished:
            return
        now = self.rooms.clock()
        last = table.last_seen.get(seat)
        if opened and seat not in table.votes and last is not None and \
                0 <= now - last < SEEN_AGAIN_SECONDS:
            return
        table.last_seen[seat] = now
        await self.rooms.store.save_seat(room_id, seat,
                                         last_seen=datetime.fromtimestamp(now, UTC))
        if table.votes.pop(seat, None):
            await self.rooms.store.save_seat(room_id, seat, votes=None)
            await self._reseated(table)

    async def _reseated(self, table: Table) -> None:
        """After a change of who plays: the clocks take a reading, the pages hear of it."""
        table.reseated()
        if table.clocks is not None:
            table.clocks = table.clocks.at(self.rooms.clock(), table.people_to_move())
            await self.rooms.store.save_clocks(table)
        await self.rooms.hub.publish(LobbyChanged(table.room_id))
        self.rooms.bots.schedule(table.room_id)
        self.rooms.timekeeper.schedule(table.room_id)
