"""Evo's rules as pure functions (rulebook /work/shared/rules/evo.es.txt, spec
/work/shared/specs/evo.md), for 2 to 5 players.

A round is six phases, each finished before the next ("Como se Juega"): climate, mutation,
initiative, movement, birth, survival. Steps without a choice (the climate token, the lab's
draw, the sort of the initiative track, the resolution of the bids, survival without a choice,
scoring) run automatically after the move that reaches them (:func:`_advance`).

Refusals cite the rulebook section they break, by its Spanish heading as printed (the spec
numbers no clauses; event cards, which the rulebook treats in "Cartas de evento", include the
sealed windows of the spec's "Digital moves"):

- ``Objeto del juego`` (:data:`RULE_GOAL`): MP, kept face down until the end;
- ``Como se Juega`` (:data:`RULE_TURN`): who acts in which phase, and what a move is;
- ``Fase climática`` (:data:`RULE_CLIMATE`): the meteorite ends the game at once;
- ``Fase de mutación`` (:data:`RULE_MUTATION`): bids, displacement, costs;
- ``Fase de iniciación`` (:data:`RULE_INITIATIVE`): the track and its sort;
- ``Subidón de adrenalina`` (:data:`RULE_ADRENALINE`): choosing one's place;
- ``Fase de movimiento`` (:data:`RULE_MOVEMENT`): points, steps and attacks;
- ``Alas`` / ``Aletas`` (:data:`RULE_WINGS`, :data:`RULE_FINS`): flying and swimming;
- ``Regeneración`` (:data:`RULE_REGENERATION`): a species of 3 or fewer cannot be attacked;
- ``Piel de camaleón`` (:data:`RULE_CHAMELEON`): the loser's step aside;
- ``Fase de nacimiento`` (:data:`RULE_BIRTH`), ``Bebés Asesinos``
  (:data:`RULE_KILLER_BABIES`): newborns;
- ``Cartas de evento`` (:data:`RULE_EVENTS`): holding, timing and windows of the cards;
- ``Fase de supervivencia`` (:data:`RULE_SURVIVAL`): the survivors each player keeps.

Simultaneous decisions (the two event-card windows and the survival keep choices) have several
active seats; each submission is an ordinary move kept sealed in the state until every
prompted seat has submitted, then all are revealed and applied together. Every holder of an
event card is prompted whatever its cards, and a holder is never ended or skipped
automatically in movement or birth: the flow of play shows only the public card count.

Decisions where the rulebook and the spec are silent (tests/unit/evo/test_decisions.py):

1. A player without a legal bid goes to the leftmost column without an item *and without a
   marker* (several such players fill those columns from the left).
2. A player who had no dinosaur when the birth phase began places its next newborn on any
   empty space whenever none of its newborns of this phase is on the board (the first one, or
   again after killer babies killed them all).
3. Survival keep choices are sealed like the windows (the issue asks for them simultaneous).
4. Camouflage names a dinosaur of the player's on the board; without one it cannot be
   played. Migration may be played with no movement point left, and takes any own dinosaur.
5. A swim goes to a coastal space that is not adjacent: an adjacent one is reached by an
   ordinary move at the same price, and one step must not read two ways in the log.
6. The ranking lists tied players by seat; ``details["places"]`` gives the shared places.
7. A bid is refused when the player cannot pay it at once, even if Bargain could be played
   first: Bargain is played before the marker, as a move of its own.

Spec and rulebook disagree three times, and the rulebook's word is followed:

- the spec lets Spontaneous Mutation ignore the no-duplicate rule, but the rulebook says
  "Nunca puede haber dos genes idénticos en la misma fase de mutación"; the card therefore
  draws among the bag's genes not in the lab this phase;
- the spec places one newborn per turn, round robin; the rulebook's "Los jugadores colocan
  nuevos dinosaurios en orden de iniciativa" reads as its movement phase does ("cada jugador
  mueve sus dinosaurios"): each player places all its newborns in its turn, in initiative
  order (rules version 2, :func:`_place`);
- the spec makes MP totals public; the rulebook's "Los jugadores revelan sus fichas de MP"
  at the end keeps each total to its owner until then (views.py).

The state is a frozen dataclass whose fields never change once built (the board dict is
copied, never mutated). Randomness comes from ``seeded_rng(seed, "evo", counter)`` with the
counter kept in the state, so ``setup(seed)`` plus the moves replays identically.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, fields
from functools import cache
from itertools import combinations
from typing import Any, TypeGuard

from app.games.base import JSON, IllegalMove, Move, Result, SeatStatus, seeded_rng
from app.games.evo import phrases
from app.games.evo.data import (
    BASE_EGGS,
    BASE_MOVEMENT,
    CLIMATE_TOKENS,
    DIE_FACES,
    DINOSAURS_PER_PLAYER,
    EVENT_CARDS,
    EVENT_COLUMN,
    GENES,
    KILLER_BABY_WIN_FACES,
    LONG_REACH,
    MAPS,
    MAX_BID,
    MAX_PLAYERS,
    METEORITE,
    MIN_BID,
    MIN_PLAYERS,
    NEIGHBOUR_STEPS,
    NORMAL_GENES,
    PILE_BOTTOM,
    STALEMATE,
    START_MP,
    UNIQUE_GENES,
    UNIQUE_IN_BAG,
    WHEEL_START,
    IslandMap,
    climate_of,
)
from app.games.words import N_, Msg, plural, who

Cell = tuple[int, int]
#: A card played in a window; Camouflage names the space of the dinosaur it protects.
Play = tuple[str, Cell | None]
#: A marker in the lab: (seat, bid value), value None for a marker placed without a bid.
Marker = tuple[int, int | None]
#: Something that happened, for the log: (key, params).
Happening = tuple[str, JSON]

RULE_GOAL = "Objeto del juego"
RULE_TURN = "Como se Juega"
RULE_CLIMATE = "Fase climática"
RULE_MUTATION = "Fase de mutación"
RULE_INITIATIVE = "Fase de iniciación"
RULE_ADRENALINE = "Subidón de adrenalina"
RULE_MOVEMENT = "Fase de movimiento"
RULE_WINGS = "Alas"
RULE_FINS = "Aletas"
RULE_REGENERATION = "Regeneración"
RULE_CHAMELEON = "Piel de camaleón"
RULE_BIRTH = "Fase de nacimiento"
RULE_KILLER_BABIES = "Bebés Asesinos"
RULE_EVENTS = "Cartas de evento"
RULE_SURVIVAL = "Fase de supervivencia"

CLIMATE = "climate"
MUTATION = "mutation"
INITIATIVE = "initiative"
MOVE_WINDOW = "move-window"
MOVEMENT = "movement"
BIRTH = "birth"
SURVIVAL_WINDOW = "survival-window"
SURVIVAL = "survival"
OVER = "over"
PHASES = (CLIMATE, MUTATION, INITIATIVE, MOVE_WINDOW, MOVEMENT, BIRTH, SURVIVAL_WINDOW,
          SURVIVAL, OVER)
WINDOWS = (MOVE_WINDOW, SURVIVAL_WINDOW)

#: Each move type and the fields it carries besides ``type``.
MOVE_FIELDS: Mapping[str, frozenset[str]] = {
    "bid": frozenset({"column", "value"}),
    "play_event": frozenset({"card", "from", "to"}),
    "initiative": frozenset({"position"}),
    "play_events": frozenset({"cards"}),
    "pass": frozenset(),
    "move": frozenset({"from", "to"}),
    "attack": frozenset({"from", "to"}),
    "fly": frozenset({"from", "to"}),
    "swim": frozenset({"from", "to"}),
    "flee": frozenset({"to"}),
    "place": frozenset({"at"}),
    "keep": frozenset({"at"}),
    "done": frozenset(),
}
STEPS = ("move", "attack", "fly", "swim")
#: The move types of each phase.
PHASE_MOVES: Mapping[str, tuple[str, ...]] = {
    MUTATION: ("bid", "play_event"),
    INITIATIVE: ("initiative",),
    MOVE_WINDOW: ("play_events", "pass"),
    MOVEMENT: (*STEPS, "play_event", "done", "flee"),
    BIRTH: ("place", "play_event", "done"),
    SURVIVAL_WINDOW: ("play_events", "pass"),
    SURVIVAL: ("keep",),
}
#: The card timing of each phase's own turns and windows.
PHASE_TIMING: Mapping[str, str] = {
    MUTATION: "bid", MOVE_WINDOW: "move-window", MOVEMENT: "move-turn", BIRTH: "birth-turn",
    SURVIVAL_WINDOW: "survival-window",
}
#: When a card of each timing is played, in words (message ids).
TIMING_WORDS: Mapping[str, str] = {
    "bid": N_("during your own bidding turn"),
    "move-window": N_("when the movement phase opens"),
    "move-turn": N_("during your own movement turn"),
    "birth-turn": N_("during your own birth turn"),
    "survival-window": N_("when the survival phase opens"),
}
#: Each phase's name in a sentence (message ids).
PHASE_NAMES: Mapping[str, str] = {
    CLIMATE: N_("climate phase"), MUTATION: N_("mutation phase"),
    INITIATIVE: N_("initiative phase"), MOVE_WINDOW: N_("movement phase"),
    MOVEMENT: N_("movement phase"), BIRTH: N_("birth phase"),
    SURVIVAL_WINDOW: N_("survival phase"), SURVIVAL: N_("survival phase"),
    OVER: N_("end of the game"),
}


# --- the state ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class State:
    """One moment of a game. Hidden from players: ``pile`` (the sixth-sense holder sees its
    top), ``set_aside``, ``bag``, ``boxed``, ``deck``, other seats' ``hands`` and their
    unrevealed ``plays`` and ``keeps``, the seed."""

    players: int
    seed: int
    counter: int
    round: int
    phase: str
    #: The climate wheel's section.
    section: int
    #: The climate pile, top first; the token set aside unseen; the tokens revealed.
    pile: tuple[str, ...]
    set_aside: str
    revealed: tuple[str, ...]
    #: Gene tokens in the bag (sorted: draws are random); unique genes left in the box.
    bag: tuple[str, ...]
    boxed: tuple[str, ...]
    #: The event deck (top first), each seat's hand, every card played (seat, card).
    deck: tuple[str, ...]
    hands: tuple[tuple[str, ...], ...]
    played: tuple[tuple[int, str], ...]
    #: Cards played this round, whose effects last as the card says.
    in_force: frozenset[tuple[int, str]]
    mp: tuple[int, ...]
    #: Each species sheet: the genes acquired, in order.
    genes: tuple[tuple[str, ...], ...]
    #: Space → the seat whose dinosaur stands there (never mutated: copied on change).
    board: Mapping[Cell, int]
    #: The initiative track, first place first.
    initiative: tuple[int, ...]
    #: The lab: the genes of columns 2…N (None: empty), the marker of each column 1…N, the
    #: seat displaced that re-bids now, and the column each seat was just displaced from.
    #: Lab and markers stay as the bidding ended until the next mutation phase.
    lab: tuple[str | None, ...]
    markers: tuple[Marker | None, ...]
    displaced: int | None
    barred: tuple[int | None, ...]
    #: Movement and birth: the index on the initiative track of the seat whose turn it is.
    turn: int
    #: Movement points left this turn; the seats that flew this phase; the dinosaur under
    #: Camouflage; a won attack on a chameleon (attacker's space, defender's space).
    points: int
    flown: frozenset[int]
    camouflaged: Cell | None
    flee: tuple[Cell, Cell] | None
    #: Birth: newborns still to place; parents and this phase's newborns on the board; the
    #: seats that had no dinosaur when it began; the seats done for the phase (also movement).
    newborns: tuple[int, ...]
    parents: tuple[frozenset[Cell], ...]
    born: tuple[frozenset[Cell], ...]
    orphans: frozenset[int]
    finished: frozenset[int]
    #: Windows and survival: the seats asked, and each one's sealed submission.
    prompted: frozenset[int]
    plays: tuple[tuple[Play, ...] | None, ...]
    keeps: tuple[tuple[Cell, ...] | None, ...]
    #: The last roll of the die (public): who rolled, for what ("attack", "killer baby"),
    #: the face, the outcome ("win", "fail", "stalemate"; "kill", "die"), the space rolled
    #: for and the attacker's space (None for a killer baby).
    last_roll: tuple[int, str, str, str, Cell, Cell | None] | None = None
    #: How many times the die was rolled in this game (public: every roll is).
    rolls: int = 0
    #: The dinosaurs each seat lost to the climate in the last survival phase (public).
    last_dead: tuple[tuple[Cell, ...], ...] = ()

    @property
    def map(self) -> IslandMap:
        return MAPS[self.players]

    @property
    def over(self) -> bool:
        return self.phase == OVER


_FIELDS = frozenset(f.name for f in fields(State))


def _replace(state: State, **changes: Any) -> State:
    """``dataclasses.replace`` without its cost per field (a state has some forty fields and
    is replaced several times per move): the fields are copied at once, checked by name."""
    if not changes.keys() <= _FIELDS:
        raise TypeError(f"State has no field {sorted(changes.keys() - _FIELDS)}")
    new = object.__new__(State)
    new.__dict__.update(state.__dict__)
    new.__dict__.update(changes)
    return new


# --- geometry ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Geometry:
    """What the rules need to know of a map, computed once per map."""

    neighbours: Mapping[Cell, tuple[Cell, ...]]
    #: Spaces at path distance 1…3 (fewest steps across spaces of the map).
    within3: Mapping[Cell, frozenset[Cell]]
    #: Wings: the spaces at hex distance 2 reachable through a space of the map.
    flights: Mapping[Cell, tuple[Cell, ...]]
    coastal: tuple[Cell, ...]
    cells: tuple[Cell, ...]


def hex_distance(a: Cell, b: Cell) -> int:
    dq, dr = a[0] - b[0], a[1] - b[1]
    return (abs(dq) + abs(dr) + abs(dq + dr)) // 2


@cache
def geometry(players: int) -> Geometry:
    island = MAPS[players]
    cells = tuple(sorted(island.terrain))
    neighbours = {
        (q, r): tuple(sorted((q + dq, r + dr) for dq, dr in NEIGHBOUR_STEPS
                             if (q + dq, r + dr) in island.terrain))
        for q, r in cells
    }
    within3: dict[Cell, frozenset[Cell]] = {}
    for cell in cells:
        seen, frontier = {cell}, [cell]
        for _ in range(LONG_REACH):
            frontier = [n for c in frontier for n in neighbours[c] if n not in seen]
            seen.update(frontier)
        within3[cell] = frozenset(seen - {cell})
    flights = {
        cell: tuple(sorted({c for b in neighbours[cell] for c in neighbours[b]
                            if hex_distance(cell, c) == 2}))
        for cell in cells
    }
    return Geometry(neighbours, within3, flights, tuple(sorted(island.coastal)), cells)


def path_distance(players: int, a: Cell, b: Cell) -> int | None:
    """Fewest steps from ``a`` to ``b`` across spaces of the map (occupancy ignored)."""
    near = geometry(players).neighbours
    seen, frontier, steps = {a}, [a], 0
    while frontier:
        if b in frontier:
            return steps
        frontier = [n for c in frontier for n in near[c] if n not in seen]
        seen.update(frontier)
        steps += 1
    return None


# --- the two functions the outside checks --------------------------------------------------


def survivors(terrain_climate: str, dinosaurs: int, furs: int, parasols: int) -> int:
    """How many of ``dinosaurs`` in one climate survive ("Fase de supervivencia"): all when
    temperate, one per parasol when hot, one per fur when cold, none when deadly. Event cards,
    cave dweller, Shelter and regeneration are applied by the caller."""
    for value in (dinosaurs, furs, parasols):
        if not _is_int(value) or value < 0:
            raise ValueError("dinosaurs, furs and parasols are whole numbers, never negative")
    if terrain_climate == "temperate":
        return dinosaurs
    if terrain_climate == "hot":
        return min(dinosaurs, parasols)
    if terrain_climate == "cold":
        return min(dinosaurs, furs)
    if terrain_climate == "deadly":
        return 0
    raise ValueError(f"unknown climate {terrain_climate!r}")


def attack_wins(attacker_horns: int, defender_horns: int, face: str) -> str:
    """The outcome of a fight ("Fase de movimiento"): ``"stalemate"`` on the stalemate face,
    else ``"win"`` when the attacker's horn advantage reaches the face's number, else
    ``"fail"``."""
    if face == STALEMATE:
        return "stalemate"
    if face not in DIE_FACES:
        raise ValueError(f"unknown die face {face!r}")
    return "win" if attacker_horns - defender_horns >= int(face) else "fail"


# --- small queries -----------------------------------------------------------------------------


def _is_int(value: object) -> TypeGuard[int]:
    return type(value) is int


def _set(items: tuple[Any, ...], index: int, value: Any) -> tuple[Any, ...]:
    return (*items[:index], value, *items[index + 1:])


def count(state: State, seat: int, gene: str) -> int:
    """How many of ``gene`` the seat's species holds."""
    return state.genes[seat].count(gene)


