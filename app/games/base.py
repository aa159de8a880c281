"""What a game is to the platform (DESIGN.md §2): one :class:`GameSpec` per game.

A game's folder declares itself once, as ``GAME = GameSpec(...)`` in its ``__init__``, and the
registry lists it; the platform (lobby, rooms, realtime, web) learns everything about a game
from that value and nothing from naming conventions. Its rules are pure functions:

- ``setup(players, options, seed)`` builds the initial state, deterministically for a seed;
- ``active_seats(state)`` says who may act now: the seat whose turn it is, a seat answering a
  prompt while the player whose turn it is waits, or several seats deciding at once;
- ``legal_moves(state, seat)`` lists every concrete legal move as a JSON object;
- ``apply(state, seat, move)`` returns the next state or raises :class:`IllegalMove`;
- ``view(state, seat)`` is what that seat (``None``: a spectator) may see — hidden information
  is removed here and nowhere else;
- ``seat_status(state, seat)`` is what a seat is doing now ("drawing", "bidding", "done"), for
  the pages and for refusals;
- ``events(before, seat, move, after)`` describes an applied move for the game log;
- ``result(state)`` gives the final scores once the game is over;
- ``dump(state)`` / ``load(data)`` turn a state into JSON and back (the database stores JSON);
- ``conceal(state, seat, rng)`` is a twin state that seat cannot tell apart from ``state``
  (the exact statement of the game's hidden information, for the leak checker).

**Moves are stored, never sent.** The platform keeps every move in the move log and replays
it, but no client ever receives a move: clients learn only what ``view`` and ``events`` show.
A sealed submission (a bid, an event card) is therefore an ordinary move, secret until the
game's view or events reveal it. Undo is an ordinary move of the games that allow it.
"""

from __future__ import annotations

import random
import re
import unicodedata
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from datetime import date
from pathlib import Path
from types import ModuleType
from typing import Any

from pydantic import BaseModel, ConfigDict

from app.games.words import ENGLISH, N_, Msg, Words

JSON = dict[str, Any]
Move = dict[str, Any]
State = Any


class IllegalMove(Exception):
    """A move that the rules refuse in the current state.

    ``rule`` names the rule it breaks (a rulebook section or a spec clause id), so that the
    player learns *why*; the reason is the sentence shown to them, in plain words
    (app/web/words.py) and the game's vocabulary, naming players as ``{p0}`` … like a log line
    (:class:`Event`): a :class:`Msg`, shown in each reader's language (``reason`` is its
    English). The reason must only mention what the moving seat may see.
    """

    def __init__(self, reason: Msg | str, rule: str) -> None:
        self.msg = reason
        self.reason = reason.english() if isinstance(reason, Msg) else reason
        super().__init__(self.reason)
        self.rule = rule

    def __str__(self) -> str:
        return f"{self.reason} ({self.rule})"


#: The rule a move of the wrong shape breaks (an unknown type or field, a value not written
#: as GET .../moves lists it): only API clients send such moves, the pages never do. It is
#: explained in the API docs (POST /api/rooms/{id}/moves), not in a game's rules panel.
MOVE_FORMAT = "move format"


class NoOptions(BaseModel):
    """Options of a game that has none."""

    model_config = ConfigDict(extra="forbid")


