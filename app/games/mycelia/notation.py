"""Mycelia's card-function notation (spec *Card function notation*).

A card shows its function as symbols; the data module stores each function as a compact string
and ``parse_fn`` turns it into the canonical JSON the rules walk. The grammar, exactly::

    fn    := seq ( " / " seq )?          either-or: choose ONE alternative (or none)
    seq   := part ( " & " part )*        all parts, strictly left to right, each may be skipped
    part  := "!"? atom                   "!" = bonus for the other players
    atom  := "+" N                       gain N leaves
           | ( K "x " )? spec ":" effs   field function, up to K times (K = 2, 3 or 4)
           | "trash"                     remove 1 card of your discard pile from the game
           | "tile:" ("c"|"d"|"e")       take that action tile
           | "sanctuary"                 place an extra sanctuary field
    spec  := type count                  type: leaf | moss | water | any
    count := N | "=" N | "~" N           at least N | exactly N (beetle) | transparent, up to N
    effs  := "m"+ | "x"* ("A"|"n"|"C")?  not empty

``fn_msg`` spells a parsed function out in words for people, a :class:`Msg` shown in each
reader's language; ``describe_fn`` is its English ("gain 3 leaves, then up to 2 times: remove
1 drop from a water field with at least 1 drop").

Decisions where the grammar leaves room: ``N`` is written without leading zeros; a gain is at
least 1 leaf; a transparent count ``~N`` acts on at least 1 drop, so ``~0`` is malformed; the
separators are exactly one space either side, and no other spaces are allowed.
"""

from __future__ import annotations

import re
from typing import Any, Final

from app.games.words import N_, Msg, plural

#: Field types a card may name (``any`` = leaf, moss, water or earth; rulebook: "Cualquier
#: casilla: puede ser de broza, musgo, agua o incluso de tierra").
SPEC_TYPES: Final = ("leaf", "moss", "water", "any")
#: Effect symbols and their canonical names (spec *Canonical JSON*).
EFFECTS: Final = {
    "m": "move",
    "x": "remove",
    "A": "remove_each_adjacent",
    "n": "remove_one_adjacent",
    "C": "clear_adjacent",
}
#: Count marks and their modes: none = at least N, "=" = exactly N (beetle), "~" = transparent.
MODES: Final = {"": "min", "=": "exact", "~": "upto"}
#: Repetitions the cards print ("2 x", "3 x" or "4 x").
REPETITIONS: Final = (2, 3, 4)
#: Action tiles a card may grant (one-time effects only).
GRANTED_TILES: Final = ("c", "d", "e")

_N = r"(?:0|[1-9][0-9]*)"
_GAIN = re.compile(rf"\+({_N})")
_FIELD = re.compile(rf"(?:([0-9]+)x )?(leaf|moss|water|any)([=~]?)({_N}):(m+|x*[AnC]?)")
_TILE = re.compile(r"tile:([cde])")

def parse_fn(text: str) -> dict[str, Any]:
    """Parse a card function into the spec's canonical JSON; ValueError if malformed.

    ``"+3 & 2x water1:x"`` → ``{"seq": [{"gain": 3, "bonus": False}, {"field": {"type":
    "water", "drops": 1, "mode": "min"}, "do": ["remove"], "times": 2, "bonus": False}]}``.
    """
    if not isinstance(text, str) or not text:
        raise ValueError("a card function must be a non-empty text")
    alternatives = text.split(" / ")
    if len(alternatives) > 2:
        raise ValueError(f"{text!r}: an either-or has exactly two alternatives")
    seqs = [{"seq": _parse_seq(alt, text)} for alt in alternatives]
    if len(seqs) == 1:
        return seqs[0]
    return {"or": seqs}


def _parse_seq(seq: str, text: str) -> list[dict[str, Any]]:
    return [_parse_part(part, text) for part in seq.split(" & ")]


def _parse_part(part: str, text: str) -> dict[str, Any]:
    bonus = part.startswith("!")
    atom = part[1:] if bonus else part
    parsed = _parse_atom(atom)
    if parsed is None:
        raise ValueError(f"{text!r}: cannot read the part {part!r}")
    parsed["bonus"] = bonus
    return parsed


