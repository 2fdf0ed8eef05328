"""A word of a simple command as bash would pass it: quotes removed, backslashes applied,
``$'…'`` decoded — or marked dynamic when bash would expand it at run time (parameters,
``$(…)``, arithmetic, brace expansion into several words). A dynamic word keeps its source
text, so rules can still see ``<(…)`` or ``{}``."""

from __future__ import annotations

import codecs
import re
from typing import Any

from swebash.safety.classify.model import Word, text

BRACES = re.compile(r"\{[^{}]*(,|\.\.)[^{}]*\}")


def unescape_word(raw: str) -> str:
    if "\\" not in raw:
        return raw
    out: list[str] = []
    i = 0
    while i < len(raw):
        ch = raw[i]
        if ch == "\\" and i + 1 < len(raw):
            if raw[i + 1] != "\n":
                out.append(raw[i + 1])
            i += 2
            continue
        out.append(ch)
        i += 1
    return "".join(out)


def decode_ansi_c(raw: str) -> str:
    body = raw[2:-1] if raw.startswith("$'") and raw.endswith("'") else raw
    # bash's own escapes Python's codec lacks: \e and \E are ESC, \cX a control character
    body = re.sub(r"(?<!\\)((?:\\\\)*)\\[eE]", lambda m: m.group(1) + "\\x1b", body)
    body = re.sub(r"(?<!\\)((?:\\\\)*)\\c(.)",
                  lambda m: m.group(1) + f"\\x{ord(m.group(2).upper()) & 0x1f:02x}", body)
    try:
        return codecs.decode(body.encode("latin-1", "backslashreplace"), "unicode_escape")
    except (UnicodeDecodeError, ValueError):
        return body


def word_of(node: Any) -> Word:
    kind = node.type
    source = text(node)
    if kind == "word":
        return Word(unescape_word(source), False, source)
    if kind in ("number", "variable_name"):
        return Word(source, False, source)
    if kind == "raw_string":
        return Word(source[1:-1], False, source)
    if kind == "ansi_c_string":
        return Word(decode_ansi_c(source), False, source)
    if kind == "string":
        parts = []
        for child in node.named_children:
            if child.type != "string_content":
                return Word(source, True, source)
            content = text(child)
            parts.append(re.sub(r"\\([$`\"\\\n])", r"\1", content) if "\\" in content
                         else content)
        return Word("".join(parts), False, source)
    if kind == "array":
        elements = [word_of(child) for child in node.named_children]
        return Word(source, any(e.dynamic for e in elements), source)
    if kind == "concatenation":
        pieces = [word_of(child) for child in node.named_children]
        if any(p.dynamic for p in pieces) or BRACES.search(source):
            return Word(source, True, source)  # expansions, or brace expansion into words
        return Word("".join(p.text for p in pieces), False, source)
    return Word(source, True, source)
