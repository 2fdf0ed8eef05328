"""Tool activity: one call drawn when it finishes, a spinner while calls run, one-line notices.

The compact display (the default; ``[ui] tools = "compact"``) gives a call one header row —
its mark, its whole command and its status — and at most a few rows of output::

    ✓ $ git status --short · exit 0 · 35 ms
      ?? README.md
      ?? src/
    ✓ read src/app.py · 120 lines · 1 ms
    ✓ search /TODO/ in src · 120 matches in 1 file · 5 ms
      src/app.py:1: line 1 # TODO maybe
      src/app.py:2: line 2 # TODO maybe  … +118 matches
    ✗ $ make test · exit 2 · 1.2 s
      … +57 lines
      FAILED tests/test_x.py::test_y

Nothing is drawn to the right margin, so nothing breaks when the window narrows, and the
command is never cut: it is written whole and the terminal wraps it, so selecting it gives
exactly the command (a multi-line command keeps its lines, unindented). ``✓`` only for a call
that worked and exited 0; anything else is a red ``✗``, and shows its last lines (that is where
errors are). The boxed display (``[ui] tools = "boxed"``) draws the same in a rounded panel.

Calls that run in parallel are each drawn as they finish, while the spinner below goes on
naming those still running, with the seconds since they started — the count is never cut, the
names are. Everything printed is made inert first (``swebash.visible``): a command or
its output must not be able to send escape sequences to the terminal. Spinners exist only on
interactive terminals; elsewhere they are no-ops.
"""

from __future__ import annotations

import dataclasses
import json
import time
from collections.abc import Callable
from types import TracebackType

from rich import box
from rich.cells import cell_len
from rich.console import Console, ConsoleOptions, Group, RenderableType, RenderResult
from rich.panel import Panel
from rich.text import Text

from swebash.api import Error, Retrying, ToolCallEnd, ToolCallStart, ToolExecuting
from swebash.render import theme
from swebash.render.results import ResultView, format_duration, view_result
from swebash.render.terminal import LiveTerminal, rows_of
from swebash.visible import clean_output_line, make_visible, one_line

