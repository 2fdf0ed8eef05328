"""Control sequences printed to the terminal.

Design note. The problem: ``printf '\\e]52;c;…\\a'`` sets the clipboard, ``\\e[201~`` ends a
bracketed paste so what follows is typed as input, ``\\e]8;;URL`` hides a link behind text,
``\\eP…`` speaks to the terminal itself and ``\\e[2J`` wipes what was on screen. To the other
checks these are ``echo``/``printf`` of text. Listing bad sequences fails (terminals keep
adding OSC numbers). The approach is positive: the only control sequence a command may print
is SGR — colours and bold, ``ESC [ digits ; … m``. An escape written any way bash, ``printf``
or ``echo -e`` will turn into one (``\\e``, ``\\E``, ``\\033``, ``\\0033``, ``\\x1b``,
``\\u001b``, an ANSI-C ``$'\\e'`` already resolved, the 8-bit CSI/OSC/DCS bytes, and the same
with doubled backslashes that a nested ``printf`` unfolds) must be followed by an SGR tail;
anything else is dangerous.
"""

from __future__ import annotations

import re

from swebash.safety.classify.model import Findings

# every spelling of ESC (and of the 8-bit CSI, DCS, OSC, APC, PM introducers)
ESCAPE = re.compile(r"(\\+(e|E|0?0?33|x1[bB]|u001[bB]|U0000001[bB])|\x1b|[\x90\x9b\x9d\x9e\x9f])")
SGR_TAIL = re.compile(r"\[[0-9;:]*m")


def control_sequences(text: str) -> bool:
    """``text`` holds an escape that is not followed by an SGR (colour) tail."""
    for match in ESCAPE.finditer(text):
        if match.group(0) in "\x90\x9b\x9d\x9e\x9f" or not SGR_TAIL.match(text, match.end()):
            return True
    return False


def printed(f: Findings, name: str, words: list[str]) -> None:
    """``echo``/``printf``/``print`` words that would put a control sequence on screen."""
    if any(control_sequences(word) for word in words):
        f.ask(f"{name}: prints terminal control sequences (clipboard, input, links), not "
              "only colours", True)
