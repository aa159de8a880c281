"""Evergreen rules: state, setup, active seats, legal moves, apply, result, dump/load.

Pure functions over an immutable :class:`State` (frozen dataclasses; the planet dicts inside
are never mutated once built), so ``apply`` never changes its input. Every random step uses
``seeded_rng(seed, "shuffle", counter)`` with the counter kept in the state, so
``setup(seed)`` plus the move log replays to the identical state (DESIGN.md §2).

Rule ids are those of ``specs/evergreen.md``:

- Setup SET-1…7 (:func:`setup`, :func:`reveal_fertility`).
- Selection SEL-1…11 (:func:`_start_round`, :func:`_pick`, :func:`_end_selection`,
  :func:`cleanup`); the solo automa SOLO-1…3 (:func:`automa_choice`).
- Actions and power EFF-1…3, ACT-1…6, POW-1…7, TIM-1…3 (:func:`_step`); the turn record and
  undo MOV-2, MOV-4 (:class:`Turn`, :func:`_undo`).
- End of round and season END-1…3 (:func:`_end_round`) with LGT/FOR scoring from
  :mod:`app.games.evergreen.scoring`; end of game FIN-1…3 and SOLO-4 (:func:`result`).
- Moves MOV-1…6: :func:`active_seats`, :func:`legal_moves`, :func:`apply` (every refusal is an
  :class:`IllegalMove` naming the clause; malformed moves are refused with ``MOV-3``).

Participants are the seats ``0 … players-1`` plus, in solo, the automa as participant 1
(SET-1: it sits after seat 0). Turn order is increasing participant index, wrapping.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from app.games.base import JSON, IllegalMove, Move, Result, seeded_rng
from app.games.evergreen.data import (
    ACTIONS,
    BIOMES,
    CARD_IDS,
    CARDS,
    CRACKS,
    PIECE_NAMES,
    PLANET,
    PLAYABLE,
    POWER_NAMES,
    POWERS,
    ROW_SIZE,
    SEASONS,
    SOLO_TITLES,
    START_POINTS,
    SUN_SIDES,
    TRACK_END,
    TRACKS,
    WILD,
    Card,
    SoloTitle,
)
from app.games.evergreen.scoring import (
    fertility_points,
    large_trees_by_biome,
    largest_forest,
    light_points,
)
from app.games.words import N_, Msg

Cell = tuple[int, int]
#: One act-phase step as recorded for undo (MOV-4): (move type, ``by``, cell).
Step = tuple[str, str, Cell | None]

SELECT: str = "select"
ACT: str = "act"
OVER: str = "over"

#: SET-5: revealing stops once this many fertility icons are showing.
SETUP_ICONS = 5
#: EFF-2: what a grow turns each growable piece into.
GROWS_TO: dict[str, str] = {"sprout": "small", "small": "large"}
ORTHOGONAL: tuple[Cell, ...] = ((-1, 0), (1, 0), (0, -1), (0, 1))
MOVE_TYPES = ("pick", "plant", "grow", "power", "bush", "lake", "undo", "done")
#: Maximum number of action effects per action (ACT-1…4), for "the action is finished".
ACTION_SIZE: dict[str, int] = {"A": 3, "B": 2, "C": 2, "D": 1}
#: POW-3: why a power has nothing to work on, in words (refusals and the table's notes).
NOTHING_FOR: dict[str, str] = {
    "sprout": N_("no empty space is left for a sprout"),
    "grow_small": N_("no sprout is left to grow into a small tree"),
    "grow_large": N_("no small tree is left to grow into a large tree"),
    "bush": N_("no empty space is left for a bush"),
    "lake": N_("no empty space is left for a lake"),
    "bloom": "",
}


class Options(BaseModel):
    """Game options: the sun's starting side (SET-3; the rulebook's top notch is N)."""

    model_config = ConfigDict(extra="forbid")

    sun_start: Literal["N", "E", "S", "W"] = Field(
        "N", title=N_("Where the sun starts"),
        json_schema_extra={"labels": {"N": N_("North (the rulebook's top notch)"),
                                      "E": N_("East"), "S": N_("South"), "W": N_("West")}})


# --- state ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Board:
    """A seat's planet, power tracks and score parts (SET-2, FIN-3).

    ``planet`` maps cells to pieces (absent = empty); ``tracks`` holds the six track positions
    in :data:`POWERS` order. The score is the sum of the parts, never stored separately.
    """

    planet: dict[Cell, str]
    tracks: tuple[int, ...]
    start: int
    bloom: int = 0
    light: tuple[int, ...] = ()
    forest: tuple[int, ...] = ()
    fertility: int = 0

    @property
    def score(self) -> int:
        return self.start + self.bloom + sum(self.light) + sum(self.forest) + self.fertility


@dataclass(frozen=True)
class Turn:
    """A seat's act-phase record (MOV-2) and what undo needs (MOV-4).

    ``origin`` is the seat's board when the phase began and ``steps`` the steps made since;
    undo rebuilds the record from them. ``effects`` are the action effects (kind, cell),
    ``actions`` the actions still consistent with them (ACT-6). ``applied`` counts the power's
    applications this round (POW-3; bloom's activation is its one application, POW-6; a lake's
    grows belong to its lake and do not count).
    """

    origin: Board
    steps: tuple[Step, ...] = ()
    effects: tuple[tuple[str, Cell], ...] = ()
    actions: tuple[str, ...] = ACTIONS
    action_closed: bool = False
    activated: bool = False
    power_closed: bool = False
    budget_left: int = 0
    lake: Cell | None = None
    lake_grown: tuple[Cell, ...] = ()
    done: bool = False
    applied: int = 0


@dataclass(frozen=True)
class State:
    """The whole game. ``deck[0]`` is the top card; ``row`` slot 0 is nearest the deck.

    ``zone`` has one pile per planet biome (in :data:`BIOMES` order), each a tuple of
    (card, face up) oldest first (SET-7). ``fronts`` holds the cards in front of each
    participant (automa included). ``marker_slot`` is set while the first-player marker lies on
    a row card (SEL-4), ``marker_holder`` otherwise. ``turns`` exists only in the act phase.
    """

    players: int
    seed: int
    counter: int
    sun: str
    season: int
    round: int
    phase: str
    deck: tuple[int, ...]
    discard: tuple[int, ...]
    zone: tuple[tuple[tuple[int, bool], ...], ...]
    row: tuple[int | None, ...]
    fronts: tuple[tuple[int, ...], ...]
    first: int
    marker_holder: int | None
    marker_slot: int | None
    boards: tuple[Board, ...]
    turns: tuple[Turn, ...] = field(default=())


# --- small queries -----------------------------------------------------------------------------


def participants(state: State) -> int:
    """Seats plus the automa in solo (SET-1)."""
    return state.players + 1 if state.players == 1 else state.players


def automa(state: State) -> int | None:
    """The automa's participant index (solo only, SOLO-1)."""
    return 1 if state.players == 1 else None


