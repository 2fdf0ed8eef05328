"""What one Tab inserts: bash's matches, quoted and finished the way readline does it.

The session's bash produces the matches and the options in effect (``__sb_complete`` in
bashcomplete.py: compspecs with all their actions and options, ``compopt``, commands,
variables, files); this module is readline's part around it. The line before the cursor is
split into shell words (quotes, backslashes, ``;``/``|``/``&`` start a new command), the word
under the cursor is unquoted before bash sees it, and:

* File names (``-o filenames``, ``-f``/``-d``/``-G`` actions, the default) are quoted in the
  quoting the user had open: ``my\\ dir/`` unquoted, ``"my dir"/`` inside double quotes,
  ``'it'\\''s'`` inside single quotes; the directory part the user typed (``$HOME/``, ``~/``)
  stays as typed. ``-o noquote`` leaves them unquoted. Other words are inserted as they are.
* A unique match gets what readline appends: ``/`` after a directory (``mark-directories``),
  nothing after a link to a directory the Tab just completed, else the closing quote and a
  space (``-o nospace``: no space) — the quote and space only with the cursor at the end of
  the line, as readline.
* Several matches: the longest common prefix (``completion-ignore-case``: compared without case,
  keeping the case the user typed when a match has it), quoted, without closing quote.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Protocol

SEPARATORS = ";|&()"
# readline's rl_filename_quote_characters for bash
SPECIAL = set(" \t\n\\\"'@<>=;|&()#$`*?[!:{~")


@dataclass(frozen=True)
class Candidate:
    insert: str  # replaces the word under the cursor
    display: str  # what the menu shows
    start: int  # -len(word under the cursor)


@dataclass(frozen=True)
class Match:
    kind: str  # d directory, l link to a directory, f file, v variable (u: naming a
    # directory), t ~user, w word
    name: str


@dataclass
class Words:
    words: list[str]  # unquoted, the last one being the word under the cursor
    raw: str  # the word under the cursor as typed
    quote: str | None  # the quote still open at the cursor: None, '"' or "'"
    raws: list[str]  # every word as typed (what bash gives compspecs in COMP_WORDS)


class Completes(Protocol):
    def complete_raw(self, words: list[str], cur: str, line: str, timeout: float = 0.1,
                     comp_type: int = 9) -> bytes | None: ...


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


def common_prefix(names: list[str], typed: str, ignore_case: bool = False) -> str:
    """Readline's longest common prefix of the matches (compute_lcd_of_matches)."""
    if not names:
        return typed
    first = names[0]
    low = len(first)
    for name in names[1:]:
        n = 0
        for a, b in zip(first, name, strict=False):
            if a != b and not (ignore_case and a.lower() == b.lower()):
                break
            n += 1
        low = min(low, n)
    if low == 0 and typed:
        return typed
    if ignore_case:  # keep the case the user typed when a match has it
        shorter = min(len(typed), low)
        for name in sorted(names):
            if name[:shorter] == typed[:shorter]:
                return name[:low]
        return sorted(names)[0][:low]
    return first[:low]


