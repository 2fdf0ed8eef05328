"""TERM=dumb: the line editor shows what is typed and edited with plain characters only.

Design note. A dumb terminal (Emacs' shell buffers, a serial console, ``TERM=dumb ssh``) moves
the cursor only with backspace and carriage return, and cannot erase. prompt-toolkit's own dumb
mode prints just the character before the cursor after each change, so backspace, Ctrl-U,
cursor keys and ↑ show something wrong, and it skips the prompt's pre-run hooks swebash needs.
Here prompt-toolkit runs as usual on an output that draws nothing (``DumbOutput``: its keys,
history, completion and hooks all work), and after each render ``DumbEcho`` writes to the
terminal how the line changed, as readline does on such a terminal: backspaces to go left, the
characters themselves to go right, spaces to blank what got shorter. A full redraw (a new
prompt, or after other output such as a background job's) writes the prompt and the line anew;
a line break in the input continues on a new line after ``> ``.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import Any

from prompt_toolkit import PromptSession
from prompt_toolkit.application import Application
from prompt_toolkit.formatted_text import fragment_list_to_text, to_formatted_text
from prompt_toolkit.output import DummyOutput
from prompt_toolkit.utils import get_cwidth


class DumbOutput(DummyOutput):
    """Draws nothing; notes when prompt-toolkit starts a full redraw."""

    def __init__(self) -> None:
        self.full_redraw = True

    def erase_down(self) -> None:
        self.full_redraw = True


def _width(text: str) -> int:
    return sum(get_cwidth(c) for c in text)


def edit(old: str, old_cursor: int, new: str, new_cursor: int) -> str:
    """Plain characters that turn the shown ``old`` line (cursor at ``old_cursor``) into
    ``new`` with the cursor at ``new_cursor``."""
    if old == new:  # the cursor moved
        if new_cursor < old_cursor:
            return "\b" * _width(new[new_cursor:old_cursor])
        return new[old_cursor:new_cursor]
    same = 0
    while same < min(len(old), len(new)) and old[same] == new[same]:
        same += 1
    out = []
    if old_cursor > same:
        out.append("\b" * _width(old[same:old_cursor]))
    else:
        out.append(new[old_cursor:same])
    out.append(new[same:])
    shorter = _width(old) - _width(new)
    if shorter > 0:
        out.append(" " * shorter + "\b" * shorter)
    out.append("\b" * _width(new[new_cursor:]))
    return "".join(out)


class DumbEcho:
    def __init__(self, output: DumbOutput, message: Callable[[], Any], fd: int = 1) -> None:
        self.output = output
        self.message = message
        self.fd = fd
        self.lines = 1  # lines of the input already shown
        self.text = ""  # the shown part of the input's last line
        self.cursor = 0
        self.prompted = False  # the prompt of this line is on the terminal

    def attach(self, session: PromptSession[str]) -> None:
        buffer = session.default_buffer

        def render(app: Application[Any]) -> None:
            self._render(buffer.text, buffer.cursor_position, app.is_done)

        session.app.after_render += render

    def _write(self, text: str) -> None:
        data = text.encode("utf-8", "replace")
        while data:
            try:
                data = data[os.write(self.fd, data):]
            except InterruptedError:
                continue
            except OSError:
                return

    def _render(self, text: str, cursor: int, done: bool) -> None:
        lines = text.split("\n")
        row = text.count("\n", 0, cursor)
        column = cursor - (len("\n".join(lines[:row])) + 1 if row else 0)
        out = []
        if self.output.full_redraw:
            self.output.full_redraw = False
            if not done or not self.prompted:  # a new prompt, or after other output
                prompt = fragment_list_to_text(to_formatted_text(self.message()))
                out.append(prompt.replace("\n", "\r\n"))
                self.lines, self.text, self.cursor = 1, "", 0
                self.prompted = True
        if done:  # the final state of the line, then the line ends
            out.append(self._diff(lines, len(lines[-1])) + "\r\n")
            self.lines, self.text, self.cursor = 1, "", 0
            self.prompted = False
        else:
            out.append(self._diff(lines, column if row == len(lines) - 1 else len(lines[-1])))
        self._write("".join(out))

    def _diff(self, lines: list[str], column: int) -> str:
        out = []
        while self.lines < len(lines):  # the input grew a line: finish this one, go on
            out.append(edit(self.text, self.cursor, lines[self.lines - 1],
                            len(lines[self.lines - 1])) + "\r\n> ")
            self.lines += 1
            self.text, self.cursor = "", 0
        new = lines[-1] if self.lines == len(lines) else lines[self.lines - 1]
        out.append(edit(self.text, self.cursor, new, min(column, len(new))))
        self.text, self.cursor = new, min(column, len(new))
        return "".join(out)