def picker(state: State) -> int | None:
    """The participant whose pick it is (SEL-3), or None outside the selection."""
    if state.phase != SELECT:
        return None
    picks = sum(1 for card in state.row if card is None)
    if picks >= participants(state):
        return None
    return (state.first + picks) % participants(state)


def rounds_in_season(state: State) -> int:
    return SEASONS[state.season][1]


def fertility(zone: tuple[tuple[tuple[int, bool], ...], ...]) -> dict[str, int]:
    """SEL-10: the icons on the face-up fertility cards of each biome's pile."""
    return {
        biome: sum(CARDS[card].icons for card, up in pile if up)
        for biome, pile in zip(BIOMES, zone, strict=True)
    }


def current_card(state: State, seat: int) -> Card:
    """The card the seat took this round (its last card in front)."""
    return CARDS[state.fronts[seat][-1]]


def sun_after(sun: str, steps: int) -> str:
    """The sun side after ``steps`` clockwise moves (END-2)."""
    return SUN_SIDES[(SUN_SIDES.index(sun) + steps) % len(SUN_SIDES)]


def solo_title(points: int) -> SoloTitle:
    """SOLO-4: the title for a solo total."""
    for title in SOLO_TITLES:
        if title.high is None or points <= title.high:
            return title
    return SOLO_TITLES[-1]


# --- randomness and cards ----------------------------------------------------------------------


def _shuffled(state: State, cards: Iterable[int]) -> tuple[tuple[int, ...], State]:
    """Shuffle with the state's RNG and advance its counter."""
    deck = sorted(cards)
    seeded_rng(state.seed, "shuffle", state.counter).shuffle(deck)
    return tuple(deck), replace(state, counter=state.counter + 1)


def _draw(state: State) -> tuple[int, State]:
    """Draw the top card; an empty deck is first rebuilt from the discard pile (SEL-2)."""
    if not state.deck:
        if not state.discard:
            raise RuntimeError("SEL-2: deck and discard pile are both empty")
        deck, state = _shuffled(state, state.discard)
        state = replace(state, deck=deck, discard=())
    return state.deck[0], replace(state, deck=state.deck[1:])


def reveal_fertility(
    deck: tuple[int, ...],
) -> tuple[tuple[tuple[tuple[int, bool], ...], ...], tuple[int, ...], tuple[int, ...]]:
    """SET-5/6: reveal from the top until ≥ 5 fertility icons show.

    Returns the fertility zone (fertility cards face up in their biome's pile, reveal order),
    the other revealed cards (to go back into the deck) and the rest of the deck.
    """
    piles: dict[str, list[tuple[int, bool]]] = {biome: [] for biome in BIOMES}
    back: list[int] = []
    icons = 0
    taken = 0
    for card_id in deck:
        if icons >= SETUP_ICONS:
            break
        taken += 1
        card = CARDS[card_id]
        if card.top == "fertility":
            piles[card.biome].append((card_id, True))
            icons += card.icons
        else:
            back.append(card_id)
    if icons < SETUP_ICONS:
        raise RuntimeError("SET-5: the deck holds fewer than 5 fertility icons")
    zone = tuple(tuple(piles[biome]) for biome in BIOMES)
    return zone, tuple(back), deck[taken:]


def cleanup(
    zone: tuple[tuple[tuple[int, bool], ...], ...], discard: tuple[int, ...], card_id: int
) -> tuple[tuple[tuple[tuple[int, bool], ...], ...], tuple[int, ...]]:
    """SEL-6…9: where the leftover card goes, by its top icon.

    Fertility: appended face up to its biome's pile (SEL-7). None (every wild card): discard
    pile (SEL-8). Aridity: the last card added to that pile (its top, whatever it is) turns
    face down if it is face up — a face-down top stays as it is, nothing deeper is touched —
    then the aridity card is appended face up; an empty pile only receives it (SEL-9; ES «la
    última carta añadida», DE «die zuletzt hinzugefügte Karte»).
    """
    card = CARDS[card_id]
    if card.top == "none" or card.biome == WILD:
        return zone, (*discard, card_id)
    index = BIOMES.index(card.biome)
    pile = list(zone[index])
    if card.top == "aridity" and pile:
        top, _ = pile[-1]
        pile[-1] = (top, False)
    pile.append((card_id, True))
    return (*zone[:index], tuple(pile), *zone[index + 1 :]), discard


