"""Evo's components: the island maps, the climate wheel and tokens, the combat die, the genes
and the event cards (spec /work/shared/specs/evo.md, "Components").

About this data, for players: Evo's rulebook tells how to play but does not print what is on
the boards, the climate wheel, the combat die, how many genes of each kind the bag holds or
what the event cards say. No public source gives them either. So the maps, the wheel, the die
faces, the gene counts and the fifteen event cards here are a reconstruction: chosen to agree
with everything the Spanish rulebook says, with the list of changes of the second edition (a
custom die with one stalemate face in six, an attacker who never dies, twelve climate tokens
and the meteorite, nine to eleven rounds, at most eight dinosaurs, the event card in the first
column) and with the first edition (its combat odds, its survival rules, its example cards).
They may differ from the printed game; the rules do not. Printed data can replace this module
alone: the rules read every component from here.

Everything is checked when the module is imported (:func:`_check`): a broken table stops the
server from starting instead of surfacing in a game.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Final

from app.games.words import N_

Cell = tuple[int, int]

#: Shown by the table next to the board.
DATA_NOTE: Final = "component data reconstructed"
#: For players, on the game's components page (this module's docstring, in short).
ABOUT_COMPONENTS: Final = N_(
    "Evo's rulebook explains how to play but does not print what is on its components, and no "
    "public source gives them. The island maps, the climate wheel and its tokens, the combat "
    "die, the number of genes of each kind and the fifteen event cards used here were rebuilt "
    "to agree with everything the rulebook says, with the changes of the second edition and "
    "with the first edition's example cards. They may differ from the printed game. The rules "
    "themselves follow the rulebook.")

# --- terrains and climates -----------------------------------------------------------------

#: Terrain ids in temperature order, hottest first: the wheel's index ``i``.
TERRAINS: Final = ("beach", "plains", "hills", "mountains")
#: The map letter of each terrain (lowercase on the maps: a coastal space).
TERRAIN_LETTERS: Final = MappingProxyType(
    {"B": "beach", "P": "plains", "H": "hills", "M": "mountains"})
#: Each terrain's name (a message id, shown in the reader's language: Spanish "playa",
#: "llanura", "colina", "montaña").
TERRAIN_NAMES: Final = MappingProxyType(
    {"beach": N_("beach"), "plains": N_("plains"), "hills": N_("hills"),
     "mountains": N_("mountains")})
#: A space in words, as the log and the labels name it: "the hills at C4", by the label the
#: map draws on it (phrases.space_labels; one message per terrain, so that each language
#: gives it its article and case).
SPACE_NAMES: Final = MappingProxyType({
    "beach": N_("the beach at {space}"), "plains": N_("the plains at {space}"),
    "hills": N_("the hills at {space}"), "mountains": N_("the mountains at {space}")})
#: How log lines stored before the map drew its labels named a space, "the hills at (2, -1)"
#: (axial coordinates): a stored log line is a fact and keeps its words; these stay in the
#: catalogues so that such lines still read in every language.
STORED_SPACE_NAMES: Final = (
    N_("the beach at ({q}, {r})"), N_("the plains at ({q}, {r})"),
    N_("the hills at ({q}, {r})"), N_("the mountains at ({q}, {r})"))
#: The colours of the board (desert yellow, green, brown, white).
TERRAIN_COLOURS: Final = MappingProxyType(
    {"beach": "#e9d48a", "plains": "#8fc46a", "hills": "#b0875a", "mountains": "#f2f2ee"})

CLIMATES: Final = ("temperate", "hot", "cold", "deadly")
#: Each climate's name (a message id).
CLIMATE_NAMES: Final = MappingProxyType(
    {"temperate": N_("temperate"), "hot": N_("hot"), "cold": N_("cold"),
     "deadly": N_("deadly")})

# --- maps (R) --------------------------------------------------------------------------------

#: Hex grid in axial coordinates ``(q, r)``, pointy-top; the six neighbours of a space.
NEIGHBOUR_STEPS: Final[tuple[Cell, ...]] = ((1, 0), (-1, 0), (0, 1), (0, -1), (1, -1), (-1, 1))

#: The boards as the spec draws them: each line is ``r q0 |`` then one two-character token per
#: space for ``q = q0, q0+1, …``. First character: terrain letter, lowercase = coastal. Second:
#: the seat whose starting space it is, ``.`` for none. ``~~``: sea inside a row.
_MAP_DRAWINGS: Final = MappingProxyType({
    # 2 players, small board front: seat 0 west, seat 1 east.
    2: """