def has(state: State, seat: int, gene: str) -> bool:
    return gene in state.genes[seat]


def played(state: State, seat: int, card: str) -> bool:
    """Whether the seat played ``card`` this round (its effect is in force)."""
    return (seat, card) in state.in_force


def played_by_opponent(state: State, seat: int, card: str) -> bool:
    return any(c == card and s != seat for s, c in state.in_force)


def movement_points(state: State, seat: int) -> int:
    """Points per movement turn: 2, +1 per legs, +2 for strong thighs."""
    return BASE_MOVEMENT + count(state, seat, "legs") + 2 * count(state, seat, "strong_thighs")


def eggs(state: State, seat: int) -> int:
    return BASE_EGGS + count(state, seat, "egg")


def attack_horns(state: State, seat: int) -> int:
    """Horns + 2 for big horn + 2 for Battle Rage."""
    return (count(state, seat, "horn") + 2 * count(state, seat, "big_horn")
            + 2 * played(state, seat, "rage"))


def defence_horns(state: State, seat: int) -> int:
    """Horns + 2 for bone plates + 2 for Herd Defence."""
    return (count(state, seat, "horn") + 2 * count(state, seat, "bone_plates")
            + 2 * played(state, seat, "herd"))


def dinosaurs(state: State, seat: int) -> list[Cell]:
    """The spaces of the seat's dinosaurs, sorted."""
    return sorted(cell for cell, owner in state.board.items() if owner == seat)


def on_board(state: State, seat: int) -> int:
    return sum(1 for owner in state.board.values() if owner == seat)


def supply(state: State, seat: int) -> int:
    return DINOSAURS_PER_PLAYER - on_board(state, seat)


def regenerating(state: State, seat: int) -> bool:
    """Regeneration protects a species of 3 dinosaurs or fewer from attacks, killer babies and
    the climate."""
    return has(state, seat, "regeneration") and on_board(state, seat) <= 3


