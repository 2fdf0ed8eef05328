"""Incremental markdown for streamed AI answers.

Design note. The naive way to stream markdown — rich ``Live`` around ``Markdown(buffer)``,
re-rendered on every delta — is quadratic (191 s for a 2,400-token answer that renders once in
0.3 s) and, with the default vertical overflow, crops a tall answer to "…". Instead:

* every top-level block that can no longer change (see ``blocks.cut_finished``) is rendered
  ONCE with rich ``Markdown`` and printed into scrollback — it is never drawn again;
* only the open block is live: a transient rich ``Live`` showing just that block, refreshed at
  most ``max_refresh_hz`` times a second and only when its text changed. When the open block is
  taller than the screen, the live region shows its tail (a live region taller than the screen
  cannot be redrawn in place); the block is printed whole once it is finished;
* consoles that are not interactive terminals (pipes, files, TERM=dumb) get no live region at
  all: finished blocks are printed as they complete and ``finish()`` prints the rest.

The live region is refreshed from ``feed()``; a delta that arrives inside the rate limit leaves
the region dirty and arms a one-shot timer, so the last words before a pause in the stream are
still drawn. The timer thread only calls ``Live.refresh``, which rich guards with its own lock
(the same way its auto-refresh thread works).
"""

from __future__ import annotations

import copy
import threading
import time
from collections.abc import Callable

from rich.console import Console, ConsoleOptions, RenderResult
from rich.live import Live
from rich.markdown import Markdown
from rich.segment import Segment

from swebash.render.blocks import cut_finished, gap_after, inherits_gap, make_parser

DEFAULT_REFRESH_HZ = 12.0


class OpenBlockView:
    """A renderable showing the open block's markdown, cropped to the screen's last lines.

    Renders are cached by (text, width, height): a refresh with nothing new costs nothing.
    """

    def __init__(self, make_markdown: Callable[[str], Markdown]) -> None:
        self.text = ""
        self._make_markdown = make_markdown
        self.renders = 0  # how many times the markdown was actually rendered (tests, bench)
        self._cache_key: tuple[str, int, int] | None = None
        self._cache: list[list[Segment]] = []

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        text = self.text
        max_lines = max(1, console.size.height - 1)
        key = (text, options.max_width, max_lines)
        if key != self._cache_key:
            lines: list[list[Segment]] = []
            if text.strip():
                self.renders += 1
                rendered = self._make_markdown(text)
                lines = console.render_lines(rendered, options.update(height=None), pad=False)
                while lines and not "".join(s.text for s in lines[-1]).strip():
                    lines.pop()  # rich ends blocks with a blank line; not wanted live
            self._cache_key, self._cache = key, lines[-max_lines:]
        newline = Segment.line()
        for index, line in enumerate(self._cache):
            if index:
                yield newline
            yield from line


class MarkdownStream:
    """Feed markdown deltas; finished blocks go to scrollback once, the open block stays live."""

    def __init__(self, console: Console, *, max_refresh_hz: float = DEFAULT_REFRESH_HZ,
                 code_theme: str = "monokai",
                 clock: Callable[[], float] = time.monotonic,
                 live: bool | None = None) -> None:
        self.console = console
        self.code_theme = code_theme
        self._min_interval = 1.0 / max_refresh_hz
        self._clock = clock
        self._live_wanted = console.is_interactive if live is None else live
        self._parser = make_parser()
        # rich's Markdown builds a new parser per instance; copying one template and parsing
        # with a shared parser gives the same object for a fraction of the cost.
        self._template = Markdown("", code_theme=code_theme)
        self._view = OpenBlockView(self._markdown)
        self._live: Live | None = None
        self._lock = threading.Lock()
        self._timer: threading.Timer | None = None
        self._pending = ""  # uncommitted text; always starts at a line boundary
        self._gap = False  # rich would put a blank line before the next block
        self._dirty = False
        self._last_refresh = float("-inf")
        self._parts: list[str] = []
        self.refreshes = 0  # live redraws, for tests and the benchmark

    @property
    def text(self) -> str:
        """Everything fed since the stream was created or last finished."""
        return "".join(self._parts)

    @property
    def live_renders(self) -> int:
        return self._view.renders

    def feed(self, text: str) -> None:
        """Add a delta: finished blocks are printed now, the open block redrawn (rate-limited)."""
        if not text:
            return
        self._parts.append(text)
        self._pending += text
        if "\n" in text:
            cut = cut_finished(self._pending, self._parser)
            if cut.finished:
                self._pending = cut.rest
                self._view.text = cut.rest
                self._print_block(cut.finished)
        if self._live_wanted:
            self._view.text = self._pending
            self._dirty = True
            self._refresh_live(force=False)

    def finish(self) -> None:
        """Print the open block, close the live region and start afresh for the next answer."""
        with self._lock:  # a timer firing from now on finds nothing to draw
            self._dirty = False
            timer, self._timer = self._timer, None
            live, self._live = self._live, None
        if timer is not None:
            timer.cancel()
        rest, self._pending = self._pending, ""
        self._view.text = ""
        if live is not None:
            live.stop()  # transient: the live copy of the open block is erased
        if rest.strip():
            self._print_block(rest)
        self._gap = False
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
            self.console.print()
        self.console.print(rendered)
        self._gap = gap_after(rendered.parsed)

    def _refresh_live(self, *, force: bool) -> None:
        with self._lock:
            if not self._dirty:
                return
            now = self._clock()
            wait = self._last_refresh + self._min_interval - now
            if wait > 0 and not force:
                if self._timer is None:
                    self._timer = threading.Timer(wait, self._on_timer)
                    self._timer.daemon = True
                    self._timer.start()
                return
            if self._live is None:
                self._live = Live(self._view, console=self.console, auto_refresh=False,
                                  transient=True, redirect_stdout=False,
                                  redirect_stderr=False, vertical_overflow="visible")
                self._live.start()
            self._dirty = False
            self._last_refresh = now
            self.refreshes += 1
            live = self._live
        live.refresh()

    def _on_timer(self) -> None:
        with self._lock:
            self._timer = None
        self._refresh_live(force=True)
