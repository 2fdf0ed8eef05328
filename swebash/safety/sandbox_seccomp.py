"""A seccomp filter that completes the Landlock backend when the network is off.

Design note. Landlock (ABI 4–7) restricts TCP bind/connect only, and none of its rights covers
connecting to a *named* unix socket — so a command could still send UDP/DNS packets, or reach the
docker socket (root on the host) or the ssh agent. seccomp can look at the arguments of
``socket(2)`` (they are registers, not pointers), so this filter makes creating INET, INET6,
UNIX and PACKET sockets fail with EACCES; ``socketpair`` (pipes between a program's own
processes) stays allowed. ``io_uring_setup`` is refused too, since io_uring can create and
connect sockets without the ``socket`` syscall. Syscalls of a foreign ABI (32-bit code on a
64-bit kernel, whose ``socketcall`` multiplexer cannot be judged) fail with ENOSYS.

Like Landlock, a filter installed without TSYNC applies to the calling thread and what it starts
— the throw-away thread of ``sandbox_landlock.spawn_restricted``. Only x86-64 and aarch64 are
known here; elsewhere ``supported()`` is False and ``ai status`` says the network is TCP-only.
"""

from __future__ import annotations

import ctypes
import errno
import platform
import struct

PR_SET_SECCOMP, SECCOMP_MODE_FILTER = 22, 2
RET_ALLOW = 0x7FFF0000
RET_ERRNO = 0x00050000
LD_W_ABS, JEQ_K, RET_K = 0x20, 0x15, 0x06
AF_UNIX, AF_INET, AF_INET6, AF_PACKET = 1, 2, 10, 17
IO_URING_SETUP = 425  # the same number on both

# machine -> (AUDIT_ARCH_*, __NR_socket)
ARCHES = {"x86_64": (0xC000003E, 41), "amd64": (0xC000003E, 41),
          "aarch64": (0xC00000B7, 198), "arm64": (0xC00000B7, 198)}


class _Fprog(ctypes.Structure):
    _fields_ = [("len", ctypes.c_ushort), ("filter", ctypes.c_void_p)]


def supported() -> bool:
    return platform.machine().lower() in ARCHES


def program() -> bytes:
    """The BPF program (struct sock_filter[]) for this machine."""
    arch, nr_socket = ARCHES[platform.machine().lower()]
    deny, foreign = RET_ERRNO | errno.EACCES, RET_ERRNO | errno.ENOSYS
    ops: list[tuple[int, int, int, int]] = [
        (LD_W_ABS, 0, 0, 4),  # seccomp_data.arch
        (JEQ_K, 1, 0, arch),
        (RET_K, 0, 0, foreign),
        (LD_W_ABS, 0, 0, 0),  # seccomp_data.nr
        (JEQ_K, 0, 1, IO_URING_SETUP),
        (RET_K, 0, 0, deny),
        (JEQ_K, 0, 5, nr_socket),  # not socket(): allow
        (LD_W_ABS, 0, 0, 16),  # args[0] (domain), low 32 bits on these little-endian ABIs
        (JEQ_K, 4, 0, AF_UNIX),
        (JEQ_K, 3, 0, AF_INET),
        (JEQ_K, 2, 0, AF_INET6),
        (JEQ_K, 1, 0, AF_PACKET),
        (RET_K, 0, 0, RET_ALLOW),
        (RET_K, 0, 0, deny),
    ]
    return b"".join(struct.pack("=HBBI", code, jt, jf, k) for code, jt, jf, k in ops)


def install_no_network() -> None:
    """Apply to the calling thread; NO_NEW_PRIVS must already be set (Landlock sets it)."""
    code = program()
    buffer = ctypes.create_string_buffer(code, len(code))
    prog = _Fprog(len(code) // 8, ctypes.cast(buffer, ctypes.c_void_p))
    libc = ctypes.CDLL(None, use_errno=True)
    if libc.prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, ctypes.byref(prog), 0, 0) != 0:
        raise OSError(ctypes.get_errno(), "seccomp filter refused")
