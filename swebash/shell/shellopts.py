"""Shell options swebash's editor follows, as the session's bash left them before a prompt.

``__sb_opts`` (bashstate.py) writes NUL-terminated fields to ``<session dir>/opts``, overwritten
in place and ended by the session's nonce (like userprompt.py's file)::

    $BASHOPTS NUL $SHELLOPTS NUL $IGNOREEOF (\\x01: unset) NUL $HISTFILE NUL $HISTSIZE NUL
    NUL nonce NUL

Pure parsing, no I/O but one read.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

OPTS_FILE = "opts"  # in the session's private directory
UNSET = "\x01"


@dataclass(frozen=True)
class ShellOptions:
    shopt: frozenset[str] = frozenset()  # BASHOPTS: histverify, login_shell, …
    set_o: frozenset[str] = frozenset()  # SHELLOPTS
    ignoreeof: str | None = None  # IGNOREEOF, None when unset
    histfile: str = "~/.bash_history"  # bash's default until the first prompt says otherwise
    histsize: str = "500"

    @property
    def eof_limit(self) -> int:
        """How many Ctrl-D in a row bash ignores before it exits (IGNOREEOF as bash reads it:
        unset → 0; set but not all digits → 10)."""
        if self.ignoreeof is None:
            return 0
        return int(self.ignoreeof) if self.ignoreeof.isdigit() else 10

    @property
    def history_file(self) -> bool:
        """Does the user keep a history file? (``unset HISTFILE``, ``HISTFILE=/dev/null``: no)"""
        return bool(self.histfile) and self.histfile != "/dev/null"


def parse_options(data: bytes, nonce: str) -> ShellOptions:
    end = data.find(b"\0\0" + nonce.encode() + b"\0")
    if end < 0:
        return ShellOptions()
    fields = data[:end + 1].decode("utf-8", "surrogateescape").split("\0")
    if len(fields) < 6:
        return ShellOptions()
    shopt, set_o, ignoreeof, histfile, histsize = fields[:5]
    return ShellOptions(frozenset(shopt.split(":")), frozenset(set_o.split(":")),
                        None if ignoreeof == UNSET else ignoreeof, histfile, histsize)


def read_options(path: Path, nonce: str) -> ShellOptions:
    try:
        return parse_options(path.read_bytes(), nonce)
    except OSError:
        return ShellOptions()
