"""Names (app/names.py): cleaned with NFKC, invisible and bot-like names refused, look-alikes
recognised by their skeleton; a table's labels (app/rooms/store.py ``told_apart``) unique;
the rate limits' key (app/guard.py ``rate_key``): IPv6 by /64."""

from __future__ import annotations

import pytest

from app.errors import ApiError
from app.guard import rate_key
from app.names import clean_name, is_bot_name, skeleton
from app.rooms.store import told_apart

INVISIBLE = ["\u3164", "\u2800", "\u115f", "\u1160", "\uffa0", "\u200b", " \u200b\u2060 ",
             "\u0301\u0302", "\u3164\u3164 \u2800", "\u00a0\u2003", "\u200d"]


@pytest.mark.parametrize("name", INVISIBLE)
def test_a_name_of_invisible_characters_only_is_refused(name):
    with pytest.raises(ApiError) as refused:
        clean_name(name)
    assert refused.value.status == 422
    detail = refused.value.detail
    assert "empty" in detail or "visible letter" in detail


@pytest.mark.parametrize("name", ["ana\u200b", "a\u3164na", "ana\u2800", "an\u00ada",
                                  "ana\u202e", "\u2066ana", "a\x07na"])
def test_a_name_with_an_invisible_or_control_character_inside_is_refused(name):
    with pytest.raises(ApiError) as refused:
        clean_name(name)
    assert refused.value.status == 422
    assert "invisible or control" in refused.value.detail


def test_names_are_normalised_with_nfkc_and_their_spaces_folded():
    assert clean_name("ｆｕｌｌ") == "full"
    assert clean_name("  Ana\u3000\u00a0 Lima ") == "Ana Lima"
    assert clean_name("ﬁne") == "fine"
    assert clean_name("Zoë") == "Zoë" and clean_name("Zoe\u0308") == "Zoë"
    assert clean_name("Ана") == "Ана"  # other scripts are welcome


@pytest.mark.parametrize("name", ["Bot", "bot", "Bot 1", "bot 3", "BOT 12", "Bot2", "bot-7",
                                  "Bot #4", "b0t 1", "ВОТ 1", "Ｂｏｔ １"])
def test_bot_names_are_reserved(name):
    assert is_bot_name(name)
    with pytest.raises(ApiError) as refused:
        clean_name(name)
    assert refused.value.status == 422 and "bots'" in refused.value.detail


@pytest.mark.parametrize("name", ["Botany", "Bob", "Robot 1", "Abbot", "Bo", "Bot Ana"])
def test_names_near_a_bot_name_are_fine(name):
    assert not is_bot_name(name)
    assert clean_name(name) == name


def test_look_alikes_share_a_skeleton():
    assert skeleton("аlice") == skeleton("alice")  # Cyrillic а
    assert skeleton("Ana") == skeleton("ana")
    assert skeleton("ｆｕｌｌ") == skeleton("full")
    assert skeleton("Iris") == skeleton("lris")
    assert skeleton("rn") == skeleton("m")
    assert skeleton("Ana") != skeleton("Ava")
    assert skeleton("Bot 1") != skeleton("Bot 2")


def test_a_table_labels_every_seat_distinctly():
    assert told_apart(["Ana", "Bo", "Ana"]) == ["Ana (1)", "Bo", "Ana (3)"]
    assert told_apart(["Ana", "Bo"]) == ["Ana", "Bo"]
    assert told_apart(["ana", "ana", "ana (1)"]) == ["ana (1)", "ana (2)", "ana (1) (3)"]
    assert told_apart(["ana (2)", "ana", "ana"]) == ["ana (2) (1)", "ana (2)", "ana (3)"]
    assert told_apart(["аlice", "alice"]) == ["аlice (1)", "alice (2)"]
    for names in (["x", "x", "x (1)", "x (1)", "x (1) (3)"], ["Bot 2", "Bot 2", "#3"],
                  ["a (2)", "a", "a (2) (1)", "a"]):
        labels = told_apart(names)
        assert len({skeleton(label) for label in labels}) == len(names), labels


def test_rate_limits_count_ipv6_clients_by_their_64():
    assert rate_key("2001:db8:1:2::1") == rate_key("2001:db8:1:2:ffff:ffff:ffff:ffff") \
        == "2001:db8:1:2::/64"
    assert rate_key("2001:db8:1:3::1") != rate_key("2001:db8:1:2::1")
    assert rate_key("[2001:db8:1:2::5]") == "2001:db8:1:2::/64"
    assert rate_key("fe80::1%eth0") == "fe80::/64"
    assert rate_key("192.0.2.7") == "192.0.2.7" != rate_key("192.0.2.8")
    assert rate_key("::ffff:192.0.2.7") == "192.0.2.7"
    assert rate_key("testclient") == "testclient"
