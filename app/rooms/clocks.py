"""Chess clocks for a room's seats: a total time per seat plus an increment per turn.

The increment is added once per turn, when the game stops waiting for the seat (its turn
passes to another seat, or it has done its part of a phase everyone plays together), not for
each move of the turn: a turn made of many clicks gains it once.

The clocks of the seats the game waits for run at once (in a phase everyone plays together,
every active seat's clock runs); a seat played by a bot has no running clock. The clocks are
a reading taken at one moment (``since``) plus which of them run: every change (a move, a seat
handed to a bot or taken back) takes a new reading. The reading is stored with every move, so
the clocks survive a restart.

**Downtime rule.** A server that stops cleanly stores a reading as it stops and the clocks
stay paused until it runs again; a server that crashes resumes from the reading of the last
change (the thinking time since then is given back). Either way no seat is charged for time
the server was down.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from app.games.base import Event
from app.games.words import Msg

#: What happens to a seat whose time runs out.
ON_TIMEOUT = ("bot", "lose")


@dataclass(frozen=True, slots=True)
class Clocks:
    """Seconds left per seat at the moment ``since`` (epoch seconds; None: paused), and the
    seats whose clocks run from then on."""

    left: tuple[float, ...]
    running: frozenset[int]
    since: float | None
    increment: float
    on_timeout: str = "bot"
    #: Seats whose time ran out and that a bot took since the last move: the next stored move
    #: carries a log line saying so (:meth:`logged`), so it survives a restart.
    ran_out: tuple[int, ...] = ()

    @classmethod
    def start(cls, setting: dict[str, Any], players: int, running: frozenset[int],
              now: float) -> Clocks:
        """Full clocks at the start of a game (``setting``: the room's ``clock``)."""
        return cls(tuple(60.0 * setting["minutes"] for _ in range(players)), running, now,
                   float(setting.get("increment", 0)), setting.get("on_timeout", "bot"))

    def reading(self, now: float) -> tuple[float, ...]:
        """Seconds left per seat at ``now`` (never below zero)."""
        if self.since is None:
            return self.left
        spent = max(0.0, now - self.since)
        return tuple(max(0.0, left - spent) if seat in self.running else left
                     for seat, left in enumerate(self.left))

    def at(self, now: float, running: frozenset[int]) -> Clocks:
        """A new reading at ``now``; from then on the clocks of ``running`` run."""
        return replace(self, left=self.reading(now), running=running, since=now)

    def after_move(self, seat: int, now: float, running: frozenset[int],
                   turn_ended: bool = True) -> Clocks:
        """A new reading after ``seat`` moved; ``running`` run from now on. The mover gains
        the increment when the move ended its turn (``turn_ended``: the game no longer waits
        for the seat), not for a move within it."""
        taken = self.at(now, running)
        if not turn_ended:
            return taken
        left = list(taken.left)
        left[seat] += self.increment
        return replace(taken, left=tuple(left))

    def timed_out(self, seat: int) -> Clocks:
        """``seat`` ran out of time and a bot took it: the next move logs it."""
        return replace(self, ran_out=(*self.ran_out, seat))

    def logged(self) -> Clocks:
        """The seats out of time are in the log now."""
        return replace(self, ran_out=())

    def paused(self, now: float) -> Clocks:
        """Stopped at ``now`` (a clean shutdown): nobody's time runs until :meth:`resumed`."""
        return replace(self, left=self.reading(now), since=None)

    def resumed(self, now: float) -> Clocks:
        """Running again from ``now``, as they read when they stopped."""
        return replace(self, since=now)

    def flagged(self, now: float) -> list[int]:
        """The running seats whose time has run out."""
        reading = self.reading(now)
        return sorted(seat for seat in self.running if reading[seat] <= 0)

    def next_flag(self, now: float) -> float | None:
        """Seconds until the first running clock runs out (None: none runs)."""
        if self.since is None or not self.running:
            return None
        reading = self.reading(now)
        return min(reading[seat] for seat in self.running)

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {"left": list(self.left), "running": sorted(self.running),
                                "since": self.since, "increment": self.increment,
                                "on_timeout": self.on_timeout}
        if self.ran_out:
            data["ran_out"] = list(self.ran_out)
        return data

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Clocks:
        return cls(tuple(float(x) for x in data["left"]), frozenset(data["running"]),
                   data.get("since"), float(data.get("increment", 0)),
                   data.get("on_timeout", "bot"), tuple(data.get("ran_out", ())))

    def shown(self, now: float) -> dict[str, Any]:
        """For pages and API clients: seconds left per seat now, and which run."""
        return {"left": [round(x, 1) for x in self.reading(now)],
                "running": sorted(self.running) if self.since is not None else [],
                "increment": self.increment, "on_timeout": self.on_timeout}


def ran_out_line(seat: int) -> Event:
    """The log line of a seat whose time ran out and that a bot plays on."""
    return Event.say("clock.ran_out",
                     Msg("Time ran out for {player}; a bot took the seat.",
                         {"player": f"{{p{seat}}}"}), {"seat": seat})
