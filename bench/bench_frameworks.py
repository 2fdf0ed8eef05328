"""Start-up with a bash framework's dotfiles beside `bash -i`: time from exec until the
framework's prompt is on the screen, for oh-my-bash (font theme; git, bashmarks, progress
plugins; git, ssh completions) and bash-it (bobby theme; default profile plus the history and
git plugins, git and ssh completions), each installed from its git mirror into a temp HOME the
way its README does (offline part of the install only). Medians of RUNS runs.
"""

from __future__ import annotations

import io
import os
import shutil
import statistics
import subprocess
import sys
import tarfile
import tempfile
from pathlib import Path

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from _pty import SWEBASH, Pty

RUNS = 7
BASH = shutil.which("bash") or "/bin/bash"
MIRRORS = Path(os.environ.get("SWEBASH_BENCH_MIRRORS", "/work/.mirror"))
ARROW = "→".encode()  # the last glyph of both themes' prompts


def extract(repo: Path, into: Path) -> None:
    data = subprocess.run(["git", "-C", str(repo), "archive", "HEAD"], check=True,
                          capture_output=True).stdout
    with tarfile.open(fileobj=io.BytesIO(data)) as tar:
        tar.extractall(into, filter="data")


def oh_my_bash(home: Path) -> None:
    extract(MIRRORS / "ohmybash+oh-my-bash" / "repo", home / ".oh-my-bash")
    rc = (home / ".oh-my-bash" / "templates" / "bashrc.osh-template").read_text()
    rc = rc.replace("  bashmarks\n", "  bashmarks\n  progress\n").replace("  composer\n", "")
    (home / ".bashrc").write_text(rc)


def bash_it(home: Path) -> None:
    extract(MIRRORS / "Bash-it+bash-it" / "repo", home / ".bash_it")
    env = {**os.environ, "HOME": str(home)}
    subprocess.run([BASH, str(home / ".bash_it" / "install.sh"), "--silent"], env=env,
                   check=True, capture_output=True, cwd=home)
    subprocess.run([BASH, "-ic", "bash-it enable plugin history git; "
                    "bash-it enable completion git ssh"], env=env, check=True,
                   capture_output=True, cwd=home)


def first_prompt(argv: list[str], home: Path) -> float:
    env = {"HOME": str(home), "TERM": "xterm-256color", "LANG": "C.UTF-8",
           "PATH": os.environ["PATH"], "PROMPT_TOOLKIT_NO_CPR": "1", "HISTFILE": "/dev/null"}
    term = Pty(argv, env)
    try:
        return term.read_until(lambda out: ARROW in out, timeout=30)
    finally:
        term.close()


def main() -> int:
    for name, install in (("oh-my-bash", oh_my_bash), ("bash-it", bash_it)):
        if not (MIRRORS / {"oh-my-bash": "ohmybash+oh-my-bash",
                           "bash-it": "Bash-it+bash-it"}[name] / "repo").is_dir():
            print(f"{name:11} skipped: no mirror under {MIRRORS}")
            continue
        home = Path(tempfile.mkdtemp(prefix="swebash-bench-fw-"))
        try:
            install(home)
            first_prompt([BASH, "-i"], home)  # the framework's one-time set-up, not measured
            times: dict[str, list[float]] = {"bash": [], "swebash": []}
            for _ in range(RUNS):
                times["bash"].append(first_prompt([BASH, "-i"], home))
                times["swebash"].append(first_prompt([SWEBASH], home))
            bash, ours = (statistics.median(times[k]) * 1000 for k in ("bash", "swebash"))
            print(f"{name:11} first prompt: bash -i {bash:5.0f} ms, swebash {ours:5.0f} ms "
                  f"(+{ours - bash:.0f} ms, x{ours / bash:.2f})")
        finally:
            shutil.rmtree(home, ignore_errors=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
