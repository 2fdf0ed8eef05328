"""Plain-text output of an AI turn for non-interactive use (`swebash -c '? q'`, piped input).

The answer's text goes to ``out`` exactly as it streams (no markdown rendering, no ANSI) so it
can be piped into another program; everything about tools goes to ``err``, one line per event,
so ``out`` stays the answer alone::

    [tool] $ ls -la
    [tool] exit 0 · 3 lines · 12 ms
    [tool] $ rm -rf ~
    [tool] ✗ refused: deletes your home directory
    [tool] $ sleep 2
    [tool] $ echo fast
    [tool] $ echo fast → exit 0 · 1 line · 3 ms

Parallel calls end in the order they finish, so while more than one is outstanding a result
line names its call.
    [retry] attempt 2 in 1.0 s: rate limited
    [error] provider unreachable

Tool descriptions and messages are made visible (a model-chosen command must not be able to
send escape sequences to the user's terminal through stderr either).
"""

from __future__ import annotations

import json
from typing import TextIO

from swebash.api import (
    AiEvent,
    Delta,
    Done,
    Error,
    Notice,
    Retrying,
    ToolArgsStreaming,
    ToolCallEnd,
    ToolCallStart,
    ToolExecuting,
    Usage,
)
from swebash.render.panels import describe
from swebash.render.results import format_duration, view_result
from swebash.visible import inert_text, one_line


def sandbox_blocked(result: str) -> str | None:
    """What the sandbox stopped, from a tool result's JSON (``tools/exec.py``)."""
    try:
        data = json.loads(result)
    except ValueError:
        return None
    value = data.get("sandbox_blocked") if isinstance(data, dict) else None
    return value if isinstance(value, str) else None


class PlainPrinter:
    """Writes AI events as plain text: the answer on ``out``, tool activity on ``err``."""

    def __init__(self, out: TextIO, err: TextIO) -> None:
        self.out = out
        self.err = err
        self._at_line_start = True  # whether ``out`` ends with a newline (or nothing yet)
        self._wrote_answer = False
        self._pending: dict[str, str] = {}  # started calls not ended yet: id → label

    def handle(self, event: AiEvent) -> None:
        if isinstance(event, Delta):
            self.delta(event.text)
        elif isinstance(event, ToolCallStart):
            self._end_answer_line()
            label = describe(event)
            self._pending[event.call_id or f"{event.name}#{len(self._pending)}"] = label
            self._note(f"[tool] {label}")
        elif isinstance(event, ToolCallEnd):
            several = len(self._pending) > 1
            label = self._pop(event)
            view = view_result(event, max_lines=1)
            extra = " · truncated" if view.truncated else ""
            # A failure says why (the gate's reason, the last line of stderr), on one line.
            why = f": {one_line(view.lines[-1])}" if not view.ok and view.lines else ""
            which = f"{label} → " if several and label else ""
            self._note(f"[tool] {which}{'' if view.ok else '✗ '}{one_line(view.headline)}"
                       f"{extra}{why}")
            blocked = sandbox_blocked(event.result)
            if blocked:  # nobody can be asked here: say it, and how to lift it
                self._note(f"[sandbox] blocked {one_line(blocked)}; not run again outside it "
                           "(SWEBASH_AI_SANDBOX=off lifts the sandbox)")
        elif isinstance(event, Retrying):
            reason = f": {one_line(event.reason)}" if event.reason else ""
            self._note(f"[retry] attempt {event.attempt} in "
                       f"{format_duration(event.delay * 1000)}{reason}")
        elif isinstance(event, Error):
            self._end_answer_line()
            self._note(f"[error] {one_line(event.message)}")
        elif isinstance(event, Notice):
            self._end_answer_line()
            self._note(f"[note] {one_line(event.text)}")
        elif isinstance(event, Done):
            self._pending.clear()
            self.done(event.reply)
        elif isinstance(event, (ToolExecuting, ToolArgsStreaming, Usage)):
            pass  # nothing to say in plain output: the start line already names the tool

    def _pop(self, event: ToolCallEnd) -> str:
        key = event.call_id if event.call_id in self._pending else next(
            (k for k in self._pending if k.startswith(event.name + "#")), None)
        return self._pending.pop(key, "") if key is not None else ""

    def delta(self, text: str) -> None:
        text = inert_text(text)  # a raw ESC or CR from the model must not reach a terminal
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
