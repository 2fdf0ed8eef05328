"""What crosses the provider boundary is checked here, once: JSON types, sizes and nesting.

The problem: the SDKs build their event objects without validation (pydantic ``construct``), so
a server that sends ``"content": 123`` or ``"tool_calls": "abc"`` hands us an int or a str where
the SDK's types promise text or a list, and the failure surfaces far away as a TypeError in the
renderer. Nested values the SDK cannot map stay plain dicts; Ollama's NDJSON is plain JSON.

The approach: every field a provider reads goes through ``Narrow``, which accepts SDK objects
and dicts alike and either returns a typed value or raises a one-line ``MalformedEvent`` naming
the field ("delta.content is a number, expected text"). Missing optional fields are ``None``.

Sizes are counted as they arrive, with a running total, so an endless or huge stream is stopped
at the cap instead of growing memory: ``TurnBudget`` holds an answer's text (at most
``MAX_ANSWER_CHARS``) and counts a turn's tool-call arguments (at most ``MAX_ARGUMENTS_CHARS``,
all calls together). One event line is at most ``MAX_EVENT_BYTES`` (see ``guard.py``).
"""

from __future__ import annotations

import json
from collections.abc import Mapping

from swebash.errors import MalformedEvent, ResponseTooLarge
from swebash.providers.base import ToolArgsProgress

MAX_ANSWER_CHARS = 1_000_000  # ~1 MB of answer text; a real answer is a few KB
PROGRESS_STEP = 1024  # report argument progress every KB (a 9 KB write_file: nine updates)
MAX_ARGUMENTS_CHARS = 1_000_000  # ~1 MB of tool-call arguments per turn (a large write_file)
MAX_EVENT_BYTES = 4 * MAX_ARGUMENTS_CHARS  # one SSE/NDJSON line: a whole call fits, with escapes

_SCALARS = (str, bytes, int, float, bool, list, tuple)


def describe(value: object) -> str:
    """A JSON-ish name for what arrived, for the error message."""
    if value is None:
        return "missing"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, int | float):
        return "a number"
    if isinstance(value, str | bytes):
        return "text"
    if isinstance(value, list | tuple):
        return "a list"
    return "an object"


def size_label(chars: int) -> str:
    return f"{chars / 1_000_000:g} MB" if chars >= 1_000_000 else f"{chars / 1000:g} KB"


def field(obj: object, name: str) -> object:
    """``obj[name]`` for a dict, ``obj.name`` for an SDK object; None when absent."""
    if isinstance(obj, dict):
        return obj.get(name)
    if obj is None or isinstance(obj, _SCALARS):
        return None
    return getattr(obj, name, None)


class Narrow:
    """Typed reads of one provider's events; a wrong type is a ``MalformedEvent``."""

    def __init__(self, provider: str) -> None:
        self.provider = provider

    def malformed(self, what: str) -> MalformedEvent:
        return MalformedEvent(f"{self.provider}: the provider sent a malformed event: {what}")

    def _wrong(self, where: str, value: object, expected: str) -> MalformedEvent:
        return self.malformed(f"{where} is {describe(value)}, expected {expected}")

    def record(self, obj: object, name: str, where: str, *, required: bool = False) -> object:
        """A nested object (SDK model or dict); None when absent and not required."""
        value = field(obj, name)
        if value is None and not required:
            return None
        if value is None or isinstance(value, _SCALARS):
            raise self._wrong(where, value, "an object")
        return value

    def text(self, obj: object, name: str, where: str, *, required: bool = False) -> str | None:
        value = field(obj, name)
        if value is None and not required:
            return None
        if not isinstance(value, str):
            raise self._wrong(where, value, "text")
        return value

    def integer(self, obj: object, name: str, where: str,
                *, required: bool = False) -> int | None:
        value = field(obj, name)
        if value is None and not required:
            return None
        if not isinstance(value, int) or isinstance(value, bool):
            raise self._wrong(where, value, "a whole number")
        return value

    def flag(self, obj: object, name: str, where: str) -> bool:
        value = field(obj, name)
        if value is None:
            return False
        if not isinstance(value, bool):
            raise self._wrong(where, value, "true or false")
        return value

    def items(self, obj: object, name: str, where: str) -> list[object]:
        """A list; an absent or null field is the empty list."""
        value = field(obj, name)
        if value is None:
            return []
        if not isinstance(value, list):
            raise self._wrong(where, value, "a list")
        return list(value)

    def arguments(self, obj: object, name: str, where: str) -> str:
        """Tool-call arguments as raw JSON text: sent as text, or as an object we re-encode."""
        value = field(obj, name)
        if value is None:
            return ""
        if isinstance(value, str):
            return value
        if isinstance(value, dict):
            try:
                return json.dumps(value)
            except (TypeError, ValueError, RecursionError):
                raise self.malformed(f"{where} cannot be read as JSON") from None
        raise self._wrong(where, value, "text or an object")


class TurnBudget:
    """One turn's text and argument sizes with running totals; raises at the caps."""

    def __init__(self, provider: str, *, max_text: int = MAX_ANSWER_CHARS,
                 max_arguments: int = MAX_ARGUMENTS_CHARS) -> None:
        self.provider = provider
        self.max_text = max_text
        self.max_arguments = max_arguments
        self._text: list[str] = []
        self.text_size = 0
        self.arguments_size = 0
        self.arguments_name = ""  # the call whose arguments arrived last, when known
        self._reported = 0

    def add_text(self, piece: str) -> None:
        self.text_size += len(piece)
        if self.text_size > self.max_text:
            raise ResponseTooLarge(
                f"{self.provider}: the answer passed {size_label(self.max_text)}, the cap on "
                "one answer; stopped reading it")
        self._text.append(piece)

    def add_arguments(self, piece: str) -> None:
        self.arguments_size += len(piece)
        if self.arguments_size > self.max_arguments:
            raise ResponseTooLarge(
                f"{self.provider}: the tool-call arguments passed "
                f"{size_label(self.max_arguments)}, the cap on one turn's tool calls; "
                "stopped reading them")

    def progress(self) -> ToolArgsProgress | None:
        """An event each time another ``PROGRESS_STEP`` characters of arguments arrived."""
        if self.arguments_size - self._reported < PROGRESS_STEP:
            return None
        self._reported = self.arguments_size
        return ToolArgsProgress(self.arguments_name, self.arguments_size)

    @property
    def text(self) -> str:
        return "".join(self._text)


def undecodable(narrow: Narrow, exc: BaseException) -> MalformedEvent | None:
    """The SDK could not decode an event's JSON (or it was nested past the decoder's limit)."""
    if isinstance(exc, json.JSONDecodeError):
        return narrow.malformed(f"an event is not JSON ({exc.msg})")
    if isinstance(exc, RecursionError):
        return narrow.malformed("an event is nested too deeply to read")
    return None


def stream_content_type(stream: object) -> str | None:
    """The content type of the HTTP response behind an SDK stream (None when unknown)."""
    headers = field(field(stream, "response"), "headers")
    if isinstance(headers, Mapping):
        value = headers.get("content-type")
        return value if isinstance(value, str) else None
    return None