def climates(state: State) -> dict[str, str]:
    """The climate of each terrain this round."""
    return {terrain: climate_of(state.section, terrain) for terrain in
            ("beach", "plains", "hills", "mountains")}


def climate_at(state: State, cell: Cell) -> str:
    return climate_of(state.section, state.map.terrain[cell])


def has_item(state: State, column: int) -> bool:
    """Column 1 holds the event card (while the deck has one), columns 2…N a gene or none."""
    if column == EVENT_COLUMN:
        return bool(state.deck)
    return state.lab[column - 2] is not None


def marker_of(state: State, seat: int) -> int | None:
    """The column (1…N) of the seat's marker, if it has one."""
    for column, marker in enumerate(state.markers, start=1):
        if marker is not None and marker[0] == seat:
            return column
    return None


def bid_cost(state: State, seat: int, value: int) -> int:
    """What a bid of ``value`` costs: 1 MP less per vial owned (bought in earlier rounds), 2
    less with Bargain, never below 0."""
    return max(0, value - count(state, seat, "vial") - 2 * played(state, seat, "bargain"))


def bidder(state: State) -> int | None:
    """The seat that bids now: one just displaced, else the next without a marker."""
    if state.phase != MUTATION:
        return None
    if state.displaced is not None:
        return state.displaced
    return next((s for s in state.initiative if marker_of(state, s) is None), None)


def mover(state: State) -> int | None:
    """The seat whose movement or birth turn it is."""
    if state.phase in (MOVEMENT, BIRTH) and state.turn < state.players:
        return state.initiative[state.turn]
    return None


def adrenaline_holder(state: State) -> int | None:
    return next((s for s in range(state.players) if has(state, s, "adrenaline")), None)


def active_seats(state: State) -> frozenset[int]:
    """Who the game waits for: the bidder, the adrenaline holder, every prompted seat that
    has not submitted, the mover (or the defender choosing where to flee), the placer."""
    phase = state.phase
    if phase == MUTATION:
        who = bidder(state)
        return frozenset() if who is None else frozenset({who})
    if phase == INITIATIVE:
        holder = adrenaline_holder(state)
        return frozenset() if holder is None else frozenset({holder})
    if phase in WINDOWS:
        return frozenset(s for s in state.prompted if state.plays[s] is None)
    if phase == SURVIVAL:
        return frozenset(s for s in state.prompted if state.keeps[s] is None)
    if phase == MOVEMENT and state.flee is not None:
        return frozenset({state.board[state.flee[1]]})
    who = mover(state)
    return frozenset() if who is None else frozenset({who})


# --- randomness --------------------------------------------------------------------------------


def _rng_draw(state: State, choices: list[str]) -> tuple[str, State]:
    """One uniform choice with the state's RNG; the counter moves on."""
    rng = seeded_rng(state.seed, "evo", state.counter)
    return rng.choice(choices), _replace(state, counter=state.counter + 1)


def _roll(state: State) -> tuple[str, State]:
    """The combat die."""
    face, state = _rng_draw(state, list(DIE_FACES))
    return face, _replace(state, rolls=state.rolls + 1)


def _without(items: tuple[str, ...], item: str) -> tuple[str, ...]:
    i = items.index(item)
    return items[:i] + items[i + 1:]


# --- setup -------------------------------------------------------------------------------------


def setup(players: int, options: Any = None, seed: int = 0) -> State:
    """"Preparar": the map for the player count, the wheel on its start, 6 MP and 8 dinosaurs
    each with one on each starting space, the bag (36 normal genes and 8 of the 12 unique
    ones), the event deck shuffled, the climate pile (one token out unseen, the meteorite among
    the bottom three) and a random initiative track. Then the first climate phase."""
    if not _is_int(players) or not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise ValueError(f"Evo is for {MIN_PLAYERS} to {MAX_PLAYERS} players")
    rng = seeded_rng(seed, "evo", "setup")
    uniques = rng.sample(UNIQUE_GENES, UNIQUE_IN_BAG)
    bag = sorted([g for g, n in NORMAL_GENES.items() for _ in range(n)] + uniques)
    deck = list(EVENT_CARDS)
    rng.shuffle(deck)
    normal = sorted(t.id for t in CLIMATE_TOKENS.values() if t.steps is not None
                    for _ in range(t.count))
    rng.shuffle(normal)
    set_aside = normal.pop()
    bottom = [METEORITE, *normal[:PILE_BOTTOM - 1]]
    top = normal[PILE_BOTTOM - 1:]
    rng.shuffle(bottom)
    rng.shuffle(top)
    initiative = list(range(players))
    rng.shuffle(initiative)
    board = {cell: seat for seat, pair in enumerate(MAPS[players].starts) for cell in pair}
    none: tuple[None, ...] = (None,) * players
    state = State(
        players=players, seed=seed, counter=0, round=1, phase=CLIMATE, section=WHEEL_START,
        pile=(*top, *bottom), set_aside=set_aside, revealed=(), bag=tuple(bag),
        boxed=tuple(g for g in UNIQUE_GENES if g not in uniques), deck=tuple(deck),
        hands=((),) * players, played=(), in_force=frozenset(), mp=(START_MP,) * players,
        genes=((),) * players, board=board, initiative=tuple(initiative),
        lab=(None,) * (players - 1), markers=none, displaced=None, barred=none, turn=0,
        points=0, flown=frozenset(), camouflaged=None, flee=None, newborns=(0,) * players,
        parents=(frozenset(),) * players, born=(frozenset(),) * players, orphans=frozenset(),
        finished=frozenset(), prompted=frozenset(), plays=none, keeps=none,
    )
    return _advance(state, [])


# --- the automatic flow ------------------------------------------------------------------------


def _advance(state: State, log: list[Happening]) -> State:
    """Run every step without a choice until a seat must decide or the game is over."""
    while True:
        phase = state.phase
        if phase == CLIMATE:
            state = _climate(state, log)
        elif phase == MUTATION:
            if all(marker_of(state, s) is not None for s in range(state.players)):
                state = _resolve_mutation(state, log)
                continue
            who = bidder(state)
            assert who is not None
            if bid_options(state, who):
                return state
            state = _no_bid(state, who, log)
        elif phase in WINDOWS:
            if active_seats(state):
                return state
            state = _close_window(state, log)
        elif phase == MOVEMENT:
            if state.flee is not None:
                return state
            who = mover(state)
            if who is None:
                state = _start_birth(state, log)
            elif state.hands[who] or _can_step(state, who):
                return state
            else:
                log.append(("no_move", {"seat": who}))
                state = _next_mover(state)
        elif phase == BIRTH:
            who = mover(state)
            if who is None:
                state = _open_window(state, SURVIVAL_WINDOW, log)
            elif state.hands[who] or birth_spaces(state, who):
                return state
            else:
                if state.newborns[who] and supply(state, who):
                    log.append(("no_space", {"seat": who}))
                state = _next_placer(_replace(state, finished=state.finished | {who}))
        elif phase == SURVIVAL:
            if active_seats(state):
                return state
            state = _resolve_survival(state, log)
        else:  # INITIATIVE waits for the adrenaline holder; OVER for nobody
            return state


def _climate(state: State, log: list[Happening]) -> State:
    """"Fase climática": reveal the top token; the meteorite ends the game at once, any other
    turns the wheel. Then the mutation phase begins with the lab's draw."""
    token, pile = state.pile[0], state.pile[1:]
    state = _replace(state, pile=pile, revealed=(*state.revealed, token))
    if token == METEORITE:
        log.append(("meteorite", {"round": state.round}))
        return _replace(state, phase=OVER)
    steps = CLIMATE_TOKENS[token].steps
    assert steps is not None
    state = _replace(state, section=(state.section + steps) % 12)
    log.append(("climate", {"round": state.round, "token": token, "section": state.section,
                            "climates": climates(state)}))
    return _start_mutation(state, log)


def _start_mutation(state: State, log: list[Happening]) -> State:
    """"Fase de mutación": fill columns 2…N from the bag, never two identical genes (drawn
    uniformly among the tokens of genes not yet in the lab); columns stay empty when none is
    left."""
    lab: list[str | None] = []
    for _ in range(state.players - 1):
        eligible = [g for g in state.bag if g not in lab]
        if not eligible:
            lab.append(None)
            continue
        gene, state = _rng_draw(state, eligible)
        state = _replace(state, bag=_without(state.bag, gene))
        lab.append(gene)
    none: tuple[None, ...] = (None,) * state.players
    log.append(("lab", {"genes": list(lab)}))
    return _replace(state, phase=MUTATION, lab=tuple(lab), markers=none, displaced=None,
                    barred=none)


def _no_bid(state: State, seat: int, log: list[Happening]) -> State:
    """No legal bid: the marker goes, without a bid, to the leftmost column without an item
    and without a marker (decision 1)."""
    column = next(c for c in range(1, state.players + 1)
                  if not has_item(state, c) and state.markers[c - 1] is None)
    log.append(("no_bid", {"seat": seat, "column": column}))
    return _replace(state, markers=_set(state.markers, column - 1, (seat, None)),
                    displaced=None, barred=_set(state.barred, seat, None))


