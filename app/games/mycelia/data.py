"""Mycelia component data — all of it, in one place (spec *Components*).

THE COMPONENT DATA IS RECONSTRUCTED. The rulebook explains how to play but does not print what
is on the components, and no public source gives it. The board layouts (front and the four
advanced backs), the eight starting-dew patterns, the eight new-dew sides, the die faces and
the card lists below are a RECONSTRUCTION (spec *Components*) made to fit every statement the
rulebook makes about them:

- boards: "4 tableros de doble cara (anversos iguales, reversos diferentes)"; the backs are
  for advanced players, each different. The sanctuary is printed at row 2, column 3 on every
  side, so the shared dew tables fit every board ("fijaos en la posición de la casilla de
  Santuario para poder distribuir las gotas correctamente").
- starting dew: "4 tablas de rocío inicial de doble cara", one side drawn for all players, and
  each player places "20 gotas de rocío ... exactamente como se indica en la tabla".
- new dew: "4 tablas de nuevo rocío (de doble cara)", turned over after each use; every rotation
  adds "1 - 2 gota/s" per player; the rulebook's example (one drop two fields below the
  sanctuary and one right of it) is side 1A, face ``snail``.
- action tiles: "14 losetas de acción a - e, 4 de a y b, y 2 de c, d y e"; a costs 1 leaf,
  b to e cost 3 (the rulebook's action texts; these are transcribed, not reconstructed).
- cards: "24 cartas iniciales (6 por runa)", "40 cartas para el juego base (20 diferentes, 2
  cartas de cada)", "30 cartas expansión (15 diferentes, 2 cartas de cada)"; heroes "cuestan
  de 2 a 8 hojas. Cuanto más elevado sea su coste, más potente será su función". The rulebook's
  symbol examples and its named cards (Hydnum repandum and Tylopilus formosus remove a card
  when recruited, Fomes fomentarius lets the others move a drop, Clavulinopsis fusiformis
  brings the extra sanctuary field) are cards of these lists.
- solo: Gwidyon's 6 cards are transcribed from the rulebook; only their names are ours.

The printed data can replace these tables; no other module hard-codes component data, and the
rules follow the rulebook whatever the values. Every table is checked when this module is
imported (ValueError names the broken table).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final

from app.games.mycelia.notation import parse_fn, parts_of
from app.games.words import N_

Cell = tuple[int, int]  # (row 0-3, column 0-4)
Board = tuple[tuple[str, ...], ...]  # 4 rows of 5 field types

#: For players, in plain words: the component data is rebuilt, not printed.
ABOUT_COMPONENTS: Final = N_("""\
Mycelia's rulebook explains how to play but does not print what is on its components. The
player boards (front and the four advanced backs), the starting-dew and new-dew tables, the die
and the hero cards used here were rebuilt so that they fit everything the rulebook says about
them. They may differ from the printed game. The rules themselves follow the rulebook.""")

# --- boards (spec *Board geometry*, *Board front*, *Advanced backs*) ----------------------------

ROWS, COLS = 4, 5
SANCTUARY_CELL: Final[Cell] = (1, 2)
FIELD_TYPES: Final = ("leaf", "moss", "water", "earth", "sanctuary")
#: Field types in the rulebook's words (ES "broza", "musgo", "agua", "tierra"; NL "blad",
#: "mos", "water", "aarde"), message ids shown in the reader's language.
FIELD_NAMES: Final = {
    "leaf": N_("leaf litter"),
    "moss": N_("moss"),
    "water": N_("water"),
    "earth": N_("earth"),
    "sanctuary": N_("sanctuary"),
}
#: A field of each type as a noun ("the water field in row 2 …"; ES "casilla de agua", NL
#: "water-veld", DE "Wasserfeld").
FIELD_NOUNS: Final = {
    "leaf": N_("leaf litter field"),
    "moss": N_("moss field"),
    "water": N_("water field"),
    "earth": N_("earth field"),
    "sanctuary": N_("sanctuary field"),
}
_LETTERS: Final = {"L": "leaf", "M": "moss", "W": "water", "E": "earth", "S": "sanctuary"}


def _grid(*rows: str) -> Board:
    """A board from rows of ``L M W E S`` letters."""
    return tuple(tuple(_LETTERS[letter] for letter in row.split()) for row in rows)


BOARDS: Final[dict[str, Board]] = {
    "front": _grid("M W L M W", "L E S W L", "W L M E M", "E M W L E"),
    "marsh": _grid("W M W L W", "L W S W M", "E W M E W", "M E L W L"),
    "stone_circle": _grid("W L E M W", "M E S E L", "L W E W M", "W M L E W"),
    "terraces": _grid("L L M L L", "M M S M M", "W W E W W", "E W E W E"),
    "quarters": _grid("M M L W W", "M M S W W", "E L L L E", "E E L E E"),
}
BOARD_NAMES: Final = {
    "front": N_("Standard side"),
    "marsh": N_("Marsh"),
    "stone_circle": N_("Stone circle"),
    "terraces": N_("Terraces"),
    "quarters": N_("Quarters"),
}
#: The backs (★1–★4, dark frame), in the order of their stars (V1).
ADVANCED_BOARDS: Final = ("marsh", "stone_circle", "terraces", "quarters")

# --- dew (spec *Starting-dew patterns*, *Die and new-dew tables*) ------------------------------

#: Drops each player's board starts with ("20 gotas de rocío").
START_DROPS: Final = 20
_SIDES: Final = ("1A", "1B", "2A", "2B", "3A", "3B", "4A", "4B")


def _pattern(*rows: str) -> tuple[tuple[int, ...], ...]:
    """Drop counts from rows of digits; ``S`` (the sanctuary) holds 0."""
    return tuple(tuple(0 if n == "S" else int(n) for n in row.split()) for row in rows)


START_DEW: Final[dict[str, tuple[tuple[int, ...], ...]]] = {
    "1A": _pattern("1 1 1 1 1", "1 1 S 1 1", "1 1 1 1 1", "1 1 1 2 1"),
    "1B": _pattern("3 1 0 1 3", "1 0 S 0 1", "1 0 0 0 1", "3 1 0 1 3"),
    "2A": _pattern("0 1 2 1 0", "1 3 S 3 1", "0 1 3 1 0", "1 0 1 0 1"),
    "2B": _pattern("2 0 2 0 2", "0 2 S 2 0", "2 0 2 0 2", "0 2 0 2 0"),
    "3A": _pattern("0 0 1 0 0", "1 0 S 0 1", "1 2 1 2 1", "2 2 2 2 2"),
    "3B": _pattern("2 2 1 0 0", "3 2 S 0 0", "2 1 1 0 1", "2 2 1 0 0"),
    "4A": _pattern("1 2 0 2 1", "2 0 S 0 2", "2 0 0 0 2", "1 2 0 2 1"),
    "4B": _pattern("0 3 0 0 2", "0 0 S 4 0", "3 0 0 0 3", "0 0 2 0 3"),
}
#: The spec's short names of the starting-dew patterns.
START_DEW_NAMES: Final = {
    "1A": N_("even"),
    "1B": N_("far corners"),
    "2A": N_("centre heap"),
    "2B": N_("checkers"),
    "3A": N_("bottom heavy"),
    "3B": N_("left flank"),
    "4A": N_("ring"),
    "4B": N_("piles"),
}

DIE_FACES: Final = ("mushroom", "leaf", "drop", "snail", "moon", "sun")
#: The die's symbols in words.
DIE_FACE_NAMES: Final = {
    "mushroom": N_("mushroom"),
    "leaf": N_("leaf"),
    "drop": N_("dew drop"),
    "snail": N_("snail"),
    "moon": N_("moon"),
    "sun": N_("sun"),
}


def _new_dew(*cells: Sequence[Cell]) -> dict[str, tuple[Cell, ...]]:
    """One side of a new-dew table: the cells of each die face, in ``DIE_FACES`` order."""
    return {face: tuple(face_cells) for face, face_cells in zip(DIE_FACES, cells, strict=True)}


NEW_DEW: Final[dict[str, dict[str, tuple[Cell, ...]]]] = {
    "1A": _new_dew([(0, 0)], [(3, 4)], [(2, 1), (0, 3)], [(3, 2), (1, 3)], [(1, 0)],
                   [(2, 4), (0, 1)]),
    "1B": _new_dew([(3, 0), (0, 4)], [(2, 2)], [(1, 4)], [(0, 2), (3, 3)], [(3, 1), (2, 3)],
                   [(0, 0)]),
    "2A": _new_dew([(1, 1)], [(3, 3), (0, 0)], [(2, 0)], [(0, 4)], [(3, 2), (1, 4)],
                   [(2, 3), (0, 1)]),
    "2B": _new_dew([(3, 4), (1, 0)], [(0, 2)], [(3, 1), (2, 4)], [(2, 2)], [(0, 3)],
                   [(3, 0), (1, 3)]),
    "3A": _new_dew([(3, 0)], [(0, 1), (2, 3)], [(3, 4)], [(1, 1), (3, 2)], [(0, 4), (2, 0)],
                   [(2, 2)]),
    "3B": _new_dew([(0, 3), (2, 1)], [(1, 4)], [(0, 0), (3, 3)], [(2, 4)], [(3, 1)],
                   [(1, 0), (0, 2)]),
    "4A": _new_dew([(2, 0), (0, 4)], [(3, 2)], [(1, 3), (3, 0)], [(0, 1)], [(2, 4), (3, 1)],
                   [(1, 1)]),
    "4B": _new_dew([(3, 3)], [(1, 0), (0, 3)], [(2, 2)], [(3, 4), (0, 0)], [(2, 1)],
                   [(0, 2), (3, 3)]),
}
#: The other side of each new-dew table (E3: the table is turned over after each use).
NEW_DEW_BACK: Final = {
    side: f"{side[0]}{'B' if side[1] == 'A' else 'A'}" for side in _SIDES
}

# --- action tiles (spec *Action tiles*) ---------------------------------------------------------


@dataclass(frozen=True)
class Tile:
    """An action tile: how many exist, its cost in leaves, its name and effect in words
    (message ids, shown in the reader's language)."""

    letter: str
    count: int
    cost: int
    name: str
    text: str


TILES: Final = {
    "a": Tile("a", 4, 1, N_("Market wipe"),
              N_("Put every face-up market card on the market discard, then reveal 5 new "
                 "cards.")),
    "b": Tile("b", 4, 3, N_("Move a drop"),
              N_("Move any 1 drop exactly 1 field up, down, left or right.")),
    "c": Tile("c", 2, 3, N_("Move two drops"),
              N_("Move any 1 drop 1 field up, down, left or right; if another drop is on that "
                 "same field, move it 1 field too, in any direction.")),
    "d": Tile("d", 2, 3, N_("Remove a drop"), N_("Remove 1 drop from any field.")),
    "e": Tile("e", 2, 3, N_("Remove a card"),
              N_("Remove 1 card of your discard pile from the game.")),
}
#: Tiles every player starts with (R5); c, d and e come only from one-time effects (X1).
STARTING_TILES: Final = ("a", "b")
#: At most this many tiles per player (X5).
MAX_TILES: Final = 4
#: Extra sanctuary fields in the box (X6, Clavulinopsis fusiformis only).
EXTRA_SANCTUARY_FIELDS: Final = 2

# --- cards (spec *Starting deck*, *Base hero cards*, *Expansion cards*) -------------------------

RUNES: Final = ("fehu", "uruz", "thurisaz", "ansuz")
CARD_SETS: Final = ("start", "base", "exp")


@dataclass(frozen=True)
class CardDef:
    """A card definition; ``play_fn``/``once_fn`` are ``parse_fn`` of ``play``/``once``."""

    id: str
    name: str
    set: str
    cost: int
    copies: int
    play: str
    once: str | None
    play_fn: dict[str, Any]
    once_fn: dict[str, Any] | None


def _card(
    set_: str, id_: str, name: str, cost: int, copies: int, play: str, once: str | None = None
) -> CardDef:
    try:
        play_fn = parse_fn(play)
        once_fn = None if once is None else parse_fn(once)
    except ValueError as error:
        raise ValueError(f"card {id_}: {error}") from error
    return CardDef(id_, name, set_, cost, copies, play, once, play_fn, once_fn)


#: One rune's starting cards (each player gets them in their own rune; cost nothing, R5).
STARTING_DECK: Final = (
    _card("start", "st_leaf", N_("Leaf"), 0, 2, "+1"),
    _card("start", "st_gift", N_("Gift of leaves"), 0, 1, "+2 & !+1"),
    _card("start", "st_water", N_("Trickle"), 0, 1, "water1:m"),
    _card("start", "st_moss", N_("Creep"), 0, 1, "moss1:m"),
    _card("start", "st_drift", N_("Drift"), 0, 1, "leaf1:m"),
)
STARTING_CARDS_PER_RUNE: Final = 6

BASE_CARDS: Final = tuple(
    _card("base", id_, name, cost, 2, play)
    for id_, name, cost, play in (
        ("coprinus_comatus", "Coprinus comatus", 2, "any1:m"),
        ("cantharellus_cibarius", "Cantharellus cibarius", 2, "+2"),
        ("agaricus_campestris", "Agaricus campestris", 2, "+1 & moss1:m"),
        ("macrolepiota_procera", "Macrolepiota procera", 3, "any2:mm"),
        ("pleurotus_ostreatus", "Pleurotus ostreatus", 3, "water1:x"),
        ("lactarius_deliciosus", "Lactarius deliciosus", 3, "+3 / any1:m"),
        ("leccinum_scabrum", "Leccinum scabrum", 4, "leaf1:m & water1:x"),
        ("trametes_versicolor", "Trametes versicolor", 4, "2x any1:m"),
        ("russula_emetica", "Russula emetica", 4, "any=1:x"),
        ("craterellus_cornucopioides", "Craterellus cornucopioides", 5, "3x any1:m"),
        ("boletus_edulis", "Boletus edulis", 5, "+4 & !+1"),
        ("calvatia_gigantea", "Calvatia gigantea", 5, "any=2:xx"),
        ("hericium_erinaceus", "Hericium erinaceus", 6, "moss~3:xxx"),
        ("amanita_muscaria", "Amanita muscaria", 6, "2x any1:x & !any1:x"),
        ("sparassis_crispa", "Sparassis crispa", 6, "+2 & leaf~2:xx"),
        ("phallus_impudicus", "Phallus impudicus", 7, "4x any1:m & !+1"),
        ("laetiporus_sulphureus", "Laetiporus sulphureus", 7, "leaf0:A"),
        ("clathrus_ruber", "Clathrus ruber", 7, "water~2:xxn"),
        ("morchella_esculenta", "Morchella esculenta", 8, "+3 & 2x water1:x"),
        ("armillaria_mellea", "Armillaria mellea", 8, "any1:C"),
    )
)
#: Base heroes per cost ("cuestan de 2 a 8 hojas"; spec: 2 ×3 … 7 ×3, 8 ×2).
BASE_COST_COUNTS: Final = {2: 3, 3: 3, 4: 3, 5: 3, 6: 3, 7: 3, 8: 2}

EXP_CARDS: Final = tuple(
    _card("exp", id_, name, cost, 2, play, once)
    for id_, name, cost, once, play in (
        ("schizophyllum_commune", "Schizophyllum commune", 2, None, "+1 & trash"),
        ("hydnum_repandum", "Hydnum repandum", 3, "trash", "+1 & any1:m"),
        ("auricularia_auricula_judae", "Auricularia auricula-judae", 3, "tile:e", "+2"),
        ("tylopilus_formosus", "Tylopilus formosus", 4, "trash", "moss1:x / water1:x"),
        ("suillus_luteus", "Suillus luteus", 4, "tile:c", "leaf1:m & moss1:m"),
        ("lycoperdon_perlatum", "Lycoperdon perlatum", 4, None, "+4 & !any1:m"),
        ("tremella_mesenterica", "Tremella mesenterica", 5, "tile:d", "leaf1:x"),
        ("geastrum_triplex", "Geastrum triplex", 5, None, "trash & 2x any1:m"),
        ("hygrocybe_coccinea", "Hygrocybe coccinea", 5, None, "water=3:xxx"),
        ("fomes_fomentarius", "Fomes fomentarius", 6, "!any1:m", "any1:x & any1:m"),
        ("clavulinopsis_fusiformis", "Clavulinopsis fusiformis", 6, "sanctuary", "+1 & any1:m"),
        ("omphalotus_olearius", "Omphalotus olearius", 7, None, "moss0:A"),
        ("ganoderma_lucidum", "Ganoderma lucidum", 7, None, "+3 & trash & water1:x"),
        ("cortinarius_violaceus", "Cortinarius violaceus", 8, None, "2x any~2:xx"),
        ("gyromitra_esculenta", "Gyromitra esculenta", 8, None, "+2 & 2x any=2:xx"),
    )
)
#: Expansion heroes per cost (spec: 2 ×1, 3 ×2, 4 ×3, 5 ×3, 6 ×2, 7 ×2, 8 ×2).
EXP_COST_COUNTS: Final = {2: 1, 3: 2, 4: 3, 5: 3, 6: 2, 7: 2, 8: 2}

CARDS: Final[dict[str, CardDef]] = {
    card.id: card for card in (*STARTING_DECK, *BASE_CARDS, *EXP_CARDS)
}


def card_id(def_id: str, k: int) -> str:
    """The id of the k-th card instance of a definition: ``card_id("st_leaf", 3)`` is
    ``"st_leaf#3"`` (k = 1, 2, … unique per definition across the game)."""
    if def_id not in CARDS:
        raise ValueError(f"no card definition {def_id!r}")
    if k < 1:
        raise ValueError(f"card instances count from 1, not {k}")
    return f"{def_id}#{k}"


def def_of(card: str) -> CardDef:
    """The definition of a card instance: ``def_of("st_leaf#3")`` → ``CARDS["st_leaf"]``."""
    def_id, mark, k = card.partition("#")
    if not mark or not k.isdigit() or int(k) < 1 or def_id not in CARDS:
        raise ValueError(f"{card!r} is not a card")
    return CARDS[def_id]


# --- solo (spec *Solo cards of Gwidyon*) --------------------------------------------------------


@dataclass(frozen=True)
class SoloCard:
    """One of Gwidyon's cards; ``effects`` are carried out in order (S3)."""

    id: str
    name: str
    effects: tuple[dict[str, Any], ...]


SOLO_CARDS: Final = (
    SoloCard("g_flip1", N_("Token and one drop"), ({"flip": 1}, {"gw_remove": 1})),
    SoloCard("g_flip2", N_("Token and two drops"), ({"flip": 1}, {"gw_remove": 2})),
    SoloCard("g_market", N_("Market wipe"), ({"market_wipe": 1},)),
    SoloCard("g_leaf3", N_("Leaf and three drops"), ({"you_gain": 1}, {"gw_remove": 3})),
    SoloCard("g_leaf1", N_("Leaf and one drop"), ({"you_gain": 1}, {"gw_remove": 1})),
    SoloCard("g_move", N_("Your move"), ({"you": "any1:m"},)),
)
SOLO_EFFECTS: Final = ("flip", "gw_remove", "market_wipe", "you_gain", "you")
#: Gwidyon's drops on the leaf-litter board: 20, or 21–25 to slow him down (S1).
GWIDYON_DROPS_DEFAULT: Final = 20
GWIDYON_DROPS_MIN: Final = 20
GWIDYON_DROPS_MAX: Final = 25

# --- checks, run at import ----------------------------------------------------------------------


def _cells(value: Sequence[Sequence[Any]], what: str) -> None:
    if len(value) != ROWS or any(len(row) != COLS for row in value):
        raise ValueError(f"{what} must be {ROWS} rows of {COLS} fields")


def check_board(name: str, board: Board) -> None:
    """A board is 4 × 5 fields of the five types, with the one sanctuary at row 2, column 3."""
    _cells(board, f"board {name}")
    for r, row in enumerate(board):
        for c, kind in enumerate(row):
            if kind not in FIELD_TYPES:
                raise ValueError(f"board {name}: unknown field type {kind!r} at {(r, c)}")
            if (kind == "sanctuary") != ((r, c) == SANCTUARY_CELL):
                raise ValueError(f"board {name}: the sanctuary must be at {SANCTUARY_CELL} only")


def check_start_dew(side: str, pattern: Sequence[Sequence[int]]) -> None:
    """A starting-dew side holds exactly 20 drops, none on the sanctuary (R2)."""
    _cells(pattern, f"starting dew {side}")
    if any(n < 0 for row in pattern for n in row):
        raise ValueError(f"starting dew {side}: drop counts cannot be negative")
    r, c = SANCTUARY_CELL
    if pattern[r][c] != 0:
        raise ValueError(f"starting dew {side}: the sanctuary holds no drop")
    total = sum(sum(row) for row in pattern)
    if total != START_DROPS:
        raise ValueError(f"starting dew {side}: {total} drops, not {START_DROPS}")


def check_new_dew(side: str, faces: Mapping[str, Sequence[Cell]]) -> None:
    """A new-dew side maps every die face to 1–2 distinct board cells, never the sanctuary;
    three faces give 1 drop and three give 2 ("1 - 2 gota/s")."""
    if tuple(faces) != DIE_FACES:
        raise ValueError(f"new dew {side}: faces must be {DIE_FACES}")
    sizes: Counter[int] = Counter()
    for face, cells in faces.items():
        if not 1 <= len(cells) <= 2 or len(set(cells)) != len(cells):
            raise ValueError(f"new dew {side}, {face}: 1 or 2 different cells")
        for r, c in cells:
            if not (0 <= r < ROWS and 0 <= c < COLS):
                raise ValueError(f"new dew {side}, {face}: {(r, c)} is off the board")
            if (r, c) == SANCTUARY_CELL:
                raise ValueError(f"new dew {side}, {face}: never on the sanctuary")
        sizes[len(cells)] += 1
    if sizes != Counter({1: 3, 2: 3}):
        raise ValueError(f"new dew {side}: three 1-drop faces and three 2-drop faces")


def check_new_dew_back(back: Mapping[str, str]) -> None:
    """Each table has two sides, 1A ↔ 1B, 2A ↔ 2B, …, and turning twice gives the same side."""
    if set(back) != set(NEW_DEW):
        raise ValueError("new dew: every side needs its back")
    for side, other in back.items():
        if other[0] != side[0] or other == side or back.get(other) != side:
            raise ValueError(f"new dew: the back of {side} is the other side of table {side[0]}")


def check_card(card: CardDef) -> None:
    """A card's functions parse; a bonus part is never inside an either-or; ``tile`` and
    ``sanctuary`` appear only in a one-time effect (spec *Data constraints*)."""
    for label, text, fn in (("play", card.play, card.play_fn), ("once", card.once, card.once_fn)):
        if text is None:
            if fn is not None:
                raise ValueError(f"card {card.id}: a {label} function without its text")
            continue
        parsed = parse_fn(text)
        if parsed != fn:
            raise ValueError(f"card {card.id}: the parsed {label} function differs from {text!r}")
        if "or" in parsed and any(part["bonus"] for part in parts_of(parsed)):
            raise ValueError(f"card {card.id}: a bonus part cannot be inside an either-or")
        if label == "play" and any("tile" in p or "sanctuary" in p for p in parts_of(parsed)):
            raise ValueError(f"card {card.id}: tiles and sanctuary fields come only when recruited")
    if card.set != "exp" and card.once is not None:
        raise ValueError(f"card {card.id}: only expansion cards have one-time effects")


def check_card_set(
    set_name: str, cards: Iterable[CardDef], cost_counts: Mapping[int, int], copies: int
) -> None:
    """A card set: every definition of ``set_name``, ``copies`` copies each (starting cards:
    their copies add up to 6 per rune), and so many definitions at each cost."""
    cards = tuple(cards)
    for card in cards:
        if card.set != set_name:
            raise ValueError(f"card {card.id}: belongs to set {card.set!r}, not {set_name!r}")
        if set_name != "start" and card.copies != copies:
            raise ValueError(f"card {card.id}: {card.copies} copies, not {copies}")
        check_card(card)
    if set_name == "start":
        total = sum(card.copies for card in cards)
        if total != copies:
            raise ValueError(f"starting deck: {total} cards per rune, not {copies}")
    counts = Counter(card.cost for card in cards)
    if counts != Counter(cost_counts):
        raise ValueError(f"{set_name} cards: costs {dict(sorted(counts.items()))}, "
                         f"not {dict(sorted(cost_counts.items()))}")


def check_solo_cards(cards: Sequence[SoloCard]) -> None:
    """Gwidyon's 6 cards, each effect known; the player's move parses (S3)."""
    if len(cards) != 6 or len({card.id for card in cards}) != 6:
        raise ValueError("Gwidyon has 6 different solo cards")
    for card in cards:
        for effect in card.effects:
            ((kind, value),) = effect.items()
            if kind not in SOLO_EFFECTS:
                raise ValueError(f"solo card {card.id}: unknown effect {kind!r}")
            if kind == "you":
                parse_fn(value)
            elif not (isinstance(value, int) and value >= 1):
                raise ValueError(f"solo card {card.id}: {kind} needs a positive number")


def check_tiles(tiles: Mapping[str, Tile]) -> None:
    """14 tiles: a ×4, b ×4, c, d, e ×2; a costs 1 leaf, the others 3."""
    counts = {letter: tile.count for letter, tile in tiles.items()}
    if counts != {"a": 4, "b": 4, "c": 2, "d": 2, "e": 2}:
        raise ValueError(f"action tiles: counts {counts}, not a 4, b 4, c 2, d 2, e 2")
    for letter, tile in tiles.items():
        if tile.letter != letter or tile.cost != (1 if letter == "a" else 3):
            raise ValueError(f"action tile {letter}: letter or cost is wrong")


def _check_all() -> None:
    for name in ("front", *ADVANCED_BOARDS):
        check_board(name, BOARDS[name])
    if set(BOARDS) != {"front", *ADVANCED_BOARDS} or set(BOARD_NAMES) != set(BOARDS):
        raise ValueError("boards: the front and the four advanced backs, each named")
    if tuple(START_DEW) != _SIDES or tuple(NEW_DEW) != _SIDES:
        raise ValueError(f"dew tables: sides {_SIDES}")
    for side, pattern in START_DEW.items():
        check_start_dew(side, pattern)
    for side, faces in NEW_DEW.items():
        check_new_dew(side, faces)
    check_new_dew_back(NEW_DEW_BACK)
    check_tiles(TILES)
    check_card_set("start", STARTING_DECK, {0: len(STARTING_DECK)}, STARTING_CARDS_PER_RUNE)
    check_card_set("base", BASE_CARDS, BASE_COST_COUNTS, 2)
    check_card_set("exp", EXP_CARDS, EXP_COST_COUNTS, 2)
    if len(CARDS) != len(STARTING_DECK) + len(BASE_CARDS) + len(EXP_CARDS):
        raise ValueError("cards: every definition needs its own id")
    check_solo_cards(SOLO_CARDS)


_check_all()
