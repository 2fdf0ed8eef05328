"""The first prompt: the user's own, drawn as soon as bash has read the startup files, and live
for typing before the line editor has loaded.

Design note. The problem: the line editor (prompt-toolkit and swebash's editing features) takes
about 0.3 s to import here, while bash with a stock ``~/.bashrc`` is ready in a few tens of
milliseconds; a shell must show its prompt and echo keys about as soon as bash does. What does
not work: drawing a prompt before bash has read the startup files (only then is PS1 known —
drawing swebash's default first and the user's later made the default flash); importing less
(prompt-toolkit alone is most of the cost); pushing keys read early back into the tty
(TIOCSTI is gone from current kernels); making them all the editor's default text (Enter,
Tab, Ctrl-C and arrows would lose their meaning). The chosen approach: bash is forked first; the
editor's modules are imported, and the editor built, in a background thread; the main thread
waits for bash (showing what the startup files print), draws the prompt bash expanded — PS1
exactly, escapes and all, or swebash's default prompt when there is none — and until the editor
is ready echoes what is typed (printable text; Backspace erases it; any other key ends the echo,
and what follows waits unechoed). The tty is held meanwhile (no echo, no line editing, no
signals), so nothing else reaches the screen. Then the cursor goes back to where the prompt
began, and the editor draws the same prompt in place with the echoed text (nothing visibly
changes): it gets every key typed so far as its first input (editor_io.ReplayInput), and they
act exactly as if typed into it. Keys typed after the first
Enter belong to the command that line runs, as in bash (a Ctrl-Z stops it).
"""

from __future__ import annotations

import contextlib
import os
import select
import sys
import threading
import time
import unicodedata
from typing import TYPE_CHECKING

from swebash.errors import ShellDied
from swebash.interactive.prompt import ansi_text, plain, prompt_fragments
from swebash.shell.pty import get_winsize, write_all
from swebash.shell.userprompt import strip_colours, visible_text

if TYPE_CHECKING:
    from swebash.config import Config
    from swebash.host.runtime import RuntimeFactory
    from swebash.interactive.editor_io import ReplayInput
    from swebash.interactive.repl import Repl
    from swebash.shell.session import ShellSession


class EditorLoader(threading.Thread):
    """Imports the line editor and builds the Repl; writes to ``wake`` when done."""

    def __init__(self, config: Config, session: ShellSession, terminal: bool,
                 runtime_factory: RuntimeFactory) -> None:
        super().__init__(name="swebash-editor-loader", daemon=True)
        self.config = config
        self.session = session
        self.runtime_factory = runtime_factory
        self.terminal = terminal
        self.wake_read, self.wake_write = os.pipe()
        self.repl: Repl | None = None
        self.input: ReplayInput | None = None
        self.error: BaseException | None = None

    def run(self) -> None:
        try:
            from swebash.interactive.repl import Repl

            output = None
            if self.terminal:
                from swebash.interactive.editor_io import ReplayInput, editor_output

                self.input = ReplayInput()
                # (TERM=dumb: the Repl draws with plain characters on its own output, dumb.py)
                output = None if self.config.dumb_term else editor_output()
            self.repl = Repl(self.config, self.session, self.runtime_factory, input=self.input,
                             output=output)
        except BaseException as exc:  # re-raised in the main thread
            self.error = exc
        finally:
            os.write(self.wake_write, b"!")

    def result(self) -> Repl:
        self.join()
        for fd in (self.wake_read, self.wake_write):
            with contextlib.suppress(OSError):
                os.close(fd)
        if self.error is not None:
            raise self.error
        assert self.repl is not None
        return self.repl


def cell_width(text: str) -> int:
    width = 0
    for char in text:
        if unicodedata.combining(char) or unicodedata.category(char) in ("Mn", "Me", "Cf"):
            continue
        width += 2 if unicodedata.east_asian_width(char) in ("W", "F") else 1
    return width


