"""What one Tab inserts: bash's candidates, quoted the way readline quotes them.

The session's bash produces the candidates (``__sb_complete`` in bashinit.py: commands,
compspecs such as git's, variables, files); this module does what readline would do around it.
The line before the cursor is split into shell words (quotes, backslashes, ``;``/``|``/``&``
start a new command), the word under the cursor is unquoted before bash sees it, and each
candidate is quoted back in the quoting the user had open: ``my\\ dir/`` unquoted, ``"my dir/``
inside double quotes, ``'it'\\''s'`` inside single quotes. Directories get ``/`` (and no closing
quote, so completion can go on); a single file, word or variable gets the closing quote and a
space, as readline does for a unique match. The directory part the user typed (``$HOME/``,
``~/``) is kept as typed.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

SEPARATORS = ";|&()"
# readline's rl_filename_quote_characters for bash
SPECIAL = set(" \t\n\\\"'@<>=;|&()#$`*?[!:{~")


@dataclass(frozen=True)
class Candidate:
    insert: str  # replaces the word under the cursor
    display: str  # what the menu shows
    start: int  # -len(word under the cursor)


@dataclass
class Words:
    words: list[str]  # unquoted, the last one being the word under the cursor
    raw: str  # the word under the cursor as typed
    quote: str | None  # the quote still open at the cursor: None, '"' or "'"
    raws: list[str]  # every word as typed (what bash gives compspecs in COMP_WORDS)


class Completes(Protocol):
    def complete_words(self, words: list[str], cur: str, line: str,
                       timeout: float = 0.1) -> list[tuple[str, str]]: ...


def split_words(line: str) -> Words:
    """Shell words of the current command before the cursor (the last may be empty)."""
    words: list[str] = []
    raws: list[str] = []
    cur, raw = "", ""
    quote: str | None = None
    in_word = False
    i = 0
    while i < len(line):
        ch = line[i]
        if quote == "'":
            raw += ch
            if ch == "'":
                quote = None
            else:
                cur += ch
        elif quote == '"':
            raw += ch
            if ch == '"':
                quote = None
            elif ch == "\\" and i + 1 < len(line) and line[i + 1] in '"\\$`':
                raw += line[i + 1]
                cur += line[i + 1]
                i += 1
            else:
                cur += ch
        elif ch == "\\":
            raw += line[i: i + 2]
            cur += line[i + 1: i + 2]
            in_word = True
            i += 1
        elif ch in "'\"":
            quote = ch
            raw += ch
            in_word = True
        elif ch.isspace() or ch in SEPARATORS:
            if in_word:
                words.append(cur)
                raws.append(raw)
            cur, raw, in_word = "", "", False
            if ch in SEPARATORS:
                words, raws = [], []
        else:
            cur += ch
            raw += ch
            in_word = True
        i += 1
    words.append(cur)
    raws.append(raw)
    return Words(words, raw, quote, raws)


def quote_text(text: str, quote: str | None) -> str:
    if quote == "'":
        return text.replace("'", "'\\''")
    if quote == '"':
        return "".join("\\" + c if c in '"\\$`' else c for c in text)
    return "".join("\\" + c if c in SPECIAL else c for c in text)


def _file_insert(parts: Words, name: str, is_dir: bool, unique: bool) -> tuple[str, str]:
    cur = parts.words[-1]
    slash = cur.rfind("/")
    typed_dir = parts.raw[: parts.raw.rfind("/") + 1] if slash >= 0 else ""
    cur_dir = cur[: slash + 1]
    base = name[len(cur_dir):] if name.startswith(cur_dir) else name
    if not typed_dir and parts.raw[:1] in ("'", '"'):
        typed_dir = parts.raw[0]  # the opening quote stays
    text = typed_dir + quote_text(base.rstrip("/"), parts.quote)
    display = base.rstrip("/").rsplit("/", 1)[-1]
    if is_dir:
        return text + "/", display + "/"
    if unique:
        text += (parts.quote or "") + " "
    return text, display


def complete_line(session: Completes, text: str, timeout: float = 0.1) -> list[Candidate]:
    line = text.rsplit("\n", 1)[-1]
    parts = split_words(line)
    found = session.complete_words(parts.raws, parts.words[-1], line, timeout)
    unique = len(found) == 1
    start = -len(parts.raw)
    out: list[Candidate] = []
    for kind, name in found:
        if kind in "df":
            insert, display = _file_insert(parts, name, kind == "d", unique)
        elif kind == "v":
            dollar = parts.raw.rfind("$")
            insert = (parts.raw[:dollar] if dollar >= 0 else "") + name
            display = name
            if unique and not name.startswith("${"):
                insert += (parts.quote or "") + " "
            elif unique:
                insert += (parts.quote or "")
        else:
            insert = quote_text(name, parts.quote) if parts.quote or " " in name else name
            if parts.raw[:1] in ("'", '"'):
                insert = parts.raw[0] + insert
            display = name
            if unique:
                insert += (parts.quote or "") + " "
        out.append(Candidate(insert, display, start))
    return out