def _parse_atom(atom: str) -> dict[str, Any] | None:
    if atom == "trash":
        return {"trash": 1}
    if atom == "sanctuary":
        return {"sanctuary": 1}
    if tile := _TILE.fullmatch(atom):
        return {"tile": tile.group(1)}
    if gain := _GAIN.fullmatch(atom):
        leaves = int(gain.group(1))
        if leaves < 1:
            raise ValueError(f"{atom!r}: a gain is at least 1 leaf")
        return {"gain": leaves}
    field = _FIELD.fullmatch(atom)
    if field is None:
        return None
    times_text, kind, mark, drops_text, effs = field.groups()
    if not effs:
        raise ValueError(f"{atom!r}: a field function needs at least one effect")
    times = 1
    if times_text is not None:
        times = int(times_text)
        if times not in REPETITIONS:
            raise ValueError(f"{atom!r}: repetitions are 2x, 3x or 4x")
    drops = int(drops_text)
    if mark == "~" and drops < 1:
        raise ValueError(f"{atom!r}: transparent drops act on at least 1 drop")
    return {
        "field": {"type": kind, "drops": drops, "mode": MODES[mark]},
        "do": [EFFECTS[symbol] for symbol in effs],
        "times": times,
    }


def parts_of(fn: dict[str, Any]) -> list[dict[str, Any]]:
    """Every part of a parsed function, alternatives included, left to right."""
    if "or" in fn:
        return [part for alt in fn["or"] for part in alt["seq"]]
    return list(fn["seq"])


def format_fn(fn: dict[str, Any]) -> str:
    """The notation of a parsed function: ``format_fn(parse_fn(text)) == text``."""
    if "or" in fn:
        return " / ".join(_format_seq(alt["seq"]) for alt in fn["or"])
    return _format_seq(fn["seq"])


def _format_seq(seq: list[dict[str, Any]]) -> str:
    return " & ".join(("!" if part["bonus"] else "") + _format_atom(part) for part in seq)


def _format_atom(part: dict[str, Any]) -> str:
    if "gain" in part:
        return f"+{part['gain']}"
    if "trash" in part:
        return "trash"
    if "tile" in part:
        return f"tile:{part['tile']}"
    if "sanctuary" in part:
        return "sanctuary"
    spec = part["field"]
    marks = {mode: mark for mark, mode in MODES.items()}
    symbols = {name: symbol for symbol, name in EFFECTS.items()}
    times = f"{part['times']}x " if part["times"] > 1 else ""
    effs = "".join(symbols[name] for name in part["do"])
    return f"{times}{spec['type']}{marks[spec['mode']]}{spec['drops']}:{effs}"


# --- plain words -------------------------------------------------------------------------------

#: Display words of the field types a card may name (message ids).
_TYPE_WORDS: Final = {
    "leaf": N_("a leaf litter field"),
    "moss": N_("a moss field"),
    "water": N_("a water field"),
    "any": N_("any field"),
}
#: What the neighbour effects remove, after the field's own removals (R17).
_AFTER: Final = {
    "remove_each_adjacent": N_("1 drop from each neighbouring field that has one"),
    "remove_one_adjacent": N_("1 drop from one neighbouring field"),
    "clear_adjacent": N_("every drop from one neighbouring field"),
}


def place_msg(kind: str) -> Msg:
    """ "a water field", "any field": where a field function acts, in words."""
    return Msg(_TYPE_WORDS[kind])


def at_least(place: Msg, drops: int) -> Msg:
    """ "any field with at least 2 drops"."""
    return plural("{place} with at least {n} drop", "{place} with at least {n} drops", "n",
                  place=place, n=drops)


def exactly(place: Msg, drops: int) -> Msg:
    """ "any field with exactly 2 drops" (a beetle)."""
    return plural("{place} with exactly {n} drop", "{place} with exactly {n} drops", "n",
                  place=place, n=drops)


def then(first: Msg, second: Msg) -> Msg:
    """Two steps in their order: "gain 2 leaves, then …"."""
    return Msg("{first}, then {then}", {"first": first, "then": second})


def in_order(steps: list[Msg]) -> Msg:
    """Steps in their order, joined with "then"."""
    joined = steps[-1]
    for step in reversed(steps[:-1]):
        joined = then(step, joined)
    return joined


