"""Mycelia rules: state, setup, active seats, legal moves, apply, result, dump/load.

Pure functions over an immutable :class:`State` (frozen dataclasses of tuples), so ``apply``
never changes its input. Every random step (shuffles, the die) uses
``seeded_rng(seed, label, counter)`` with the counter kept in the state, so ``setup(seed)`` plus
the move log replays to the identical state. Rule ids are those of ``specs/mycelia.md``:

- Setup R1–R8 (:func:`setup`); the turn R10–R25: playing a card starts a *resolution walk*
  (:class:`Walk`) that runs the card's function left to right and stops at each decision as
  ``pending`` (:class:`Pending`, kinds ``choose_option``, ``choose_field``, ``move_drop``,
  ``adjacent``, ``trash``, ``discard_tile``, ``sanctuary_field``, ``solo_move``); buying
  (R20–R22) and action tiles (R23–R25, X8).
- End of turn E1–E6 (:func:`_end_turn`), game end G1–G5 (:func:`_check_empty`,
  :func:`result`), bonus B1–B6 (bonus parts prompt every other seat clockwise), expansion
  X1–X9, advanced boards V1–V2, solo S1–S11 (Gwidyon's turn runs inside ``apply`` right after
  the player's ``end_turn``; only ``g_move`` prompts the player).

While a prompt is pending only ``pending.seat`` may move (:func:`active_seats`), so a bonus
prompt hands the table to another seat while the player whose turn it is waits (B3).

Decisions where the spec and the rulebook are silent:

- A removal of ``x`` symbols takes ``count`` drops, 1 to min(symbols, drops); a chosen field
  with no drop (possible only for a ``0`` spec) removes nothing there (R16).
- Every answer is logged, a ``skip`` too, saying what it forwent and whether anything of the
  card was left (:func:`after_skip`); a field part that lapses (R13), a trash part with an
  empty discard pile and a chosen field with no drop say so in the log, so that every move
  reads as what happened. A plain ``skip`` that forgoes as much as ``skip`` with ``rest`` (no
  part of the player's own is left after it) is the only skip offered.
- The market is refilled at the end of Gwidyon's turn as at the end of yours (S6 "end of
  either turn").
- Solo bonus parts (S8): a removal counts per repetition its ``x`` symbols (a transparent
  ``~N`` field: N), 1 for ``n`` or ``C`` and 4 for ``A`` (the four neighbours); the cards only
  print ``!any1:x`` and ``!any1:m``.
- A bonus trash, tile or sanctuary part (no card prints one) would be performed by each other
  seat in turn like a bonus field part.
- Tile ``c``: ``to2`` must be omitted (or null) exactly when the origin is empty after the
  first move; a ``to2`` then is refused (R25).
- Solo, once your board is empty, ``end_turn`` leaves the cards still in hand where they are:
  the game ends with that turn (S9). The turn that ends the game draws no new hand (E4 serves
  the next turn, and there is none).
- Result (G4): Mycelia has no points; ``scores`` are the dew drops left on each board, negated
  (0 is best), shown as drops left beside each seat's leaves (leaves decide between empty
  boards). The rulebook names only winners ("De speler die geen dauwdruppels meer … is de
  winnaar"), so only they are placed (``placed``): the ranking lists them first, then the
  others in seat order, unranked. Solo (S10): ``winners`` is ``(0,)`` when you won (alone or
  together with Gwidyon) and empty when Gwidyon won alone; ``details["solo"]["winner"]``
  says ``"you"``, ``"gwidyon"`` or ``"both"``.
- Removing cards (X2, X8; rules version 2): "Si quieres, puedes decidir no eliminar ninguna
  carta", and "un héroe también puede eliminarse a sí mismo" — no floor: a player may remove
  every card. Tile e follows "Eliminar cartas", so it may remove no card at all, also with an
  empty discard pile (the spec's "tile e needs a card" is overruled by the rulebook). A
  player who owns no card and cannot recruit one (no market card they can pay, nor one after
  a market wipe) nor pay for a tile that moves or removes a drop can never change their board
  again; when every player of a table of several is so, no board can ever be emptied, and the
  game ends at once without a winner (:func:`stalled`; the rulebook has no end but an empty
  board, so the end it names cannot come). Solo always ends: Gwidyon removes drops every turn.
- Clathrus ruber's water field may be empty (:func:`chosen_spec`; rules version 2): the
  rulebook's "(si hay)" covers both of its removals.
- Gwidyon's ``g_move`` card (S3) is an instruction, not a choice: the rulebook says "Verplaats
  op je spelbord 1 druppel van een willekeurig veld één veld orthogonaal" (the spec's "move or
  skip" summary is overruled by it). It asks only when a drop can move, and then cannot be
  skipped (rules version 2).
- Statuses name nobody and nothing: a status is a fixed message id (the platform shows it in
  each reader's language), so a waiting seat reads "waiting" or "waiting for a bonus answer";
  the page says who answers what for which card (table.py).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache
from typing import Any, TypeVar

from pydantic import BaseModel, ConfigDict, Field

from app.games.base import JSON, IllegalMove, Move, Result, SeatStatus, seeded_rng
from app.games.mycelia.data import (
    ADVANCED_BOARDS,
    BASE_CARDS,
    BOARDS,
    COLS,
    DIE_FACES,
    EXP_CARDS,
    EXTRA_SANCTUARY_FIELDS,
    GWIDYON_DROPS_DEFAULT,
    GWIDYON_DROPS_MAX,
    GWIDYON_DROPS_MIN,
    MAX_TILES,
    NEW_DEW,
    NEW_DEW_BACK,
    ROWS,
    SOLO_CARDS,
    START_DEW,
    STARTING_DECK,
    STARTING_TILES,
    TILES,
    CardDef,
    SoloCard,
    card_id,
    def_of,
)
from app.games.mycelia.notation import and_list, at_least, exactly, parse_fn, place_msg
from app.games.words import N_, Msg, plural, who

Cell = tuple[int, int]
_D = TypeVar("_D")


def replace(obj: _D, **changes: Any) -> _D:
    """A copy of one of this module's frozen dataclasses with ``changes``: what
    ``dataclasses.replace`` does, without its per-field checks (it is the hot path of every
    move; the fields are plain values, there is no ``__post_init__``)."""
    new = object.__new__(type(obj))
    new.__dict__.update(obj.__dict__, **changes)
    return new


#: A card instance's definition (``data.def_of``, cached: it is asked at every step).
card_def = cache(def_of)

MAIN = "main"
PROMPT = "prompt"
OVER = "over"
#: R10, E4: cards in a hand.
HAND_SIZE = 3
#: R4, E2: face-up market cards.
MARKET_SIZE = 5
#: S1: the token's sides; it starts on ``remove``.
REMOVE, BLANK = "remove", "blank"
ORTHOGONAL: tuple[Cell, ...] = ((-1, 0), (1, 0), (0, -1), (0, 1))
CELLS: tuple[Cell, ...] = tuple((r, c) for r in range(ROWS) for c in range(COLS))
SOLO_BY_ID: dict[str, SoloCard] = {card.id: card for card in SOLO_CARDS}

MOVE_FIELDS: dict[str, frozenset[str]] = {
    "play": frozenset({"type", "card"}),
    "buy": frozenset({"type", "card"}),
    "tile": frozenset({"type", "tile", "from", "to", "to2", "cell", "card"}),
    "end_turn": frozenset({"type"}),
    "choose_option": frozenset({"type", "option"}),
    "choose_field": frozenset({"type", "cell", "count"}),
    "move_drop": frozenset({"type", "from", "to"}),
    "trash": frozenset({"type", "card"}),
    "discard_tile": frozenset({"type", "tile"}),
    "skip": frozenset({"type", "rest"}),
}
MOVE_TYPES = tuple(MOVE_FIELDS)
#: The fields each move needs (the others of MOVE_FIELDS are optional).
_REQUIRED: dict[str, frozenset[str]] = {
    "play": frozenset({"card"}),
    "buy": frozenset({"card"}),
    "tile": frozenset({"tile"}),
    "end_turn": frozenset(),
    "choose_option": frozenset({"option"}),
    "choose_field": frozenset({"cell"}),
    "move_drop": frozenset({"from", "to"}),
    "trash": frozenset({"card"}),
    "discard_tile": frozenset({"tile"}),
    "skip": frozenset(),
}
#: The answers each prompt kind takes.
ANSWERS: dict[str, tuple[str, ...]] = {
    "choose_option": ("choose_option", "skip"),
    "choose_field": ("choose_field", "skip"),
    "move_drop": ("move_drop", "skip"),
    "adjacent": ("choose_field", "skip"),
    "trash": ("trash", "skip"),
    "discard_tile": ("discard_tile", "skip"),
    "sanctuary_field": ("choose_field",),
    "solo_move": ("move_drop", "skip"),
}


class Options(BaseModel):
    """Room options (R7, S1, X9, V1)."""

    model_config = ConfigDict(extra="forbid")

    expansion: bool = Field(
        False, title=N_("Expansion cards"),
        description=N_("Shuffle the 30 expansion heroes into the market deck; they bring the "
                       "action tiles c, d and e, card removal and the extra sanctuary fields."))
    advanced_boards: bool = Field(
        False, title=N_("Advanced boards"),
        description=N_("Every player uses a different back of the player board (the star "
                       "sides) instead of the standard side."))
    gwidyon_drops: int = Field(
        GWIDYON_DROPS_DEFAULT, ge=GWIDYON_DROPS_MIN, le=GWIDYON_DROPS_MAX,
        title=N_("Gwidyon's dew drops (solo)"), json_schema_extra={"players": [1]},
        description=N_("How many drops Gwidyon starts with in a solo game: 20, or up to 25 to "
                       "slow him down."))


# --- state -------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Player:
    """A seat's board, supply and cards (R5).

    ``draw[0]`` is the top of the draw pile and ``discard[-1]`` the top of the discard pile;
    ``known`` counts the cards on top of the draw pile that the seat bought and so knows (R8,
    R21). ``extra`` lists the extra sanctuary fields placed on the board (X6); ``removed`` the
    cards removed from the game (X2). ``used[i]`` says whether ``tiles[i]`` was used this turn.
    """

    board: str
    drops: tuple[tuple[int, ...], ...]
    leaves: int
    tiles: tuple[str, ...]
    used: tuple[bool, ...]
    hand: tuple[str, ...]
    draw: tuple[str, ...]
    discard: tuple[str, ...]
    known: int = 0
    extra: tuple[Cell, ...] = ()
    removed: tuple[str, ...] = ()


@dataclass(frozen=True)
class Gwidyon:
    """The solo opponent (S1): drops on the leaf-litter board, the token's side up, the solo
    deck face down (``deck[0]`` on top) and the cards revealed since the last shuffle.
    ``next_effect`` is the effect of the last revealed card to carry out next while the player
    answers ``g_move`` (-1 otherwise)."""

    drops: int
    token: str
    deck: tuple[str, ...]
    revealed: tuple[str, ...] = ()
    next_effect: int = -1


@dataclass(frozen=True)
class Walk:
    """Where the resolution of a function stands (R10–R19, B1–B3, X2–X6).

    ``owner`` plays (or recruited) ``card``; ``fn`` is ``"play"`` or ``"once"``. ``option`` is
    the alternative chosen in an either-or (-1: not yet). ``part`` is the part now resolving,
    performed by ``actor`` (the owner, or another seat for a bonus part; -1: not started);
    ``rep`` is its repetition (0: none yet), ``anchor`` the field chosen in it and ``step`` the
    next effect on that field. ``rest_skipped``: the owner forwent the remaining non-bonus
    parts (B1).
    """

    owner: int
    card: str
    fn: str
    option: int = -1
    part: int = 0
    actor: int = -1
    rep: int = 0
    anchor: Cell | None = None
    step: int = 0
    rest_skipped: bool = False


@dataclass(frozen=True)
class Pending:
    """The decision the table waits for ("Digital moves"): ``seat`` answers a prompt of
    ``kind``. ``options`` are cells (field prompts), alternative numbers (``choose_option``),
    card ids (``trash``) or tile letters (``discard_tile``); for ``move_drop`` they are the
    destinations of a drop leaving ``origin``, for ``solo_move`` the fields a drop may leave.
    ``spec`` is the field spec of a ``choose_field``; ``max`` the most drops its ``x`` symbols
    remove (1 otherwise); ``effect`` the neighbour effect of an ``adjacent`` prompt."""

    seat: int
    kind: str
    bonus: bool
    card: str
    fn: str
    part: int
    rep: int
    reps: int
    options: tuple[Any, ...]
    max: int = 1
    can_skip: bool = True
    spec: tuple[str, int, str] | None = None
    origin: Cell | None = None
    effect: str = ""


@dataclass(frozen=True)
class Note:
    """One happening of the last move, for the log (views.events): ``key``, the seat it
    concerns (-1: none) and its details as canonical JSON text."""

    key: str
    seat: int
    data: str

    def details(self) -> JSON:
        loaded: JSON = json.loads(self.data)
        return loaded


@dataclass(frozen=True)
class State:
    """The whole game. ``turn`` is the seat whose turn it is (solo: always 0, Gwidyon's turn
    runs inside ``apply``); ``round`` counts the start player's turns. ``supply`` holds the
    expansion tiles left (X1) and ``extra_fields`` the extra sanctuary fields left (X6).
    ``news`` describes what the last move did (views.events reads it)."""

    players: int
    seed: int
    counter: int
    expansion: bool
    advanced: bool
    phase: str
    turn: int
    round: int
    seats: tuple[Player, ...]
    market: tuple[str, ...]
    market_deck: tuple[str, ...]
    market_discard: tuple[str, ...]
    sanctuary: int
    start_dew: str
    new_dew: str
    die: str | None
    supply: tuple[tuple[str, int], ...]
    extra_fields: int
    end_triggered: bool = False
    walk: Walk | None = None
    pending: Pending | None = None
    gwidyon: Gwidyon | None = None
    news: tuple[Note, ...] = ()


# --- the two functions the outside checks call -------------------------------------------------


def sanctuary_capacity(players: int) -> int:
    """R1, S1: drops the Sanctuary of Life holds before it turns (solo: the 2-player hole)."""
    capacities = {1: 10, 2: 10, 3: 15, 4: 20}
    if isinstance(players, bool) or players not in capacities:
        raise ValueError("Mycelia is for 1 to 4 players")
    return capacities[players]


def field_matches(spec: dict[str, Any], field_type: str, drops: int) -> bool:
    """R13, R18: may a field function choose a field of ``field_type`` holding ``drops``?

    ``min`` (N): at least N drops (0: any count); ``exact`` (beetle, =N): exactly N;
    ``upto`` (transparent, ~N): at least 1 drop. A sanctuary field never matches; ``any``
    matches leaf litter, moss, water and earth.
    """
    if field_type == "sanctuary":
        return False
    kind = spec.get("type", "any")
    if kind != "any" and kind != field_type:
        return False
    wanted = spec.get("drops", 1)
    mode = spec.get("mode", "min")
    if mode == "exact":
        return drops == wanted
    if mode == "upto":
        return drops >= 1
    return drops >= wanted


# --- small queries -----------------------------------------------------------------------------


def solo(state: State) -> bool:
    return state.players == 1


def capacity(state: State) -> int:
    return sanctuary_capacity(state.players)


def field_type(player: Player, cell: Cell) -> str:
    """The field's type; an extra sanctuary field turns it into ``sanctuary`` (X6)."""
    if cell in player.extra:
        return "sanctuary"
    return BOARDS[player.board][cell[0]][cell[1]]