def automa_choice(row: tuple[int | None, ...], zone_fertility: dict[str, int]) -> int:
    """SOLO-2: the slot the automa takes; ties go to the card nearest the deck.

    1. a wild card; 2. else the most fertility icons (≥ 1); 3. else an aridity card whose
    biome has the lowest current fertility; 4. else the card nearest the deck.
    """
    slots = [(slot, CARDS[card]) for slot, card in enumerate(row) if card is not None]
    wild = [slot for slot, card in slots if card.biome == WILD]
    if wild:
        return wild[0]
    most = max(card.icons for _, card in slots)
    if most >= 1:
        return next(slot for slot, card in slots if card.icons == most)
    arid = [(zone_fertility[card.biome], slot) for slot, card in slots if card.top == "aridity"]
    if arid:
        return min(arid)[1]
    return slots[0][0]


# --- setup and the automatic flow --------------------------------------------------------------


def setup(players: int, options: BaseModel, seed: int) -> State:
    """SET-1…7, then the first row (SEL-1) and any automa pick until the first decision."""
    if not isinstance(players, int) or isinstance(players, bool) or not 1 <= players <= 4:
        raise ValueError("Evergreen is for 1 to 4 players (SET-1)")
    opts = options if isinstance(options, Options) else Options.model_validate(options)
    count = players + 1 if players == 1 else players
    first = seeded_rng(seed, "first").randrange(count)
    state = State(
        players=players,
        seed=seed,
        counter=0,
        sun=opts.sun_start,
        season=0,
        round=1,
        phase=SELECT,
        deck=(),
        discard=(),
        zone=tuple(() for _ in BIOMES),
        row=(),
        fronts=tuple(() for _ in range(count)),
        first=first,
        marker_holder=first,
        marker_slot=None,
        boards=tuple(
            Board(planet={}, tracks=(0,) * len(POWERS), start=START_POINTS[(s - first) % count])
            for s in range(players)
        ),
    )
    deck, state = _shuffled(state, CARD_IDS)
    return _advance(_start_round(deal_fertility(state, deck)))


def deal_fertility(state: State, deck: tuple[int, ...]) -> State:
    """SET-5/6 on a shuffled ``deck``: the fertility cards revealed form the zone, the other
    revealed cards go back into the deck, which is reshuffled."""
    zone, back, rest = reveal_fertility(deck)
    deck, state = _shuffled(state, rest + back)
    return replace(state, deck=deck, zone=zone)


def _start_round(state: State) -> State:
    """SEL-1: draw the row (slot 0 nearest the deck); the first player holds the marker."""
    row: list[int | None] = []
    for _ in range(ROW_SIZE[state.players]):
        card, state = _draw(state)
        row.append(card)
    return replace(
        state,
        phase=SELECT,
        row=tuple(row),
        marker_holder=state.first,
        marker_slot=None,
        turns=(),
    )


def _pick(state: State, who: int, slot: int) -> State:
    """SEL-3…5: take the card of ``slot``; the first pick places the marker, taking the marked
    card takes the marker."""
    card = state.row[slot]
    if card is None:
        raise RuntimeError(f"slot {slot} is empty")
    first_pick = all(c is not None for c in state.row)
    row = (*state.row[:slot], None, *state.row[slot + 1 :])
    fronts = (*state.fronts[:who], (*state.fronts[who], card), *state.fronts[who + 1 :])
    holder, marked = state.marker_holder, state.marker_slot
    if first_pick:
        marked = next(i for i, c in enumerate(row) if c is not None)
        holder = None
    elif slot == marked:
        holder, marked = who, None
    return replace(state, row=row, fronts=fronts, marker_holder=holder, marker_slot=marked)


def _end_selection(state: State) -> State:
    """SEL-5/6: the marker returns to the first player if its card is left; the leftover is
    cleaned up; the act phase starts for every seat."""
    leftover = [card for card in state.row if card is not None]
    if len(leftover) != 1:
        raise RuntimeError("SEL-6: exactly one card must be left")
    holder = state.first if state.marker_slot is not None else state.marker_holder
    zone, discard = cleanup(state.zone, state.discard, leftover[0])
    return replace(
        state,
        phase=ACT,
        row=(None,) * len(state.row),
        zone=zone,
        discard=discard,
        marker_holder=holder,
        marker_slot=None,
        turns=tuple(Turn(origin=board) for board in state.boards),
    )


def _end_round(state: State) -> State:
    """END-1…3: next round, or season end (light, forest, season change), or game end.

    The marker holder (SEL-5) is the next round's first player; the season change does not
    touch the marker (END-3).
    """
    holder = state.marker_holder if state.marker_holder is not None else state.first
    state = replace(state, turns=(), first=holder)
    if len(state.fronts[0]) < rounds_in_season(state):
        return _start_round(replace(state, round=state.round + 1))
    boards = tuple(
        replace(
            board,
            light=(*board.light, light_points(board.planet, state.sun, CRACKS)),
            forest=(*board.forest, largest_forest(board.planet)),
        )
        for board in state.boards
    )
    if state.season == len(SEASONS) - 1:
        zone_fertility = fertility(state.zone)
        boards = tuple(
            replace(board, fertility=fertility_points(board.planet, PLANET, zone_fertility))
            for board in boards
        )
        return replace(state, boards=boards, phase=OVER, row=())
    discard = state.discard + tuple(card for front in state.fronts for card in front)
    state = replace(
        state,
        boards=boards,
        discard=discard,
        fronts=tuple(() for _ in state.fronts),
        sun=sun_after(state.sun, 1),
        season=state.season + 1,
        round=1,
    )
    return _start_round(state)


