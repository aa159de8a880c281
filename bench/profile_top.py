"""Summarize a py-spy ``--format raw`` profile (``bench/load.py --profile FILE``): the functions
with the most samples, inclusive (anywhere on the stack) and self (top of the stack).

    .venv/bin/python bench/profile_top.py FILE [--top 30] [--match TEXT]

``--match`` keeps only the stacks that contain TEXT (for instance ``rooms/service.py``).
``--areas`` sums the self samples by area of the code (socket I/O, database, game, ...).
"""

from __future__ import annotations

import argparse
import re
import sys
from collections import Counter

FRAME = re.compile(r"^(?P<func>.*?) \((?P<file>[^()]*?)(?::(?P<line>\d+))?\)$")


def short(frame: str, lines: bool) -> str:
    """``func (path/to/file.py:12)`` → ``func (file.py[:12])`` with the site-packages prefix cut."""
    match = FRAME.match(frame)
    if match is None:
        return frame
    path = match["file"]
    for marker in ("site-packages/", "/work/main/", "lib/python3."):
        if marker in path:
            path = path.split(marker, 1)[1]
    if path.startswith("1") and "/" in path:  # lib/python3.11/asyncio/... → asyncio/...
        path = path.split("/", 1)[1]
    where = f"{path}:{match['line']}" if lines and match["line"] else path
    return f"{match['func']} ({where})"


#: Areas of the server, by the file of the function on top of the stack (first match wins).
AREAS = (
    ("socket handlers (app/realtime/sockets.py: views, patch messages)",
     ("app/realtime/sockets.py",)),
    ("socket I/O (uvicorn, websockets, Starlette)",
     ("websockets/", "uvicorn/protocols", "starlette/websockets")),
    ("database (SQLAlchemy, sqlite3, writer)", ("sqlalchemy/", "sqlite3", "app/db.py")),
    ("game rules and views", ("app/games/",)),
    ("view diff", ("app/realtime/diff.py",)),
    ("JSON encoding", ("json/",)),
    ("room service", ("app/rooms/",)),
    ("event loop and threads", ("asyncio/", "anyio/", "threading.py", "selectors.py")),
)


def area(frame: str) -> str:
    for name, markers in AREAS:
        if any(marker in frame for marker in markers):
            return name
    return "other"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="top functions of a py-spy raw profile")
    parser.add_argument("file")
    parser.add_argument("--top", type=int, default=30)
    parser.add_argument("--match", default=None)
    parser.add_argument("--lines", action="store_true", help="keep line numbers")
    parser.add_argument("--areas", action="store_true", help="self samples by area")
    args = parser.parse_args(argv)
    inclusive: Counter[str] = Counter()
    own: Counter[str] = Counter()
    areas: Counter[str] = Counter()
    total = 0
    with open(args.file) as f:
        for raw in f:
            stack, _, count_text = raw.rstrip("\n").rpartition(" ")
            if not stack or not count_text.isdigit():
                continue
            if args.match and args.match not in stack:
                continue
            count = int(count_text)
            frames = [short(frame, args.lines) for frame in stack.split(";")]
            total += count
            own[frames[-1]] += count
            areas[area(stack.split(";")[-1])] += count
            for frame in set(frames):
                inclusive[frame] += count
    if not total:
        print("no samples")
        return 0
    print(f"{total} samples")
    if args.areas:
        print("\n| area | self % |\n|---|---|")
        for name, count in areas.most_common():
            print(f"| {name} | {100 * count / total:.1f} |")
        return 0
    for title, counter in (("inclusive", inclusive), ("self", own)):
        print(f"\n| {title} % | function |\n|---|---|")
        for frame, count in counter.most_common(args.top):
            print(f"| {100 * count / total:.1f} | {frame} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
