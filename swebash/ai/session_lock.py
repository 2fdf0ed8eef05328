"""Which conversations are live: a shared lock held by every process that writes one.

Problem: ``[sessions] keep`` deletes the oldest conversation files whenever a new one starts,
and a shell open for a week owns an old file it still appends to — so a few ``swebash -c``
runs beside it deleted the conversation it was in the middle of (its later exchanges then went
into a new file without a head). Pruning must skip every file some running swebash holds,
without a race against several shells and ``-c`` runs pruning and starting at once.

What does not work: a lock on the session file itself — its appends already take an exclusive
``flock`` on a fresh descriptor (``durable.append_whole``), and flock locks of two descriptors
of one process conflict, so a shell would block on its own lock; POSIX ``lockf`` locks are
dropped by the first ``close`` of any descriptor of the file, i.e. by the first append. A pid
file is wrong after a ``kill -9`` and after pid reuse.

Approach: one lock file per conversation, ``<sessions>/.live/<name>.lock``. A writer holds a
shared ``flock`` on it for as long as the conversation is its current one; the kernel drops it
when the process ends, however it ends. A pruner takes the exclusive lock without waiting:
refused means live, skip; granted means nobody holds it, and the conversation file and its lock
file are deleted while the lock is held. Only a holder of the exclusive lock unlinks a lock
file, so every process that locks one checks afterwards that the path still names the file it
locked (else it locked a deleted file and starts over), and a writer that resumes a file checks
after locking that the file is still there.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
from pathlib import Path

LIVE_DIR = ".live"
TRIES = 5  # a lock file deleted under us this many times in a row: give up (never seen)


class Gone(Exception):
    """The conversation was deleted before it could be held."""


def lock_path(session: Path) -> Path:
    return session.parent / LIVE_DIR / f"{session.stem}.lock"


def _same_file(fd: int, path: Path) -> bool:
    try:
        now = os.stat(path)
    except FileNotFoundError:
        return False
    mine = os.fstat(fd)
    return (now.st_dev, now.st_ino) == (mine.st_dev, mine.st_ino)


def _open(path: Path) -> int:
    path.parent.mkdir(mode=0o700, exist_ok=True)
    return os.open(path, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o600)


class LiveMark:
    """A shared lock on one conversation's lock file, held until ``release``."""

    def __init__(self, session: Path, must_exist: bool) -> None:
        """Hold ``session``; raises ``Gone`` when ``must_exist`` and it was deleted first (or
        in the meantime), ``OSError`` when the lock file cannot be made."""
        self.session = session
        self.path = lock_path(session)
        self.fd: int | None = None
        for _ in range(TRIES):
            fd = _open(self.path)
            try:
                fcntl.flock(fd, fcntl.LOCK_SH)  # waits only while a pruner deletes (a moment)
                if _same_file(fd, self.path):
                    if must_exist and not session.exists():
                        raise Gone(str(session))
                    self.fd = fd
                    return
            except BaseException:
                os.close(fd)
                raise
            os.close(fd)  # a pruner deleted the lock file we opened: open the new one
        raise OSError(f"cannot hold {self.path}")

    def release(self) -> None:
        """Stop holding; the lock file goes too when nobody else holds it (idempotent)."""
        fd, self.fd = self.fd, None
        if fd is None:
            return
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            if _same_file(fd, self.path):
                self.path.unlink()
        except OSError:
            pass  # another shell holds it too (a conversation resumed twice): it stays
        finally:
            os.close(fd)

    def __del__(self) -> None:  # a conversation dropped without release writes no more
        with contextlib.suppress(Exception):
            self.release()


def remove_unless_live(session: Path) -> bool:
    """Delete ``session`` and its lock file unless a running swebash holds it; True if
    deleted. Never waits."""
    path = lock_path(session)
    try:
        fd = _open(path)
    except OSError:
        return False  # cannot tell whether it is live: keep it
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        if not _same_file(fd, path):
            return False  # another pruner got there first
        with contextlib.suppress(FileNotFoundError):
            session.unlink()
        path.unlink()
        return True
    except OSError:
        return False  # held: live
    finally:
        os.close(fd)


def sweep_orphans(directory: Path) -> None:
    """Lock files whose conversation is gone (deleted by hand) and nobody holds."""
    live = directory / LIVE_DIR
    try:
        names = [p for p in live.glob("*.lock")
                 if not (directory / f"{p.stem}.jsonl").exists()]
    except OSError:
        return
    for lock in names:
        remove_unless_live(directory / f"{lock.stem}.jsonl")
