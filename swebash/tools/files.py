"""Safe file mechanics shared by the file tools.

Reading is where naive code hangs or explodes: ``open()`` on a FIFO blocks forever, a device
never ends, a 2 GB sparse file fills memory. So: open with O_NONBLOCK (a FIFO opens at once),
``fstat`` the descriptor we actually hold (no check-then-open race), accept regular files only,
let the file boundary judge the file really held (``guarded_read``: where it is, what it links
to, its whole content), check the size before reading and read at most the cap, then refuse
binary and non-UTF-8 text.

Writing is atomic and lands exactly where the boundary judged it: the directories down to the
target are opened one at a time from ``/`` with O_NOFOLLOW (a symlink swapped in after the
approval fails the walk instead of being followed), then a temp file in that directory, fsync,
rename, keeping the old mode.
"""

from __future__ import annotations

import errno
import os
import secrets
import stat
from collections.abc import Callable
from pathlib import Path

from swebash.errors import ExecutionFailed, InvalidArguments, PermissionDenied
from swebash.safety.boundary import FileBoundary, SecretFile
from swebash.tools.base import ToolContext

BINARY_SNIFF = 8192
CONTROL_BYTES = bytes(b for b in range(32) if b not in (9, 10, 12, 13, 27))
Guard = Callable[[int, os.stat_result], None]  # judges an open descriptor; raises to refuse


class FileTooLarge(ExecutionFailed):
    """Over the size cap: a read refuses it, a search walks past it."""


def files_of(ctx: ToolContext) -> FileBoundary:
    """The session's file boundary, or one for this environment when none was handed in."""
    return ctx.files if ctx.files is not None else FileBoundary.for_environment(ctx.env)


def looks_binary(head: bytes) -> bool:
    """NUL, or more than 30 % control bytes in the first 8 KB."""
    sample = head[:BINARY_SNIFF]
    if not sample:
        return False
    if b"\x00" in sample:
        return True
    control = len(sample) - len(sample.translate(None, CONTROL_BYTES))
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


def read_bytes(path: Path, max_size: int, guard: Guard | None = None) -> bytes:
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
        if guard is not None:
            guard(fd, info)
        if info.st_size > max_size:
            raise FileTooLarge(f"{path}: file is {info.st_size} bytes, over the {max_size}-byte "
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
            raise FileTooLarge(f"{path}: file grew past the {max_size}-byte limit while read")
        return data
    finally:
        os.close(fd)


def guarded_read(boundary: FileBoundary, path: str, shown: str, max_size: int) -> bytes:
    """``read_bytes`` with the boundary judging the file held open and its whole content;
    ``SecretFile`` when either is secret."""
    def guard(fd: int, info: os.stat_result) -> None:
        reason = boundary.opened_secret(fd, info)
        if reason:
            raise SecretFile(f"{shown}: {reason}")

    data = read_bytes(Path(path), max_size, guard)
    reason = boundary.content_secret(data)
    if reason:
        raise SecretFile(f"{shown}: {reason}")
    return data


def decode_text(path: object, data: bytes) -> str:
    if looks_binary(data):
        raise ExecutionFailed(f"{path}: binary file, not shown (only UTF-8 text can be read)")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        raise ExecutionFailed(f"{path}: not UTF-8 text, not shown") from None


def read_text(path: Path, max_size: int) -> str:
    return decode_text(path, read_bytes(path, max_size))


def open_directory(real_dir: str) -> int:
    """A descriptor on ``real_dir`` reached from ``/`` without following any symlink, creating
    missing directories on the way."""
    flags = os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC
    fd = os.open("/", flags)
    try:
        for part in (p for p in real_dir.split("/") if p):
            try:
                below = os.open(part, flags, dir_fd=fd)
            except FileNotFoundError:
                os.mkdir(part, 0o777, dir_fd=fd)
                below = os.open(part, flags, dir_fd=fd)
            os.close(fd)
            fd = below
        return fd
    except BaseException:
        os.close(fd)
        raise


def write_atomic(path: Path, content: str) -> int:
    """Write ``content`` to ``path``, a resolved path (``FileBoundary.write_target``)."""
    data = content.encode("utf-8")
    name = path.name
    try:
        folder = open_directory(str(path.parent))
    except OSError as exc:
        raise write_error(path, exc) from None
    try:
        try:
            info = os.stat(name, dir_fd=folder, follow_symlinks=False)
            if not stat.S_ISREG(info.st_mode):
                raise PermissionDenied(f"{path}: refusing to write over a "
                                       f"{kind_of(info.st_mode)}")
            mode = stat.S_IMODE(info.st_mode)
        except FileNotFoundError:
            mode = 0o644
        tmp = f".{name}.{secrets.token_hex(4)}.swebash"
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC,
                     0o600, dir_fd=folder)
        try:
            with os.fdopen(fd, "wb") as handle:
                handle.write(data)
                handle.flush()
                os.fsync(handle.fileno())
                os.fchmod(handle.fileno(), mode)
            os.replace(tmp, name, src_dir_fd=folder, dst_dir_fd=folder)
        except BaseException:
            try:
                os.unlink(tmp, dir_fd=folder)
            except OSError:
                pass
            raise
    except OSError as exc:
        raise write_error(path, exc) from None
    finally:
        os.close(folder)
    return len(data)


def write_error(path: Path, exc: OSError) -> PermissionDenied | ExecutionFailed:
    if exc.errno == errno.ELOOP:
        return PermissionDenied(f"{path}: a symlink appeared on the way after the write was "
                                "approved; nothing written")
    if isinstance(exc, PermissionError):
        return PermissionDenied(f"{path}: permission denied by the operating system")
    return ExecutionFailed(f"{path}: {exc.strerror or exc}")
