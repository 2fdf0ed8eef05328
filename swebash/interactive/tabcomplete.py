"""Tab as readline's ``complete``: the session's bash finds the matches, this inserts and lists.

What one Tab does (readline's rl_complete): one match is inserted whole (``/`` after a
directory, else the closing quote and a space); several matches insert their common prefix,
and ring the bell; a Tab right after a Tab that changed nothing lists the matches below the
prompt, in readline's columns, and draws the prompt again (``show-all-if-ambiguous``: list at
once; ``show-all-if-unmodified``: at once when the prefix added nothing). A list of
``completion-query-items`` (100) or more asks ``Display all N possibilities? (y or n)``, and a
list longer than the screen pages with ``--More--`` (``page-completions``). One more Tab after
a list opens prompt-toolkit's completion menu.

Design note. A completion function may be slow (a compspec that asks a server): readline waits
for it, and so does this — there is no time limit — but prompt-toolkit's event loop must keep
running to draw a spinner (after 300 ms) and to see Ctrl-C, which interrupts the function in
bash and leaves the line as it was. So the completion runs in a worker thread while the Tab is
a task that holds the keys typed after it (keyqueue.py): they are applied once it is done, as
readline applies them after its Tab. The terminal's input is read by the task itself meanwhile.
"""

from __future__ import annotations

import asyncio
import codecs
import os
import select
import sys
from collections.abc import Callable
from typing import Any

from prompt_toolkit.application import Application, in_terminal
from prompt_toolkit.buffer import Buffer
from prompt_toolkit.enums import EditingMode
from prompt_toolkit.formatted_text import StyleAndTextTuples
from prompt_toolkit.input.vt100_parser import Vt100Parser
from prompt_toolkit.key_binding import KeyPressEvent
from prompt_toolkit.key_binding.key_processor import KeyPress
from prompt_toolkit.keys import Keys
from prompt_toolkit.layout.processors import Processor, Transformation, TransformationInput
from prompt_toolkit.utils import get_cwidth

from swebash.interactive.keyqueue import hold_keys
from swebash.shell.completion import Completion, complete_text
from swebash.shell.pty import get_winsize, raw_terminal
from swebash.shell.session import ShellSession

SPINNER_AFTER = 0.3  # seconds before a slow completion shows the spinner
SPINNER = "⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏"
NO_LIMIT = 24 * 3600.0  # readline waits for a completion function however long it takes
COMP_TYPE = {"tab": 9, "?": 63, "!": 33, "@": 64}  # what bash puts in COMP_TYPE


