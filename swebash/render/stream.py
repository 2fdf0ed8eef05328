"""Incremental markdown for streamed AI answers.

Design note. The naive way to stream markdown — rich ``Live`` around ``Markdown(buffer)``,
re-rendered on every delta — is quadratic (191 s for a 2,400-token answer that renders once in
0.3 s) and, with the default vertical overflow, crops a tall answer to "…". Instead:

* every top-level block that can no longer change (see ``blocks.cut_finished``) is rendered
  ONCE and printed into scrollback — it is never drawn again;
* only the open block is live: it is one source of the ``LiveTerminal``'s live region, drawn
  at most ``max_refresh_hz`` times a second from ``feed()`` and otherwise by the writer's
  ticker (so the last words before a pause in the stream are still drawn). When the open block
  is taller than the screen the region shows its tail; the block is printed whole once
  finished;
* the rows of the open block that can no longer change are printed as soon as they are known
  (``OpenBlockView.settle``): each complete line of a top-level code block, and the rows of a
  top-level paragraph that wrapping only its settled text — up to the first character that a
  later one could still turn into markup (an unmatched ``*``, `````, ``[``, ``<``…) — puts a
  row after: greedy wrapping never changes a row once the word (or the piece of a word longer
  than a row) that did not fit on it is known, and more text only makes that word longer.
  (An ATX heading, and a paragraph followed by a blank line, are finished blocks at once:
  ``cut_finished``.) So the live region is a row or two, cheap to redraw, and a reader can
  scroll back to everything else. What remains of the block is drawn from the stored text at
  the width of the moment — after a resize the rest of the paragraph is wrapped at the new
  width;
* consoles that are not interactive terminals (pipes, files, TERM=dumb) get no live region at
  all: finished blocks are printed as they complete and ``finish()`` prints the rest.

Every change of state — text appended, a block committed, the open block replaced — happens
under the writer's lock, so the ticker never sees a block both committed and still open.
Answer text is data: control characters are dropped before it is parsed (``inert_text``).
"""

from __future__ import annotations

import time
from collections.abc import Callable

from markdown_it.token import Token
from rich._wrap import divide_line
from rich.console import Console

from swebash.render.blocks import cut_finished, gap_after, inherits_gap
from swebash.render.markdown import AnswerMarkdown, MarkdownMaker
from swebash.render.terminal import LiveTerminal, rows_of
from swebash.visible import inert_text

DEFAULT_REFRESH_HZ = 12.0

# Characters after which the text of a paragraph may still change: emphasis, code spans,
# links, autolinks and HTML, entities, escapes, tables ("|": the whole source line).
_MARKUP = frozenset("*_`[]<>~&\\|!")
_PLAIN_INLINE = frozenset({"text", "softbreak", "hardbreak", "code_inline", "em_open",
                           "em_close", "strong_open", "strong_close", "s_open", "s_close"})


