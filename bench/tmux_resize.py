"""Resize tmux while an answer streams: is every line of the answer there exactly once?

A repeatable harness for issue 18's "resize during streaming never doubles or loses a line",
run against the installed swebash in a real tmux 3.3 (its own server socket, a temp HOME) and
the scripted model of ``tests/fakes/server.py``:

1. the model streams ``RESIZE_ANSWER`` (tests/render/scenarios.py: headings, paragraphs, a
   nested list, a code block, a table, a quote, CJK and emoji) for several seconds; every word
   that matters is a marker ``Q123x``, each used once, in order;
2. meanwhile the window is resized every ``--every`` seconds (150 ms by default) through a list
   of widths between 40 and 120 columns, for ``--for`` seconds; then it stays at ``--final``
   columns while the rest of the answer streams;
3. the scrollback is captured (``capture-pane -J``: rows tmux wrapped itself are joined) and
   checked: each marker exactly once (nothing doubled or lost) and in order, the question's
   row once; and the rows written after the last resize equal, row for row, one render of the
   answer at the final width.

``python bench/tmux_resize.py --runs 10`` prints one line per run and ``clean N/M``. A run that
fails prints what was doubled, lost or out of order (``-v``: the captured scrollback).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.fakes.server import FakeServer  # noqa: E402
from tests.render.scenarios import RESIZE_ANSWER  # noqa: E402
from tests.render.screen import render_once, replay  # noqa: E402

SWEBASH = str(Path(sys.executable).parent / "swebash")
WIDTHS = (60, 110, 45, 90, 40, 120, 70, 100, 50, 80)
MARKER = re.compile(r"Q\d{3}x")


ANSWER = RESIZE_ANSWER
MARKERS = MARKER.findall(ANSWER)
TAIL_FROM = MARKER.findall(ANSWER.rsplit("A paragraph", 1)[1])[0]  # the last paragraph's


class Tmux:
    def __init__(self, socket: str, session: str) -> None:
        self.base = ["tmux", "-S", socket, "-f", "/dev/null"]
        self.session = session

    def __call__(self, *args: str) -> str:
        return subprocess.run([*self.base, *args], check=True, capture_output=True,
                              text=True).stdout

    def capture(self, joined: bool = False) -> str:
        return self("capture-pane", "-p", *(["-J"] if joined else []), "-S", "-", "-t",
                    self.session)


def one_run(number: int, args: argparse.Namespace, work: Path) -> tuple[bool, str, str]:
    server = FakeServer().start()
    chunks = max(1, int(args.stream / args.delay))
    server.script({"text": ANSWER, "chunks": chunks, "delay": args.delay})
    home = work / f"home{number}"
    home.mkdir()
    tmux = Tmux(str(work / "tmux.sock"), f"r{number}")
    env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": str(home),
           "TERM": "tmux-256color", "LANG": "C.UTF-8", "OPENAI_API_KEY": "sk-x",
           "SWEBASH_AI_PROVIDER": "openai", "OPENAI_BASE_URL": f"{server.url}/v1",
           "PS1": "$ ", "XDG_CONFIG_HOME": str(home / ".config"),
           "XDG_STATE_HOME": str(home / ".state"),
           **dict(item.split("=", 1) for item in args.env)}
    command = " ".join(["env", "-i", *(f"{k}={v}" for k, v in env.items()), SWEBASH])
    try:
        tmux("new-session", "-d", "-s", tmux.session, "-x", str(WIDTHS[0]), "-y",
             str(args.height), "-c", str(work), command)
        wait(lambda: tmux.capture().rstrip().endswith("#") or "$" in tmux.capture(), 20)
        tmux("send-keys", "-t", tmux.session, "echo ready", "Enter")
        wait(lambda: "\nready" in tmux.capture(), 10)
        tmux("send-keys", "-t", tmux.session, "? resize me", "Enter")
        wait(lambda: "Q001x" in tmux.capture(True), 30)
        started = time.monotonic()
        index = 0
        while time.monotonic() - started < args.resize_for:
            index += 1
            tmux("resize-window", "-t", tmux.session, "-x", str(WIDTHS[index % len(WIDTHS)]))
            time.sleep(args.every)
        tmux("resize-window", "-t", tmux.session, "-x", str(args.final))
        resized_until = MARKER.findall(tmux.capture(True))
        wait(lambda: MARKERS[-1] in tmux.capture(True) and prompt_back(tmux.capture()), 60)
        time.sleep(0.3)
        joined, rows = tmux.capture(True), tmux.capture()
    finally:
        subprocess.run([*tmux.base, "kill-session", "-t", tmux.session], check=False,
                       capture_output=True)
        server.stop()
    problems = check(joined, rows, args.final, resized_until[-1] if resized_until else "")
    return not problems, "; ".join(problems), joined


def prompt_back(text: str) -> bool:
    lines = [line for line in text.rstrip("\n").split("\n") if line.strip()]
    return bool(lines) and lines[-1].rstrip().endswith(("$", "#"))


def wait(ready: object, timeout: float) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if ready():  # type: ignore[operator]
            return
        time.sleep(0.1)
    raise TimeoutError("tmux never showed what was waited for")


def check(joined: str, rows: str, final: int, last_before: str) -> list[str]:
    problems: list[str] = []
    squeezed = "".join(joined.split())
    found = MARKER.findall(squeezed)
    counts = {m: found.count(m) for m in MARKERS}
    doubled = [m for m, c in counts.items() if c > 1]
    lost = [m for m, c in counts.items() if c == 0]
    if doubled:
        problems.append(f"doubled {' '.join(doubled)}")
    if lost:
        problems.append(f"lost {' '.join(lost)}")
    once = [m for m in found if counts.get(m) == 1]
    if not doubled and not lost and once != MARKERS:
        problems.append("out of order")
    if squeezed.count("?resizeme") != 1:
        problems.append(f"question row {squeezed.count('?resizeme')} times")
    # the tail: the last paragraph and what follows stream after the last resize, so their
    # rows must be exactly one render's rows at the final width
    one = replay(render_once(ANSWER, final, 200), final, 200)
    seen = [row.rstrip() for row in rows.rstrip("\n").split("\n")]
    while seen and not seen[-1].strip():
        seen.pop()
    seen = seen[:-1]  # the prompt
    start = next(i for i, row in enumerate(one) if TAIL_FROM in row)
    if last_before in MARKERS and MARKERS.index(last_before) >= MARKERS.index(TAIL_FROM):
        problems.append("the resizing went on into the tail (use a longer --stream)")
    elif seen[-(len(one) - start):] != one[start:]:
        problems.append(f"the last {len(one) - start} rows differ from one render at {final} "
                        "columns")
    return problems


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=10)
    parser.add_argument("--every", type=float, default=0.15, help="seconds between resizes")
    parser.add_argument("--for", dest="resize_for", type=float, default=4.0,
                        help="seconds of resizing")
    parser.add_argument("--stream", type=float, default=8.0, help="seconds the answer takes")
    parser.add_argument("--delay", type=float, default=0.02, help="seconds between chunks")
    parser.add_argument("--final", type=int, default=100)
    parser.add_argument("--height", type=int, default=30)
    parser.add_argument("--env", action="append", default=[], metavar="NAME=VALUE",
                        help="also set this in swebash's environment (NO_COLOR=1, …)")
    parser.add_argument("-v", "--verbose", action="store_true")
    args = parser.parse_args(argv)
    if shutil.which("tmux") is None:
        print("tmux_resize: tmux is not installed")
        return 0
    clean = 0
    with tempfile.TemporaryDirectory(prefix="swebash-resize-") as tmp:
        work = Path(tmp)
        try:
            for number in range(1, args.runs + 1):
                ok, why, joined = one_run(number, args, work)
                clean += ok
                print(f"run {number}: {'clean' if ok else 'FAILED: ' + why}", flush=True)
                if not ok and args.verbose:
                    print(joined)
        finally:
            subprocess.run(["tmux", "-S", str(work / "tmux.sock"), "kill-server"],
                           check=False, capture_output=True)
    print(f"tmux resize every {args.every * 1000:.0f} ms for {args.resize_for:.0f} s while "
          f"streaming: clean {clean}/{args.runs}")
    print(json.dumps({"clean": clean, "runs": args.runs}))
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
