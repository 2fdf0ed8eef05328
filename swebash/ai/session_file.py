"""One conversation file, read with every field checked.

A session file is data on disk that anything may have touched: a crash, a full disk, another
program, a hand edit, a newer swebash. Reading it must never raise past this module and never
hand the rest of swebash a value of the wrong type or an absurd size — a ``started`` of ``1e300``
once made ``ai sessions`` die in ``time.localtime`` and list nothing, so one bad file hid every
good one. So:

* a line that is not JSON is a line torn by a crash (or being written right now by the shell
  that owns the file): skipped without a word, wherever it is;
* every other line must be a record swebash writes, with each field of the expected type and
  within bounds (``started`` a finite time between 1970 and 9999, ``cwd`` an absolute path of at
  most ``CWD_CAP`` characters, texts of at most ``TEXT_CAP``, an exchange opening with the user's
  message and answering every tool call); otherwise the whole file is refused with one
  ``BadSessionFile`` naming the line and the field. Half a conversation resumed silently would
  mislead the model, so a damaged file is named and left alone, never guessed at.

Nothing here prints: the store turns a refusal into one warning line.
"""

from __future__ import annotations

import json
import math
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from swebash.ai.conversation import is_consistent
from swebash.providers.base import (
    AssistantMessage,
    Message,
    ToolCall,
    ToolResultMessage,
    UserMessage,
)

SUMMARY_QUESTION = "[Summary of the earlier part of this conversation]"
VERSION = 1
CWD_CAP = 4096  # PATH_MAX
# One text field: swebash writes at most ~1 MB in one (an answer or a turn's tool arguments,
# see providers/boundary.py); twice that leaves room for JSON escapes counted as characters.
TEXT_CAP = 2_000_000
NAME_CAP = 1024  # a tool name or a call id
MESSAGES_CAP = 10_000  # messages in one exchange (iterations x calls is ~200 by default)
FILE_CAP = 64 << 20  # bytes; files are rewritten past [sessions] max_bytes (4 MB by default)
LATEST = 253402300799.0  # 9999-12-31 23:59:59 UTC: the last second a calendar shows


MISSING = object()


class BadSessionFile(Exception):
    """The file is not a conversation swebash can trust; the message says why, in one line."""


@dataclass(frozen=True)
class SessionInfo:
    path: Path
    cwd: str
    started: float
    first_question: str
    turns: int


@dataclass
class LoadedSession:
    info: SessionInfo
    exchanges: list[list[Message]]
    summary: str | None
    clean_end: bool = True  # False: the last line is torn, the next append needs a newline


def encode(message: Message) -> dict[str, Any]:
    if isinstance(message, UserMessage):
        return {"role": "user", "text": message.text}
    if isinstance(message, AssistantMessage):
        data: dict[str, Any] = {"role": "assistant", "text": message.text}
        if message.tool_calls:
            data["tool_calls"] = [{"id": c.id, "name": c.name, "arguments": c.arguments}
                                  for c in message.tool_calls]
        return data
    return {"role": "tool", "call_id": message.call_id, "name": message.name,
            "content": message.content, "is_error": message.is_error}


def summary_exchange(summary: str) -> list[Message]:
    return [UserMessage(SUMMARY_QUESTION), AssistantMessage(summary)]


# ---------------------------------------------------------------------- field checks


def text(record: dict[str, Any], key: str, cap: int = TEXT_CAP) -> str:
    value = record.get(key, MISSING)
    if not isinstance(value, str):
        raise BadSessionFile(f"{key} is {kind(value)}, expected text")
    if len(value) > cap:
        raise BadSessionFile(f"{key} is {len(value)} characters long (at most {cap})")
    return value


def stamp(record: dict[str, Any], key: str) -> float:
    value = record.get(key, MISSING)
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise BadSessionFile(f"{key} is {kind(value)}, expected a time")
    number = float(value)  # a huge int raises OverflowError: caught by the caller
    if not math.isfinite(number) or not 0 <= number <= LATEST:
        raise BadSessionFile(f"{key} is not a time between 1970 and 9999")
    return number


def kind(value: object) -> str:
    """What a JSON value is, for a message: "a number", "null", "a list"…"""
    if value is MISSING:
        return "missing"
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, int | float):
        return "a number"
    if isinstance(value, str):
        return "text"
    if isinstance(value, list):
        return "a list"
    return "an object"


