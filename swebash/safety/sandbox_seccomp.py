"""The seccomp filter of every sandboxed command, under both backends.

Design note. Landlock and bubblewrap confine files and (partly) the network; some side doors are
syscalls that neither covers, and seccomp can judge them by their register arguments:

* ``ioctl(fd, TIOCSTI | TIOCLINUX)`` — typing into a terminal (the user's prompt) — EPERM;
* ``add_key``, ``request_key``, ``keyctl`` — the kernel keyring — EACCES;
* ``io_uring_*`` — io_uring performs opens and connects without passing through seccomp — EACCES;
* ``socket()``: ``AF_UNIX`` is always refused (named sockets are tmux, screen, D-Bus, systemd, X11
  and editors' servers: each runs commands outside the sandbox; ``socketpair`` stays allowed).
  INET/INET6 depend on the network mode: "off" refuses them, "proxy" admits only TCP
  (``SOCK_STREAM`` with protocol 0 or 6 — Landlock's port rules know TCP only, so UDP, SCTP
  and MPTCP are refused), "on" admits them. ``AF_NETLINK`` is admitted (interface and route
  lists: bubblewrap brings its loopback up with it); every other family is refused;
* a foreign ABI (32-bit code, x32 on x86-64, whose numbers this filter does not judge) gets
  ENOSYS for every syscall.

The **audit** (``audit=True``) asks the supervisor about every syscall that may change a file
outside the process — an ``open`` with a write, create or truncate flag, ``mkdir``, ``unlink``,
``rename``, ``link``, ``symlink``, ``mknod``, ``truncate`` — through a seccomp user notification.
The supervisor only *looks* (which path, allowed by the policy or not) and always lets the
kernel go on (``SECCOMP_USER_NOTIF_FLAG_CONTINUE``): enforcement stays with Landlock and the
mount namespace, so a path swapped after the look changes nothing but the report. Likewise
``connect`` (unless the network is "on"): the supervisor notes a destination the policy does
not reach. A network ``socket`` this filter refuses is refused by the supervisor instead
(EACCES), so it is recorded too; unix sockets are refused quietly. This is how "the sandbox
blocked a write / a connection" is known from the sandbox itself, not from what a command
prints.

Installed without TSYNC in the process that then execs the command (or bwrap); children inherit
it. Only x86-64 and aarch64 are known; elsewhere ``supported()`` is False and ``ai status`` says
what is missing.
"""

from __future__ import annotations

import ctypes
import errno
import functools
import platform
import struct
from dataclasses import dataclass
from typing import Literal

PR_SET_SECCOMP, SECCOMP_MODE_FILTER = 22, 2
SECCOMP_SET_MODE_FILTER, FILTER_FLAG_NEW_LISTENER = 1, 1 << 3
RET_ALLOW, RET_ERRNO, RET_USER_NOTIF = 0x7FFF0000, 0x00050000, 0x7FC00000
LD_W_ABS, JEQ_K, JGE_K, JSET_K, RET_K, ALU_AND_K = 0x20, 0x15, 0x35, 0x45, 0x06, 0x54
AF_UNIX, AF_INET, AF_INET6, AF_NETLINK, AF_PACKET = 1, 2, 10, 16, 17
SOCK_STREAM, SOCK_TYPE_MASK = 1, 0xF
TIOCSTI, TIOCLINUX = 0x5412, 0x541C
X32_BIT = 0x40000000
WRITE_FLAGS = 0o1 | 0o2 | 0o100 | 0o1000  # O_WRONLY | O_RDWR | O_CREAT | O_TRUNC (both arches)
AT_FDCWD = -100

Sockets = Literal["off", "proxy", "on"]


@dataclass(frozen=True)
class Arch:
    audit_arch: int
    nr: dict[str, int]
    x32: bool = False


# Syscall numbers that matter here (x86-64: arch/x86/entry/syscalls/syscall_64.tbl; aarch64:
# include/uapi/asm-generic/unistd.h). aarch64 has only the *at forms.
ARCHES = {
    "x86_64": Arch(0xC000003E, {
        "socket": 41, "connect": 42, "ioctl": 16, "add_key": 248, "request_key": 249, "keyctl": 250,
        "io_uring_setup": 425, "io_uring_enter": 426, "io_uring_register": 427,
        "open": 2, "creat": 85, "openat": 257, "openat2": 437, "mkdir": 83, "mkdirat": 258,
        "rmdir": 84, "unlink": 87, "unlinkat": 263, "rename": 82, "renameat": 264,
        "renameat2": 316, "link": 86, "linkat": 265, "symlink": 88, "symlinkat": 266,
        "mknod": 133, "mknodat": 259, "truncate": 76}, x32=True),
    "aarch64": Arch(0xC00000B7, {
        "socket": 198, "connect": 203, "ioctl": 29, "add_key": 217, "request_key": 218,
        "keyctl": 219,
        "io_uring_setup": 425, "io_uring_enter": 426, "io_uring_register": 427,
        "openat": 56, "openat2": 437, "mkdirat": 34, "unlinkat": 35, "renameat2": 276,
        "linkat": 37, "symlinkat": 36, "mknodat": 33, "truncate": 45}),
}
ARCHES["amd64"] = ARCHES["x86_64"]
ARCHES["arm64"] = ARCHES["aarch64"]

