"""Which of swebash's history entries the session's bash holds, and what a command changed.

Bash keeps the newest HISTSIZE entries of the one history (history.py keeps all of them). This
module mirrors bash's list exactly: every line bash added (its start marker says so, with
HISTSIZE at that moment) is appended here and the oldest dropped past HISTSIZE, as bash's
stifled list drops them. After a line that used ``history`` or ``fc``, swebash reads bash's
list back — one ``history`` listing through the helper fifo, each entry behind a marker only
this session knows (HISTTIMEFORMAT), so multi-line entries and lines like ``#2024`` are
unambiguous — and compares it with the mirror: entries that are gone were deleted
(``history -d``; every one of them: ``history -c``), entries that are new were added by bash
itself (``fc -s``, ``history -s``, ``-r``, ``-n``). Entries that left the front because
HISTSIZE shrank are not deletions, and a plain listing changes nothing.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, field
from difflib import SequenceMatcher
from pathlib import Path
from typing import Protocol

from swebash.interactive.history import USES_HISTORY, Entry, ShellHistory
from swebash.shell.shellopts import ShellOptions

DEFAULT_HISTSIZE = 500  # bash's
READS_HISTFILE = re.compile(r"\bhistory\s+-[a-z]*[rn]")


def parse_histsize(value: str, previous: int | None) -> int | None:
    """HISTSIZE as bash reads it: unset or empty, or negative, is no limit; a number is the
    limit; anything else leaves the limit as it was."""
    value = value.strip()
    if not value:
        return None
    try:
        number = int(value)
    except ValueError:
        return previous
    return None if number < 0 else number


@dataclass(frozen=True)
class Dump:
    histsize: str  # $HISTSIZE as it was
    texts: list[str]  # bash's list, oldest first


def dump_marker(nonce: str) -> str:
    """The HISTTIMEFORMAT that marks where each entry of a listing starts."""
    return f"\x01{nonce}\x02"


def parse_dump(data: bytes, nonce: str) -> Dump:
    """``HISTSIZE NUL`` then bash's ``history`` listing with :func:`dump_marker` as the time
    format: ``%5d%c <marker><entry>\\n`` per entry."""
    head, _, listing = data.partition(b"\0")
    starts = re.compile(rb"(?:^|\n) *\d+[* ] " + re.escape(dump_marker(nonce).encode()))
    bounds = [(m.start(), m.end()) for m in starts.finditer(listing)]
    texts = []
    for at, (_, begin) in enumerate(bounds):
        end = bounds[at + 1][0] if at + 1 < len(bounds) else len(listing)
        body = listing[begin:end]
        if body.endswith(b"\n") and at + 1 == len(bounds):
            body = body[:-1]
        texts.append(body.decode("utf-8", "surrogateescape"))
    return Dump(head.decode("utf-8", "surrogateescape"), texts)


@dataclass
class Changes:
    gone: list[Entry] = field(default_factory=list)
    added: list[str] = field(default_factory=list)
    cleared: bool = False  # every entry bash held is gone: `history -c`
    _slots: list[Entry | None] = field(default_factory=list)

    @property
    def any(self) -> bool:
        return bool(self.gone or self.added)


class BashWindow:
    """The entries bash holds, oldest first."""

    def __init__(self) -> None:
        self.entries: list[Entry] = []
        self.histsize: int | None = DEFAULT_HISTSIZE

    def load(self, entries: list[Entry], histsize: str) -> None:
        self.histsize = parse_histsize(histsize, self.histsize)
        self.entries = list(entries)
        self._stifle()

    def loadable(self, entries: list[Entry]) -> list[Entry]:
        """The entries to give bash: the newest HISTSIZE that bash can hold (a NUL byte ends
        a bash string, so such an entry stays swebash's only)."""
        usable = [e for e in entries if "\0" not in e.text]
        if self.histsize is None:
            return usable
        return usable[max(0, len(usable) - self.histsize):] if self.histsize else []

    def adopt(self, dump: Dump) -> None:
        """Bash's list is ``dump``: the mirror becomes the entries it matches (none deleted)."""
        self.histsize = parse_histsize(dump.histsize, self.histsize)
        matcher = SequenceMatcher(None, [e.text for e in self.entries], dump.texts,
                                  autojunk=False)
        self.entries = [self.entries[block.a + k] for block in matcher.get_matching_blocks()
                        for k in range(block.size)]

    def added(self, entry: Entry, histsize: str) -> None:
        self.histsize = parse_histsize(histsize, self.histsize)
        if self.histsize != 0:
            self.entries.append(entry)
            self._stifle()

    def _stifle(self) -> None:
        if self.histsize is not None and len(self.entries) > self.histsize:
            del self.entries[: len(self.entries) - self.histsize]

    def compare(self, dump: Dump) -> Changes:
        """What changed between the mirror and bash's list as ``dump`` shows it."""
        self.histsize = parse_histsize(dump.histsize, self.histsize)
        self._stifle()
        old = [e.text for e in self.entries]
        new = dump.texts
        slots: list[Entry | None] = [None] * len(new)
        if old == new:
            return Changes(_slots=list(self.entries))
        head = 0
        while head < min(len(old), len(new)) and old[head] == new[head]:
            slots[head] = self.entries[head]
            head += 1
        tail = 0
        while (tail < min(len(old), len(new)) - head
               and old[len(old) - 1 - tail] == new[len(new) - 1 - tail]):
            slots[len(new) - 1 - tail] = self.entries[len(old) - 1 - tail]
            tail += 1
        changes = Changes(_slots=slots)
        # bash is full: entries gone from the front left as others came in (`fc` adds what it
        # runs, `history -r`/`-n` what they read, swebash's line after `fc` is in for a
        # moment) — not deletions
        full = self.histsize is not None and len(new) == self.histsize
        matcher = SequenceMatcher(None, old[head:len(old) - tail], new[head:len(new) - tail],
                                  autojunk=False)
        for tag, i1, i2, j1, j2 in matcher.get_opcodes():
            if tag == "equal":
                for k in range(i2 - i1):
                    slots[head + j1 + k] = self.entries[head + i1 + k]
                continue
            if not (full and head == 0 and i1 == 0):
                changes.gone += self.entries[head + i1: head + i2]
            changes.added += new[head + j1: head + j2]
        changes.cleared = bool(old) and len(changes.gone) == len(old)
        return changes

    def settle(self, changes: Changes, fresh: list[Entry]) -> None:
        """After history.py made ``fresh`` entries of ``changes.added``: bash's list now."""
        pending = iter(fresh)
        self.entries = [slot if slot is not None else next(pending)
                        for slot in changes._slots]


class HistorySync:
    """The REPL's side of the one history: loads bash's list, follows what each line did."""

    def __init__(self, history: ShellHistory, session: HistorySession) -> None:
        self.history = history
        self.session = session
        self.window = BashWindow()

    def load(self) -> None:
        """At start: HISTFILESIZE set by the user limits swebash's file; bash gets the newest
        HISTSIZE entries, and counts HISTFILE's lines as read, as after its own start."""
        info = self.session.history_info()
        if info is None or len(info) < 5:
            return
        histsize, histfile_set, histfile, limit_set, limit = info
        if limit_set and limit.strip().isdigit():
            self.history.limit_file(int(limit))
        self.window.histsize = parse_histsize(histsize, self.window.histsize)
        entries = self.window.loadable(self.history.records())
        payload = b"".join(e.text.encode("utf-8", "surrogateescape") + b"\0" for e in entries)
        lines = count_lines(Path(self.session.cwd, os.path.expanduser(histfile))) \
            if histfile_set and histfile else 0
        self.session.load_history(payload, lines)
        self.window.load(entries, histsize)
        data = self.session.dump_history()  # what bash took, as it took it: nothing is
        if data is not None:  # ever deleted from the file for a difference found here
            self.window.adopt(parse_dump(data, self.session.nonce))

    def remember(self, line: str) -> None:
        """A line bash never sees (`?`, `ai …`, one swebash answered): ↑ and the file."""
        self.history.remember(line, persist=self.session.shell_options().history_file)

    def after_command(self, line: str, *, synced: bool = True) -> None:
        """``line`` ran in bash: remember it if bash did; after ``history``/``fc``, follow
        what bash's list became (``synced=False``: bash is gone, nothing to follow)."""
        if self.session.last_added_to_history:
            entry = self.history.remember(line, persist=self.session.history_persists)
            self.window.added(entry, self.session.histsize_at_add)
        if synced and USES_HISTORY.search(line):
            self.sync(line)

    def sync(self, line: str) -> None:
        """Follow bash's list after ``line``: entries it added are remembered, but those that
        ``history -r``/``-n`` read from HISTFILE are not written to swebash's file again
        (another swebash window wrote them there already, or they were never typed here)."""
        data = self.session.dump_history()
        if data is None:
            return
        changes = self.window.compare(parse_dump(data, self.session.nonce))
        gone = list(self.history.records()) if changes.cleared else changes.gone
        persist = self.session.shell_options().history_file and not READS_HISTFILE.search(line)
        fresh = self.history.change(gone, changes.added, persist=persist)
        self.window.settle(changes, fresh)


def count_lines(path: Path) -> int:
    """The lines of a bash history file that readline counts as read (timestamps are not)."""
    try:
        data = path.read_bytes()
    except OSError:
        return 0
    lines = data.split(b"\n")
    if lines and lines[-1] == b"":
        lines.pop()
    return sum(1 for line in lines if not (line[:1] == b"#" and line[1:2].isdigit()))


class HistorySession(Protocol):
    nonce: str
    last_added_to_history: bool
    history_persists: bool
    histsize_at_add: str

    @property
    def cwd(self) -> str: ...

    def history_info(self, timeout: float = 2.0) -> list[str] | None: ...

    def dump_history(self, timeout: float = 2.0) -> bytes | None: ...

    def load_history(self, data: bytes, histfile_lines: int = 0,
                     timeout: float = 5.0) -> None: ...

    def shell_options(self) -> ShellOptions: ...
