"""History file safe for several swebash processes appending at once.

prompt-toolkit's FileHistory format is kept (so its loader reads it), but each entry is written
with ONE ``write`` on an O_APPEND descriptor under ``flock``: concurrent shells never interleave
half entries. Lines typed with a leading space are not saved (HISTCONTROL=ignorespace).
"""

from __future__ import annotations

import datetime
import fcntl
import os
from pathlib import Path

from prompt_toolkit.history import FileHistory


class SharedFileHistory(FileHistory):
    def __init__(self, path: Path) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        super().__init__(str(path))

    def append_string(self, string: str) -> None:
        if string.startswith(" ") or not string.strip() or string.lstrip().startswith("??"):
            return  # `?? task` is not history: the command it produces is
        super().append_string(string)

    def store_string(self, string: str) -> None:
        lines = [f"\n# {datetime.datetime.now()}\n"]
        lines.extend(f"+{line}\n" for line in string.split("\n"))
        data = "".join(lines).encode("utf-8", "surrogateescape")
        try:
            fd = os.open(self.filename, os.O_WRONLY | os.O_APPEND | os.O_CREAT | os.O_CLOEXEC,
                         0o600)
        except OSError:
            return  # an unwritable history must not break the shell
        try:
            fcntl.flock(fd, fcntl.LOCK_EX)
            os.write(fd, data)
        finally:
            os.close(fd)
