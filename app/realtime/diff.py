"""RFC 6902 patches between two JSON documents (a seat's view at two versions).

A small structural diff instead of ``jsonpatch.make_patch``: objects are compared key by key,
arrays element by element after trimming their common head and tail (so one card drawn into a
sorted hand is one ``add``, one card played is one ``remove``), anything else that differs is
replaced. Unchanged subtrees are skipped at C speed (``==``, then ``marshal`` for the types).
The ops, applied in order to ``old``, give ``new``; they never use ``move`` or ``copy``.

Views are *type-stable*: a place in a game's view holds one JSON type of number or boolean at
every version (``tests/games/test_view_types.py`` plays every game to check it). Between two
versions of a view, ``==`` alone then tells equal subtrees apart, and :func:`view_diff` skips
the ``marshal`` check: for Evergreen's 40 KB views it was three quarters of the diff.
"""

from __future__ import annotations

import marshal
from collections.abc import Callable, Mapping
from typing import Any

from app import speedups

Op = dict[str, Any]


def _key(key: str) -> str:
    """A JSON-pointer reference token (RFC 6901: ``~`` → ``~0``, ``/`` → ``~1``)."""
    if "~" in key or "/" in key:
        return key.replace("~", "~0").replace("/", "~1")
    return key


def _same(old: Any, new: Any) -> bool:
    """Equal as JSON. Python's ``==`` says ``1 == 1.0 == True``; JSON does not, so when ``==``
    holds the types must match too: for containers, their ``marshal`` encodings (version 2: no
    back-references) must be equal. That is exact in one direction only: equal encodings mean
    equal JSON; equal JSON may still encode differently (an interned string, another key
    order), and then the subtree is merely walked."""
    if old is new:
        return True
    if old != new or type(old) is not type(new):
        return False
    if type(old) not in (dict, list):
        return True
    try:
        return marshal.dumps(old, 2) == marshal.dumps(new, 2)
    except ValueError:  # not plain JSON data
        return repr(old) == repr(new)


def _same_place(old: Any, new: Any) -> bool:
    """Equal as JSON, for two values at one place of a type-stable document."""
    return old is new or (type(old) is type(new) and old == new)


Same = Callable[[Any, Any], bool]
_SAME_VERSIONS: Same = _same_place if speedups.on("view-equality") else _same


def diff(old: Any, new: Any) -> list[Op]:
    """The ops that turn ``old`` into ``new`` (an empty list when they are equal)."""
    return _diff(old, new, _same)


def view_diff(old: Any, new: Any) -> list[Op]:
    """:func:`diff` for two versions of a type-stable document (a seat's view)."""
    return _diff(old, new, _SAME_VERSIONS)


def parts_diff(old: Mapping[str, bytes], new: Mapping[str, bytes],
               view: Mapping[str, Any] | None = None) -> list[Op]:
    """:func:`view_diff` of two versions of a view kept as ``marshal`` bytes per top-level
    entry (``app.rooms.table.ViewData``); ``view`` is ``new`` as objects, when at hand. An
    entry whose bytes did not change is equal and is never loaded: only the changed ones."""
    ops: list[Op] = []
    for key, data in old.items():
        if key not in new:
            ops.append({"op": "remove", "path": f"/{_key(key)}"})
        elif new[key] != data:
            before = marshal.loads(data)
            after = marshal.loads(new[key]) if view is None else view[key]
            if not _SAME_VERSIONS(before, after):
                _changed(before, after, f"/{_key(key)}", ops, _SAME_VERSIONS)
    for key in new:
        if key not in old:
            value = marshal.loads(new[key]) if view is None else view[key]
            ops.append({"op": "add", "path": f"/{_key(key)}", "value": value})
    return ops


def _diff(old: Any, new: Any, same: Same) -> list[Op]:
    ops: list[Op] = []
    if not same(old, new):
        _changed(old, new, "", ops, same)
    return ops


def _changed(old: Any, new: Any, path: str, ops: list[Op], same: Same) -> None:
    """The ops for ``old`` → ``new`` at ``path``, known to differ as JSON."""
    kind = type(old)
    if kind is dict and type(new) is dict:
        for key, value in old.items():
            if key in new:
                other = new[key]
                if not same(value, other):
                    _changed(value, other, f"{path}/{_key(key)}", ops, same)
            else:
                ops.append({"op": "remove", "path": f"{path}/{_key(key)}"})
        for key, value in new.items():
            if key not in old:
                ops.append({"op": "add", "path": f"{path}/{_key(key)}", "value": value})
    elif kind is list and type(new) is list:
        _changed_list(old, new, path, ops, same)
    else:
        ops.append({"op": "replace", "path": path, "value": new})


def _changed_list(old: list[Any], new: list[Any], path: str, ops: list[Op], same: Same) -> None:
    head, limit = 0, min(len(old), len(new))
    while head < limit and same(old[head], new[head]):
        head += 1
    end_old, end_new = len(old), len(new)
    while end_old > head and end_new > head and same(old[end_old - 1], new[end_new - 1]):
        end_old -= 1
        end_new -= 1
    paired = min(end_old, end_new) - head
    for i in range(head, head + paired):
        if not same(old[i], new[i]):  # the first pair is known to differ; later ones may not
            _changed(old[i], new[i], f"{path}/{i}", ops, same)
    for i in range(end_old - 1, head + paired - 1, -1):  # surplus old items, last first
        ops.append({"op": "remove", "path": f"{path}/{i}"})
    for i in range(head + paired, end_new):  # new items, in order
        ops.append({"op": "add", "path": f"{path}/{i}", "value": new[i]})