@dataclass
class Completion:
    """Bash's matches for the word under the cursor and the options they came with."""

    parts: Words
    matches: list[Match]
    options: frozenset[str] = field(default_factory=frozenset)
    at_end: bool = True  # the cursor is at the end of the line
    mark_directories: bool = True

    @property
    def start(self) -> int:
        return -len(self.parts.raw)

    @property
    def filenames(self) -> bool:
        return "filenames" in self.options

    def _quoted(self, name: str, close: bool) -> str:
        """``name`` (unquoted) as it replaces the typed word: the typed directory part kept,
        the rest quoted in the quoting the user had open."""
        parts = self.parts
        if "noquote" in self.options:
            return (parts.raw[0] if parts.raw[:1] in ("'", '"') else "") + name
        cur = parts.words[-1]
        slash = cur.rfind("/")
        typed_dir = parts.raw[: parts.raw.rfind("/") + 1] if slash >= 0 else ""
        cur_dir = cur[: slash + 1]
        base = name[len(cur_dir):] if name.startswith(cur_dir) else name
        if not typed_dir and parts.raw[:1] in ("'", '"'):
            typed_dir = parts.raw[0]  # the opening quote stays
        text = typed_dir + quote_text(base, parts.quote)
        if close and parts.quote:
            text += parts.quote
        return text

    def insert(self, match: Match, unique: bool = True) -> str:
        """What replaces the typed word when Tab completes ``match`` (``unique``: the only
        match, so readline finishes it)."""
        parts = self.parts
        name, kind = match.name, match.kind
        if kind in "uv":  # readline looks at the value: "/" after a directory
            dollar = parts.raw.rfind("$")
            text = (parts.raw[:dollar] if dollar >= 0 else "") + name
            if unique and kind == "u":
                return text + (parts.quote or "") + "/"
            if unique and self.at_end:
                text += (parts.quote or "") + ("" if "nospace" in self.options else " ")
            return text
        if kind == "t":
            return name + ("/" if unique else "")
        if self.filenames and kind in "dlf":
            is_dir = kind == "d" or (kind == "l" and name == parts.words[-1].rstrip("/"))
            text = self._quoted(name.rstrip("/") if is_dir else name, unique)
            if not unique:  # (a menu entry: a directory keeps its "/")
                return text + ("/" if is_dir and self.mark_directories else "")
            if is_dir:
                return text + ("/" if self.mark_directories else "")
            if kind == "l":
                return text  # readline appends nothing to a link to a directory it completed
            return text + (" " if self.at_end and "nospace" not in self.options else "")
        text = (parts.raw[0] if parts.raw[:1] in ("'", '"') else "") + name
        if unique and self.at_end:
            text += (parts.quote or "") + ("" if "nospace" in self.options else " ")
        return text

    def common(self, ignore_case: bool = False) -> str:
        """What replaces the typed word for several matches: their common prefix, quoted."""
        names = [m.name for m in self.matches]
        lcd = common_prefix(names, self.parts.words[-1], ignore_case)
        if lcd == self.parts.words[-1]:
            return self.parts.raw
        kinds = {m.kind for m in self.matches}
        return self.insert(Match("f" if kinds <= set("dlf") else "w", lcd), unique=False)

    def display(self, match: Match) -> str:
        """The match as readline lists it: file names without their directory, ``/`` after
        directories (``mark-directories``)."""
        name = match.name
        if self.filenames and match.kind in "dlf":
            bare = name.rstrip("/")
            shown = bare.rsplit("/", 1)[-1] if "/" in bare else bare
            if match.kind in "dl" and self.mark_directories:
                shown += "/"
            return shown or name
        return name

    def candidates(self) -> list[Candidate]:
        unique = len(self.matches) == 1
        return [Candidate(self.insert(m, unique), self.display(m), self.start)
                for m in self.matches]


def parse_answer(data: bytes) -> tuple[frozenset[str], list[Match]]:
    """Bash's answer (bashcomplete.py): the options record, then one record a match."""
    records = data.decode("utf-8", "surrogateescape").split("\0")
    options: frozenset[str] = frozenset()
    matches: list[Match] = []
    seen: set[str] = set()
    for record in records:
        if record.startswith("o") and not matches and not options:
            options = frozenset(record[1:].split())
        elif len(record) > 1 and record[1:] not in seen:
            seen.add(record[1:])
            matches.append(Match(record[0], record[1:]))
    return options, matches


def complete_text(session: Completes, text: str, timeout: float = 0.1, *, at_end: bool = True,
                  comp_type: int = 9, mark_directories: bool = True) -> Completion | None:
    """Bash's completion of the text before the cursor; None when bash did not answer."""
    line = text.rsplit("\n", 1)[-1]
    parts = split_words(line)
    data = session.complete_raw(parts.raws, parts.words[-1], line, timeout, comp_type)
    if data is None:
        return None
    options, matches = parse_answer(data)
    if "bytes" in options and "nosort" not in options:  # the C locale's order
        matches.sort(key=lambda m: m.name.encode("utf-8", "surrogateescape"))
    return Completion(parts, matches, options, at_end, mark_directories)


def complete_line(session: Completes, text: str, timeout: float = 0.1) -> list[Candidate]:
    found = complete_text(session, text, timeout)
    return found.candidates() if found else []