def drops_at(player: Player, cell: Cell) -> int:
    return player.drops[cell[0]][cell[1]]


def total_drops(player: Player) -> int:
    return sum(sum(row) for row in player.drops)


def neighbours(cell: Cell) -> tuple[Cell, ...]:
    """R15: the orthogonal neighbours on the board (no wrap-around)."""
    r, c = cell
    return tuple((r + dr, c + dc) for dr, dc in ORTHOGONAL
                 if 0 <= r + dr < ROWS and 0 <= c + dc < COLS)


def chosen_spec(part: dict[str, Any]) -> dict[str, Any]:
    """R13: the fields a field part may choose — its spec, except that a transparent removal
    followed by a neighbour's (Clathrus ruber, ``water~2:xxn``) may choose its field empty: the
    rulebook's "Quita hasta 2 gotas (si hay) de una casilla de agua y quita 1 gota (si hay) de
    cualquier casilla adyacente" says "(si hay)" of both removals, so a dry water field still
    lets you take a drop off its neighbour (the spec's reading, a drop needed, is overruled)."""
    spec: dict[str, Any] = part["field"]
    if spec["mode"] == "upto" and "remove_one_adjacent" in part["do"]:
        return {**spec, "drops": 0, "mode": "min"}
    return spec


def matching_fields(player: Player, spec: dict[str, Any]) -> tuple[Cell, ...]:
    """R13: the fields a field function may choose now."""
    return tuple(cell for cell in CELLS
                 if field_matches(spec, field_type(player, cell), drops_at(player, cell)))


def fields_with_drops(player: Player) -> tuple[Cell, ...]:
    return tuple(cell for cell in CELLS if drops_at(player, cell) > 0)


def supply_count(state: State, letter: str) -> int:
    return dict(state.supply).get(letter, 0)


def function_of(walk: Walk) -> dict[str, Any]:
    """The function a walk resolves: the card's ``play`` or ``once`` function."""
    card = card_def(walk.card)
    fn = card.once_fn if walk.fn == "once" else card.play_fn
    if fn is None:
        raise RuntimeError(f"{card.name} has no one-time effect")
    return fn


def parts(fn: dict[str, Any], option: int) -> list[dict[str, Any]]:
    """The parts to walk: the sequence, or the chosen alternative of an either-or (R11)."""
    if "or" in fn:
        return list(fn["or"][option]["seq"]) if option >= 0 else []
    return list(fn["seq"])


def others(state: State, seat: int) -> tuple[int, ...]:
    """B3: every other seat, clockwise from the one after ``seat``."""
    return tuple((seat + k) % state.players for k in range(1, state.players))


# --- randomness and small updates --------------------------------------------------------------


def _shuffled(state: State, label: str, cards: tuple[str, ...]) -> tuple[tuple[str, ...], State]:
    """Shuffle with the state's RNG and advance its counter."""
    deck = list(cards)
    seeded_rng(state.seed, label, state.counter).shuffle(deck)
    return tuple(deck), replace(state, counter=state.counter + 1)


def _note(state: State, key: str, seat: int = -1, **data: Any) -> State:
    note = Note(key, seat, json.dumps(data, sort_keys=True))
    return replace(state, news=(*state.news, note))


def _player(state: State, seat: int, player: Player) -> State:
    return replace(state, seats=(*state.seats[:seat], player, *state.seats[seat + 1:]))


def _add_drops(player: Player, cell: Cell, delta: int) -> Player:
    r, c = cell
    row = player.drops[r]
    new_row = (*row[:c], row[c] + delta, *row[c + 1:])
    return replace(player, drops=(*player.drops[:r], new_row, *player.drops[r + 1:]))


def _to_sanctuary(state: State, drops: int) -> State:
    """R19: removed drops go to the Sanctuary of Life, those beyond its capacity leave the
    game."""
    full_before = state.sanctuary >= capacity(state)
    state = replace(state, sanctuary=min(capacity(state), state.sanctuary + drops))
    if drops and not full_before and state.sanctuary >= capacity(state):
        state = _note(state, "sanctuary_full")
    return state


def _remove(state: State, seat: int, cell: Cell, count: int) -> State:
    """R16, R17, R19: take ``count`` drops off a field into the sanctuary; G1 is checked."""
    if count <= 0:
        return state
    state = _player(state, seat, _add_drops(state.seats[seat], cell, -count))
    state = _to_sanctuary(state, count)
    return _check_empty(state)


