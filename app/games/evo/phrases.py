"""The parts Evo's messages are built from (app/games/words.py): players, spaces, genes, event
cards and lists, each a value a :class:`Msg` translates where it is shown.

Players: a message names its players by role, ``{p0}``, ``{p1}`` … (``{p0's}`` for the
possessive), and :func:`who` says which seat plays each role; the placeholders of the seats
are filled last, for the reader (English "you" / "your" for the reader's own seat).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from functools import cache
from types import MappingProxyType

from app.games.evo.data import EVENT_CARDS, GENES, MAPS, SPACE_NAMES
from app.games.words import Msg, seat


def seats(indices: Iterable[int]) -> list[str]:
    """Several seats, joined with the language's "and" where shown."""
    return [seat(i) for i in indices]


#: The rows of an island as its labels letter them, top row first.
ROW_LETTERS = "ABCDEFGHIJ"


@cache
def space_labels(players: int) -> Mapping[tuple[int, int], str]:
    """The label the island draws on each space, as a map's grid reads: the row's letter,
    top row A, then the space's place in its row from the left, 1 first — "C4"."""
    cells = MAPS[players].terrain
    rows = sorted({r for _, r in cells})
    return MappingProxyType({
        (q, r): f"{ROW_LETTERS[rows.index(r)]}{place}"
        for r in rows
        for place, q in enumerate(sorted(q for q, rr in cells if rr == r), start=1)})


def space(players: int, cell: Sequence[int]) -> Msg:
    """A space in words, by the label the map shows on it: "the hills at C4"."""
    at = (int(cell[0]), int(cell[1]))
    return Msg(SPACE_NAMES[MAPS[players].terrain[at]], {"space": space_labels(players)[at]})


def gene(gene_id: str) -> Msg:
    return Msg(GENES[gene_id].name)


def card(card_id: str) -> Msg:
    return Msg(EVENT_CARDS[card_id].name)


def chain(parts: Sequence[Msg | str], separator: str = ";") -> Msg | str:
    """Parts one after another, separated by semicolons (``separator`` ";") or commas (","):
    "you played Battle Rage; Bo played no card"."""
    if not parts:
        return ""
    if len(parts) == 1:
        return parts[0]
    rest = chain(parts[1:], separator)
    if separator == ";":
        return Msg("{first}; {rest}", {"first": parts[0], "rest": rest})
    return Msg("{first}, {rest}", {"first": parts[0], "rest": rest})
