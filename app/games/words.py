"""Words for people, translated where they are shown: :class:`Msg` and the catalogue markers.

A game never translates. It builds its log lines, refusals and labels as :class:`Msg` values —
an English message, which is also the message's id in every catalogue, and the parts that fill
it — and marks single words with :func:`N_` so that ``pybabel extract`` finds them. The
platform renders a Msg in each reader's language (app/i18n.py) with the catalogues of the
platform and of the games (``locale/<lang>/LC_MESSAGES/messages.po`` in each game's folder).

Fields of a message: ``{name}`` takes ``args["name"]`` — a number or a date (formatted for the
language), a name or other text shown as it is, a :class:`Msg` (translated in turn), or a list
of those (joined with the language's "and"). ``{p0}`` … name the players and ``{p0's}`` … their
possessives; they are filled last, for the reader (app/i18n.py ``fill_names``).
"""

from __future__ import annotations

import functools
import gettext
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import date
from typing import Any

from babel.dates import format_date
from babel.lists import format_list
from babel.numbers import format_decimal

JSON = dict[str, Any]

#: A player's placeholder: ``{p0}`` or ``{p0's}``.
PLAYER_FIELD = re.compile(r"^p\d+(?:'s)?$")
#: The ``{field}`` parts of a message (players included).
FIELD = re.compile(r"\{([^{}]+)\}")


def N_(text: str) -> str:
    """Marks ``text`` for the catalogues without translating it here: it is translated where
    it is shown, in the reader's language."""
    return text


@dataclass(frozen=True)
class Words:
    """One language's catalogue, as a Msg needs it: translations and the locale's name."""

    translations: gettext.NullTranslations
    locale: str


#: English: the messages as written.
ENGLISH = Words(gettext.NullTranslations(), "en")


@dataclass(frozen=True)
class Msg:
    """Words for a person: ``text`` (English, the catalogue id) with its ``{fields}`` filled
    from ``args``. A message with a plural form is built with :func:`plural`: ``plural`` is
    its English plural and ``count`` the argument whose number chooses the form."""

    text: str
    args: Mapping[str, Any] = field(default_factory=dict)
    plural: str = ""
    count: str = ""

    def render(self, words: Words = ENGLISH) -> str:
        """The message in ``words``' language, players still as ``{p0}`` …; a translation
        that does not fit its arguments falls back to English."""
        tr = words.translations
        if self.plural:
            template = tr.ngettext(self.text, self.plural, int(self.args[self.count]))
        else:
            template = tr.gettext(self.text)
        try:
            return template.format_map(_Fields(self.args, words))
        except (KeyError, ValueError, IndexError, AttributeError):
            if words is ENGLISH:
                raise
            return self.render(ENGLISH)

    def english(self) -> str:
        return self.render(ENGLISH)

    def to_json(self) -> JSON:
        out: JSON = {"text": self.text, "args": {k: _arg_json(v) for k, v in self.args.items()}}
        if self.plural:
            out["plural"], out["count"] = self.plural, self.count
        return out

    @classmethod
    def from_json(cls, data: JSON) -> Msg:
        return cls(data["text"], {k: _arg_load(v) for k, v in data.get("args", {}).items()},
                   data.get("plural", ""), data.get("count", ""))


def seat(index: int) -> str:
    """A seat's placeholder (``{p2}``), filled with its player's name for each reader."""
    return "{p" + str(index) + "}"


def who(**roles: int) -> dict[str, str]:
    """The players of a message by role: a message says ``{p0}`` for the one who acts and
    ``{p1}`` … for others whatever their seats, so that one message serves every seat;
    ``who(p0=2, p1=0)`` gives each role (and its possessive ``{p0's}``) its seat's placeholder.
    """
    found: dict[str, str] = {}
    for role, index in roles.items():
        found[role] = seat(index)
        found[role + "'s"] = "{p" + str(index) + "'s}"
    return found


def plural(singular: str, plural_text: str, count: str, **args: Any) -> Msg:
    """A message with a singular and a plural form, chosen by the number ``args[count]``
    ("{n} card" / "{n} cards"); each language has its own forms in its catalogue."""
    return Msg(singular, args, plural_text, count)


class _Fields(dict[str, Any]):
    """A message's arguments as its translation reads them; players stay placeholders."""

    def __init__(self, args: Mapping[str, Any], words: Words) -> None:
        super().__init__(args)
        self.words = words

    def __getitem__(self, key: str) -> Any:
        if key not in self and PLAYER_FIELD.match(key):
            return "{" + key + "}"
        return _shown(super().__getitem__(key), self.words)

    def __missing__(self, key: str) -> Any:
        raise KeyError(key)


def _shown(value: Any, words: Words) -> str:
    if isinstance(value, Msg):
        return value.render(words)
    if isinstance(value, bool):
        return str(value)
    if isinstance(value, int):  # grouped for the language; a number past any game's as typed
        return _number(value, words.locale) if abs(value) < 10**15 else str(value)
    if isinstance(value, date):
        return str(format_date(value, "long", locale=words.locale))
    if isinstance(value, list | tuple):
        items = [_shown(item, words) for item in value]
        return _listed(tuple(items), words.locale) if items else ""
    return str(value)


@functools.lru_cache(maxsize=4096)
def _number(value: int, locale: str) -> str:
    """``value`` written for ``locale`` (Babel takes ~25 µs a call; games write the same few
    numbers over and over: scores, counts, rows)."""
    text: str = format_decimal(value, locale=locale)
    return text


@functools.lru_cache(maxsize=4096)
def _listed(items: tuple[str, ...], locale: str) -> str:
    """``items`` as a list in ``locale``'s words ("a, b and c")."""
    text: str = format_list(list(items), locale=locale)
    return text


def _arg_json(value: Any) -> Any:
    if isinstance(value, Msg):
        return {"msg": value.to_json()}
    if isinstance(value, date):
        return {"date": value.isoformat()}
    if isinstance(value, list | tuple):
        return [_arg_json(v) for v in value]
    return value


def _arg_load(value: Any) -> Any:
    if isinstance(value, dict) and "msg" in value:
        return Msg.from_json(value["msg"])
    if isinstance(value, dict) and "date" in value:
        return date.fromisoformat(value["date"])
    if isinstance(value, list):
        return [_arg_load(v) for v in value]
    return value


def fields_of(text: str) -> set[str]:
    """The ``{fields}`` of a message (players included), to check a translation keeps them."""
    return set(FIELD.findall(text))