@dataclass(frozen=True)
class Event:
    """One line of the game log.

    ``key`` and ``params`` let a client localize the line; ``msg`` is the line in words, shown
    in each reader's language (app/i18n.py); ``text`` is its English sentence,
    where ``{p0}``, ``{p1}`` … stand for the players' names and ``{p0's}`` … for their
    possessives. The reader's own seat reads "you" / "your" (capitalised at the start of a
    sentence), so a text must read right in both persons: write actions in the past tense
    ("{p0} drew from the deck", "{p1} took Oak 7 from {p0's} discard pile").

    ``seats`` is ``None`` for a public line, otherwise the only seats that may read it (the
    card a player drew from the deck). ``not_for`` lists seats that do not read a public line
    because a private line of the same move tells them more ("You drew Oak 7 from the deck"
    instead of "You drew from the deck"): one line per happening for every reader.
    """

    key: str
    text: str
    params: JSON = field(default_factory=dict)
    seats: frozenset[int] | None = None
    not_for: frozenset[int] = frozenset()
    #: The line as a :class:`Msg`, shown in each reader's language (``text`` is its English;
    #: lines stored before the catalogues existed have only ``text``).
    msg: Msg | None = None

    @classmethod
    def say(cls, key: str, msg: Msg, params: JSON | None = None,
            seats: frozenset[int] | None = None, not_for: frozenset[int] = frozenset()) -> Event:
        """A log line from its message (its English becomes ``text``)."""
        return cls(key, msg.english(), params or {}, seats, not_for, msg)

    def visible_to(self, seat: int | None) -> bool:
        if self.seats is None:
            return seat not in self.not_for
        return seat is not None and seat in self.seats

    def to_json(self) -> JSON:
        return {"key": self.key, "text": self.text, "params": self.params}


@dataclass(frozen=True)
class Result:
    """The end of a game: one score per seat, the ranking and the winners.

    ``ranking`` lists seats best first (tie-breaks applied); ``winners`` may hold several seats
    where the rules allow a shared win, or none (a solo game lost to an automa). ``details`` is
    a JSON-ready, per-game breakdown (paths scored, points per season …) that the final screen
    shows. A game whose scores are not points says how each reads in ``shown`` ("3 drops
    left") and what happened in ``headline`` (plain words, players as ``{p0}`` like a log line:
    "{p1} won with an empty board"); the end screen uses them instead of "… wins with N
    points". A game whose rules name only the winners (no places for the others) says how
    many seats at the head of ``ranking`` they place in ``placed``: the pages list the rest
    without a place, in ``ranking``'s order (None: the whole ranking is placed).
    """

    scores: tuple[int, ...]
    ranking: tuple[int, ...]
    winners: tuple[int, ...]
    details: JSON = field(default_factory=dict)
    headline: Msg | str = ""
    shown: tuple[Msg | str, ...] = ()
    placed: int | None = None

    def to_json(self, words: Words = ENGLISH) -> JSON:
        """As JSON, ``headline`` and ``shown`` in the language of ``words`` (players still as
        ``{p0}`` …)."""
        return {
            "scores": list(self.scores),
            "ranking": list(self.ranking),
            "winners": list(self.winners),
            "details": self.details,
            "headline": _in(self.headline, words),
            "shown": [_in(s, words) for s in self.shown],
            "placed": self.placed,
        }

    @classmethod
    def from_json(cls, data: JSON) -> Result:
        """A stored result as it was stored (its words in the language they were stored
        in)."""
        return cls(scores=tuple(data.get("scores", ())), ranking=tuple(data.get("ranking", ())),
                   winners=tuple(data.get("winners", ())), details=data.get("details") or {},
                   headline=data.get("headline") or "",
                   shown=tuple(data.get("shown") or ()), placed=data.get("placed"))


def _in(text: Msg | str, words: Words) -> str:
    return text.render(words) if isinstance(text, Msg) else text


@dataclass(frozen=True)
class SeatStatus:
    """What a seat is doing now, in a few plain words shown beside its name ("drawing",
    "choosing a card", "done"; empty when there is nothing to say).

    ``finished`` is the rule under which the seat has finished its part of the current phase
    (Evergreen's final ``done``): its moves then conflict with the phase (409 citing that
    rule) instead of merely coming out of turn (403 citing the game's ``turn_rule``).
    """

    doing: str = ""
    finished: str = ""