-3 -1 |         p.  h.  h.  p.
-2 -3 |   b.  p.  M.  M.  H.  p1  b.
-1 -4 | b.  P0  H.  M.  M.  H.  P1  b.
+0 -4 |   b.  p0  H.  M.  M.  p.  b.
+1 -3 |         p.  h.  h.  p.
""",
    # 3 players, small board back: seat 0 east corner, 1 south corner, 2 north-west corner.
    3: """
-3 -1 |     p.  b.  b.  b.  b.  p.
-2 -2 |   p2  H.  H.  H.  H.  P0  p0
-1 -3 | p.  P2  M.  M.  M.  M.  H.  p.
+0 -3 |   b.  H.  M.  M.  M.  H.  b.
+1 -3 |     b.  H.  M.  M.  H.  b.
+2 -3 |       b.  H.  M.  H.  b.
+3 -3 |         b.  H.  P1  b.
+4 -3 |           p.  p1  p.
""",
    # 4 players, large board front: seats 0 NW, 1 NE, 2 SE, 3 SW.
    4: """
-3 -2 |       p.  p0  b.  b.  b.  p1  p.
-2 -3 |     b.  P0  H.  H.  H.  H.  P1  b.
-1 -4 |   b.  P.  H.  M.  M.  M.  H.  P.  b.
+0 -5 | b.  P.  M.  M.  M.  M.  M.  M.  P.  b.
+1 -5 |   b.  P.  H.  M.  M.  M.  H.  P.  b.
+2 -5 |     b.  P3  H.  H.  H.  H.  P2  b.
+3 -5 |       p.  p3  b.  b.  b.  p2  p.
""",
    # 5 players, large board back: seats 0 N, 1 NE, 2 SE, 3 SW, 4 NW; a bay in the south.
    5: """
-4 +1 |                 b.  p.  b.
-3 -1 |           b.  b.  P0  P0  b.  b.
-2 -2 |         p.  H.  H.  H.  H.  H.  p.
-1 -4 |   p4  p4  H.  M.  H.  H.  M.  H.  p1  p1
+0 -5 | b.  H.  H.  M.  M.  M.  M.  M.  H.  H.  b.
+1 -5 |   b.  H.  M.  M.  M.  M.  M.  M.  H.  b.
+2 -5 |     b.  H.  H.  P.  P.  P.  H.  H.  b.
+3 -5 |       p3  P3  H.  b.  b.  H.  P2  p2
+4 -5 |         p.  p.  b.  ~~  b.  p.  p.
""",
})


@dataclass(frozen=True)
class IslandMap:
    """One side of a board: the terrain of every space, which spaces are coastal (as drawn),
    and each seat's pair of starting spaces (seat ``i`` on pair ``i``, clockwise)."""

    players: int
    terrain: Mapping[Cell, str]
    coastal: frozenset[Cell]
    starts: tuple[tuple[Cell, Cell], ...]


def _read_map(players: int, drawing: str) -> IslandMap:
    terrain: dict[Cell, str] = {}
    coastal: set[Cell] = set()
    starts: dict[int, list[Cell]] = {}
    for line in drawing.strip("\n").splitlines():
        head, _, body = line.partition("|")
        r, q0 = (int(part) for part in head.split())
        for i, token in enumerate(body.split()):
            if token == "~~":
                continue
            cell = (q0 + i, r)
            letter, mark = token[0], token[1]
            terrain[cell] = TERRAIN_LETTERS[letter.upper()]
            if letter.islower():
                coastal.add(cell)
            if mark != ".":
                starts.setdefault(int(mark), []).append(cell)
    pairs = []
    for seat in range(players):
        pair = sorted(starts.get(seat, []))
        if len(pair) != 2:
            raise ValueError(f"{players}-player map: seat {seat} needs 2 starting spaces")
        pairs.append((pair[0], pair[1]))
    if set(starts) != set(range(players)):
        raise ValueError(f"{players}-player map: starting spaces of unknown seats")
    return IslandMap(players, MappingProxyType(terrain), frozenset(coastal), tuple(pairs))


#: Player count → board: 2 small front, 3 small back, 4 large front, 5 large back.
MAPS: Final[Mapping[int, IslandMap]] = MappingProxyType(
    {players: _read_map(players, drawing) for players, drawing in _MAP_DRAWINGS.items()})

