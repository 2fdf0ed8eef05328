"""Turns used by the render tests and by bench/bench_render.py: the events a real agent sends.

``THREE_TOOL_TURN`` is the "typical 3-tool answer" of issue 18: a sentence, three parallel
calls (a command, a file read, a search) with results in the shapes the tools really return,
then a short markdown answer. At 100 columns it took 32 rows with boxed panels.
"""

from __future__ import annotations

import json

from swebash.api import AiEvent, Delta, Done, ToolCallEnd, ToolCallStart, ToolExecuting

INTRO = "I'll check the working tree, the entry point and the TODOs.\n"
ANSWER = ("The tree has **two untracked files** and `src/app.py` is 120 lines long.\n\n"
          "- Every line of `src/app.py` carries a `TODO` marker.\n"
          "- Nothing is staged yet.\n\n"
          "Start with the first TODO at line 1.")

APP_LINES = [f"line {i} # TODO maybe" for i in range(1, 121)]

CALLS: list[tuple[ToolCallStart, ToolCallEnd]] = [
    (ToolCallStart("execute_command", {"command": "git status --short"},
                   "$ git status --short", "call_1"),
     ToolCallEnd("execute_command",
                 json.dumps({"exit_code": 0, "stdout": "?? README.md\n?? src/\n", "stderr": "",
                             "duration_ms": 35, "truncated": False}),
                 True, 35.0, "call_1", "exit 0 · 2 lines · 0.0 s")),
    (ToolCallStart("filesystem", {"operation": "read", "path": "src/app.py"},
                   "read src/app.py", "call_2"),
     ToolCallEnd("filesystem",
                 json.dumps({"path": "/tmp/proj/src/app.py",
                             "content": "\n".join(APP_LINES) + "\n"}),
                 True, 1.0, "call_2", "read 120 lines")),
    (ToolCallStart("search_text", {"pattern": "TODO", "path": "src"},
                   "search /TODO/ in src", "call_3"),
     ToolCallEnd("search_text",
                 json.dumps({"matches": [{"file": "src/app.py", "line": n, "text": text}
                                         for n, text in enumerate(APP_LINES, 1)],
                             "truncated": False}),
                 True, 5.0, "call_3", "120 matches")),
]


def three_tool_turn() -> list[AiEvent]:
    events: list[AiEvent] = [Delta(INTRO)]
    events += [start for start, _ in CALLS]
    events += [ToolExecuting(start.name, start.call_id) for start, _ in CALLS]
    events += [end for _, end in CALLS]
    events += [Delta(ANSWER), Done(INTRO + ANSWER)]
    return events


# An answer that is mostly code, for the bytes-per-answer-byte figure in truecolor.
CODE_HEAVY = '''Here is the script, then the unit file and a quick check.

```python
#!/usr/bin/env python3
"""Rotate the logs in a directory, keeping the newest N of each name."""

import argparse
import pathlib
import sys


def rotate(directory: pathlib.Path, keep: int) -> int:
    removed = 0
    groups: dict[str, list[pathlib.Path]] = {}
    for path in sorted(directory.glob("*.log.*")):
        groups.setdefault(path.name.split(".log.")[0], []).append(path)
    for name, paths in groups.items():
        paths.sort(key=lambda p: p.stat().st_mtime, reverse=True)
        for old in paths[keep:]:
            old.unlink()
            removed += 1
    return removed


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("directory", type=pathlib.Path)
    parser.add_argument("--keep", type=int, default=5)
    args = parser.parse_args()
    print(f"removed {rotate(args.directory, args.keep)} files", file=sys.stderr)
```

```ini
[Unit]
Description=Rotate application logs

[Service]
Type=oneshot
ExecStart=/usr/local/bin/rotate-logs /var/log/app --keep 7
```

```bash
sudo systemctl daemon-reload
sudo systemctl start rotate-logs.service
journalctl -u rotate-logs.service --since "5 minutes ago" | tail -n 20
```

Run it once by hand before enabling the timer.
'''


def _resize_answer() -> str:
    """An answer whose every word that matters is a marker ``Q123x`` used once, in order: a
    line doubled or lost anywhere shows as a marker seen twice or never (bench/tmux_resize.py
    and tests/render/test_resize_lag.py)."""
    numbers = iter(range(1, 1000))

    def m(words: str) -> str:  # each "@" becomes the next marker
        return "".join(f"Q{next(numbers):03d}x" if c == "@" else c for c in words)

    parts = [
        m("# @ resizing while it streams\n\n"),
        m("The first paragraph @ is long enough to wrap at every width this test tries, "
          "@ with `inline @` code, **bold @** words and a [link @](https://example.org/@) "
          "so that @ rows move when the window narrows and come back @ when it widens.\n\n"),
        m("## @ a list\n\n"),
        m("1. @ first item with a few words @ to wrap\n"
          "   - @ nested bullet @ with more words than a narrow window holds on one row @\n"
          "   - @ second nested @\n"
          "2. @ second item @\n\n"),
        m("```python\ndef f():  # @\n    return [@, 'a line of code long enough to pass "
          "forty columns @']\n```\n\n"),
        m("| @ | @ | @ |\n|---|---|---|\n| @ | @ | @ |\n| @ | @ | @ |\n\n"),
        m("> @ a quote that also wraps @ over several rows when the window is narrow @ and "
          "fewer when wide @.\n\n"),
        m("漢字 @ かな @ 한국어 @ 🙂 @ wide characters take two columns @ each.\n\n"),
    ]
    for _ in range(6):
        parts.append(m("A paragraph @ of ordinary prose @ that streams after the others, "
                       "@ wrapping @ at the final width @ once the resizing has stopped, "
                       "@ and it goes on @ a little more.\n\n"))
    parts.append(m("## @ the end\n\nThe last line @."))
    return "".join(parts)


RESIZE_ANSWER = _resize_answer()
