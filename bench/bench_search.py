"""search_text inside the file boundary (issue 16): the cost of judging every file, redacting
each whole and matching in RE2, against the naive walk it replaced (Python ``re`` per line, no
guard) on this repository; and a catastrophic pattern, which RE2 answers in linear time while
Python's backtracking ``re`` doubles its time with every character of the line."""

from __future__ import annotations

import asyncio
import os
import re
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from _timing import median_ms

from swebash.config import ToolConfig
from swebash.safety.boundary import FileBoundary
from swebash.tools.base import ToolContext
from swebash.tools.search import SearchTextTool

SKIP = {".git", ".venv", "node_modules", "__pycache__", ".mypy_cache", ".ruff_cache"}


def naive(pattern: str, root: str) -> int:
    regex = re.compile(pattern)
    found = 0
    for folder, dirs, files in os.walk(root):
        dirs[:] = [d for d in dirs if d not in SKIP]
        for name in files:
            try:
                with open(os.path.join(folder, name), encoding="utf-8") as handle:
                    found += sum(1 for line in handle if regex.search(line))
            except (OSError, UnicodeDecodeError):
                continue
    return found


def guarded(pattern: str, root: str, ctx: ToolContext) -> str:
    out = asyncio.run(SearchTextTool().execute({"pattern": pattern, "path": root}, ctx))
    return out.summary


def main() -> int:
    root = os.getcwd()
    ctx = ToolContext(cwd=root, env=dict(os.environ), config=ToolConfig(),
                      files=FileBoundary(os.path.expanduser("~")))
    for pattern in ("zzqqxx-never", r"def \w+_secret"):
        ours = median_ms(lambda p=pattern: guarded(p, ".", ctx), 5, warm=True)
        plain = median_ms(lambda p=pattern: naive(p, root), 5, warm=True)
        print(f"search_text /{pattern}/ over this repository: {ours:.0f} ms guarded "
              f"(every file judged, redacted whole, RE2) vs {plain:.0f} ms naive walk "
              f"(ratio {ours / plain:.1f}) · {guarded(pattern, '.', ctx)}")
    with tempfile.TemporaryDirectory() as tmp:
        with open(os.path.join(tmp, "bait.txt"), "w") as handle:
            handle.write("a" * 40_000 + "!\n")
        bait = ToolContext(cwd=tmp, env={"HOME": tmp}, config=ToolConfig())
        ours = median_ms(lambda: guarded("(a+)+$", ".", bait), 5)
        print(f"search_text /(a+)+$/ on a 40,000-character line: {ours:.1f} ms (RE2)")
    for length in (20, 22, 24):
        started = time.perf_counter()
        re.search("(a+)+$", "a" * length + "!")
        took = (time.perf_counter() - started) * 1000
        print(f"python re /(a+)+$/ on {length} characters: {took:.0f} ms "
              "(doubles per character: 40,000 never returns)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
