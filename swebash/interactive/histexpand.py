"""Bash history expansion (``!!``, ``!$``, ``^old^new`` …), pure: a line and the history in,
the expanded line out.

A port of readline's ``histexpand.c`` with bash's settings: single quotes inhibit expansion,
``!`` before blank, ``=``, ``(`` or the end is literal (``(`` as with extglob on), so are
``$!``, ``${!x}``, ``[!…]`` and ``\\!``, and inside double quotes ``!"``. Words of an event are
split as readline splits them (``2>&1`` and ``"a b"`` are one word, ``|`` is its own). Errors
carry bash's own text: ``!foo: event not found``, ``:9: bad word specifier``,
``:s/x/y/: substitution failed``, ``z: unrecognized history modifier``. The expander keeps the
last ``:s`` and ``!?str?`` between lines, as bash does, for ``:&`` and ``%``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

NO_EXPAND = " \t\n\r=("
SEARCH_DELIMITERS = ";&()|<>"
WORD_DELIMITERS = " \t\n;&()|<>"
QUOTES = "'\"`"
LAST = -10**9  # the word designator `$`


class HistoryExpansionError(Exception):
    """One line, as bash prints it after ``bash: ``."""


@dataclass(frozen=True)
class Expansion:
    line: str
    changed: bool  # bash echoes the line when anything was expanded
    print_only: bool = False  # `:p` — show (and record) the line, do not run it


def tokenize(line: str) -> list[tuple[int, int]]:
    """Spans of the words of ``line`` as readline's history_tokenize finds them."""
    spans: list[tuple[int, int]] = []
    i, n = 0, len(line)
    while True:
        while i < n and line[i] in " \t\n":
            i += 1
        if i >= n:
            return spans
        end = _word_end(line, i)
        spans.append((i, end))
        i = end


def _word_end(s: str, i: int) -> int:
    n = len(s)
    def at(k: int) -> str:  # C-string style lookahead: "" past the end
        return s[k] if k < n else ""

    delimiter, opener, nest = "", "", 0
    if s[i] in "()\n":
        return i + 1
    if s[i].isdigit():
        j = i
        while j < n and s[j].isdigit():
            j += 1
        if j >= n:
            return j
        i = j
    if s[i] in "<>;&|$" and not (s[i] == "$" and at(i + 1) != "("):
        peek = at(i + 1)
        if peek == s[i] and peek != "$":
            if peek == "<" and at(i + 2) in "-<" and at(i + 2):
                i += 1
            return i + 2
        if peek == "&" and s[i] in "<>":
            j = i + 2
            while j < n and s[j].isdigit():
                j += 1
            return j + 1 if at(j) == "-" else j
        if (peek == ">" and s[i] == "&") or (peek == "|" and s[i] == ">"):
            return i + 2
        if peek == "(" and s[i] in "<>$":
            i, opener, delimiter, nest = i + 2, "(", ")", 1
        elif s[i] != "$":
            return i + 1
    if not delimiter and i < n and s[i] in QUOTES:
        delimiter = s[i]
        i += 1
    while i < n:
        c = s[i]
        if c == "\\" and delimiter != "'" and (delimiter != '"' or at(i + 1) in '$`"\\\n'):
            i += 2
            continue
        if nest and c == opener:
            nest += 1
        elif nest and c == delimiter:
            nest -= 1
            if not nest:
                delimiter = ""
        elif delimiter and c == delimiter:
            delimiter = ""
        elif not nest and not delimiter and c in "<>$!@?+*" and at(i + 1) == "(":
            i, opener, delimiter, nest = i + 2, "(", ")", 1
            continue
        elif not delimiter and c in WORD_DELIMITERS:
            break
        elif not delimiter and c in QUOTES:
            delimiter = c
        i += 1
    return min(i, n)


def words(line: str) -> list[str]:
    return [line[a:b] for a, b in tokenize(line)]


