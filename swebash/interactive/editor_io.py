"""The line editor's terminal input and output, with two changes to prompt-toolkit's.

Design note. (1) Keys typed before the editor was up: swebash draws the first prompt and echoes
keys while prompt-toolkit is still loading (see firstprompt.py), so those keys have already been
read from the tty; they cannot be pushed back (TIOCSTI is gone from current kernels), and
making them the buffer's default text would lose what they mean (Enter, Tab, Ctrl-C, arrows).
``ReplayInput`` hands them to prompt-toolkit's own VT100 parser before anything it reads from
the tty, so they act exactly as if typed into the editor: the text already on the screen before
the editor's first drawing (as prompt-toolkit's own typeahead), the keys after it once the
history is loaded.
(2) tmux (``scroll-on-clear``, on by default) and some other terminals copy the whole screen into
the scrollback when "erase below" (ED 0) is sent with the cursor in the top-left cell. Each time
prompt-toolkit redraws a prompt on the first row of the window (a new terminal, after
``clear``) it sends exactly that, and the prompt or the command line ended up twice in the
scrollback. prompt-toolkit erases below only from the first column of its area, so
``SaferOutput.erase_down`` steps one cell right, erases below from there (never from the
top-left cell), steps back and erases the rest of the line: the same cells, nothing copied.
"""

from __future__ import annotations

import asyncio
import contextlib
import sys
from collections.abc import Callable
from contextlib import AbstractContextManager

from prompt_toolkit.input.typeahead import store_typeahead
from prompt_toolkit.input.vt100 import Vt100Input
from prompt_toolkit.input.vt100_parser import Vt100Parser
from prompt_toolkit.key_binding import KeyPress
from prompt_toolkit.output import Output, create_output
from prompt_toolkit.output.vt100 import Vt100_Output


class ReplayInput(Vt100Input):
    """stdin, after the keys given to ``replay`` (once, before anything read from the tty)."""

    def __init__(self) -> None:
        super().__init__(sys.stdin)
        self._replay = ""

    def replay(self, text: bytes, rest: bytes) -> None:
        """``text``: keys the first prompt echoed (printable, Backspace), handled before the
        editor first draws itself, so it draws them at once; ``rest``: keys after them, handled
        once the history has loaded (an ↑ must find it)."""
        if text:
            keys: list[KeyPress] = []
            parser = Vt100Parser(keys.append)
            parser.feed(text.decode("utf-8", "replace"))
            parser.flush()
            store_typeahead(self, keys)  # prompt-toolkit's own: fed before its first drawing
        self._replay += rest.decode("utf-8", "replace")

    def attach(self, input_ready_callback: Callable[[], None]) -> AbstractContextManager[None]:
        attached = super().attach(input_ready_callback)
        if self._replay:  # nothing may be readable on the tty: ask for a read soon
            with contextlib.suppress(RuntimeError):
                loop = asyncio.get_running_loop()
                # one turn later: the editor's first drawing (right after attach) starts the
                # task that loads the history, which must have run before an ↑ is replayed
                loop.call_soon(loop.call_soon, input_ready_callback)
        return attached

    def read_keys(self) -> list[KeyPress]:
        if self._replay:
            typed, self._replay = self._replay, ""
            self.vt100_parser.feed(typed)
        return super().read_keys()


class SaferOutput(Vt100_Output):
    def erase_down(self) -> None:
        self.write_raw("\x1b[C\x1b[J\x1b[D\x1b[K")


def editor_output() -> Output:
    """prompt-toolkit's output for this terminal (its environment settings too), with the
    erase that does not copy the screen into tmux's scrollback."""
    output = create_output()
    if type(output) is not Vt100_Output:
        return output
    return SaferOutput.from_pty(output.stdout, term=output.term,
                                default_color_depth=output.default_color_depth,
                                enable_bell=output.enable_bell)
