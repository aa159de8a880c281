"""The card-function notation (spec *Card function notation*): parse_fn, format_fn, describe_fn."""

from __future__ import annotations

import re

import pytest

from app.games.mycelia.data import CARDS
from app.games.mycelia.notation import describe_fn, format_fn, parse_fn


def _field(kind, drops, mode, do, times=1, bonus=False):
    return {
        "field": {"type": kind, "drops": drops, "mode": mode},
        "do": do,
        "times": times,
        "bonus": bonus,
    }


def test_the_spec_example_parses_literally():
    assert parse_fn("+3 & 2x water1:x") == {
        "seq": [
            {"gain": 3, "bonus": False},
            {
                "field": {"type": "water", "drops": 1, "mode": "min"},
                "do": ["remove"],
                "times": 2,
                "bonus": False,
            },
        ]
    }


@pytest.mark.parametrize(
    ("text", "part"),
    [
        ("+1", {"gain": 1, "bonus": False}),
        ("!+1", {"gain": 1, "bonus": True}),
        ("+12", {"gain": 12, "bonus": False}),
        ("any1:m", _field("any", 1, "min", ["move"])),
        ("any2:mm", _field("any", 2, "min", ["move", "move"])),
        ("3x any1:m", _field("any", 1, "min", ["move"], times=3)),
        ("4x any1:m", _field("any", 1, "min", ["move"], times=4)),
        ("any=2:xx", _field("any", 2, "exact", ["remove", "remove"])),
        ("moss~3:xxx", _field("moss", 3, "upto", ["remove"] * 3)),
        ("leaf0:A", _field("leaf", 0, "min", ["remove_each_adjacent"])),
        ("water~2:xxn", _field("water", 2, "upto", ["remove", "remove", "remove_one_adjacent"])),
        ("any1:C", _field("any", 1, "min", ["clear_adjacent"])),
        ("!any1:x", _field("any", 1, "min", ["remove"], bonus=True)),
        ("!2x any1:m", _field("any", 1, "min", ["move"], times=2, bonus=True)),
        ("trash", {"trash": 1, "bonus": False}),
        ("tile:c", {"tile": "c", "bonus": False}),
        ("tile:e", {"tile": "e", "bonus": False}),
        ("sanctuary", {"sanctuary": 1, "bonus": False}),
    ],
)
def test_each_atom(text, part):
    assert parse_fn(text) == {"seq": [part]}


def test_either_or_and_sequences():
    assert parse_fn("+3 / any1:m") == {
        "or": [
            {"seq": [{"gain": 3, "bonus": False}]},
            {"seq": [_field("any", 1, "min", ["move"])]},
        ]
    }
    both = parse_fn("+3 & trash & water1:x")
    assert [next(iter(part)) for part in both["seq"]] == ["gain", "trash", "field"]
    assert parse_fn("+1 & moss1:m / +2")["or"][0]["seq"][1]["field"]["type"] == "moss"


@pytest.mark.parametrize(
    "text",
    [
        "",
        "+",
        "+0",
        "+01",
        "+x",
        "1x any1:m",
        "5x any1:m",
        "2xany1:m",
        "2x  any1:m",
        "earth1:x",
        "any:x",
        "any1:",
        "any1",
        "any01:x",
        "any~0:x",
        "any1:mx",
        "any1:xm",
        "any1:AA",
        "any1:xAn",
        "any1:Ax",
        "any1:X",
        "any=~1:x",
        "tile:a",
        "tile:",
        "trash1",
        "!!+1",
        "!",
        " +1",
        "+1 ",
        "+1&+2",
        "+1 &+2",
        "+1  & +2",
        "+1 & ",
        "+1 / +2 / +3",
        "+1 /+2",
        "/ +2",
        "Any1:m",
    ],
)
def test_malformed_text_raises(text):
    with pytest.raises(ValueError):
        parse_fn(text)


def test_every_card_function_round_trips():
    texts = [c.play for c in CARDS.values()] + [c.once for c in CARDS.values() if c.once]
    assert len(texts) == 5 + 20 + 15 + 7
    for text in texts:
        fn = parse_fn(text)
        assert format_fn(fn) == text
        assert parse_fn(format_fn(fn)) == fn


def _once(def_id):
    fn = CARDS[def_id].once_fn
    assert fn is not None
    return fn


_IDENTIFIER = re.compile(r"[a-z]+_[a-z]+|[\[\]{}]|None|True|False|[a-z]+[0-9=~]|!|&|/|#")


def test_every_card_function_reads_as_plain_words():
    for card in CARDS.values():
        for fn in (card.play_fn, card.once_fn):
            if fn is None:
                continue
            words = describe_fn(fn)
            assert words and not _IDENTIFIER.search(words), (card.id, words)
            assert "  " not in words and words == words.strip()


def test_describe_morchella_esculenta_as_the_brief():
    assert describe_fn(CARDS["morchella_esculenta"].play_fn) == (
        "gain 3 leaves, then up to 2 times: remove 1 drop from a water field with at least 1 drop"
    )


def test_describe_bonus_parts_speak_of_every_other_player():
    assert describe_fn(CARDS["st_gift"].play_fn) == (
        "gain 2 leaves, then every other player gains 1 leaf"
    )
    assert describe_fn(CARDS["amanita_muscaria"].play_fn).endswith(
        "then every other player may remove 1 drop from any field with at least 1 drop"
    )
    assert describe_fn(_once("fomes_fomentarius")) == (
        "every other player may move 1 drop from any field with at least 1 drop"
        " to a neighbouring field"
    )
    assert describe_fn(parse_fn("!2x any1:m")).startswith("every other player may, up to 2 times,")


def test_describe_the_rulebook_symbol_examples():
    assert describe_fn(CARDS["lactarius_deliciosus"].play_fn) == (
        "either gain 3 leaves; or move 1 drop from any field with at least 1 drop"
        " to a neighbouring field"
    )
    assert describe_fn(CARDS["calvatia_gigantea"].play_fn) == (
        "remove up to 2 drops from any field with exactly 2 drops"
    )
    assert describe_fn(CARDS["hericium_erinaceus"].play_fn) == (
        "remove up to 3 drops from a moss field with at least 1 drop"
    )
    assert describe_fn(CARDS["laetiporus_sulphureus"].play_fn) == (
        "choose a leaf litter field with any number of drops and remove 1 drop"
        " from each neighbouring field that has one"
    )
    assert describe_fn(CARDS["clathrus_ruber"].play_fn) == (
        "remove up to 2 drops from a water field with at least 1 drop,"
        " then 1 drop from one neighbouring field"
    )
    assert describe_fn(CARDS["armillaria_mellea"].play_fn) == (
        "choose any field with at least 1 drop and remove every drop from one neighbouring field"
    )
    assert describe_fn(CARDS["macrolepiota_procera"].play_fn) == (
        "move 2 drops one at a time from any field with at least 2 drops,"
        " each to a neighbouring field"
    )


def test_describe_expansion_parts():
    assert describe_fn(_once("auricularia_auricula_judae")) == "take action tile e"
    assert describe_fn(_once("hydnum_repandum")) == (
        "remove a card of your discard pile from the game"
    )
    assert "extra sanctuary field" in describe_fn(_once("clavulinopsis_fusiformis"))
    assert describe_fn(parse_fn("any=0:A")).startswith("choose any field with no drops")