def _move(state: State, seat: int, origin: Cell, to: Cell) -> State:
    """R15, R18: move one drop to a neighbour; onto a sanctuary field it is removed (R19)."""
    player = _add_drops(state.seats[seat], origin, -1)
    into_sanctuary = field_type(player, to) == "sanctuary"
    if not into_sanctuary:
        player = _add_drops(player, to, 1)
    state = _player(state, seat, player)
    state = _note(state, "move", seat, origin=list(origin), to=list(to),
                  sanctuary=into_sanctuary)
    if into_sanctuary:
        state = _to_sanctuary(state, 1)
    return _check_empty(state)


def _check_empty(state: State) -> State:
    """G1 (S9): the end is triggered the moment a board holds no drop, whoever's turn it is."""
    if state.end_triggered:
        return state
    for seat, player in enumerate(state.seats):
        if total_drops(player) == 0:
            return _note(replace(state, end_triggered=True), "end_triggered", seat)
    if state.gwidyon is not None and state.gwidyon.drops == 0:
        return _note(replace(state, end_triggered=True), "end_triggered", -1, gwidyon=True)
    return state


def _reveal_market(state: State, count: int) -> State:
    """E2, R24: reveal up to ``count`` cards; an empty market deck is first rebuilt from the
    market discard; with both empty the market stays short."""
    market = list(state.market)
    revealed: list[str] = []
    for _ in range(count):
        if not state.market_deck:
            if not state.market_discard:
                break
            deck, state = _shuffled(state, "market", state.market_discard)
            state = replace(state, market_deck=deck, market_discard=())
            state = _note(state, "market_reshuffled")
        market.append(state.market_deck[0])
        revealed.append(state.market_deck[0])
        state = replace(state, market_deck=state.market_deck[1:])
    state = replace(state, market=tuple(market))
    if revealed:
        state = _note(state, "market_revealed", cards=revealed)
    return state


def _wipe_market(state: State) -> State:
    """R24 (tile a), S3 (g_market): every face-up card to the market discard, 5 new ones."""
    state = replace(state, market=(), market_discard=(*state.market_discard, *state.market))
    return _reveal_market(state, MARKET_SIZE)


def _draw(state: State, seat: int, count: int) -> State:
    """E4: draw ``count``; with too few cards the discard pile is shuffled UNDER the rest."""
    player = state.seats[seat]
    if len(player.draw) < count and player.discard:
        under, state = _shuffled(state, f"discard{seat}", player.discard)
        player = replace(player, draw=(*player.draw, *under), discard=())
        state = _note(state, "reshuffled", seat)
    drawn = player.draw[:count]
    player = replace(player, hand=(*player.hand, *drawn), draw=player.draw[count:],
                     known=max(0, player.known - len(drawn)))
    state = _player(state, seat, player)
    return _note(state, "drew", seat, cards=list(drawn))


# --- setup -------------------------------------------------------------------------------------


def _start_cards(seat: int) -> tuple[str, ...]:
    """R5: the 6 starting cards of the seat's rune (instances numbered across the game)."""
    return tuple(card_id(card.id, seat * card.copies + k)
                 for card in STARTING_DECK for k in range(1, card.copies + 1))


def _hero_cards(defs: tuple[CardDef, ...]) -> tuple[str, ...]:
    return tuple(card_id(card.id, k) for card in defs for k in range(1, card.copies + 1))


def setup(players: int, options: BaseModel | JSON | None, seed: int) -> State:
    """R1–R8, S1, V1–V2, X1: the table before the first turn."""
    if isinstance(players, bool) or not isinstance(players, int) or not 1 <= players <= 4:
        raise ValueError("Mycelia is for 1 to 4 players (R6)")
    opts = options if isinstance(options, Options) else Options.model_validate(
        options.model_dump() if isinstance(options, BaseModel) else (options or {}))
    rng = seeded_rng(seed, "setup")
    sides = sorted(START_DEW)
    start_dew = rng.choice(sides)                      # R2
    new_dew = rng.choice(sorted(NEW_DEW))              # R3: a table and a side, uniformly
    boards = list(ADVANCED_BOARDS)
    rng.shuffle(boards)                                # V1, V2
    state = State(
        players=players,
        seed=seed,
        counter=0,
        expansion=opts.expansion,
        advanced=opts.advanced_boards,
        phase=MAIN,
        turn=0,
        round=1,
        seats=(),
        market=(),
        market_deck=(),
        market_discard=(),
        sanctuary=0,
        start_dew=start_dew,
        new_dew=new_dew,
        die=None,
        supply=tuple((letter, TILES[letter].count if opts.expansion else 0)
                     for letter in sorted(TILES) if letter not in STARTING_TILES),
        extra_fields=EXTRA_SANCTUARY_FIELDS if opts.expansion else 0,
    )
    heroes = _hero_cards(BASE_CARDS) + (_hero_cards(EXP_CARDS) if opts.expansion else ())
    deck, state = _shuffled(state, "market", heroes)  # R4
    state = replace(state, market_deck=deck)
    seats = []
    for seat in range(players):
        draw, state = _shuffled(state, f"start{seat}", _start_cards(seat))
        seats.append(Player(
            board=boards[seat] if opts.advanced_boards else "front",
            drops=START_DEW[start_dew],
            leaves=0,
            tiles=STARTING_TILES,
            used=(False,) * len(STARTING_TILES),
            hand=draw[:HAND_SIZE],
            draw=draw[HAND_SIZE:],
            discard=(),
        ))
    state = replace(state, seats=tuple(seats))
    state = _reveal_market(state, MARKET_SIZE)
    if players == 1:
        solo_deck, state = _shuffled(state, "solo", tuple(card.id for card in SOLO_CARDS))
        state = replace(state, gwidyon=Gwidyon(opts.gwidyon_drops, REMOVE, solo_deck))
    return replace(state, news=())


# --- the resolution walk -----------------------------------------------------------------------


def _ask(state: State, pending: Pending) -> State:
    return replace(state, pending=pending, phase=PROMPT)


def _walk(state: State, **changes: Any) -> State:
    assert state.walk is not None
    return replace(state, walk=replace(state.walk, **changes))


def _next_part(state: State) -> State:
    assert state.walk is not None
    return _walk(state, part=state.walk.part + 1, actor=-1, rep=0, anchor=None, step=0)


def _actor_done(state: State, part: dict[str, Any]) -> State:
    """The actor finished this part: a bonus part passes to the next other seat (B3)."""
    walk = state.walk
    assert walk is not None
    if part["bonus"]:
        following = others(state, walk.owner)
        index = following.index(walk.actor) + 1
        if index < len(following):
            return _walk(state, actor=following[index], rep=0, anchor=None, step=0)
    return _next_part(state)


def _finish_walk(state: State) -> State:
    """The function is resolved. A recruited card now goes on top of the draw pile (R21, X3)."""
    walk = state.walk
    assert walk is not None
    state = replace(state, walk=None)
    if walk.fn == "once":
        state = _onto_draw_pile(state, walk.owner, walk.card)
    return state


def _onto_draw_pile(state: State, seat: int, card: str) -> State:
    """R21: a bought card lies face down on top of the draw pile; its owner knows it (R8)."""
    player = state.seats[seat]
    state = _player(state, seat, replace(player, draw=(card, *player.draw),
                                         known=player.known + 1))
    return _note(state, "on_draw_pile", seat, card=card)


def _pending_base(walk: Walk, part: dict[str, Any] | None, kind: str, seat: int,
                  options: tuple[Any, ...], **extra: Any) -> Pending:
    return Pending(
        seat=seat,
        kind=kind,
        bonus=bool(part and part["bonus"]),
        card=walk.card,
        fn=walk.fn,
        part=walk.part,
        rep=max(walk.rep, 1),
        reps=part.get("times", 1) if part else 1,
        options=options,
        **extra,
    )


def _step(state: State) -> State:
    """One step of the walk: resolve what needs no decision, or stop at a prompt (R10–R19)."""
    walk = state.walk
    assert walk is not None
    fn = function_of(walk)
    if "or" in fn and walk.option < 0:
        if walk.rest_skipped:
            return _finish_walk(state)
        return _ask(state, _pending_base(walk, None, "choose_option", walk.owner,
                                         tuple(range(len(fn["or"])))))
    seq = parts(fn, walk.option)
    if walk.part >= len(seq):
        return _finish_walk(state)
    part = seq[walk.part]
    bonus = bool(part["bonus"])
    if walk.rest_skipped and not bonus:
        return _next_part(state)
    if "gain" in part:
        return _next_part(_gain(state, part))
    if bonus and solo(state):
        return _next_part(_gwidyon_bonus(state, part))
    if walk.actor < 0:
        followers = others(state, walk.owner)
        if bonus and not followers:
            return _next_part(state)
        return _walk(state, actor=followers[0] if bonus else walk.owner)
    if "field" in part:
        return _field_step(state, part)
    if "trash" in part:
        cards = state.seats[walk.actor].discard
        if not cards:                                      # X2: nothing to remove
            return _actor_done(_note(state, "no_card", walk.actor, card=walk.card), part)
        return _ask(state, _pending_base(walk, part, "trash", walk.actor, tuple(cards)))
    if "tile" in part:
        return _take_tile(state, part)
    if "sanctuary" in part:
        player = state.seats[walk.actor]
        options = tuple(cell for cell in CELLS if field_type(player, cell) != "sanctuary"
                        and drops_at(player, cell) == 1)
        if state.extra_fields <= 0 or not options:
            return _actor_done(state, part)
        return _ask(state, _pending_base(walk, part, "sanctuary_field", walk.actor, options,
                                         can_skip=False))
    raise RuntimeError(f"unknown part {part}")


