"""Pure routing of one input line: shell, `? question`, `?? task`, `ai …` builtin, or nothing.

Only a `?` or `??` followed by whitespace (or alone) is AI, and `?fix`; `?.txt` and `??x` stay glob
patterns for bash. `ai` as the first word is swebash's builtin namespace for AI commands.
"""

from __future__ import annotations


class _Routed:
    """A routed line. Plain classes, not dataclasses: piped mode imports this module and
    importing ``dataclasses`` (via ``inspect``) would cost more than the rest of startup."""

    __slots__ = ("text",)

    def __init__(self, text: str = "") -> None:
        self.text = text

    def __eq__(self, other: object) -> bool:
        return type(self) is type(other) and self.text == getattr(other, "text", None)

    def __hash__(self) -> int:
        return hash((type(self).__name__, self.text))

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.text!r})"


class ShellLine(_Routed):
    pass


class Ask(_Routed):
    pass


class Translate(_Routed):
    pass


class Fix(_Routed):
    """``?fix [hint]``: correct the last failed command; ``text`` is the hint."""


class Builtin(_Routed):
    """``text`` is the whole line, starting with "ai"."""


class Empty(_Routed):
    pass


Route = ShellLine | Ask | Translate | Fix | Builtin | Empty


def _ai_prefix(stripped: str, marker: str) -> bool:
    return stripped == marker or (stripped.startswith(marker) and stripped[len(marker)].isspace())


def route(line: str) -> Route:
    stripped = line.strip()
    if not stripped:
        return Empty(line)
    if stripped == "?fix" or (stripped.startswith("?fix") and stripped[4].isspace()):
        return Fix(stripped[4:].strip())
    if _ai_prefix(stripped, "??"):
        return Translate(stripped[2:].strip())
    if _ai_prefix(stripped, "?"):
        return Ask(stripped[1:].strip())
    if stripped == "ai" or (stripped.startswith("ai") and stripped[2].isspace()):
        return Builtin(stripped)
    return ShellLine(line)


def is_ai_line(line: str) -> bool:
    return isinstance(route(line), Ask | Translate | Fix)
