"""The command context: what the session remembers of each command, for the AI.

A bounded ring of ``CommandRecord``: command line, cwd, exit status, duration and the tail of
the output (ANSI stripped, at most 200 lines / 16 KB). Output of full-screen programs (the
alternate screen) is not kept — a screen dump of vim says nothing useful and may be huge.
Commands typed with a leading space are never recorded (HISTCONTROL=ignorespace convention).
"""

from __future__ import annotations

import re
from collections import deque
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING

from swebash.visible import TERMINAL_NOISE_BYTES

if TYPE_CHECKING:  # (swebash.api costs ~25 ms to import: not before the first prompt)
    from swebash.api import CommandRecord

MAX_RECORDS = 100
TAIL_LINES = 200
TAIL_BYTES = 16 * 1024
ANSI = TERMINAL_NOISE_BYTES  # one definition of escape sequences: swebash.visible
ALT_SCREEN = re.compile(rb"\x1b\[\?(1049|1047|47)h")


class OutputTail:
    """Keeps the last TAIL_BYTES of raw output and notices the alternate screen."""

    def __init__(self, limit: int = TAIL_BYTES * 2) -> None:
        self.limit = limit
        self.buf = bytearray()
        self.dropped = False
        self.fullscreen = False

    def add(self, data: bytes) -> None:
        if not self.fullscreen and ALT_SCREEN.search(data):
            self.fullscreen = True
        self.buf += data
        if len(self.buf) > self.limit:
            del self.buf[: len(self.buf) - self.limit]
            self.dropped = True

    def text(self) -> tuple[str, bool]:
        """(ANSI-stripped tail, truncated?)."""
        if self.fullscreen:
            return "", False
        clean = ANSI.sub(b"", bytes(self.buf).replace(b"\r\n", b"\n")).replace(b"\r", b"\n")
        truncated = self.dropped
        if len(clean) > TAIL_BYTES:
            clean = clean[-TAIL_BYTES:]
            truncated = True
        lines = clean.decode("utf-8", "replace").split("\n")
        if len(lines) > TAIL_LINES + 1:
            lines = lines[-(TAIL_LINES + 1):]
            truncated = True
        return "\n".join(lines), truncated


class CommandContext:
    """Implements ``swebash.api.TerminalContext`` over the session's records."""

    def __init__(self, cwd: Callable[[], str], env: Callable[[], Mapping[str, str]],
                 limit: int = MAX_RECORDS) -> None:
        self._records: deque[CommandRecord] = deque(maxlen=limit)
        self._cwd = cwd
        self._env = env

    def add(self, record: CommandRecord) -> None:
        if record.command.startswith(" ") or not record.command.strip():
            return
        self._records.append(record)

    def recent_commands(self, limit: int) -> Sequence[CommandRecord]:
        if limit <= 0:
            return []
        return list(self._records)[-limit:]

    def cwd(self) -> str:
        return self._cwd()

    def exported_env(self) -> Mapping[str, str]:
        return self._env()

    def __len__(self) -> int:
        return len(self._records)
