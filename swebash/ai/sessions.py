"""Conversations that survive the shell: one JSONL file per conversation.

Format (``$XDG_STATE_HOME/swebash/sessions/<YYYYmmdd-HHMMSS>-<id>.jsonl``, mode 0600)::

    {"type": "meta", "version": 1, "cwd": "/home/me/project", "started": 1763900000.0}
    {"type": "exchange", "time": …, "messages": [{"role": "user", "text": "…"}, …]}
    {"type": "compaction", "time": …, "summary": "…", "replaced": 12}
    {"type": "exchange", …}

An exchange is one question with everything that answered it (assistant turns, tool calls and
their results); it is appended — one ``write`` of one whole line, then ``fsync`` — when the
agent commits it, so a shell killed with SIGKILL loses at most the answer being streamed, and a
torn last line is skipped on reading. A ``compaction`` line replaces everything before it with
its summary (the exchanges kept verbatim are appended again after it), so a resumed
conversation sees exactly the history the model saw. A file over ``[sessions] max_bytes`` is
rewritten (atomically) from the bounded in-memory history; beyond ``keep`` files the oldest are
deleted. The conversation is tied to the directory it began in: ``--continue`` picks the one of
the cwd used most recently. Messages were redacted before they entered the conversation.
"""

from __future__ import annotations

import contextlib
import json
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from swebash.ai.conversation import DEFAULT_BUDGET, Conversation
from swebash.config import SessionsConfig
from swebash.durable import append_whole, rewrite_atomic
from swebash.providers.base import (
    AssistantMessage,
    Message,
    ToolCall,
    ToolResultMessage,
    UserMessage,
)

SUMMARY_QUESTION = "[Summary of the earlier part of this conversation]"


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


def decode(data: dict[str, Any]) -> Message:
    role = data.get("role")
    if role == "user":
        return UserMessage(str(data["text"]))
    if role == "assistant":
        calls = tuple(ToolCall(str(c["id"]), str(c["name"]), str(c["arguments"]))
                      for c in data.get("tool_calls", []))
        return AssistantMessage(str(data.get("text", "")), calls)
    if role == "tool":
        return ToolResultMessage(str(data["call_id"]), str(data["name"]), str(data["content"]),
                                 bool(data.get("is_error", False)))
    raise ValueError(f"unknown role {role!r}")


def summary_exchange(summary: str) -> list[Message]:
    return [UserMessage(SUMMARY_QUESTION), AssistantMessage(summary)]


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


def read_session(path: Path) -> LoadedSession | None:
    """Parse one file; torn or foreign lines are skipped, a file without meta is None."""
    try:
        raw = path.read_bytes()
    except OSError:
        return None
    meta: dict[str, Any] | None = None
    exchanges: list[list[Message]] = []
    summary: str | None = None
    replaced = 0
    first = ""
    for line in raw.splitlines():
        try:
            record = json.loads(line)
            kind = record.get("type")
            if kind == "meta" and meta is None:
                meta = record
            elif kind == "exchange":
                messages = [decode(m) for m in record["messages"]]
                if messages and isinstance(messages[0], UserMessage):
                    exchanges.append(messages)
                    first = first or messages[0].text
            elif kind == "compaction":
                replaced += len(exchanges)
                summary, exchanges = str(record["summary"]), []
        except (ValueError, KeyError, TypeError, AttributeError):
            continue  # a line torn by a crash, or written by something else
    if meta is None:
        return None
    info = SessionInfo(path, str(meta.get("cwd", "")), float(meta.get("started", 0.0)),
                       first, replaced + len(exchanges))
    return LoadedSession(info, exchanges, summary)


