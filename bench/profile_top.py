"""Summarize a py-spy ``--format raw`` profile (``bench/load.py --profile FILE``): the functions
with the most samples, inclusive (anywhere on the stack) and self (top of the stack).

    .venv/bin/python bench/profile_top.py FILE [--top 30] [--match TEXT]

``--match`` keeps only the stacks that contain TEXT (for instance ``rooms/service.py``).
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


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="top functions of a py-spy raw profile")
    parser.add_argument("file")
    parser.add_argument("--top", type=int, default=30)
    parser.add_argument("--match", default=None)
    parser.add_argument("--lines", action="store_true", help="keep line numbers")
    args = parser.parse_args(argv)
    inclusive: Counter[str] = Counter()
    own: Counter[str] = Counter()
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
            for frame in set(frames):
                inclusive[frame] += count
    if not total:
        print("no samples")
        return 0
    print(f"{total} samples")
    for title, counter in (("inclusive", inclusive), ("self", own)):
        print(f"\n| {title} % | function |\n|---|---|")
        for frame, count in counter.most_common(args.top):
            print(f"| {100 * count / total:.1f} | {frame} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