FRAMES = "⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏"
TOOL_STYLES = ("compact", "boxed")
COMPACT_LINES = 2  # output rows of a call that worked
COMPACT_FAIL_LINES = 3  # output rows of a call that failed: its last ones


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
              since: float | None = None, redraw: bool = True) -> None:
        """Show the spinner with ``text`` (or change its text); ``countdown`` in seconds;
        ``since``: the clock time the wait began (elapsed seconds count from it); not
        ``redraw``: with the caller's next frame."""
        if not self.terminal.live_enabled:
            return
        with self.terminal.lock:
            if since is not None:
                self._started = since
            elif not self._active or text != self._text:
                self._started = self._clock()
            self._text = text
            self._deadline = self._started + countdown if countdown is not None else None
            self._active = True
            self.terminal.add_source(self.rows)
            if redraw:
                self.terminal.redraw()

    def stop(self, *, redraw: bool = True) -> None:
        with self.terminal.lock:
            if not self._active:
                return
            self._active = False
            self.terminal.remove_source(self.rows)
            if redraw:
                self.terminal.redraw()

    def parts(self) -> tuple[str, str]:
        """(frame and label, the seconds) of the spinner right now."""
        now = self._clock()
        frame = FRAMES[int(now * 10) % len(FRAMES)]
        if self._deadline is not None:
            return f"{frame} {self._text}", f" {max(0, round(self._deadline - now))} s"
        elapsed = int(now - self._started)
        return f"{frame} {self._text}", (f" · {elapsed} s" if elapsed >= 1 else "")

    def line(self) -> str:
        """The spinner's text right now (frame, label, elapsed or remaining seconds)."""
        return "".join(self.parts())

    def rows(self, width: int, max_rows: int) -> list[str]:
        if not self._active:
            return []
        label, seconds = self.parts()
        text = SuffixedLine(label, seconds, style=theme.DIM)
        return rows_of(self.console, text, width, live=True)[:1]

    def __enter__(self) -> Spinner:
        self.start()
        return self

    def __exit__(self, exc_type: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        self.stop()


class SuffixedLine:
    """One row: ``text`` cut with "…" where needed so that ``suffix`` always fits whole."""

    def __init__(self, text: str, suffix: str, *, style: str = "",
                 suffix_style: str | None = None) -> None:
        self.text = text
        self.suffix = suffix
        self.style = style
        self.suffix_style = style if suffix_style is None else suffix_style

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        room = max(1, options.max_width - cell_len(self.suffix))
        line = Text(self.text, style=self.style, no_wrap=True, overflow="ellipsis", end="")
        line.truncate(room, overflow="ellipsis")
        line.append(self.suffix, style=None if self.suffix_style == self.style
                    else self.suffix_style)
        line.no_wrap, line.end = True, "\n"
        yield line


MCP_LABEL = "MCP "  # how an MCP call's label starts (tools/mcp.py, McpTool.describe_call)


def describe(event: ToolCallStart, max_chars: int = 200) -> str:
    """The call's one-line label: the tool's own description, else its name and arguments."""
    text = one_line(_label_text(event))
    return text if len(text) <= max_chars else text[: max_chars - 1] + "…"


def call_label(event: ToolCallStart | None, name: str) -> list[str]:
    """The call's whole label (a command with all its lines), made visible, line by line."""
    if event is None:
        return [one_line(name)]
    text = make_visible(_label_text(event)).expandtabs(4).rstrip("\n")
    return text.split("\n") or [""]


def tool_title(event: ToolCallEnd, start: ToolCallStart | None) -> str:
    """The tool's name for people: an MCP tool under its server's own names ("big · a.b",
    as its label says "MCP big · a.b {…}"), not the one made up for the model
    (``mcp__big__a_b_a1e841``); any other tool under its name."""
    if event.name.startswith("mcp__") and start is not None and \
            start.description.startswith(MCP_LABEL):
        return one_line(start.description.removeprefix(MCP_LABEL).split(" {", 1)[0])
    return one_line(event.name)


def _label_text(event: ToolCallStart) -> str:
    if event.description:
        return event.description
    args = json.dumps(dict(event.arguments), ensure_ascii=False, default=str)
    return f"{event.name} {args}"


class ToolPanels:
    """Draws tool events; one instance per console, reused across turns."""

    def __init__(self, console: Console, *, max_lines: int = 5,
                 spinner: Spinner | None = None, terminal: LiveTerminal | None = None,
                 style: str = "compact") -> None:
        self.console = console
        self.max_lines = max_lines
        self.style = style if style in TOOL_STYLES else "compact"
        self.spinner = spinner or Spinner(console, terminal=terminal)
        self.terminal = terminal or self.spinner.terminal
        self._calls: dict[str, ToolCallStart] = {}  # started, not yet ended, by call id
        self._order: list[str] = []
        self._running: dict[str, float] = {}  # executing, by call id: since when

    @property
    def running(self) -> bool:
        """Some calls are still executing."""
        return bool(self._running)

    def start(self, event: ToolCallStart) -> None:
        """Remember the call; it is drawn with its result (a confirmation shows it earlier)."""
        key = event.call_id or f"{event.name}#{len(self._order)}"
        self._calls[key] = event
        self._order.append(key)

    def executing(self, event: ToolExecuting) -> None:
        key = self._key(event.call_id, event.name, running=False)
        if key is not None and key not in self._running:
            self._running[key] = self.terminal.clock()
        self._show_running(event.name)

    def _show_running(self, fallback: str = "", *, redraw: bool = True) -> None:
        running = [self._calls[k] for k in self._order if k in self._running and k in self._calls]
        if len(running) == 1:
            label = describe(running[0], 200)
        elif running:
            label = f"{len(running)} calls: " + ", ".join(describe(c, 60) for c in running)
        else:
            label = one_line(fallback)
        since = min(self._running.values()) if self._running else None
        self.spinner.start(f"running {label}", since=since, redraw=redraw)

    def end(self, event: ToolCallEnd) -> None:
        """The call's result, and the spinner naming the calls still running (parallel ones),
        in one frame: never a moment with the result and no spinner."""
        start = self._pop(event)
        with self.terminal.lock:
            self.spinner.stop(redraw=False)
            if self._running:
                self._show_running(redraw=False)
            self.terminal.print(self.result_renderable(event, start))

    def _key(self, call_id: str, name: str, *, running: bool | None = None) -> str | None:
        if call_id in self._calls:
            return call_id
        return next((k for k in self._order if k in self._calls and self._calls[k].name == name
                     and (running is None or (k in self._running) == running)), None)

    def _pop(self, event: ToolCallEnd) -> ToolCallStart | None:
        key = self._key(event.call_id, event.name)
        if key is None:
            return None
        self._order.remove(key)
        self._running.pop(key, None)
        return self._calls.pop(key)

    def result_renderable(self, event: ToolCallEnd,
                          start: ToolCallStart | None = None) -> RenderableType:
        if self.style == "boxed":
            return self._boxed(event, start)
        return self._compact(event, start)

    # ------------------------------------------------------------------ compact

    def _compact(self, event: ToolCallEnd, start: ToolCallStart | None) -> RenderableType:
        view = view_result(event, COMPACT_LINES, COMPACT_FAIL_LINES)
        mark, style = ("✓", theme.OK) if view.ok else ("✗", theme.ERROR)
        label = call_label(start, event.name)
        if view.measure and view.measure == " ".join(label):  # "task complete · task complete"
            view = dataclasses.replace(view, measure="")
        status = view.status + (" · output truncated" if view.truncated else "")
        rows: list[RenderableType] = []
        for number, line in enumerate(label):
            row = Text(no_wrap=True, overflow="ignore")  # whole: the terminal wraps it
            if number == 0:
                row.append(mark + " ", style)
            row.append(line, "bold")
            if number == len(label) - 1 and status:
                row.append(f" · {status}", theme.DIM if view.ok else style)
            rows.append(row)
        rows.extend(self._output_rows(view))
        return Group(*rows)

    @staticmethod
    def _output_rows(view: ResultView) -> list[RenderableType]:
        if not view.lines:
            return []
        rows: list[RenderableType] = []
        colour = "" if view.ok else "red"
        if view.more and view.tail:
            rows.append(Text(f"  … {view.more_text}", style=theme.DIM))
        for number, line in enumerate(view.lines):
            text = "  " + clean_output_line(line)
            if view.more and not view.tail and number == len(view.lines) - 1:
                rows.append(SuffixedLine(text, f"  … {view.more_text}", style=colour,
                                         suffix_style=theme.DIM))
            else:
                rows.append(SuffixedLine(text, "", style=colour))
        return rows

    # ------------------------------------------------------------------ boxed

    def _boxed(self, event: ToolCallEnd, start: ToolCallStart | None) -> RenderableType:
        view = view_result(event, self.max_lines)
        mark, style = ("✓", theme.OK) if view.ok else ("✗", theme.ERROR)
        title = Text.assemble((tool_title(event, start), theme.TOOL), " ", (mark + " ", style),
                              (make_visible(view.headline), theme.DIM if view.ok else style))
        if view.truncated:
            title.append(" · output truncated", style=theme.NOTICE)
        body: list[RenderableType] = []
        if start is not None:  # the whole command: folded, never cut
            body.append(Text("\n".join(call_label(start, event.name)), style="bold",
                             overflow="fold"))
        more = Text(f"… {view.more_text}", style=theme.DIM)
        if view.lines and view.more and view.tail:
            body.append(more)
        body.extend(Text(clean_output_line(line), no_wrap=True, overflow="ellipsis",
                         style="" if view.ok else "red") for line in view.lines)
        if view.lines and view.more and not view.tail:
            body.append(more)
        if not body:
            return title
        border = theme.DIM if view.ok else theme.ERROR_BORDER
        return Panel(Group(*body), title=title, title_align="left", border_style=border,
                     box=box.ROUNDED, padding=(0, 1))

    # ------------------------------------------------------------------ notices

    def retrying(self, event: Retrying) -> None:
        reason = f": {one_line(event.reason)}" if event.reason else ""
        self.terminal.print(Text(f"↻ retrying (attempt {event.attempt}) in "
                                 f"{format_duration(event.delay * 1000)}{reason}",
                                 style=theme.NOTICE))
        self.spinner.start("retrying in", countdown=event.delay)

    def error(self, event: Error) -> None:
        self.spinner.stop()
        self.terminal.print(Text(f"✗ {one_line(event.message)}", style=theme.ERROR))
