"""Run every bench/bench_*.py and print its figures (ratios against bash and the naive approach).

Each benchmark is a standalone script run with this interpreter; it prints its own lines.
`make bench` calls this; `python bench/run.py NAME` runs only bench_NAME.py.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path


def main(argv: list[str]) -> int:
    here = Path(__file__).resolve().parent
    scripts = sorted(here.glob("bench_*.py"))
    if argv:
        scripts = [s for s in scripts if s.stem.removeprefix("bench_") in argv]
    failed = 0
    for script in scripts:
        print(f"== {script.stem.removeprefix('bench_')}", flush=True)
        result = subprocess.run([sys.executable, str(script)], cwd=here.parent, check=False)
        failed += result.returncode != 0
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