def format_matches(items: list[str], width: int, horizontal: bool = False) -> list[str]:
    """Readline's listing of matches: columns as wide as the longest item plus two, sorted
    down the columns (``print-completions-horizontally``: across)."""
    if not items:
        return []
    widths = [get_cwidth(item) for item in items]
    column = max(widths) + 2
    per_row = max(1, width // column)
    if per_row != 1 and per_row * column == width:
        per_row -= 1
    rows = (len(items) + per_row - 1) // per_row
    lines = []
    for row in range(rows):
        cells = []
        for col in range(per_row):
            index = row * per_row + col if horizontal else row + col * rows
            if index >= len(items):
                break
            pad = column - widths[index] if widths[index] < column else 1
            cells.append(items[index] + " " * (pad if col + 1 < per_row else 0))
        lines.append("".join(cells).rstrip())
    return lines


class SpinnerProcessor(Processor):
    """A spinner after the line while a slow completion runs."""

    def __init__(self, frame: Callable[[], str | None]) -> None:
        self.frame = frame

    def apply_transformation(self, ti: TransformationInput) -> Transformation:
        frame = self.frame()
        if frame is None or ti.lineno != ti.document.line_count - 1:
            return Transformation(ti.fragments)
        extra: StyleAndTextTuples = [("class:spinner", " " + frame)]
        return Transformation(ti.fragments + extra)


class TabCompletion:
    def __init__(self, session: ShellSession, setting: Callable[[str], str]) -> None:
        self.session = session
        self.setting = setting
        self.spin: int | None = None  # spinner frame while a slow completion runs
        self.after: tuple[str, int] | None = None  # the line after our last Tab
        self.changed = False  # … which changed it
        self.failed = False  # … which found nothing
        self.listed = False  # … which listed the matches

    def _on(self, name: str) -> bool:
        return self.setting(name) == "on"

    def processor(self) -> Processor:
        return SpinnerProcessor(lambda: None if self.spin is None
                                else SPINNER[self.spin % len(SPINNER)])

    # ------------------------------------------------------------------ the readline functions

    def complete(self, event: KeyPressEvent) -> None:
        """readline's ``complete`` (Tab)."""
        buffer = event.current_buffer
        if buffer.complete_state:
            buffer.complete_next()
            return
        if self._on("disable-completion"):
            buffer.insert_text("\t")
            return
        again = event.is_repeat and self.after == (buffer.text, buffer.cursor_position)
        if again and self.listed:
            buffer.start_completion(select_first=False)  # a third Tab: the menu
            return
        if again and not self.changed and not self.failed:
            mode = "?"
        elif self._on("show-all-if-ambiguous"):
            mode = "!"
        elif self._on("show-all-if-unmodified"):
            mode = "@"
        else:
            mode = "tab"
        self._start(event.app, buffer, mode)

    def possible_completions(self, event: KeyPressEvent) -> None:
        """readline's ``possible-completions`` (M-?): list without inserting."""
        self._start(event.app, event.current_buffer, "?")

    def insert_completions(self, event: KeyPressEvent) -> None:
        """readline's ``insert-completions`` (M-*): every match, separated by spaces."""
        self._start(event.app, event.current_buffer, "*")

    # ------------------------------------------------------------------ asking bash

    def _start(self, app: Application[Any], buffer: Buffer, mode: str) -> None:
        if buffer.text.lstrip().startswith("?"):
            return  # an AI question, not a command line
        document = buffer.document
        text, at_end = document.text_before_cursor, document.is_cursor_at_the_end

        async def work(later: list[KeyPress]) -> None:
            found = await self._ask(app, text, at_end, COMP_TYPE.get(mode, 9), later)
            if found is not None:
                await self._apply(app, buffer, found, mode)

        hold_keys(app, work)

    async def _ask(self, app: Application[Any], text: str, at_end: bool, comp_type: int,
                   later: list[KeyPress]) -> Completion | None:
        loop = asyncio.get_running_loop()
        marks = self.setting("mark-directories") != "off"
        job = loop.run_in_executor(None, lambda: complete_text(
            self.session, text, NO_LIMIT, at_end=at_end, comp_type=comp_type,
            mark_directories=marks))
        cancelled = False
        decoder = codecs.getincrementaldecoder("utf-8")("surrogateescape")
        typed: list[KeyPress] = []
        parser = Vt100Parser(typed.append)
        fd = app.input.fileno()

        def read_keys() -> None:  # Ctrl-C cancels; other keys wait for the result
            nonlocal cancelled
            while _readable(fd):
                try:
                    data = os.read(fd, 1024)
                except OSError:
                    return
                if not data:
                    return
                parser.feed(decoder.decode(data))
            for key in typed:
                if key.key != Keys.ControlC:
                    later.append(key)
                elif not cancelled:
                    cancelled = True
                    self.session.interrupt_helper()
            typed.clear()

        # The terminal is polled rather than watched: prompt-toolkit's own reader may be
        # attached again meanwhile (a Tab typed ahead runs before the prompt reads keys).
        started = loop.time()
        while not job.done():
            await asyncio.wait([job], timeout=0.05)
            read_keys()
            if not job.done() and loop.time() - started >= SPINNER_AFTER:
                self.spin = 0 if self.spin is None else self.spin + 1
                app.invalidate()
        self.spin = None
        found = job.result()
        parser.flush()
        later.extend(key for key in typed if key.key != Keys.ControlC)
        if cancelled:
            await loop.run_in_executor(None, lambda: self.session.capture(
                "__sb_complete_reset"))
            self.after = None
            return None
        return found

    # ------------------------------------------------------------------ readline's part

    def _replace(self, buffer: Buffer, found: Completion, text: str) -> None:
        if text != found.parts.raw:
            buffer.delete_before_cursor(len(found.parts.raw))
            buffer.insert_text(text)

    def _bell(self, app: Application[Any]) -> None:
        if self.setting("bell-style") not in ("none", "visible"):
            app.output.bell()

    async def _apply(self, app: Application[Any], buffer: Buffer, found: Completion,
                     mode: str) -> None:
        before = (buffer.text, buffer.cursor_position)
        matches = found.matches
        self.failed = not matches
        self.listed = False
        if not matches:
            self._bell(app)
        elif mode == "?":
            await self._list(app, buffer, found)
        elif mode == "*":
            self._replace(buffer, found, " ".join(found.insert(m, False) for m in matches) + " ")
        elif len(matches) == 1:
            self._replace(buffer, found, found.insert(matches[0]))
        else:
            common = found.common(self._on("completion-ignore-case"))
            if mode == "!" or (mode == "@" and common == found.parts.raw):
                await self._list(app, buffer, found)  # (readline shows the line as it was)
            elif mode == "tab" and app.editing_mode != EditingMode.VI:
                self._bell(app)
            if mode == "tab" or len(common) >= len(found.parts.raw):
                self._replace(buffer, found, common)
        self.after = (buffer.text, buffer.cursor_position)
        self.changed = self.after != before

    async def _list(self, app: Application[Any], buffer: Buffer, found: Completion) -> None:
        """The matches below the prompt line, which stays in the scrollback (as bash)."""
        shown = [found.display(m) for m in found.matches]
        rows, cols = get_winsize(app.output.fileno()) if _has_fd(app) else (24, 80)
        width = int(self.setting("completion-display-width") or -1)
        if 0 <= width < cols:
            cols = width
        lines = format_matches(shown, cols, self._on("print-completions-horizontally"))
        buffer.suggestion = None  # the ghost text is not part of the line
        try:
            limit = int(self.setting("completion-query-items") or 100)
        except ValueError:
            limit = 100
        async with in_terminal(render_cli_done=True):
            self.listed = _show(lines, len(shown), limit, rows, self._on("page-completions")
                                or not self.setting("page-completions"))


def _readable(fd: int) -> bool:
    try:
        return bool(select.select([fd], [], [], 0)[0])
    except (OSError, ValueError):
        return False


def _has_fd(app: Application[Any]) -> bool:
    try:
        app.output.fileno()
    except (NotImplementedError, OSError, ValueError):
        return False
    return True


def _key(prompt: str) -> str:
    """One key from the terminal (its input is in cooked mode during in_terminal)."""
    sys.stdout.write(prompt)
    sys.stdout.flush()
    with raw_terminal(0):
        try:
            return os.read(0, 16).decode("utf-8", "replace")[:1]
        except OSError:
            return "n"


def _show(lines: list[str], count: int, limit: int, rows: int, paging: bool) -> bool:
    """Readline's display of the matches; False when the user said no to seeing them."""
    if 0 < limit <= count:
        while True:
            answer = _key(f"Display all {count} possibilities? (y or n)")
            if answer in ("y", "Y", " "):
                sys.stdout.write("\n")
                break
            if answer in ("n", "N", "\x7f", "\x03", "\x07"):
                sys.stdout.write("\n")
                sys.stdout.flush()
                return False
    page = max(1, rows - 1)
    for shown, line in enumerate(lines):
        if paging and shown >= page:
            answer = _key("--More--")
            sys.stdout.write("\r\x1b[K")
            if answer in ("\r", "\n", "j"):
                page = shown + 1
            elif answer in (" ", "y", "Y"):
                page = shown + max(1, rows - 1)
            else:
                break
        sys.stdout.write(line + "\n")
    sys.stdout.flush()
    return True
