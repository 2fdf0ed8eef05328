"""Files that several swebash processes share: appends whole or not at all, rewrites atomic.

Problem: history and the audit log are appended to by several swebash processes at once, and a
full disk turns a plain ``write`` into a short write — half a history entry that ↑ later
recalls, or an audit line that is not JSON. O_APPEND alone prevents interleaving, not tearing.
Some files are also rewritten (``history -d``, ``ai rules rm``, a session over its size cap),
and a dotfile manager (stow, chezmoi) may have made them symlinks into a repository.

What does not work: writing a temp file and renaming it over the *path* replaces a symlink
with a regular file (the repository copy is silently left behind); renaming over a file that
another process has open and locked makes that process append to the unlinked old file.

Approach: every writer takes an exclusive ``flock`` on the real file (symlinks resolved) and,
once it holds the lock, checks that the file it locked is still the one at that path — if a
rewrite renamed a new file into place meanwhile, it opens and locks again. An append notes the
size, writes the record in a loop (``os.write`` may be short) and on any failure truncates back
before unlocking, so the file never holds a partial record. A rewrite holds the lock on the old
file while it writes the new one beside the *target* of any symlink, fsyncs it and renames it
into place: readers see the old file or the new one, never a mix, appenders waiting on the lock
go on with the new file, and the symlink stays a symlink. The caller decides how to report a
failure (once).
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path


def real_path(path: Path) -> Path:
    """The file a write to ``path`` must change: symlinks followed (also a dangling one, which
    then names the file to create)."""
    return Path(os.path.realpath(path))


@contextlib.contextmanager
def _locked(path: Path, flags: int, mode: int) -> Iterator[int]:
    """An fd of the real file behind ``path``, exclusively locked, that is still the file at
    that path (not one a concurrent rewrite has just replaced)."""
    target = real_path(path)
    while True:
        fd = os.open(target, flags | os.O_CREAT | os.O_CLOEXEC, mode)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX)
            held = os.fstat(fd)
            try:
                now = os.stat(target)
            except FileNotFoundError:
                now = None
            if now is not None and (now.st_ino, now.st_dev) == (held.st_ino, held.st_dev):
                yield fd
                return
        finally:
            os.close(fd)  # closing releases the lock


def append_whole(path: Path, data: bytes, mode: int = 0o600, *, sync: bool = False) -> None:
    """Append ``data`` to ``path`` atomically with respect to other writers; raise OSError.

    ``sync``: fsync before returning, for records that must survive a crash of the machine."""
    with _locked(path, os.O_WRONLY | os.O_APPEND, mode) as fd:
        size = os.fstat(fd).st_size
        try:
            _write_all(fd, data)
            if sync:
                os.fsync(fd)
        except OSError:
            with contextlib.suppress(OSError):
                os.ftruncate(fd, size)  # nothing more to do; the record is reported as lost
            raise


def rewrite_locked(path: Path, change: Callable[[bytes], bytes | None],
                   mode: int = 0o600) -> bytes | None:
    """Replace the contents of ``path`` with ``change(current contents)`` while holding the
    appenders' lock, so records other processes appended up to now are seen and none appended
    later is lost. ``change`` returning None leaves the file alone. The new contents, or None."""
    with _locked(path, os.O_RDWR, mode) as fd:
        chunks = []
        while True:
            chunk = os.read(fd, 1 << 20)
            if not chunk:
                break
            chunks.append(chunk)
        new = change(b"".join(chunks))
        if new is not None:
            _replace(real_path(path), new, os.fstat(fd).st_mode & 0o7777)
        return new


def rewrite_atomic(path: Path, data: bytes, mode: int = 0o600) -> None:
    """Replace the contents of ``path`` whole (no writer sees half of it), following symlinks;
    the file keeps its permission bits (``mode`` for a new file). Raises OSError."""
    target = real_path(path)
    target.parent.mkdir(parents=True, exist_ok=True)
    with contextlib.suppress(FileNotFoundError):
        mode = os.stat(target).st_mode & 0o7777
    with _locked(path, os.O_RDONLY, mode):
        _replace(target, data, mode)


def _replace(target: Path, data: bytes, mode: int) -> None:
    fd, tmp = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name}.", suffix=".tmp")
    try:
        os.fchmod(fd, mode)
        _write_all(fd, data)
        os.fsync(fd)
        os.close(fd)
        fd = -1
        os.replace(tmp, target)
    except BaseException:
        if fd >= 0:
            os.close(fd)
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise


def _write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        written = os.write(fd, view)
        if written <= 0:
            raise OSError(28, "No space left on device")
        view = view[written:]


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
