"""Players' names: how a name is cleaned and checked when it is chosen, and how names that
look alike are recognised (their *skeleton*, after Unicode's UTS #39).

- **Cleaned.** A name is normalised with NFKC (full-width "ｆｕｌｌ" is "full", a ligature its
  letters), its white space trimmed and each inner run of it folded into one space.
- **Refused** (422, naming the rule): an empty name; one made only of invisible characters —
  controls and formats (Cc, Cf), separators (Zs, Zl, Zp), combining marks (Mn) and the blank
  letters that are neither (the Hangul fillers U+3164, U+115F, U+1160, U+FFA0 and the Braille
  blank U+2800, categories Lo and So); a name containing a control, format or blank character
  anywhere (a zero-width space or a filler makes "ana" and "ana\\u200b" look alike); over
  :data:`NAME_MAX` characters; one that is not printable; and the bots' names ("Bot", "Bot 2",
  in any case and any look-alike letters: tables name bot seats "Bot 2").
- **Look-alikes.** :func:`skeleton` maps a name to a key that two names share when they look
  alike: NFD, each character to its prototype by Unicode's confusables table (the data of the
  ``confusable_homoglyphs`` package: Cyrillic "а" is Latin "a", "1" is "l", "0" is "O"), case
  folded and mapped again, NFD again. A table tells its players apart by skeleton
  (:func:`app.rooms.store.told_apart`), so "аlice" and "alice" read "аlice (1)" and
  "alice (2)".
"""

from __future__ import annotations

import json
import re
import unicodedata
from functools import cache
from importlib import resources

from app.errors import ApiError
from app.games.words import Msg

#: The longest name, in characters after normalisation.
NAME_MAX = 40

#: Letters and symbols that show nothing (Unicode gives them categories Lo and So, so a check
#: of categories alone lets them through): the Hangul fillers and the Braille blank.
BLANKS = frozenset("\u3164\u115f\u1160\uffa0\u2800")
#: Categories of characters that show nothing by themselves.
INVISIBLE = frozenset({"Cc", "Cf", "Zs", "Zl", "Zp", "Mn"})
#: Categories of characters no name may contain anywhere.
FORBIDDEN = frozenset({"Cc", "Cf"})


def _invisible(char: str) -> bool:
    return char in BLANKS or unicodedata.category(char) in INVISIBLE


def clean_name(name: str) -> str:
    """A display name, normalised (NFKC, white space trimmed and folded) and checked: 422
    naming the rule it breaks (see the module's description)."""
    cleaned = " ".join(unicodedata.normalize("NFKC", name).split())
    if not cleaned:
        raise ApiError(422, Msg("name must not be empty"), rule="name")
    if all(_invisible(char) for char in cleaned):
        raise ApiError(422, Msg("name must contain a visible letter, digit or symbol: it is "
                                "made only of spaces, marks or invisible characters"),
                       rule="name")
    if any(char in BLANKS or unicodedata.category(char) in FORBIDDEN for char in cleaned):
        raise ApiError(422, Msg("name must not contain invisible or control characters (such "
                                "as zero-width spaces or blank fillers)"), rule="name")
    if len(cleaned) > NAME_MAX:
        raise ApiError(422, Msg("name must be at most {most} characters", {"most": NAME_MAX}),
                       rule="name")
    if not cleaned.isprintable():
        raise ApiError(422, Msg("name must contain only printable characters"), rule="name")
    if is_bot_name(cleaned):
        raise ApiError(422, Msg("names like \"Bot\" and \"Bot 2\" are the bots' at every "
                                "table: choose another name"), rule="name")
    return cleaned


# -- look-alikes ---------------------------------------------------------------------------

#: Marks around right-to-left characters in the package's data (not part of them).
_DIRECTION_MARKS = str.maketrans("", "", "\u200e\u200f")


@cache
def _prototypes() -> dict[str, str]:
    """Each confusable character's prototype. The package's table links every character of
    Unicode's confusables.txt with its look-alikes both ways: a character and the prototype it
    maps to, the prototype and every character mapped to it. A group of look-alikes is the
    prototype (the one linked with all the others; a sequence such as "rn" where there is one)
    and its sources; a pair linked only with each other maps to the smaller of the two."""
    data = resources.files("confusable_homoglyphs").joinpath("confusables.json").read_text(
        encoding="utf-8")
    table: dict[str, list[dict[str, str]]] = json.loads(data)
    links: dict[str, set[str]] = {}
    for key, entries in table.items():
        key = key.translate(_DIRECTION_MARKS)
        for entry in entries:
            other = entry["c"].translate(_DIRECTION_MARKS)
            if other and key and other != key:
                links.setdefault(key, set()).add(other)
                links.setdefault(other, set()).add(key)
    prototypes: dict[str, str] = {}
    for char, linked in links.items():
        if len(char) != 1:
            continue  # sequences are prototypes only
        if len(linked) == 1:
            (other,) = linked
            if len(other) > 1 or len(links.get(other, ())) > 1:
                prototypes[char] = other  # a source, mapped to its prototype
            else:
                prototypes[char] = min(char, other)  # a pair: either way, one key
    return prototypes


def _mapped(text: str) -> str:
    prototypes = _prototypes()
    return "".join(prototypes.get(char, char) for char in text)


def skeleton(name: str) -> str:
    """The key two names share when they look alike (UTS #39's skeleton, case folded)."""
    text = unicodedata.normalize("NFD", unicodedata.normalize("NFKC", name))
    text = unicodedata.normalize("NFD", _mapped(text)).casefold()
    return unicodedata.normalize("NFD", _mapped(unicodedata.normalize("NFD", text)))


@cache
def _bot_pattern() -> re.Pattern[str]:
    """"Bot", "Bot 2", "bot-12", as skeletons (digits look like letters there: "1" is "l")."""
    digits = "|".join(re.escape(skeleton(d)) for d in "0123456789")
    separators = "|".join(re.escape(skeleton(s)) for s in " -_#.")
    return re.compile(rf"{re.escape(skeleton('bot'))}(?:(?:{separators})*(?:{digits})+)?")


def is_bot_name(name: str) -> bool:
    """Whether ``name`` looks like a bot's ("Bot", "Bot 3", "ВОТ 1", "bot#12")."""
    return _bot_pattern().fullmatch(skeleton(name)) is not None
