"""A fresh line for the prompt after output that did not end one (zsh's PROMPT_SP).

Design note. The problem: ``printf TOKEN`` (``echo -n``, JSON from curl, ``kubectl -o
jsonpath``) leaves the cursor after the text; the line editor draws its prompt assuming column
0, so the typed line is drawn over the prompt and, at Enter, the editor's redraw erases the
output for good, from the screen and the scrollback. What does not work: always printing a
newline (an empty line after every command); asking the terminal where the cursor is (a
reply that races with typed-ahead keys, and terminals that never answer); tracking the column
exactly (that needs a whole terminal emulator: tabs, wide characters, cursor movement, full
screen programs). The chosen approach, zsh's and fish's: ``LineEnd`` knows only when the
cursor is *certainly* at the start of a line — the output ended with CR or CR LF, perhaps
followed by colour (SGR) or OSC sequences, which never move the cursor. Otherwise
``fresh_line`` writes a reverse-video ``%`` and then enough spaces to fill the window's width
exactly, then CR, a space and CR: when the cursor was at column 0 the mark and spaces fill
this line without wrapping and are overwritten (nothing shows); when it was not, the spaces
wrap onto a new line, the prompt starts there and the mark stays after the output, as in zsh.
"""

from __future__ import annotations

import re

TAIL = 256  # bytes of output kept to judge the end of the last line
# colour and OSC sequences (title, cwd, marks, links) at the very end of the output
INERT_END = re.compile(rb"(?:\x1b\[[0-9;:]*m|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\))+\Z")
MARK = b"\x1b[7m%\x1b[27m"  # what zsh shows: the output did not end its line


class LineEnd:
    """Whether the cursor is certainly at the start of a line after the output fed so far."""

    def __init__(self) -> None:
        self.tail = b"\r\n"

    def start_line(self) -> None:
        """The cursor is at the start of a line now (the editor left it there)."""
        self.tail = b"\r\n"

    def feed(self, data: bytes) -> None:
        if data:
            self.tail = (self.tail + data)[-TAIL:]

    def at_line_start(self) -> bool:
        return INERT_END.sub(b"", self.tail).endswith((b"\r\n", b"\r"))


def fresh_line(columns: int, dumb: bool = False) -> bytes:
    """What puts the cursor at the start of a fresh line without losing partial output."""
    if dumb:  # no escape sequences, no idea of the width: a newline
        return b"\r\n"
    return b"\x1b[0m" + MARK + b" " * max(0, columns - 1) + b"\r \r"
