"""Ctrl-D at an empty prompt with ``set -o ignoreeof`` or ``IGNOREEOF=n``, as bash does it.

Bash then answers ``Use "exit" to leave the shell.`` (``logout`` in a login shell) n times in a
row — IGNOREEOF's value, 10 when it is set but not a number — and leaves on the next Ctrl-D;
any line typed in between starts the count again. The options come from the session's bash as
of the last prompt (shellopts.py).
"""

from __future__ import annotations

import sys
from typing import Protocol

from swebash.shell.shellopts import ShellOptions


class _Session(Protocol):
    def shell_options(self) -> ShellOptions: ...


class EofGuard:
    def __init__(self, session: _Session) -> None:
        self.session = session
        self.count = 0

    def ignored(self) -> bool:
        """True when this Ctrl-D is answered with bash's hint instead of exiting."""
        options = self.session.shell_options()
        if self.count >= options.eof_limit:
            return False
        self.count += 1
        word = "logout" if "login_shell" in options.shopt else "exit"
        print(f'Use "{word}" to leave the shell.', file=sys.stderr, flush=True)
        return True

    def reset(self) -> None:
        self.count = 0