class OpenBlockView:
    """The open block's rows: what is still live, and what of it is already in scrollback.

    Renders are cached by (text, state, width, rows): a redraw with nothing new costs nothing.
    """

    def __init__(self, console: Console, maker: MarkdownMaker) -> None:
        self.console = console
        self.maker = maker
        self.gap = False  # the block printed before asks for a blank line before a flat block
        self.renders = 0  # how many times the markdown was actually rendered (tests, bench)
        self._text = ""
        self._cache_key: tuple[object, ...] | None = None
        self._cache: list[str] = []
        self.reset("")

    def reset(self, text: str) -> None:
        """A new open block: nothing of it printed yet."""
        self._text = text
        self.started = False  # some rows of this block are in scrollback
        self._skip = 0  # paragraph: characters of its text already printed
        self._code_rows = 0  # code block: rows (rule and lines) already printed

    @property
    def text(self) -> str:
        return self._text

    @text.setter
    def text(self, text: str) -> None:
        self._text = text

    # ------------------------------------------------------------------ live rows

    def rows(self, width: int, max_rows: int) -> list[str]:
        text = self._text
        fence = _is_fence(text)
        if fence:  # a whole line at a time: a partial line may still be a closing fence
            text = text[: text.rfind("\n") + 1]
        key = (text, self.gap, self.started, self._skip, self._code_rows, width, max_rows)
        if key != self._cache_key:
            rows: list[str] = []
            if text.strip():
                self.renders += 1
                markdown = self.maker.make(text, paragraph_skip=self._skip)
                if fence:
                    rows = rows_of(self.console, markdown, width, live=True)
                    rows = rows[self._code_rows:-1]  # the closing rule comes when it is closed
                else:
                    rows = [""] if self._gap_due(markdown.parsed) else []
                    rows += rows_of(self.console, markdown, width, live=True)
            self._cache_key, self._cache = key, rows[-max_rows:]
        return self._cache

    def _gap_due(self, tokens: list[Token]) -> bool:
        # Drawn with the blank line it will be printed with, so that once finished its rows
        # already on screen are the rows to print and need not be resent.
        return not self.started and self.gap and inherits_gap(tokens)

    # ------------------------------------------------------------------ printing early

    def settle(self, width: int) -> list[str]:
        """Rows of the open block that can no longer change: taken out of the live region,
        for the caller to print now."""
        text = self._text
        if _is_fence(text):
            return self._settle_code(text[: text.rfind("\n") + 1], width)
        return self._settle_paragraph(text, width)

    def _settle_code(self, text: str, width: int) -> list[str]:
        tokens = self.maker.parse(text)
        if _top_level_types(tokens) != ["fence"]:
            return []
        rows = rows_of(self.console, self.maker.make(text, tokens=tokens), width, trim=False)
        done = len(rows) - 1  # all but the closing rule: it is drawn when the fence is closed
        if done <= self._code_rows:
            return []
        new = rows[self._code_rows:done]
        if not self.started and self.gap and inherits_gap(tokens):
            new.insert(0, "")
        self._code_rows, self.started = done, True
        return new

    def _settle_paragraph(self, text: str, width: int) -> list[str]:
        tokens = self.maker.parse(text)
        if _top_level_types(tokens) != ["paragraph_open"]:
            return []
        limit = _stable_chars(tokens, self.maker.hyperlinks)
        if limit <= self._skip:
            return []
        markdown = self.maker.make(text, paragraph_skip=self._skip, tokens=tokens)
        rows = rows_of(self.console, markdown, width, trim=False)
        whole = markdown.paragraph_text
        if whole is None or "\t" in whole.plain:
            return []
        starts = _row_starts(whole.plain[self._skip:], width)
        if len(starts) != len(rows):
            return []
        # Rows to print: greedy wrapping puts a row's break where the next word (or the next
        # piece of a word longer than a row) did not fit, and more text only makes that word
        # longer. So wrapping just the text no later input can change (up to the limit) gives
        # final rows — all but its last, which the rest of a word may still reach.
        stable = _row_starts(whole.plain[self._skip:limit], width)
        count = len(stable) - 1
        if count < 1 or stable[:count + 1] != starts[:count + 1]:
            return []
        skip = self._skip + starts[count]
        rest = rows_of(self.console, self.maker.make(text, paragraph_skip=skip, tokens=tokens),
                       width, trim=False)
        if rest != rows[count:]:  # wrapping the rest alone must give the same rows
            return []
        new = rows[:count]
        if not self.started and self.gap and inherits_gap(tokens):
            new.insert(0, "")
        self._skip, self.started = skip, True
        return new

    def rest_rows(self, block: str, width: int) -> list[str]:
        """The rows of the finished ``block`` (this view's block, with some rows already
        printed) that are not printed yet."""
        markdown = self.maker.make(block, paragraph_skip=self._skip)
        rows = rows_of(self.console, markdown, width, trim=False)
        return rows[self._code_rows:] if _is_fence(block) else rows


def _is_fence(text: str) -> bool:
    return text.lstrip(" ").startswith(("```", "~~~"))


def _top_level_types(tokens: list[Token]) -> list[str]:
    return [t.type for t in tokens if t.level == 0 and t.nesting >= 0]


def _stable_chars(tokens: list[Token], hyperlinks: bool) -> int:
    """How many characters of a paragraph's text (as rich builds it) no later input can
    change: up to the first that could still become markup, or the whole text."""
    inline = next((t for t in tokens if t.type == "inline"), None)
    if inline is None or not inline.children:
        return 0
    position = 0
    line_start = 0  # where the current source line starts in the text
    for child in inline.children:
        if child.type not in _PLAIN_INLINE:
            return 0 if child.type in ("image", "html_inline") else position
        if child.type in ("softbreak", "hardbreak"):
            position += 1
            line_start = position
            continue
        content = child.content
        if child.type == "text":
            for index, char in enumerate(content):
                if char in _MARKUP:
                    return line_start if char == "|" else position + index
        position += len(content)
    return position


