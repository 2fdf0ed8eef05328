"""Start-up beside `bash -i`: when the prompt is drawn, when a key typed at it is echoed, when
the line editor (prompt-toolkit) is live; and `$SHELL -ilc env`, the way editors read a login
shell's environment.

Both shells run in a pty with a temp HOME holding the stock Debian/Ubuntu ~/.bashrc and
~/.profile (/etc/skel), and again with --norc. A key is sent as soon as the prompt is drawn;
"echo" is the time from exec until it is on the screen. Targets (issue 17): key echoed
≤ 150 ms after exec; `$SHELL -ilc env` ≤ 300 ms. Medians of RUNS runs.
"""

from __future__ import annotations

import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from _pty import SWEBASH, Pty, prompt_shown

RUNS = 7
BASH = shutil.which("bash") or "/bin/bash"
KEY = b"Q"


def home_with_stock_files() -> str:
    home = tempfile.mkdtemp(prefix="swebash-bench-home-")
    for name in (".bashrc", ".profile"):
        skel = Path("/etc/skel", name)
        if skel.exists():
            shutil.copy(skel, Path(home, name))
    return home


def env_for(home: str) -> dict[str, str]:
    return {"HOME": home, "TERM": "xterm-256color", "LANG": "C.UTF-8", "PATH": os.environ["PATH"],
            "PROMPT_TOOLKIT_NO_CPR": "1", "HISTFILE": "/dev/null",
            "XDG_STATE_HOME": str(Path(home, ".state")), "XDG_CONFIG_HOME": str(Path(home, ".cfg"))}


def one_start(argv: list[str], env: dict[str, str]) -> tuple[float, float, float]:
    """Seconds from exec to: prompt drawn, key echoed, line editor live."""
    term = Pty(argv, env)
    try:
        prompt = term.read_until(prompt_shown, timeout=20)
        mark = len(term.out)
        term.send(KEY)
        echo = term.read_until(lambda out: KEY in out[mark:], timeout=20)
        live = term.read_until(lambda out: b"\x1b[?2004h" in out, timeout=20)
        return prompt, echo, live
    finally:
        term.close()


def starts(argv: list[str], env: dict[str, str]) -> tuple[float, float, float]:
    samples = [one_start(argv, env) for _ in range(RUNS)]
    return tuple(statistics.median(s[i] for s in samples) * 1000  # type: ignore[return-value]
                 for i in range(3))


def ilc_env_ms(shell: str, env: dict[str, str]) -> float:
    samples = []
    for _ in range(RUNS):
        started = time.perf_counter()
        subprocess.run([shell, "-ilc", "env"], env={**env, "SHELL": shell}, cwd=env["HOME"],
                       stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                       stderr=subprocess.DEVNULL, check=True)
        samples.append(time.perf_counter() - started)
    return statistics.median(samples) * 1000


def reference_ms(argv: list[str]) -> float:
    samples = []
    for _ in range(RUNS):
        started = time.perf_counter()
        subprocess.run(argv, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, check=True)
        samples.append(time.perf_counter() - started)
    return statistics.median(samples) * 1000


def main() -> int:
    home = home_with_stock_files()
    env = env_for(home)
    try:
        python = reference_ms([sys.executable, "-c", "pass"])
        print(f"for scale, on this machine now: `python -c pass` {python:.0f} ms "
              f"(the machine is shared: figures vary with its load)")
        for label, extra in (("stock ~/.bashrc", []), ("--norc", ["--norc"])):
            ours = starts([SWEBASH, *extra], env)
            theirs = starts([BASH, *extra, "-i"], env)
            print(f"start-up, {label}: swebash prompt {ours[0]:.0f} ms, key echoed "
                  f"{ours[1]:.0f} ms, line editor live {ours[2]:.0f} ms; bash -i prompt "
                  f"{theirs[0]:.0f} ms, key echoed {theirs[1]:.0f} ms   "
                  "[target: key echoed <= 150 ms]")
        ours_env, bash_env = ilc_env_ms(SWEBASH, env), ilc_env_ms(BASH, env)
        print(f"$SHELL -ilc env (stock ~/.profile + ~/.bashrc): swebash {ours_env:.0f} ms, "
              f"bash {bash_env:.0f} ms   [target <= 300 ms]")
    finally:
        shutil.rmtree(home, ignore_errors=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