def and_list(items: list[Msg | str]) -> Msg | str:
    """ "a", "a and b", "a, b and c" in the reader's language (players as "{p0}" …)."""
    if len(items) <= 1:
        return items[0] if items else ""
    joined: Msg | str = Msg("{some} and {last}", {"some": items[-2], "last": items[-1]})
    for item in reversed(items[:-2]):
        joined = Msg("{one}, {more}", {"one": item, "more": joined})
    return joined


def _field_msg(spec: dict[str, Any]) -> Msg:
    """ "a water field with at least 1 drop", "any field with exactly 2 drops" …"""
    place = place_msg(spec["type"])
    drops = spec["drops"]
    if spec["mode"] == "exact":
        return (Msg("{place} with no drops", {"place": place}) if drops == 0
                else exactly(place, drops))
    if spec["mode"] == "upto":
        return at_least(place, 1)
    if drops == 0:
        return Msg("{place} with any number of drops", {"place": place})
    return at_least(place, drops)


def _field_action(part: dict[str, Any]) -> Msg:
    """The verb phrase of one repetition of a field function (R13–R17)."""
    spec, do = part["field"], part["do"]
    place = _field_msg(spec)
    moves = do.count("move")
    if moves:
        if moves == 1:
            return Msg("move 1 drop from {place} to a neighbouring field", {"place": place})
        return Msg("move {n} drops one at a time from {place}, each to a neighbouring field",
                   {"n": moves, "place": place})
    removes = do.count("remove")
    if spec["mode"] == "upto":
        removes = min(removes, spec["drops"])
    tail = [symbol for symbol in do if symbol != "remove"]
    if removes == 0:
        return Msg("choose {place} and remove {what}",
                   {"place": place, "what": Msg(_AFTER[tail[0]])})
    phrase = (Msg("remove 1 drop from {place}", {"place": place}) if removes == 1
              else Msg("remove up to {n} drops from {place}", {"n": removes, "place": place}))
    if tail:
        phrase = then(phrase, Msg(_AFTER[tail[0]]))
    return phrase


def _action(part: dict[str, Any]) -> Msg:
    """The verb phrase of one part, for the player who performs it."""
    if "gain" in part:
        return plural("gain {n} leaf", "gain {n} leaves", "n", n=part["gain"])
    if "trash" in part:
        return Msg("remove a card of your discard pile from the game")
    if "tile" in part:
        return Msg("take action tile {tile}", {"tile": part["tile"]})
    if "sanctuary" in part:
        return Msg("place an extra sanctuary field on a field with exactly 1 drop, removing "
                   "that drop")
    return _field_action(part)


def part_msg(part: dict[str, Any]) -> Msg:
    """One part in words; bonus parts speak of every other player (B1–B2)."""
    action = _action(part)
    times = part.get("times", 1)
    if part["bonus"]:
        if "gain" in part:
            return plural("every other player gains {n} leaf",
                          "every other player gains {n} leaves", "n", n=part["gain"])
        if times > 1:
            return Msg("every other player may, up to {times} times, {action}",
                       {"times": times, "action": action})
        return Msg("every other player may {action}", {"action": action})
    if times > 1:
        return Msg("up to {times} times: {action}", {"times": times, "action": action})
    return action


def seq_msg(seq: list[dict[str, Any]]) -> Msg:
    """The parts of a sequence in words, joined with "then"."""
    return in_order([part_msg(part) for part in seq])


def fn_msg(fn: dict[str, Any]) -> Msg:
    """A parsed card function in words, no identifiers (R11: "&" → "then", "/" → "either …
    or …"), shown in the reader's language."""
    if "or" in fn:
        first, second = (seq_msg(alt["seq"]) for alt in fn["or"])
        return Msg("either {first}; or {second}", {"first": first, "second": second})
    return seq_msg(fn["seq"])


def describe_part(part: dict[str, Any]) -> str:
    """One part in plain English (:func:`part_msg`)."""
    return part_msg(part).english()


def describe_fn(fn: dict[str, Any]) -> str:
    """A parsed card function in plain English words (:func:`fn_msg`)."""
    return fn_msg(fn).english()
