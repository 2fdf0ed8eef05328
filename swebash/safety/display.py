"""Make a command's hidden characters visible, so it cannot disguise itself on screen.

Control characters (``\\r`` that rewinds the line, ANSI escapes that recolour or move the
cursor, backspaces), bidi overrides that reorder text and zero-width characters that hide
inside words are shown as escapes; ordinary text, including non-ASCII letters, is untouched.
"""

from __future__ import annotations

import unicodedata

NAMED = {"\r": "\\r", "\x1b": "\\x1b", "\b": "\\b", "\x7f": "\\x7f"}


def make_visible(text: str) -> str:
    out: list[str] = []
    for ch in text:
        if ch in ("\n", "\t"):
            out.append(ch)
            continue
        if ch in NAMED:
            out.append(NAMED[ch])
            continue
        category = unicodedata.category(ch)
        if category == "Cc":
            out.append(f"\\x{ord(ch):02x}")
        elif category in ("Cf", "Zl", "Zp", "Co", "Cn") or ch in ("\u00a0", "\u3164", "\u115f"):
            out.append(f"\\u{ord(ch):04x}")
        else:
            out.append(ch)
    return "".join(out)