def decode(data: object) -> Message:
    """One stored message, checked; raises ``BadSessionFile``."""
    if not isinstance(data, dict):
        raise BadSessionFile(f"a message is {kind(data)}, expected an object")
    role = data.get("role", MISSING)
    if role == "user":
        return UserMessage(text(data, "text"))
    if role == "assistant":
        raw = data.get("tool_calls", [])
        if not isinstance(raw, list) or len(raw) > MESSAGES_CAP:
            raise BadSessionFile(f"tool_calls is {kind(raw)}, expected a short list")
        calls = []
        for call in raw:
            if not isinstance(call, dict):
                raise BadSessionFile(f"a tool call is {kind(call)}, expected an object")
            calls.append(ToolCall(text(call, "id", NAME_CAP), text(call, "name", NAME_CAP),
                                  text(call, "arguments")))
        return AssistantMessage(text(data, "text"), tuple(calls))
    if role == "tool":
        failed = data.get("is_error", False)
        if not isinstance(failed, bool):
            raise BadSessionFile(f"is_error is {kind(failed)}, expected true or false")
        return ToolResultMessage(text(data, "call_id", NAME_CAP), text(data, "name", NAME_CAP),
                                 text(data, "content"), failed)
    shown = role if isinstance(role, str) and len(role) <= 20 else kind(role)
    raise BadSessionFile(f"a message has the unknown role {shown!r}")


def exchange_messages(record: dict[str, Any]) -> list[Message]:
    stamp(record, "time")
    raw = record.get("messages", MISSING)
    if not isinstance(raw, list) or not 0 < len(raw) <= MESSAGES_CAP:
        raise BadSessionFile(f"messages is {kind(raw)}, expected a list of 1 to "
                             f"{MESSAGES_CAP} messages")
    messages = [decode(m) for m in raw]
    if not isinstance(messages[0], UserMessage):
        raise BadSessionFile("an exchange does not open with the user's message")
    if not is_consistent(messages):
        raise BadSessionFile("an exchange has tool calls and results that do not match")
    return messages


def check_meta(record: dict[str, Any]) -> tuple[str, float]:
    version = record.get("version", MISSING)
    if isinstance(version, bool) or version != VERSION:
        raise BadSessionFile(f"version is {version!r}, this swebash reads {VERSION}"
                             if isinstance(version, int) else
                             f"version is {kind(version)}, expected {VERSION}")
    cwd = text(record, "cwd", CWD_CAP)
    if not cwd.startswith("/") or "\x00" in cwd:
        raise BadSessionFile("cwd is not an absolute path")
    return cwd, stamp(record, "started")


# ---------------------------------------------------------------------- the file


def read_bytes(path: Path, limit: int) -> bytes:
    """The file's bytes, refused past ``limit`` without reading it all; raises OSError."""
    fd = os.open(path, os.O_RDONLY | os.O_CLOEXEC)
    with os.fdopen(fd, "rb") as handle:
        if os.fstat(handle.fileno()).st_size > limit:
            raise BadSessionFile(f"larger than {limit >> 20} MB")
        data = handle.read(limit + 1)
    if len(data) > limit:
        raise BadSessionFile(f"larger than {limit >> 20} MB")
    return data


def load_session(path: Path, limit: int = FILE_CAP) -> LoadedSession:
    """Parse one file; raises ``BadSessionFile`` (or ``OSError``) with the reason."""
    raw = read_bytes(path, limit)
    cwd_started: tuple[str, float] | None = None
    exchanges: list[list[Message]] = []
    summary: str | None = None
    replaced = 0
    first = ""
    lines = raw.split(b"\n")
    for number, line in enumerate(lines, 1):
        try:
            record = json.loads(line)
        except (ValueError, RecursionError):
            continue  # torn by a crash, or being appended right now
        try:
            if not isinstance(record, dict):
                raise BadSessionFile(f"it holds {kind(record)}, expected a record")
            kind_of = record.get("type", MISSING)
            if cwd_started is None:
                if kind_of != "meta":
                    raise BadSessionFile("it does not begin with a meta record")
                cwd_started = check_meta(record)
            elif kind_of == "exchange":
                messages = exchange_messages(record)
                exchanges.append(messages)
                if not first and isinstance(messages[0], UserMessage):
                    first = messages[0].text
            elif kind_of == "compaction":
                stamp(record, "time")
                replaced += len(exchanges)
                summary, exchanges = text(record, "summary"), []
            else:
                shown = kind_of if isinstance(kind_of, str) and len(kind_of) <= 20 else \
                    kind(kind_of)
                raise BadSessionFile(f"unknown record type {shown!r}")
        except BadSessionFile as exc:
            raise BadSessionFile(f"line {number}: {exc}") from None
        except OverflowError:
            raise BadSessionFile(f"line {number}: a number out of range") from None
    if cwd_started is None:
        raise BadSessionFile("no meta record (not a conversation file)")
    cwd, started = cwd_started
    info = SessionInfo(path, cwd, started, first, replaced + len(exchanges))
    return LoadedSession(info, exchanges, summary, clean_end=not raw or raw.endswith(b"\n"))


def read_session(path: Path) -> LoadedSession | None:
    """``load_session``, or None when the file cannot be read or trusted."""
    try:
        return load_session(path)
    except (BadSessionFile, OSError):
        return None
