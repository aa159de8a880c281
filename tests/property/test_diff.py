"""The view diff (app/realtime/diff.py) against the RFC 6902 library: applying its ops to the
old document gives the new one exactly — JSON types included (1, 1.0 and true differ) — for
arbitrary documents and for small edits of one document, the case of a move."""

from __future__ import annotations

import copy
import json
import random
from typing import Any

import jsonpatch
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from app.realtime.diff import diff, view_diff
from tests.games.test_view_types import record

KEYS = st.text(alphabet="ab/~01", min_size=0, max_size=3)
SCALARS = st.none() | st.booleans() | st.integers(-3, 3) | st.sampled_from([0.0, 1.0, 2.5]) \
    | st.text(alphabet="xy", max_size=2)
DOCS = st.recursive(SCALARS, lambda inner: st.lists(inner, max_size=5)
                    | st.dictionaries(KEYS, inner, max_size=4), max_leaves=25)


def exact(doc: Any) -> str:
    """The document as JSON text: equal texts are equal JSON, types included."""
    return json.dumps(doc, sort_keys=True)


def edited(doc: Any, rng: random.Random) -> Any:
    """A copy of ``doc`` with a few edits here and there: lists grow, shrink and change in the
    middle, keys come and go, scalars change type or value."""
    if isinstance(doc, list):
        items = [edited(item, rng) if rng.random() < 0.3 else item for item in doc]
        for _ in range(rng.randint(0, 2)):
            if items and rng.random() < 0.5:
                items.pop(rng.randrange(len(items)))
            else:
                items.insert(rng.randint(0, len(items)), rng.choice([1, 1.0, True, "x", [], {}]))
        return items
    if isinstance(doc, dict):
        result = {key: edited(value, rng) if rng.random() < 0.3 else value
                  for key, value in doc.items() if rng.random() < 0.9}
        if rng.random() < 0.3:
            result[rng.choice(["a", "b/", "~0"])] = rng.choice([0, False, None, [1]])
        return result
    return rng.choice([doc, 1, 1.0, True, None, "x"])


def check(old: Any, new: Any, differ: Any = diff) -> None:
    ops = differ(old, new)
    assert exact(jsonpatch.apply_patch(copy.deepcopy(old), ops)) == exact(new)
    assert all(op["op"] in ("add", "remove", "replace") for op in ops)
    if exact(old) == exact(new):
        assert ops == []


@settings(max_examples=400, deadline=None)
@given(DOCS, DOCS)
def test_any_two_documents(old: Any, new: Any) -> None:
    check(old, new)


@settings(max_examples=400, deadline=None)
@given(DOCS, st.integers(0, 2**32))
def test_a_document_and_an_edit_of_it(old: Any, seed: int) -> None:
    check(old, edited(old, random.Random(seed)))


def type_stable(*docs: Any) -> bool:
    """No place of ``docs`` holds two JSON types of number or boolean (list items alike)."""
    kinds: dict[str, set[str]] = {}
    for doc in docs:
        record(doc, "", kinds)
    return all(len(found) == 1 for found in kinds.values())


@settings(max_examples=400, deadline=None)
@given(DOCS, st.integers(0, 2**32))
def test_the_view_diff_is_exact_between_type_stable_versions(old: Any, seed: int) -> None:
    new = edited(old, random.Random(seed))
    assume(type_stable(old, new))
    check(old, new, view_diff)


def test_one_card_drawn_into_a_sorted_hand_is_one_add() -> None:
    old = {"hand": [["oak", 1], ["oak", 5], ["willow", 2]]}
    new = {"hand": [["oak", 1], ["oak", 3], ["oak", 5], ["willow", 2]]}
    assert diff(old, new) == [{"op": "add", "path": "/hand/1", "value": ["oak", 3]}]