def _advance(state: State) -> State:
    """Run the automatic steps until a seat must decide or the game is over."""
    while True:
        if state.phase == SELECT:
            who = picker(state)
            if who is None:
                state = _end_selection(state)
            elif who == automa(state):
                state = _pick(state, who, automa_choice(state.row, fertility(state.zone)))
            else:
                return state
        elif state.phase == ACT:
            if not all(turn.done for turn in state.turns):
                return state
            state = _end_round(state)
        else:
            return state


# --- act phase: one step of one seat -----------------------------------------------------------


def _violations(
    action: str, effects: tuple[tuple[str, Cell], ...], biome: str
) -> list[tuple[int, str]]:
    """Why ``action`` cannot hold ``effects`` (ACT-1…5), as (weight, rule); empty = it can.

    Weights rank the most telling reason: different cells 3, biome 2, count 1, kind 0.
    """
    plants = sum(1 for kind, _ in effects if kind == "plant")
    grows = len(effects) - plants
    cells = [cell for _, cell in effects]
    outside = biome != WILD and any(PLANET[cell] != biome for cell in cells)
    repeated = len(set(cells)) < len(cells)
    found: list[tuple[int, str]] = []
    if action == "A":
        if grows:
            found.append((0, "ACT-1"))
        if plants > 3:
            found.append((1, "ACT-1"))
    elif action == "B":
        if plants:
            found.append((0, "ACT-2"))
        if grows > 2:
            found.append((1, "ACT-2"))
        if repeated:
            found.append((3, "ACT-2"))
    elif action == "C":
        if plants > 1 or grows > 1:
            found.append((1, "ACT-3"))
        if repeated:
            found.append((3, "ACT-3"))
    elif len(effects) > 1:
        found.append((1, "ACT-4"))
    if outside and action != "D":
        found.append((2, "ACT-5"))
    return found


def consistent_actions(
    actions: tuple[str, ...], effects: tuple[tuple[str, Cell], ...], biome: str
) -> tuple[str, ...]:
    """ACT-6: the actions among ``actions`` that can hold all ``effects``."""
    return tuple(a for a in actions if not _violations(a, effects, biome))


def _refusal_rule(
    actions: tuple[str, ...], effects: tuple[tuple[str, Cell], ...], biome: str
) -> str:
    """The rule to name when no action holds ``effects``: that of the nearest action."""
    best: tuple[int, int, str] | None = None
    for action in actions:
        found = _violations(action, effects, biome)
        weight, rule = max(found)
        key = (len(found), -weight, rule)
        if best is None or key < best:
            best = key
    return best[2] if best is not None else "ACT-6"


def _action_full(actions: tuple[str, ...], effects: tuple[tuple[str, Cell], ...]) -> bool:
    """ACT-6: the action is finished when no consistent action can take one more effect."""
    return all(len(effects) >= ACTION_SIZE[a] for a in actions)


def _set(planet: dict[Cell, str], cell: Cell, piece: str) -> dict[Cell, str]:
    new = dict(planet)
    new[cell] = piece
    return new


def _need_empty(board: Board, cell: Cell) -> None:
    if cell in CRACKS:
        raise IllegalMove(Msg("nothing may be put on a crack"), "EFF-3")
    if cell in board.planet:
        raise IllegalMove(Msg("that space already holds {piece}",
                              {"piece": Msg(PIECE_NAMES[board.planet[cell]])}), "EFF-1")


def _need_growable(board: Board, cell: Cell) -> str:
    if cell in CRACKS:
        raise IllegalMove(Msg("nothing grows on a crack"), "EFF-3")
    piece = board.planet.get(cell)
    if piece not in GROWS_TO:
        reason = (Msg("only a sprout or a small tree can grow; that space holds {piece}",
                      {"piece": Msg(PIECE_NAMES[piece])}) if piece
                  else Msg("only a sprout or a small tree can grow; that space is empty"))
        raise IllegalMove(reason, "EFF-2")
    return piece


def can_apply(board: Board, power: str) -> bool:
    """POW-3: whether one application of ``power`` is legal on the seat's planet now.

    Bloom has no target (POW-6); sprout, bush and lake need an empty playable cell (EFF-1,
    EFF-3); grow_small needs a sprout, grow_large a small tree (POW-4).
    """
    if power == "bloom":
        return True
    if power in ("sprout", "bush", "lake"):
        return any(cell not in board.planet for cell in PLAYABLE)
    need = "sprout" if power == "grow_small" else "small"
    return need in board.planet.values()


def owes_application(turn: Turn) -> bool:
    """POW-3: the power was activated (and is still open) but not yet applied once — until
    then neither ``done`` nor an action effect (which would close the power, TIM-2) is legal."""
    return turn.activated and not turn.power_closed and turn.applied == 0


