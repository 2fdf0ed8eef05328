"""The model's regular expression, run in linear time (RE2), with grep's line semantics.

Python's ``re`` backtracks: ``(a+)+$`` against a line of forty thousand ``a`` never returns, and
a search runs inside the shell's process. RE2 (the ``google-re2`` wheel) guarantees time linear
in the text for every pattern it accepts; what it cannot do in linear time — look-around,
backreferences — it refuses at compile time, and the model gets a clear error instead.

Line semantics: the pattern is compiled multi-line (``^``/``$`` at each line) with ``never_nl``
(no match crosses a newline, even ``[^x]*`` or ``\\n``), and the whole file is searched at once —
far faster than a call per line — in slices cut at newlines, so the caller's deadline is
checked between slices and even a heavy pattern on a large file stops in time.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from typing import Protocol

from swebash.errors import ExecutionFailed, InvalidArguments

MAX_PATTERN = 1000  # characters
SLICE = 256 * 1024  # bytes searched between two deadline checks
MAX_MEMORY = 32 << 20  # RE2's budget for one compiled pattern

HINTS = ((re.compile(r"\(\?<?[=!]"), "look-around ((?=…), (?!…), (?<=…), (?<!…)) is not "
          "supported"),
         (re.compile(r"\\[1-9]"), "backreferences (\\1 …) are not supported"),
         (re.compile(r"\\Z"), "write \\z (or $) for the end"),
         (re.compile(r"\(\?P=|\\g<"), "named backreferences are not supported"))


class _Match(Protocol):
    def start(self) -> int: ...


class _Compiled(Protocol):
    def search(self, text: bytes, pos: int, endpos: int) -> _Match | None: ...


class LinePattern:
    """A compiled pattern; ``lines`` yields the matching lines of a text."""

    def __init__(self, pattern: str) -> None:
        if len(pattern) > MAX_PATTERN:
            raise InvalidArguments(f"bad pattern: too long ({len(pattern)} characters, at most "
                                   f"{MAX_PATTERN})")
        try:
            import re2
        except ImportError:  # pragma: no cover - a dependency; said plainly if missing
            raise ExecutionFailed("search_text needs the google-re2 package "
                                  "(pip install google-re2)") from None
        options = re2.Options()
        options.log_errors = False  # RE2 would print its error to the terminal
        options.never_nl = True
        options.max_mem = MAX_MEMORY
        try:
            self._regex: _Compiled = re2.compile("(?m)" + pattern, options)
        except re2.error as exc:
            raise InvalidArguments(f"bad pattern: {describe(exc, pattern)}") from None
        self.pattern = pattern

    def lines(self, data: bytes, expired: Callable[[], bool] = lambda: False
              ) -> Iterator[tuple[int, bytes]]:
        """(line number, line) of each line of ``data`` with a match, in order; stops early
        when ``expired()`` says so between slices."""
        if not data:
            return
        size = len(data) - 1 if data.endswith(b"\n") else len(data)  # no line after the last \n
        number, counted, pos = 1, 0, 0
        while True:
            end = size
            if size - pos > SLICE:  # cut at a newline; a line longer than a slice stays whole
                end = data.rfind(b"\n", pos, pos + SLICE)
                if end < pos:
                    end = data.find(b"\n", pos + SLICE, size)
                    end = size if end < 0 else end
            at = pos
            while at <= end:
                found = self._regex.search(data, at, end)
                if found is None:
                    break
                start = data.rfind(b"\n", 0, found.start()) + 1
                stop = data.find(b"\n", found.start(), end)
                stop = end if stop < 0 else stop
                number += data.count(b"\n", counted, start)
                counted = start
                yield number, data[start:stop]
                at = stop + 1
            if end >= size or expired():
                return
            pos = end + 1


def describe(exc: Exception, pattern: str) -> str:
    raw = exc.args[0] if exc.args else exc
    detail = raw.decode("utf-8", "replace") if isinstance(raw, bytes) else str(raw)
    detail = detail.replace("(?m)" + pattern, pattern)  # the prefix is ours, not the model's
    hints = [hint for test, hint in HINTS if test.search(pattern)]
    return "; ".join([detail, *hints, "search_text uses RE2 syntax (linear time)"])
