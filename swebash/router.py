"""Pure routing of one input line: shell, `? question`, `?? task`, `ai …` builtin, or nothing.

Only a `?` or `??` followed by whitespace (or alone) is AI; `?.txt` and `??x` stay glob
patterns for bash. `ai` as the first word is swebash's builtin namespace for AI commands.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class ShellLine:
    text: str


@dataclass(frozen=True)
class Ask:
    text: str


@dataclass(frozen=True)
class Translate:
    text: str


@dataclass(frozen=True)
class Builtin:
    text: str  # the whole line, starting with "ai"


@dataclass(frozen=True)
class Empty:
    text: str = ""


Route = ShellLine | Ask | Translate | Builtin | Empty


def _ai_prefix(stripped: str, marker: str) -> bool:
    return stripped == marker or (stripped.startswith(marker) and stripped[len(marker)].isspace())


def route(line: str) -> Route:
    stripped = line.strip()
    if not stripped:
        return Empty(line)
    if _ai_prefix(stripped, "??"):
        return Translate(stripped[2:].strip())
    if _ai_prefix(stripped, "?"):
        return Ask(stripped[1:].strip())
    if stripped == "ai" or (stripped.startswith("ai") and stripped[2].isspace()):
        return Builtin(stripped)
    return ShellLine(line)


def is_ai_line(line: str) -> bool:
    return isinstance(route(line), Ask | Translate)