# --- climate wheel (R) -----------------------------------------------------------------------

#: The twelve sections S0…S11, clockwise = increasing index: the temperate terrain of each.
#: The terrain one step hotter is hot, one step colder is cold, any other deadly.
WHEEL: Final = ("plains", "hills", "hills", "mountains", "hills", "plains", "plains", "beach",
                "beach", "plains", "plains", "plains")
#: The section the wheel is set to at the start.
WHEEL_START: Final = 0


def climate_of(section: int, terrain: str) -> str:
    """The climate of ``terrain`` while the wheel shows ``section``."""
    offset = TERRAINS.index(terrain) - TERRAINS.index(WHEEL[section % len(WHEEL)])
    return {0: "temperate", -1: "hot", 1: "cold"}.get(offset, "deadly")


# --- climate tokens --------------------------------------------------------------------------


@dataclass(frozen=True)
class ClimateToken:
    """A climate token: its name (a message id), how many sections it turns the wheel clockwise
    (negative: anticlockwise; ``None``: the meteorite, which ends the game), and how many are in
    the box."""

    id: str
    name: str
    steps: int | None
    count: int


#: 13 tokens: 12 normal ones (counts R) and the meteorite.
CLIMATE_TOKENS: Final[Mapping[str, ClimateToken]] = MappingProxyType({t.id: t for t in (
    ClimateToken("cw2", N_("two sections clockwise"), 2, 2),
    ClimateToken("cw1", N_("one section clockwise"), 1, 5),
    ClimateToken("stay", N_("no change"), 0, 3),
    ClimateToken("ccw1", N_("one section anticlockwise"), -1, 2),
    ClimateToken("meteorite", N_("the meteorite"), None, 1),
)})
METEORITE: Final = "meteorite"
#: Setup of the climate pile: one normal token out unseen; the bottom this many tokens are the
#: meteorite shuffled with normal ones, the rest lie on top.
PILE_BOTTOM: Final = 3

# --- combat die (R) --------------------------------------------------------------------------

#: Six faces. A number is the horn advantage the attacker needs to win; "stalemate": nothing
#: happens whatever the horns.
DIE_FACES: Final = ("-1", "0", "+1", "+1", "+2", "stalemate")
STALEMATE: Final = "stalemate"
#: The faces on which a killer baby kills the dinosaur whose space it is born on (4 in 6);
#: on the others the newborn dies.
KILLER_BABY_WIN_FACES: Final = frozenset({"-1", "0", "+1"})

# --- biology lab -----------------------------------------------------------------------------

#: The bid spaces of every lab column (a 6 cannot be outbid).
MIN_BID: Final = 0
MAX_BID: Final = 6
#: Column 1 holds the event card; columns 2…N hold one gene each.
EVENT_COLUMN: Final = 1

# --- genes -----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Gene:
    """A gene token: its name and what it does (permanently), both message ids (the Spanish
    names are the rulebook's: "Par de piernas", "Cuerno" …)."""

    id: str
    name: str
    effect: str


#: The 36 normal genes, all in the bag: id → count (R, after the first edition's proportions).
NORMAL_GENES: Final[Mapping[str, int]] = MappingProxyType(
    {"legs": 8, "horn": 6, "parasol": 6, "fur": 6, "egg": 6, "vial": 4})
#: The 12 unique genes (one token each); :data:`UNIQUE_IN_BAG` of them go into the bag.
UNIQUE_GENES: Final = ("bone_plates", "big_horn", "thick_shell", "fins", "wings",
                       "regeneration", "killer_babies", "sixth_sense", "cave_dweller",
                       "adrenaline", "strong_thighs", "chameleon")
UNIQUE_IN_BAG: Final = 8

