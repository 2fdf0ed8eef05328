"""The audit of writes a sandboxed command attempted, from seccomp user notifications.

Design note. "Did the sandbox stop this command?" must not be read from the command's output:
any command can print ``Read-only file system`` and exit 1. The seccomp filter
(``sandbox_seccomp``, ``audit=True``) stops each syscall that may change a file and notifies
the command's supervisor, which reads the path(s) from the process (``/proc/PID/mem``, relative
to ``/proc/PID/cwd`` or the dirfd's ``/proc/PID/fd/N``), judges them with the policy's write map
and lets the syscall continue unchanged (``connect`` likewise, against the network rule; a
network ``socket`` the filter refuses is refused here, with EACCES). What the policy does not
allow is recorded: the kernel (Landlock, the read-only mount, the network namespace) refuses
it a moment later. The record is the sandbox's own knowledge; it never grants anything, so a
path swapped by another thread after the look can only make the report wrong, not the sandbox
weaker.

The supervisor answers every notification, whatever goes wrong while looking (a process that
exited, an unreadable address): a notification left unanswered would hang the command.
"""

from __future__ import annotations

import contextlib
import errno
import fcntl
import os
import socket
import struct
from collections.abc import Sequence
from dataclasses import dataclass

from swebash.safety import sandbox_seccomp

NOTIF = struct.Struct("=QIIiIQ6Q")  # struct seccomp_notif: id, pid, flags, seccomp_data
RESP = struct.Struct("=QqiI")  # struct seccomp_notif_resp: id, val, error, flags
IOCTL_RECV = 0xC0000000 | (NOTIF.size << 16) | (0x21 << 8) | 0
IOCTL_SEND = 0xC0000000 | (RESP.size << 16) | (0x21 << 8) | 1
FLAG_CONTINUE = 1
PATH_MAX = 4096
MAX_RECORDS = 20
# Writes there are devices, the process's own descriptors or kernel knobs: never "outside".
NOT_FILES = ("/dev/", "/proc/", "/sys/")


def within(path: str, root: str) -> bool:
    return path == root or path.startswith(root.rstrip("/") + "/")


@dataclass(frozen=True)
class WriteMap:
    """Where the policy lets a command write: ``writable`` trees and ``readonly`` places."""

    writable: tuple[str, ...]
    readonly: tuple[str, ...] = ()

    def allows(self, path: str) -> bool:
        """The most specific place that holds ``path`` decides (a read-only $HOME inside a
        writable tree, a writable folder inside that $HOME)."""
        if path.startswith(NOT_FILES) or path in ("/dev", "/proc"):
            return True
        best, allowed = -1, False
        for places, writable in ((self.writable, True), (self.readonly, False)):
            for place in places:
                if within(path, place) and len(place) > best:
                    best, allowed = len(place), writable
        return allowed


@dataclass(frozen=True)
class Notification:
    id: int
    pid: int
    nr: int
    args: tuple[int, ...]


def receive(fd: int) -> Notification | None:
    """The next pending notification, or None when there is none (or its process is gone)."""
    buffer = bytearray(NOTIF.size)
    try:
        fcntl.ioctl(fd, IOCTL_RECV, buffer)
    except OSError:
        return None
    nid, pid, _flags, nr, _arch, _ip, *args = NOTIF.unpack(buffer)
    return Notification(nid, pid, nr, tuple(args))


def let_continue(fd: int, nid: int) -> None:
    with contextlib.suppress(OSError):  # the process may have died meanwhile: nothing to answer
        fcntl.ioctl(fd, IOCTL_SEND, bytearray(RESP.pack(nid, 0, 0, FLAG_CONTINUE)))


def read_string(pid: int, address: int) -> str | None:
    try:
        with open(f"/proc/{pid}/mem", "rb", buffering=0) as mem:
            mem.seek(address)
            raw = mem.read(PATH_MAX)
    except (OSError, ValueError, OverflowError):
        return None
    end = raw.find(b"\0")
    return os.fsdecode(raw[:end] if end >= 0 else raw)


def base_dir(pid: int, dirfd: int | None) -> str | None:
    """The directory a relative path starts from: the cwd, or what the dirfd names."""
    fd = None if dirfd is None else struct.unpack("=i", struct.pack("=I", dirfd & 0xFFFFFFFF))[0]
    link = (f"/proc/{pid}/cwd" if fd is None or fd == sandbox_seccomp.AT_FDCWD
            else f"/proc/{pid}/fd/{fd}")
    try:
        return os.readlink(link)
    except OSError:
        return None


def resolve(base: str, path: str) -> str:
    """``path`` as the kernel would reach it, seen from here: the parent's symlinks resolved,
    the last name kept (a write to a symlink's name is judged where the name is)."""
    full = os.path.normpath(os.path.join(base, path))
    parent, name = os.path.split(full)
    return os.path.join(os.path.realpath(parent), name)


