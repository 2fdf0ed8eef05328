"""``exec swebash`` / ``exec $SHELL`` at swebash's prompt: swebash starts afresh in its place.

Bash would replace the session's bash with a second swebash on swebash's pty (one inside the
other). When the line is a plain ``exec`` of swebash itself — its name, a path to it, or
``$SHELL`` naming it — swebash does what the user meant: the session ends as at exit (bash
writes HISTFILE), and swebash execs itself with the session's directory and exported
environment, as ``exec bash`` re-reads a bash setup. ``-l`` (or ``-a -name``) makes a login
shell. Anything else (``exec bash``, ``exec zsh``, redirections) runs in bash as typed; when
``exec`` hands the terminal to another shell, the session says so (session.py).
"""

from __future__ import annotations

import os
import shlex
import shutil
import sys
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from swebash.interactive.repl import Repl


def self_exec_argv(line: str, env: dict[str, str]) -> list[str] | None:
    """swebash's argv when ``line`` execs swebash itself; None otherwise."""
    if "exec" not in line:
        return None
    try:
        words = shlex.split(line)
    except ValueError:
        return None
    if not words or words[0] != "exec":
        return None
    at, login = 1, False
    while at < len(words) and words[at].startswith("-") and words[at] != "--":
        option = words[at]
        if option == "-a" and at + 1 < len(words):
            login = login or words[at + 1].startswith("-")
            at += 2
        elif option == "-l":
            login, at = True, at + 1
        else:  # -c (an empty environment) and anything unknown: bash's business
            return None
    if at < len(words) and words[at] == "--":
        at += 1
    if at >= len(words):
        return None
    program, args = words[at], words[at + 1:]
    if program in ("$SHELL", "${SHELL}"):
        program = env.get("SHELL", "")
    if any(c in w for w in (program, *args) for c in "$`"):
        return None
    if os.path.basename(program) != "swebash":
        return None
    path = program if "/" in program else shutil.which(program, path=env.get("PATH"))
    if not path:
        return None
    return [path, *(["-l"] if login else []), *args]


def reexec_self(line: str, repl: Repl) -> bool:
    """Exec swebash afresh for ``line`` if it asks for that (the call returns only if not)."""
    if "exec" not in line:
        return False
    env = repl.session.exported_env()
    argv = self_exec_argv(line, env)
    if argv is None:
        return False
    cwd = repl.session.cwd
    repl.histsync.remember(line)  # bash keeps an `exec` line in its history too
    repl.close()
    repl.session.close()  # as at exit: bash writes HISTFILE, its jobs get SIGHUP
    sys.stdout.flush()
    sys.stderr.flush()
    try:
        os.chdir(cwd)
    except OSError:
        pass
    try:
        os.execve(argv[0], argv, env)
    except OSError as exc:  # the session is gone: say why and end
        print(f"swebash: exec {argv[0]}: {exc.strerror or exc}", file=sys.stderr)
        raise SystemExit(126) from exc
