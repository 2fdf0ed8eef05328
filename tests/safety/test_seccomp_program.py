"""The seccomp program, run by a small classic-BPF interpreter on made-up syscalls: which
calls the audit is told about (a user notification), which pass, which are refused. (The
kernel runs the same bytes; the sandbox tests check it does what this says.)"""

from __future__ import annotations

import errno
import struct

import pytest

from swebash.safety import sandbox_seccomp as sc

X86 = sc.ARCHES["x86_64"]
NOTIFY, ALLOW = sc.RET_USER_NOTIF, sc.RET_ALLOW
RDWR_CLOEXEC, WRONLY_CREAT = 0o2000002, 0o101
DIRFD = 5


def run(program: bytes, name: str, *args: int) -> int:
    """The program's return value for syscall ``name`` with ``args`` (x86-64)."""
    padded = [*args, *[0] * (6 - len(args))]
    data = struct.pack("=iIQ6Q", X86.nr[name], X86.audit_arch, 0,
                       *(a & 0xFFFFFFFFFFFFFFFF for a in padded))
    ops = [struct.unpack_from("=HBBI", program, i) for i in range(0, len(program), 8)]
    acc, pc = 0, 0
    while True:
        code, jt, jf, k = ops[pc]
        if code == sc.LD_W_ABS:
            acc = struct.unpack_from("=I", data, k)[0]
        elif code == sc.ALU_AND_K:
            acc &= k
        elif code == sc.RET_K:
            return int(k)
        elif code in (sc.JEQ_K, sc.JGE_K, sc.JSET_K):
            hit = acc == k if code == sc.JEQ_K else acc >= k if code == sc.JGE_K else acc & k
            pc += jt if hit else jf
        else:
            raise AssertionError(f"unknown BPF op {code:#x}")
        pc += 1


def build(sockets: sc.Sockets, audit: bool, *, machine: sc.Arch,
          bwrap: bool = False) -> bytes:
    return sc.program.__wrapped__(sockets, audit, machine=machine, bwrap=bwrap)


CALLS = [  # (call, args, under bubblewrap's program, under the plain one)
    ("symlink", (0, 0), ALLOW, NOTIFY),
    ("mkdir", (0, 0o755), ALLOW, NOTIFY),
    ("mkdir", (0, 0o777), NOTIFY, NOTIFY),
    ("mkdirat", (DIRFD, 0, 0o755), ALLOW, NOTIFY),
    ("creat", (0, 0o444), ALLOW, NOTIFY),
    ("creat", (0, 0o644), NOTIFY, NOTIFY),
    ("openat", (DIRFD, 0, RDWR_CLOEXEC), ALLOW, NOTIFY),  # bwrap's uid_map
    ("openat", (sc.AT_FDCWD, 0, RDWR_CLOEXEC), NOTIFY, NOTIFY),  # a command's `open(f, 'r+')`
    ("openat", (DIRFD, 0, WRONLY_CREAT), NOTIFY, NOTIFY),
    ("openat", (sc.AT_FDCWD, 0, 0), ALLOW, ALLOW),  # a read
    ("unlink", (0,), NOTIFY, NOTIFY),
    ("rename", (0, 0), NOTIFY, NOTIFY),
]


@pytest.mark.parametrize("name, args, under_bwrap, plain", CALLS)
def test_bubblewraps_set_up_is_not_notified_and_the_commands_writes_are(
        name: str, args: tuple[int, ...], under_bwrap: int, plain: int) -> None:
    assert run(build("on", True, machine=X86, bwrap=True), name, *args) == under_bwrap
    assert run(build("on", True, machine=X86), name, *args) == plain


@pytest.mark.parametrize("bwrap", [False, True])
def test_what_is_refused_stays_refused(bwrap: bool) -> None:
    program = build("off", True, machine=X86, bwrap=bwrap)
    assert run(program, "ioctl", 0, sc.TIOCSTI) == sc.RET_ERRNO | errno.EPERM
    assert run(program, "keyctl") == sc.RET_ERRNO | errno.EACCES
    assert run(program, "socket", sc.AF_UNIX, sc.SOCK_STREAM) == sc.RET_ERRNO | errno.EACCES
    assert run(program, "socket", sc.AF_INET, sc.SOCK_STREAM) == NOTIFY  # refused, recorded
    assert run(build("off", False, machine=X86), "mkdir", 0, 0o777) == ALLOW
