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
rewritten (atomically) from the bounded in-memory history; beyond ``keep`` files the least
recently used are deleted — except those a running swebash holds (``session_lock``). Reading
checks every field (``session_file``): a damaged file is left out of listings with one warning
naming it, never an error that hides the others. The conversation is tied to the directory it
began in: ``--continue`` picks the one of the cwd used most recently. Messages were redacted
before they entered the conversation.
"""

from __future__ import annotations

import contextlib
import json
import secrets
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from swebash.ai.conversation import DEFAULT_BUDGET, Conversation
from swebash.ai.session_file import (
    FILE_CAP,
    SUMMARY_QUESTION,
    VERSION,
    BadSessionFile,
    LoadedSession,
    SessionInfo,
    encode,
    load_session,
    read_session,
    summary_exchange,
)
from swebash.ai.session_lock import Gone, LiveMark, remove_unless_live, sweep_orphans
from swebash.config import SessionsConfig
from swebash.durable import append_whole, rewrite_atomic
from swebash.providers.base import Message, UserMessage
from swebash.visible import one_line

__all__ = ["SUMMARY_QUESTION", "LoadedSession", "RecordedConversation", "SessionInfo",
           "SessionStore", "read_session"]
Report = Callable[[str], None]


class SessionStore:
    def __init__(self, directory: Path, config: SessionsConfig, persistent: bool = True,
                 report: Report | None = None) -> None:
        self.directory = directory
        self.config = config
        self.enabled = config.enabled and persistent
        self.report = report  # one line per damaged file a listing skips
        self.limit = max(FILE_CAP, 4 * config.max_bytes)

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

    def load(self, path: Path) -> LoadedSession:
        """One file, checked; raises ``BadSessionFile`` or ``OSError``."""
        return load_session(path, self.limit)

    def sessions(self) -> list[SessionInfo]:
        """Most recently used first. A file that cannot be read or trusted is left out with
        one warning naming it (per listing), so it never hides the others."""
        found: list[SessionInfo] = []
        for path in self.files():
            try:
                info = self.load(path).info
            except (BadSessionFile, OSError) as exc:
                self.warn(path, exc)
                continue
            if info.turns:
                found.append(info)
        return found

    def warn(self, path: Path, exc: Exception) -> None:
        if self.report is None:
            return
        reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
        self.report(one_line(f"skipped the conversation file {path}: {reason}"))

    def latest_for(self, cwd: str) -> SessionInfo | None:
        return next((s for s in self.sessions() if s.cwd == cwd), None)

    def create(self, cwd: str) -> tuple[Path, LiveMark] | None:
        """A new conversation file with its head, held by this process (so no pruner,
        ours or another's, can take it); None when it cannot be made."""
        if not self.enabled:
            return None
        stamp = time.strftime("%Y%m%d-%H%M%S")
        path = self.directory / f"{stamp}-{secrets.token_hex(3)}.jsonl"
        meta = {"type": "meta", "version": VERSION, "cwd": cwd, "started": time.time()}
        try:
            self.directory.mkdir(parents=True, exist_ok=True, mode=0o700)
            mark = LiveMark(path, must_exist=False)  # held before the file exists
        except OSError:
            return None
        try:
            append_line(path, meta)
        except OSError:
            mark.release()
            return None
        self.prune()
        return path, mark

    def prune(self) -> None:
        """Beyond ``keep``, delete the least recently used files no running swebash holds."""
        for old in self.files()[self.config.keep:]:
            remove_unless_live(old)
        sweep_orphans(self.directory)


def append_line(path: Path, record: dict[str, Any], newline_first: bool = False) -> None:
    """One whole line (a short write is cut back), synced: a crash leaves only whole lines.
    ``newline_first`` ends a torn last line first, so the new record is a line of its own."""
    data = (("\n" if newline_first else "") + json.dumps(record, ensure_ascii=False)
            + "\n").encode("utf-8")
    append_whole(path, data, sync=True)


class RecordedConversation(Conversation):
    """A ``Conversation`` that writes every committed exchange to its session file, and
    holds that file (see ``session_lock``) while it is the current one."""

    def __init__(self, store: SessionStore, cwd: Callable[[], str],
                 budget: int = DEFAULT_BUDGET) -> None:
        super().__init__(budget)
        self.store = store
        self.cwd = cwd
        self.path: Path | None = None  # created with the first exchange
        self.summary: str | None = None
        self.failed = False  # the disk refused once: stop trying, keep chatting
        self._mark: LiveMark | None = None
        self._torn_tail = False  # the resumed file ends in a torn line

    def add_exchange(self, messages: list[Message]) -> None:
        super().add_exchange(messages)
        self._write({"type": "exchange", "time": time.time(),
                     "messages": [encode(m) for m in messages]})

    def reset(self) -> None:
        super().reset()
        self.release()
        self.path, self.summary = None, None

    def release(self) -> None:
        """Stop holding the file (at exit, or when another conversation becomes current)."""
        mark, self._mark = self._mark, None
        if mark is not None:
            mark.release()

    def resume(self, info: SessionInfo) -> str | None:
        """Make ``info``'s conversation the current one; None, or why it cannot be."""
        mark: LiveMark | None = None
        try:
            mark = LiveMark(info.path, must_exist=True)
        except Gone:
            return "it was deleted meanwhile"
        except OSError:
            pass  # a directory we may not write to: readable all the same, and unprunable
        try:
            loaded = self.store.load(info.path)
        except (BadSessionFile, OSError) as exc:
            if mark is not None:
                mark.release()
            return exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
        self.release()
        self._mark = mark
        self.exchanges = ([summary_exchange(loaded.summary)] if loaded.summary else []) + \
            loaded.exchanges
        self.summary = loaded.summary
        self.path = info.path
        self._torn_tail = not loaded.clean_end
        self.trim()
        return None

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
                created = self.store.create(self.cwd())
                if created is None:
                    self.failed = True
                    return
                self.path, self._mark = created
            append_line(self.path, record, newline_first=self._torn_tail)
            self._torn_tail = False
            if self.path.stat().st_size > self.store.config.max_bytes:
                self._rewrite()
        except OSError:
            self.failed = True

    def _rewrite(self) -> None:
        """Over the size cap: the file becomes what memory holds (already within budget)."""
        assert self.path is not None
        loaded = read_session(self.path)
        meta = {"type": "meta", "version": VERSION,
                "cwd": loaded.info.cwd if loaded else self.cwd(),
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
