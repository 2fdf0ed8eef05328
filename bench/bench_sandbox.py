"""Sandbox benchmark (issue 10): the start-up cost the sandbox adds to each command the AI runs
(target ≤ 15 ms), per backend, against the same ``bash -c true`` started unconfined.

Measured end to end as the tool does it: build the policy (secret paths, the bounded scan of the
working tree), start the process confined, wait for it. Run in this repository (a real working
tree with a .venv) and in a small temp tree.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Callable

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import _timing as timing

from swebash.config import SandboxConfig
from swebash.safety import sandbox_bwrap, sandbox_landlock
from swebash.safety.sandbox import OsSandbox

RUNS = 40
ARGV = ["bash", "-c", "true"]


def median_ms(fn: Callable[[], object], runs: int = RUNS) -> float:
    return timing.median_ms(fn, runs, warm=True)


def best_ms(fn: Callable[[], object], runs: int = RUNS) -> float:
    """The quickest run: what the sandbox costs when the machine is not busy with others."""
    return timing.best_ms(fn, runs)


def plain(cwd: str, env: dict[str, str]) -> None:
    subprocess.Popen(ARGV, cwd=cwd, env=env, stdin=subprocess.DEVNULL,
                     stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                     start_new_session=True).communicate()


def confined(sandbox: OsSandbox, cwd: str, env: dict[str, str]) -> Callable[[], object]:
    return lambda: sandbox.spawn(ARGV, cwd, env).communicate()


def main() -> int:
    env = dict(os.environ)
    home = os.path.expanduser("~")
    small = tempfile.mkdtemp(prefix="swebash-bench-")
    os.makedirs(os.path.join(small, ".git/hooks"))
    repo = os.getcwd()
    backends = []
    if sandbox_bwrap.probe(False) is None:
        backends.append("bwrap")
    else:
        print(f"bubblewrap: not measured ({sandbox_bwrap.probe(False)})")
    if sandbox_landlock.abi_version() >= 1:
        backends.append("landlock")
    else:
        print("landlock: not measured (no Landlock in this kernel)")
    try:
        for where, cwd in (("this repository", repo), ("a small temp tree", small)):
            base = median_ms(lambda cwd=cwd: plain(cwd, env))  # type: ignore[misc]
            print(f"{where}: unconfined bash -c true {base:.1f} ms median")
            for backend in backends:
                sandbox = OsSandbox(SandboxConfig(backend=backend), home=home, environ=env)
                policy_ms = median_ms(lambda s=sandbox, c=cwd: s.policy(c, env))  # type: ignore[misc]
                total = median_ms(confined(sandbox, cwd, env))
                quickest = best_ms(confined(sandbox, cwd, env)) - best_ms(
                    lambda cwd=cwd: plain(cwd, env))  # type: ignore[misc]
                extra = total - base
                verdict = "ok" if extra <= 15 else "OVER"
                print(f"  {backend:8s} {total:6.1f} ms  (+{extra:.1f} ms per command median, "
                      f"+{quickest:.1f} ms best; policy {policy_ms:.1f} ms)   "
                      f"[target <= 15 ms: {verdict}]")
                sandbox.close()
    finally:
        shutil.rmtree(small, ignore_errors=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