GENES: Final[Mapping[str, Gene]] = MappingProxyType({g.id: g for g in (
    Gene("legs", N_("Legs"), N_("+1 movement point")),
    Gene("horn", N_("Horn"), N_("+1 horn in attack and defence")),
    Gene("parasol", N_("Parasol"), N_("one dinosaur survives in a hot space")),
    Gene("fur", N_("Fur"), N_("one dinosaur survives in a cold space")),
    Gene("egg", N_("Egg"), N_("+1 newborn in every birth phase")),
    Gene("vial", N_("Alchemical Vial"), N_("every later purchase costs 1 MP less")),
    Gene("bone_plates", N_("Bone Plates"), N_("+2 horns when defending")),
    Gene("big_horn", N_("Big Horn"), N_("+2 horns when attacking")),
    Gene("thick_shell", N_("Thick Shell"), N_("newborns up to 3 spaces from a parent")),
    Gene("fins", N_("Fins"),
         N_("for 1 movement point a dinosaur swims from the coast to any empty coastal space")),
    Gene("wings", N_("Wings"),
         N_("once per movement phase, for 1 movement point a dinosaur flies 2 spaces")),
    Gene("regeneration", N_("Regeneration"), N_("never fewer than 3 dinosaurs")),
    Gene("killer_babies", N_("Killer Babies"),
         N_("newborns may be born on opponents' dinosaurs, with a die roll")),
    Gene("sixth_sense", N_("Sixth Sense"), N_("see the next climate token")),
    Gene("cave_dweller", N_("Cave Dweller"), N_("one dinosaur on a deadly space survives")),
    Gene("adrenaline", N_("Adrenaline Rush"), N_("choose your place on the initiative track")),
    Gene("strong_thighs", N_("Strong Thighs"), N_("+2 movement points")),
    Gene("chameleon", N_("Chameleon Skin"),
         N_("a dinosaur that loses a fight may step aside instead of dying")),
)})

# --- event cards (R) -------------------------------------------------------------------------

#: When a card may be played: during your own bidding turn; in the sealed window that opens
#: the movement or the survival phase; during your own movement or birth turn.
TIMINGS: Final = ("bid", "move-window", "move-turn", "birth-turn", "survival-window")


@dataclass(frozen=True)
class EventCard:
    """An event card: its name, when it may be played and what it does (once); name and effect
    are message ids."""

    id: str
    name: str
    timing: str
    effect: str


#: The 15 event cards, one of each.
EVENT_CARDS: Final[Mapping[str, EventCard]] = MappingProxyType({c.id: c for c in (
    EventCard("bargain", N_("Bargain"), "bid",
              N_("your purchase this mutation phase costs 2 MP less")),
    EventCard("head_start", N_("Head Start"), "bid",
              N_("you take first place in this round's initiative phase")),
    EventCard("mutation", N_("Spontaneous Mutation"), "bid",
              N_("at the end of this mutation phase you draw a gene from the bag")),
    EventCard("rage", N_("Battle Rage"), "move-window",
              N_("your dinosaurs attack with 2 more horns this movement phase")),
    EventCard("herd", N_("Herd Defence"), "move-window",
              N_("your dinosaurs defend with 2 more horns this movement phase")),
    EventCard("camouflage", N_("Camouflage"), "move-window",
              N_("one of your dinosaurs cannot be attacked this movement phase")),
    EventCard("sprint", N_("Sprint"), "move-turn", N_("2 more movement points this turn")),
    EventCard("migration", N_("Migration"), "move-turn",
              N_("one of your dinosaurs moves free to an empty space up to 3 spaces away")),
    EventCard("fertility", N_("Fertile Season"), "birth-turn",
              N_("one more newborn this birth phase")),
    EventCard("nest", N_("Nomad Nest"), "birth-turn",
              N_("your newborns may be born up to 3 spaces from a parent this birth phase")),
    EventCard("cold_snap", N_("Ice Cold"), "survival-window",
              N_("each opponent counts one fur fewer this survival phase")),
    EventCard("heat_wave", N_("Heat Wave"), "survival-window",
              N_("each opponent counts one parasol fewer this survival phase")),
    EventCard("winter_coat", N_("Winter Coat"), "survival-window",
              N_("you count one more fur this survival phase")),
    EventCard("sunshade", N_("Sunshade"), "survival-window",
              N_("you count one more parasol this survival phase")),
    EventCard("shelter", N_("Shelter"), "survival-window",
              N_("one more of your dinosaurs on a deadly space survives this survival phase")),
)})

# --- players ---------------------------------------------------------------------------------

START_MP: Final = 6
DINOSAURS_PER_PLAYER: Final = 8
#: The species sheet at the start: 2 movement points and 1 egg (no horn, parasol, fur, vial).
BASE_MOVEMENT: Final = 2
BASE_EGGS: Final = 1
#: Reach of thick shell, Nomad Nest and Migration (path distance).
LONG_REACH: Final = 3
MIN_PLAYERS: Final = 2
MAX_PLAYERS: Final = 5


# --- the invariants, checked on import ---------------------------------------------------------