def _step(
    board: Board, turn: Turn, card: Card, step: Step, replay: bool = False
) -> tuple[Board, Turn]:
    """Check and make one act-phase step of a seat (EFF, ACT, POW, TIM); no randomness.

    ``replay`` (undo rebuilding the record, MOV-4) skips the POW-3 "at least once" checks:
    the replayed steps were accepted when they were made, possibly by a stored game of an
    earlier version that allowed a power with no application.
    """
    kind, by, cell = step
    steps = (*turn.steps, step)
    if kind == "done":
        if not replay and owes_application(turn):
            raise IllegalMove(
                Msg("use your power ({power}) at least once before you finish, or undo it",
                    {"power": Msg(POWER_NAMES[card.power])}), "POW-3")
        return board, replace(
            turn,
            steps=steps,
            done=True,
            action_closed=True,
            power_closed=True,
            budget_left=0,
            lake=None,
            lake_grown=(),
        )
    if kind == "power":
        if turn.activated:
            raise IllegalMove(Msg("you already used your power this round"), "POW-1")
        index = POWERS.index(card.power)
        position = min(board.tracks[index] + 1, TRACK_END)
        value = TRACKS[card.power][position]
        if not replay and not (can_apply(board, card.power) and value > 0):
            raise IllegalMove(
                Msg("your power ({power}) cannot be used now: {why}",
                    {"power": Msg(POWER_NAMES[card.power]),
                     "why": Msg(NOTHING_FOR[card.power])}), "POW-3")
        tracks = (*board.tracks[:index], position, *board.tracks[index + 1 :])
        board = replace(board, tracks=tracks)
        budget, applied = value, 0
        if card.power == "bloom":  # POW-6: its one application, the full value at once
            board = replace(board, bloom=board.bloom + value)
            budget, applied = 0, 1
        return board, replace(
            turn,
            steps=steps,
            activated=True,
            budget_left=budget,
            applied=applied,
            action_closed=turn.action_closed or bool(turn.effects),
        )
    if cell is None:
        raise IllegalMove(Msg("this move needs a space"), "MOV-3")
    if by == "action":
        if turn.action_closed and turn.activated and not turn.power_closed:
            raise IllegalMove(Msg("your action ended when you used the power after it"),
                              "TIM-2")
        if not replay and owes_application(turn):
            raise IllegalMove(
                Msg("use your power ({power}) at least once before the action",
                    {"power": Msg(POWER_NAMES[card.power])}), "POW-3")
        if kind == "plant":
            _need_empty(board, cell)
            piece = "sprout"
        else:
            piece = GROWS_TO[_need_growable(board, cell)]
        effects = (*turn.effects, (kind, cell))
        actions = consistent_actions(turn.actions, effects, card.biome)
        if not actions:
            rule = _refusal_rule(turn.actions, effects, card.biome)
            raise IllegalMove(Msg(_ACTION_REASONS[rule]), rule)
        turn = replace(
            turn,
            steps=steps,
            effects=effects,
            actions=actions,
            action_closed=_action_full(actions, effects),
        )
        if turn.activated and not turn.power_closed:
            turn = replace(turn, power_closed=True, budget_left=0, lake=None, lake_grown=())
        return replace(board, planet=_set(board.planet, cell, piece)), turn
    # power applications (POW-3…5) and lake grows
    if by == "lake":
        if turn.lake is None:
            raise IllegalMove(Msg("a lake grows trees right after it is placed"), "POW-5")
        lr, lc = turn.lake
        if (cell[0] - lr, cell[1] - lc) not in ORTHOGONAL:
            raise IllegalMove(
                Msg("a lake grows only the spaces right beside it, not diagonally"), "POW-5")
        if cell in turn.lake_grown:
            raise IllegalMove(Msg("this lake already grew that space"), "POW-5")
        if len(turn.lake_grown) >= 2:
            raise IllegalMove(Msg("a lake grows at most 2 trees"), "POW-5")
        piece = GROWS_TO[_need_growable(board, cell)]
        return replace(board, planet=_set(board.planet, cell, piece)), replace(
            turn, steps=steps, lake_grown=(*turn.lake_grown, cell)
        )
    wanted = {
        "plant": ("sprout",),
        "grow": ("grow_small", "grow_large"),
        "bush": ("bush",),
        "lake": ("lake",),
    }[kind]
    if card.power not in wanted:
        rule = "POW-5" if kind == "lake" else "POW-4"
        power = Msg(POWER_NAMES[card.power])
        reason = (Msg("your power this round is {power}, not {other}",
                      {"power": power, "other": Msg(POWER_NAMES[wanted[0]])})
                  if len(wanted) == 1 else
                  Msg("your power this round is {power}, not {other} or {another}",
                      {"power": power, "other": Msg(POWER_NAMES[wanted[0]]),
                       "another": Msg(POWER_NAMES[wanted[1]])}))
        raise IllegalMove(reason, rule)
    if not turn.activated:
        raise IllegalMove(Msg("use the power first: it moves up its track"), "POW-2")
    if turn.power_closed:
        raise IllegalMove(Msg("your power ended when you went back to your action"), "TIM-2")
    if turn.budget_left <= 0:
        raise IllegalMove(Msg("your power has no uses left this round"), "POW-3")
    if kind == "grow":
        need = "sprout" if card.power == "grow_small" else "small"
        if cell in CRACKS:
            raise IllegalMove(Msg("nothing grows on a crack"), "EFF-3")
        if board.planet.get(cell) != need:
            raise IllegalMove(
                Msg("{power} turns {piece} into {grown}, and nothing else",
                    {"power": Msg(POWER_NAMES[card.power]), "piece": Msg(PIECE_NAMES[need]),
                     "grown": Msg(PIECE_NAMES[GROWS_TO[need]])}), "POW-4")
        piece = GROWS_TO[need]
    else:
        _need_empty(board, cell)
        piece = {"plant": "sprout", "bush": "bush", "lake": "lake"}[kind]
    turn = replace(turn, steps=steps, budget_left=turn.budget_left - 1, applied=turn.applied + 1)
    if kind == "lake":
        turn = replace(turn, lake=cell, lake_grown=())
    return replace(board, planet=_set(board.planet, cell, piece)), turn