def _resolve_mutation(state: State, log: list[Happening]) -> State:
    """The holder of column 1 draws an event card, the others take their gene; everyone pays;
    then Spontaneous Mutation draws its gene."""
    costs = [0] * state.players
    for marker in state.markers:
        if marker is not None and marker[1] is not None:
            costs[marker[0]] = bid_cost(state, marker[0], marker[1])
    hands, genes = list(state.hands), list(state.genes)
    deck = state.deck
    for column, marker in enumerate(state.markers, start=1):
        if marker is None:
            continue
        seat, value = marker
        if value is None:
            log.append(("no_item", {"seat": seat, "column": column}))
        elif column == EVENT_COLUMN:
            card, deck = deck[0], deck[1:]
            hands[seat] = (*hands[seat], card)
            log.append(("won_card", {"seat": seat, "value": value, "cost": costs[seat],
                                     "card": card}))
        else:
            gene = state.lab[column - 2]
            assert gene is not None
            genes[seat] = (*genes[seat], gene)
            log.append(("won_gene", {"seat": seat, "value": value, "cost": costs[seat],
                                     "gene": gene, "column": column}))
    state = _replace(state, deck=deck, hands=tuple(hands), genes=tuple(genes),
                     mp=tuple(mp - cost for mp, cost in zip(state.mp, costs, strict=True)))
    for seat in range(state.players):
        if played(state, seat, "mutation"):
            eligible = [g for g in state.bag if g not in state.lab]
            if not eligible:
                log.append(("mutation_none", {"seat": seat}))
                continue
            gene, state = _rng_draw(state, eligible)
            state = _replace(state, bag=_without(state.bag, gene),
                             genes=_set(state.genes, seat, (*state.genes[seat], gene)))
            log.append(("mutation_gene", {"seat": seat, "gene": gene}))
    return _initiative(state, log)


def _initiative(state: State, log: list[Happening]) -> State:
    """"Fase de iniciación": markers to the track in column order, a stable sort by dinosaurs
    on the board (fewest first), Head Start to first place; then the adrenaline holder picks
    a place."""
    order = sorted(range(state.players), key=lambda s: marker_of(state, s) or 0)
    order.sort(key=lambda s: on_board(state, s))
    for seat in range(state.players):
        if played(state, seat, "head_start"):
            order.remove(seat)
            order.insert(0, seat)
            log.append(("head_start", {"seat": seat}))
    state = _replace(state, initiative=tuple(order))
    log.append(("initiative", {"order": list(order)}))
    if adrenaline_holder(state) is not None:
        return _replace(state, phase=INITIATIVE)
    return _open_window(state, MOVE_WINDOW, log)


def _open_window(state: State, phase: str, log: list[Happening]) -> State:
    """A sealed window: every holder of an event card is asked, whatever its cards."""
    prompted = frozenset(s for s in range(state.players) if state.hands[s])
    if prompted:
        log.append(("window", {"phase": phase, "seats": sorted(prompted)}))
    return _replace(state, phase=phase, prompted=prompted, plays=(None,) * state.players)


def _close_window(state: State, log: list[Happening]) -> State:
    """Every submission is in: reveal them all and apply them together."""
    hands, played_cards, in_force = list(state.hands), list(state.played), set(state.in_force)
    camouflaged = state.camouflaged
    revealed: list[JSON] = []
    prompted = sorted(state.prompted)
    for seat in prompted:
        plays = state.plays[seat] or ()
        for card, at in plays:
            hands[seat] = _without(hands[seat], card)
            played_cards.append((seat, card))
            in_force.add((seat, card))
            if card == "camouflage":
                camouflaged = at
        revealed.append({"seat": seat, "cards": [card for card, _ in plays],
                         "at": next(([*at] for card, at in plays if at is not None), None)})
    if prompted:
        log.append(("revealed", {"phase": state.phase, "plays": revealed}))
    state = _replace(state, hands=tuple(hands), played=tuple(played_cards),
                     in_force=frozenset(in_force), camouflaged=camouflaged,
                     prompted=frozenset(), plays=(None,) * state.players)
    if state.phase == MOVE_WINDOW:
        return _start_turn(_replace(state, phase=MOVEMENT, turn=0, flown=frozenset(),
                                    finished=frozenset()))
    return _start_survival(state, log)


def _start_turn(state: State) -> State:
    """A movement turn begins with the mover's points."""
    who = mover(state)
    return _replace(state, points=0 if who is None else movement_points(state, who))


def _next_mover(state: State) -> State:
    finished = state.finished | {state.initiative[state.turn]}
    return _start_turn(_replace(state, turn=state.turn + 1, finished=finished))


def _start_birth(state: State, log: list[Happening]) -> State:
    """"Fase de nacimiento": each player has its eggs' newborns; the parents are its
    dinosaurs now on the board. Movement's cards end here."""
    parents = tuple(frozenset(dinosaurs(state, s)) for s in range(state.players))
    log.append(("birth", {"newborns": [eggs(state, s) for s in range(state.players)]}))
    return _replace(
        state, phase=BIRTH, turn=0, points=0, camouflaged=None, flown=frozenset(),
        newborns=tuple(eggs(state, s) for s in range(state.players)), parents=parents,
        born=(frozenset(),) * state.players,
        orphans=frozenset(s for s in range(state.players) if not parents[s]),
        finished=frozenset())


def _next_placer(state: State) -> State:
    """The next seat in initiative order that is not done with the phase (turn = players when
    all are). A birth turn ends only when its seat is done with the phase (rules version 2:
    each player places all its newborns in its turn), so the order never wraps round — except
    in a game stored mid-birth under version 1 (one newborn per turn, round robin): a seat
    passed over then with newborns left gets its turn after the last one, and places them
    all."""
    n = state.players
    for step in range(1, n + 1):
        index = (state.turn + step) % n
        if state.initiative[index] not in state.finished:
            return _replace(state, turn=index)
    return _replace(state, turn=n)


@dataclass(frozen=True)
class SurvivalPlan:
    """One player's survival: its dinosaurs by climate, how many of each climate survive by
    right (``allowed``), and how many more regeneration keeps (``extra``)."""

    by_climate: Mapping[str, tuple[Cell, ...]]
    allowed: Mapping[str, int]
    extra: int

    @property
    def endangered(self) -> tuple[Cell, ...]:
        return tuple(sorted(c for climate in ("hot", "cold", "deadly")
                            for c in self.by_climate[climate]))

    @property
    def kept(self) -> int:
        """How many endangered dinosaurs survive."""
        return sum(self.allowed.values()) + self.extra


def survival_plan(state: State, seat: int) -> SurvivalPlan:
    """Furs and parasols with the cards (Ice Cold / Heat Wave of an opponent, Winter Coat /
    Sunshade), the deadly spaces' saves (cave dweller, Shelter), and regeneration's floor of
    min(3, dinosaurs)."""
    by: dict[str, list[Cell]] = {c: [] for c in ("temperate", "hot", "cold", "deadly")}
    for cell in dinosaurs(state, seat):
        by[climate_at(state, cell)].append(cell)
    furs = max(0, count(state, seat, "fur") + played(state, seat, "winter_coat")
               - played_by_opponent(state, seat, "cold_snap"))
    parasols = max(0, count(state, seat, "parasol") + played(state, seat, "sunshade")
                   - played_by_opponent(state, seat, "heat_wave"))
    saves = count(state, seat, "cave_dweller") + played(state, seat, "shelter")
    allowed = {climate: survivors(climate, len(by[climate]), furs, parasols)
               for climate in ("hot", "cold")}
    allowed["deadly"] = min(len(by["deadly"]), saves)
    extra = 0
    if has(state, seat, "regeneration"):
        total = sum(len(cells) for cells in by.values())
        extra = max(0, min(3, total) - len(by["temperate"]) - sum(allowed.values()))
    return SurvivalPlan({c: tuple(cells) for c, cells in by.items()}, allowed, extra)


def keep_options(plan: SurvivalPlan) -> list[tuple[Cell, ...]]:
    """Every legal ``keep``: as many endangered dinosaurs as survive, at least each climate's
    allowance in each climate (the rest are regeneration's extras)."""
    options = []
    for kept in combinations(plan.endangered, plan.kept):
        if all(sum(1 for c in kept if c in plan.by_climate[climate]) >= plan.allowed[climate]
               for climate in plan.allowed):
            options.append(kept)
    return options


def _start_survival(state: State, log: list[Happening]) -> State:
    """Players with a real choice of survivors choose at once (sealed); the others' survivors
    are fixed."""
    choosers = frozenset(s for s in range(state.players)
                         if len(keep_options(survival_plan(state, s))) > 1)
    if choosers:
        log.append(("choose_survivors", {"seats": sorted(choosers)}))
    return _replace(state, phase=SURVIVAL, prompted=choosers, keeps=(None,) * state.players)


def _resolve_survival(state: State, log: list[Happening]) -> State:
    """Remove the dead, then each player gains 1 MP per dinosaur on the board; next round."""
    board = dict(state.board)
    outcome: list[JSON] = []
    last_dead: list[tuple[Cell, ...]] = []
    for seat in range(state.players):
        plan = survival_plan(state, seat)
        kept = state.keeps[seat]
        if kept is None:
            kept = keep_options(plan)[0]
        dead = [c for c in plan.endangered if c not in kept]
        last_dead.append(tuple(dead))
        for cell in dead:
            del board[cell]
        outcome.append({"seat": seat, "dead": [[*c] for c in dead],
                        "dead_by_climate": {climate: sum(1 for c in dead if c in cells)
                                            for climate, cells in plan.by_climate.items()},
                        "chose": state.keeps[seat] is not None})
    state = _replace(state, board=board, last_dead=tuple(last_dead))
    gains = [on_board(state, s) for s in range(state.players)]
    log.append(("survival", {"outcome": outcome, "gains": gains}))
    return _replace(
        state, phase=CLIMATE, round=state.round + 1,
        mp=tuple(mp + gain for mp, gain in zip(state.mp, gains, strict=True)),
        in_force=frozenset(), prompted=frozenset(), keeps=(None,) * state.players,
        newborns=(0,) * state.players, parents=(frozenset(),) * state.players,
        born=(frozenset(),) * state.players, orphans=frozenset(), finished=frozenset(),
        turn=0)


