"""The one writer that owns the terminal while an AI turn is drawn.

Design note. A turn shows two kinds of output: lines that are final (finished markdown blocks,
tool panels, notices), printed once into scrollback, and a small live region at the bottom (the
open markdown block, a spinner) that is redrawn in place. Redrawing in place means moving the
cursor up over what was drawn last time, so the writer must know exactly how many screen rows
that was. What fails:

* two writers — rich ``Live``/``Status`` each run a refresh thread, and printing a finished
  block from the event thread while that thread redraws made the cursor-up count of one frame
  apply to the output of another: blocks erased, lines doubled;
* counting rows from the text instead of from what was written at the width of the moment:
  a line that wraps, or a window that shrank, makes the count wrong.

Chosen approach: every byte of a turn goes through ``LiveTerminal`` under one lock. It keeps
the rows of the live region exactly as written (each already cut to the width it was drawn at,
joined by CR LF, the cursor left at the end of the last row), so the height is a fact, not a
guess. A frame is: go up to the first row that changed, erase below, write the committed lines
(if any) and the changed rows — wrapped in synchronized output (DEC mode 2026) so the terminal
shows the frame at once. Committed lines are written exactly once. The live region never gets
taller than the screen minus one row, so the cursor-up never leaves the screen.

A window that got narrower rewraps what was drawn on terminals that reflow (tmux, VTE, kitty,
iTerm2); the writer then counts each old row as the rows it occupies at the new width before
erasing, and draws the region afresh.

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
TICK_SECONDS = 0.1


def rows_of(console: Console, renderable: RenderableType, width: int, *,
            trim: bool = True, live: bool = False) -> list[str]:
    """Render ``renderable`` at ``width`` into rows of ANSI text (``trim``: no blank rows last).

    Live rows and committed rows come from here alike, so a finished block whose rows are
    already on screen in the live region can stay there instead of being written again. No
    row carries trailing spaces (a paragraph is padded to the width by rich): a row only as
    wide as its text rewraps predictably when the window narrows, and copies without them.
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
                 tick_seconds: float = TICK_SECONDS, reflow: bool = True) -> None:
        self.console = console
        self.reflow = reflow
        self.live_enabled = console.is_interactive
        self._sync = sync
        self.clock = clock
        self.tick_seconds = tick_seconds
        self.lock = threading.RLock()  # held by whoever changes what the region shows
        self._rows: list[str] = []  # the live region's rows as written, top to bottom
        self._row_cells: list[int] = []  # each row's width in cells, for reflow on resize
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
        """Write one frame: ``committed`` rows (final, printed once) then the live rows.

        The frame is composed from the width read before its live rows are drawn; when the
        window has changed by the time it is composed (a table takes milliseconds to draw), it
        is drawn and composed again: its cursor-up count is only right at its own width.
        """
        for _ in range(3):
            width, new_rows = self._live_rows(keep_live)
            frame = self._compose(committed, width, new_rows)
            if max(1, self.console.width) == width:
                break
        body, self._rows, self._row_cells = frame
        self._width = width
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

    def _compose(self, committed: list[str] | None, width: int, new_rows: list[str]
                 ) -> tuple[str, list[str], list[int]]:
        """(bytes to write, live rows, their cells) for a frame."""
        out: list[str] = []
        rows, cells = self._rows, self._row_cells
        if committed and width == self._width and _common_prefix(rows, committed) == len(
                committed):
            # Every committed row is on screen already, at the top of the live region (the
            # open block's first rows, printed early): they leave the region unwritten.
            keep = len(committed)
            if keep == len(rows):
                out.append("\r\n")  # nothing was below the last of them: start a fresh row
            rows, cells = rows[keep:], cells[keep:]
            committed = None
        if committed is None and not out and new_rows == rows and width == self._width:
            return "", rows, cells  # nothing to write (maybe rows left the region unwritten)
        drawn = self._screen_rows(cells, width)
        if committed is not None:
            # Rows of the finished block already on screen (it was the open block) stay.
            keep = _common_prefix(rows, committed) if width == self._width else 0
            if keep and keep == len(rows):
                out.append("\r\n" + ERASE_BELOW)  # from the end of the last kept row to a new one
            elif drawn:
                out.append(self._up_to(cells, drawn, keep, width))
            out.extend(row + "\r\n" for row in committed[keep:])
            out.append("\r\n".join(new_rows))
        else:
            first = self._first_changed(rows, new_rows, width)
            last = len(rows) - 1
            if (new_rows and first == last and width == self._width
                    and new_rows[first].startswith(rows[last])):
                # The usual delta: the last row grew. The cursor is at its end, the style
                # reset there (rich closes every styled segment), so write only the new part.
                out.append(new_rows[first][len(rows[last]):])
                out.extend("\r\n" + row for row in new_rows[first + 1:])
            else:
                if drawn:
                    out.append(self._up_to(cells, drawn, first, width))
                out.append("\r\n".join(new_rows[first:]))
        return "".join(out), list(new_rows), [cell_len(strip_ansi(row)) for row in new_rows]

    def _live_rows(self, keep_live: bool) -> tuple[int, list[str]]:
        """(width, live rows) drawn at the window's width as it is when the frame is written.

        Rendering a table takes milliseconds; a window resized meanwhile would receive rows
        and a cursor-up count meant for the old width, so the rows are drawn again until the
        width read after drawing them is the one they were drawn at.
        """
        for _ in range(3):
            width = max(1, self.console.width)
            if not (self.live_enabled and keep_live and self._sources):
                return width, []
            max_rows = max(1, self.console.height - 1)
            rows: list[str] = []
            for source in self._sources:
                rows.extend(source(width, max_rows))
            if max(1, self.console.width) == width:
                break
        return width, rows[-max_rows:]

    def _up_to(self, cells: list[int], drawn: int, row: int, width: int) -> str:
        """From the end of the last drawn row to the start of ``row``, erasing below."""
        up = drawn - 1 - self._screen_rows(cells[:row], width)
        return "\r" + (f"\x1b[{up}A" if up > 0 else "") + ERASE_BELOW

    def _first_changed(self, rows: Sequence[str], new_rows: Sequence[str], width: int) -> int:
        """Index of the first live row to rewrite (0 after a resize)."""
        if width != self._width or not rows:
            return 0
        first = _common_prefix(rows, new_rows)
        # The cursor rests at the end of the last row: to append rows or drop some, start
        # over from a row that exists in both frames (the last common one), or from the top.
        limit = min(len(rows), len(new_rows)) - 1
        return max(0, min(first, limit))

    def _screen_rows(self, cells: list[int], width: int) -> int:
        """Screen rows taken by drawn rows of ``cells`` cells, after the window became
        ``width`` wide: a terminal that reflows rewraps a row that no longer fits."""
        if width >= self._width or not self.reflow:
            return len(cells)
        return sum(max(1, -(-count // width)) for count in cells)

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
