"""Safety benchmarks (issues 4, 10, 16): classifying a 1,000-character pipeline (≤ 5 ms), the
gate's per-call cost on a short command, the worst time over the stress inputs (deep nesting,
5,000 `&&`, slow globs, 120 KB of `f(){ `; every one < 1 s), and the corpus figures — attacks
auto-allowed, destructive commands without the dangerous flag, benign commands asked — on
the corpora of issues 4/10, the fresh families of issue 16 and the holdout corpus."""

from __future__ import annotations

import os
import statistics
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from _timing import best_ms, median_ms

from swebash.safety.gate import DefaultGate
from swebash.safety.redact import SecretRedactor
from tests.safety import corpus_fresh_d as d
from tests.safety import corpus_fresh_e as e
from tests.safety import corpus_fresh_f as f_
from tests.safety.corpus_families import FAMILY_DANGEROUS, FAMILY_READ_ONLY, STRESS
from tests.safety.corpus_fresh import Family
from tests.safety.corpus_fresh_c import BUDGET
from tests.safety.corpus_holdout import HOLDOUT
from tests.safety.fresh import FAMILIES, all_figures, make_workdir, measure

STAGES = ["cat access.log", "grep -v healthcheck", "awk '{print $1, $7}'", "sort",
          "uniq -c", "sort -rn", "head -n 50", "sed 's/^ *//'", "cut -d' ' -f2-",
          "tr a-z A-Z", "grep -E '^[0-9]+ /api/(users|orders)/[0-9]+'", "wc -l"]


def pipeline(length: int) -> str:
    parts: list[str] = []
    while len(" | ".join(parts)) < length:
        parts.append(STAGES[len(parts) % len(STAGES)])
    return " | ".join(parts)[:length].rsplit(" | ", 1)[0]


# the same kinds of stage, each spelled differently: no two stages of the line are alike
DISTINCT = ["grep -v healthcheck{n}", "awk '{{print ${m}}}'", "sed 's/a{n}/b/'",
            "cut -d' ' -f{m}", "head -n {n}", "grep -c x{n}", "sort -k{m}", "tr a-{c} A-{C}"]


def distinct_pipeline(length: int) -> str:
    parts = ["cat access.log"]
    while len(" | ".join(parts)) < length:
        n = len(parts)
        parts.append(DISTINCT[n % len(DISTINCT)].format(
            n=n, m=n % 9 + 1, c="abcdefghij"[n % 10], C="ABCDEFGHIJ"[n % 10]))
    return " | ".join(parts)[:length].rsplit(" | ", 1)[0]


def pending_families() -> list[Family]:
    """Families written for issue 16 that the tests do not hold yet (still failing)."""
    wired = {id(f) for f in FAMILIES.values()}
    return [f for module in (d, e, f_) for f in vars(module).values()
            if isinstance(f, Family) and id(f) not in wired]


def main() -> int:
    root = tempfile.mkdtemp(prefix="swebash-bench-")
    home = os.path.join(root, "home")  # beside the project, as in the tests (`../home/x`)
    os.makedirs(home)
    cwd = make_workdir(root)
    gate = DefaultGate(home=home)
    started = time.perf_counter()
    gate.check_command("ls", cwd)
    first = (time.perf_counter() - started) * 1000
    long = pipeline(1000)
    verdict = gate.check_command(long, cwd)
    ms = median_ms(lambda: gate.check_command(long, cwd), 200)
    quickest = best_ms(lambda: gate.check_command(long, cwd), 200)
    varied = distinct_pipeline(1000)
    gate.check_command(varied, cwd)
    varied_ms = median_ms(lambda: gate.check_command(varied, cwd), 200)
    short = median_ms(lambda: gate.check_command("git status --short", cwd), 500)
    print(f"classify a {len(long)}-char, {long.count('|') + 1}-stage pipeline: {ms:.2f} ms "
          f"median, {quickest:.2f} ms quickest (verdict {verdict.decision})   "
          f"[target <= 5 ms]")
    print(f"  the same length with no stage repeated ({varied.count('|') + 1} stages, each "
          f"judged): {varied_ms:.2f} ms median (a repeated stage is judged once)")
    print(f"gate on a short command: {short:.3f} ms; first call incl. loading the parser "
          f"{first:.1f} ms")
    stress = []
    for text in STRESS + BUDGET.dangerous:
        samples = []
        for _ in range(3):
            started = time.perf_counter()
            gate.check_command(text, cwd)
            samples.append(time.perf_counter() - started)
        stress.append((max(samples) * 1000, len(text), text[:12]))
    times = sorted(t for t, _, _ in stress)
    worst = max(stress)
    print(f"stress inputs ({len(stress)}, up to {max(s[1] for s in stress) // 1000} KB): "
          f"max {worst[0]:.0f} ms ({worst[1]} chars, {worst[2]!r}…), "
          f"p50 {statistics.median(times):.0f} ms   [target: every one < 1000 ms]")
    redactor = SecretRedactor({})
    with open(os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))),
                           "README.md"), encoding="utf-8") as fh:
        readme = fh.read()
    hostile = "PASSWORD=" * 11000  # ~100 KB of secret names: the worst case per byte
    for label, text in (("README.md", readme), ("100 KB of 'PASSWORD='", hostile)):
        cost = median_ms(lambda text=text: redactor.redact(text), 9)  # type: ignore[misc]
        print(f"redact {label} ({len(text) // 1000} KB): {cost:.1f} ms")
    corpus = FAMILY_DANGEROUS + FAMILY_READ_ONLY
    per = median_ms(lambda: [gate.check_command(c, cwd) for c in corpus], 3) / len(corpus)
    print(f"corpus of {len(corpus)} family commands: {per:.2f} ms per command (median run)")

    def check(command: str) -> object:
        return gate.check_command(command, cwd)

    figures = all_figures(check)  # type: ignore[arg-type]
    figures.append(measure("holdout corpus", check,  # type: ignore[arg-type]
                           HOLDOUT.dangerous, HOLDOUT.ask, HOLDOUT.benign))
    pending = pending_families()
    if pending:
        figures.append(measure(f"fresh families not yet in the tests ({len(pending)})",
                               check,  # type: ignore[arg-type]
                               [c for f in pending for c in f.dangerous],
                               [c for f in pending for c in f.ask],
                               [c for f in pending for c in f.benign]))
    for fig in figures:
        print(fig.line() + "   [targets: 0 allowed; <= 5% without dangerous; <= 5% asked]")
    return 0 if worst[0] < 1000 else 1


if __name__ == "__main__":
    raise SystemExit(main())
