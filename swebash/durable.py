"""Appending a record to a shared log file whole or not at all.

Problem: history and the audit log are appended to by several swebash processes at once, and a
full disk turns a plain ``write`` into a short write — half a history entry that ↑ later
recalls, or an audit line that is not JSON. O_APPEND alone prevents interleaving, not tearing.

Approach: take an exclusive ``flock`` on the file, note its size, write the record in a loop
(``os.write`` may be short), and on any failure truncate back to the noted size before
unlocking. Every appender holds the lock, so nobody's record can land after ours and be cut by
that truncate. The caller decides how to report a failure (once); this module only guarantees
the file never holds a partial record.
"""

from __future__ import annotations

import fcntl
import os
from pathlib import Path


def append_whole(path: Path, data: bytes, mode: int = 0o600, *, sync: bool = False) -> None:
    """Append ``data`` to ``path`` atomically with respect to other appenders; raise OSError.

    ``sync``: fsync before returning, for records that must survive a crash of the machine."""
    fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT | os.O_CLOEXEC, mode)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        size = os.fstat(fd).st_size
        try:
            view = memoryview(data)
            while view:
                written = os.write(fd, view)
                if written <= 0:
                    raise OSError(28, "No space left on device")
                view = view[written:]
            if sync:
                os.fsync(fd)
        except OSError:
            try:
                os.ftruncate(fd, size)
            except OSError:
                pass  # nothing more we can do; the record is still reported as lost
            raise
    finally:
        os.close(fd)  # closing releases the lock


class FailureNotice:
    """Say once per process that records are being lost, never once per record."""

    def __init__(self, what: str) -> None:
        self.what = what
        self.reported = False

    def __call__(self, exc: OSError) -> str | None:
        """The one line to show the first time, None afterwards."""
        if self.reported:
            return None
        self.reported = True
        reason = exc.strerror or type(exc).__name__
        return f"swebash: cannot write {self.what} ({reason}); new entries are not saved"
