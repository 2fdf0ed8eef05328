"""Audit log: one JSON line per tool execution in $XDG_STATE_HOME/swebash/audit.jsonl.

Each line is redacted before it is written and appended whole or not at all
(``durable.append_whole``), so concurrent swebash processes never interleave lines and a full
disk never leaves a line that is not JSON. A failure to write never breaks the turn; it is
reported once, on stderr, and later entries are dropped silently.
"""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path

from swebash.durable import FailureNotice, append_whole
from swebash.safety.base import Redactor


class AuditLog:
    def __init__(self, path: Path, redactor: Redactor) -> None:
        self.path = path
        self.redactor = redactor
        self.notice = FailureNotice(f"the audit log {path}")

    def record(self, **fields: object) -> None:
        entry = {"time": time.strftime("%Y-%m-%dT%H:%M:%S%z"), **fields}
        line = self.redactor.redact(json.dumps(entry, ensure_ascii=False, default=str)) + "\n"
        try:
            self.path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
            append_whole(self.path, line.encode("utf-8"))
        except OSError as exc:
            message = self.notice(exc)
            if message is not None:
                print(message, file=sys.stderr, flush=True)