_ACTION_REASONS: dict[str, str] = {
    "ACT-1": N_("an action of sprouts plants up to 3 sprouts and grows nothing (action A)"),
    "ACT-2": N_("an action of growing grows up to 2 trees, each on another space (action B)"),
    "ACT-3": N_("a mixed action plants 1 sprout and grows 1 tree on another space "
                "(action C)"),
    "ACT-4": N_("outside your card's biome, the action is a single sprout or grow "
                "(action D)"),
    "ACT-5": N_("your action stays in the biome of your card, or is a single effect "
                "(action D)"),
    "ACT-6": N_("no action allows this"),
}


def _undo(board: Board, turn: Turn, card: Card) -> tuple[Board, Turn]:
    """MOV-4: rebuild the seat's board and record from the phase start without the last
    step."""
    board, rebuilt = turn.origin, Turn(origin=turn.origin)
    for step in turn.steps[:-1]:
        board, rebuilt = _step(board, rebuilt, card, step, replay=True)
    return board, rebuilt


# --- moves -------------------------------------------------------------------------------------

MOVE_FIELDS: dict[str, frozenset[str]] = {
    "pick": frozenset({"type", "card"}),
    "plant": frozenset({"type", "cell", "by"}),
    "grow": frozenset({"type", "cell", "by"}),
    "power": frozenset({"type"}),
    "bush": frozenset({"type", "cell"}),
    "lake": frozenset({"type", "cell"}),
    "undo": frozenset({"type"}),
    "done": frozenset({"type"}),
}
_BY: dict[str, tuple[str, ...]] = {
    "plant": ("action", "power"),
    "grow": ("action", "power", "lake"),
}
#: MOV-3: what a move of each kind with a ``by`` may be made by, in words.
_MADE_BY: dict[str, str] = {
    "plant": N_("a plant move is made by the action or the power"),
    "grow": N_("a grow move is made by the action, the power or a lake"),
}


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def parse_move(move: object) -> tuple[str, Any, str, Cell | None]:
    """MOV-3: check the move's shape; returns (type, card, by, cell)."""
    if not isinstance(move, dict):
        raise IllegalMove(Msg("a move is a JSON object with a type"), "MOV-3")
    kind = move.get("type")
    if not isinstance(kind, str) or kind not in MOVE_FIELDS:
        raise IllegalMove(Msg("unknown move type: a move is one of {types}",
                              {"types": ", ".join(MOVE_TYPES)}), "MOV-3")
    keys = set(move)
    if keys != MOVE_FIELDS[kind]:
        missing = sorted(MOVE_FIELDS[kind] - keys)
        extra = sorted(keys - MOVE_FIELDS[kind])
        if missing:
            raise IllegalMove(Msg("a {kind} move is malformed: it needs {fields}",
                                  {"kind": kind, "fields": missing}), "MOV-3")
        raise IllegalMove(Msg("a {kind} move is malformed: it does not take {fields}",
                              {"kind": kind, "fields": extra}), "MOV-3")
    card = move.get("card")
    if kind == "pick" and not _is_int(card):
        raise IllegalMove(Msg("a pick names a card of the row by its number"), "MOV-3")
    by = ""
    if kind in _BY:
        raw = move["by"]
        if not isinstance(raw, str) or raw not in _BY[kind]:
            raise IllegalMove(Msg(_MADE_BY[kind]), "MOV-3")
        by = raw
    elif kind in ("bush", "lake"):
        by = "power"
    cell: Cell | None = None
    if "cell" in MOVE_FIELDS[kind]:
        raw_cell = move["cell"]
        if (
            not isinstance(raw_cell, list | tuple)
            or len(raw_cell) != 2
            or not all(_is_int(x) for x in raw_cell)
        ):
            raise IllegalMove(Msg("a space is a row and a column, two whole numbers"), "MOV-3")
        cell = (raw_cell[0], raw_cell[1])
        if cell not in PLANET and cell not in CRACKS:
            raise IllegalMove(Msg("that space is not on the planet"), "EFF-3")
    return kind, card, by, cell


def active_seats(state: State) -> frozenset[int]:
    """MOV-1: the picking seat in the selection; every seat not done in the act phase."""
    if state.phase == SELECT:
        who = picker(state)
        return frozenset() if who is None or who == automa(state) else frozenset({who})
    if state.phase == ACT:
        return frozenset(s for s, turn in enumerate(state.turns) if not turn.done)
    return frozenset()


def done_for_now(state: State, seat: int) -> IllegalMove | None:
    """TIM-3: a seat that sent ``done`` has finished the act phase; its moves conflict with
    the phase until the next round (a seat waiting for its pick just waits: None)."""
    if state.phase == ACT and 0 <= seat < len(state.turns) and state.turns[seat].done:
        return IllegalMove(Msg("you are done for this round"), "TIM-3")
    return None


