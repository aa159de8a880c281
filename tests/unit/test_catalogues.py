"""The catalogues against the code: every message the code and templates say is in every
language's catalogue and translated in Spanish, German and Dutch, with the same fields; no
catalogue keeps a message nobody says; one message reads the same in every catalogue that has
it (they are merged per language)."""

from __future__ import annotations

import re

import pytest
from babel.messages.catalog import Catalog, Message

from app.catalogues import Domain, domains, extracted, read
from app.games.words import fields_of
from app.i18n import LOCALES

TRANSLATED = [code for code in LOCALES if code != "en"]
DOMAINS = domains()
#: A Jinja message's fields: ``%(name)s``.
PERCENT_FIELD = re.compile(r"%\((\w+)\)[sd]")


def ids(catalog: Catalog) -> set[str]:
    return {_key(m) for m in catalog if m.id}


def _key(message: Message) -> str:
    msgid = message.id if isinstance(message.id, str) else message.id[0]
    return f"{message.context or ''}\x04{msgid}"


def forms(message: Message) -> tuple[list[str], list[str]]:
    """The English forms of a message and its translated forms."""
    english = [message.id] if isinstance(message.id, str) else list(message.id)
    string = message.string
    translated = [string] if isinstance(string, str) else list(string or ())
    return english, translated


def fields(text: str) -> set[str]:
    return fields_of(text) | {f"%{name}" for name in PERCENT_FIELD.findall(text)}


@pytest.fixture(scope="module", params=DOMAINS, ids=[d.name for d in DOMAINS])
def domain(request: pytest.FixtureRequest) -> tuple[Domain, set[str]]:
    return request.param, ids(extracted(request.param))


@pytest.mark.parametrize("locale", LOCALES)
def test_every_message_said_is_in_the_catalogue_and_no_other(domain, locale: str) -> None:
    source, said = domain
    path = source.po(locale)
    assert path.is_file(), f"{path} is missing: run python -m app.catalogues"
    listed = ids(read(path, locale))
    assert not said - listed, (f"{source.name} {locale}: not in the catalogue (run python -m "
                               f"app.catalogues): {sorted(said - listed)[:5]}")
    assert not listed - said, f"{source.name} {locale}: said nowhere: {sorted(listed - said)[:5]}"


PLAYER = re.compile(r"p\d+(?:'s)?")


def split(found: set[str]) -> tuple[set[str], set[str]]:
    """A message's fields: the players named (possessive or not) and the others."""
    players = {f.removesuffix("'s") for f in found if PLAYER.fullmatch(f)}
    return players, {f for f in found if not PLAYER.fullmatch(f)}


@pytest.mark.parametrize("locale", TRANSLATED)
def test_every_message_is_translated_with_its_fields(domain, locale: str) -> None:
    """Each translation keeps the message's fields (a plural form may spell its number out),
    names every player the English names, and Spanish writes "de {p0}" and German "von {p0}"
    (or "Zug von Bot 2"), never "{p0's}": no English-style possessive ("Bot 2's Zug")."""
    source, _ = domain
    for message in read(source.po(locale), locale):
        if not message.id:
            continue
        english, translated = forms(message)
        where = f"{source.name} {locale} {english[0]!r}"
        assert translated and all(translated), f"{where}: not translated"
        assert not message.fuzzy, f"{where}: fuzzy"
        players, others = split(set().union(*(fields(e) for e in english)))
        for text in translated:
            got_players, got_others = split(fields(text))
            assert got_players == players, f"{where}: players {got_players} in {text!r}"
            if message.pluralizable:
                assert got_others <= others, f"{where}: unknown fields in {text!r}"
            else:
                assert got_others == others, f"{where}: fields {got_others} in {text!r}"
            if locale == "es":
                assert "'s}" not in text, f"{where}: Spanish says 'de {{p0}}': {text!r}"
            if locale == "de":
                assert "'s}" not in text and not re.search(r"\w['’]s\b", text), \
                    f"{where}: German says 'von {{p0}}', not an English possessive: {text!r}"


@pytest.mark.parametrize("locale", TRANSLATED)
def test_one_message_reads_the_same_in_every_catalogue(locale: str) -> None:
    """The catalogues of one language are merged: a message said by two of them must not be
    translated two ways (give one of them a context instead)."""
    seen: dict[str, tuple[str, object]] = {}
    for source in DOMAINS:
        for message in read(source.po(locale), locale):
            if not message.id:
                continue
            key = _key(message)
            if key in seen and seen[key][1] != message.string:
                pytest.fail(f"{locale} {key!r}: {seen[key][0]} says {seen[key][1]!r}, "
                            f"{source.name} says {message.string!r}")
            seen[key] = (source.name, message.string)
