"""The language machinery: which language a reader gets, players in each language, messages
with fields, numbers, lists and plurals, and log lines that keep their words in the store."""

from __future__ import annotations

import pytest

from app.games.base import Event
from app.games.words import Msg, plural
from app.i18n import choose, fill_names, from_accept_language, say, words
from app.rooms.store import event_from, event_json


@pytest.mark.parametrize(("header", "expected"), [
    ("es-ES,es;q=0.9,en;q=0.8", "es"),
    ("de-AT", "de"),
    ("fr-FR, nl;q=0.5, de;q=0.7", "de"),        # q-values, not the order, decide
    ("fr, it", None),                          # none of ours
    ("nl;q=0, en;q=0.1", "en"),                # q=0: not wanted at all
    ("*", None),
    ("", None),
    (None, None),
    ("es;q=abc, de", "de"),                    # a broken q-value drops that language only
    ("x" * 5000, None),
])
def test_the_browser_language_is_the_best_one_we_speak(header, expected) -> None:
    assert from_accept_language(header) == expected


def test_a_readers_own_choice_wins_over_the_browser() -> None:
    assert choose(["nl", "es"], "de") == "nl"
    assert choose([None, "es"], "de") == "es"              # no cookie: the player's record
    assert choose(["klingon", None], "de-CH") == "de"      # an unknown choice is no choice
    assert choose([], None) == "en"


def test_players_read_you_in_english_and_their_names_elsewhere() -> None:
    names = ["Ana", "Bo", "Max"]
    text = "{p1} took Oak 7 from {p0's} discard pile. {p0} drew"
    assert fill_names(text, names, 0, "en") == "Bo took Oak 7 from your discard pile. You drew"
    assert fill_names(text, names, 1, "en") == "You took Oak 7 from Ana's discard pile. Ana drew"
    assert fill_names("{p1}", names, 1, "es") == "Bo"       # no "tú": the verb is third person
    assert fill_names("{p0's} {p2's} {p1's}", names, 0, "de") == "Anas Max' Bos"
    assert fill_names("{p0's} {p2's}", names, None, "nl") == "Ana's Maxs"
    assert fill_names("{p0's}", ["Bot 2"], None, "de") == "Bot 2's"   # not "Bot 2s"
    # a name that looks like a placeholder is shown as typed, never as another player
    assert fill_names("{p0} and {p1}", ["{p1}", "Bo"], None, "en") == "{p1} and Bo"


def test_a_message_is_translated_with_its_parts() -> None:
    inner = Msg("the game is over")
    message = Msg("{p0} waits: {why}", {"why": inner})
    assert message.english() == "{p0} waits: the game is over"
    assert say(message, "en", ["Ana"], None) == "Ana waits: the game is over"


def test_numbers_and_lists_follow_the_language() -> None:
    message = Msg("{seats}", {"seats": ["{p0}", "{p1}", "{p2}"]})
    assert say(message, "en", ["A", "B", "C"]) == "A, B, and C"
    assert say(message, "es", ["A", "B", "C"]) == "A, B y C"
    assert say(message, "de", ["A", "B", "C"]) == "A, B und C"
    assert say(message, "nl", ["A", "B", "C"]) == "A, B en C"
    assert say(Msg("{n}", {"n": 12345}), "de") == "12.345"
    assert say(Msg("{n}", {"n": 10**30}), "de") == str(10**30)  # past any game's: as typed


def test_plurals_take_the_languages_forms() -> None:
    one, many = plural("{n} card", "{n} cards", "n", n=1), plural("{n} card", "{n} cards", "n", n=3)
    assert (one.english(), many.english()) == ("1 card", "3 cards")
    assert Msg.from_json(many.to_json()) == many


def test_a_translation_that_does_not_fit_falls_back_to_english(monkeypatch) -> None:
    translations = words("es").translations
    monkeypatch.setattr(translations, "gettext", lambda text: "roto {sin_campo}")
    assert say(Msg("the {thing} broke", {"thing": "x"}), "es") == "the x broke"


def test_a_stored_line_keeps_its_message_and_an_old_one_reads_as_written() -> None:
    event = Event.say("k", Msg("{p0} drew {card}", {"card": Msg("the deck")}), {"n": 1},
                      frozenset({0}))
    again = event_from(event_json(event))
    assert again == event and again.msg == event.msg
    old = event_json(event)
    del old["msg"]
    legacy = event_from(old)
    assert legacy.msg is None and legacy.text == "{p0} drew the deck"
