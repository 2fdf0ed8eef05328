"""Readline's state as the session's bash reports it: pure parsing, no I/O.

The session's bash holds readline's key bindings and variables, filled by the user's inputrc
and ``bind`` calls and parsed by bash itself (see shell/bashreadline.py). ``__sb_rl_dump`` prints,
per keymap (``emacs``, ``vi-insert``, ``vi-command``), bash's own listings — ``bind -p``
(functions), ``bind -s`` (macros), ``bind -X`` (shell commands) — each after a ``#sb KEYMAP
p|s|x`` line, then ``#sb - v`` and ``bind -v`` (variables). A listing line is
``"KEYSEQ": function-name`` or ``"KEYSEQ": "VALUE"``, in readline's key notation (``\\C-t``,
``\\e[A``, ``\\M-c``, octal ``\\033``…), which ``translate_keyseq`` turns into the characters a
terminal sends. Only what differs from readline's defaults (the dump taken before any inputrc)
is applied to swebash's editor: ``changed_bindings``.
"""

from __future__ import annotations

from dataclasses import dataclass, field

KEYMAPS = ("emacs", "vi-insert", "vi-command")
KINDS = {"p": "function", "s": "macro", "x": "command"}
SIMPLE_ESCAPES = {"a": "\a", "b": "\b", "d": "\x7f", "e": "\x1b", "f": "\f", "n": "\n",
                  "r": "\r", "t": "\t", "v": "\v", "\\": "\\", '"': '"', "'": "'"}


@dataclass(frozen=True)
class RlBinding:
    keymap: str  # emacs, vi-insert or vi-command
    keys: str  # the characters the terminal sends ("\x14", "\x1b[A")
    kind: str  # function, macro or command
    value: str  # the function's name, the macro's characters, or the shell command


@dataclass
class ReadlineState:
    bindings: dict[tuple[str, str, str], RlBinding] = field(default_factory=dict)
    variables: dict[str, str] = field(default_factory=dict)


def _control(ch: str) -> str:
    return "\x7f" if ch == "?" else chr(ord(ch.upper()) & 0x1F)


def translate_keyseq(text: str) -> str:
    """Readline's key notation as characters: ``\\C-x``, ``\\M-x`` (ESC x), ``\\e``, ``\\\\``,
    ``\\"``, ``\\a \\b \\d \\f \\n \\r \\t \\v``, ``\\NNN`` octal and ``\\xHH`` hex."""
    out: list[str] = []
    i = 0
    meta = False

    def put(ch: str) -> None:
        nonlocal meta
        out.append("\x1b" + ch if meta else ch)
        meta = False

    while i < len(text):
        ch = text[i]
        if ch != "\\" or i + 1 >= len(text):
            put(ch)
            i += 1
            continue
        nxt = text[i + 1]
        if nxt == "C" and text[i + 2: i + 3] == "-" and i + 3 < len(text):
            if text[i + 3] == "\\" and text[i + 4: i + 6] == "M-" and i + 6 < len(text):
                meta = True  # \C-\M-x
                put(_control(text[i + 6]))
                i += 7
            elif text[i + 3] == "\\" and i + 4 < len(text) and text[i + 4] in SIMPLE_ESCAPES:
                put(_control(SIMPLE_ESCAPES[text[i + 4]]))
                i += 5
            else:
                put(_control(text[i + 3]))
                i += 4
        elif nxt == "M" and text[i + 2: i + 3] == "-" and i + 3 < len(text):
            meta = True
            i += 3
            if text[i] != "\\":
                put(text[i])
                i += 1
        elif nxt in "01234567":
            j = i + 1
            while j < len(text) and j < i + 4 and text[j] in "01234567":
                j += 1
            put(chr(int(text[i + 1: j], 8) & 0xFF))
            i = j
        elif nxt == "x" and i + 2 < len(text) and text[i + 2] in "0123456789abcdefABCDEF":
            j = i + 2
            while j < len(text) and j < i + 4 and text[j] in "0123456789abcdefABCDEF":
                j += 1
            put(chr(int(text[i + 2: j], 16)))
            i = j
        elif nxt in SIMPLE_ESCAPES:
            put(SIMPLE_ESCAPES[nxt])
            i += 2
        else:  # readline keeps an unknown escape's character
            put(nxt)
            i += 2
    return "".join(out)


def _quoted_end(line: str, start: int) -> int:
    """Index of the closing quote of the string whose opening quote is at ``start``."""
    i = start + 1
    while i < len(line):
        if line[i] == "\\":
            i += 2
            continue
        if line[i] == '"':
            return i
        i += 1
    return -1


def parse_listing_line(line: str) -> tuple[str, str, bool] | None:
    """``"KEYSEQ": value`` → (keys, value, value was quoted); None for anything else."""
    if not line.startswith('"'):
        return None
    end = _quoted_end(line, 0)
    if end < 0 or line[end + 1: end + 3] != ": ":
        return None
    keys = translate_keyseq(line[1:end])
    value = line[end + 3:]
    if value.startswith('"') and value.endswith('"') and len(value) >= 2:
        return keys, value[1:-1], True
    return keys, value.strip(), False


def sections(text: str) -> dict[tuple[str, str], list[str]]:
    """The dump's lines by (keymap, listing code)."""
    out: dict[tuple[str, str], list[str]] = {}
    lines: list[str] = []
    for line in text.splitlines():
        if line.startswith("#sb "):
            _, keymap, code = [*line.split(), "", ""][:3]
            lines = out.setdefault((keymap, code), [])
        else:
            lines.append(line)
    return out


def parse_variables(lines: list[str]) -> dict[str, str]:
    variables: dict[str, str] = {}
    for line in lines:
        words = line.split(None, 2)
        if len(words) == 3 and words[0] == "set":
            variables[words[1]] = words[2]
    return variables


def parse_bindings(keymap: str, code: str, lines: list[str]) -> list[RlBinding]:
    kind = KINDS.get(code, "")
    if not kind or keymap not in KEYMAPS:
        return []
    out = []
    for line in lines:
        parsed = parse_listing_line(line)
        if parsed is None:
            continue
        keys, value, quoted = parsed
        if kind == "function" and quoted:
            continue
        if kind != "function":  # the value is in key notation too (\" \\ \e \C-x)
            value = translate_keyseq(value)
        out.append(RlBinding(keymap, keys, kind, value))
    return out


def parse_dump(text: str) -> ReadlineState:
    state = ReadlineState()
    for (keymap, code), lines in sections(text).items():
        if code == "v":
            state.variables.update(parse_variables(lines))
        for binding in parse_bindings(keymap, code, lines):
            state.bindings[(binding.keymap, binding.keys, binding.kind)] = binding
    return state


def changes(base_text: str, now_text: str) -> tuple[list[RlBinding], dict[str, str]]:
    """What the user's inputrc and ``bind`` calls changed — every binding readline has now
    that it did not have, or had otherwise, before any inputrc (an unbound default is not
    seen) — and all the variables as they are now. Only changed lines are parsed."""
    base = sections(base_text)
    bindings: list[RlBinding] = []
    variables: dict[str, str] = {}
    for (keymap, code), lines in sections(now_text).items():
        if code == "v":
            variables = parse_variables(lines)
            continue
        before = set(base.get((keymap, code), ()))
        bindings += parse_bindings(keymap, code, [ln for ln in lines if ln not in before])
    return bindings, variables