def apply(state: State, seat: int, move: Move) -> State:
    """Check and play ``move`` for ``seat``, then run the automatic steps (spec §3)."""
    kind, card, by, cell = parse_move(move)
    if not _is_int(seat) or not 0 <= seat < state.players:
        raise IllegalMove(Msg("there is no such seat at this table"), "MOV-1")
    if state.phase == OVER:
        raise IllegalMove(Msg("the game is over"), "MOV-1")
    if kind == "pick":
        if state.phase != SELECT:
            raise IllegalMove(Msg("cards are taken in the selection, before the actions"),
                              "MOV-1")
        if picker(state) != seat:
            raise IllegalMove(Msg("it is not your turn to take a card"), "MOV-1")
        if card not in state.row:
            raise IllegalMove(Msg("that card is not in the row"), "SEL-3")
        return _advance(_pick(state, seat, state.row.index(card)))
    if state.phase != ACT:
        raise IllegalMove(Msg("planting and growing wait until everyone has taken a card"),
                          "MOV-1")
    turn = state.turns[seat]
    if turn.done:
        raise IllegalMove(Msg("you are done for this round"), "TIM-3")
    board = state.boards[seat]
    this_card = current_card(state, seat)
    if kind == "undo":
        if not turn.steps:
            raise IllegalMove(Msg("nothing to undo this round"), "MOV-4")
        board, turn = _undo(board, turn, this_card)
    else:
        board, turn = _step(board, turn, this_card, (kind, by, cell))
    state = replace(
        state,
        boards=(*state.boards[:seat], board, *state.boards[seat + 1 :]),
        turns=(*state.turns[:seat], turn, *state.turns[seat + 1 :]),
    )
    return _advance(state) if kind == "done" else state


def legal_moves(state: State, seat: int) -> list[Move]:
    """MOV-5: every legal move of ``seat`` (each cell per kind), undo and done where legal."""
    if seat not in active_seats(state):
        return []
    if state.phase == SELECT:
        return [{"type": "pick", "card": card} for card in state.row if card is not None]
    board, turn = state.boards[seat], state.turns[seat]
    card = current_card(state, seat)
    planet = board.planet
    moves: list[Move] = []
    owes = owes_application(turn)
    action_open = not turn.action_closed and not owes
    power_open = turn.activated and not turn.power_closed
    for cell in PLAYABLE:
        piece = planet.get(cell)
        if piece is None:
            effect = "plant"
        elif piece in GROWS_TO:
            effect = "grow"
        else:
            continue
        if action_open and consistent_actions(
            turn.actions, (*turn.effects, (effect, cell)), card.biome
        ):
            moves.append({"type": effect, "cell": list(cell), "by": "action"})
    if not turn.activated and can_apply(board, card.power):
        moves.append({"type": "power"})
    if power_open and turn.budget_left > 0:
        power = card.power
        for cell in PLAYABLE:
            piece = planet.get(cell)
            if power == "sprout" and piece is None:
                moves.append({"type": "plant", "cell": list(cell), "by": "power"})
            elif (power == "grow_small" and piece == "sprout") or (
                power == "grow_large" and piece == "small"
            ):
                moves.append({"type": "grow", "cell": list(cell), "by": "power"})
            elif power in ("bush", "lake") and piece is None:
                moves.append({"type": power, "cell": list(cell)})
    if power_open and turn.lake is not None and len(turn.lake_grown) < 2:
        lr, lc = turn.lake
        for dr, dc in ORTHOGONAL:
            cell = (lr + dr, lc + dc)
            if cell in PLANET and planet.get(cell) in GROWS_TO and cell not in turn.lake_grown:
                moves.append({"type": "grow", "cell": list(cell), "by": "lake"})
    if turn.steps:
        moves.append({"type": "undo"})
    if not owes:
        moves.append({"type": "done"})
    return moves


# --- result ------------------------------------------------------------------------------------


def turn_position(state: State, seat: int) -> int:
    """FIN-2: the seat's place in turn order counted from the marker holder."""
    holder = state.marker_holder if state.marker_holder is not None else state.first
    return (seat - holder) % participants(state)


def score_now(state: State) -> tuple[int, ...]:
    """Each seat's points on its score track as the game stands (SET-4, POW-6, END-2, FIN-1):
    its starting points, bloom points, the light and forest points of every season scored so
    far and, once the game is over, its fertility points (:attr:`Board.score`). The current
    season's light and forest count only at its end (END-2). At the end, the result's scores.
    """
    return tuple(board.score for board in state.boards)


def result(state: State) -> Result | None:
    """FIN-1…3 (and SOLO-4): scores, ranking (ties by turn order from the marker holder, no
    shared wins) and the per-player breakdown with the fertility table."""
    if state.phase != OVER:
        return None
    scores = score_now(state)
    ranking = tuple(
        sorted(range(state.players), key=lambda s: (-scores[s], turn_position(state, s)))
    )
    zone_fertility = fertility(state.zone)
    players = []
    table = []
    for seat, board in enumerate(state.boards):
        players.append(
            {
                "seat": seat,
                "starting": board.start,
                "bloom": board.bloom,
                "light": list(board.light),
                "forest": list(board.forest),
                "fertility": board.fertility,
                "total": board.score,
            }
        )
        large = large_trees_by_biome(board.planet, PLANET, BIOMES)
        table.append(
            {
                "seat": seat,
                "biomes": [
                    {
                        "biome": biome,
                        "fertility": zone_fertility[biome],
                        "large": large[biome],
                        "points": zone_fertility[biome] * large[biome],
                    }
                    for biome in BIOMES
                ],
                "total": board.fertility,
            }
        )
    details: JSON = {
        "players": players,
        "seasons": [name for name, _ in SEASONS],
        "fertility": zone_fertility,
        "fertility_table": table,
        "marker_holder": state.marker_holder,
        "title": None,
    }
    if state.players == 1:
        title = solo_title(scores[0])
        details["title"] = {"id": title.id, "en": title.en, "es": title.es, "de": title.de}
    return Result(scores=scores, ranking=ranking, winners=(ranking[0],), details=details)


