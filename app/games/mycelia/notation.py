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

``describe_fn`` spells a parsed function out in plain English for people ("gain 3 leaves,
then up to 2 times: remove 1 drop from a water field with at least 1 drop").

Decisions where the grammar leaves room: ``N`` is written without leading zeros; a gain is at
least 1 leaf; a transparent count ``~N`` acts on at least 1 drop, so ``~0`` is malformed; the
separators are exactly one space either side, and no other spaces are allowed.
"""

from __future__ import annotations

import re
from typing import Any, Final

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

#: Display words of the field types a card may name.
_TYPE_WORDS: Final = {
    "leaf": "a leaf litter field",
    "moss": "a moss field",
    "water": "a water field",
    "any": "any field",
}


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


# --- plain English ----------------------------------------------------------------------------


def _drops(n: int) -> str:
    return f"{n} drop" if n == 1 else f"{n} drops"


def _leaves(n: int) -> str:
    return f"{n} leaf" if n == 1 else f"{n} leaves"


def _field_words(spec: dict[str, Any]) -> str:
    """ "a water field with at least 1 drop", "any field with exactly 2 drops" …"""
    place = _TYPE_WORDS[spec["type"]]
    drops = spec["drops"]
    if spec["mode"] == "exact":
        return f"{place} with no drops" if drops == 0 else f"{place} with exactly {_drops(drops)}"
    if spec["mode"] == "upto":
        return f"{place} with at least 1 drop"
    if drops == 0:
        return f"{place} with any number of drops"
    return f"{place} with at least {_drops(drops)}"


def _field_action(part: dict[str, Any]) -> str:
    """The verb phrase of one repetition of a field function (R13–R17)."""
    spec, do = part["field"], part["do"]
    place = _field_words(spec)
    moves = do.count("move")
    if moves:
        if moves == 1:
            return f"move 1 drop from {place} to a neighbouring field"
        return f"move {_drops(moves)} one at a time from {place}, each to a neighbouring field"
    removes = do.count("remove")
    if spec["mode"] == "upto":
        removes = min(removes, spec["drops"])
    tail = [symbol for symbol in do if symbol != "remove"]
    after = {
        "remove_each_adjacent": "1 drop from each neighbouring field that has one",
        "remove_one_adjacent": "1 drop from one neighbouring field",
        "clear_adjacent": "every drop from one neighbouring field",
    }
    if removes == 0:
        return f"choose {place} and remove {after[tail[0]]}"
    amount = "1 drop" if removes == 1 else f"up to {_drops(removes)}"
    phrase = f"remove {amount} from {place}"
    if tail:
        phrase += f", then {after[tail[0]]}"
    return phrase


def _action(part: dict[str, Any]) -> str:
    """The verb phrase of one part, for the player who performs it."""
    if "gain" in part:
        return f"gain {_leaves(part['gain'])}"
    if "trash" in part:
        return "remove a card of your discard pile from the game"
    if "tile" in part:
        return f"take action tile {part['tile']}"
    if "sanctuary" in part:
        return "place an extra sanctuary field on a field with exactly 1 drop, removing that drop"
    return _field_action(part)


def describe_part(part: dict[str, Any]) -> str:
    """One part in plain English; bonus parts speak of every other player (B1–B2)."""
    action = _action(part)
    times = part.get("times", 1)
    if part["bonus"]:
        if "gain" in part:
            return f"every other player gains {_leaves(part['gain'])}"
        if times > 1:
            return f"every other player may, up to {times} times, {action}"
        return f"every other player may {action}"
    if times > 1:
        return f"up to {times} times: {action}"
    return action


def _describe_seq(seq: list[dict[str, Any]]) -> str:
    return ", then ".join(describe_part(part) for part in seq)


def describe_fn(fn: dict[str, Any]) -> str:
    """A parsed card function in plain English words, no identifiers (R11: "&" → "then",
    "/" → "either … or …")."""
    if "or" in fn:
        first, second = (_describe_seq(alt["seq"]) for alt in fn["or"])
        return f"either {first}; or {second}"
    return _describe_seq(fn["seq"])