def _row_starts(plain: str, width: int) -> list[int]:
    """Where each row starts in ``plain`` wrapped at ``width`` the way rich wraps a paragraph."""
    starts: list[int] = []
    base = 0
    for line in plain.split("\n"):
        starts.append(base)
        starts.extend(base + offset for offset in divide_line(line, width, fold=True))
        base += len(line) + 1
    return starts


class MarkdownStream:
    """Feed markdown deltas; finished blocks go to scrollback once, the open block stays live."""

    def __init__(self, console: Console, *, max_refresh_hz: float = DEFAULT_REFRESH_HZ,
                 code_theme: str = "ansi", hyperlinks: bool = False,
                 clock: Callable[[], float] = time.monotonic,
                 live: bool | None = None, terminal: LiveTerminal | None = None) -> None:
        self.console = console
        self.terminal = terminal or LiveTerminal(console)
        self._min_interval = 1.0 / max_refresh_hz
        self._clock = clock
        self._live_wanted = self.terminal.live_enabled if live is None else live
        self.maker = MarkdownMaker(hyperlinks=hyperlinks, code_theme=code_theme)
        self._view = OpenBlockView(console, self.maker)
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
                cut = cut_finished(self._pending, self.maker.parser)
                if cut.finished:
                    self._pending = cut.rest
                    self._print_finished(cut.finished, cut.rest)
            if not self._live_wanted:
                return
            self._view.text = self._pending
            self.terminal.add_source(self._view.rows)
            now = self._clock()
            if now - self._last_refresh >= self._min_interval:
                self._last_refresh = now
                self.refreshes += 1
                settled = self._view.settle(max(1, self.console.width))
                if settled:
                    self.terminal.commit_rows(settled)
                else:
                    self.terminal.redraw()

    def separate(self) -> None:
        """The next block follows other output (a tool's rows): set it apart as rich sets a
        block apart from the one before (a blank row before a paragraph, a heading…)."""
        with self.terminal.lock:
            if not self._pending:
                self._gap = self._view.gap = True

    def finish(self) -> None:
        """Print the open block, close the live region and start afresh for the next answer."""
        with self.terminal.lock:
            rest, self._pending = self._pending, ""
            self.terminal.remove_source(self._view.rows)
            if rest.strip():
                self._print_finished(rest, "")
            else:
                self._view.reset("")
                self.terminal.redraw()
            self._gap = self._view.gap = False
            self._parts = []

    def __enter__(self) -> MarkdownStream:
        return self

    def __exit__(self, *exc: object) -> None:
        self.finish()

    # ------------------------------------------------------------------ internals

    def markdown(self, text: str) -> AnswerMarkdown:
        return self.maker.make(text)

    def _print_finished(self, finished: str, rest: str) -> None:
        """Print finished text whose first block is the open one (maybe partly printed);
        ``rest`` becomes the open block — before anything is drawn, so that no frame shows
        the finished text live again under its printed rows."""
        first_rows: list[str] | None = None
        if self._view.started:
            tokens = self.maker.parse(finished)
            starts = [t.map[0] for t in tokens if t.level == 0 and t.nesting >= 0 and t.map]
            split = _line_offset(finished, starts[1]) if len(starts) > 1 else len(finished)
            first, finished = finished[:split], finished[split:]
            first_rows = self._view.rest_rows(first, max(1, self.console.width))
            self._gap = self._view.gap = gap_after(self.maker.parse(first))
        self._view.reset(rest)
        if first_rows is not None:
            self.terminal.commit_rows(first_rows)
        if finished.strip():
            self._print_block(finished)

    def _print_block(self, text: str) -> None:
        rendered = self.maker.make(text)
        if self._gap and inherits_gap(rendered.parsed):
            self.terminal.print(rendered, blank_before=True)
        else:
            self.terminal.print(rendered)
        self._gap = self._view.gap = gap_after(rendered.parsed)


def _line_offset(text: str, line: int) -> int:
    offset = 0
    for _ in range(line):
        offset = text.index("\n", offset) + 1
    return offset
