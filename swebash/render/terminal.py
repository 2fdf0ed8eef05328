"""The one writer that owns the terminal while an AI turn is drawn.

Design note. A turn shows two kinds of output: lines that are final (finished markdown blocks,
tool panels, notices), printed once into scrollback, and a small live region at the bottom (the
open markdown block, a spinner) that is redrawn in place. Redrawing in place means moving the
cursor back over what was drawn last time. What fails:

* two writers — rich ``Live``/``Status`` each run a refresh thread, and printing a finished
  block from the event thread while that thread redraws made the cursor-up count of one frame
  apply to the output of another: blocks erased, lines doubled;
* counting rows from the text, or at the width of the moment: the terminal may interpret a
  frame at another width than it was composed for. tmux reflows its grid the moment a window
  is resized but tells the program at most every ~250 ms, and only the latest size (measured:
  resized every 150 ms through ten widths, a program saw six of them, each 100-250 ms late);
  a terminal that reflows rewraps the rows already drawn; one that does not cuts them. Any
  cursor-up count that depends on how the region's rows wrap is a guess during a resize, and
  a wrong guess either leaves a stale copy of a row or erases a committed one.

Chosen approach: every byte of a turn goes through ``LiveTerminal`` under one lock, and no
movement depends on the width. The cursor rests at the START of the live region (column 0 of
its first row), not after its text. Live rows are written with autowrap off (DECAWM), each cut
to the width it was drawn at: each takes exactly one screen row whatever width the terminal
has while it reads them (a row wider than that is cut by the terminal, not wrapped), so the
way back to the region's start is the same count of rows at any width. A terminal that later
reflows keeps the cursor at the start of its logical line, one that cuts keeps its position:
either way erasing from the cursor to the end of the screen removes the whole region, however
its rows were rewrapped since. So a frame is: from the region's start, erase below, write the
committed rows (autowrap on: final text that the terminal may wrap and rewrap as it likes) and
the live rows, and go back up over the live rows. The usual delta — the last row grew — steps
down to that row, writes the new text at its end and comes back. Committed rows are always
written afresh, never promoted from live rows in place: a live row the terminal cut during a
resize the program never heard of (110 → 45 → 110 within one report) must not stay in the
scrollback. Frames that erase are wrapped in synchronized output (DEC mode 2026) so the
terminal shows them at once; the cursor is hidden while a region is drawn. The live region
never gets taller than the screen minus one row.

A ticker thread animates the spinner and draws the last words of the open block after a pause
in the stream; it only ever calls ``redraw`` — under the same lock, so it cannot interleave.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Sequence

from rich.cells import cell_len
from rich.console import Console, RenderableType
from rich.segment import Segment

from swebash.visible import strip_ansi

SYNC_BEGIN = "\x1b[?2026h"
SYNC_END = "\x1b[?2026l"
# Erase from the cursor (at the start of a row) to the end of the screen. Not a bare "CSI J":
# when the live region starts at the top-left corner of the screen, tmux (scroll-on-clear, on
# by default) takes that for clearing the whole screen and moves the old rows into the
# scrollback, where they stay as a doubled copy. So: erase this row, step down one row (a
# no-op on the last row), erase to the end from there — never from the corner — and come back.
ERASE_BELOW = "\x1b7\x1b[K\x1b[B\x1b[J\x1b8"
# Autowrap (DECAWM) is off from the moment a live region is drawn until it is gone, except
# while committed rows are written: text at the right margin then overwrites the last column.
NO_WRAP = "\x1b[?7l"
WRAP = "\x1b[?7h"
HIDE_CURSOR = "\x1b[?25l"
SHOW_CURSOR = "\x1b[?25h"
TICK_SECONDS = 0.1


def rows_of(console: Console, renderable: RenderableType, width: int, *,
            trim: bool = True, live: bool = False) -> list[str]:
    """Render ``renderable`` at ``width`` into rows of ANSI text (``trim``: no blank rows last).

    Live rows and committed rows come from here alike, so a block's rows look the same live
    and in scrollback. No row carries trailing spaces (rich pads a paragraph to the width): a
    row only as wide as its text rewraps predictably when the window narrows, and copies
    without them.
    ``live`` rows are cut at the width, since the live region's height is counted in rows;
    committed rows are not: a code line or a command wider than the window is written whole
    and the terminal wraps it, so that copying it gives one line.
    """
    options = console.options.update(width=width, height=None)
    if live:
        lines = console.render_lines(renderable, options, pad=False)
    else:
        lines = list(Segment.split_lines(console.render(renderable, options)))
    rows = [console._render_buffer(_rstrip(line, live)).rstrip("\n") for line in lines]
    while trim and rows and not strip_ansi(rows[-1]).strip():
        rows.pop()
    return rows


def _rstrip(line: list[Segment], coloured: bool) -> list[Segment]:
    """Drop trailing spaces (unstyled ones, or ``coloured`` ones too): they carry no text."""
    segments = list(line)
    while segments:
        last = segments[-1]
        if last.control or (not coloured and last.style is not None
                            and last.style.bgcolor is not None):
            break
        stripped = last.text.rstrip(" ")
        if stripped:
            segments[-1] = Segment(stripped, last.style)
            break
        segments.pop()
    return segments


def _down(rows: int) -> str:
    return f"\x1b[{rows}B" if rows > 0 else ""


def _up(rows: int) -> str:
    return f"\x1b[{rows}A" if rows > 0 else ""


def _region(rows: Sequence[str], above: int) -> str:
    """Draw live ``rows`` from the cursor (at the start of a row, ``above`` region rows below
    the region's first) and return to the region's first row. Autowrap is off (the caller's
    part) while a region is drawn: each row takes exactly one screen row at whatever width the
    terminal has right now, so the way back up is the same count at any width."""
    return "\r\n".join(rows) + "\r" + _up(above + len(rows) - 1)


def _common_prefix(old: Sequence[str], new: Sequence[str]) -> int:
    count = 0
    for before, after in zip(old, new, strict=False):
        if before != after:
            break
        count += 1
    return count


class LiveTerminal:
    """Commits final output above a live region and redraws the region; one lock for both."""

    def __init__(self, console: Console, *, sync: bool = True,
                 clock: Callable[[], float] = time.monotonic,
                 tick_seconds: float = TICK_SECONDS) -> None:
        self.console = console
        self.live_enabled = console.is_interactive
        self._sync = sync
        self.clock = clock
        self.tick_seconds = tick_seconds
        self.lock = threading.RLock()  # held by whoever changes what the region shows
        self._rows: list[str] = []  # the live region's rows as written, top to bottom
        self._width = 0  # the width the region was drawn at
        self._sources: list[Callable[[int, int], list[str]]] = []
        self._ticker: threading.Thread | None = None
        self._stop_ticker = threading.Event()
        self._tick_hooks: list[Callable[[], None]] = []
        self._hold = False  # keep ticking with nothing live (a turn is waiting for the model)
        self.bytes_written = 0
        self.frames = 0

    # ------------------------------------------------------------------ what the region shows

    def add_source(self, source: Callable[[int, int], list[str]]) -> None:
        """A part of the live region: ``source(width, max_rows)`` returns its rows now."""
        with self.lock:
            if source not in self._sources:
                self._sources.append(source)

    def remove_source(self, source: Callable[[int, int], list[str]]) -> None:
        with self.lock:
            if source in self._sources:
                self._sources.remove(source)

    def on_tick(self, hook: Callable[[], None]) -> None:
        """Run ``hook`` (under the lock) on every tick of the ticker thread."""
        with self.lock:
            if hook not in self._tick_hooks:
                self._tick_hooks.append(hook)

    def hold(self, on: bool) -> None:
        """Keep the ticker running while nothing is live (``on``), e.g. for a whole turn."""
        with self.lock:
            self._hold = on
            if on and self.live_enabled:
                self._start()
        if not on and not self._rows:
            self._stop()

    @property
    def height(self) -> int:
        """Rows the live region occupies on screen right now."""
        return len(self._rows)

    # ------------------------------------------------------------------ drawing

    def commit(self, text: str) -> None:
        """Print ``text`` (ANSI, ending with a newline) once, above the live region."""
        with self.lock:
            self._frame(text.removesuffix("\n").split("\n"))

    def print(self, *renderables: RenderableType, end: str = "\n",
              blank_before: bool = False) -> None:
        """Render with the console's settings and commit the result."""
        with self.lock:
            width = max(1, self.console.width)
            rows = [""] if blank_before else []
            for renderable in renderables:
                rows.extend(rows_of(self.console, renderable, width, trim=False))
            if not self.live_enabled and not self._rows:
                # A pipe, a file or TERM=dumb: the rows as they are, no cursor movement.
                if rows:
                    self._emit("\n".join(rows) + end)
                return
            self._frame(rows)

    def commit_rows(self, rows: list[str]) -> None:
        """Print finished rows (ANSI, one screen row each at most) above the live region."""
        with self.lock:
            if not self.live_enabled and not self._rows:
                self._emit("".join(row + "\n" for row in rows))
                return
            self._frame(list(rows))

    def redraw(self) -> None:
        """Bring the live region up to date with its sources (writes only what changed)."""
        with self.lock:
            self._frame(None)

    def clear(self) -> None:
        """Erase the live region and forget its sources (the end of a turn)."""
        with self.lock:
            self._sources.clear()
            self._frame(None)
            held = self._hold
        if not held:
            self._stop()

    def write_raw(self, text: str) -> None:
        """Write ``text`` as is with the live region erased (a question awaiting a key)."""
        with self.lock:
            self._frame(None, keep_live=False)
            self._emit(text)

    def _frame(self, committed: list[str] | None, *, keep_live: bool = True) -> None:
        """Write one frame: ``committed`` rows (final, printed once) then the live rows."""
        width, new_rows = self._live_rows(keep_live)
        body = self._compose(committed, width, new_rows)
        if new_rows and not self._rows:
            body = HIDE_CURSOR + body  # it rests at the region's start, not after its text
        elif self._rows and not new_rows:
            body += SHOW_CURSOR
        self._rows, self._width = list(new_rows), width
        if not body:
            return
        if self._sync and self.live_enabled and ERASE_BELOW in body:
            # Only a frame that erases needs the terminal to show it at once; text merely
            # appended at the cursor cannot flicker.
            body = SYNC_BEGIN + body + SYNC_END
        self._emit(body)
        self.frames += 1
        if self._rows:
            self._start()

    def _compose(self, committed: list[str] | None, width: int, new_rows: list[str]) -> str:
        """The bytes of a frame, from the region's start back to it (see the design note)."""
        old = self._rows
        if committed is None and new_rows == old and (width == self._width or not old):
            return ""
        if committed is not None:
            # Autowrap is off while a region is drawn, on for committed rows.
            return ((ERASE_BELOW + WRAP if old else "") + "".join(row + "\r\n" for row in committed)
                    + (NO_WRAP + _region(new_rows, 0) if new_rows else ""))
        first = _common_prefix(old, new_rows) if width == self._width else 0
        last = len(old) - 1
        if (first == last == len(new_rows) - 1 and width == self._width
                and new_rows[last].startswith(old[last])):
            # The usual delta: the last row grew. Go to its end and write only the new part
            # (the style is reset there: rich closes every styled segment).
            column = cell_len(strip_ansi(old[last])) + 1
            return (_down(last) + f"\x1b[{column}G" + new_rows[last][len(old[last]):] + "\r"
                    + _up(last))
        if not old:
            return NO_WRAP + _region(new_rows, 0)
        if first == 0:
            return ERASE_BELOW + (_region(new_rows, 0) if new_rows else WRAP)
        if first == len(new_rows):  # rows dropped at the end: erase them, come back up
            return _down(first - 1) + "\r\n" + ERASE_BELOW + _up(first)
        # Rows before ``first`` stay: step onto row ``first`` with a line feed from the row
        # above it (it may not exist yet), erase from there and draw the rest.
        return _down(first - 1) + "\r\n" + ERASE_BELOW + _region(new_rows[first:], first)

    def _live_rows(self, keep_live: bool) -> tuple[int, list[str]]:
        """(width, live rows) drawn at the window's width as it is when the frame is written."""
        width = max(1, self.console.width)
        if not (self.live_enabled and keep_live and self._sources):
            return width, []
        max_rows = max(1, self.console.height - 1)
        rows: list[str] = []
        for source in self._sources:
            rows.extend(source(width, max_rows))
        return width, rows[-max_rows:]

    def _emit(self, text: str) -> None:
        file = self.console.file
        file.write(text)
        file.flush()
        self.bytes_written += len(text.encode("utf-8", "replace"))

    # ------------------------------------------------------------------ ticker

    def _start(self) -> None:
        if self._ticker is not None and self._ticker.is_alive():
            return
        self._stop_ticker = threading.Event()
        stop = self._stop_ticker
        self._ticker = threading.Thread(target=self._tick_loop, args=(stop,),
                                        name="swebash-render", daemon=True)
        self._ticker.start()

    def _stop(self) -> None:
        ticker, self._ticker = self._ticker, None
        self._stop_ticker.set()
        if ticker is not None and ticker is not threading.current_thread():
            ticker.join(1.0)

    def _tick_loop(self, stop: threading.Event) -> None:
        while not stop.wait(self.tick_seconds):
            with self.lock:
                if stop.is_set():
                    return
                for hook in list(self._tick_hooks):
                    hook()
                self._frame(None)
                if not self._rows and not self._sources and not self._hold:
                    return
