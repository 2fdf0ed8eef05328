"""Incremental markdown for streamed AI answers.

Design note. The naive way to stream markdown — rich ``Live`` around ``Markdown(buffer)``,
re-rendered on every delta — is quadratic (191 s for a 2,400-token answer that renders once in
0.3 s) and, with the default vertical overflow, crops a tall answer to "…". Instead:

* every top-level block that can no longer change (see ``blocks.cut_finished``) is rendered
  ONCE with rich ``Markdown`` and printed into scrollback — it is never drawn again;
* only the open block is live: it is one source of the ``LiveTerminal``'s live region, drawn
  at most ``max_refresh_hz`` times a second from ``feed()`` and otherwise by the writer's
  ticker (so the last words before a pause in the stream are still drawn). When the open block
  is taller than the screen the region shows its tail; the block is printed whole once
  finished;
* consoles that are not interactive terminals (pipes, files, TERM=dumb) get no live region at
  all: finished blocks are printed as they complete and ``finish()`` prints the rest.

Every change of state — text appended, a block committed, the open block replaced — happens
under the writer's lock, so the ticker never sees a block both committed and still open.
Answer text is data: control characters are dropped before it is parsed (``inert_text``).
"""

from __future__ import annotations

import copy
import time
from collections.abc import Callable

from rich.console import Console
from rich.markdown import Markdown

from swebash.render.blocks import cut_finished, gap_after, inherits_gap, make_parser
from swebash.render.terminal import LiveTerminal, rows_of
from swebash.safety.display import inert_text

DEFAULT_REFRESH_HZ = 12.0


class OpenBlockView:
    """The open block's rows for the live region: its markdown rendered, the last rows kept.

    Renders are cached by (text, width, rows): a redraw with nothing new costs nothing.
    """

    def __init__(self, console: Console, make_markdown: Callable[[str], Markdown]) -> None:
        self.text = ""
        self.gap = False  # the block printed before asks for a blank line before a flat block
        self._console = console
        self._make_markdown = make_markdown
        self.renders = 0  # how many times the markdown was actually rendered (tests, bench)
        self._cache_key: tuple[str, bool, int, int] | None = None
        self._cache: list[str] = []

    def rows(self, width: int, max_rows: int) -> list[str]:
        text = self.text
        if text.lstrip(" ").startswith(("```", "~~~")):
            # Code is shown a whole line at a time: a code row is padded to the width with
            # its background, so redrawing it for every few characters is most of the traffic.
            text = text[: text.rfind("\n") + 1]
        key = (text, self.gap, width, max_rows)
        if key != self._cache_key:
            rows: list[str] = []
            if text.strip():
                self.renders += 1
                markdown = self._make_markdown(text)
                # Drawn with the blank line it will be printed with, so that once finished
                # its rows already on screen are the rows to print and need not be resent.
                rows = [""] if self.gap and inherits_gap(markdown.parsed) else []
                rows += rows_of(self._console, markdown, width, live=True)
            self._cache_key, self._cache = key, rows[-max_rows:]
        return self._cache


class MarkdownStream:
    """Feed markdown deltas; finished blocks go to scrollback once, the open block stays live."""

    def __init__(self, console: Console, *, max_refresh_hz: float = DEFAULT_REFRESH_HZ,
                 code_theme: str = "monokai",
                 clock: Callable[[], float] = time.monotonic,
                 live: bool | None = None, terminal: LiveTerminal | None = None) -> None:
        self.console = console
        self.terminal = terminal or LiveTerminal(console)
        self.code_theme = code_theme
        self._min_interval = 1.0 / max_refresh_hz
        self._clock = clock
        self._live_wanted = self.terminal.live_enabled if live is None else live
        self._parser = make_parser()
        # rich's Markdown builds a new parser per instance; copying one template and parsing
        # with a shared parser gives the same object for a fraction of the cost.
        self._template = Markdown("", code_theme=code_theme)
        self._view = OpenBlockView(console, self._markdown)
        self._pending = ""  # uncommitted text; always starts at a line boundary
        self._gap = False  # rich would put a blank line before the next block
        self._last_refresh = float("-inf")
        self._parts: list[str] = []
        self.refreshes = 0  # live redraws asked for by feed(), for tests and the benchmark

    @property
    def text(self) -> str:
        """Everything fed since the stream was created or last finished."""
        return "".join(self._parts)

    @property
    def live_renders(self) -> int:
        return self._view.renders

    def feed(self, text: str) -> None:
        """Add a delta: finished blocks are printed now, the open block redrawn (rate-limited)."""
        text = inert_text(text)
        if not text:
            return
        with self.terminal.lock:
            self._parts.append(text)
            self._pending += text
            if "\n" in text:
                cut = cut_finished(self._pending, self._parser)
                if cut.finished:
                    self._pending = cut.rest
                    self._view.text = cut.rest
                    self._print_block(cut.finished)
            if not self._live_wanted:
                return
            self._view.text = self._pending
            self.terminal.add_source(self._view.rows)
            now = self._clock()
            if now - self._last_refresh >= self._min_interval:
                self._last_refresh = now
                self.refreshes += 1
                self.terminal.redraw()

    def finish(self) -> None:
        """Print the open block, close the live region and start afresh for the next answer."""
        with self.terminal.lock:
            rest, self._pending = self._pending, ""
            self._view.text = ""
            self.terminal.remove_source(self._view.rows)
            if rest.strip():
                self._print_block(rest)
            else:
                self.terminal.redraw()
            self._gap = self._view.gap = False
            self._parts = []

    def __enter__(self) -> MarkdownStream:
        return self

    def __exit__(self, *exc: object) -> None:
        self.finish()

    # ------------------------------------------------------------------ internals

    def _markdown(self, text: str) -> Markdown:
        markdown = copy.copy(self._template)
        markdown.markup = text
        markdown.parsed = self._parser.parse(text)
        return markdown

    def _print_block(self, markdown: str) -> None:
        rendered = self._markdown(markdown)
        if self._gap and inherits_gap(rendered.parsed):
            self.terminal.print(rendered, blank_before=True)
        else:
            self.terminal.print(rendered)
        self._gap = self._view.gap = gap_after(rendered.parsed)