# --- what a seat may do ------------------------------------------------------------------------


def bid_options(state: State, seat: int) -> list[tuple[int, int]]:
    """Every (column, value) the seat may bid: a column with an item, not the one it was just
    displaced from, above the marker there, and affordable."""
    options: list[tuple[int, int]] = []
    discount = count(state, seat, "vial") + 2 * played(state, seat, "bargain")
    top = min(MAX_BID, state.mp[seat] + discount)  # the highest value it can pay
    for column in range(1, state.players + 1):
        if not has_item(state, column) or column == state.barred[seat]:
            continue
        marker = state.markers[column - 1]
        low = MIN_BID if marker is None or marker[1] is None else marker[1] + 1
        options.extend((column, value) for value in range(low, top + 1))
    return options


def _empty(state: State, cell: Cell) -> bool:
    return cell not in state.board


def attackable(state: State, seat: int, cell: Cell) -> bool:
    """An opponent's dinosaur that may be attacked: not under Camouflage, not of a species
    that regeneration protects."""
    owner = state.board.get(cell)
    return (owner is not None and owner != seat and cell != state.camouflaged
            and not regenerating(state, owner))


def step_moves(state: State, seat: int) -> Iterator[Move]:
    """The seat's movement steps (each costs 1 point): move, attack, fly, swim."""
    if state.points < 1:
        return
    geo = geometry(state.players)
    own = dinosaurs(state, seat)
    wings = has(state, seat, "wings") and seat not in state.flown
    fins = has(state, seat, "fins")
    coast = [c for c in geo.coastal if _empty(state, c)] if fins else []
    for cell in own:
        for near in geo.neighbours[cell]:
            if _empty(state, near):
                yield {"type": "move", "from": [*cell], "to": [*near]}
            elif attackable(state, seat, near):
                yield {"type": "attack", "from": [*cell], "to": [*near]}
        if wings:
            for far in geo.flights[cell]:
                if _empty(state, far):
                    yield {"type": "fly", "from": [*cell], "to": [*far]}
        if fins and cell in state.map.coastal:
            for far in coast:
                if far != cell and far not in geo.neighbours[cell]:
                    yield {"type": "swim", "from": [*cell], "to": [*far]}


def _can_step(state: State, seat: int) -> bool:
    return next(step_moves(state, seat), None) is not None


def migration_moves(state: State, seat: int) -> Iterator[Move]:
    geo = geometry(state.players)
    for cell in dinosaurs(state, seat):
        for far in sorted(geo.within3[cell]):
            if _empty(state, far):
                yield {"type": "play_event", "card": "migration", "from": [*cell],
                       "to": [*far]}


def birth_reach(state: State, seat: int) -> int:
    """1, or 3 with thick shell or Nomad Nest."""
    return LONG_REACH if has(state, seat, "thick_shell") or played(state, seat, "nest") else 1


def _near(state: State, sources: Iterable[Cell], reach: int) -> set[Cell]:
    geo = geometry(state.players)
    if reach == 1:
        return {n for c in sources for n in geo.neighbours[c]}
    return {n for c in sources for n in geo.within3[c]}


def birth_spaces(state: State, seat: int) -> list[Cell]:
    """Where the seat's next newborn may be born (sorted): empty spaces within reach of a
    parent — for a player that began the phase without one, of its newborns of this phase, or
    anywhere while none is on the board —, and with killer babies opponents' dinosaurs within
    reach of a parent (not protected by regeneration). None without newborn or supply."""
    if state.newborns[seat] <= 0 or supply(state, seat) <= 0:
        return []
    reach = birth_reach(state, seat)
    parents = [c for c in state.parents[seat] if state.board.get(c) == seat]
    if seat in state.orphans:
        born = [c for c in state.born[seat] if state.board.get(c) == seat]
        if not born:
            return [c for c in geometry(state.players).cells if _empty(state, c)]
        empties = {c for c in _near(state, born, reach) if _empty(state, c)}
    else:
        empties = {c for c in _near(state, parents, reach) if _empty(state, c)}
    targets: set[Cell] = set()
    if has(state, seat, "killer_babies") and parents:
        targets = {c for c in _near(state, parents, reach)
                   if (owner := state.board.get(c)) is not None and owner != seat
                   and not regenerating(state, owner)}
    return sorted(empties | targets)


def window_options(state: State, seat: int) -> list[Move]:
    """A prompted seat's choices in a window: pass, or any set of its cards of the window's
    timing (Camouflage naming one of its dinosaurs)."""
    timing = PHASE_TIMING[state.phase]
    cards = [c for c in EVENT_CARDS if c in state.hands[seat]
             and EVENT_CARDS[c].timing == timing]
    options: list[Move] = [{"type": "pass"}]
    own = dinosaurs(state, seat)
    for size in range(1, len(cards) + 1):
        for chosen in combinations(cards, size):
            if "camouflage" in chosen:
                for cell in own:
                    options.append({"type": "play_events", "cards": [
                        {"card": c, "at": [*cell]} if c == "camouflage" else {"card": c}
                        for c in chosen]})
            else:
                options.append({"type": "play_events",
                                "cards": [{"card": c} for c in chosen]})
    return options


def _turn_cards(state: State, seat: int) -> list[str]:
    """The seat's cards it may play as ``play_event`` now (bid, move-turn, birth-turn)."""
    timing = PHASE_TIMING.get(state.phase)
    return [c for c in EVENT_CARDS if c in state.hands[seat]
            and EVENT_CARDS[c].timing == timing]


def legal_moves(state: State, seat: int) -> list[Move]:
    """Every concrete legal move of ``seat`` now (empty when the game does not wait for it)."""
    if seat not in active_seats(state):
        return []
    phase = state.phase
    if phase == MUTATION:
        moves: list[Move] = [{"type": "bid", "column": c, "value": v}
                             for c, v in bid_options(state, seat)]
        return moves + [{"type": "play_event", "card": c} for c in _turn_cards(state, seat)]
    if phase == INITIATIVE:
        return [{"type": "initiative", "position": p} for p in range(state.players)]
    if phase in WINDOWS:
        return window_options(state, seat)
    if phase == SURVIVAL:
        return [{"type": "keep", "at": [[*c] for c in kept]}
                for kept in keep_options(survival_plan(state, seat))]
    if phase == MOVEMENT:
        if state.flee is not None:
            geo = geometry(state.players)
            return [{"type": "flee", "to": [*c]} for c in geo.neighbours[state.flee[1]]
                    if _empty(state, c)] + [{"type": "flee", "to": None}]
        moves = list(step_moves(state, seat))
        for card in _turn_cards(state, seat):
            if card == "migration":
                moves.extend(migration_moves(state, seat))
            else:
                moves.append({"type": "play_event", "card": card})
        return [*moves, {"type": "done"}]
    if phase == BIRTH:
        moves = [{"type": "place", "at": [*c]} for c in birth_spaces(state, seat)]
        moves += [{"type": "play_event", "card": c} for c in _turn_cards(state, seat)]
        return [*moves, {"type": "done"}]
    return []


# --- applying a move ---------------------------------------------------------------------------


def apply(state: State, seat: int, move: Move) -> State:
    """The state after ``seat`` makes ``move``, or :class:`IllegalMove` citing the rule."""
    return _apply(state, seat, move, [])


def happenings(state: State, seat: int, move: Move) -> list[Happening]:
    """What applying ``move`` made happen, in order (for the log)."""
    log: list[Happening] = []
    _apply(state, seat, move, log)
    return log


def _waiting_for(state: State) -> list[str]:
    """The seats the table waits for (a list the message joins with its language's "and")."""
    return phrases.seats(sorted(active_seats(state)))


def _apply(state: State, seat: int, move: Move, log: list[Happening]) -> State:
    if state.over:
        raise IllegalMove(Msg("the game is over: the meteorite has fallen"), RULE_CLIMATE)
    kind = move.get("type") if isinstance(move, dict) else None
    if not isinstance(kind, str) or kind not in MOVE_FIELDS:
        raise IllegalMove(Msg("that is not a move of Evo"), RULE_TURN)
    if not _is_int(seat) or not 0 <= seat < state.players:
        raise IllegalMove(Msg("that seat does not play at this table"), RULE_TURN)
    phase = state.phase
    if seat not in active_seats(state):
        if phase in WINDOWS and seat in state.prompted:
            raise IllegalMove(Msg("you have already sealed your choice for this window"),
                              RULE_EVENTS)
        if phase == SURVIVAL and seat in state.prompted:
            raise IllegalMove(Msg("you have already chosen your survivors"), RULE_SURVIVAL)
        waiting = {"seats": _waiting_for(state)}
        if phase in WINDOWS:
            raise IllegalMove(Msg("only players holding event cards choose now: the table "
                                  "waits for {seats}", waiting), RULE_EVENTS)
        if phase == SURVIVAL:
            raise IllegalMove(Msg("you have no choice of survivors: the table waits for "
                                  "{seats}", waiting), RULE_SURVIVAL)
        raise IllegalMove(Msg("it is not your turn: the table waits for {seats}", waiting),
                          RULE_TURN)
    if kind not in PHASE_MOVES[phase] or (kind == "flee") != (state.flee is not None):
        if state.flee is not None:
            raise IllegalMove(Msg("your dinosaur lost the fight: choose where it flees, or "
                                  "let it die"), RULE_CHAMELEON)
        raise IllegalMove(Msg("that is not a move of the {phase}",
                              {"phase": Msg(PHASE_NAMES[phase])}), RULE_TURN)
    if kind == "bid":
        state = _bid(state, seat, move, log)
    elif kind == "play_event":
        state = _play_event(state, seat, move, log)
    elif kind == "initiative":
        state = _choose_place(state, seat, move, log)
    elif kind in ("play_events", "pass"):
        state = _seal_window(state, seat, move, log)
    elif kind in STEPS:
        state = _step(state, seat, kind, move, log)
    elif kind == "flee":
        state = _flee(state, seat, move, log)
    elif kind == "place":
        state = _place(state, seat, move, log)
    elif kind == "keep":
        state = _keep(state, seat, move, log)
    else:
        state = _done(state, seat, log)
    return _advance(state, log)


