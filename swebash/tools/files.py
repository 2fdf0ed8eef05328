"""Safe file mechanics shared by the file tools.

Reading is where naive code hangs or explodes: ``open()`` on a FIFO blocks forever, a device
never ends, a 2 GB sparse file fills memory. So: open with O_NONBLOCK (a FIFO opens at once),
``fstat`` the descriptor we actually hold (no check-then-open race), accept regular files only,
check the size before reading and read at most the cap, then refuse binary and non-UTF-8 text.
Writing is atomic: a temp file in the same directory, fsync, rename, keeping the old mode.
"""

from __future__ import annotations

import os
import stat
import tempfile
from pathlib import Path

from swebash.errors import ExecutionFailed, InvalidArguments, PermissionDenied

BINARY_SNIFF = 8192


def looks_binary(head: bytes) -> bool:
    """NUL, or more than 30 % control bytes in the first 8 KB."""
    sample = head[:BINARY_SNIFF]
    if not sample:
        return False
    if b"\x00" in sample:
        return True
    control = sum(1 for b in sample if b < 32 and b not in (9, 10, 12, 13, 27))
    return control / len(sample) > 0.30


def resolve(path: str, cwd: str) -> Path:
    if not isinstance(path, str) or not path.strip():
        raise InvalidArguments("path must be a non-empty string")
    if "\x00" in path:
        raise InvalidArguments("path contains a NUL byte")
    expanded = Path(os.path.expanduser(path))
    return expanded if expanded.is_absolute() else Path(cwd) / expanded


def kind_of(mode: int) -> str:
    for test, name in ((stat.S_ISDIR, "directory"), (stat.S_ISFIFO, "FIFO"),
                       (stat.S_ISSOCK, "socket"), (stat.S_ISCHR, "character device"),
                       (stat.S_ISBLK, "block device"), (stat.S_ISLNK, "symlink")):
        if test(mode):
            return name
    return "file"


def read_bytes(path: Path, max_size: int) -> bytes:
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC)
    except FileNotFoundError:
        raise ExecutionFailed(f"{path}: no such file") from None
    except IsADirectoryError:
        raise ExecutionFailed(f"{path}: is a directory (use operation 'list')") from None
    except PermissionError:
        raise PermissionDenied(f"{path}: permission denied by the operating system") from None
    except OSError as exc:
        raise ExecutionFailed(f"{path}: {exc.strerror}") from None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise PermissionDenied(f"{path}: refusing to read a {kind_of(info.st_mode)}")
        if info.st_size > max_size:
            raise ExecutionFailed(f"{path}: file is {info.st_size} bytes, over the {max_size}-byte "
                                  "limit (SWEBASH_AI_FS_MAX_SIZE)")
        chunks: list[bytes] = []
        remaining = max_size + 1
        while remaining > 0:
            chunk = os.read(fd, min(remaining, 1 << 16))
            if not chunk:
                break
            chunks.append(chunk)
            remaining -= len(chunk)
        data = b"".join(chunks)
        if len(data) > max_size:
            raise ExecutionFailed(f"{path}: file grew past the {max_size}-byte limit while read")
        return data
    finally:
        os.close(fd)


def read_text(path: Path, max_size: int) -> str:
    data = read_bytes(path, max_size)
    if looks_binary(data):
        raise ExecutionFailed(f"{path}: binary file, not shown (only UTF-8 text can be read)")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        raise ExecutionFailed(f"{path}: not UTF-8 text, not shown") from None


def write_atomic(path: Path, content: str) -> int:
    data = content.encode("utf-8")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        try:
            mode = stat.S_IMODE(os.stat(path).st_mode)
            if not stat.S_ISREG(os.stat(path).st_mode):
                raise PermissionDenied(f"{path}: refusing to write over a "
                                       f"{kind_of(os.stat(path).st_mode)}")
        except FileNotFoundError:
            mode = 0o644
        fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".swebash")
        try:
            with os.fdopen(fd, "wb") as handle:
                handle.write(data)
                handle.flush()
                os.fsync(handle.fileno())
            os.chmod(tmp, mode)
            os.replace(tmp, path)
        except BaseException:
            try:
                os.unlink(tmp)
            except OSError:
                pass
            raise
    except PermissionError:
        raise PermissionDenied(f"{path}: permission denied by the operating system") from None
    except OSError as exc:
        raise ExecutionFailed(f"{path}: {exc.strerror or exc}") from None
    return len(data)
