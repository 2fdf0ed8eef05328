"""The session's helper calls: completion, the environment, history, captured output, the
user's prompt — each one hidden command in the session's bash (see ``ShellSession._hidden``:
nothing it prints reaches the screen, ``$?``/``$_``/history are untouched, and its output
comes through a fifo, so the environment dump never touches the disk).
"""

from __future__ import annotations

import contextlib
import threading
from pathlib import Path

from swebash.shell import bashinit
from swebash.shell.freshline import LineEnd
from swebash.shell.pty import write_all
from swebash.shell.shellopts import OPTS_FILE, ShellOptions, read_options
from swebash.shell.userprompt import STATE_FILE, PromptState, read_prompt_state


class HelperCalls:
    """Mixed into ShellSession, which provides what is declared here."""

    dir: str
    nonce: str
    lock: threading.RLock
    _env: dict[str, str]
    stdout_fd: int
    line_end: LineEnd

    @property
    def alive(self) -> bool:
        raise NotImplementedError

    def _hidden(self, command: str, timeout: float) -> bytes | None:
        raise NotImplementedError

    def _write_private(self, name: str, data: bytes) -> Path:
        raise NotImplementedError

    def take_late_output(self) -> bytes:
        raise NotImplementedError

    def prompt_state(self) -> PromptState:
        """The user's expanded PS1/PS2 and bash's ``$-`` as of the last prompt."""
        return read_prompt_state(Path(self.dir, STATE_FILE), self.nonce)

    def needs_more_input(self, text: str) -> bool:
        from swebash.shell.continuation import needs_more_input

        return needs_more_input(text)

    def exported_env(self) -> dict[str, str]:
        data = self._hidden("__sb_env", 2.0) if self.alive else None
        if not data:
            return dict(self._env)
        env: dict[str, str] = {}
        for entry in data.split(b"\0"):
            key, sep, value = entry.partition(b"=")
            if sep and key:
                env[key.decode("utf-8", "replace")] = value.decode("utf-8", "replace")
        return env

    def complete_raw(self, words: list[str], cur: str, line: str, timeout: float = 0.1,
                     comp_type: int = 9) -> bytes | None:
        """Bash's answer for completing the last of ``words`` (as typed; ``cur`` is it
        unquoted), in the format of bashcomplete.py; None on timeout."""
        if not self.alive:
            return None
        with self.lock:
            payload = "\0".join([str(len(words) - 1), str(comp_type), line, cur, *words]) + "\0"
            self._write_private("cline", payload.encode("utf-8", "surrogateescape"))
            try:
                return self._hidden("__sb_complete", timeout)
            finally:
                with contextlib.suppress(OSError):
                    Path(self.dir, "cline").unlink()

    def complete(self, text_before_cursor: str, timeout: float = 0.1) -> list[str]:
        """What one Tab would insert for each candidate (quoted, ``/`` after directories)."""
        from swebash.shell.completion import complete_line

        return [c.insert for c in complete_line(self, text_before_cursor, timeout)]

    def shell_options(self) -> ShellOptions:
        """shopt, set -o, IGNOREEOF and HISTFILE as of the last prompt."""
        return read_options(Path(self.dir, OPTS_FILE), self.nonce)

    def refresh_prompt(self, timeout: float = 1.0) -> None:
        """An empty line: bash reads it as a line, so it runs the user's PROMPT_COMMAND again,
        expands the prompt anew, and prints the notices of jobs that ended ("[1]+  Done …",
        after which they are gone from ``jobs``) — shown now, before the prompt, as bash
        shows them."""
        if not self.alive:
            return
        with self.lock:
            self._hidden(bashinit.refresh_command(self.nonce), timeout)
            shown = self.take_late_output()
            if shown:
                write_all(self.stdout_fd, shown)
                self.line_end.feed(shown)

    def history_info(self, timeout: float = 2.0) -> list[str] | None:
        """HISTSIZE, then whether the startup files left HISTFILE set, its value, whether they
        set HISTFILESIZE and its value (bashstate.__sb_histinfo)."""
        data = self._hidden("__sb_histinfo", timeout)
        if data is None:
            return None
        return data.decode("utf-8", "surrogateescape").split("\0")[:5]

    def dump_history(self, timeout: float = 2.0) -> bytes | None:
        """Bash's history list (histsync.parse_dump), through the fifo; None on timeout."""
        return self._hidden("__sb_histdump", timeout)

    def load_history(self, data: bytes, histfile_lines: int = 0, timeout: float = 5.0) -> None:
        """Replace bash's history list with ``data`` (NUL-terminated entries); bash then counts
        ``histfile_lines`` lines of HISTFILE as read, as after its own start."""
        self._write_private("histload", data)
        self._write_private("histlines", b"\n" * histfile_lines)
        try:
            self._hidden("__sb_histload", timeout)
        finally:
            for name in ("histload", "histlines"):
                with contextlib.suppress(OSError):
                    Path(self.dir, name).unlink()

    def state_var(self, name: str) -> str:
        """The bash name of swebash's state variable ``name`` (see bashinit.STATE_VARS)."""
        return bashinit.var(name, self.nonce)

    def capture(self, command: str, timeout: float = 2.0) -> bytes | None:
        """Output of a builtin command run as a hidden helper (e.g. ``set -o``)."""
        return self._hidden(command, timeout)