def _gain(state: State, part: dict[str, Any]) -> State:
    """R12, B2: gains are automatic; a bonus gain goes to every other seat (S8: not Gwidyon)."""
    walk = state.walk
    assert walk is not None
    leaves = part["gain"]
    seats = others(state, walk.owner) if part["bonus"] else (walk.owner,)
    for seat in seats:
        player = state.seats[seat]
        state = _player(state, seat, replace(player, leaves=player.leaves + leaves))
        state = _note(state, "gained", seat, leaves=leaves, card=walk.card,
                      bonus=bool(part["bonus"]))
    return state


def _removal_count(part: dict[str, Any]) -> int:
    """S8: the drops one repetition of a removal part takes off Gwidyon, at most."""
    do = part["do"]
    spec = part["field"]
    xs = do.count("remove")
    if spec["mode"] == "upto" and xs:
        xs = spec["drops"]
    return (xs + do.count("remove_one_adjacent") + do.count("clear_adjacent")
            + 4 * do.count("remove_each_adjacent"))


def _gwidyon_bonus(state: State, part: dict[str, Any]) -> State:
    """S8: your bonus parts act on Gwidyon at once: removals remove, moves flip the token,
    leaves do nothing (a bonus trash, tile or sanctuary part does nothing to him)."""
    if "field" not in part:
        return state
    times = part.get("times", 1)
    moves = part["do"].count("move")
    if moves:
        for _ in range(times * moves):
            state = _flip_token(state)
        return state
    return _gwidyon_removes(state, times * _removal_count(part))


def _field_step(state: State, part: dict[str, Any]) -> State:
    """R13–R17 for the actor of a field part: choose a field per repetition, then its effects."""
    walk = state.walk
    assert walk is not None
    player = state.seats[walk.actor]
    if walk.anchor is None:
        if walk.rep + 1 > part["times"]:
            return _actor_done(state, part)
        spec = chosen_spec(part)
        options = matching_fields(player, spec)
        if not options:                                     # R13, R14: the function lapses
            if walk.rep == 0:
                state = _note(state, "lapsed", walk.actor, card=walk.card,
                              spec=[spec["type"], spec["drops"], spec["mode"]],
                              bonus=bool(part["bonus"]))
            return _actor_done(state, part)
        removes = part["do"].count("remove")
        pending = _pending_base(replace(walk, rep=walk.rep + 1), part, "choose_field",
                                walk.actor, options, max=max(1, removes),
                                spec=(spec["type"], spec["drops"], spec["mode"]))
        return _ask(state, pending)
    do = part["do"]
    if walk.step >= len(do):
        return _walk(state, anchor=None, step=0)
    effect = do[walk.step]
    anchor = walk.anchor
    if effect == "move":
        if drops_at(player, anchor) == 0:
            return _walk(state, step=len(do))
        return _ask(state, _pending_base(walk, part, "move_drop", walk.actor,
                                         neighbours(anchor), origin=anchor))
    if effect == "remove":
        return _walk(state, step=walk.step + 1)
    if effect == "remove_each_adjacent":
        hit = [cell for cell in neighbours(anchor) if drops_at(player, cell) > 0]
        for cell in hit:
            state = _remove(state, walk.actor, cell, 1)
        state = _note(state, "removed_around", walk.actor, anchor=list(anchor),
                      cells=[list(cell) for cell in hit])
        return _walk(state, step=walk.step + 1)
    options = tuple(cell for cell in neighbours(anchor) if drops_at(player, cell) > 0)
    if not options:
        return _walk(state, step=walk.step + 1)
    return _ask(state, _pending_base(walk, part, "adjacent", walk.actor, options,
                                     origin=anchor, effect=effect))


def _take_tile(state: State, part: dict[str, Any]) -> State:
    """X4, X5: take the tile from the supply; with 4 tiles already, a prompt first."""
    walk = state.walk
    assert walk is not None
    letter = part["tile"]
    if supply_count(state, letter) <= 0:
        return _actor_done(_note(state, "no_tile", walk.actor, tile=letter), part)
    player = state.seats[walk.actor]
    if len(player.tiles) >= MAX_TILES:
        return _ask(state, _pending_base(walk, part, "discard_tile", walk.actor,
                                         tuple(sorted(set(player.tiles)))))
    return _actor_done(_gain_tile(state, walk.actor, letter), part)


def _gain_tile(state: State, seat: int, letter: str) -> State:
    """X4: the new tile is unused and may be used this same turn."""
    player = state.seats[seat]
    state = _player(state, seat, replace(player, tiles=(*player.tiles, letter),
                                         used=(*player.used, False)))
    supply = tuple((tile, count - (tile == letter)) for tile, count in state.supply)
    return _note(replace(state, supply=supply), "took_tile", seat, tile=letter)


def _return_tile(state: State, seat: int, letter: str) -> State:
    """X5: of two copies, the one already used this turn goes back to the box first."""
    player = state.seats[seat]
    copies = [i for i, tile in enumerate(player.tiles) if tile == letter]
    used = [i for i in copies if player.used[i]]
    index = used[0] if used else copies[0]
    player = replace(player, tiles=player.tiles[:index] + player.tiles[index + 1:],
                     used=player.used[:index] + player.used[index + 1:])
    return _note(_player(state, seat, player), "returned_tile", seat, tile=letter)


def _advance(state: State) -> State:
    """Run the walk until a decision is needed or it is resolved."""
    while state.walk is not None and state.pending is None and state.phase != OVER:
        state = _step(state)
    if state.pending is None and state.phase == PROMPT:
        state = replace(state, phase=MAIN)
    return state


# --- end of turn, rotation and Gwidyon ---------------------------------------------------------


def _rotate(state: State, seats: tuple[int, ...]) -> State:
    """E3 (S6): roll the die, new dew on each seat's cells of the rolled face (not on a
    sanctuary field), turn the table over, empty the sanctuary."""
    face = DIE_FACES[seeded_rng(state.seed, "die", state.counter).randrange(len(DIE_FACES))]
    state = replace(state, counter=state.counter + 1, die=face)
    side = state.new_dew
    state = _note(state, "rotated", face=face, side=side)
    for seat in seats:
        player = state.seats[seat]
        cells = [cell for cell in NEW_DEW[side][face] if field_type(player, cell) != "sanctuary"]
        for cell in cells:
            player = _add_drops(player, cell, 1)
        state = _note(_player(state, seat, player), "new_dew", seat,
                      cells=[list(cell) for cell in cells])
    state = replace(state, new_dew=NEW_DEW_BACK[side], sanctuary=0)
    return _note(state, "table_turned", side=NEW_DEW_BACK[side])


def _after_any_turn(state: State) -> State:
    """E2 and E3 (S6): refill the market; turn a full sanctuary unless the end is triggered
    (G2); at most one rotation per turn."""
    state = _reveal_market(state, MARKET_SIZE - len(state.market))
    if not state.end_triggered and state.sanctuary >= capacity(state):
        seats = (0,) if solo(state) else tuple(range(state.players))
        state = _rotate(state, seats)
    return state


def _end_turn(state: State) -> State:
    """E1–E6 (S2, S6, S9, G3): after the player's turn, the next seat's (or Gwidyon's)."""
    seat = state.turn
    state = _note(state, "ended_turn", seat)
    state = _after_any_turn(state)
    last = state.end_triggered and (solo(state) or seat == state.players - 1)   # S9, G3
    if not last:
        state = _draw(state, seat, HAND_SIZE)                    # E4
    player = state.seats[seat]
    state = _player(state, seat, replace(player, used=(False,) * len(player.tiles)))  # E5
    if last:
        return _game_over(state)
    if stalled(state):                                            # X2 (decision)
        return _game_over(_note(state, "stalled"))
    if solo(state):
        return _gwidyon_turn(state)
    following = (seat + 1) % state.players                        # E6
    return replace(state, turn=following, round=state.round + (following == 0))


def _game_over(state: State) -> State:
    state = replace(state, phase=OVER, pending=None, walk=None)
    return _note(state, "game_over")


def _flip_token(state: State) -> State:
    """S4: turn the token over; on the remove side Gwidyon removes 1 drop at once."""
    gw = state.gwidyon
    assert gw is not None
    side = BLANK if gw.token == REMOVE else REMOVE
    state = _note(replace(state, gwidyon=replace(gw, token=side)), "token", side=side)
    if side == REMOVE:
        state = _gwidyon_removes(state, 1)
    return state


def _gwidyon_removes(state: State, count: int) -> State:
    """S5: Gwidyon removes min(n, his drops) into the sanctuary (R19)."""
    gw = state.gwidyon
    assert gw is not None
    taken = min(count, gw.drops)
    state = replace(state, gwidyon=replace(gw, drops=gw.drops - taken))
    state = _note(state, "gwidyon_removed", count=taken, left=gw.drops - taken)
    state = _to_sanctuary(state, taken)
    return _check_empty(state)


def _gwidyon_turn(state: State) -> State:
    """S3: reveal the top solo card and carry it out."""
    gw = state.gwidyon
    assert gw is not None
    card = gw.deck[0]
    state = replace(state, gwidyon=replace(gw, deck=gw.deck[1:], revealed=(*gw.revealed, card)))
    state = _note(state, "gwidyon_revealed", card=card)
    return _gwidyon_effects(state, 0)


def _gwidyon_effects(state: State, start: int) -> State:
    """S3: the revealed card's effects in order; ``g_move`` asks the player (solo_move)."""
    gw = state.gwidyon
    assert gw is not None
    card = SOLO_BY_ID[gw.revealed[-1]]
    for index in range(start, len(card.effects)):
        ((kind, value),) = card.effects[index].items()
        if kind == "flip":
            for _ in range(value):
                state = _flip_token(state)
        elif kind == "gw_remove":
            state = _gwidyon_removes(state, value)
        elif kind == "market_wipe":
            state = _note(state, "gwidyon_wiped")
            state = _wipe_market(state)
        elif kind == "you_gain":
            player = state.seats[0]
            state = _player(state, 0, replace(player, leaves=player.leaves + value))
            state = _note(state, "gained", 0, leaves=value, card="", bonus=False)
        elif kind == "you":
            (part,) = parse_fn(value)["seq"]
            options = tuple(cell for cell in matching_fields(state.seats[0], part["field"])
                            if drops_at(state.seats[0], cell) > 0)
            if options:
                assert state.gwidyon is not None
                state = replace(state, gwidyon=replace(state.gwidyon, next_effect=index + 1))
                return _ask(state, Pending(seat=0, kind="solo_move", bonus=False, card=card.id,
                                           fn="solo", part=index, rep=1, reps=1,
                                           options=options, can_skip=False))
    return _after_gwidyon(state)


