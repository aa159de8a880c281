"""The four languages: their catalogues, which one a reader gets, and words in it.

Catalogues are Babel ``.po`` files — the platform's in ``app/locale``, each game's in its own
folder's ``locale`` — compiled in memory when the server starts (no ``.mo`` to build or commit)
and merged into one catalogue per language. English is the language the messages are written in
(its catalogues list them untranslated, for translators); Spanish, German and Dutch translate
every message, which tests/unit/test_catalogues.py checks against what the code and templates
use.

Which language: the reader's choice (the language switch's cookie, else the player record),
else the browser's ``Accept-Language``, else English. API clients choose with
``Accept-Language`` only.

Players in a message: English reads "you" / "your" for the reader's own seat (the messages
are written so that a verb reads right in both persons, "{p0} drew"). Spanish, German and Dutch
conjugate a verb by person, so there every player, the reader too, is named; a possessive
``{p0's}`` is German's genitive ("Bos", "Max'") and Dutch's ("Ana's", "Jans"); Spanish
messages say "de {p0}" instead (the catalogue test refuses ``{p0's}`` in Spanish).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from functools import cache
from io import BytesIO
from pathlib import Path

from babel import Locale
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from babel.support import Translations

from app.games.registry import GAMES
from app.games.words import Msg, Words

APP_DIR = Path(__file__).resolve().parent
#: The languages, in the order the switch lists them.
LOCALES = ("en", "es", "de", "nl")
DEFAULT = "en"
#: Each language's name in that language, for the switch.
LANGUAGE_NAMES = {code: str(Locale.parse(code).get_display_name(code)).capitalize()
                  for code in LOCALES}
#: The cookie that remembers the switch's choice.
COOKIE = "canopy_lang"


def catalogue_dirs() -> list[Path]:
    """Where catalogues live: the platform's, then each game's."""
    return [APP_DIR / "locale", *(game.folder / "locale" for game in GAMES.values())]


def _compiled(path: Path, locale: str) -> Translations:
    with path.open("rb") as po:
        catalog = read_po(po, locale=locale)
    mo = BytesIO()
    write_mo(mo, catalog, use_fuzzy=False)
    mo.seek(0)
    return Translations(mo)


@cache
def words(locale: str) -> Words:
    """The merged catalogue of ``locale`` (platform and games), compiled once."""
    merged = Translations()
    for folder in catalogue_dirs():
        po = folder / locale / "LC_MESSAGES" / "messages.po"
        if po.is_file():
            merged.merge(_compiled(po, locale))
    return Words(merged, locale)


# --- choosing the language ---------------------------------------------------------------------

_TAG = re.compile(r"^[A-Za-z]{1,8}(?:-[A-Za-z0-9]{1,8})*$")


def from_accept_language(header: str | None) -> str | None:
    """The best of our languages for an ``Accept-Language`` header (q-values honoured, a
    region ignored: ``de-AT`` is German), or None when it names none of them."""
    if not header:
        return None
    ranked: list[tuple[float, int, str]] = []
    for index, part in enumerate(header[:500].split(",")):
        tag, _, params = part.strip().partition(";")
        quality = 1.0
        if params.strip().startswith("q="):
            try:
                quality = float(params.strip()[2:])
            except ValueError:
                continue
        if _TAG.match(tag) and quality > 0:
            ranked.append((-quality, index, tag.split("-")[0].lower()))
    for _, _, code in sorted(ranked):
        if code in LOCALES:
            return code
    return None


def choose(chosen: Iterable[str | None], accept_language: str | None) -> str:
    """The first of the reader's own choices that we speak, else the browser's, else English."""
    for code in chosen:
        if code in LOCALES:
            return code
    return from_accept_language(accept_language) or DEFAULT


# --- players in a message ----------------------------------------------------------------------

_PLAYER = re.compile(r"\{p(\d)('s)?\}")
#: Where a sentence starts: the text's start, or after a full stop, ! or ?.
_SENTENCE_START = re.compile(r"(?:^|[.!?]\s+)$")


def _possessive(name: str, locale: str) -> str:
    if not name[-1:].isalpha():  # "Bot 2": no ending glued to a digit
        return name + "'s" if locale in ("de", "nl", "en") else name
    if locale == "de":
        return name + ("'" if name[-1:].lower() in ("s", "ß", "x", "z") else "s")
    if locale == "nl":
        return name + ("'s" if name[-1:].lower() in ("a", "e", "i", "o", "u", "y") else "s")
    return name + "'s"


def fill_names(text: str, names: list[str], reader: int | None = None,
                 locale: str = DEFAULT) -> str:
    """Replace ``{p0}`` … and ``{p0's}`` … by the players' names and possessives, in one pass
    (a player named ``{p1}`` is shown as typed, never as the other player). In English the
    reader's own seat reads "you" / "your", capitalised where a sentence starts."""
    def name(match: re.Match[str]) -> str:
        index = int(match.group(1))
        possessive = match.group(2) is not None
        if index >= len(names):
            return match.group(0)
        if index != reader or locale != "en":
            return _possessive(names[index], locale) if possessive else names[index]
        word = "your" if possessive else "you"
        starts = _SENTENCE_START.search(text, 0, match.start()) is not None
        return word.capitalize() if starts else word

    return _PLAYER.sub(name, text)


def say(message: Msg | str, locale: str = DEFAULT, names: list[str] | None = None,
        reader: int | None = None) -> str:
    """A message (or a plain msgid) in ``locale``, players filled for ``reader``."""
    text = (message.render(words(locale)) if isinstance(message, Msg)
            else words(locale).translations.gettext(message))
    return fill_names(text, names or [], reader, locale) if names is not None else text