def _components(cells: set[Cell]) -> list[set[Cell]]:
    """The connected groups of ``cells`` (hex adjacency)."""
    left, groups = set(cells), []
    while left:
        group = {left.pop()}
        todo = list(group)
        while todo:
            q, r = todo.pop()
            for dq, dr in NEIGHBOUR_STEPS:
                cell = (q + dq, r + dr)
                if cell in left:
                    left.remove(cell)
                    group.add(cell)
                    todo.append(cell)
        groups.append(group)
    return groups


def _check_map(board: IslandMap) -> None:
    where = f"{board.players}-player map"
    cells = set(board.terrain)
    for (q, r), terrain in board.terrain.items():
        computed = any((q + dq, r + dr) not in cells for dq, dr in NEIGHBOUR_STEPS)
        if computed != ((q, r) in board.coastal):
            raise ValueError(f"{where}: the coastal mark of {(q, r)} is wrong")
        if terrain == "mountains" and computed:
            raise ValueError(f"{where}: mountains at {(q, r)} touch the sea")
        if terrain == "beach" and not computed:
            raise ValueError(f"{where}: beach at {(q, r)} is inland")
    if len(_components(cells)) != 1:
        raise ValueError(f"{where}: the island is not in one piece")
    for terrain in TERRAINS:
        for group in _components({c for c, t in board.terrain.items() if t == terrain}):
            if len(group) < 3:
                raise ValueError(f"{where}: a {terrain} region of fewer than 3 spaces")
    if len(board.starts) != board.players:
        raise ValueError(f"{where}: one pair of starting spaces per seat")
    for pair in board.starts:
        for q, r in pair:
            if board.terrain[(q, r)] != "plains":
                raise ValueError(f"{where}: starting space {(q, r)} is not plains")
            if not any(board.terrain.get((q + dq, r + dr)) == "hills"
                       for dq, dr in NEIGHBOUR_STEPS):
                raise ValueError(f"{where}: starting space {(q, r)} touches no hills")


def _check() -> None:
    """The spec's data invariants; a ValueError names the first one broken."""
    if sorted(MAPS) != list(range(MIN_PLAYERS, MAX_PLAYERS + 1)):
        raise ValueError("one map per player count from 2 to 5")
    for board in MAPS.values():
        _check_map(board)
    if len(WHEEL) != 12 or not set(WHEEL) <= set(TERRAINS) or WHEEL_START not in range(12):
        raise ValueError("the wheel has 12 sections, each naming a terrain")
    if Counter(WHEEL) != {"beach": 2, "plains": 6, "hills": 3, "mountains": 1}:
        raise ValueError("temperate sections: beach 2, plains 6, hills 3, mountains 1")
    for section in range(12):
        if [climate_of(section, t) for t in TERRAINS].count("temperate") != 1:
            raise ValueError(f"section {section} has not exactly one temperate terrain")
    normal = [t for t in CLIMATE_TOKENS.values() if t.steps is not None]
    if sum(t.count for t in normal) != 12 or CLIMATE_TOKENS[METEORITE].count != 1:
        raise ValueError("12 normal climate tokens and the meteorite")
    if sum(t.steps * t.count for t in normal if t.steps is not None) != 7:
        raise ValueError("the normal climate tokens turn the wheel 7 sections in all")
    if len(DIE_FACES) != 6 or DIE_FACES.count(STALEMATE) != 1:
        raise ValueError("the die has 6 faces, one of them the stalemate")
    if not set(DIE_FACES) >= KILLER_BABY_WIN_FACES:
        raise ValueError("killer babies win on faces of the die")
    if sum(NORMAL_GENES.values()) != 36 or len(set(UNIQUE_GENES)) != 12:
        raise ValueError("36 normal genes and 12 unique genes")
    if set(GENES) != set(NORMAL_GENES) | set(UNIQUE_GENES) or UNIQUE_IN_BAG > 12:
        raise ValueError("every gene is named once")
    if len(EVENT_CARDS) != 15:
        raise ValueError("15 event cards")
    if Counter(c.timing for c in EVENT_CARDS.values()) != {
            "bid": 3, "move-window": 3, "move-turn": 2, "birth-turn": 2, "survival-window": 5}:
        raise ValueError("event cards by timing: 3, 3, 2, 2, 5")
    if not MIN_BID <= 0 < MAX_BID:
        raise ValueError("bids run from 0 up")


_check()
