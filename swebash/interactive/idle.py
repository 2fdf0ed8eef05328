"""Background output while the line editor waits: shown at once, above the prompt.

Bash's background jobs write to the session's pty whenever they like. If nobody read it while
swebash's line editor waited, a job would block once the pty's buffer is full (a dev server
logging, ``seq 1 200000 &``) and its output would appear only with the next command. So the
pty is a reader on prompt-toolkit's event loop: whatever arrives is read at once and written
above the prompt with ``run_in_terminal`` (which erases the prompt and the half-typed line,
lets us write, and draws them again below, as ``patch_stdout`` does). A busy job is drained in
slices of up to ``SLICE`` seconds per redraw, so throughput stays close to a bare terminal's.
If bash exits meanwhile (``TMOUT``, ``kill -9``), its last words are shown and the prompt ends
with ``ShellDied``.
"""

from __future__ import annotations

import asyncio
import contextlib
import termios
import time
from typing import Any

from prompt_toolkit.application import get_app, run_in_terminal

from swebash.errors import ShellDied
from swebash.shell.pty import write_all
from swebash.shell.session import ShellSession

SLICE = 0.5  # longest stretch of output written between two redraws of the prompt (keys wait)
TICK = 0.25  # also look now and then: output a completion read for us, a bash that died
HOLD = 1 << 20  # read no more while this much waits to be shown
CHUNK = 1 << 16  # read this much, write it, read again: the job and the terminal both move


class IdleOutput:
    def __init__(self, session: ShellSession) -> None:
        self.session = session
        self.pending = bytearray()
        self.flushing = False
        self.reading = False
        self.loop: asyncio.AbstractEventLoop | None = None
        self.timer: asyncio.TimerHandle | None = None

    def attach(self) -> None:
        """Called in the prompt's pre_run: the event loop is running."""
        self.loop = asyncio.get_running_loop()
        self._watch(True)
        self.timer = self.loop.call_later(TICK, self._tick)

    def detach(self) -> None:
        self._watch(False)
        if self.timer is not None:
            self.timer.cancel()
            self.timer = None
        self.loop = None
        if self.pending:  # the prompt ended before it was shown
            write_all(self.session.stdout_fd, bytes(self.pending))
            self.pending.clear()

    def _watch(self, on: bool) -> None:
        if self.loop is None or on == self.reading or self.session.master < 0:
            return
        with contextlib.suppress(OSError, ValueError, RuntimeError):
            if on:
                self.loop.add_reader(self.session.master, self._readable)
            else:
                self.loop.remove_reader(self.session.master)
            self.reading = on

    def _tick(self) -> None:
        if self.loop is None:
            return
        self._read()
        self.timer = self.loop.call_later(TICK, self._tick)

    def _readable(self) -> None:
        if not self._read() and self.loop is not None:
            # the completer holds the session: look again shortly instead of spinning
            self._watch(False)
            self.loop.call_later(0.02, lambda: self._watch(not self.flushing))

    def _read(self) -> bool:
        try:
            data = self.session.read_idle(limit=CHUNK)
        except ShellDied as died:
            self._watch(False)
            self.pending += self.session.take_late_output()
            self._show_then(died)
            return True
        if data is None:
            return False
        if data:
            self.pending += data
            if len(self.pending) > HOLD:
                self._watch(False)
            self._show_then(None)
        return True

    def _show_then(self, died: ShellDied | None) -> None:
        if self.flushing and died is None:
            return
        self.flushing = True

        def flush() -> None:
            out = self.session.stdout_fd
            deadline = time.monotonic() + SLICE
            # the pty already turned \n into \r\n: no second pass through the terminal's
            # output processing (it halves what the kernel does per byte)
            saved = _output_raw(out)
            try:
                while self.pending:
                    data, self.pending = bytes(self.pending), bytearray()
                    write_all(out, data)
                    if died is not None or time.monotonic() > deadline:
                        break
                    more = self.session.read_idle(budget=0.001, limit=CHUNK)
                    if more:
                        self.pending += more
            except ShellDied as exc:
                self.pending += self.session.take_late_output()
                write_all(out, bytes(self.pending))
                self.pending.clear()
                _end(exc)
                return
            finally:
                self.flushing = False
                _output_restore(out, saved)
            if died is not None:
                _end(died)
            else:
                self._watch(True)
                if self.pending:
                    self._show_then(None)

        run_in_terminal(flush)


def _output_raw(fd: int) -> list[Any] | None:
    try:
        saved: list[Any] = termios.tcgetattr(fd)
        raw = list(saved)
        raw[1] &= ~termios.OPOST
        termios.tcsetattr(fd, termios.TCSANOW, raw)
    except termios.error:
        return None
    return saved


def _output_restore(fd: int, saved: list[Any] | None) -> None:
    if saved is not None:
        with contextlib.suppress(termios.error):
            termios.tcsetattr(fd, termios.TCSANOW, saved)


def _end(died: ShellDied) -> None:
    app = get_app()
    if app.is_running and not app.is_done:
        app.exit(exception=died)