class SessionStore:
    def __init__(self, directory: Path, config: SessionsConfig, persistent: bool = True) -> None:
        self.directory = directory
        self.config = config
        self.enabled = config.enabled and persistent

    def files(self) -> list[Path]:
        """Most recently used first (a resumed conversation counts as recent)."""
        found: list[tuple[int, str, Path]] = []
        try:
            for path in self.directory.glob("*.jsonl"):
                with contextlib.suppress(OSError):
                    found.append((path.stat().st_mtime_ns, path.name, path))
        except OSError:
            return []
        return [p for _, _, p in sorted(found, reverse=True)]

    def sessions(self) -> list[SessionInfo]:
        """Most recently used first."""
        found: list[SessionInfo] = []
        for path in self.files():
            loaded = read_session(path)
            if loaded is not None and loaded.info.turns:
                found.append(loaded.info)
        return found

    def latest_for(self, cwd: str) -> SessionInfo | None:
        return next((s for s in self.sessions() if s.cwd == cwd), None)

    def create(self, cwd: str) -> Path | None:
        if not self.enabled:
            return None
        stamp = time.strftime("%Y%m%d-%H%M%S")
        path = self.directory / f"{stamp}-{secrets.token_hex(3)}.jsonl"
        meta = {"type": "meta", "version": 1, "cwd": cwd, "started": time.time()}
        try:
            self.directory.mkdir(parents=True, exist_ok=True, mode=0o700)
            append_line(path, meta)
        except OSError:
            return None
        self.prune()
        return path

    def prune(self) -> None:
        for old in self.files()[self.config.keep:]:
            try:
                old.unlink()
            except OSError:
                pass


def append_line(path: Path, record: dict[str, Any]) -> None:
    """One whole line (a short write is cut back), synced: a crash leaves only whole lines."""
    data = (json.dumps(record, ensure_ascii=False) + "\n").encode("utf-8")
    append_whole(path, data, sync=True)


class RecordedConversation(Conversation):
    """A ``Conversation`` that writes every committed exchange to its session file."""

    def __init__(self, store: SessionStore, cwd: Callable[[], str],
                 budget: int = DEFAULT_BUDGET) -> None:
        super().__init__(budget)
        self.store = store
        self.cwd = cwd
        self.path: Path | None = None  # created with the first exchange
        self.summary: str | None = None
        self.failed = False  # the disk refused once: stop trying, keep chatting

    def add_exchange(self, messages: list[Message]) -> None:
        super().add_exchange(messages)
        self._write({"type": "exchange", "time": time.time(),
                     "messages": [encode(m) for m in messages]})

    def reset(self) -> None:
        super().reset()
        self.path, self.summary = None, None

    def resume(self, info: SessionInfo) -> bool:
        loaded = read_session(info.path)
        if loaded is None:
            return False
        self.exchanges = ([summary_exchange(loaded.summary)] if loaded.summary else []) + \
            loaded.exchanges
        self.summary = loaded.summary
        self.path = info.path
        self.trim()
        return True

    def compact(self, summary: str, keep: int) -> None:
        """Replace all but the last ``keep`` exchanges with ``summary``, in memory and on disk."""
        kept = self.exchanges[-keep:] if keep > 0 else []
        self.exchanges = [summary_exchange(summary), *kept]
        self.summary = summary
        self._write({"type": "compaction", "time": time.time(), "summary": summary})
        for exchange in kept:
            self._write({"type": "exchange", "time": time.time(),
                         "messages": [encode(m) for m in exchange]})

    def _write(self, record: dict[str, Any]) -> None:
        if self.failed or not self.store.enabled:
            return
        try:
            if self.path is None:
                self.path = self.store.create(self.cwd())
                if self.path is None:
                    self.failed = True
                    return
            append_line(self.path, record)
            if self.path.stat().st_size > self.store.config.max_bytes:
                self._rewrite()
        except OSError:
            self.failed = True

    def _rewrite(self) -> None:
        """Over the size cap: the file becomes what memory holds (already within budget)."""
        assert self.path is not None
        loaded = read_session(self.path)
        meta = {"type": "meta", "version": 1, "cwd": loaded.info.cwd if loaded else self.cwd(),
                "started": loaded.info.started if loaded else time.time()}
        lines = [meta]
        exchanges = self.exchanges
        if self.summary is not None and exchanges and exchanges[0][:1] == [
                UserMessage(SUMMARY_QUESTION)]:
            lines.append({"type": "compaction", "time": time.time(), "summary": self.summary})
            exchanges = exchanges[1:]
        lines.extend({"type": "exchange", "time": time.time(),
                      "messages": [encode(m) for m in e]} for e in exchanges)
        data = "".join(json.dumps(line, ensure_ascii=False) + "\n" for line in lines)
        rewrite_atomic(self.path, data.encode("utf-8"))  # a symlinked file stays a link