#: What a move names with a space, asked for when it names none.
CHOOSE_SPACE = N_("choose a space of the island")
CHOOSE_DINOSAUR = N_("choose a dinosaur of the island")
CHOOSE_OWN = N_("choose one of your dinosaurs of the island")


def _cell(value: object, rule: str, ask: str = CHOOSE_SPACE) -> Cell:
    """A space ``[q, r]`` of the move."""
    if (isinstance(value, list | tuple) and len(value) == 2
            and all(_is_int(v) for v in value)):
        return (value[0], value[1])
    raise IllegalMove(Msg(ask), rule)


def _on_map(state: State, cell: Cell, rule: str) -> None:
    if cell not in state.map.terrain:
        raise IllegalMove(Msg("that space is not on the island"), rule)


def _bid(state: State, seat: int, move: Move, log: list[Happening]) -> State:
    """"Fase de mutación": an empty column takes any value, an occupied one only more than its
    marker (which is displaced: its owner bids again at once, not in that column)."""
    column, value = move.get("column"), move.get("value")
    if not _is_int(column) or not 1 <= column <= state.players:
        raise IllegalMove(Msg("choose a column of the lab, 1 to {n}", {"n": state.players}),
                          RULE_MUTATION)
    if not _is_int(value) or not MIN_BID <= value <= MAX_BID:
        raise IllegalMove(Msg("a bid is a whole number from {low} to {high}",
                              {"low": MIN_BID, "high": MAX_BID}), RULE_MUTATION)
    if not has_item(state, column):
        raise IllegalMove(Msg("column {column} holds nothing to bid for", {"column": column}),
                          RULE_MUTATION)
    if column == state.barred[seat]:
        raise IllegalMove(Msg("you were just outbid in column {column}: bid in another column",
                              {"column": column}), RULE_MUTATION)
    marker = state.markers[column - 1]
    if marker is not None and marker[1] is not None and value <= marker[1]:
        raise IllegalMove(Msg("outbid the {value} there: bid more than {value}",
                              {"value": marker[1]}), RULE_MUTATION)
    cost = bid_cost(state, seat, value)
    if cost > state.mp[seat]:
        raise IllegalMove(Msg("that bid costs {cost} MP and you have {mp}",
                              {"cost": cost, "mp": state.mp[seat]}), RULE_MUTATION)
    barred = _set(state.barred, seat, None)
    displaced = None
    if marker is not None:
        displaced = marker[0]
        barred = _set(barred, displaced, column)
    log.append(("bid", {"seat": seat, "column": column, "value": value,
                        "item": _item(state, column), "outbid": displaced}))
    return _replace(state, markers=_set(state.markers, column - 1, (seat, value)),
                    displaced=displaced, barred=barred)


def _item(state: State, column: int) -> str:
    """"event" for column 1, else the column's gene."""
    return "event" if column == EVENT_COLUMN else str(state.lab[column - 2])


def _held(state: State, seat: int, card: object) -> str:
    if not isinstance(card, str) or card not in EVENT_CARDS:
        raise IllegalMove(Msg("name one of the event cards"), RULE_EVENTS)
    if card not in state.hands[seat]:
        raise IllegalMove(Msg("you do not hold {card}", {"card": phrases.card(card)}),
                          RULE_EVENTS)
    return card


def _played_when(card: str) -> Msg:
    """The refusal of a card played at the wrong moment: when it is played."""
    return Msg("{card} is played {when}", {"card": phrases.card(card),
                                           "when": Msg(TIMING_WORDS[EVENT_CARDS[card].timing])})


def _names_no_space(card: str) -> Msg:
    return Msg("{card} names no space", {"card": phrases.card(card)})


def _play_event(state: State, seat: int, move: Move, log: list[Happening]) -> State:
    """A card played on one's own turn (bid, movement or birth): public at once."""
    card = _held(state, seat, move.get("card"))
    timing = EVENT_CARDS[card].timing
    if timing != PHASE_TIMING[state.phase]:
        raise IllegalMove(_played_when(card), RULE_EVENTS)
    extra: JSON = {}
    if card == "migration":
        start = _cell(move.get("from"), RULE_EVENTS, CHOOSE_DINOSAUR)
        end = _cell(move.get("to"), RULE_EVENTS)
        _on_map(state, start, RULE_EVENTS)
        _on_map(state, end, RULE_EVENTS)
        if state.board.get(start) != seat:
            raise IllegalMove(Msg("Migration moves one of your own dinosaurs"), RULE_EVENTS)
        if not _empty(state, end):
            raise IllegalMove(Msg("Migration ends on an empty space"), RULE_EVENTS)
        if end not in geometry(state.players).within3[start]:
            raise IllegalMove(Msg("Migration goes at most {n} spaces", {"n": LONG_REACH}),
                              RULE_EVENTS)
        state = _relocate(state, start, end)
        extra = {"from": [*start], "to": [*end]}
    elif move.get("from") is not None or move.get("to") is not None:
        raise IllegalMove(_names_no_space(card), RULE_EVENTS)
    state = _replace(state, hands=_set(state.hands, seat, _without(state.hands[seat], card)),
                     played=(*state.played, (seat, card)),
                     in_force=state.in_force | {(seat, card)})
    if card == "sprint":
        state = _replace(state, points=state.points + 2)
    elif card == "fertility":
        state = _replace(state, newborns=_set(state.newborns, seat, state.newborns[seat] + 1))
    log.append(("play_event", {"seat": seat, "card": card, **extra}))
    return state


def _choose_place(state: State, seat: int, move: Move, log: list[Happening]) -> State:
    """"Subidón de adrenalina": the holder takes any place; the others keep their order."""
    position = move.get("position")
    if not _is_int(position) or not 0 <= position < state.players:
        raise IllegalMove(Msg("choose a place from 1 to {n}", {"n": state.players}),
                          RULE_ADRENALINE)
    order = [s for s in state.initiative if s != seat]
    order.insert(position, seat)
    log.append(("adrenaline", {"seat": seat, "position": position, "order": order}))
    return _open_window(_replace(state, initiative=tuple(order)), MOVE_WINDOW, log)


def _seal_window(state: State, seat: int, move: Move, log: list[Happening]) -> State:
    """A window's submission, sealed until every prompted seat has submitted."""
    plays: list[Play] = []
    if move["type"] == "play_events":
        cards = move.get("cards")
        if not isinstance(cards, list) or not cards:
            raise IllegalMove(Msg("list the event cards you play, or pass"), RULE_EVENTS)
        timing = PHASE_TIMING[state.phase]
        own = set(dinosaurs(state, seat))
        for entry in cards:
            if not isinstance(entry, dict) or not set(entry) <= {"card", "at"}:
                raise IllegalMove(Msg("name each card you play"), RULE_EVENTS)
            card = _held(state, seat, entry.get("card"))
            if any(card == c for c, _ in plays):
                raise IllegalMove(Msg("{card} is played once", {"card": phrases.card(card)}),
                                  RULE_EVENTS)
            if EVENT_CARDS[card].timing != timing:
                raise IllegalMove(_played_when(card), RULE_EVENTS)
            at: Cell | None = None
            if card == "camouflage":
                at = _cell(entry.get("at"), RULE_EVENTS, CHOOSE_DINOSAUR)
                if at not in own:
                    raise IllegalMove(Msg("Camouflage protects one of your own dinosaurs"),
                                      RULE_EVENTS)
            elif entry.get("at") is not None:
                raise IllegalMove(_names_no_space(card), RULE_EVENTS)
            plays.append((card, at))
    log.append(("sealed", {"seat": seat, "phase": state.phase,
                           "cards": [c for c, _ in plays],
                           "at": next(([*a] for _, a in plays if a is not None), None)}))
    return _replace(state, plays=_set(state.plays, seat, tuple(plays)))


def _relocate(state: State, start: Cell, end: Cell) -> State:
    """A dinosaur goes from ``start`` to ``end``; Camouflage follows it."""
    board = dict(state.board)
    board[end] = board.pop(start)
    camouflaged = end if state.camouflaged == start else state.camouflaged
    return _replace(state, board=board, camouflaged=camouflaged)


