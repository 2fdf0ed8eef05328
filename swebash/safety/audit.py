"""Audit log: one JSON line per tool execution in $XDG_STATE_HOME/swebash/audit.jsonl.

Each line is redacted before it is written and appended with a single O_APPEND write, so
concurrent swebash processes never interleave lines. A failure to write never breaks the turn.
"""

from __future__ import annotations

import json
import os
import time
from pathlib import Path
from typing import Any

from swebash.safety.base import Redactor


class AuditLog:
    def __init__(self, path: Path, redactor: Redactor) -> None:
        self.path = path
        self.redactor = redactor

    def record(self, **fields: Any) -> None:
        entry = {"time": time.strftime("%Y-%m-%dT%H:%M:%S%z"), **fields}
        line = self.redactor.redact(json.dumps(entry, ensure_ascii=False, default=str)) + "\n"
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            fd = os.open(self.path, os.O_WRONLY | os.O_APPEND | os.O_CREAT | os.O_CLOEXEC, 0o600)
            try:
                os.write(fd, line.encode("utf-8"))
            finally:
                os.close(fd)
        except OSError:
            pass  # auditing is best effort; the user's work goes on
