"""Tool activity: one compact panel per call, a spinner while it runs, one-line notices.

A call is drawn once, when it has finished — its command, then its result — so parallel calls
can never leave a row of unlabelled result boxes::

    ╭─ execute_command ─ ✗ exit 2 · 60 lines · 12 ms ─────────╮
    │ $ make test                                              │
    │ … 55 earlier lines                                       │
    │ error: test_foo failed                                   │
    ╰──────────────────────────────────────────────────────────╯

``✓`` only for a call that worked and exited 0; anything else is a red ``✗``. A failure shows
the last lines (that is where errors are), a success the first; the shown lines plus the
"… N more/earlier lines" always add up to the count in the headline. While calls run, the live
region shows a spinner naming them with the seconds elapsed; a retry wait counts down.

Everything printed is made inert first (``swebash.safety.display``): a command or its output
must not be able to send escape sequences to the terminal. Spinners exist only on interactive
terminals; elsewhere they are no-ops.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from types import TracebackType

from rich import box
from rich.console import Console, Group, RenderableType
from rich.panel import Panel
from rich.text import Text

from swebash.api import Error, Retrying, ToolCallEnd, ToolCallStart, ToolExecuting
from swebash.render import theme
from swebash.render.results import format_duration, plural, view_result
from swebash.render.terminal import LiveTerminal, rows_of
from swebash.safety.display import clean_output_line, make_visible, one_line

FRAMES = "⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏"


class Spinner:
    """A spinner row at the bottom of the live region: "⠙ running make test · 4 s"."""

    def __init__(self, console: Console, *, terminal: LiveTerminal | None = None,
                 clock: Callable[[], float] | None = None) -> None:
        self.console = console
        self.terminal = terminal or LiveTerminal(console, clock=clock or time.monotonic)
        self._clock = clock or self.terminal.clock
        self._text = ""
        self._started = 0.0
        self._deadline: float | None = None
        self._active = False

    @property
    def active(self) -> bool:
        return self._active

    def start(self, text: str = "thinking…", *, countdown: float | None = None,
              since: float | None = None) -> None:
        """Show the spinner with ``text`` (or change its text); ``countdown`` in seconds;
        ``since``: the clock time the wait began (elapsed seconds count from it)."""
        if not self.terminal.live_enabled:
            return
        with self.terminal.lock:
            if not self._active or text != self._text:
                self._started = self._clock() if since is None else since
            self._text = text
            self._deadline = self._started + countdown if countdown is not None else None
            self._active = True
            self.terminal.add_source(self.rows)
            self.terminal.redraw()

    def stop(self) -> None:
        with self.terminal.lock:
            if not self._active:
                return
            self._active = False
            self.terminal.remove_source(self.rows)
            self.terminal.redraw()

    def line(self) -> str:
        """The spinner's text right now (frame, label, elapsed or remaining seconds)."""
        now = self._clock()
        frame = FRAMES[int(now * 10) % len(FRAMES)]
        if self._deadline is not None:
            return f"{frame} {self._text} {max(0, round(self._deadline - now))} s"
        elapsed = int(now - self._started)
        return f"{frame} {self._text}" + (f" · {elapsed} s" if elapsed >= 1 else "")

    def rows(self, width: int, max_rows: int) -> list[str]:
        if not self._active:
            return []
        text = Text(self.line(), style=theme.DIM, no_wrap=True, overflow="ellipsis")
        return rows_of(self.console, text, width, live=True)[:1]

    def __enter__(self) -> Spinner:
        self.start()
        return self

    def __exit__(self, exc_type: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        self.stop()


def describe(event: ToolCallStart, max_chars: int = 200) -> str:
    """The call's one-line label: the tool's own description, else its name and arguments."""
    if event.description:
        text = event.description
    else:
        args = json.dumps(dict(event.arguments), ensure_ascii=False, default=str)
        text = f"{event.name} {args}"
    text = one_line(text)
    return text if len(text) <= max_chars else text[: max_chars - 1] + "…"


class ToolPanels:
    """Draws tool events; one instance per console, reused across turns."""

    def __init__(self, console: Console, *, max_lines: int = 5,
                 spinner: Spinner | None = None, terminal: LiveTerminal | None = None) -> None:
        self.console = console
        self.max_lines = max_lines
        self.spinner = spinner or Spinner(console, terminal=terminal)
        self.terminal = terminal or self.spinner.terminal
        self._calls: dict[str, ToolCallStart] = {}  # started, not yet ended, by call id
        self._order: list[str] = []

    def start(self, event: ToolCallStart) -> None:
        """Remember the call; it is drawn with its result (a confirmation shows it earlier)."""
        key = event.call_id or f"{event.name}#{len(self._order)}"
        self._calls[key] = event
        self._order.append(key)

    def executing(self, event: ToolExecuting) -> None:
        running = [self._calls[k] for k in self._order if k in self._calls]
        if len(running) <= 1:
            label = describe(running[0], 80) if running else one_line(event.name)
        else:
            label = f"{len(running)} calls: " + ", ".join(describe(c, 30) for c in running)
        self.spinner.start(f"running {label}")

    def end(self, event: ToolCallEnd) -> None:
        self.spinner.stop()
        start = self._pop(event)
        self.terminal.print(self.result_renderable(event, start))

    def _pop(self, event: ToolCallEnd) -> ToolCallStart | None:
        key = event.call_id if event.call_id in self._calls else next(
            (k for k in self._order if k in self._calls and self._calls[k].name == event.name),
            None)
        if key is None:
            return None
        self._order.remove(key)
        return self._calls.pop(key)

    def result_renderable(self, event: ToolCallEnd,
                          start: ToolCallStart | None = None) -> RenderableType:
        view = view_result(event, self.max_lines)
        mark, style = ("✓", theme.OK) if view.ok else ("✗", theme.ERROR)
        title = Text.assemble((one_line(event.name), theme.TOOL), " ", (mark + " ", style),
                              (make_visible(view.headline), theme.DIM if view.ok else style))
        if view.truncated:
            title.append(" · output truncated", style=theme.NOTICE)
        body: list[RenderableType] = []
        if start is not None:  # at most about two rows: the prompt already showed it whole
            label = describe(start, max(40, 2 * (self.console.width - 4) - 24))
            body.append(Text(label, style="bold", overflow="fold"))
        more = Text(f"… {view.more} {'earlier' if view.tail else 'more'} "
                    f"{plural(view.more, 'line')}", style=theme.DIM)
        if view.more and view.tail:
            body.append(more)
        body.extend(Text(clean_output_line(line), no_wrap=True, overflow="ellipsis",
                         style="" if view.ok else "red") for line in view.lines)
        if view.more and not view.tail:
            body.append(more)
        if not body:
            return title
        border = theme.DIM if view.ok else theme.ERROR_BORDER
        return Panel(Group(*body), title=title, title_align="left", border_style=border,
                     box=box.ROUNDED, padding=(0, 1))

    def retrying(self, event: Retrying) -> None:
        reason = f": {one_line(event.reason)}" if event.reason else ""
        self.terminal.print(Text(f"↻ retrying (attempt {event.attempt}) in "
                                 f"{format_duration(event.delay * 1000)}{reason}",
                                 style=theme.NOTICE))
        self.spinner.start("retrying in", countdown=event.delay)

    def error(self, event: Error) -> None:
        self.spinner.stop()
        self.terminal.print(Text(f"✗ {one_line(event.message)}", style=theme.ERROR))
