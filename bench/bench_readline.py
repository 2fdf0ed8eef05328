"""Readline's part of swebash: what a Tab costs, and what reading back inputrc/bind costs.

* One Tab (``complete_text``: the session's bash runs the compspec, swebash quotes the answer)
  for a ``-W`` compspec, a ``-F`` function and a path, against bash running the same
  ``compgen`` in a loop (the work itself).
* The readline state read back after a command that called ``bind`` (fzf's key-binding script):
  bash's dump and the diff against readline's defaults, and the diff alone (what swebash pays
  before its first prompt when an inputrc or the rc file changed readline).
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from bench._timing import median_ms
from swebash.interactive.bindings import to_keys
from swebash.interactive.inputrc import changes
from swebash.shell.completion import complete_text
from swebash.shell.session import ShellSession

FZF = Path("/usr/share/doc/fzf/examples/key-bindings.bash")


def bash_loop_ms(setup: str, command: str, n: int, cwd: str) -> float:
    script = (f"{setup}\nTIMEFORMAT=%R; time (for ((i = 0; i < {n}; i++)); do {command} "
              ">/dev/null; done)")
    out = subprocess.run(["bash", "--norc", "-c", script], capture_output=True, text=True,
                         cwd=cwd).stderr.strip().splitlines()[-1]
    return float(out) * 1000 / n


def main() -> int:
    os.environ["SWEBASH_BASH_COMPLETION"] = ""
    work = tempfile.mkdtemp()
    for name in ("alpha", "beta", "gamma"):
        Path(work, name).mkdir()
    null = os.open(os.devnull, os.O_RDWR)
    session = ShellSession.start(rcfile=None, cwd=work)
    session.stdin_fd = session.stdout_fd = null
    session.wait_ready()
    setup = ("complete -W 'apple apricot banana' fruit;"
             " _f() { COMPREPLY=($(compgen -W 'one two three' -- \"$2\")); }; complete -F _f fn")
    session.run(setup)
    words = median_ms(lambda: complete_text(session, "fruit a", 5), 30, warm=True)
    func = median_ms(lambda: complete_text(session, "fn t", 5), 30, warm=True)
    path = median_ms(lambda: complete_text(session, "ls a", 5), 30, warm=True)
    own_words = bash_loop_ms(setup, "compgen -W 'apple apricot banana' -- a", 500, work)
    own_path = bash_loop_ms(setup, "compgen -f -- a", 500, work)
    print(f"Tab: -W compspec {words:.1f} ms, -F function {func:.1f} ms, path {path:.1f} ms "
          f"(bash's own compgen: {own_words:.2f} ms, {own_path:.2f} ms; the rest is the round "
          f"trip to the session's bash)")
    if FZF.exists():
        session.run(f"source {FZF}")
        base = Path(session.dir, "rl-base").read_text()

        def read_back() -> None:
            data = session.capture("__sb_rl_dump")
            assert data is not None
            for binding in changes(base, data.decode())[0]:
                to_keys(binding.keys)

        now = (session.capture("__sb_rl_dump") or b"").decode()

        def diff_only() -> None:
            for binding in changes(base, now)[0]:
                to_keys(binding.keys)

        print(f"readline state after `source key-bindings.bash` (fzf): dump + diff "
              f"{median_ms(read_back, 20, warm=True):.1f} ms, diff alone "
              f"{median_ms(diff_only, 20, warm=True):.2f} ms "
              f"({len(changes(base, now)[0])} changed bindings)")
    else:
        print("readline state: fzf's key-binding script is not installed, not measured")
    session.close()
    os.close(null)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
