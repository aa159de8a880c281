"""Arboretum's components, frozen (rulebook "Preparación"; spec §Components).

80 cards: ten tree species (colours) times values 1 to 8. The species are listed in the rulebook's
scoring-table order, which is also the order in which species are scored and displayed.
"""

from __future__ import annotations

from types import MappingProxyType
from typing import Final

from app.games.words import N_

#: The ten species ids, in the rulebook's scoring-table order.
SPECIES: Final[tuple[str, ...]] = (
    "cassia",
    "dogwood",
    "jacaranda",
    "olive",
    "lilac",
    "magnolia",
    "maple",
    "royal_poinciana",
    "oak",
    "willow",
)

#: A hex colour per species for the UI, after the rulebook's colour names.
COLOURS: Final = MappingProxyType(
    {
        "cassia": "#e8c33a",  # yellow (amarillo)
        "dogwood": "#f3f0e6",  # white (blanco)
        "jacaranda": "#7b4fa6",  # purple (morado)
        "olive": "#4d4d4d",  # dark grey (gris oscuro)
        "lilac": "#3f74c4",  # blue (azul)
        "magnolia": "#e98db6",  # pink (rosado)
        "maple": "#c8322b",  # red (rojo)
        "royal_poinciana": "#ec8427",  # orange (anaranjado)
        "oak": "#8a5a2b",  # brown (café)
        "willow": "#2f5e37",  # dark green (verde oscuro)
    }
)

#: The rulebook's (Spanish) names.
NAMES_ES: Final = MappingProxyType(
    {
        "cassia": "Casia",
        "dogwood": "Cornejo",
        "jacaranda": "Jacaranda",
        "olive": "Olivo",
        "lilac": "Lila",
        "magnolia": "Magnolio",
        "maple": "Arce",
        "royal_poinciana": "Poinciana",
        "oak": "Roble",
        "willow": "Sauce",
    }
)

#: English display names, message ids of the catalogues (shown in the reader's language:
#: "Roble", "Eiche", "Eik").
NAMES_EN: Final = MappingProxyType(
    {
        "cassia": N_("Cassia"),
        "dogwood": N_("Dogwood"),
        "jacaranda": N_("Jacaranda"),
        "olive": N_("Olive"),
        "lilac": N_("Lilac"),
        "magnolia": N_("Magnolia"),
        "maple": N_("Maple"),
        "royal_poinciana": N_("Royal Poinciana"),
        "oak": N_("Oak"),
        "willow": N_("Willow"),
    }
)

#: The names as a card's small label prints them (the long one shortened), message ids too.
SHORT_NAMES: Final = MappingProxyType(
    {**NAMES_EN, "royal_poinciana": N_("Poinciana")}
)

#: Card values of every species.
VALUES: Final[tuple[int, ...]] = (1, 2, 3, 4, 5, 6, 7, 8)
LOWEST: Final = VALUES[0]
HIGHEST: Final = VALUES[-1]

#: Species in play per player count (2 players: 4 species go back to the box; 3 players: 2).
SPECIES_COUNT: Final = MappingProxyType({2: 6, 3: 8, 4: 10})

#: Cards in hand at the start and at the end of every turn.
HAND_SIZE: Final = 7

#: Cards drawn at the start of every turn.
DRAWS_PER_TURN: Final = 2
