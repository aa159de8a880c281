"""The message catalogues: what the code and templates say, and bringing the ``.po`` files up to
date with it (Babel's extraction and update; app/i18n.py compiles them when the server starts).

Each game's words are its own catalogue, in its folder (``app/games/<id>/locale``); the
platform's are in ``app/locale``. A message is found where the code says

- ``Msg("…")`` or ``N_("…")`` (app/games/words.py), ``plural("…", "…", …)``,
- ``_("…")``, ``gettext``/``ngettext`` and ``{% trans %}`` in a template.

Run after changing words (then translate the new empty entries); name catalogues to update
only those::

    .venv/bin/python -m app.catalogues [platform] [arboretum] …
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.extract import DEFAULT_KEYWORDS, extract_from_dir
from babel.messages.pofile import read_po, write_po

from app.games.registry import GAMES
from app.i18n import APP_DIR, LANGUAGE_NAMES, LOCALES

KEYWORDS = {**DEFAULT_KEYWORDS, "N_": None, "Msg": None, "plural": (1, 2)}
METHODS = [("**.py", "python"), ("**/templates/**.html", "jinja2.ext:babel_extract")]
#: The files carry no dates that change with every run (their history is git's).
STABLE_DATE = datetime(2026, 11, 23, tzinfo=UTC)
HEADER = ("# {language} words of Canopy: {domain}.\n"
          "# Brought up to date by `python -m app.catalogues`; translate the empty entries.")
TEMPLATE_OPTIONS = {"extensions": "jinja2.ext.i18n", "trimmed": "true",
                    "trim_blocks": "true", "lstrip_blocks": "true"}


@dataclass(frozen=True)
class Domain:
    """One catalogue: where its words are said (``source``, less ``skip``) and where its
    ``.po`` files live."""

    name: str
    source: Path
    locale_dir: Path
    skip: tuple[Path, ...] = ()

    def po(self, locale: str) -> Path:
        return self.locale_dir / locale / "LC_MESSAGES" / "messages.po"


def domains() -> list[Domain]:
    """The platform's catalogue (every module and template outside the games' folders) and
    one per game."""
    games = [Domain(gid, game.folder, game.folder / "locale") for gid, game in GAMES.items()]
    return [Domain("platform", APP_DIR, APP_DIR / "locale", tuple(g.source for g in games)),
            *games]


def extracted(domain: Domain) -> Catalog:
    """Every message the domain's code and templates say, as a template catalogue."""
    catalog = Catalog(project="Canopy", fuzzy=False)
    skipped = {path.resolve() for path in domain.skip}

    def keep(dirpath: str) -> bool:
        path = Path(dirpath).resolve()
        return (path not in skipped and path.name != "__pycache__"
                and "locale" not in path.relative_to(domain.source.resolve()).parts
                and path.name != "static")

    options = {"**/templates/**.html": TEMPLATE_OPTIONS}
    for filename, lineno, message, comments, context in extract_from_dir(
            domain.source, METHODS, options, KEYWORDS, ("Translators:",),
            directory_filter=keep, strip_comment_tags=True):
        catalog.add(message, None, [(filename, lineno)], auto_comments=comments,
                    context=context)
    return catalog


def read(path: Path, locale: str) -> Catalog:
    with path.open("rb") as po:
        return read_po(po, locale=locale)


def update(domain: Domain) -> Iterator[tuple[str, int]]:
    """Bring the domain's ``.po`` files up to date with its code: new messages added empty,
    gone ones dropped, translations kept. Yields each language and its untranslated count."""
    template = extracted(domain)
    for locale in LOCALES:
        path = domain.po(locale)
        catalog = read(path, locale) if path.is_file() else Catalog(locale=locale,
                                                                   project="Canopy")
        catalog.update(template, no_fuzzy_matching=True)
        catalog.obsolete.clear()
        catalog.fuzzy = False
        catalog.header_comment = HEADER.format(language=LANGUAGE_NAMES[locale],
                                               domain=domain.name)
        catalog.creation_date = catalog.revision_date = STABLE_DATE
        catalog.project, catalog.version = "Canopy", "1"
        catalog.last_translator = catalog.language_team = "Canopy"
        catalog.msgid_bugs_address = ""
        path.parent.mkdir(parents=True, exist_ok=True)
        with path.open("wb") as po:
            write_po(po, catalog, width=100, sort_output=True, include_lineno=False)
        missing = sum(1 for m in catalog if m.id and not _translated(m.string))
        yield locale, missing if locale != "en" else 0


def _translated(string: str | tuple[str, ...] | list[str] | None) -> bool:
    if isinstance(string, tuple | list):
        return all(string)
    return bool(string)


def main(names: list[str]) -> int:
    """Update the catalogues named (``platform`` or a game's id), or all of them."""
    chosen = [d for d in domains() if not names or d.name in names]
    if names and len(chosen) != len(set(names)):
        print(f"unknown catalogue; choose among: {', '.join(d.name for d in domains())}")
        return 2
    for domain in chosen:
        counts = ", ".join(f"{locale}: {missing} to translate" if missing else f"{locale}: ok"
                           for locale, missing in update(domain))
        print(f"{domain.name}: {counts}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
