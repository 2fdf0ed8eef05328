"""Bash-style history expansion (``!!``, ``!$``, ``^old^new`` …) for lines typed at the prompt.

Design note — how bash behaves, as documented in the HISTORY EXPANSION section of its manual
and as observed with ``history -p`` (the tests compare every case with the real bash):

* A line is read left to right.  A backslash protects the next character, single quotes
  protect everything up to the closing quote (not inside double quotes, where ``'`` is an
  ordinary character).  An unprotected ``!`` starts an expansion unless it is followed by a
  blank, ``=``, ``(`` or the end of the line, or it is the last character before a closing
  double quote, or it follows a ``$`` (``$!``).  A line whose only candidates are ``[!…]`` or
  ``${!…}`` with the closing bracket further on is left alone; otherwise those expand too.
* An expansion is an *event* (which history line), then optionally a *word designator*
  (which words of it), then any number of ``:``-prefixed *modifiers*.  Events: ``!!`` the
  previous line, ``!n`` / ``!-n`` absolute / relative numbers, ``!str`` the newest line
  starting with ``str`` (the string stops at a blank, ``:`` or one of ``^$*%-``; inside double
  quotes also at ``"``), ``!?str?`` the newest line containing ``str`` (the closing ``?`` may be
  left out at the end of the line), ``!#`` the expanded line so far.  When ``!`` is directly
  followed by ``:`` or a designator character the previous line is meant.
* Words are counted as in `histwords`; selected words are joined with single spaces, and
  without a designator the event line is used as it is.  ``%`` is the word of the last match
  of the last ``?str?`` search.
* Modifiers edit the selection as one string: ``h t r e`` are path edits, ``s/old/new/``
  replaces the first match (``g``/``a`` every match, ``G`` one per word and for the rest of the
  modifiers), ``&`` repeats the last substitution, ``p`` prints without running, ``q``/``x``
  quote (the last one wins and applies after every other modifier).  The last ``old``/``new``
  and the last ``?str?`` search are remembered from one line to the next.
* ``^old^new^`` at the very start of the line means ``!!:s^old^new^``.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from swebash.interactive.histwords import BLANKS, end_of_word_at, word_spans, words

__all__ = ["Expansion", "HistoryExpander", "HistoryExpansionError", "words"]


class HistoryExpansionError(Exception):
    """One line, as bash prints it after ``bash: ``."""


@dataclass(frozen=True)
class Expansion:
    line: str
    changed: bool  # bash echoes the line when anything was expanded
    print_only: bool = False  # `:p` — show (and record) the line, do not run it


_DIGITS = "0123456789"
_STRING_STOPS = BLANKS + ":^$*%-"  # where a `!string` event ends
_DESIGNATOR_STARTS = "^$*-%"  # a designator may follow the event without a ":"


# ---------------------------------------------------------------- small helpers


def _quote(text: str) -> str:
    return "'" + text.replace("'", "'\\''") + "'"


def _quote_each_word(text: str) -> str:
    pieces = re.split(f"([{BLANKS}])", text)  # the blanks themselves stay as they are
    return "".join(piece if n % 2 else _quote(piece) for n, piece in enumerate(pieces))


def _path_edit(text: str, how: str) -> str:
    slash, dot = text.rfind("/"), text.rfind(".")
    if how == "h":
        return text[:slash] if slash >= 0 else text
    if how == "t":
        return text[slash + 1:] if slash >= 0 else text
    if how == "r":
        return text[:dot] if dot >= 0 else text
    return text[dot:] if dot >= 0 else text  # "e"


@dataclass(frozen=True)
class _Substitution:
    old: str
    new: tuple[str | None, ...]  # None stands for `&`: the matched text

    def replacement(self) -> str:
        return "".join(self.old if part is None else part for part in self.new)

    def apply(self, text: str, scope: str) -> str | None:
        """``scope`` is "" (first match), "g" (every match) or "G" (one per word)."""
        new, old, i, hits = self.replacement(), self.old, 0, 0
        limit = len(text) + 1  # G can chase its own replacement forever (bash then hangs)
        while i <= len(text) - len(old):
            if hits > limit:
                return None
            if not text.startswith(old, i):
                i += 1
                continue
            before, text, hits = text, text[:i] + new + text[i + len(old):], hits + 1
            if not scope:
                break
            if scope == "g":
                i += len(new)
            else:
                # One per word.  Bash resumes (measured) one past the end of the word as it
                # was *before* the replacement, so a longer replacement can get a second
                # one in the same word; after a match at the very start, at the 2nd char.
                i = 1 if i == 0 else end_of_word_at(before, i) + 1
        return text if hits else None


def _parse_substitution(line: str, i: int, delimiter: str) -> tuple[str, list[str | None], int]:
    """Read ``old<d>new<d>`` from ``i``; returns old, new and the index after the text."""
    parts: list[list[str | None]] = [[], []]
    for field in parts:
        is_new = field is parts[1]
        while i < len(line) and line[i] != delimiter:
            escaped = line[i + 1:i + 2]
            if line[i] == "\\" and escaped in (delimiter, "&" if is_new else delimiter):
                field.append(escaped)  # a quoted delimiter or `&` stands for itself
                i += 2
            else:
                field.append(None if is_new and line[i] == "&" else line[i])
                i += 1
        if i == len(line):
            break
        i += 1  # the delimiter
    old = "".join(c for c in parts[0] if c is not None)
    return old, parts[1], i


# ---------------------------------------------------------------- the expander


class HistoryExpander:
    """Expands history references; keeps what bash keeps between lines (last :s and ?search?)."""

    def __init__(self) -> None:
        self._last_sub: _Substitution | None = None
        self._last_search: str | None = None
        self._search_word = ""  # the word `%` stands for

    def expand(self, line: str, history: Sequence[str]) -> Expansion:
        """Expand ``line`` against ``history`` (oldest first, numbered from 1)."""
        quick = line.startswith("^")
        if not quick and not _needs_expansion(line):
            return Expansion(line, False)
        out: list[str] = []
        i, in_double, changed, print_only = 0, False, quick, False
        if quick:
            text, i, print_only = self._modify(self._previous(history, "!!"), line, 0, quick)
            out.append(text)
        while i < len(line):
            c = line[i]
            if c == "\\":
                out.append(line[i:i + 2])
                i += 2
            elif c == "'" and not in_double:
                end = line.find("'", i + 1)
                end = len(line) if end < 0 else end + 1
                out.append(line[i:end])
                i = end
            elif c == "!" and not _is_literal_bang(line, i, in_double, "".join(out)):
                text, i, printed = self._expand_one(line, i, "".join(out), history, in_double)
                out.append(text)
                changed, print_only = True, print_only or printed
            else:
                in_double ^= c == '"'
                out.append(c)
                i += 1
        return Expansion("".join(out), changed, print_only)

    # ---------------------------------------------------------------- events

    def _expand_one(self, line: str, start: int, so_far: str, history: Sequence[str],
                    in_double: bool) -> tuple[str, int, bool]:
        i = start + 1
        c = line[i]
        if c == "!":
            event, i = self._previous(history, "!!"), i + 1
        elif c == "#":
            event, i = so_far, i + 1
        elif c in ":^$*%":
            event = self._previous(history, "!")
        elif c == "?":
            end = i + 1
            while end < len(line) and line[end] not in "?\n":
                end += 1
            closed = end + (line[end:end + 1] == "?")
            event, i = self._search(history, line[i + 1:end], line[start:closed]), closed
        elif c in _DIGITS or (c == "-" and line[i + 1:i + 2] in tuple(_DIGITS)):
            end = i + 1
            while end < len(line) and line[end] in _DIGITS:
                end += 1
            number = int(line[i:end])
            index = len(history) + number if number < 0 else number - 1
            if number == 0 or not 0 <= index < len(history):
                raise HistoryExpansionError(f"{line[start:end]}: event not found")
            event, i = history[index], end
        else:
            stops = _STRING_STOPS + ('"' if in_double else "")
            end = i + 1  # the first character belongs to the string even if it is a stop
            while end < len(line) and line[end] not in stops:
                end += 1
            prefix = line[i:end]
            found = [entry for entry in reversed(history) if entry.startswith(prefix)]
            if not found:
                raise HistoryExpansionError(f"{line[start:end]}: event not found")
            event, i = found[0], end
        return self._modify(event, line, i, quick=False)

    @staticmethod
    def _previous(history: Sequence[str], spec: str) -> str:
        if not history:
            raise HistoryExpansionError(f"{spec}: event not found")
        return history[-1]

    def _search(self, history: Sequence[str], needle: str, spec: str) -> str:
        needle = needle or self._last_search or ""
        for entry in reversed(history):
            at = entry.rfind(needle) if needle else -1  # `%` is the word of the last match
            if at >= 0:
                self._last_search = needle
                spans = [span for span in word_spans(entry) if span[0] <= at < span[1]]
                self._search_word = entry[spans[0][0]:spans[0][1]] if spans else ""
                return entry
        raise HistoryExpansionError(f"{spec}: event not found")

    # ---------------------------------------------------------------- words and modifiers

    def _select(self, event: str, line: str, i: int) -> tuple[str, int]:
        """Apply the word designator at ``i`` (if any) to ``event``."""
        if line[i:i + 1] == ":" and line[i + 1:i + 2] in tuple(_DESIGNATOR_STARTS + _DIGITS):
            begin, i = i, i + 1
        elif line[i:i + 1] in tuple(_DESIGNATOR_STARTS):
            begin = i
        else:
            return event, i
        parts = words(event)
        last = len(parts) - 1
        c = line[i]
        first, final, empty_ok = 0, last, False
        if c == "%":
            return self._search_word, i + 1
        if c == "$":
            first, i = last, i + 1
            final = first
        elif c == "*":
            first, i, empty_ok = 1, i + 1, True
        elif c == "-":
            first, (final, i, empty_ok) = 0, _range_end(line, i + 1, last)
        else:
            if c == "^":
                first, i = 1, i + 1
            else:
                end = i
                while end < len(line) and line[end] in _DIGITS:
                    end += 1
                first, i = int(line[i:end]), end
            after = line[i:i + 1]
            if after == "*":
                i += 1
            elif after == "-":
                final, i, empty_ok = _range_end(line, i + 1, last)
            elif after == "^":
                final, i = 1, i + 1
            else:
                final = first
        if c != "*" and (first > last or final > last or first > final + empty_ok):
            raise HistoryExpansionError(f"{line[begin:i]}: bad word specifier")
        return " ".join(parts[first:final + 1]), i

    def _modify(self, event: str, line: str, i: int, quick: bool) -> tuple[str, int, bool]:
        """Word designator then modifiers from ``i``; returns the text, the end, and `:p`.

        ``quick`` is the `^old^new^` form, read as if the line were `!!:s^old^new^`."""
        if quick:
            text, begin = event, 0
        else:
            text, i = self._select(event, line, i)
            begin = i

        started_quick = quick

        def typed(end: int) -> str:  # the modifiers as bash quotes them in an error
            return ":s" + line[:end] if started_quick else line[begin:end]

        quoting, print_only, each_word = "", False, False
        while quick or line[i:i + 1] == ":":
            scope = ""
            if quick:
                j, letter = 0, "s"
            else:
                j = i + 1
                if line[j:j + 1] in ("g", "a"):
                    scope, j = "g", j + 1
                elif line[j:j + 1] == "G":
                    each_word, j = True, j + 1  # unlike `g`, it stays for the later modifiers
                letter = line[j:j + 1]
            scope = scope or ("G" if each_word else "")
            end = j + 1
            if letter in ("h", "t", "r", "e"):
                text = _path_edit(text, letter)
            elif letter == "p":
                print_only = True
            elif letter in ("q", "x"):
                quoting = letter
            elif letter in ("s", "&"):
                sub, end = self._substitution(line, j, letter, quick)
                if (sub is None and letter == "&") or (sub is not None and not sub.old):
                    raise HistoryExpansionError(f"{typed(end)}: no previous substitution")
                if sub is not None:
                    result = sub.apply(text, scope)
                    if result is None:
                        raise HistoryExpansionError(f"{typed(end)}: substitution failed")
                    text = result
            else:
                raise HistoryExpansionError(f"{letter}: unrecognized history modifier")
            i, quick = end, False
        if quoting == "q":
            text = _quote(text)
        elif quoting == "x":
            text = _quote_each_word(text)
        return text, i, print_only

    def _substitution(self, line: str, j: int, letter: str,
                      quick: bool) -> tuple[_Substitution | None, int]:
        """Parse `s…` or `&` at ``j``; returns the substitution and the index just after it.

        None with `&` means there is nothing to repeat; None with `s` is a bare `:s` at the end
        of the line, which bash ignores.  An empty ``old`` means no previous one was found."""
        if letter == "&":
            return self._last_sub, j + 1
        if quick:
            old, new, end = _parse_substitution(line, 1, "^")
        elif j + 1 >= len(line):
            return None, j + 1
        else:
            old, new, end = _parse_substitution(line, j + 2, line[j + 1])
        if not old:
            old = self._last_sub.old if self._last_sub else (self._last_search or "")
        sub = _Substitution(old, tuple(new))
        if old:
            self._last_sub = sub
        return sub, end


def _range_end(line: str, i: int, last: int) -> tuple[int, int, bool]:
    """The end of an `x-…` range starting at ``i``: ``(index, next position, may be empty)``."""
    c = line[i:i + 1]
    if c == "$":
        return last, i + 1, False
    if c == "^":
        return 1, i + 1, False
    end = i
    while end < len(line) and line[end] in _DIGITS:
        end += 1
    if end > i:
        return int(line[i:end]), end, False
    return last - 1, i, True  # `x-` leaves out the last word


def _needs_expansion(line: str) -> bool:
    """Whether any ``!`` of the line starts an expansion (quoting as in `expand`)."""
    i, in_double = 0, False
    while i < len(line):
        c = line[i]
        if c == "\\":
            i += 1
        elif c == "'" and not in_double:
            i = line.find("'", i + 1)
            if i < 0:
                return False
        elif c == "!" and not _is_literal_bang(line, i, in_double, line[:i], whole_line=True):
            return True
        in_double ^= c == '"'
        i += 1
    return False


def _is_literal_bang(line: str, i: int, in_double: bool, so_far: str,
                     whole_line: bool = False) -> bool:
    """Whether the unquoted ``!`` at ``i`` stays as it is; ``so_far`` is the expanded text
    before it.

    For ``$!`` bash looks at what it has produced so far (so the ``$`` of an earlier ``!$``
    does not count, a ``$`` produced by ``!#`` does), and not when that is the ``$`` alone.
    Bash spares ``[!…]`` and ``${!…}`` only while deciding whether the line needs expanding
    at all (``whole_line``); once another ``!`` expands, those expand as well."""
    after = line[i + 1:i + 2]
    if after in ("", " ", "\t", "\n", "\r", "=", "(") or (in_double and after == '"'):
        return True
    if len(so_far) >= 2 and so_far.endswith("$"):
        return True
    if whole_line and after != "!":
        if i >= 1 and line[i - 1] == "[" and "]" in line[i + 1:]:
            return True
        if i >= 2 and line[i - 2:i] == "${" and "}" in line[i + 1:]:
            return True
    return False