def _after_gwidyon(state: State) -> State:
    """S3 (reshuffle after the 5th card), S6, S9: the end of Gwidyon's turn."""
    gw = state.gwidyon
    assert gw is not None
    state = replace(state, gwidyon=replace(gw, next_effect=-1), pending=None, phase=MAIN)
    if len(gw.deck) == 1:
        deck, state = _shuffled(state, "solo", tuple(card.id for card in SOLO_CARDS))
        assert state.gwidyon is not None
        state = replace(state, gwidyon=replace(state.gwidyon, deck=deck, revealed=()))
        state = _note(state, "gwidyon_shuffled")
    state = _after_any_turn(state)
    if state.end_triggered:
        return _game_over(state)
    return replace(state, turn=0, round=state.round + 1)


# --- moves -------------------------------------------------------------------------------------


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


#: A move's fields that name a field of the board, in words: not a row and column, not on the
#: board.
_CELL_WORDS: dict[str, tuple[str, str]] = {
    "from": (N_("the field the drop leaves is a field given as its row and column"),
             N_("the field the drop leaves is not a field of the board")),
    "to": (N_("the field is a field given as its row and column"),
           N_("the field is not a field of the board")),
    "cell": (N_("the field is a field given as its row and column"),
             N_("the field is not a field of the board")),
    "to2": (N_("the second field is a field given as its row and column"),
            N_("the second field is not a field of the board")),
}


def _cell(value: object, what: str) -> Cell:
    """The field a move names in its field ``what`` (``from``, ``to``, ``to2``, ``cell``)."""
    shape, off = _CELL_WORDS[what]
    if (not isinstance(value, list | tuple) or len(value) != 2
            or not all(_is_int(x) for x in value)):
        raise IllegalMove(Msg(shape), "move format")
    r, c = value[0], value[1]
    if not (0 <= r < ROWS and 0 <= c < COLS):
        raise IllegalMove(Msg(off), "move format")
    return (r, c)


def card_msg(card: str) -> Msg:
    """A card's name in words: a starting card's name is translated, a hero's Latin name is
    shown as it is."""
    return Msg(card_def(card).name)


def _known_card(value: object) -> str:
    if not isinstance(value, str):
        raise IllegalMove(Msg("a card is named by its card id"), "move format")
    try:
        card_def(value)
    except ValueError:
        raise IllegalMove(Msg("there is no such card"), "move format") from None
    return value


def parse_move(move: object) -> str:
    """The move's type after checking its shape (the spec's "Digital moves")."""
    if not isinstance(move, dict):
        raise IllegalMove(Msg("a move is a JSON object with a type"), "move format")
    kind = move.get("type")
    if not isinstance(kind, str) or kind not in MOVE_FIELDS:
        raise IllegalMove(Msg("unknown move type: a move is one of {types}",
                              {"types": ", ".join(MOVE_TYPES)}), "move format")
    extra = sorted(set(move) - MOVE_FIELDS[kind])
    if extra:
        raise IllegalMove(Msg("this move has no {fields}", {"fields": extra}), "move format")
    missing = sorted(_REQUIRED[kind] - set(move))
    if missing:
        raise IllegalMove(Msg("this move needs {fields}", {"fields": missing}), "move format")
    return kind


def active_seats(state: State) -> frozenset[int]:
    """R6, B3: the seat answering the pending prompt, else the seat whose turn it is."""
    if state.phase == OVER:
        return frozenset()
    if state.pending is not None:
        return frozenset({state.pending.seat})
    return frozenset({state.turn})


def apply(state: State, seat: int, move: Move) -> State:
    """Check and play ``move`` for ``seat``; the walk, the end of the turn and Gwidyon's turn
    run on until the next decision."""
    kind = parse_move(move)
    if not _is_int(seat) or not 0 <= seat < state.players:
        raise IllegalMove(Msg("there is no such seat at this table"), "R6")
    if state.phase == OVER:
        raise IllegalMove(Msg("the game is over"), "G3")
    state = replace(state, news=())
    pending = state.pending
    if pending is not None:
        if seat != pending.seat:
            if pending.bonus:
                raise IllegalMove(Msg("the table waits for another player's answer to a bonus"),
                                  "B3")
            raise IllegalMove(Msg("it is not your turn"), "R6")
        state = _answer(state, seat, kind, move, pending)
    else:
        if seat != state.turn:
            raise IllegalMove(Msg("it is not your turn"), "R6")
        state = _main_move(state, seat, kind, move)
    return _advance(state)


def _main_move(state: State, seat: int, kind: str, move: Move) -> State:
    player = state.seats[seat]
    if kind in ("choose_option", "choose_field", "move_drop", "trash", "discard_tile", "skip"):
        raise IllegalMove(Msg("there is nothing to answer now: play a card, recruit, use an "
                              "action tile or end your turn"), "R10")
    if kind == "play":
        card = _known_card(move["card"])
        if card not in player.hand:
            raise IllegalMove(Msg("{card} is not in your hand", {"card": card_msg(card)}), "R10")
        hand = list(player.hand)
        hand.remove(card)
        state = _player(state, seat, replace(player, hand=tuple(hand),
                                             discard=(*player.discard, card)))
        state = _note(state, "played", seat, card=card)
        return replace(state, walk=Walk(owner=seat, card=card, fn="play"))
    if kind == "buy":
        card = _known_card(move["card"])
        if card not in state.market:
            raise IllegalMove(Msg("{card} is not in the market", {"card": card_msg(card)}),
                              "R20")
        cost = card_def(card).cost
        if player.leaves < cost:
            raise IllegalMove(Msg("{card} costs {cost} leaves and you have {have}",
                                  {"card": card_msg(card), "cost": cost,
                                   "have": player.leaves}), "R20")
        market = tuple(c for c in state.market if c != card)
        state = _player(replace(state, market=market), seat,
                        replace(player, leaves=player.leaves - cost))
        state = _note(state, "bought", seat, card=card, cost=cost)
        if card_def(card).once_fn is not None:
            return replace(state, walk=Walk(owner=seat, card=card, fn="once"))   # X3
        return _onto_draw_pile(state, seat, card)
    if kind == "tile":
        return _use_tile(state, seat, move)
    if kind == "end_turn":
        if player.hand and not (solo(state) and total_drops(player) == 0):
            raise IllegalMove(Msg("play every card in your hand before you end your turn"),
                              "R10")
        return _end_turn(state)
    raise IllegalMove(Msg("unknown move"), "move format")


def _use_tile(state: State, seat: int, move: Move) -> State:
    """R23–R25, X8: use an owned, unused tile, paying its cost first."""
    letter = move["tile"]
    if not isinstance(letter, str) or letter not in TILES:
        raise IllegalMove(Msg("the action tiles are a, b, c, d and e"), "move format")
    player = state.seats[seat]
    if letter not in player.tiles:
        raise IllegalMove(Msg("you have no action tile {tile}", {"tile": letter}), "R23")
    free = [i for i, tile in enumerate(player.tiles) if tile == letter and not player.used[i]]
    if not free:
        raise IllegalMove(Msg("you already used action tile {tile} this turn",
                              {"tile": letter}), "R23")
    cost = TILES[letter].cost
    if player.leaves < cost:
        raise IllegalMove(plural("action tile {tile} costs {n} leaf and you have {have}",
                                 "action tile {tile} costs {n} leaves and you have {have}", "n",
                                 tile=letter, n=cost, have=player.leaves), "R23")
    unexpected = {"a": ("from", "to", "to2", "cell", "card"), "b": ("to2", "cell", "card"),
                  "c": ("cell", "card"), "d": ("from", "to", "to2", "card"),
                  "e": ("from", "to", "to2", "cell")}[letter]
    if any(move.get(key) is not None for key in unexpected):
        raise IllegalMove(Msg("action tile {tile} takes other details", {"tile": letter}),
                          "move format")
    paid = replace(player, leaves=player.leaves - cost,
                   used=tuple(u or i == free[0] for i, u in enumerate(player.used)))
    if letter == "a":
        state = _note(_player(state, seat, paid), "tile", seat, tile=letter)
        return _wipe_market(state)
    if letter in ("b", "c"):
        if "from" not in move or "to" not in move:
            raise IllegalMove(Msg("action tile {tile} needs a drop to move and where to",
                                  {"tile": letter}), "move format")
        origin, to = _cell(move["from"], "from"), _cell(move["to"], "to")
        if drops_at(player, origin) == 0:
            raise IllegalMove(Msg("there is no drop on that field"), "R15")
        if to not in neighbours(origin):
            raise IllegalMove(_ONE_FIELD, "R15")
        second = move.get("to2")
        to2 = None if second is None else _cell(second, "to2")
        if letter == "c":
            left = drops_at(player, origin) - 1
            if left > 0 and to2 is None:
                raise IllegalMove(Msg("another drop is on that field: it moves 1 field too"),
                                  "R25")
            if left == 0 and to2 is not None:
                raise IllegalMove(Msg("no other drop is on that field to move"), "R25")
            if to2 is not None and to2 not in neighbours(origin):
                raise IllegalMove(Msg("the second drop also moves exactly 1 field up, down, "
                                      "left or right"), "R25")
        state = _note(_player(state, seat, paid), "tile", seat, tile=letter)
        state = _move(state, seat, origin, to)
        if to2 is not None:
            state = _move(state, seat, origin, to2)
        return state
    if letter == "d":
        if "cell" not in move:
            raise IllegalMove(Msg("action tile d needs the field to remove a drop from"),
                              "move format")
        cell = _cell(move["cell"], "cell")
        if drops_at(player, cell) == 0:
            raise IllegalMove(Msg("there is no drop on that field"), "X8")
        state = _note(_player(state, seat, paid), "tile", seat, tile=letter)
        state = _note(state, "removed", seat, cell=list(cell), count=1)
        return _remove(state, seat, cell, 1)
    if move.get("card") is None:                  # X2, X8: "or none" (rules version 2)
        state = _note(_player(state, seat, paid), "tile", seat, tile=letter)
        return _note(state, "trashed_none", seat)
    card = _known_card(move["card"])
    if card not in player.discard:
        raise IllegalMove(Msg("{card} is not in your discard pile", {"card": card_msg(card)}),
                          "X8")
    state = _note(_player(state, seat, paid), "tile", seat, tile=letter)
    return _trash(state, seat, card)


