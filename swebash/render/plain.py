"""Plain-text output of an AI turn for non-interactive use (`swebash -c '? q'`, piped input).

The answer's text goes to ``out`` exactly as it streams (no markdown rendering, no ANSI) so it
can be piped into another program; everything about tools goes to ``err``, one line per event,
so ``out`` stays the answer alone::

    [tool] $ ls -la
    [tool] exit 0 · 3 lines · 12 ms
    [retry] attempt 2 in 1.0 s: rate limited
    [error] provider unreachable

Tool descriptions and messages are made visible (a model-chosen command must not be able to
send escape sequences to the user's terminal through stderr either).
"""

from __future__ import annotations

from typing import TextIO

from swebash.api import (
    AiEvent,
    Delta,
    Done,
    Error,
    Retrying,
    ToolCallEnd,
    ToolCallStart,
    ToolExecuting,
    Usage,
)
from swebash.render.panels import describe
from swebash.render.results import format_duration, view_result
from swebash.render.visible import make_visible

# Control characters other than newline and tab are dropped from the answer: a raw ESC or CR
# from the model could recolour or overwrite the user's terminal. Deltas may split a sequence,
# so the characters are dropped one by one rather than parsed as sequences.
_CONTROL_DROP = {code: None for code in [*range(0x00, 0x09), *range(0x0B, 0x20),
                                          *range(0x7F, 0xA0)]}


class PlainPrinter:
    """Writes AI events as plain text: the answer on ``out``, tool activity on ``err``."""

    def __init__(self, out: TextIO, err: TextIO) -> None:
        self.out = out
        self.err = err
        self._at_line_start = True  # whether ``out`` ends with a newline (or nothing yet)
        self._wrote_answer = False

    def handle(self, event: AiEvent) -> None:
        if isinstance(event, Delta):
            self.delta(event.text)
        elif isinstance(event, ToolCallStart):
            self._end_answer_line()
            self._note(f"[tool] {describe(event)}")
        elif isinstance(event, ToolCallEnd):
            view = view_result(event, max_lines=0)
            status = "" if event.ok else "failed: "
            extra = " · truncated" if view.truncated else ""
            self._note(f"[tool] {status}{make_visible(view.headline)}{extra}")
        elif isinstance(event, Retrying):
            reason = f": {make_visible(event.reason)}" if event.reason else ""
            self._note(f"[retry] attempt {event.attempt} in "
                       f"{format_duration(event.delay * 1000)}{reason}")
        elif isinstance(event, Error):
            self._end_answer_line()
            self._note(f"[error] {make_visible(event.message)}")
        elif isinstance(event, Done):
            self.done(event.reply)
        elif isinstance(event, (ToolExecuting, Usage)):
            pass  # nothing to say in plain output: the start line already names the tool

    def delta(self, text: str) -> None:
        text = text.translate(_CONTROL_DROP)
        if not text:
            return
        self.out.write(text)
        self.out.flush()
        self._at_line_start = text.endswith("\n")
        self._wrote_answer = True

    def done(self, reply: str = "") -> None:
        """End of the turn: print the reply if nothing streamed, and end with a newline."""
        if not self._wrote_answer and reply:
            self.delta(reply)
        self._end_answer_line()
        self._wrote_answer = False

    def _end_answer_line(self) -> None:
        if not self._at_line_start:
            self.out.write("\n")
            self.out.flush()
            self._at_line_start = True

    def _note(self, line: str) -> None:
        self.err.write(line + "\n")
        self.err.flush()
