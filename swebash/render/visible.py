"""Making hidden characters visible before they reach the user's terminal.

A command the model wants to run, or a line of a tool's output, can carry characters that a
terminal does not show as themselves: escape sequences that recolour or move the cursor,
carriage returns that overwrite the start of the line, bidirectional overrides that reorder
what is read, zero-width characters. In a confirmation prompt that would let `rm -rf ~` look
like something harmless, so every such character is shown as an escape (``\\x1b``, ``\\u202e``).

The safety half owns the canonical function, ``swebash.safety.display.make_visible``; it is
looked up at first use so this package does not depend on it being present, and the small
fallback here applies the same rule when it is not.
"""

from __future__ import annotations

import importlib
import re
import unicodedata
from collections.abc import Callable
from functools import cache
from typing import cast

# Format characters that change what is displayed without being visible themselves.
_INVISIBLE = frozenset(
    [0x00AD, 0x061C, 0x180E, 0x200B, 0x200C, 0x200D, 0x200E, 0x200F, 0x2060, 0x2061, 0x2062,
     0x2063, 0x2064, 0xFEFF, *range(0x202A, 0x202F), *range(0x2066, 0x206A)])
_NAMED = {"\n": "\\n", "\t": "\\t", "\r": "\\r", "\x1b": "\\x1b"}

# CSI / OSC sequences of coloured command output: dropped from output lines, not escaped.
_ANSI = re.compile(r"\x1b\[[0-?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)|\x1b[@-Z\\-_]")


def fallback_make_visible(text: str) -> str:
    """Escape control, format and bidi characters; leave printable text alone."""
    out: list[str] = []
    for char in text:
        code = ord(char)
        if char in _NAMED:
            out.append(_NAMED[char])
        elif code < 0x20 or 0x7F <= code < 0xA0:
            out.append(f"\\x{code:02x}")
        elif code in _INVISIBLE or unicodedata.category(char) in ("Cf", "Zl", "Zp"):
            out.append(f"\\u{code:04x}")
        else:
            out.append(char)
    return "".join(out)


@cache
def _make_visible() -> Callable[[str], str]:
    try:
        module = importlib.import_module("swebash.safety.display")
    except ImportError:
        return fallback_make_visible
    function = getattr(module, "make_visible", None)
    if not callable(function):
        return fallback_make_visible
    return cast(Callable[[str], str], function)


def make_visible(text: str) -> str:
    """The safety half's ``make_visible`` when present, else the local fallback."""
    return _make_visible()(text)


def clean_output_line(line: str) -> str:
    """One line of program output, safe to print: colours dropped, tabs expanded, rest escaped."""
    return make_visible(_ANSI.sub("", line).expandtabs(4))
