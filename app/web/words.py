"""Plain words: what a person may be shown. A page never shows an identifier (``grow_small``),
a Python value (``None``, ``True``), a list or dict literal (``[0, 3]``, ``{"type": …}``), a
quoted repr (``'oak'``) or a name placeholder left unfilled (``{p1}``). Games write their
statuses, log lines and refusals so; the pages check a refusal before they show it, and
``tests/games/test_contract.py`` walks whole games for every string a page shows."""

from __future__ import annotations

import re

#: Each kind of raw fragment, and the pattern that finds it.
RAW = {
    "an identifier": re.compile(r"\b[A-Za-z]+_[A-Za-z0-9_]+\b"),
    "a Python value": re.compile(r"\b(?:None|True|False)\b"),
    "a list literal": re.compile(r"\[[^\]]*\]"),
    "a dict literal": re.compile(r"\{[^}]*\}"),
    "a quoted value": re.compile(r"(?<![\w'])'[^'\s]+'(?![\w])"),
}


def raw_fragment(text: str) -> str | None:
    """The first raw fragment of ``text`` with its kind ("an identifier: grow_small"), or
    ``None`` when the text is plain words."""
    for kind, pattern in RAW.items():
        found = pattern.search(text)
        if found is not None:
            return f"{kind}: {found.group(0)}"
    return None
