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


# ---------------------------------------------------------------------------- escapes
#
# Bash writes the expanded prompt to the terminal as it is: every escape sequence in it reaches
# the terminal, and ``\[…\]`` only tells readline what not to count. ``${PS1@P}`` drops the
# ``\[ \]`` marks, so the sequences are found again by their shape (ECMA-48): whatever has the
# shape of an escape sequence is passed on with zero width, known or not — CSI, OSC (ended by
# BEL or ST), DCS/SOS/PM/APC (ended by ST), two- and three-byte ESC sequences, other C0 and C1
# controls. Only the text between them takes room on the screen.

_ESC = "\x1b"
_STRING_INTRODUCERS = {"]": "osc", "P": "dcs", "X": "sos", "^": "pm", "_": "apc"}
_C1_STRINGS = {"\x9d": "osc", "\x90": "dcs", "\x98": "sos", "\x9e": "pm", "\x9f": "apc"}


def _string_end(text: str, start: int, bel_ends: bool) -> int:
    """Index just past the ST (ESC \\ or 0x9c) or, for OSC, BEL that ends a control string
    starting at ``start``; the end of the text when it is never ended (the terminal would
    swallow the rest too)."""
    i = start
    while i < len(text):
        ch = text[i]
        if ch == "\x07" and bel_ends:
            return i + 1
        if ch == "\x9c":
            return i + 1
        if ch == _ESC and i + 1 < len(text) and text[i + 1] == "\\":
            return i + 2
        i += 1
    return len(text)


def _csi_end(text: str, start: int) -> int:
    """Index past the final byte of a CSI whose parameters start at ``start``."""
    i = start
    while i < len(text) and "\x30" <= text[i] <= "\x3f":
        i += 1
    while i < len(text) and "\x20" <= text[i] <= "\x2f":
        i += 1
    return min(i + 1, len(text)) if i < len(text) and "\x40" <= text[i] <= "\x7e" else i


def split_escapes(text: str) -> list[tuple[str, str]]:
    """Cut an expanded prompt into ("text", …), ("sgr", …) and ("escape", …) pieces.

    "sgr" is a CSI … m colour/attribute sequence with plain ``;`` parameters (drawn as a
    style); "escape" is anything else that has the shape of a control sequence or a control
    character (passed to the terminal with zero width). Newlines stay in the text."""
    pieces: list[tuple[str, str]] = []
    plain: list[str] = []
    i = 0

    def flush() -> None:
        if plain:
            pieces.append(("text", "".join(plain)))
            plain.clear()

    while i < len(text):
        ch = text[i]
        end = i
        kind = "escape"
        if ch == _ESC and i + 1 < len(text):
            nxt = text[i + 1]
            if nxt == "[":
                end = _csi_end(text, i + 2)
                body = text[i + 2:end - 1]
                if text[end - 1:end] == "m" and all(c.isdigit() or c == ";" for c in body):
                    kind = "sgr"
            elif nxt in _STRING_INTRODUCERS:
                end = _string_end(text, i + 2, bel_ends=nxt == "]")
            else:  # ESC, intermediates (0x20-0x2f), one final byte: ESC 7, ESC ( B, ESC =
                end = i + 1
                while end < len(text) and "\x20" <= text[end] <= "\x2f":
                    end += 1
                end = min(end + 1, len(text))
        elif ch == _ESC:
            end = i + 1
        elif ch == "\x9b":
            end = _csi_end(text, i + 1)
        elif ch in _C1_STRINGS:
            end = _string_end(text, i + 1, bel_ends=ch == "\x9d")
        elif (ch < " " and ch != "\n") or ch == "\x7f" or "\x80" <= ch <= "\x9f":
            end = i + 1
        else:
            plain.append(ch)
            i += 1
            continue
        flush()
        pieces.append((kind, text[i:end]))
        i = end
    flush()
    return pieces


def visible_text(text: str) -> str:
    """The prompt as it takes room on the screen (escapes and controls removed)."""
    return "".join(piece for kind, piece in split_escapes(text) if kind == "text")


def strip_colours(text: str) -> str:
    """The prompt without its SGR colour sequences (NO_COLOR); other escapes stay."""
    return "".join(piece for kind, piece in split_escapes(text) if kind != "sgr")
