"""``bind -x`` widgets (fzf's Ctrl-T/Ctrl-R/Alt-C, atuin's Ctrl-R), shell-expand-line and the
user's INT trap: shell code run in the session's bash on behalf of the line editor.

Design note. A widget is a shell command bound to a key; bash runs it with READLINE_LINE,
READLINE_POINT and READLINE_MARK holding its editor's line, cursor and mark, lets it use the
terminal (fzf draws its finder on /dev/tty) and reads the three values back. Running it in a
separate bash does not work (the widget's functions and variables, the history for Ctrl-R and
the cwd for Alt-C live in the session's bash), nor as a hidden helper (it needs the terminal).
So the key's handler leaves the prompt the way prompt-toolkit runs anything "in the terminal"
(the prompt is erased, the input detached, keys typed meanwhile stay in the tty), sends line,
point and mark to bash in a private file, and runs ``__sb_widget`` with the real terminal pumped
to and from the pty exactly as for a command (``ShellSession.run_on_terminal``); the new values
come back through the helper fifo and the prompt is drawn again with them — as bash 5 does,
whose prompt line is also replaced by what the widget prints. READLINE_POINT counts characters.
"""

from __future__ import annotations

from typing import Any

from prompt_toolkit.application import Application, in_terminal
from prompt_toolkit.buffer import Buffer
from prompt_toolkit.document import Document
from prompt_toolkit.input.vt100_parser import Vt100Parser
from prompt_toolkit.key_binding.key_processor import KeyPress

from swebash.interactive.keyqueue import hold_keys
from swebash.shell.session import ShellSession


def to_keys(chars: str) -> list[KeyPress]:
    """The keys prompt-toolkit sees when a terminal sends ``chars``."""
    keys: list[KeyPress] = []
    parser = Vt100Parser(keys.append)
    parser.feed(chars)
    parser.flush()
    return keys


class EditorMark:
    """Readline's mark (set-mark, exchange-point-and-mark, READLINE_MARK) for the line."""

    def __init__(self) -> None:
        self.position = 0


def parse_answer(data: bytes | None, line: str, point: int, mark: int) -> tuple[str, int, int]:
    """READLINE_LINE, READLINE_POINT, READLINE_MARK as the widget left them."""
    if not data:
        return line, point, mark
    fields = data.decode("utf-8", "surrogateescape").split("\0")
    if len(fields) < 3:
        return line, point, mark
    new_line = fields[0]

    def number(text: str, default: int) -> int:
        try:
            value = int(text, 0)
        except ValueError:
            return default
        return max(0, min(value, len(new_line)))

    return new_line, number(fields[1], point), number(fields[2], mark)


class Widgets:
    def __init__(self, session: ShellSession, mark: EditorMark) -> None:
        self.session = session
        self.mark = mark

    def run(self, app: Application[Any], buffer: Buffer, command: str) -> None:
        """Run the shell command ``command`` as bash runs a ``bind -x`` binding."""

        async def work(later: list[KeyPress]) -> None:
            line, point = buffer.text, buffer.cursor_position
            mark = min(self.mark.position, len(line))
            payload = "\0".join([command, line, str(point), str(mark)]) + "\0"
            async with in_terminal():
                data = self.session.run_on_terminal(
                    "__sb_widget", payload.encode("utf-8", "surrogateescape"))
            typed = self.session.take_typeahead()  # keys typed as the widget ended
            if typed:
                later.extend(to_keys(typed.replace("\n", "\r")))
            new_line, new_point, new_mark = parse_answer(data, line, point, mark)
            if (new_line, new_point) != (line, point):
                buffer.document = Document(new_line, new_point)
            self.mark.position = new_mark

        hold_keys(app, work)

    def expand_line(self, app: Application[Any], buffer: Buffer) -> None:
        """readline's shell-expand-line (M-C-e): the line's expansions done, in bash."""
        self.run(app, buffer, "__sb_expand_line")

    def interrupted(self) -> None:
        """Ctrl-C at the prompt: the user's INT trap, if any, runs (as bash runs it)."""
        if self.session.alive:
            self.session.run_on_terminal("__sb_int_trap", keys=False)