# Where the paths are: syscall -> ((dirfd arg or None, path arg), ...) — the audit reads these.
PATH_ARGS: dict[str, tuple[tuple[int | None, int], ...]] = {
    "open": ((None, 0),), "creat": ((None, 0),), "openat": ((0, 1),), "openat2": ((0, 1),),
    "mkdir": ((None, 0),), "mkdirat": ((0, 1),), "rmdir": ((None, 0),),
    "unlink": ((None, 0),), "unlinkat": ((0, 1),), "rename": ((None, 0), (None, 1)),
    "renameat": ((0, 1), (2, 3)), "renameat2": ((0, 1), (2, 3)), "link": ((None, 1),),
    "linkat": ((2, 3),), "symlink": ((None, 1),), "symlinkat": ((1, 2),),
    "mknod": ((None, 0),), "mknodat": ((0, 1),), "truncate": ((None, 0),),
}
OPEN_FLAGS_ARG = {"open": 1, "openat": 2}  # notified only when these flags may write
# where the mode is, for the calls bubblewrap makes with a fixed one (``BWRAP_*``)
BWRAP_MODE_ARG = {"mkdir": (1, 0o755), "mkdirat": (2, 0o755), "creat": (1, 0o444)}


def arch() -> Arch | None:
    return ARCHES.get(platform.machine().lower())


def supported() -> bool:
    return arch() is not None


def nr_names() -> dict[int, str]:
    found = arch()
    return {n: name for name, n in found.nr.items()} if found else {}


class _Asm:
    """A few lines of classic BPF with symbolic jump targets."""

    def __init__(self) -> None:
        self.ops: list[tuple[int, int | str, int | str, int]] = []
        self.labels: dict[str, int] = {}

    def label(self, name: str) -> None:
        self.labels[name] = len(self.ops)

    def op(self, code: int, k: int, jt: int | str = 0, jf: int | str = 0) -> None:
        self.ops.append((code, jt, jf, k))

    def rel(self, at: int, target: int | str) -> int:
        if isinstance(target, int):
            return target
        offset = self.labels[target] - at - 1
        assert 0 <= offset < 256, target
        return offset

    def code(self) -> bytes:
        return b"".join(struct.pack("=HBBI", code, self.rel(i, jt), self.rel(i, jf),
                                    k & 0xFFFFFFFF)
                        for i, (code, jt, jf, k) in enumerate(self.ops))


def arg_low(i: int) -> int:
    return 16 + 8 * i  # seccomp_data.args[i], low 32 bits (little-endian on both arches)


# bubblewrap's own set-up, in the filter it starts under: the user namespace's maps
# (``openat(dirfd, "uid_map", O_RDWR|O_CLOEXEC)``), the fresh /dev's directories (``mkdir
# 0755``), device nodes (``creat 0444``) and links (``symlink``). Not notified: each would stop
# bwrap for a round trip to the supervisor (about 3 ms per command in all), and the audit only
# *reports* — a write it misses is still refused by the mounts, the report merely says less.
BWRAP_OPEN_FLAGS = 0o2000000 | 0o2  # O_CLOEXEC | O_RDWR, exactly
BWRAP_DIR_MODE, BWRAP_NODE_MODE = 0o755, 0o444