def targets(note: Notification, names: dict[int, str]) -> list[str]:
    """The paths a notified syscall would change."""
    name = names.get(note.nr)
    if name is None:
        return []
    found = []
    for dirfd_arg, path_arg in sandbox_seccomp.PATH_ARGS.get(name, ()):
        path = read_string(note.pid, note.args[path_arg])
        if not path:
            continue
        if os.path.isabs(path):
            found.append(resolve("/", path))
            continue
        base = base_dir(note.pid, None if dirfd_arg is None else note.args[dirfd_arg])
        if base is not None and base.startswith("/"):
            found.append(resolve(base, path))
    return found


def respond_error(fd: int, nid: int, code: int) -> None:
    with contextlib.suppress(OSError):
        fcntl.ioctl(fd, IOCTL_SEND, bytearray(RESP.pack(nid, 0, -code, 0)))


def read_bytes(pid: int, address: int, size: int) -> bytes:
    try:
        with open(f"/proc/{pid}/mem", "rb", buffering=0) as mem:
            mem.seek(address)
            return mem.read(size)
    except (OSError, ValueError, OverflowError):
        return b""


def destination(note: Notification) -> tuple[str, int] | None:
    """(address, port) of an INET/INET6 ``connect``; None for other families."""
    raw = read_bytes(note.pid, note.args[1], min(int(note.args[2]), 128))
    if len(raw) >= 8 and struct.unpack_from("=H", raw)[0] == socket.AF_INET:
        port = struct.unpack_from("!H", raw, 2)[0]
        return socket.inet_ntop(socket.AF_INET, raw[4:8]), port
    if len(raw) >= 24 and struct.unpack_from("=H", raw)[0] == socket.AF_INET6:
        port = struct.unpack_from("!H", raw, 2)[0]
        return socket.inet_ntop(socket.AF_INET6, raw[8:24]), port
    return None


def socket_kind(note: Notification) -> str:
    family, kind = note.args[0] & 0xFFFFFFFF, note.args[1] & 0xF
    if family == socket.AF_UNIX:
        return "unix"
    if family in (socket.AF_INET, socket.AF_INET6):
        return "tcp" if kind == socket.SOCK_STREAM else "udp" if kind == socket.SOCK_DGRAM \
            else "raw"
    return "packet" if family == 17 else f"family {family}"


def loopback(address: str) -> bool:
    return address.startswith("127.") or address in ("::1", "::ffff:127.0.0.1")


@dataclass(frozen=True)
class NetRule:
    """Which connections the policy lets through, to judge the ``connect`` notifications:
    the proxy, and nothing else (bubblewrap's own loopback holds nothing else of the host)."""

    proxy_port: int = 0

    def allows(self, address: str, port: int) -> bool:
        return bool(self.proxy_port) and port == self.proxy_port and loopback(address)


class Auditor:
    """Answers one command's notifications and records what its policy refuses: entries
    ``write:PATH``, ``socket:KIND``, ``connect:ADDRESS:PORT``."""

    def __init__(self, fd: int, write_map: WriteMap, ignore_exe: Sequence[str] = (),
                 net: NetRule | None = None) -> None:
        self.fd = fd
        self.map = write_map
        self.net = net or NetRule()
        self.ignore_exe = tuple(ignore_exe)  # bwrap setting up its mounts is not the command
        self.names = sandbox_seccomp.nr_names()
        self.denied: list[str] = []

    def handle(self) -> bool:
        """Answer one pending notification; False when there was none to take."""
        note = receive(self.fd)
        if note is None:
            return False
        name = self.names.get(note.nr)
        if name == "socket":  # the filter refused it: so do we, and say so
            self._record(f"socket:{socket_kind(note)}")
            respond_error(self.fd, note.id, errno.EACCES)
            return True
        try:
            if name == "connect":
                found = destination(note)
                if found is not None and not self.net.allows(*found):
                    self._record(f"connect:{found[0]}:{found[1]}")
            elif not self._ignored(note):
                for path in targets(note, self.names):
                    if not self.map.allows(path):
                        self._record(f"write:{path}")
        except Exception:  # looking must never leave the command hanging
            pass
        finally:
            let_continue(self.fd, note.id)
        return True

    def _ignored(self, note: Notification) -> bool:
        if not self.ignore_exe:
            return False
        try:
            return os.readlink(f"/proc/{note.pid}/exe") in self.ignore_exe
        except OSError:
            return True

    def _record(self, entry: str) -> None:
        if entry not in self.denied and len(self.denied) < MAX_RECORDS:
            self.denied.append(entry)
