"""One history for ↑, Ctrl-R, ``history``, ``fc`` and ``!``, kept in swebash's history file.

The file never loses an entry by itself: entries are only ever appended, whole, under
``flock`` (``durable.append_whole``), and the file is rewritten only to take out the entries a
deletion named (``history -d``, ``history -c``) or, when the user set HISTFILESIZE, the oldest
ones beyond it — each time under the appenders' lock, re-reading the file first, so what other
swebash windows appended meanwhile stays (``durable.rewrite_locked``; a symlinked file stays a
symlink). Listing (``history``, ``fc -l``) never writes. The session's bash holds the newest
HISTSIZE entries (histsync.py mirrors exactly which); the file keeps all of them.

Format (prompt-toolkit's, extended): an entry is a ``# `` line — the time it was added and
``[pid.n]``, which makes it unique, so a deletion finds exactly the entry it named even when
the same command was typed twice — then one ``+`` line per line of the command. Any byte
round-trips: the file is read and written as bytes (surrogateescape), a line of an entry that
looks like ``#2024``, a CR or invalid UTF-8 is just the text of a ``+`` line. The first time,
the file is seeded from ``~/.bash_history``. An unusable location (a directory, a read-only
parent, a state dir that is a file) gives one warning and a shell that does not persist.
"""

from __future__ import annotations

import datetime
import itertools
import os
import re
import sys
from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path

from prompt_toolkit.history import History

from swebash.durable import append_whole, rewrite_locked

USES_HISTORY = re.compile(r"(^|[\s;&|(`])(history|fc)(\s|$|[;&|)])")
_COUNTER = itertools.count()


@dataclass(frozen=True)
class Entry:
    text: str
    stamp: str  # the `# ` line without its prefix: when, and [pid.n]; unique per entry


def new_entry(text: str) -> Entry:
    return Entry(text, f"{datetime.datetime.now()} [{os.getpid()}.{next(_COUNTER)}]")


def entry_bytes(entry: Entry) -> bytes:
    lines = [f"\n# {entry.stamp}\n"]
    lines.extend(f"+{line}\n" for line in entry.text.split("\n"))
    return "".join(lines).encode("utf-8", "surrogateescape")


def parse_entries(data: bytes) -> list[Entry]:
    """Entries of swebash's history file, in file order."""
    entries: list[Entry] = []
    stamp = ""
    lines: list[str] | None = None
    for line in data.decode("utf-8", "surrogateescape").split("\n"):
        if line.startswith("+"):
            if lines is None:
                lines = []
            lines.append(line[1:])
            continue
        if lines is not None:
            entries.append(Entry("\n".join(lines), stamp))
            lines = None
        if line.startswith("#"):
            stamp = line[1:].strip()
    if lines is not None:
        entries.append(Entry("\n".join(lines), stamp))
    return entries


def parse_file(data: str) -> list[str]:
    """The commands of a history file's text (tests and tools)."""
    return [e.text for e in parse_entries(data.encode("utf-8", "surrogateescape"))]


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


def without(entries: list[Entry], gone: Iterable[Entry]) -> list[Entry]:
    """``entries`` less one occurrence of each of ``gone``."""
    left = Counter(gone)
    kept = []
    for entry in entries:
        if left[entry] > 0:
            left[entry] -= 1
        else:
            kept.append(entry)
    return kept


class ShellHistory(History):
    """The list in memory (oldest first) and the file behind it."""

    def __init__(self, path: Path | None, seed: Path | None = None) -> None:
        super().__init__()
        self.path = path
        self._warned = False
        self._list: list[Entry] | None = None
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
            append_whole(path, b"")  # creates it (0600), through a symlink too
        except OSError as exc:
            self._warn(f"history will not be saved ({exc.strerror or exc})")
            self.path = None
            return
        if fresh and seed is not None:
            try:
                seeded = parse_bash_history(seed.read_text("utf-8", "surrogateescape"))
            except OSError:
                return
            self._append_file([new_entry(text) for text in seeded])

    def _read(self) -> list[Entry]:
        if self.path is None:
            return []
        try:
            return parse_entries(self.path.read_bytes())
        except OSError:
            return []

    # ------------------------------------------------------------------ prompt-toolkit

    def load_history_strings(self) -> Iterator[str]:
        """The file's commands, newest first (prompt-toolkit's order)."""
        return (entry.text for entry in reversed(self._read()))

    def append_string(self, string: str) -> None:
        """prompt-toolkit's own append on Enter: ignored, the REPL calls ``remember``."""

    def store_string(self, string: str) -> None:
        self._append_file([new_entry(string)])

    # ------------------------------------------------------------------ the one list

    def records(self) -> list[Entry]:
        if self._list is None:
            self._list = self._read()
            self._loaded_strings = [entry.text for entry in reversed(self._list)]
            self._loaded = True
        return self._list

    def entries(self) -> list[str]:
        return [entry.text for entry in self.records()]

    def remember(self, line: str, *, persist: bool = True) -> Entry:
        """A line bash added to its history (or an AI line, which bash never sees); not
        written to the file when the user asked for no history file (``unset HISTFILE``)."""
        entry = new_entry(line)
        self.records().append(entry)
        self._loaded_strings.insert(0, line)
        if persist:
            self._append_file([entry])
        return entry

    def change(self, gone: list[Entry], added: list[str], *,
               persist: bool = True) -> list[Entry]:
        """Entries a ``history -d``/``-c`` took out and ones bash added itself (``fc -s``,
        ``history -s``, ``-r``/``-n``): memory and file follow, other windows' entries stay.
        The new entries, in order."""
        fresh = [new_entry(text) for text in added]
        if not gone and not fresh:
            return fresh
        self._list = without(self.records(), gone) + fresh
        self._loaded_strings = [entry.text for entry in reversed(self._list)]
        if gone:
            keep_new = fresh if persist else []
            self._rewrite(lambda entries: without(entries, gone) + keep_new)
        elif persist:
            self._append_file(fresh)
        return fresh

    def limit_file(self, size: int) -> None:
        """HISTFILESIZE set by the user: the file keeps its newest ``size`` entries."""
        self._rewrite(lambda entries: entries[max(0, len(entries) - size):]
                      if len(entries) > size else None)

    def _append_file(self, entries: list[Entry]) -> None:
        if self.path is None or not entries:
            return
        try:  # whole or not at all: a short write is cut back, never a partial entry
            append_whole(self.path, b"".join(entry_bytes(e) for e in entries))
        except OSError as exc:
            self._warn(f"history not saved ({exc.strerror or exc})")

    def _rewrite(self, keep: Callable[[list[Entry]], list[Entry] | None]) -> None:
        if self.path is None:
            return

        def change(data: bytes) -> bytes | None:
            entries = parse_entries(data)
            kept = keep(entries)
            if kept is None:
                return None
            return b"".join(entry_bytes(e) for e in kept)

        try:
            rewrite_locked(self.path, change)
        except OSError as exc:
            self._warn(f"history not saved ({exc.strerror or exc})")