def out_of_play(state: State, player: Player) -> bool:
    """X2 (decision): the player owns no card and can never get one or touch a drop again:
    no market card they can pay, none after a market wipe (tile a) either, and no leaves for
    an action tile that moves or removes a drop (b, c, d). Without cards nobody gains leaves."""
    if player.hand or player.draw or player.discard:
        return False
    leaves = player.leaves
    if any(TILES[tile].cost <= leaves for tile in player.tiles if tile in ("b", "c", "d")):
        return False
    if any(card_def(card).cost <= leaves for card in state.market):
        return False
    if "a" in player.tiles:
        pool = (*state.market, *state.market_deck, *state.market_discard)
        cheapest = min((card_def(card).cost for card in pool), default=leaves + 1)
        if TILES["a"].cost + cheapest <= leaves:
            return False
    return True


def stalled(state: State) -> bool:
    """X2 (decision): no board can ever be emptied — every player of a table of several is
    :func:`out_of_play` and no board is empty. Solo never stalls (Gwidyon removes drops)."""
    return (not solo(state) and not state.end_triggered
            and all(out_of_play(state, player) for player in state.seats))


def _trash(state: State, seat: int, card: str) -> State:
    """X2: a card of the discard pile leaves the game."""
    player = state.seats[seat]
    discard = list(player.discard)
    discard.remove(card)
    state = _player(state, seat, replace(player, discard=tuple(discard),
                                         removed=(*player.removed, card)))
    return _note(state, "trashed", seat, card=card)


def _answer(state: State, seat: int, kind: str, move: Move, pending: Pending) -> State:
    """Answer the pending prompt ("Digital moves", Prompts)."""
    if kind not in ANSWERS[pending.kind]:
        if kind in _WHILE_RESOLVING:
            raise IllegalMove(Msg("{card} is still resolving: {prompt}",
                                  {"card": source_msg(pending),
                                   "prompt": prompt_msg(state, pending)}),
                              _WHILE_RESOLVING[kind])
        raise IllegalMove(Msg("first {prompt}", {"prompt": prompt_msg(state, pending)}),
                          _prompt_rule(pending))
    state = replace(state, pending=None, phase=MAIN)
    if kind == "skip":
        return _skip(state, seat, move, pending)
    if pending.kind == "solo_move":
        origin = _cell(move["from"], "from")
        to = _cell(move["to"], "to")
        if origin not in pending.options:
            raise IllegalMove(Msg("choose a field with a drop on your board"), "S3")
        if to not in neighbours(origin):
            raise IllegalMove(_ONE_FIELD, "R15")
        state = _move(state, 0, origin, to)
        gw = state.gwidyon
        assert gw is not None
        return _gwidyon_effects(state, gw.next_effect)
    walk = state.walk
    assert walk is not None
    if pending.kind == "choose_option":
        option = move["option"]
        if not _is_int(option) or option not in pending.options:
            raise IllegalMove(Msg("choose one of the two alternatives"), "R11")
        state = _note(state, "chose_option", seat, card=walk.card, fn=walk.fn, option=option)
        return _walk(state, option=option)
    if pending.kind == "choose_field":
        cell = _cell(move["cell"], "cell")
        if cell not in pending.options:
            raise IllegalMove(Msg("that field does not fit: {prompt}",
                                  {"prompt": prompt_msg(state, pending)}), "R13")
        player = state.seats[seat]
        most = min(_removes(state, pending), drops_at(player, cell))
        count = move.get("count")
        if count is None:
            count = most
        elif _removes(state, pending) == 0:
            raise IllegalMove(Msg("only a removal takes a number of drops"), "R16")
        elif not _is_int(count) or not 1 <= count <= most:
            raise IllegalMove(plural("remove from 1 to {n} drop there",
                                     "remove from 1 to {n} drops there", "n", n=most), "R16")
        state = _walk(state, rep=pending.rep, anchor=cell, step=_removes(state, pending))
        if count:
            state = _note(state, "removed", seat, cell=list(cell), count=count)
            state = _remove(state, seat, cell, count)
        else:
            state = _note(state, "chose", seat, cell=list(cell), card=pending.card,
                          drops=drops_at(player, cell))
        return state
    if pending.kind == "move_drop":
        origin = _cell(move["from"], "from")
        to = _cell(move["to"], "to")
        if origin != pending.origin:
            raise IllegalMove(Msg("the drop leaves the field you chose"), "R15")
        if to not in pending.options:
            raise IllegalMove(_ONE_FIELD, "R15")
        state = _move(state, seat, origin, to)
        return _walk(state, step=walk.step + 1)
    if pending.kind == "adjacent":
        cell = _cell(move["cell"], "cell")
        if cell not in pending.options:
            raise IllegalMove(Msg("choose a neighbouring field with a drop"), "R17")
        count = 1 if pending.effect == "remove_one_adjacent" else drops_at(state.seats[seat],
                                                                           cell)
        state = _note(state, "removed", seat, cell=list(cell), count=count)
        state = _remove(state, seat, cell, count)
        return _walk(state, step=walk.step + 1)
    part = parts(function_of(walk), walk.option)[walk.part]
    if pending.kind == "trash":
        card = _known_card(move["card"])
        if card not in pending.options:
            raise IllegalMove(Msg("{card} is not in your discard pile",
                                  {"card": card_msg(card)}), "X2")
        return _actor_done(_trash(state, seat, card), part)
    if pending.kind == "discard_tile":
        letter = move["tile"]
        if not isinstance(letter, str) or letter not in pending.options:
            raise IllegalMove(Msg("return one of your own action tiles"), "X5")
        state = _return_tile(state, seat, letter)
        return _actor_done(_gain_tile(state, seat, part["tile"]), part)
    # sanctuary_field (X6)
    cell = _cell(move["cell"], "cell")
    if cell not in pending.options:
        raise IllegalMove(Msg("choose a field with exactly 1 drop"), "X6")
    player = state.seats[seat]
    state = _player(state, seat, replace(player, extra=(*player.extra, cell)))
    state = replace(state, extra_fields=state.extra_fields - 1)
    state = _note(state, "extra_sanctuary", seat, cell=list(cell), was=field_type(player, cell))
    state = _remove(state, seat, cell, 1)
    return _actor_done(state, part)


def _removes(state: State, pending: Pending) -> int:
    """R16: the ``x`` symbols of the part behind a choose_field prompt."""
    walk = state.walk
    assert walk is not None
    part = parts(function_of(walk), walk.option)[pending.part]
    return int(part["do"].count("remove"))


def _skip(state: State, seat: int, move: Move, pending: Pending) -> State:
    """``skip`` (and ``skip`` with ``rest``): forgo what the prompt offers (R11, R14, B1)."""
    rest = move.get("rest")
    if rest not in (None, False, True):
        raise IllegalMove(Msg("rest is true or false"), "move format")
    if not pending.can_skip:
        raise IllegalMove(Msg("this cannot be skipped: {prompt}",
                              {"prompt": prompt_msg(state, pending)}),
                          "S3" if pending.kind == "solo_move" else "X6")
    if pending.kind == "solo_move":
        if rest:
            raise IllegalMove(Msg("Gwidyon's card has nothing more to skip"), "S3")
        return _after_gwidyon(state)
    walk = state.walk
    assert walk is not None
    if rest:
        if pending.bonus or seat != walk.owner:
            raise IllegalMove(Msg("only the player whose card it is may skip the rest of it"),
                              "B1")
        state = _note(state, "skipped", seat, card=walk.card, kind="rest", n=0,
                      left=left_after_rest(state))
        state = _walk(state, rest_skipped=True)
        if pending.kind == "choose_option":
            return _finish_walk(state)
        return _next_part(state)
    if pending.bonus and pending.kind == "choose_field":
        state = _note(state, "bonus_passed", seat, card=walk.card)
    elif pending.kind != "discard_tile":
        kind, n = skipped(state, pending)
        state = _note(state, "skipped", seat, card=walk.card, kind=kind, n=n,
                      left=after_skip(state, pending))
    if pending.kind == "choose_option":
        return _finish_walk(state)
    part = parts(function_of(walk), walk.option)[walk.part]
    if pending.kind in ("choose_field", "trash", "discard_tile"):
        if pending.kind == "discard_tile":
            state = _note(state, "declined_tile", seat, tile=part["tile"])
        return _actor_done(state, part)
    if pending.kind == "move_drop":
        return _walk(state, anchor=None, step=0)
    return _walk(state, step=walk.step + 1)      # adjacent


def skipped(state: State, pending: Pending) -> tuple[str, int]:
    """What a plain ``skip`` of ``pending`` forgoes (R11, R14): the kind of prompt and how
    many: the repetitions of the field part left (this one included), the moves left of this
    repetition, 1 otherwise."""
    walk = state.walk
    if pending.kind == "choose_field":
        return "choose_field", pending.reps - pending.rep + 1
    if pending.kind == "move_drop" and walk is not None:
        part = parts(function_of(walk), walk.option)[walk.part]
        return "move_drop", part["do"].count("move") - walk.step
    return pending.kind, 1