class HistoryExpander:
    def __init__(self) -> None:
        self.last_old = ""  # the previous :s pattern and replacement, for :& and ^…^
        self.last_new = ""
        self.search = ""  # the previous !?string? and the word it matched (for %)
        self.search_word = ""

    def expand(self, line: str, history: Sequence[str]) -> Expansion:
        """Expand ``line`` against ``history`` (oldest first, numbered from 1)."""
        if "!" not in line and not line.startswith("^"):
            return Expansion(line, False)
        source = "!!:s" + line if line.startswith("^") else line
        out: list[str] = []
        changed = print_only = False
        dquote = False
        i, n = 0, len(source)
        while i < n:
            c = source[i]
            if c == "\\" and i + 1 < n and source[i + 1] == "!":
                out.append(source[i: i + 2])
                i += 2
                continue
            if c == "'" and not dquote:
                end = source.find("'", i + 1)
                end = n if end < 0 else end + 1
                out.append(source[i:end])
                i = end
                continue
            if c == '"':
                dquote = not dquote
            if c != "!" or self._inhibited(source, i, dquote):
                out.append(c)
                i += 1
                continue
            text, i, printing = self._one(source, i, "".join(out), history, dquote)
            out.append(text)
            changed = True
            print_only = print_only or printing
        return Expansion("".join(out), changed, print_only)

    @staticmethod
    def _inhibited(s: str, i: int, dquote: bool) -> bool:
        nxt = s[i + 1] if i + 1 < len(s) else ""
        if not nxt or nxt in NO_EXPAND or (dquote and nxt == '"'):
            return True
        if i > 0 and s[i - 1] == "[" and "]" in s[i + 1:]:
            return True  # a glob's [!…]
        if i > 1 and s[i - 2: i] == "${" and "}" in s[i + 1:]:
            return True  # ${!name}
        return i > 0 and s[i - 1] == "$"  # $!

    # ------------------------------------------------------------------ one `!…`

    def _one(self, s: str, i: int, so_far: str, history: Sequence[str], dquote: bool
             ) -> tuple[str, int, bool]:
        start = i
        nxt = s[i + 1]
        if nxt in ":$*%^":
            event, i = self._event(history, -1, "!!"), i + 1
        elif nxt == "#":
            event, i = so_far, i + 2
        else:
            event, i = self._find_event(s, i + 1, history, dquote, start)
        text, i = self._word_spec(s, i, event, start)
        return self._modifiers(s, i, text)

    @staticmethod
    def _event(history: Sequence[str], index: int, shown: str) -> str:
        if not history or not -len(history) <= index < len(history):
            raise HistoryExpansionError(f"{shown}: event not found")
        return history[index]

    def _find_event(self, s: str, i: int, history: Sequence[str], dquote: bool, start: int
                    ) -> tuple[str, int]:
        n = len(s)
        if s[i] == "!":
            return self._event(history, -1, "!!"), i + 1
        j = i + 1 if s[i] == "-" and i + 1 < n and s[i + 1].isdigit() else i
        if j < n and s[j].isdigit():
            k = j
            while k < n and s[k].isdigit():
                k += 1
            number = int(s[j:k])
            index = -number if j > i else number - 1
            if number == 0 or (j == i and index < 0):
                raise HistoryExpansionError(f"{s[start:k]}: event not found")
            return self._event(history, index, s[start:k]), k
        substring = s[i] == "?"
        if substring:
            i += 1
        k = i
        while k < n:
            c = s[k]
            if substring:
                if c in "?\n":
                    break
            elif c in " \t\n:" or c in SEARCH_DELIMITERS or (dquote and c == '"'):
                break
            k += 1
        needle = s[i:k]
        after = k + 1 if substring and k < n and s[k] == "?" else k
        if not needle and substring:
            needle = self.search
        for line in reversed(history):
            at = line.find(needle) if substring else (0 if line.startswith(needle) else -1)
            if needle and at >= 0:
                if substring:
                    self.search = needle
                    self.search_word = next((line[a:b] for a, b in tokenize(line)
                                             if a <= at < b), "")
                return line, after
        raise HistoryExpansionError(f"{s[start:k]}: event not found")

    def _word_spec(self, s: str, i: int, event: str, start: int) -> tuple[str, int]:
        n = len(s)

        def at(k: int) -> str:
            return s[k] if k < n else ""

        j, colon = i, False
        if at(j) == ":":
            j, colon = j + 1, True
        c = at(j)
        if c == "%":
            return self.search_word, j + 1
        if c == "*":
            parts = words(event)
            return " ".join(parts[1:]), j + 1
        if c == "$":
            return self._extract(event, LAST, LAST, s, i, j + 1), j + 1
        if c == "-":
            first = 0
        elif c == "^":
            first, j = 1, j + 1
        elif c.isdigit() and colon:
            k = j
            while at(k).isdigit():
                k += 1
            first, j = int(s[j:k]), k
        else:
            return event, i
        c = at(j)
        if c in ("^", "*") and c:
            last, j = (1 if c == "^" else LAST), j + 1
        elif c != "-":
            last = first
        else:
            j += 1
            if at(j).isdigit():
                k = j
                while at(k).isdigit():
                    k += 1
                last, j = int(s[j:k]), k
            elif at(j) == "$":
                last, j = LAST, j + 1
            else:
                last = -1  # x- : up to the word before the last
        return self._extract(event, first, last, s, i, j), j

    @staticmethod
    def _extract(event: str, first: int, last: int, s: str, i: int, j: int) -> str:
        parts = words(event)
        size = len(parts)
        first = size - 1 if first == LAST else first
        last = size - 1 if last == LAST else (size - 2 if last == -1 else last)
        if first < 0 or last < 0 or first >= size or last >= size or first > last:
            raise HistoryExpansionError(f"{s[i:j]}: bad word specifier")
        return " ".join(parts[first: last + 1])

    # ------------------------------------------------------------------ :modifiers

    def _modifiers(self, s: str, i: int, text: str) -> tuple[str, int, bool]:
        n = len(s)
        printing = False
        while i < n and s[i] == ":" and i + 1 < n:
            start = i
            c = s[i + 1]
            scope = ""
            if c in "gaG" and i + 2 < n:
                scope, c, i = c, s[i + 2], i + 1
            if c == "p":
                printing = True
            elif c == "h":
                text = text[: text.rfind("/")] if "/" in text else text
            elif c == "t":
                text = text[text.rfind("/") + 1:]
            elif c == "r":
                dot = text.rfind(".")
                text = text[:dot] if dot > text.rfind("/") else text
            elif c == "e":
                dot = text.rfind(".")
                text = text[dot:] if dot > text.rfind("/") else text
            elif c == "q":
                text = quote(text)
            elif c == "x":
                text = " ".join(quote(w) for w in text.split())
            elif c in "s&":
                if c == "s":
                    i = self._read_subst(s, i + 2)
                else:
                    i += 2
                if not self.last_old and c == "&":
                    raise HistoryExpansionError(f"{s[start:i]}: no previous substitution")
                text, ok = self._substitute(text, scope)
                if not ok:
                    raise HistoryExpansionError(f"{s[start:i]}: substitution failed")
                continue
            else:
                raise HistoryExpansionError(f"{c}: unrecognized history modifier")
            i += 2
        return text, i, printing

    def _read_subst(self, s: str, i: int) -> int:
        """Parse ``/old/new/`` at ``i`` (any delimiter; the last one may be omitted)."""
        if i >= len(s):
            return i
        delim = s[i]
        i += 1
        parts: list[str] = []
        for _ in range(2):
            chunk: list[str] = []
            while i < len(s) and s[i] != delim:
                if s[i] == "\\" and i + 1 < len(s) and s[i + 1] in (delim, "&" if parts else delim):
                    chunk.append("\\&" if s[i + 1] == "&" else s[i + 1])
                    i += 2
                    continue
                chunk.append(s[i])
                i += 1
            parts.append("".join(chunk))
            if i < len(s):
                i += 1
        old, new = parts
        if old:
            self.last_old = old
        elif not self.last_old:
            self.last_old = self.search
        self.last_new = new
        return i

    def _substitute(self, text: str, scope: str) -> tuple[str, bool]:
        old = self.last_old
        new = self.last_new.replace("\\&", "\0").replace("&", old).replace("\0", "&")
        if not old or old not in text:
            return text, False
        if scope == "G":
            return " ".join(w.replace(old, new, 1) for w in text.split(" ")), True
        return text.replace(old, new, -1 if scope else 1), True


def quote(text: str) -> str:
    return "'" + text.replace("'", "'\\''") + "'"