class EarlyPrompt:
    """The prompt drawn before the editor is up, and the keys typed at it."""

    def __init__(self, config: Config, session: ShellSession) -> None:
        self.config = config
        self.session = session
        self.typed = bytearray()  # every byte read: the editor gets them all
        self.arrivals: list[tuple[int, float]] = []  # (offset in ``typed``, when it was read)
        self.shown: list[str] = []  # the text echoed after the prompt (Backspace applied)
        self.echo_end: int | None = None  # where in ``typed`` the echo stopped
        self.lines: list[int] = [0]  # cell widths of the prompt's lines

    def draw(self) -> None:
        color = not self.config.no_color
        state = self.session.prompt_state()
        if state.has_prompt:
            text = state.ps1 if color else strip_colours(state.ps1)
        else:
            fragments = prompt_fragments(self.session.cwd, str(self.config.paths.home), 0,
                                         self.config.prompt, color)
            text = ansi_text(fragments) if color else plain(fragments)
        self.lines = [cell_width(line) for line in visible_text(text).split("\n")]
        write_all(1, text.encode("utf-8", "replace"))

    def echo_until(self, wake: int) -> None:
        """Echo typed keys until ``wake`` is readable (the editor is ready)."""
        while True:
            try:
                readable = select.select([0, wake], [], [], None)[0]
            except InterruptedError:
                continue
            if wake in readable:
                return
            try:
                data = os.read(0, 4096)
            except OSError:
                data = b""
            if not data:
                return
            self.keys(data)

    def keys(self, data: bytes) -> None:
        start = len(self.typed)
        self.arrivals.append((start, time.monotonic()))
        self.typed += data
        if self.echo_end is not None:
            return
        _, cols = get_winsize(1)
        out = bytearray()
        for offset, byte in enumerate(data):
            if 0x20 <= byte < 0x7f and self.lines[-1] + len(self.shown) + 1 < cols:
                out.append(byte)
                self.shown.append(chr(byte))
            elif byte in (0x7f, 0x08) and self.shown:
                out += b"\b \b"
                self.shown.pop()
            else:  # anything else, or no room left: the editor shows it
                self.echo_end = start + offset
                break
        if out:
            write_all(1, bytes(out))

    def hand_over(self, replay: ReplayInput | None) -> None:
        """Put the cursor where the prompt began; the editor starts with the text echoed so far
        and gets the keys typed after it as its first input."""
        while select.select([0], [], [], 0)[0]:
            try:
                data = os.read(0, 4096)
            except OSError:
                break
            if not data:
                break
            self.arrivals.append((len(self.typed), time.monotonic()))
            self.typed += data
        _, cols = get_winsize(1)
        up = sum(max(1, -(-width // cols)) for width in self.lines[:-1])
        up += max(0, self.lines[-1] + len(self.shown) - 1) // cols
        write_all(1, b"\r" + (f"\x1b[{up}A".encode() if up else b""))
        typed = bytes(self.typed)
        cut = len(typed) if self.echo_end is None else self.echo_end
        text, rest = typed[:cut], typed[cut:]  # what was echoed, and the keys after it
        enter = min((i for i in (rest.find(b"\r"), rest.find(b"\n")) if i >= 0), default=-1)
        if enter >= 0:  # the editor gets the line; what follows goes to the command it runs
            self.session.keys_after_enter = self.after(cut + enter + 1)
            rest = rest[:enter + 1]
        if replay is not None:
            replay.replay(text, rest)


    def after(self, offset: int) -> list[tuple[float, bytes]]:
        """The keys from ``offset`` on, in the pieces they were read in, each with how long
        after the piece holding ``offset - 1`` (the Enter) it came."""
        bounds = [start for start, _ in self.arrivals] + [len(self.typed)]
        pieces = []
        enter_time = next(t for (start, t), end in zip(self.arrivals, bounds[1:], strict=True)
                          if start < offset <= end)
        for (start, when), end in zip(self.arrivals, bounds[1:], strict=True):
            if end > offset:
                keys = bytes(self.typed[max(start, offset):end])
                pieces.append((max(0.0, when - enter_time), keys))
        return pieces


def run(config: Config, session: ShellSession, held: bool,
        runtime_factory: RuntimeFactory) -> int:
    """Start the interactive shell: the first prompt, then the REPL's loop; the AI half is
    built on first use by ``runtime_factory`` (the composition root's)."""
    early = EarlyPrompt(config, session) if held and not config.dumb_term else None
    loader = EditorLoader(config, session, terminal=held, runtime_factory=runtime_factory)
    # while the loader imports (it holds the GIL), this thread gets it back within 1 ms, not 5,
    # each time bash answers or a key comes
    switch = sys.getswitchinterval()
    sys.setswitchinterval(0.001)
    loader.start()
    try:
        session.wait_ready()
    except ShellDied as died:  # `exit` in a startup file: bash's status, as bash would end
        session.close()
        return died.status
    if early is not None:
        early.draw()
        early.echo_until(loader.wake_read)
    repl = loader.result()
    sys.setswitchinterval(switch)
    if early is not None:
        early.hand_over(loader.input)
    from swebash.interactive.repl import run_interactive

    return run_interactive(config, session, runtime_factory, repl)