def after_skip(state: State, pending: Pending) -> str:
    """What is left of the card for its owner after a plain ``skip`` of ``pending``: "more"
    (a repetition, a neighbour effect or a part of the owner's), "bonus" (only parts for the
    other players, which still come, B1) or "nothing". A bonus answer: "more"."""
    walk = state.walk
    if walk is None or pending.bonus or pending.seat != walk.owner:
        return "more"
    if pending.kind == "choose_option":
        return "nothing"
    seq = parts(function_of(walk), walk.option)
    part = seq[walk.part]
    if pending.kind in ("move_drop", "adjacent") and walk.rep < part.get("times", 1):
        return "more"
    if pending.kind == "adjacent" and walk.step + 1 < len(part["do"]):
        return "more"
    later = seq[walk.part + 1:]
    if any(not p["bonus"] for p in later):
        return "more"
    return "bonus" if later else "nothing"


def left_after_rest(state: State) -> str:
    """What ``skip`` with ``rest`` leaves of the card: "bonus" (its parts for the other players
    still come, B1) or "nothing"."""
    walk = state.walk
    assert walk is not None
    fn = function_of(walk)
    if "or" in fn and walk.option < 0:
        return "nothing"
    later = parts(fn, walk.option)[walk.part + 1:]
    return "bonus" if any(p["bonus"] for p in later) else "nothing"


#: R15: where a drop may go.
_ONE_FIELD = Msg("a drop moves exactly 1 field up, down, left or right")
#: R10, R20, R23: nothing else happens while a function resolves.
_WHILE_RESOLVING = {"play": "R10", "buy": "R20", "tile": "R23", "end_turn": "R10"}


def _prompt_rule(pending: Pending) -> str:
    return {"choose_option": "R11", "choose_field": "R13", "move_drop": "R15",
            "adjacent": "R17", "trash": "X2", "discard_tile": "X5", "sanctuary_field": "X6",
            "solo_move": "S3"}[pending.kind]


# --- legal moves -------------------------------------------------------------------------------


def _cells_json(cell: Cell) -> list[int]:
    return [cell[0], cell[1]]


def legal_moves(state: State, seat: int) -> list[Move]:
    """Every concrete legal move of ``seat``, every prompt answer included."""
    if seat not in active_seats(state):
        return []
    if state.pending is not None:
        return _answers(state, state.pending)
    player = state.seats[seat]
    moves: list[Move] = [{"type": "play", "card": card} for card in dict.fromkeys(player.hand)]
    moves += [{"type": "buy", "card": card} for card in state.market
              if card_def(card).cost <= player.leaves]
    for letter in dict.fromkeys(player.tiles):
        free = any(t == letter and not u for t, u in zip(player.tiles, player.used, strict=True))
        if free and player.leaves >= TILES[letter].cost:
            moves += _tile_moves(player, letter)
    if not player.hand or (solo(state) and total_drops(player) == 0):
        moves.append({"type": "end_turn"})
    return moves


def _tile_moves(player: Player, letter: str) -> list[Move]:
    if letter == "a":
        return [{"type": "tile", "tile": "a"}]
    if letter == "e":                         # X2, X8: a card of the discard pile, or none
        return [*({"type": "tile", "tile": "e", "card": card}
                  for card in dict.fromkeys(player.discard)), {"type": "tile", "tile": "e"}]
    moves: list[Move] = []
    for origin in fields_with_drops(player):
        if letter == "d":
            moves.append({"type": "tile", "tile": "d", "cell": _cells_json(origin)})
            continue
        for to in neighbours(origin):
            move: Move = {"type": "tile", "tile": letter, "from": _cells_json(origin),
                          "to": _cells_json(to)}
            if letter == "c" and drops_at(player, origin) > 1:
                moves += [{**move, "to2": _cells_json(to2)} for to2 in neighbours(origin)]
            else:
                moves.append(move)
    return moves


def _answers(state: State, pending: Pending) -> list[Move]:
    moves: list[Move] = []
    player = state.seats[pending.seat]
    if pending.kind == "choose_option":
        moves = [{"type": "choose_option", "option": option} for option in pending.options]
    elif pending.kind == "choose_field":
        removes = _removes(state, pending)
        for cell in pending.options:
            most = min(removes, drops_at(player, cell))
            if most >= 1:
                moves += [{"type": "choose_field", "cell": _cells_json(cell), "count": count}
                          for count in range(1, most + 1)]
            else:
                moves.append({"type": "choose_field", "cell": _cells_json(cell)})
    elif pending.kind in ("adjacent", "sanctuary_field"):
        moves = [{"type": "choose_field", "cell": _cells_json(cell)} for cell in pending.options]
    elif pending.kind == "move_drop":
        assert pending.origin is not None
        moves = [{"type": "move_drop", "from": _cells_json(pending.origin),
                  "to": _cells_json(to)} for to in pending.options]
    elif pending.kind == "solo_move":
        moves = [{"type": "move_drop", "from": _cells_json(origin), "to": _cells_json(to)}
                 for origin in pending.options for to in neighbours(origin)]
    elif pending.kind == "trash":
        moves = [{"type": "trash", "card": card} for card in dict.fromkeys(pending.options)]
    elif pending.kind == "discard_tile":
        moves = [{"type": "discard_tile", "tile": letter} for letter in pending.options]
    if pending.can_skip:
        walk = state.walk
        if (pending.kind != "solo_move" and not pending.bonus and walk is not None
                and pending.seat == walk.owner and after_skip(state, pending) == "more"):
            moves.append({"type": "skip", "rest": True})
        moves = _unlike_skip(state, pending.seat, moves)
        moves.append({"type": "skip"})
    return moves


#: The answers that may come to the same as a plain ``skip``: an alternative, a field chosen
#: empty (a ``0`` spec) and ``skip`` with ``rest``.
_MAYBE_AS_SKIP = ("choose_option", "skip")


def _unlike_skip(state: State, seat: int, moves: list[Move]) -> list[Move]:
    """The answers that do not come to the same as a plain ``skip`` (an alternative or an empty
    field that can do nothing now, ``skip`` with ``rest`` when the rest would lapse anyway): a
    move that changes nothing more than a skip is not offered beside it, so that every move
    offered says what it does (apply still takes them: a stored move stands)."""
    maybe = [m for m in moves if m["type"] in _MAYBE_AS_SKIP
             or (m["type"] == "choose_field" and "count" not in m)]
    if not maybe:
        return moves
    skip = _outcome(state, seat, {"type": "skip"})
    same = [m for m in maybe if _outcome(state, seat, m) == skip]
    return [m for m in moves if m not in same]


def _outcome(state: State, seat: int, move: Move) -> str:
    """The state a move leaves, as text, without the record of what it did (``news``)."""
    return json.dumps(dump(replace(apply(state, seat, move), news=())), sort_keys=True)


# --- words for prompts and statuses ------------------------------------------------------------


def spec_msg(spec: tuple[str, int, str]) -> Msg:
    """A field spec in words: "any field with at least 1 drop", "a water field with exactly 2
    drops", "a moss field with at least 1 drop" (transparent), "a leaf litter field"."""
    kind, drops, mode = spec
    place = place_msg(kind)
    if mode == "exact":
        return exactly(place, drops)
    if mode == "upto" or drops >= 1:
        return at_least(place, max(1, drops if mode == "min" else 1))
    return place


def spec_words(spec: tuple[str, int, str]) -> str:
    """:func:`spec_msg` in English."""
    return spec_msg(spec).english()


def source_msg(pending: Pending) -> Msg:
    """The card (or Gwidyon's card) a prompt comes from, by its display name."""
    if pending.fn == "solo":
        return Msg("Gwidyon's card “{card}”", {"card": Msg(SOLO_BY_ID[pending.card].name)})
    return card_msg(pending.card)


def source_name(pending: Pending) -> str:
    """:func:`source_msg` in English."""
    return source_msg(pending).english()


def prompt_msg(state: State, pending: Pending) -> Msg:
    """What the prompt asks, in words, without the card's name ("choose a field …")."""
    if pending.kind == "choose_option":
        return Msg("choose one of the two alternatives, or skip")
    if pending.kind == "choose_field":
        assert pending.spec is not None
        return Msg("choose {spec}", {"spec": spec_msg(pending.spec)})
    if pending.kind == "move_drop":
        return Msg("move a drop from the field you chose to a neighbouring field")
    if pending.kind == "adjacent":
        if pending.effect == "remove_one_adjacent":
            return Msg("choose a neighbouring field to remove 1 drop from")
        return Msg("choose a neighbouring field to remove every drop from")
    if pending.kind == "trash":
        return Msg("choose a card of your discard pile to remove from the game, or skip")
    if pending.kind == "discard_tile":
        return Msg("return one of your action tiles to the box, or skip to leave the new one")
    if pending.kind == "sanctuary_field":
        return Msg("choose a field with exactly 1 drop for the extra sanctuary field")
    return Msg("it has you move 1 drop on your board 1 field up, down, left or right")


def prompt_words(state: State, pending: Pending) -> str:
    """:func:`prompt_msg` in English."""
    return prompt_msg(state, pending).english()


def seat_status(state: State, seat: int) -> SeatStatus:
    """What a seat is doing, in plain words: "playing cards", "answering a bonus", "waiting"
    (a status is a fixed message id: the page says which card and how many in hand)."""
    if state.phase == OVER:
        return SeatStatus(N_("finished"))
    pending = state.pending
    if pending is not None:
        if pending.seat == seat:
            if pending.bonus:
                return SeatStatus(N_("answering a bonus"))
            if pending.fn == "solo":
                return SeatStatus(N_("answering Gwidyon's card"))
            return SeatStatus(N_("resolving a card"))
        if pending.bonus and state.walk is not None and state.walk.owner == seat:
            return SeatStatus(N_("waiting for a bonus answer"))
        return SeatStatus(N_("waiting"))
    if seat == state.turn:
        if state.seats[seat].hand:
            return SeatStatus(N_("playing cards"))
        return SeatStatus(N_("recruiting or ending the turn"))
    return SeatStatus(N_("waiting"))


