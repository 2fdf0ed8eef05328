"""Text from the model or a tool is data: make it inert before it reaches the terminal.

The one place that decides what of a foreign string may reach the user's terminal. A command
the model wants to run, a line of a tool's output, an answer, a tool name in `ai stats` or an
error message can carry characters a terminal does not show as themselves: escape sequences
(OSC 52 writes the clipboard, OSC 8 makes links, CSI conceals text, clears the screen or moves
the cursor, DCS talks to the terminal itself), carriage returns that overwrite the start of a
line, backspaces, bidirectional overrides that reorder what is read, zero-width characters.
Only the renderer's own styling may reach the terminal; so:

* ``make_visible`` — for what a person must judge (a command awaiting y/N, a path, a reason):
  every hidden character is shown as an escape (``\\x1b``, ``\\u202e``), newlines and tabs kept;
* ``clean_output_line`` — one line of a program's output: its colours (CSI/OSC sequences) are
  dropped, tabs expanded, anything else hidden made visible;
* ``inert_text`` — streamed answer text: control characters other than newline and tab are
  dropped one by one (a delta may end in the middle of a sequence, so sequences cannot be
  parsed; what is left of one, like ``]52;c;…``, is plain text).
"""

from __future__ import annotations

import re
import unicodedata

NAMED = {"\r": "\\r", "\x1b": "\\x1b", "\b": "\\b", "\x7f": "\\x7f"}

# Escape sequences: CSI, OSC (ended by BEL or ST), DCS/SOS/PM/APC strings, two-byte ESC forms.
ANSI = re.compile(r"\x1b\[[0-?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)?"
                  r"|\x1b[PX^_][^\x1b]*(?:\x1b\\)?|\x1b[@-Z\\-_]")
# The same on raw terminal output, plus stray ESC pairs and control bytes (newline, tab and
# CR kept): what the shell keeps of a command's output for the model.
TERMINAL_NOISE_BYTES = re.compile(ANSI.pattern.encode()
                                  + rb"|\x1b.|[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")

# Control characters dropped from streamed text: C0 except tab and newline, DEL, C1.
_CONTROL_DROP = {code: None for code in [*range(0x00, 0x09), *range(0x0B, 0x20),
                                          *range(0x7F, 0xA0)]}
# Format characters that reorder or hide text (bidi overrides and isolates, zero-width).
_BIDI_DROP = {code: None for code in [0x061C, 0x200B, 0x200E, 0x200F, 0x2060,
                                       *range(0x202A, 0x202F), *range(0x2066, 0x206A)]}


def make_visible(text: str) -> str:
    """Show every control, format and bidi character as an escape; newline and tab stay."""
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


def one_line(text: str) -> str:
    """``make_visible`` with newlines and tabs escaped too: for text that must stay on a line."""
    return make_visible(text).replace("\n", "\\n").replace("\t", "\\t")


def strip_ansi(text: str) -> str:
    """Remove escape sequences (colours of a program's output, or our own styling)."""
    return ANSI.sub("", text)


def clean_output_line(line: str) -> str:
    """One line of program output, safe to print: colours dropped, tabs expanded, rest escaped."""
    return make_visible(strip_ansi(line).expandtabs(4))


def inert_text(text: str) -> str:
    """Streamed answer text with every control and bidi character dropped (newline, tab kept)."""
    return text.translate(_CONTROL_DROP).translate(_BIDI_DROP)