# --- dump / load -------------------------------------------------------------------------------


def _cell_json(cell: Cell | None) -> list[int] | None:
    return None if cell is None else [cell[0], cell[1]]


def _cell(data: Any) -> Cell:
    return (int(data[0]), int(data[1]))


def _dump_board(board: Board) -> JSON:
    return {
        "planet": [[r, c, piece] for (r, c), piece in sorted(board.planet.items())],
        "tracks": list(board.tracks),
        "start": board.start,
        "bloom": board.bloom,
        "light": list(board.light),
        "forest": list(board.forest),
        "fertility": board.fertility,
    }


def _load_board(data: JSON) -> Board:
    return Board(
        planet={(int(r), int(c)): str(piece) for r, c, piece in data["planet"]},
        tracks=tuple(data["tracks"]),
        start=data["start"],
        bloom=data["bloom"],
        light=tuple(data["light"]),
        forest=tuple(data["forest"]),
        fertility=data["fertility"],
    )


def _dump_turn(turn: Turn) -> JSON:
    return {
        "origin": _dump_board(turn.origin),
        "steps": [[kind, by, _cell_json(cell)] for kind, by, cell in turn.steps],
        "effects": [[kind, _cell_json(cell)] for kind, cell in turn.effects],
        "actions": list(turn.actions),
        "action_closed": turn.action_closed,
        "activated": turn.activated,
        "power_closed": turn.power_closed,
        "budget_left": turn.budget_left,
        "lake": _cell_json(turn.lake),
        "lake_grown": [_cell_json(cell) for cell in turn.lake_grown],
        "done": turn.done,
        "applied": turn.applied,
    }


def _applied_in(steps: tuple[Step, ...], power: str) -> int:
    """POW-3: the applications among a turn's steps (every step ``by`` the power; bloom's
    activation is its application), for dumps written before ``applied`` was stored."""
    if power == "bloom":
        return 1 if any(kind == "power" for kind, _, _ in steps) else 0
    return sum(1 for _, by, _ in steps if by == "power")


def _load_turn(data: JSON, front: tuple[int, ...]) -> Turn:
    """A turn record; ``front`` (the seat's cards, this round's last) names the power when
    ``applied`` has to be counted from the steps."""
    steps: tuple[Step, ...] = tuple(
        (kind, by, None if cell is None else _cell(cell)) for kind, by, cell in data["steps"]
    )
    applied = data.get("applied")
    if applied is None:
        applied = _applied_in(steps, CARDS[front[-1]].power) if front else 0
    return Turn(
        origin=_load_board(data["origin"]),
        steps=steps,
        effects=tuple((kind, _cell(cell)) for kind, cell in data["effects"]),
        actions=tuple(data["actions"]),
        action_closed=data["action_closed"],
        activated=data["activated"],
        power_closed=data["power_closed"],
        budget_left=data["budget_left"],
        lake=None if data["lake"] is None else _cell(data["lake"]),
        lake_grown=tuple(_cell(cell) for cell in data["lake_grown"]),
        done=data["done"],
        applied=int(applied),
    )


def dump(state: State) -> JSON:
    """The state as JSON (``load(dump(s)) == s``)."""
    return {
        "players": state.players,
        "seed": state.seed,
        "counter": state.counter,
        "sun": state.sun,
        "season": state.season,
        "round": state.round,
        "phase": state.phase,
        "deck": list(state.deck),
        "discard": list(state.discard),
        "zone": [[[card, up] for card, up in pile] for pile in state.zone],
        "row": list(state.row),
        "fronts": [list(front) for front in state.fronts],
        "first": state.first,
        "marker_holder": state.marker_holder,
        "marker_slot": state.marker_slot,
        "boards": [_dump_board(board) for board in state.boards],
        "turns": [_dump_turn(turn) for turn in state.turns],
    }


def load(data: JSON) -> State:
    """The state from :func:`dump`'s JSON.

    Dumps written before a field existed still load: a turn without ``applied`` (POW-3) gets
    it counted from its steps.
    """
    fronts = tuple(tuple(front) for front in data["fronts"])
    return State(
        players=data["players"],
        seed=data["seed"],
        counter=data["counter"],
        sun=data["sun"],
        season=data["season"],
        round=data["round"],
        phase=data["phase"],
        deck=tuple(data["deck"]),
        discard=tuple(data["discard"]),
        zone=tuple(tuple((card, bool(up)) for card, up in pile) for pile in data["zone"]),
        row=tuple(data["row"]),
        fronts=fronts,
        first=data["first"],
        marker_holder=data["marker_holder"],
        marker_slot=data["marker_slot"],
        boards=tuple(_load_board(board) for board in data["boards"]),
        turns=tuple(_load_turn(turn, fronts[seat]) for seat, turn in enumerate(data["turns"])),
    )
