"""Each game's table read in Spanish, German and Dutch shows no English: whole games by bots,
every region on a sample of versions for a seat and a spectator (visible text and what a
screen reader reads), every log line for every reader and the refusals of well-formed moves.
Two nets: English-only words ("the", "your", "with" …) and any catalogue message of three
words or more left in English where the language has its own words for it."""

from __future__ import annotations

import random
import re

import pytest

from app.catalogues import domains, read
from app.config import Settings
from app.errors import ApiError
from app.games.base import MOVE_FORMAT, IllegalMove
from app.games.registry import GAMES
from app.i18n import LOCALES
from app.web.render import make_environment, render_regions
from tests.games.test_contract import playout, table_of

TRANSLATED = [code for code in LOCALES if code != "en"]
CASES = [pytest.param(g, locale, id=f"{gid}-{locale}") for gid, g in sorted(GAMES.items())
         for locale in TRANSLATED]
#: Words that are English and no word of the language (Dutch "of" is "or", German "will"
#: "wants", Spanish "has" "you have").
ENGLISH_ONLY = {"the", "your", "you", "with", "and", "from", "this", "has", "have", "are",
                "their", "its", "which", "into", "each", "every", "there", "what", "when",
                "where", "who", "will", "can", "may", "must", "not", "for", "of", "to", "on"}
NOT_ENGLISH_ONLY = {"nl": {"of"}, "de": {"will"}, "es": {"has"}}
NAMES = ["Ana", "Bo", "Cy", "Di", "Ed"]
ATTRIBUTES = re.compile(r'\b(?:aria-label|title|placeholder|alt)="([^"]*)"')


def shown(html: str) -> str:
    """What a person sees or hears of some HTML: the text and the labels read out."""
    labels = " ".join(ATTRIBUTES.findall(html))
    html = re.sub(r"<(style|script)\b.*?</\1>", " ", html, flags=re.S)
    return re.sub(r"\s+", " ", re.sub(r"<[^>]*>", " ", html) + " " + labels)


def english_messages(locale: str) -> list[str]:
    """The catalogues' longer English messages whose translation differs, each as the pieces
    between its fields (a piece of three words or more)."""
    pieces = set()
    for domain in domains():
        for message in read(domain.po(locale), locale):
            msgid = message.id if isinstance(message.id, str) else (message.id or ("",))[0]
            translated = message.string if isinstance(message.string, str) else ""
            if not msgid or translated == msgid:
                continue
            for piece in re.split(r"\{[^}]*\}|%\(\w+\)[sd]", msgid):
                piece = piece.strip(" .,:;()")
                if len(piece.split()) >= 3:
                    pieces.add(piece)
    return sorted(pieces, key=len, reverse=True)


def assert_translated(text: str, locale: str, pieces: list[str], where: str) -> None:
    words = set(re.findall(r"[a-z']+", text.lower()))
    english = (words & ENGLISH_ONLY) - NOT_ENGLISH_ONLY.get(locale, set())
    assert not english, f"{where} in {locale} shows English ({sorted(english)}): {text[:300]!r}"
    for piece in pieces:
        assert piece not in text, f"{where} in {locale} shows {piece!r} in English: {text[:300]!r}"


@pytest.mark.parametrize(("game", "locale"), CASES)
def test_a_whole_game_reads_in_the_language(game, locale: str) -> None:
    players = min(game.max_players, 3)
    env = make_environment(Settings(htmx_source="local"), locale)
    pieces = english_messages(locale)
    rng = random.Random(locale)
    moves, states = playout(game, players, seed=7, bots=True)
    names = NAMES[:players]
    for step, ((mover, move), after) in enumerate(zip(moves, states[1:], strict=True)):
        table = table_of(game, players, after)
        table.names = names
        for event in game.events(states[step], mover, move, after):
            table.log.append((step + 1, mover, event))
        probes = [m for other in game.active_seats(after) if other != mover
                  for m in game.legal_moves(after, other)[:2]] + [move]
        for probe in probes:
            for seat in sorted(game.active_seats(after)) or [mover]:
                try:
                    game.apply(after, seat, probe)
                except IllegalMove as exc:
                    refusal = ApiError(422, exc.msg, names=names, reader=seat)
                    assert_translated(refusal.text(locale), locale, pieces,
                                      f"a refusal ({exc.rule})")
        if step % 19 == 0 or step == len(moves) - 1:
            for seat in (rng.randrange(players), None):
                for line in table.log_for(seat, locale):
                    assert_translated(line["text"], locale, pieces, f"log line {line['key']}")
                for region, html in render_regions(env, table, seat).items():
                    assert_translated(shown(html), locale, pieces, f"region {region}")
        table.log.clear()


@pytest.mark.parametrize("game", [pytest.param(g, id=gid) for gid, g in sorted(GAMES.items())])
def test_every_rule_a_refusal_cites_is_in_the_rules_panel(game) -> None:
    """The rules panel has an entry for the game's turn rule and for every rule its refusals
    and finished statuses cite (whole games, the moves of other seats and moves made wrong),
    and each entry has words in every language."""
    cited = {game.turn_rule}
    for players in sorted({game.min_players, min(game.max_players, 3)}):
        _, states = playout(game, players, seed=11, bots=False)
        for step, state in enumerate(states):
            for seat in range(players):
                finished = game.seat_status(state, seat).finished
                if finished:
                    cited.add(finished)
            if step % 3:
                continue
            for seat in range(players):
                for other in range(players):
                    for move in game.legal_moves(state, other)[:3]:
                        for probe in (move, {**move, "type": "nonsense"},
                                      {k: (None if k != "type" else v) for k, v in move.items()}):
                            try:
                                game.apply(state, seat, probe)
                            except IllegalMove as exc:
                                cited.add(exc.rule)
    # "move format" is the API's rule for a move of the wrong shape (the API docs explain
    # it), which no page sends: it needs no entry in a players' rules panel.
    cited.discard(MOVE_FORMAT)
    assert cited <= game.rule_ids, f"not in the rules panel: {sorted(cited - game.rule_ids)}"
    titles = [rule.title for rule in game.rules]
    assert len(set(titles)) == len(titles), "two rules share a title"