def _step(state: State, seat: int, kind: str, move: Move, log: list[Happening]) -> State:
    """"Fase de movimiento": one step for one point — a move to an adjacent empty space, an
    attack, a flight (wings), a swim (fins)."""
    start = _cell(move.get("from"), RULE_MOVEMENT, CHOOSE_OWN)
    end = _cell(move.get("to"), RULE_MOVEMENT)
    _on_map(state, start, RULE_MOVEMENT)
    _on_map(state, end, RULE_MOVEMENT)
    if state.board.get(start) != seat:
        raise IllegalMove(Msg("you have no dinosaur on that space"), RULE_MOVEMENT)
    if state.points < 1:
        raise IllegalMove(Msg("you have no movement point left this turn"), RULE_MOVEMENT)
    geo = geometry(state.players)
    if kind == "move":
        if end not in geo.neighbours[start]:
            raise IllegalMove(Msg("a dinosaur moves one space at a time, to an adjacent space"),
                              RULE_MOVEMENT)
        if not _empty(state, end):
            raise IllegalMove(Msg("that space is occupied: no dinosaur enters or passes an "
                                  "occupied space except by a fight"), RULE_MOVEMENT)
    elif kind == "fly":
        if not has(state, seat, "wings"):
            raise IllegalMove(Msg("only a species with wings flies"), RULE_WINGS)
        if seat in state.flown:
            raise IllegalMove(Msg("wings are used once per movement phase"), RULE_WINGS)
        if end not in geo.flights[start]:
            raise IllegalMove(Msg("a flight goes exactly 2 spaces"), RULE_WINGS)
        if not _empty(state, end):
            raise IllegalMove(Msg("a flight ends on an empty space"), RULE_WINGS)
        state = _replace(state, flown=state.flown | {seat})
    elif kind == "swim":
        if not has(state, seat, "fins"):
            raise IllegalMove(Msg("only a species with fins swims"), RULE_FINS)
        if start not in state.map.coastal or end not in state.map.coastal:
            raise IllegalMove(Msg("a swim goes from a coastal space to another coastal space"),
                              RULE_FINS)
        if start == end or end in geo.neighbours[start]:
            raise IllegalMove(Msg("an adjacent space is reached by an ordinary move, not a "
                                  "swim"), RULE_FINS)
        if not _empty(state, end):
            raise IllegalMove(Msg("a swim ends on an empty coastal space"), RULE_FINS)
    else:
        return _attack(state, seat, start, end, log)
    log.append((kind, {"seat": seat, "from": [*start], "to": [*end]}))
    return _replace(_relocate(state, start, end), points=state.points - 1)


def _attack(state: State, seat: int, start: Cell, end: Cell, log: list[Happening]) -> State:
    """A fight: roll the die against the horn difference. A win kills the defender (or a
    chameleon steps aside) and the attacker takes the space; a fail or stalemate changes
    nothing. The attacker never dies."""
    if end not in geometry(state.players).neighbours[start]:
        raise IllegalMove(Msg("a dinosaur attacks an adjacent space"), RULE_MOVEMENT)
    defender = state.board.get(end)
    if defender is None or defender == seat:
        raise IllegalMove(Msg("attack a space holding an opponent's dinosaur"), RULE_MOVEMENT)
    if end == state.camouflaged:
        raise IllegalMove(Msg("that dinosaur is under Camouflage: it cannot be attacked this "
                              "movement phase"), RULE_EVENTS)
    if regenerating(state, defender):
        raise IllegalMove(Msg("{p0} has regeneration and 3 dinosaurs or fewer: none can be "
                              "attacked", who(p0=defender)), RULE_REGENERATION)
    face, state = _roll(state)
    horns = (attack_horns(state, seat), defence_horns(state, defender))
    outcome = attack_wins(horns[0], horns[1], face)
    state = _replace(state, points=state.points - 1,
                     last_roll=(seat, "attack", face, outcome, end, start))
    flees = (outcome == "win" and has(state, defender, "chameleon")
             and any(_empty(state, c) for c in geometry(state.players).neighbours[end]))
    log.append(("attack", {"seat": seat, "defender": defender, "from": [*start],
                           "to": [*end], "horns": [*horns], "face": face, "outcome": outcome,
                           "flees": flees}))
    if outcome != "win":
        return state
    if flees:
        return _replace(state, flee=(start, end))
    board = dict(state.board)
    del board[end]
    return _relocate(_replace(state, board=board), start, end)


def _flee(state: State, seat: int, move: Move, log: list[Happening]) -> State:
    """"Piel de camaleón": the beaten dinosaur steps to an adjacent empty space, or dies;
    the attacker then takes the attacked space."""
    assert state.flee is not None
    start, end = state.flee
    target = move.get("to")
    board = dict(state.board)
    if target is None:
        del board[end]
        log.append(("fled", {"seat": seat, "from": [*end], "to": None}))
    else:
        cell = _cell(target, RULE_CHAMELEON)
        if cell not in geometry(state.players).neighbours[end] or not _empty(state, cell):
            raise IllegalMove(Msg("the dinosaur steps to an empty space next to it"),
                              RULE_CHAMELEON)
        board[cell] = board.pop(end)
        log.append(("fled", {"seat": seat, "from": [*end], "to": [*cell]}))
    return _relocate(_replace(state, board=board, flee=None), start, end)


def _done(state: State, seat: int, log: list[Happening]) -> State:
    log.append(("done", {"seat": seat, "phase": state.phase}))
    if state.phase == MOVEMENT:
        return _next_mover(state)
    return _next_placer(_replace(state, finished=state.finished | {seat}))


def _place(state: State, seat: int, move: Move, log: list[Happening]) -> State:
    """"Fase de nacimiento": one newborn next to a parent (3 spaces with thick shell or Nomad
    Nest); with killer babies on an opponent's dinosaur, with a roll of the die. "Los
    jugadores colocan nuevos dinosaurios en orden de iniciativa", read as movement reads: the
    placer's turn goes on until it is done with all its newborns (:func:`_advance` ends it
    when none is left to place, unless it holds an event card)."""
    at = _cell(move.get("at"), RULE_BIRTH)
    _on_map(state, at, RULE_BIRTH)
    if state.newborns[seat] <= 0:
        raise IllegalMove(Msg("you have no newborn left this birth phase"), RULE_BIRTH)
    if supply(state, seat) <= 0:
        raise IllegalMove(Msg("all your {n} dinosaurs are on the island",
                              {"n": DINOSAURS_PER_PLAYER}), RULE_BIRTH)
    owner = state.board.get(at)
    if at not in birth_spaces(state, seat):
        if owner == seat:
            raise IllegalMove(Msg("one of your dinosaurs stands there"), RULE_BIRTH)
        if owner is not None and not has(state, seat, "killer_babies"):
            raise IllegalMove(Msg("newborns are born on empty spaces"), RULE_KILLER_BABIES)
        if owner is not None and regenerating(state, owner):
            raise IllegalMove(Msg("{p0} has regeneration and 3 dinosaurs or fewer",
                                  who(p0=owner)), RULE_REGENERATION)
        reach = birth_reach(state, seat)
        raise IllegalMove(Msg("a newborn is born next to a parent") if reach == 1 else
                          Msg("a newborn is born at most {n} spaces from a parent",
                              {"n": reach}), RULE_BIRTH)
    state = _replace(state, newborns=_set(state.newborns, seat, state.newborns[seat] - 1))
    if owner is None:
        log.append(("born", {"seat": seat, "at": [*at]}))
        state = _add_newborn(state, seat, at)
    else:
        face, state = _roll(state)
        kills = face in KILLER_BABY_WIN_FACES
        state = _replace(state, last_roll=(seat, "killer baby", face,
                                          "kill" if kills else "die", at, None))
        log.append(("killer_baby", {"seat": seat, "victim": owner, "at": [*at], "face": face,
                                    "kills": kills}))
        if kills:
            board = dict(state.board)
            del board[at]
            state = _add_newborn(_replace(
                state, board=board,
                parents=_set(state.parents, owner, state.parents[owner] - {at}),
                born=_set(state.born, owner, state.born[owner] - {at})), seat, at)
    return state  # the turn goes on: the placer places all its newborns (version 2)


def _add_newborn(state: State, seat: int, at: Cell) -> State:
    board = dict(state.board)
    board[at] = seat
    return _replace(state, board=board, born=_set(state.born, seat, state.born[seat] | {at}))


def _keep(state: State, seat: int, move: Move, log: list[Happening]) -> State:
    """"Fase de supervivencia": the endangered dinosaurs that survive (sealed)."""
    at = move.get("at")
    if not isinstance(at, list):
        raise IllegalMove(Msg("list the spaces of the dinosaurs that survive"), RULE_SURVIVAL)
    kept = tuple(sorted({_cell(c, RULE_SURVIVAL, CHOOSE_DINOSAUR) for c in at}))
    plan = survival_plan(state, seat)
    if len(kept) != len(at) or any(c not in plan.endangered for c in kept):
        raise IllegalMove(Msg("name each of your endangered dinosaurs at most once"),
                          RULE_SURVIVAL)
    if len(kept) != plan.kept:
        raise IllegalMove(plural("{n} of your endangered dinosaurs survives: name that many",
                                 "{n} of your endangered dinosaurs survive: name that many",
                                 "n", n=plan.kept), RULE_SURVIVAL)
    if kept not in keep_options(plan):
        raise IllegalMove(Msg("keep as many dinosaurs as your parasols, furs and saves allow "
                              "in each climate before any that regeneration adds"),
                          RULE_SURVIVAL)
    log.append(("kept", {"seat": seat, "at": [[*c] for c in kept]}))
    return _replace(state, keeps=_set(state.keeps, seat, kept))


