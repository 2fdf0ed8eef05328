"""Safety benchmarks: classifying a 1,000-character pipeline (≤ 5 ms), the gate's per-call cost
on a short command against the naive substring check for scale (issue 4), and the time to
answer every stress input of the corpus — deep nesting, 5,000 `&&`, a 120 KB repeated
`f(){ ` — each of which must be answered within a second (issue 10)."""

from __future__ import annotations

import os
import statistics
import sys
import time
from collections.abc import Callable

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from _timing import median_ms

from swebash.safety.gate import DefaultGate
from tests.safety.corpus_families import FAMILY_DANGEROUS, FAMILY_READ_ONLY, STRESS

STAGES = ["cat access.log", "grep -v healthcheck", "awk '{print $1, $7}'", "sort",
          "uniq -c", "sort -rn", "head -n 50", "sed 's/^ *//'", "cut -d' ' -f2-",
          "tr a-z A-Z", "grep -E '^[0-9]+ /api/(users|orders)/[0-9]+'", "wc -l"]


def pipeline(length: int) -> str:
    parts: list[str] = []
    while len(" | ".join(parts)) < length:
        parts.append(STAGES[len(parts) % len(STAGES)])
    return " | ".join(parts)[:length].rsplit(" | ", 1)[0]


def timed(fn: Callable[[], object], runs: int) -> float:
    return median_ms(fn, runs)


def main() -> int:
    gate = DefaultGate(home=os.path.expanduser("~"))
    cwd = os.getcwd()
    started = time.perf_counter()
    gate.check_command("ls", cwd)
    first = (time.perf_counter() - started) * 1000
    long = pipeline(1000)
    verdict = gate.check_command(long, cwd)
    ms = timed(lambda: gate.check_command(long, cwd), 200)
    short = timed(lambda: gate.check_command("git status --short", cwd), 500)
    naive = timed(lambda: any(w in long for w in ("rm ", "dd ", "mkfs", "sudo")), 500)
    print(f"classify a {len(long)}-char, {long.count('|') + 1}-stage pipeline: {ms:.2f} ms "
          f"median (verdict {verdict.decision})   [target <= 5 ms]")
    print(f"gate on a short command: {short:.3f} ms; first call incl. loading the parser "
          f"{first:.1f} ms; naive substring check {naive:.4f} ms (it misses r''m, \\rm, ...)")
    stress = []
    for text in STRESS:
        samples = []
        for _ in range(3):
            started = time.perf_counter()
            gate.check_command(text, cwd)
            samples.append(time.perf_counter() - started)
        stress.append((max(samples) * 1000, len(text), text[:12]))
    times = sorted(t for t, _, _ in stress)
    worst = max(stress)
    print(f"stress inputs ({len(STRESS)}, up to {max(len(s) for s in STRESS) // 1000} KB): "
          f"max {worst[0]:.0f} ms ({worst[1]} chars, {worst[2]!r}…), "
          f"p50 {statistics.median(times):.0f} ms   [target: every one < 1000 ms]")
    corpus = FAMILY_DANGEROUS + FAMILY_READ_ONLY
    per = timed(lambda: [gate.check_command(c, cwd) for c in corpus], 5) / len(corpus)
    print(f"corpus of {len(corpus)} family commands: {per:.2f} ms per command (median run)")
    return 0 if worst[0] < 1000 else 1


if __name__ == "__main__":
    raise SystemExit(main())