@functools.cache
def program(sockets: Sockets, audit: bool, watch_connect: bool = False,
            machine: Arch | None = None, bwrap: bool = False) -> bytes:
    """The filter (a struct sock_filter[]) for this machine; ``watch_connect``: notify every
    ``connect`` too (needs ``audit``); ``bwrap``: do not notify bubblewrap's set-up calls."""
    a = machine or arch()
    if a is None:
        raise OSError(errno.ENOSYS, "seccomp filters are known for x86-64 and aarch64 only")
    nr = a.nr
    asm = _Asm()
    asm.op(LD_W_ABS, 4)  # seccomp_data.arch
    asm.op(JEQ_K, a.audit_arch, 0, "enosys")
    asm.op(LD_W_ABS, 0)  # seccomp_data.nr
    if a.x32:
        asm.op(JGE_K, X32_BIT, "enosys", 0)
    asm.op(JEQ_K, nr["socket"], "socket", 0)
    asm.op(JEQ_K, nr["ioctl"], "ioctl", 0)
    for name in ("add_key", "request_key", "keyctl", "io_uring_setup", "io_uring_enter",
                 "io_uring_register"):
        asm.op(JEQ_K, nr[name], "eacces", 0)
    if audit:
        if watch_connect:
            asm.op(JEQ_K, nr["connect"], "notify", 0)
        for name, flags_arg in OPEN_FLAGS_ARG.items():
            if name in nr:
                asm.op(JEQ_K, nr[name], f"flags{flags_arg}", 0)
        for name in PATH_ARGS:
            if name not in nr or name in OPEN_FLAGS_ARG:
                continue
            if bwrap and name in BWRAP_MODE_ARG:
                asm.op(JEQ_K, nr[name], f"mode_{name}", 0)
            elif not (bwrap and name in ("symlink", "symlinkat")):
                asm.op(JEQ_K, nr[name], "notify", 0)
    asm.op(RET_K, RET_ALLOW)
    if audit:
        for flags_arg in sorted(set(OPEN_FLAGS_ARG.values())):
            asm.label(f"flags{flags_arg}")
            asm.op(LD_W_ABS, arg_low(flags_arg))
            if bwrap and flags_arg == OPEN_FLAGS_ARG["openat"]:
                # openat(dirfd, name, O_RDWR|O_CLOEXEC) from a directory descriptor
                asm.op(JEQ_K, BWRAP_OPEN_FLAGS, 0, f"write{flags_arg}")
                asm.op(LD_W_ABS, arg_low(0))
                asm.op(JEQ_K, AT_FDCWD, "notify", "allow")
                asm.label(f"write{flags_arg}")
            asm.op(JSET_K, WRITE_FLAGS, "notify", "allow")
        if bwrap:
            for name, (mode_arg, mode) in BWRAP_MODE_ARG.items():
                if name in nr:
                    asm.label(f"mode_{name}")
                    asm.op(LD_W_ABS, arg_low(mode_arg))
                    asm.op(JEQ_K, mode, "allow", "notify")
        asm.label("notify")
        asm.op(RET_K, RET_USER_NOTIF)
    asm.label("ioctl")
    asm.op(LD_W_ABS, arg_low(1))  # the kernel reads cmd as an unsigned int: the low word
    asm.op(JEQ_K, TIOCSTI, "eperm", 0)
    asm.op(JEQ_K, TIOCLINUX, "eperm", "allow")
    asm.label("socket")
    asm.op(LD_W_ABS, arg_low(0))  # domain
    asm.op(JEQ_K, AF_NETLINK, "allow", 0)  # interface lists, routes: this host's, read-only
    # unix sockets: refused quietly (the C library tries nscd and the journal all the time;
    # a record of that would make every failing command look stopped by the sandbox)
    asm.op(JEQ_K, AF_UNIX, "eacces", 0)
    if sockets == "on":
        asm.op(JEQ_K, AF_INET, "allow", 0)
        asm.op(JEQ_K, AF_INET6, "allow", "refuse")
    elif sockets == "proxy":
        asm.op(JEQ_K, AF_INET, 1, 0)
        asm.op(JEQ_K, AF_INET6, 0, "refuse")
        asm.op(LD_W_ABS, arg_low(1))  # type, without SOCK_NONBLOCK / SOCK_CLOEXEC
        asm.op(ALU_AND_K, SOCK_TYPE_MASK)
        asm.op(JEQ_K, SOCK_STREAM, 0, "refuse")
        asm.op(LD_W_ABS, arg_low(2))  # protocol: default or IPPROTO_TCP
        asm.op(JEQ_K, 0, "allow", 0)
        asm.op(JEQ_K, 6, "allow", "refuse")
    asm.label("refuse")  # the audit answers EACCES itself, and records it
    asm.op(RET_K, RET_USER_NOTIF if audit else RET_ERRNO | errno.EACCES)
    asm.label("eacces")
    asm.op(RET_K, RET_ERRNO | errno.EACCES)
    asm.label("eperm")
    asm.op(RET_K, RET_ERRNO | errno.EPERM)
    asm.label("enosys")
    asm.op(RET_K, RET_ERRNO | errno.ENOSYS)
    asm.label("allow")
    asm.op(RET_K, RET_ALLOW)
    return asm.code()


class _Fprog(ctypes.Structure):
    _fields_ = [("len", ctypes.c_ushort), ("filter", ctypes.c_void_p)]


_libc = ctypes.CDLL(None, use_errno=True)
SYS_SECCOMP = {"x86_64": 317, "amd64": 317, "aarch64": 277, "arm64": 277}


def install(sockets: Sockets, audit: bool, watch_connect: bool = False,
            bwrap: bool = False) -> int | None:
    """Apply the filter to the calling thread (single-threaded callers: the sandbox's child).

    NO_NEW_PRIVS must already be set. Returns the notification listener's fd when ``audit``."""
    code = program(sockets, audit, watch_connect, bwrap=bwrap)
    buffer = ctypes.create_string_buffer(code, len(code))
    prog = _Fprog(len(code) // 8, ctypes.cast(buffer, ctypes.c_void_p))
    libc = _libc
    if audit:
        libc.syscall.restype = ctypes.c_long
        fd = libc.syscall(ctypes.c_long(SYS_SECCOMP[platform.machine().lower()]),
                          ctypes.c_uint(SECCOMP_SET_MODE_FILTER),
                          ctypes.c_uint(FILTER_FLAG_NEW_LISTENER), ctypes.byref(prog))
        if fd < 0:
            raise OSError(ctypes.get_errno(), "seccomp filter with a listener refused")
        return int(fd)
    if libc.prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, ctypes.byref(prog), 0, 0) != 0:
        raise OSError(ctypes.get_errno(), "seccomp filter refused")
    return None