# --- status and result -------------------------------------------------------------------------


def seat_status(state: State, seat: int) -> SeatStatus:
    """What each seat is doing, in a few words; a seat that sealed its choice, said done or
    finished its movement has finished its part of the phase."""
    phase = state.phase
    active = seat in active_seats(state)
    if phase == MUTATION:
        return SeatStatus(N_("bidding") if active else "")
    if phase == INITIATIVE:
        return SeatStatus(N_("choosing a place on the initiative track") if active else "")
    if phase in WINDOWS:
        if seat in state.prompted:
            return (SeatStatus(N_("choosing event cards")) if active
                    else SeatStatus(N_("choice sealed"), RULE_EVENTS))
        return SeatStatus()
    if phase == SURVIVAL:
        if seat in state.prompted:
            return (SeatStatus(N_("choosing survivors")) if active
                    else SeatStatus(N_("survivors chosen"), RULE_SURVIVAL))
        return SeatStatus()
    if phase == MOVEMENT:
        if state.flee is not None:
            return SeatStatus(N_("choosing where to flee") if active else "")
        if active:
            return SeatStatus(N_("moving"))
        return (SeatStatus(N_("moved"), RULE_MOVEMENT) if seat in state.finished
                else SeatStatus())
    if phase == BIRTH:
        if active:
            return SeatStatus(N_("placing a newborn") if birth_spaces(state, seat)
                              else N_("ending the birth turn"))
        return SeatStatus(N_("done"), RULE_BIRTH) if seat in state.finished else SeatStatus()
    return SeatStatus()


def score_now(state: State) -> tuple[int, ...]:
    """Each seat's mutation points as the game stands ("Objeto del juego": you earn MP during
    the game and the player with the most at its end wins): 6 at the start ("Preparar"), minus
    the bids paid in each mutation phase, plus 1 per own dinosaur on the board after each
    survival phase ("Fase de supervivencia"). The views keep each total to its owner until
    the end (views.py), but every change is public — the bids paid, the MP scored —, so the
    count is read from what every seat sees; the platform shows it only once the game is over
    (a replay's chart, a forfeit's ranking). At the end, the result's scores."""
    return tuple(state.mp)


def result(state: State) -> Result | None:
    """Most MP wins; a tie goes to the most dinosaurs on the board; players still tied share
    the win ("Objeto del juego")."""
    if not state.over:
        return None
    key = {s: (state.mp[s], on_board(state, s)) for s in range(state.players)}
    ranking = tuple(sorted(range(state.players), key=lambda s: (-key[s][0], -key[s][1], s)))
    places = [1 + sum(1 for o in range(state.players) if key[o] > key[s])
              for s in range(state.players)]
    winners = tuple(s for s in ranking if places[s] == 1)
    shown = tuple(plural("{mp} MP, {n} dinosaur", "{mp} MP, {n} dinosaurs", "n", mp=mp, n=n)
                  for mp, n in key.values())
    return Result(
        scores=score_now(state), ranking=ranking, winners=winners,
        details={"mp": list(state.mp),
                 "dinosaurs": [on_board(state, s) for s in range(state.players)],
                 "places": places, "rounds": state.round - 1},
        headline=_headline(key, winners, ranking), shown=shown)


def _headline(key: Mapping[int, tuple[int, int]], winners: tuple[int, ...],
              ranking: tuple[int, ...]) -> Msg:
    """Who won and how: on MP, on the tie-break of dinosaurs, or sharing the win."""
    mp, dinos = key[winners[0]]
    if len(winners) > 1:
        return plural("{players} shared the win with {mp} MP and {n} dinosaur each",
                      "{players} shared the win with {mp} MP and {n} dinosaurs each", "n",
                      players=phrases.seats(winners), mp=mp, n=dinos)
    tied = [s for s in ranking if s != winners[0] and key[s][0] == mp]
    if tied:
        return Msg("{p0} won on the tie-break: {mp} MP like {p1}, and more dinosaurs on the "
                   "island ({n} to {m})",
                   {**who(p0=winners[0], p1=tied[0]), "mp": mp, "n": dinos,
                    "m": key[tied[0]][1]})
    return Msg("{p0} won with {mp} MP", {**who(p0=winners[0]), "mp": mp})


# --- persistence -------------------------------------------------------------------------------


def _cells(cells: Iterable[Cell]) -> list[list[int]]:
    return [[*c] for c in sorted(cells)]


def _opt_cell(cell: Cell | None) -> list[int] | None:
    return None if cell is None else [*cell]


def dump(state: State) -> JSON:
    """The whole state as JSON (hidden parts included: stored server-side only)."""
    return {
        "players": state.players, "seed": state.seed, "counter": state.counter,
        "round": state.round, "phase": state.phase, "section": state.section,
        "pile": list(state.pile), "set_aside": state.set_aside,
        "revealed": list(state.revealed), "bag": list(state.bag), "boxed": list(state.boxed),
        "deck": list(state.deck), "hands": [list(h) for h in state.hands],
        "played": [[s, c] for s, c in state.played],
        "in_force": sorted([s, c] for s, c in state.in_force),
        "mp": list(state.mp), "genes": [list(g) for g in state.genes],
        "board": sorted([q, r, s] for (q, r), s in state.board.items()),
        "initiative": list(state.initiative), "lab": list(state.lab),
        "markers": [None if m is None else [m[0], m[1]] for m in state.markers],
        "displaced": state.displaced, "barred": list(state.barred), "turn": state.turn,
        "points": state.points, "flown": sorted(state.flown),
        "camouflaged": _opt_cell(state.camouflaged),
        "flee": None if state.flee is None else [[*state.flee[0]], [*state.flee[1]]],
        "newborns": list(state.newborns), "parents": [_cells(p) for p in state.parents],
        "born": [_cells(b) for b in state.born], "orphans": sorted(state.orphans),
        "finished": sorted(state.finished), "prompted": sorted(state.prompted),
        "plays": [None if p is None else [[c, _opt_cell(a)] for c, a in p]
                  for p in state.plays],
        "keeps": [None if k is None else _cells(k) for k in state.keeps],
        "last_roll": None if state.last_roll is None else [
            *state.last_roll[:4], [*state.last_roll[4]], _opt_cell(state.last_roll[5])],
        "last_dead": [_cells(d) for d in state.last_dead],
        "rolls": state.rolls,
    }


def _load_cell(value: Any) -> Cell:
    return (int(value[0]), int(value[1]))


def _load_opt_cell(value: Any) -> Cell | None:
    return None if value is None else _load_cell(value)


def load(data: JSON) -> State:
    """The state :func:`dump` produced."""
    phase = str(data["phase"])
    if phase not in PHASES:
        raise ValueError(f"unknown phase {phase!r}")
    return State(
        players=int(data["players"]), seed=int(data["seed"]), counter=int(data["counter"]),
        round=int(data["round"]), phase=phase, section=int(data["section"]),
        pile=tuple(data["pile"]), set_aside=str(data["set_aside"]),
        revealed=tuple(data["revealed"]), bag=tuple(data["bag"]),
        boxed=tuple(data["boxed"]), deck=tuple(data["deck"]),
        hands=tuple(tuple(h) for h in data["hands"]),
        played=tuple((int(s), str(c)) for s, c in data["played"]),
        in_force=frozenset((int(s), str(c)) for s, c in data["in_force"]),
        mp=tuple(int(m) for m in data["mp"]), genes=tuple(tuple(g) for g in data["genes"]),
        board={(int(q), int(r)): int(s) for q, r, s in data["board"]},
        initiative=tuple(int(s) for s in data["initiative"]), lab=tuple(data["lab"]),
        markers=tuple(None if m is None else (int(m[0]), None if m[1] is None else int(m[1]))
                      for m in data["markers"]),
        displaced=None if data["displaced"] is None else int(data["displaced"]),
        barred=tuple(None if b is None else int(b) for b in data["barred"]),
        turn=int(data["turn"]), points=int(data["points"]),
        flown=frozenset(int(s) for s in data["flown"]),
        camouflaged=_load_opt_cell(data["camouflaged"]),
        flee=None if data["flee"] is None else (_load_cell(data["flee"][0]),
                                                _load_cell(data["flee"][1])),
        newborns=tuple(int(n) for n in data["newborns"]),
        parents=tuple(frozenset(_load_cell(c) for c in p) for p in data["parents"]),
        born=tuple(frozenset(_load_cell(c) for c in b) for b in data["born"]),
        orphans=frozenset(int(s) for s in data["orphans"]),
        finished=frozenset(int(s) for s in data["finished"]),
        prompted=frozenset(int(s) for s in data["prompted"]),
        plays=tuple(None if p is None else tuple((str(c), _load_opt_cell(a)) for c, a in p)
                    for p in data["plays"]),
        keeps=tuple(None if k is None else tuple(_load_cell(c) for c in k)
                    for k in data["keeps"]),
        last_roll=None if data.get("last_roll") is None else (
            int(data["last_roll"][0]), str(data["last_roll"][1]), str(data["last_roll"][2]),
            str(data["last_roll"][3]), _load_cell(data["last_roll"][4]),
            _load_opt_cell(data["last_roll"][5])),
        last_dead=tuple(tuple(_load_cell(c) for c in d) for d in data.get("last_dead", [])),
        rolls=int(data.get("rolls", 0)),
    )


__all__ = ["GENES", "State", "active_seats", "apply", "attack_wins", "dump", "legal_moves",
           "load", "result", "seat_status", "setup", "survivors"]
