"""How bash counts the words of a history line, for word designators (``!$``, ``!:2``…).

Bash splits the line the way its parser reads input, not at every blank: quotes (``'``, ``"``,
backquotes) keep their text in one word, ``;&|()<>`` separate words, and the operators they
form are words of their own — ``&&``, ``||``, ``;;``, ``>>``, ``<<<``, ``>|``, ``&>``, and a
redirection with its file-descriptor digits such as ``2>``, ``2>&1`` or ``<&-``.  ``$(…)``,
``<(…)``, ``>(…)`` and the extended-glob groups ``@(…)`` etc. are one word up to the matching
parenthesis (quotes are not looked at inside).  Observed against ``history -p``.
"""

from __future__ import annotations

BLANKS = " \t\n"
_METACHARS = ";&|()<>"
_DIGITS = "0123456789"
_GROUP_OPENERS = "$<>@?*+!"  # followed by "(" they open one word up to the matching ")"


def words(line: str) -> list[str]:
    """The words of a history line as history word designators count them."""
    return [line[start:end] for start, end in word_spans(line)]


def word_spans(line: str) -> list[tuple[int, int]]:
    spans: list[tuple[int, int]] = []
    i = 0
    while i < len(line):
        if line[i] in BLANKS:
            i += 1
            continue
        end = _operator_end(line, i)
        if end is None:
            end = _plain_word_end(line, i)
        spans.append((i, end))
        i = end
    return spans


def _operator_end(line: str, i: int) -> int | None:
    """End of the operator starting at ``i`` (``2>&1``, ``&&``, ``<<<`` …), or None."""
    j = i
    while j < len(line) and line[j] in _DIGITS:
        j += 1
    if j == len(line) or line[j] not in _METACHARS or (j > i and line[j] not in "<>"):
        return None
    c, rest = line[j], line[j + 1:]
    if c in "<>" and rest.startswith("("):
        return None  # process substitution: part of a word
    if c in "<>" and rest.startswith("&"):
        k = j + 2
        while k < len(line) and line[k] in _DIGITS:
            k += 1
        return k + 1 if line[k:k + 1] == "-" else k
    for operator in ("<<<", "<<-", "<<", ">>", ">|", "&&", "&>", "||", ";;"):
        if line.startswith(operator, j):
            return j + len(operator)
    return j + 1


def _plain_word_end(line: str, i: int) -> int:
    while i < len(line):
        c = line[i]
        if c == "\\":
            i += 2
        elif c in "'\"`":
            i = _quote_end(line, i)
        elif c in _GROUP_OPENERS and line[i + 1:i + 2] == "(":
            # bash does not look at the character right after "$(" when it counts parentheses
            i = _paren_end(line, i + (3 if c == "$" else 2))
        elif c in BLANKS or c in _METACHARS:
            break
        else:
            i += 1
    return min(i, len(line))


def _quote_end(line: str, i: int) -> int:
    quote, j = line[i], i + 1
    while j < len(line):
        if line[j] == "\\" and quote != "'":
            j += 2
        elif line[j] == quote:
            return j + 1
        else:
            j += 1
    return len(line)


def _paren_end(line: str, j: int) -> int:
    depth = 1
    while j < len(line):
        depth += {"(": 1, ")": -1}.get(line[j], 0)
        if depth == 0:
            return j + 1
        j += 1
    return len(line)


def end_of_word_at(text: str, i: int) -> int:
    """End of the word that holds position ``i`` (``i`` itself between words)."""
    return next((end for start, end in word_spans(text) if start <= i < end), i)