@dataclass(frozen=True)
class Region:
    """One part of the table page that is pushed to browsers when its HTML changes: the
    template block ``block`` rendered into the element with id ``id``. A per-seat region
    (one planet per player) names its ``seat``; the block then sees it as ``region_seat``."""

    id: str
    block: str
    seat: int | None = None


@dataclass(frozen=True)
class RuleText:
    """One rule of a game's rules panel: the ``id`` its refusals cite (a rulebook heading, a
    spec clause), a ``title`` and a short summary in the project's own words — both English
    message ids (marked with ``N_``), shown in the reader's language."""

    id: str
    title: str
    text: str


def rule_anchor(rule: str) -> str:
    """A rule id as a page anchor: "Fase de movimiento" → "fase-de-movimiento"."""
    folded = unicodedata.normalize("NFKD", rule).encode("ascii", "ignore").decode().lower()
    return re.sub(r"[^a-z0-9]+", "-", folded).strip("-") or "rule"


@dataclass(frozen=True)
class RuleChange:
    """A rule fix that changed what is legal or how a game ends: the ``version`` of the rules
    it made (:attr:`GameSpec.rules_version`), the ``day`` it came, the ids of the ``rules`` it
    changed and a ``summary`` for players (an English message id, marked with ``N_``)."""

    version: int
    day: date
    rules: tuple[str, ...]
    summary: str


@dataclass(frozen=True)
class BotLevel:
    """A bot a room can seat: ``choose(view, legal, rng)`` picks one of the legal moves from
    what its seat can see (bots never see the state). ``label`` is a message id (marked with
    ``N_``), shown in the reader's language."""

    id: str
    label: str
    choose: Callable[[JSON, list[Move], random.Random], Move]


def _any_legal_move(view: JSON, legal: list[Move], rng: random.Random) -> Move:
    return rng.choice(legal)


#: A bot every game can offer: any legal move, uniformly at random.
RANDOM_BOT = BotLevel("random", N_("Random bot"), _any_legal_move)


