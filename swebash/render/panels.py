"""Tool activity as compact rich panels, spinners, and one-line notices.

``ToolCallStart`` prints a small header panel (tool name as title, its describe_call line as
body: "$ ls -la", "read src/app.py"); ``ToolExecuting`` starts a spinner; ``ToolCallEnd`` stops
it and prints the result: a headline ("exit 0 · 3 lines · 12 ms") and the first lines of the
output with "… N more lines" and a marker when the tool truncated it — red when the call
failed. ``Retrying`` and ``Error`` are one line each.

Everything printed is made visible first (escape sequences, carriage returns and bidi
characters in a command or its output would otherwise act on the terminal). Spinners are rich
``Status`` live displays and only run on interactive terminals; elsewhere they are no-ops.
"""

from __future__ import annotations

import json
from types import TracebackType

from rich import box
from rich.console import Console, Group, RenderableType
from rich.panel import Panel
from rich.status import Status
from rich.text import Text

from swebash.api import Error, Retrying, ToolCallEnd, ToolCallStart, ToolExecuting
from swebash.render import theme
from swebash.render.results import format_duration, view_result
from swebash.render.visible import clean_output_line, make_visible


class Spinner:
    """A transient spinner line ("thinking…", "running execute_command…") the UI controls."""

    def __init__(self, console: Console, *, spinner: str = "dots") -> None:
        self.console = console
        self._spinner = spinner
        self._status: Status | None = None

    @property
    def active(self) -> bool:
        return self._status is not None

    def start(self, text: str = "thinking…") -> None:
        """Show the spinner with ``text`` (or change its text when already shown)."""
        if not self.console.is_interactive:
            return
        if self._status is not None:
            self._status.update(Text(text, style=theme.DIM))
            return
        self._status = Status(Text(text, style=theme.DIM), console=self.console,
                              spinner=self._spinner, spinner_style=theme.TOOL)
        self._status.start()

    def stop(self) -> None:
        status, self._status = self._status, None
        if status is not None:
            status.stop()  # transient: the spinner line is erased

    def __enter__(self) -> Spinner:
        self.start()
        return self

    def __exit__(self, exc_type: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        self.stop()


def describe(event: ToolCallStart, max_chars: int = 200) -> str:
    """The header line: the tool's own description, else its name and arguments."""
    if event.description:
        text = event.description
    else:
        args = json.dumps(dict(event.arguments), ensure_ascii=False, default=str)
        text = f"{event.name} {args}"
    text = make_visible(text)
    return text if len(text) <= max_chars else text[: max_chars - 1] + "…"


class ToolPanels:
    """Draws tool events; one instance per console, reused across turns."""

    def __init__(self, console: Console, *, max_lines: int = 5,
                 spinner: Spinner | None = None) -> None:
        self.console = console
        self.max_lines = max_lines
        self.spinner = spinner or Spinner(console)

    def start(self, event: ToolCallStart) -> None:
        self.spinner.stop()
        header = Text(describe(event), style="bold", overflow="fold")
        self.console.print(Panel(header, title=Text(event.name, style=theme.TOOL),
                                 title_align="left", border_style=theme.TOOL_BORDER,
                                 box=box.ROUNDED, expand=False, padding=(0, 1)))

    def executing(self, event: ToolExecuting) -> None:
        self.spinner.start(f"running {event.name}…")

    def end(self, event: ToolCallEnd) -> None:
        self.spinner.stop()
        self.console.print(self.result_renderable(event))

    def result_renderable(self, event: ToolCallEnd) -> RenderableType:
        view = view_result(event, self.max_lines)
        mark, style = ("✓", theme.OK) if view.ok else ("✗", theme.ERROR)
        headline = Text.assemble((f"{mark} ", style), (make_visible(view.headline),
                                                       style if not view.ok else theme.DIM))
        if view.truncated:
            headline.append(" · output truncated", style=theme.NOTICE)
        if not view.lines:
            return headline
        body: list[RenderableType] = [
            Text(clean_output_line(line), no_wrap=True, overflow="ellipsis",
                 style="" if view.ok else "red")
            for line in view.lines
        ]
        if view.more:
            body.append(Text(f"… {view.more} more line{'s' if view.more != 1 else ''}",
                             style=theme.DIM))
        border = theme.DIM if view.ok else theme.ERROR_BORDER
        return Panel(Group(*body), title=headline, title_align="left", border_style=border,
                     box=box.ROUNDED, padding=(0, 1))

    def retrying(self, event: Retrying) -> None:
        reason = f": {make_visible(event.reason)}" if event.reason else ""
        self.console.print(Text(f"↻ retrying (attempt {event.attempt}) in "
                                f"{format_duration(event.delay * 1000)}{reason}",
                                style=theme.NOTICE))

    def error(self, event: Error) -> None:
        self.spinner.stop()
        self.console.print(Text(f"✗ {make_visible(event.message)}", style=theme.ERROR))

    def handle(self, event: object) -> bool:
        """Draw ``event`` if it is a tool event, retry or error; False for anything else."""
        if isinstance(event, ToolCallStart):
            self.start(event)
        elif isinstance(event, ToolExecuting):
            self.executing(event)
        elif isinstance(event, ToolCallEnd):
            self.end(event)
        elif isinstance(event, Retrying):
            self.retrying(event)
        elif isinstance(event, Error):
            self.error(event)
        else:
            return False
        return True