# --- result ------------------------------------------------------------------------------------


def winners(state: State) -> tuple[int, ...]:
    """G4: the seats with an empty board; several → most leaves; still tied → all of them."""
    empty = [seat for seat, player in enumerate(state.seats) if total_drops(player) == 0]
    if not empty:
        return ()
    most = max(state.seats[seat].leaves for seat in empty)
    return tuple(seat for seat in empty if state.seats[seat].leaves == most)


def solo_winner(state: State) -> str:
    """S10: "you", "gwidyon" or "both" (both boards emptied in the same turn)."""
    gw = state.gwidyon
    assert gw is not None
    you = total_drops(state.seats[0]) == 0
    him = gw.drops == 0
    return "both" if you and him else "you" if you else "gwidyon" if him else ""


def score_now(state: State) -> tuple[int, ...]:
    """Each seat's score as the game stands: the dew drops left on its board, negated (G1, G4:
    Mycelia has no points; whoever empties their board wins, so 0 is the best score and
    every drop left counts against you). At the end, the result's scores."""
    return tuple(-total_drops(player) for player in state.seats)


def result(state: State) -> Result | None:
    """G4 (S10) once the game is over: scores are the drops left negated (:func:`score_now`);
    the ranking puts empty boards first, then fewer drops, more leaves, seat order."""
    if state.phase != OVER:
        return None
    drops = [total_drops(player) for player in state.seats]
    details: JSON = {
        "players": [{"seat": seat, "drops": drops[seat], "leaves": player.leaves,
                     "empty": drops[seat] == 0}
                    for seat, player in enumerate(state.seats)],
        "solo": None,
    }
    if solo(state):
        assert state.gwidyon is not None
        winner = solo_winner(state)
        details["solo"] = {"winner": winner, "gwidyon_drops": state.gwidyon.drops,
                           "winners": {"you": ["you"], "gwidyon": ["gwidyon"],
                                       "both": ["you", "gwidyon"]}.get(winner, [])}
        won: tuple[int, ...] = (0,) if winner in ("you", "both") else ()
        headline: Msg | str = {
            "you": Msg("{p0} won: {p0's} board is empty of dew", who(p0=0)),
            "gwidyon": Msg("Gwidyon won: his leaf-litter board is empty"),
            "both": Msg("{p0} and Gwidyon both emptied their boards in the same turn: a "
                        "shared win", who(p0=0)),
        }.get(winner, "")
    else:
        won = winners(state)
        if len(won) == 1 and sum(d == 0 for d in drops) > 1:
            headline = Msg("{p0} won with an empty board and the most leaves ({n})",
                           {**who(p0=won[0]), "n": state.seats[won[0]].leaves})
        elif len(won) == 1:
            headline = Msg("{p0} won with an empty board", who(p0=won[0]))
        elif won:
            headline = Msg("{players} shared the win: empty boards and as many leaves",
                           {"players": and_list(["{p" + str(seat) + "}" for seat in won])})
        elif stalled(state):
            headline = Msg("no board could be emptied any more: the game ended without a "
                           "winner")
        else:
            headline = ""
    details["stalled"] = not solo(state) and stalled(state)
    ranking = (*won, *(seat for seat in range(state.players) if seat not in won))
    return Result(scores=score_now(state), ranking=ranking, winners=won,
                  details=details, headline=headline, shown=score_shown(state),
                  placed=len(won))


def score_shown(state: State) -> tuple[Msg, ...]:
    """G4: each seat's score as players count it: the drops left and the leaves beside them
    (the leaves decide between empty boards)."""
    return tuple(Msg("{drops}, {leaves}", {
        "drops": plural("{n} drop left", "{n} drops left", "n", n=total_drops(player)),
        "leaves": plural("{n} leaf", "{n} leaves", "n", n=player.leaves)})
        for player in state.seats)


def drops_left(score: int) -> int:
    """A score (:func:`score_now`) as players count it: the drops left on the board."""
    return -score


# --- dump / load -------------------------------------------------------------------------------


def _cell_or_none(cell: Cell | None) -> list[int] | None:
    return None if cell is None else [cell[0], cell[1]]


def _load_cell(data: Any) -> Cell | None:
    return None if data is None else (int(data[0]), int(data[1]))


def _dump_player(player: Player) -> JSON:
    return {
        "board": player.board,
        "drops": [list(row) for row in player.drops],
        "leaves": player.leaves,
        "tiles": list(player.tiles),
        "used": list(player.used),
        "hand": list(player.hand),
        "draw": list(player.draw),
        "discard": list(player.discard),
        "known": player.known,
        "extra": [list(cell) for cell in player.extra],
        "removed": list(player.removed),
    }


def _load_player(data: JSON) -> Player:
    return Player(
        board=data["board"],
        drops=tuple(tuple(row) for row in data["drops"]),
        leaves=data["leaves"],
        tiles=tuple(data["tiles"]),
        used=tuple(bool(u) for u in data["used"]),
        hand=tuple(data["hand"]),
        draw=tuple(data["draw"]),
        discard=tuple(data["discard"]),
        known=data["known"],
        extra=tuple((r, c) for r, c in data["extra"]),
        removed=tuple(data["removed"]),
    )


def _dump_option(option: Any) -> Any:
    return list(option) if isinstance(option, tuple) else option


def _load_option(option: Any) -> Any:
    return (int(option[0]), int(option[1])) if isinstance(option, list) else option


def _dump_pending(pending: Pending | None) -> JSON | None:
    if pending is None:
        return None
    return {
        "seat": pending.seat, "kind": pending.kind, "bonus": pending.bonus,
        "card": pending.card, "fn": pending.fn, "part": pending.part, "rep": pending.rep,
        "reps": pending.reps,
        "options": [_dump_option(option) for option in pending.options],
        "max": pending.max, "can_skip": pending.can_skip,
        "spec": None if pending.spec is None else list(pending.spec),
        "origin": _cell_or_none(pending.origin), "effect": pending.effect,
    }


def _load_pending(data: JSON | None) -> Pending | None:
    if data is None:
        return None
    spec = data["spec"]
    return Pending(
        seat=data["seat"], kind=data["kind"], bonus=data["bonus"], card=data["card"],
        fn=data["fn"], part=data["part"], rep=data["rep"], reps=data["reps"],
        options=tuple(_load_option(option) for option in data["options"]),
        max=data["max"], can_skip=data["can_skip"],
        spec=None if spec is None else (str(spec[0]), int(spec[1]), str(spec[2])),
        origin=_load_cell(data["origin"]), effect=data["effect"],
    )


def _dump_walk(walk: Walk | None) -> JSON | None:
    if walk is None:
        return None
    return {"owner": walk.owner, "card": walk.card, "fn": walk.fn, "option": walk.option,
            "part": walk.part, "actor": walk.actor, "rep": walk.rep,
            "anchor": _cell_or_none(walk.anchor), "step": walk.step,
            "rest_skipped": walk.rest_skipped}


def _load_walk(data: JSON | None) -> Walk | None:
    if data is None:
        return None
    return Walk(owner=data["owner"], card=data["card"], fn=data["fn"], option=data["option"],
                part=data["part"], actor=data["actor"], rep=data["rep"],
                anchor=_load_cell(data["anchor"]), step=data["step"],
                rest_skipped=data["rest_skipped"])


def dump(state: State) -> JSON:
    """The state as JSON (``load(dump(s)) == s``)."""
    gw = state.gwidyon
    return {
        "players": state.players,
        "seed": state.seed,
        "counter": state.counter,
        "expansion": state.expansion,
        "advanced": state.advanced,
        "phase": state.phase,
        "turn": state.turn,
        "round": state.round,
        "seats": [_dump_player(player) for player in state.seats],
        "market": list(state.market),
        "market_deck": list(state.market_deck),
        "market_discard": list(state.market_discard),
        "sanctuary": state.sanctuary,
        "start_dew": state.start_dew,
        "new_dew": state.new_dew,
        "die": state.die,
        "supply": [[letter, count] for letter, count in state.supply],
        "extra_fields": state.extra_fields,
        "end_triggered": state.end_triggered,
        "walk": _dump_walk(state.walk),
        "pending": _dump_pending(state.pending),
        "gwidyon": None if gw is None else {
            "drops": gw.drops, "token": gw.token, "deck": list(gw.deck),
            "revealed": list(gw.revealed), "next_effect": gw.next_effect},
        "news": [[note.key, note.seat, note.data] for note in state.news],
    }


def load(data: JSON) -> State:
    """The state from :func:`dump`'s JSON."""
    gw = data["gwidyon"]
    return State(
        players=data["players"],
        seed=data["seed"],
        counter=data["counter"],
        expansion=data["expansion"],
        advanced=data["advanced"],
        phase=data["phase"],
        turn=data["turn"],
        round=data["round"],
        seats=tuple(_load_player(player) for player in data["seats"]),
        market=tuple(data["market"]),
        market_deck=tuple(data["market_deck"]),
        market_discard=tuple(data["market_discard"]),
        sanctuary=data["sanctuary"],
        start_dew=data["start_dew"],
        new_dew=data["new_dew"],
        die=data["die"],
        supply=tuple((str(letter), int(count)) for letter, count in data["supply"]),
        extra_fields=data["extra_fields"],
        end_triggered=data["end_triggered"],
        walk=_load_walk(data["walk"]),
        pending=_load_pending(data["pending"]),
        gwidyon=None if gw is None else Gwidyon(
            drops=gw["drops"], token=gw["token"], deck=tuple(gw["deck"]),
            revealed=tuple(gw["revealed"]), next_effect=gw["next_effect"]),
        news=tuple(Note(key, seat, text) for key, seat, text in data["news"]),
    )