@dataclass(frozen=True, eq=False)
class GameSpec:
    """Everything the platform knows about one game (DESIGN.md §2), declared once."""

    id: str
    title: str
    #: One sentence for the lobby.
    summary: str
    min_players: int
    max_players: int
    #: The room options (variants, expansions …): a pydantic model whose JSON schema drives
    #: the API's validation and the lobby's options form. Every field needs a default.
    Options: type[BaseModel]
    #: The game's folder: ``templates/`` (its Jinja2 partials, loaded under the prefix
    #: ``<id>/``) and ``static/`` (served at ``/static/games/<id>/``) live in it.
    folder: Path
    #: The table template (``<id>/table.html``), one block per region.
    template: str
    #: The table's regions for a number of players (per-seat regions for every seat).
    regions: Callable[[int], tuple[Region, ...]]
    #: The rule a move out of turn breaks (cited by the platform's 403).
    turn_rule: str
    #: Each move type and the fields it carries besides ``type``: the platform refuses a move
    #: with any other field (422) before the game sees it, so nothing but the move is stored.
    moves: Mapping[str, frozenset[str]]
    #: The bots a room may seat, the default first.
    bots: tuple[BotLevel, ...]
    #: The component data module (frozen tables, validated when imported).
    data: ModuleType
    setup: Callable[[int, Any, int], State]
    active_seats: Callable[[State], frozenset[int]]
    legal_moves: Callable[[State, int], list[Move]]
    apply: Callable[[State, int, Move], State]
    events: Callable[[State, int, Move, State], list[Event]]
    view: Callable[[State, int | None], JSON]
    seat_status: Callable[[State, int], SeatStatus]
    result: Callable[[State], Result | None]
    dump: Callable[[State], JSON]
    load: Callable[[JSON], State]
    conceal: Callable[[State, int | None, random.Random], State]
    #: Anything else the game's own templates use (colours, names of pieces).
    extras: JSON = field(default_factory=dict)
    #: What the table asks a player for when a click lacks a move field, in the game's words
    #: (``{"card": "Choose a card from your hand first"}``): the pages show it instead of the
    #: precise refusal an API client gets for a move without that field.
    asks: Mapping[str, str] = field(default_factory=dict)
    #: For players, in plain words: where the component data comes from when it is not the
    #: printed one (a reconstruction). When set, the table links to a page that shows it.
    about_components: str = ""
    #: The rules panel: every rule the game's refusals cite, in the game's order.
    rules: tuple[RuleText, ...] = ()
    #: Each seat's score as the game stands, read only from what every seat sees (a replay's
    #: score line is shown to spectators), for the score timeline of a replay and a forfeit's
    #: ranking; at the end, the result's scores.
    score: Callable[[State], tuple[int, ...]] | None = None
    #: For a game whose scores are not points (:attr:`score`): how each seat's score reads as
    #: the game stands, in words per seat ("3 drops left, 5 leaves"), shown beside the score
    #: timeline of a replay; ``score_axis`` turns a score into the number players count
    #: (drops left) for the chart's axis, and ``score_name`` (a message id) names that number.
    score_shown: Callable[[State], tuple[Msg | str, ...]] | None = None
    score_axis: Callable[[int], int] | None = None
    score_name: str = ""
    #: A template of the game's own shown at the head of its rules panel (how to read its
    #: symbols and colours), or none.
    rules_legend: str = ""
    #: The rules' version: a rule fix that changes what is legal, or how a game scores,
    #: raises it and says what changed in ``rule_changes``. Each game stores the version it
    #: began under. A game begun before a fix plays on from its stored state under today's
    #: rules (its stored moves and result are facts, never judged again: see
    #: app/rooms/rebuild.py); its players see what changed in the rules panel.
    rules_version: int = 1
    #: Each fix since the first version, oldest first (versions 2, 3 … up to
    #: ``rules_version``).
    rule_changes: tuple[RuleChange, ...] = ()

    @property
    def rule_ids(self) -> frozenset[str]:
        return frozenset(rule.id for rule in self.rules)

    def rule_title(self, rule: str) -> str:
        """The title of a rule of the panel (its id when the panel lacks it)."""
        return next((r.title for r in self.rules if r.id == rule), rule)

    def __post_init__(self) -> None:
        if not 1 <= self.min_players <= self.max_players <= MAX_SEATS:
            raise ValueError(f"{self.id}: seats must lie within 1–{MAX_SEATS}")
        if not self.bots:
            raise ValueError(f"{self.id}: declare at least one bot level")
        if [change.version for change in self.rule_changes] != list(
                range(2, self.rules_version + 1)):
            raise ValueError(f"{self.id}: say what each rules version changed, 2 to "
                             f"{self.rules_version}, in rule_changes")

    def bot(self, level: str) -> BotLevel | None:
        return next((bot for bot in self.bots if bot.id == level), None)


#: The most seats any game may have: the lobby, the seat palette and the pages lay out this many.
MAX_SEATS = 5


def seeded_rng(*parts: object) -> random.Random:
    """A deterministic RNG from a seed and counters: ``seeded_rng(seed, "deal")``.

    Games keep their seed (and a draw counter where they shuffle more than once) inside the
    state, so that ``setup(seed)`` plus the move log replays to the identical state. Seeds
    have 128 bits (drawn by the lobby with ``secrets``), so no seat can find the seed that
    explains its own cards by searching.
    """
    return random.Random(":".join(str(p) for p in parts))


def require_move_type(move: Move, allowed: tuple[str, ...]) -> str:
    """The move's ``type``, or :class:`IllegalMove` naming the types this game knows."""
    kind = move.get("type") if isinstance(move, dict) else None
    if not isinstance(kind, str) or kind not in allowed:
        raise IllegalMove(
            f"unknown move type {kind!r}; expected one of: {', '.join(allowed)}", "move format"
        )
    return kind
