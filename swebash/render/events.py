"""One AI turn drawn on an interactive terminal: events in, terminal out.

``TerminalRenderer`` is the piece the REPL holds: it routes each ``AiEvent`` to the markdown
stream, the tool panels and the spinner. All three draw through one ``LiveTerminal`` — the
only writer to the terminal during a turn — so they cannot draw over each other: the open
markdown block and the spinner are rows of its one live region, everything final is committed
above it. Before anything else is printed (a panel, a notice, a confirmation) the open markdown
block is finished, so output always appears in the order the events happened. ``PlainPrinter``
is its non-interactive twin.
"""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING, TextIO

from rich.console import Console, RenderableType
from rich.text import Text

from swebash.api import (
    AiEvent,
    ConfirmAnswer,
    ConfirmHook,
    ConfirmRequest,
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
from swebash.render import theme
from swebash.render.confirm import ask_confirm
from swebash.render.panels import Spinner, ToolPanels
from swebash.render.stream import MarkdownStream
from swebash.render.terminal import LiveTerminal
from swebash.render.theme import RenderSettings
from swebash.visible import one_line

if TYPE_CHECKING:
    from swebash.config import Config

IDLE_SECONDS = 1.0  # quiet this long mid-turn and the spinner comes back, counting


class TerminalRenderer:
    """Draws the events of AI turns on ``console``; reused from turn to turn."""

    def __init__(self, console: Console, *, terminal: LiveTerminal | None = None,
                 settings: RenderSettings | None = None) -> None:
        self.console = console
        self.settings = settings or RenderSettings()
        self.terminal = terminal or LiveTerminal(console)
        self.stream = MarkdownStream(console, terminal=self.terminal,
                                     hyperlinks=self.settings.hyperlinks)
        self.spinner = Spinner(console, terminal=self.terminal)
        self.panels = ToolPanels(console, spinner=self.spinner, terminal=self.terminal,
                                 style=self.settings.tools)
        self._in_turn = False
        self._asking = False  # a confirmation is waiting for its key
        self._last_event = 0.0
        self._args_since: float | None = None  # when this call's arguments began to arrive
        self._after_tools = False  # tool rows were printed since the answer's last text

    @classmethod
    def for_config(cls, config: Config, file: TextIO | None = None) -> TerminalRenderer:
        """The renderer for a loaded configuration, drawing on ``file`` (stdout when None)."""
        return cls(theme.console_for(config, file), settings=theme.settings_for(config))

    def print(self, *renderables: RenderableType) -> None:
        """Print final output (a notice, a translation) above anything live."""
        self.terminal.print(*renderables)

    def begin_turn(self) -> None:
        """Call when the request is sent: shows "thinking…" until the first event."""
        self._in_turn = True
        self._last_event = self.terminal.clock()
        self.terminal.on_tick(self._idle)
        self.terminal.hold(True)
        self.spinner.start("thinking…")

    def _idle(self) -> None:
        """On the ticker: the model went quiet (writing a long tool call, thinking) — say so."""
        quiet = self.terminal.clock() - self._last_event
        if (self._in_turn and not self._asking and not self.spinner.active
                and quiet >= IDLE_SECONDS):
            self.spinner.start("thinking…", since=self._last_event)

    def handle(self, event: AiEvent) -> None:
        self._last_event = self.terminal.clock()
        if isinstance(event, Delta):
            self.spinner.stop()
            if self._after_tools:  # the answer goes on below the tools' rows, set apart
                self._after_tools = False
                self.stream.separate()
            self.stream.feed(event.text)
        elif isinstance(event, ToolCallStart):
            self._args_since = None
            self.stream.finish()
            self.panels.start(event)
            self.spinner.start("preparing the call…")
        elif isinstance(event, ToolArgsStreaming):
            # A long write_file streams its arguments for seconds: show that it moves.
            if self._args_since is None:
                self._args_since = self.terminal.clock()
            what = f"writing the {one_line(event.name)} call" if event.name else "writing a call"
            self.spinner.start(f"{what} · {kilobytes(event.size)}", since=self._args_since)
        elif isinstance(event, ToolExecuting):
            self.panels.executing(event)
        elif isinstance(event, ToolCallEnd):
            self._after_tools = True
            self.panels.end(event)
            if not self.panels.running:
                self.spinner.start("thinking…")  # the model is reading the results
        elif isinstance(event, Retrying):
            self._settle()
            if self.terminal.live_enabled:  # one live line, replaced by the next, gone when
                self.spinner.start(retry_label(event), countdown=event.delay)  # text comes
            else:
                self.panels.retrying(event)  # nothing can be erased: a line per retry
        elif isinstance(event, Error):
            self._settle()
            self.panels.error(event)
        elif isinstance(event, Done):
            self.end_turn()
        elif isinstance(event, Notice):
            self._settle()
            self.print(Text(f"· {one_line(event.text)}", style=theme.DIM))
        elif isinstance(event, Usage):
            pass  # token counts belong to `ai stats`, not to the answer

    def end_turn(self) -> None:
        """Flush the answer and stop any spinner (also after Ctrl-C or an exception)."""
        self._in_turn = False
        self._after_tools = False
        self.terminal.hold(False)
        self._settle()

    def confirm(self, request: ConfirmRequest, fd: int) -> ConfirmAnswer:
        """Ask the inline y/N for ``request`` reading the key from terminal ``fd``."""
        self._settle()
        with self.terminal.lock:  # no spinner may appear after the question while it waits
            self._asking = True
        try:
            return ask_confirm(self.console, request, fd, terminal=self.terminal)
        finally:
            with self.terminal.lock:
                self._asking = False
                self._last_event = self.terminal.clock()

    def confirm_hook(self, fd: int) -> ConfirmHook:
        """The engine's ``ConfirmHook``: the blocking key read runs in a worker thread."""

        async def hook(request: ConfirmRequest) -> ConfirmAnswer:
            return await asyncio.to_thread(self.confirm, request, fd)

        return hook

    def _settle(self) -> None:
        with self.terminal.lock:
            self.spinner.stop()
            self.stream.finish()
        self.terminal.clear()


RETRY_REASON_CHARS = 40


def retry_label(event: Retrying) -> str:
    """The retry notice as a spinner line: why (the kind of failure, without the provider's
    name and details — the final error, if it comes, has those), which attempt; the countdown
    follows, so the whole line fits in one row."""
    parts = one_line(event.reason).split(": ")
    reason = parts[1] if len(parts) > 1 else parts[0]
    if len(reason) > RETRY_REASON_CHARS:
        reason = reason[: RETRY_REASON_CHARS - 1] + "…"
    return f"↻ {reason + ' — ' if reason else ''}retry {event.attempt} in"


def kilobytes(size: int) -> str:
    return f"{size / 1024:.1f} KB" if size < 1024 * 1024 else f"{size / 1024 / 1024:.1f} MB"
