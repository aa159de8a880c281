"""Evergreen component data — ALL of it, in one place (spec §1 and §4).

!!! RECONSTRUCTED COMPONENT DATA !!!
No public source gives what is printed on the components. The card icons and powers (§1.1),
the planet grid with its biome regions and cracks (§1.2) and the power-track values (§1.3)
below are a RECONSTRUCTION DESIGNED FOR PLAY, not the printed data (spec §1 banner). The UI
says "component data reconstructed" (``DATA_NOTE``). Printed data can replace the tables here —
``CARDS`` (``_CARD_ROWS``), ``PLANET`` / ``CRACKS`` (``_PLANET_MAP``) and ``TRACKS`` — and the
rules engine (``rules.py``), which follows the rulebook (spec §2) for any data, stays as it is.

Ids (spec §0): biomes, the card-only ``wild`` biome, powers, pieces, sun sides, seasons.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from app.games.words import N_

Cell = tuple[int, int]

#: Shown by the UI next to the planet and the cards (spec §1 banner).
DATA_NOTE: Final = "component data reconstructed"
#: The same for players, on the game's "about the components" page: one message (its
#: paragraphs apart by a blank line).
ABOUT_COMPONENTS: Final = N_(
    "Evergreen's rulebook explains how to play but does not print what is on its components. "
    "The cards (their biomes and powers), the planet with its biome regions and cracks, and "
    "the values of the power tracks used here were rebuilt so that they fit everything the "
    "rulebook says.\n\n"
    "They may differ from the printed game, so points and strategies may differ a little too. "
    "The rules themselves follow the rulebook (in Spanish and German) word for word where it "
    "speaks.")

# --- ids (spec §0) -----------------------------------------------------------------------------

#: Planet biomes in index order (snow 0 … meadow 5; the card table and the zone use this order).
BIOMES: Final = ("snow", "swamp", "rock", "flowers", "wheat", "meadow")
#: Card-only biome: never a planet region, never in the fertility zone.
WILD: Final = "wild"
#: Powers in track order (sprout 0 … bloom 5).
POWERS: Final = ("sprout", "grow_small", "grow_large", "bush", "lake", "bloom")
#: Pieces; "tree" means ``small`` or ``large``.
PIECES: Final = ("sprout", "small", "large", "bush", "lake")
#: Sun sides in clockwise order (N top, E right, S bottom, W left).
SUN_SIDES: Final = ("N", "E", "S", "W")
#: The four actions (ACT-1…4).
ACTIONS: Final = ("A", "B", "C", "D")
#: Seasons and their rounds (5, 4, 3, 2 — 14 rounds).
SEASONS: Final = (("spring", 5), ("summer", 4), ("autumn", 3), ("winter", 2))

#: The biomes' names, as catalogue message ids (each language's catalogue prints its rulebook's
#: word: ES Nieve, Pantano, Piedra, Flores, Trigo, Pradera, Salvaje; DE Schnee, Sumpf, Felsen,
#: Blumen, Getreide, Wiese, Freies Biom).
BIOME_NAMES: Final = {
    "snow": N_("Snow"),
    "swamp": N_("Swamp"),
    "rock": N_("Rock"),
    "flowers": N_("Flowers"),
    "wheat": N_("Wheat"),
    "meadow": N_("Meadow"),
    "wild": N_("Wild"),
}

#: The powers as the rulebooks name their effects, in a sentence ("your power (plant a
#: sprout)"; ES «Plantar Brote», «Cultivar Árbol pequeño/grande», «Plantar Arbusto», «Colocar
#: Lago», «Florecimiento»; DE «Spross pflanzen», «Kleinen/Großen Baum wachsen lassen», «Busch
#: pflanzen», «See anlegen», «Knospen zählen»).
POWER_NAMES: Final = {
    "sprout": N_("plant a sprout"),
    "grow_small": N_("grow a small tree"),
    "grow_large": N_("grow a large tree"),
    "bush": N_("plant a bush"),
    "lake": N_("place a lake"),
    "bloom": N_("bloom"),
}

#: The same as a title (a card's power, a track's name).
POWER_TITLES: Final = {
    "sprout": N_("Plant a sprout"),
    "grow_small": N_("Grow a small tree"),
    "grow_large": N_("Grow a large tree"),
    "bush": N_("Plant a bush"),
    "lake": N_("Place a lake"),
    "bloom": N_("Bloom"),
}

#: The pieces, one of each (a refusal's "that space already holds a sprout").
PIECE_NAMES: Final = {
    "sprout": N_("a sprout"),
    "small": N_("a small tree"),
    "large": N_("a large tree"),
    "bush": N_("a bush"),
    "lake": N_("a lake"),
}

#: The sun's sides in words ("the light comes from the north").
SIDE_NAMES: Final = {"N": N_("north"), "E": N_("east"), "S": N_("south"), "W": N_("west")}

#: The seasons' names: as a title, and inside a sentence ("points in spring").
SEASON_TITLES: Final = {"spring": N_("Spring"), "summer": N_("Summer"),
                        "autumn": N_("Autumn"), "winter": N_("Winter")}
SEASON_NAMES: Final = {"spring": N_("spring"), "summer": N_("summer"),
                       "autumn": N_("autumn"), "winter": N_("winter")}

#: Biome colours for the UI (hex).
BIOME_COLOURS: Final = {
    "snow": "#e6eef5",
    "swamp": "#5f8a6b",
    "rock": "#9a9183",
    "flowers": "#e79cc2",
    "wheat": "#e7c65a",
    "meadow": "#93cd6b",
    "wild": "#a98bd3",
}

#: Cards in the selection row per player count (SEL-1; solo SOLO-2: 3).
ROW_SIZE: Final = {1: 3, 2: 3, 3: 4, 4: 5}

#: Starting points by turn-order position from the first player (SET-4).
START_POINTS: Final = (0, 1, 2, 3)

#: Box counts of the pieces, for the UI only — the supply is unlimited (spec §1.4).
BOX_PIECES: Final = {"sprout": 45, "small": 54, "large": 61, "bush": 20, "lake": 20}


# --- 1.1 biome cards (RECONSTRUCTION) ----------------------------------------------------------


@dataclass(frozen=True)
class Card:
    """One biome card: ``top`` is "fertility", "aridity" or "none"; ``icons`` its fertility
    icons (1 or 2 on fertility cards, else 0)."""

    id: int
    biome: str
    top: str
    icons: int
    power: str


#: id, biome, top icon (F1/F2 = fertility 1/2), power — the table of spec §1.1.
_CARD_ROWS: Final = (
    (1, "snow", "F1", "sprout"),
    (2, "snow", "F2", "grow_small"),
    (3, "snow", "none", "grow_large"),
    (4, "snow", "F1", "bush"),
    (5, "snow", "F2", "lake"),
    (6, "snow", "aridity", "bloom"),
    (7, "swamp", "F2", "sprout"),
    (8, "swamp", "none", "grow_small"),
    (9, "swamp", "F1", "grow_large"),
    (10, "swamp", "F2", "bush"),
    (11, "swamp", "aridity", "lake"),
    (12, "swamp", "F1", "bloom"),
    (13, "rock", "none", "sprout"),
    (14, "rock", "F1", "grow_small"),
    (15, "rock", "F2", "grow_large"),
    (16, "rock", "aridity", "bush"),
    (17, "rock", "F1", "lake"),
    (18, "rock", "F2", "bloom"),
    (19, "flowers", "F1", "sprout"),
    (20, "flowers", "F2", "grow_small"),
    (21, "flowers", "aridity", "grow_large"),
    (22, "flowers", "F1", "bush"),
    (23, "flowers", "F2", "lake"),
    (24, "flowers", "none", "bloom"),
    (25, "wheat", "F2", "sprout"),
    (26, "wheat", "aridity", "grow_small"),
    (27, "wheat", "F1", "grow_large"),
    (28, "wheat", "F2", "bush"),
    (29, "wheat", "none", "lake"),
    (30, "wheat", "F1", "bloom"),
    (31, "meadow", "aridity", "sprout"),
    (32, "meadow", "F1", "grow_small"),
    (33, "meadow", "F2", "grow_large"),
    (34, "meadow", "none", "bush"),
    (35, "meadow", "F1", "lake"),
    (36, "meadow", "F2", "bloom"),
    (37, "wild", "none", "sprout"),
    (38, "wild", "none", "grow_small"),
    (39, "wild", "none", "grow_large"),
    (40, "wild", "none", "bush"),
    (41, "wild", "none", "lake"),
    (42, "wild", "none", "bloom"),
)

_TOP_CODES: Final = {
    "F1": ("fertility", 1),
    "F2": ("fertility", 2),
    "aridity": ("aridity", 0),
    "none": ("none", 0),
}

#: The 42 biome cards by id.
CARDS: Final[dict[int, Card]] = {
    cid: Card(cid, biome, _TOP_CODES[code][0], _TOP_CODES[code][1], power)
    for cid, biome, code, power in _CARD_ROWS
}
CARD_IDS: Final = tuple(sorted(CARDS))


# --- 1.2 planet (RECONSTRUCTION) ---------------------------------------------------------------

#: The planet as printed in spec §1.2: two letters per cell, ".." not part of the planet,
#: "XX" a crack. Row 0 is the top (towards N), column 0 the left (towards W).
_PLANET_MAP: Final = (
    ".. .. sn sn sn sn sn .. ..",
    ".. ro ro sn sn sn sn sw ..",
    "ro ro ro XX sn sn sw sw sw",
    "ro ro ro me me me XX sw sw",
    "ro ro me me me me sw sw sw",
    "fl fl XX me me me wh sw sw",
    "fl fl fl fl me XX wh wh wh",
    ".. fl fl fl wh wh wh wh ..",
    ".. .. fl fl wh wh wh .. ..",
)
_CODES: Final = {
    "sn": "snow",
    "sw": "swamp",
    "ro": "rock",
    "fl": "flowers",
    "wh": "wheat",
    "me": "meadow",
}

#: Grid size (rows and columns 0…8).
SIZE: Final = len(_PLANET_MAP)


def _parse_planet() -> tuple[dict[Cell, str], frozenset[Cell]]:
    planet: dict[Cell, str] = {}
    cracks: set[Cell] = set()
    for r, line in enumerate(_PLANET_MAP):
        for c, code in enumerate(line.split()):
            if code == "XX":
                cracks.add((r, c))
            elif code != "..":
                planet[(r, c)] = _CODES[code]
    return planet, frozenset(cracks)


_planet, _cracks = _parse_planet()
#: The 65 playable cells and their biome.
PLANET: Final[dict[Cell, str]] = _planet
#: The 4 crack cells: part of the planet, no biome, never hold a piece (EFF-3).
CRACKS: Final = _cracks
#: Every cell of the planet (65 playable + 4 cracks), row-major.
PLANET_CELLS: Final = tuple(sorted(set(_planet) | _cracks))
#: The playable cells, row-major.
PLAYABLE: Final = tuple(sorted(_planet))


# --- 1.3 power tracks (RECONSTRUCTION) ---------------------------------------------------------

#: Value printed at positions 0…5 of each track (bloom: points; others: applications).
TRACKS: Final[dict[str, tuple[int, ...]]] = {
    "sprout": (0, 2, 3, 4, 5, 6),
    "grow_small": (0, 2, 2, 3, 3, 4),
    "grow_large": (0, 1, 2, 2, 3, 3),
    "bush": (0, 1, 1, 2, 2, 2),
    "lake": (0, 1, 1, 1, 2, 2),
    "bloom": (0, 2, 3, 4, 6, 8),
}
#: Last position of every track (POW-2).
TRACK_END: Final = 5


# --- 2.8 solo titles ---------------------------------------------------------------------------


@dataclass(frozen=True)
class SoloTitle:
    """A row of the solo title table (SOLO-4); ``high`` None means "and more". ``en`` is the
    title's catalogue message id (each catalogue prints its language's title); ``es`` and
    ``de`` record the rulebooks' words."""

    low: int
    high: int | None
    id: str
    en: str
    es: str
    de: str


SOLO_TITLES: Final = (
    SoloTitle(0, 120, "broccoli", N_("Broccoli"), "Brócoli", "Brokkoli"),
    SoloTitle(121, 135, "bonsai", N_("Bonsai"), "Bonsái", "Bonsai"),
    SoloTitle(136, 150, "olive", N_("Olive tree"), "Olivo", "Olivenbaum"),
    SoloTitle(151, 160, "holm_oak", N_("Holm oak"), "Encina", "Stechpalme"),
    SoloTitle(161, 170, "birch", N_("Birch"), "Abedul", "Birke"),
    SoloTitle(171, 180, "pine", N_("Pine"), "Pino", "Kiefer"),
    SoloTitle(181, 190, "oak", N_("Oak"), "Roble", "Eiche"),
    SoloTitle(191, 200, "baobab", N_("Baobab"), "Baobab", "Affenbrotbaum"),
    SoloTitle(201, None, "sequoia", N_("Legendary sequoia"), "Secuoya legendaria", "Mammutbaum"),
)
