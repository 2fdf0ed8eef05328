"""The user's own prompt and shell options, as the session's bash left them before a prompt.

Before every swebash prompt, bash's ``__sb_state`` (bashinit.py) runs the user's PROMPT_COMMAND
exactly once with ``$?`` of the last command, expands PS1 and PS2 with ``${PS1@P}`` (so
``\\u \\h \\w``, colours, ``$(…)`` and starship's ``$(starship prompt …)`` are bash's own work)
and writes five NUL-terminated fields to ``<session dir>/prompt``, then the names of the
session's functions and aliases one per line (for colouring command words):

    $- NUL count of user PROMPT_COMMAND entries NUL ${PS1@P} NUL ${PS2@P} NUL $PATH NUL names…
    NUL nonce NUL

The file is overwritten in place, never truncated (truncation costs about a millisecond per
prompt on some filesystems), so the session's nonce marks where this prompt's state ends.

Bash's own PS1 stays empty, so bash never draws a prompt of its own. An empty PS1 field means
the user has no prompt and swebash draws its default one. Pure parsing, no I/O but one read.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

STATE_FILE = "prompt"  # in the session's private directory


@dataclass(frozen=True)
class PromptState:
    flags: str = "himBH"  # bash's $- (histexpand is on when it holds H)
    prompt_commands: int = 0  # how many PROMPT_COMMAND entries the user has
    ps1: str = ""  # expanded; \x01…\x02 around non-printing parts (from \[…\])
    ps2: str = ""
    path: str | None = None  # the session's PATH (None: unknown yet)
    names: frozenset[str] = frozenset()  # functions and aliases defined in the session

    @property
    def histexpand(self) -> bool:
        return "H" in self.flags

    @property
    def has_prompt(self) -> bool:
        return bool(self.ps1)


def parse_prompt_state(data: bytes, nonce: str = "") -> PromptState:
    end = data.find(b"\0" + nonce.encode() + b"\0") if nonce else -1
    if end >= 0:
        data = data[:end]
    fields = data.decode("utf-8", "replace").split("\0", 5)
    if len(fields) < 6:
        return PromptState()
    try:
        count = int(fields[1] or 0)
    except ValueError:
        count = 0
    names = frozenset(name for name in fields[5].split("\n")
                      if name and not name.startswith("__sb_"))
    return PromptState(fields[0], count, fields[2], fields[3], fields[4], names)


def read_prompt_state(path: Path, nonce: str = "") -> PromptState:
    try:
        return parse_prompt_state(path.read_bytes(), nonce)
    except OSError:
        return PromptState()
