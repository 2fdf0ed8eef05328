"""Keystroke latency with colouring + history suggestions, and prompt time with a user PS1.

Keystrokes: a 500-character line typed one character at a time against a 100,000-line history;
per key, what prompt-toolkit asks of swebash: the lexer (tree-sitter parse + walk, cached per
text) and the history suggestion (indexed). Target (issue 12): ≤ 5 ms p99 per key together.
Prompt: a command's round trip through the session with no user prompt, with
``PS1='\\u@\\h \\w \\$ '``, and with a PROMPT_COMMAND that sets PS1 with a command substitution
(what prompt frameworks do), plus reading the prompt state swebash draws from.
"""

from __future__ import annotations

import os
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from swebash.interactive.highlight import ShellLexer
from swebash.interactive.history_suggest import HistorySuggester
from swebash.shell.session import ShellSession
from swebash.shell.userprompt import STATE_FILE, read_prompt_state

HISTORY = 100_000
WORDS = ["git", "status", "commit", "-m", "ls", "-la", "cd", "src", "make", "test", "grep",
         "-rn", "TODO", "docker", "run", "--rm", "python", "-m", "pytest", "|", "&&", ">",
         "out.txt", "$HOME", '"a b"', "'x'", "kubectl", "get", "pods", "echo"]


def history_lines(rng: random.Random) -> list[str]:
    return [" ".join(rng.choice(WORDS) for _ in range(rng.randint(1, 12)))
            for _ in range(HISTORY)]


def typed_line(rng: random.Random) -> str:
    line = "git "
    while len(line) < 500:
        line += rng.choice(WORDS) + " "
    return line[:500]


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def keystrokes() -> None:
    rng = random.Random(12)
    lines = history_lines(rng)
    started = time.perf_counter()
    suggester = HistorySuggester(lambda: lines)
    suggester.build()
    build_ms = (time.perf_counter() - started) * 1000
    lexer = ShellLexer(lambda: (frozenset(), os.environ.get("PATH"), os.getcwd()))
    lexer.fragments("warm up the parser")
    text = typed_line(rng)
    lex, sug, both = [], [], []
    for end in range(1, len(text) + 1):
        prefix = text[:end]
        t0 = time.perf_counter()
        lexer.fragments(prefix)
        t1 = time.perf_counter()
        suggester.suggest(prefix, "/tmp")
        t2 = time.perf_counter()
        lex.append((t1 - t0) * 1000)
        sug.append((t2 - t1) * 1000)
        both.append((t2 - t0) * 1000)
    short = [suggester.suggest(w[:2], "/tmp") for w in WORDS]
    t0 = time.perf_counter()
    for _ in range(200):
        for w in WORDS:
            suggester.suggest(w[:1], "/tmp")
    one_char = (time.perf_counter() - t0) / (200 * len(WORDS)) * 1000
    print(f"history index: {HISTORY:,} lines indexed in {build_ms:.0f} ms (background thread)")
    print(f"keystroke, 500-char line: colouring p50 {statistics.median(lex):.3f} ms / "
          f"p99 {pct(lex, 0.99):.3f} ms; suggestion p50 {statistics.median(sug):.3f} ms / "
          f"p99 {pct(sug, 0.99):.3f} ms; together p99 {pct(both, 0.99):.3f} ms, "
          f"max {max(both):.3f} ms (target ≤ 5 ms p99)")
    print(f"suggestion for a one-character prefix (largest range): {one_char:.3f} ms "
          f"({sum(1 for s in short if s)} of {len(short)} two-character prefixes matched)")


def prompt_times() -> None:
    null = os.open(os.devnull, os.O_RDWR)
    cases = {
        "no user prompt": "",
        "PS1='\\u@\\h \\w \\$ '": "PS1='\\u@\\h \\w \\$ '\n",
        "PROMPT_COMMAND sets PS1 with $(…)":
            "PROMPT_COMMAND='PS1=\"$(basename \"$PWD\") [$?] > \"'\n",
    }
    with tempfile.TemporaryDirectory() as work:
        for name, rc_text in cases.items():
            rc = Path(work, "rc")
            rc.write_text(rc_text)
            session = ShellSession.start(rcfile=rc, cwd=work)
            session.stdin_fd = session.stdout_fd = null
            session.wait_ready()
            try:
                for _ in range(20):
                    session.run("true")
                times = []
                for _ in range(200):
                    t0 = time.perf_counter()
                    session.run("true")
                    state = read_prompt_state(Path(session.dir, STATE_FILE), session.nonce)
                    times.append((time.perf_counter() - t0) * 1000)
                shown = repr(state.ps1)[:30]
            finally:
                session.close()
            print(f"command + prompt, {name}: p50 {statistics.median(times):.2f} ms, "
                  f"p99 {pct(times, 0.99):.2f} ms (prompt {shown})")
    os.close(null)


def main() -> int:
    keystrokes()
    prompt_times()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
