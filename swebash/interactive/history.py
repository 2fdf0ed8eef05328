"""One history for ↑, Ctrl-R, ``history``, ``fc`` and ``!``, kept in swebash's history file.

The session's bash holds the list ``history``/``fc``/``!`` see; this class holds the same list
for the line editor and the file. At start the file's entries are loaded into bash, which
applies HISTSIZE; after a command bash says (in its start marker) whether HISTCONTROL and
HISTIGNORE let the line in, and only then is it remembered here. After a line that uses
``history`` or ``fc`` (``-c``, ``-d``, ``fc -s`` …) the list is read back from bash; if entries
went away the file is rewritten to match. The first time, the file is seeded from
``~/.bash_history``.

The file keeps prompt-toolkit's format (``# date`` then ``+line`` per line of the entry). Each
entry is appended whole under ``flock`` (``durable.append_whole``), so concurrent shells never
interleave half entries; a short write (disk full) is cut back so no partial entry is ever
left, and reported once. An unusable location (a directory, a read-only
parent, a state dir that is a file) gives one warning and a shell that does not persist.
"""

from __future__ import annotations

import contextlib
import datetime
import os
import re
import sys
from collections.abc import Iterable, Iterator
from pathlib import Path

from prompt_toolkit.history import History

from swebash.durable import append_whole

USES_HISTORY = re.compile(r"(^|[\s;&|(`])(history|fc)(\s|$|[;&|)])")


def parse_bash_history(data: str) -> list[str]:
    """Entries of a bash history file; ``#<digits>`` lines start multi-line entries."""
    entries: list[str] = []
    timestamped = bool(re.match(r"#\d+\n", data))
    current: list[str] | None = None
    for line in data.split("\n"):
        if timestamped and re.fullmatch(r"#\d+", line):
            if current is not None:
                entries.append("\n".join(current))
            current = []
        elif timestamped and current is not None:
            current.append(line)
        elif not timestamped and line:
            entries.append(line)
    if current is not None:
        while current and current[-1] == "":
            current.pop()
        entries.append("\n".join(current))
    return [entry for entry in entries if entry.strip()]


def bash_history_text(entries: Iterable[str]) -> str:
    """Entries for bash's ``__sb_histload`` (NUL-separated: multi-line entries stay whole)."""
    return "".join(f"{entry}\0" for entry in entries)


def parse_file(data: str) -> list[str]:
    entries: list[str] = []
    lines: list[str] = []
    for line in data.split("\n"):
        if line.startswith("+"):
            lines.append(line[1:])
        elif lines:
            entries.append("\n".join(lines))
            lines = []
    if lines:
        entries.append("\n".join(lines))
    return entries


def entry_bytes(entry: str) -> bytes:
    lines = [f"\n# {datetime.datetime.now()}\n"]
    lines.extend(f"+{line}\n" for line in entry.split("\n"))
    return "".join(lines).encode("utf-8", "surrogateescape")


class ShellHistory(History):
    def __init__(self, path: Path | None, seed: Path | None = None) -> None:
        super().__init__()
        self.path = path
        self._warned = False
        if path is not None:
            self._prepare(path, seed)

    def _warn(self, message: str) -> None:
        if not self._warned:
            self._warned = True
            print(f"swebash: {message}", file=sys.stderr)

    def _prepare(self, path: Path, seed: Path | None) -> None:
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            if path.is_dir():
                raise IsADirectoryError(f"{path} is a directory")
            fresh = not path.exists()
            fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT | os.O_CLOEXEC, 0o600)
            os.close(fd)
        except OSError as exc:
            self._warn(f"history will not be saved ({exc.strerror or exc})")
            self.path = None
            return
        if fresh and seed is not None:
            try:
                seeded = parse_bash_history(seed.read_text("utf-8", "surrogateescape"))
            except OSError:
                return
            self._rewrite(seeded)

    # ------------------------------------------------------------------ prompt-toolkit

    def load_history_strings(self) -> Iterator[str]:
        if self.path is None:
            return iter(())
        try:
            data = self.path.read_text("utf-8", "surrogateescape")
        except OSError:
            return iter(())
        return reversed(parse_file(data))

    def append_string(self, string: str) -> None:
        """prompt-toolkit's own append on Enter: ignored, the REPL calls ``remember``."""

    def store_string(self, string: str) -> None:
        if self.path is None:
            return
        try:  # whole or not at all: a short write is cut back, never a partial entry
            append_whole(self.path, entry_bytes(string))
        except OSError as exc:
            self._warn(f"history not saved ({exc.strerror or exc})")

    # ------------------------------------------------------------------ the one list

    def entries(self) -> list[str]:
        if not self._loaded:
            self._loaded_strings = list(self.load_history_strings())
            self._loaded = True
        return self._loaded_strings[::-1]

    def remember(self, line: str) -> None:
        """A line bash added to its history (or an AI line, which bash never sees)."""
        self.entries()
        self._loaded_strings.insert(0, line)
        self.store_string(line)

    def replace(self, entries: list[str]) -> None:
        """The list as bash now has it (after ``history -c``, ``fc -s`` …)."""
        old = self.entries()
        if entries == old:
            return
        self._loaded_strings = entries[::-1]
        # bash keeps at most HISTSIZE entries: a longer file is fine, a shorter list that is
        # not the file's tail means entries were deleted
        if len(entries) >= len(old) and entries[: len(old)] == old:
            for entry in entries[len(old):]:
                self.store_string(entry)
        elif not (entries and old[-len(entries):] == entries):
            self._rewrite(entries)

    def _rewrite(self, entries: list[str]) -> None:
        if self.path is None:
            return
        tmp = self.path.with_name(self.path.name + ".tmp")
        try:
            fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_CLOEXEC, 0o600)
            with os.fdopen(fd, "wb") as handle:
                handle.write(b"".join(entry_bytes(entry) for entry in entries))
            os.replace(tmp, self.path)
        except OSError as exc:
            self._warn(f"history not saved ({exc.strerror or exc})")
            with contextlib.suppress(OSError):
                tmp.unlink()


SharedFileHistory = ShellHistory  # the name the REPL used before (kept for its callers)
