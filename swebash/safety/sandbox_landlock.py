"""The Landlock backend: the kernel's own LSM, no dependency, no privileges.

Design note. Landlock restricts the calling process and everything it starts afterwards. The
ruleset is built and applied in the sandbox's child (``sandbox_confine``), after ``fork`` and
before ``exec``, in a single-threaded process forked from the supervisor — never in swebash.

What Landlock can and cannot express. Rules only ever *grant* access, and a rule on a directory
grants it for the whole tree below. "Everything readable except the secret places" is built by
granting read on every sibling along the path to each secret place (for ``~/.ssh``: every entry
of ``/`` except ``/root``-or-``/home``, every entry of ``$HOME`` except ``.ssh``), and only
``READ_DIR`` on the ancestors themselves, so ``ls ~`` still works. Writes are granted the same
way on the policy's writable trees (``sandbox_policy.carve``). Consequences, stated in the
README: names inside a secret directory can still be listed (not read); since write rights on a
tree cover all of it, ``.git`` and secret-looking files *inside* the working tree are not
protected by this backend — bubblewrap does that. ``/dev`` holds only null, zero, full,
random and urandom (no terminal, no shared memory), and device ioctls are refused (ABI >= 5).
Network (ABI >= 4): "off" denies every TCP bind and connect, "proxy" allows connecting to the
proxy's port only (Landlock names ports, not addresses — see README), "on" allows all. ABI >= 6
also keeps abstract unix sockets and signals inside the sandbox.
"""

from __future__ import annotations

import ctypes
import os
import stat
from collections.abc import Callable, Sequence
from dataclasses import dataclass

SYS_CREATE_RULESET, SYS_ADD_RULE, SYS_RESTRICT_SELF = 444, 445, 446  # same on every arch
CREATE_RULESET_VERSION = 1
RULE_PATH_BENEATH, RULE_NET_PORT = 1, 2
PR_SET_NO_NEW_PRIVS = 38

EXECUTE, WRITE_FILE, READ_FILE, READ_DIR = 1 << 0, 1 << 1, 1 << 2, 1 << 3
REMOVE_DIR, REMOVE_FILE, MAKE_CHAR, MAKE_DIR = 1 << 4, 1 << 5, 1 << 6, 1 << 7
MAKE_REG, MAKE_SOCK, MAKE_FIFO, MAKE_BLOCK, MAKE_SYM = 1 << 8, 1 << 9, 1 << 10, 1 << 11, 1 << 12
REFER, TRUNCATE, IOCTL_DEV = 1 << 13, 1 << 14, 1 << 15  # ABI 2, ABI 3, ABI 5
NET_BIND_TCP, NET_CONNECT_TCP = 1, 2  # ABI 4
SCOPE_ABSTRACT_UNIX, SCOPE_SIGNAL = 1, 2  # ABI 6

READ = EXECUTE | READ_FILE | READ_DIR
FILE_RIGHTS = EXECUTE | WRITE_FILE | READ_FILE | TRUNCATE | IOCTL_DEV  # what a file rule may hold
DEVICES_RW = ("/dev/null", "/dev/zero", "/dev/full")
DEVICES_R = ("/dev/random", "/dev/urandom")


class _RulesetAttr(ctypes.Structure):
    _fields_ = [("handled_access_fs", ctypes.c_uint64), ("handled_access_net", ctypes.c_uint64),
                ("scoped", ctypes.c_uint64)]


class _PathBeneathAttr(ctypes.Structure):
    _pack_ = 1
    _fields_ = [("allowed_access", ctypes.c_uint64), ("parent_fd", ctypes.c_int32)]


class _NetPortAttr(ctypes.Structure):
    _pack_ = 1
    _fields_ = [("allowed_access", ctypes.c_uint64), ("port", ctypes.c_uint64)]


_libc = ctypes.CDLL(None, use_errno=True)
RULE_PATH, ZERO = ctypes.c_int(RULE_PATH_BENEATH), ctypes.c_uint32(0)
_syscall = _libc.syscall
_syscall.restype = ctypes.c_long
_prctl = _libc.prctl
_prctl.restype = ctypes.c_int


def abi_version() -> int:
    """The kernel's Landlock ABI, 0 when Landlock is missing or disabled."""
    try:
        version = _syscall(SYS_CREATE_RULESET, None, ctypes.c_size_t(0),
                           ctypes.c_uint32(CREATE_RULESET_VERSION))
    except (OSError, AttributeError):
        return 0
    return max(int(version), 0)


def handled_fs(abi: int) -> int:
    rights = (READ | WRITE_FILE | REMOVE_DIR | REMOVE_FILE | MAKE_CHAR | MAKE_DIR | MAKE_REG
              | MAKE_SOCK | MAKE_FIFO | MAKE_BLOCK | MAKE_SYM)
    if abi >= 2:
        rights |= REFER
    if abi >= 3:
        rights |= TRUNCATE
    if abi >= 5:
        rights |= IOCTL_DEV  # granted nowhere: no terminal ioctls on any device
    return rights


@dataclass(frozen=True)
class LandlockPolicy:
    writable: tuple[str, ...]  # trees the command may change (already carved, see sandbox)
    hidden: tuple[str, ...]  # existing paths (real paths) nobody may read
    network: str  # "off" | "proxy" | "on"
    proxy_port: int = 0  # the one TCP port a command may connect to in "proxy" mode


class RuleSet:
    """A Landlock ruleset being built; ``restrict()`` applies it to the calling process."""

    def __init__(self, abi: int, network: str) -> None:
        self.abi = abi
        self.fs = handled_fs(abi)
        net = NET_BIND_TCP | NET_CONNECT_TCP if abi >= 4 and network != "on" else 0
        attr = _RulesetAttr(self.fs, net, SCOPE_ABSTRACT_UNIX | SCOPE_SIGNAL if abi >= 6 else 0)
        size = ctypes.sizeof(_RulesetAttr) if abi >= 6 else 16 if abi >= 4 else 8
        fd = _syscall(SYS_CREATE_RULESET, ctypes.byref(attr), ctypes.c_size_t(size),
                      ctypes.c_uint32(0))
        if fd < 0:
            raise OSError(ctypes.get_errno(), "landlock_create_ruleset failed")
        self.fd = int(fd)
        self.net = net
        self.rules = 0
        # one rule structure and prepared arguments: a ruleset has a few hundred rules
        self._rule = _PathBeneathAttr(0, -1)
        self._rule_ref = ctypes.byref(self._rule)
        self._fd_arg = ctypes.c_int(self.fd)

    def grant(self, path: str, rights: int) -> None:
        try:
            target = os.open(path, os.O_PATH | os.O_CLOEXEC)
        except OSError:
            return  # vanished or unreachable: nothing to grant
        try:
            if not stat.S_ISDIR(os.fstat(target).st_mode):  # a file takes file rights only
                rights &= FILE_RIGHTS
            rule = self._rule
            rule.allowed_access, rule.parent_fd = rights & self.fs, target
            if rule.allowed_access and _syscall(SYS_ADD_RULE, self._fd_arg, RULE_PATH,
                                                self._rule_ref, ZERO) == 0:
                self.rules += 1
        finally:
            os.close(target)

    def connect_port(self, port: int) -> None:
        if not self.net or not port:
            return
        rule = _NetPortAttr(NET_CONNECT_TCP, port)
        if _syscall(SYS_ADD_RULE, ctypes.c_int(self.fd), ctypes.c_int(RULE_NET_PORT),
                    ctypes.byref(rule), ctypes.c_uint32(0)) != 0:
            raise OSError(ctypes.get_errno(), "landlock_add_rule(net port) failed")

    def restrict(self) -> None:
        """Apply to the calling process (single-threaded: the sandbox's child)."""
        try:
            if _prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0:
                raise OSError(ctypes.get_errno(), "prctl(NO_NEW_PRIVS) failed")
            if _syscall(SYS_RESTRICT_SELF, ctypes.c_int(self.fd), ctypes.c_uint32(0)) != 0:
                raise OSError(ctypes.get_errno(), "landlock_restrict_self failed")
        finally:
            os.close(self.fd)


def within(path: str, root: str) -> bool:
    return path == root or path.startswith(root.rstrip("/") + "/")


Scandir = Callable[[str], Sequence["os.DirEntry[str]"]]
Grant = tuple[str, int]  # (path, rights already fitted to a file or a directory)


def plan_grants(root: str, hidden: Sequence[str], rights: int,
                scandir: Scandir = lambda path: list(os.scandir(path))) -> list[Grant]:
    """Where to grant ``rights`` so that everything under ``root`` except the ``hidden`` paths
    (and below) gets them: ancestors of a hidden path get ``READ_DIR`` only (listing), their
    other entries recurse. Planned in swebash (and cached), applied in the child."""
    inside = [h for h in hidden if within(h, root)]
    if not inside:
        return [(root, rights)]
    if root in inside:
        return []
    plan: list[Grant] = [(root, rights & READ_DIR)]
    try:
        # A symlink is skipped: a rule on it would land on its target (which may be the very
        # secret), and whatever it points to is reached, and judged, where it really is.
        entries = [e for e in scandir(root) if not e.is_symlink()]
    except OSError:
        return plan
    for entry in entries:
        if entry.is_dir(follow_symlinks=False):
            plan += plan_grants(entry.path, inside, rights, scandir)
        elif not any(within(h, entry.path) for h in inside):
            plan.append((entry.path, rights & FILE_RIGHTS))
    return plan


def read_grants(hidden: Sequence[str], scandir: Scandir | None = None) -> list[Grant]:
    """The read half of every ruleset: all of ``/`` but the hidden places and ``/dev``, then
    the few devices a command needs."""
    plan = plan_grants("/", (*hidden, "/dev"), READ, *(() if scandir is None else (scandir,)))
    plan.append(("/dev", READ_DIR))
    plan += [(device, READ_FILE | WRITE_FILE | TRUNCATE) for device in DEVICES_RW]
    plan += [(device, READ_FILE) for device in DEVICES_R]
    return plan


def build_rules(policy: LandlockPolicy, abi: int,
                grants: Sequence[Grant] | None = None) -> RuleSet:
    rules = RuleSet(abi, policy.network)
    for path, rights in (grants if grants is not None else read_grants(policy.hidden)):
        rules.grant(path, rights)
    for tree in policy.writable:
        rules.grant(tree, rules.fs & ~IOCTL_DEV)
    if policy.network == "proxy":
        rules.connect_port(policy.proxy_port)
    return rules


def restrict(policy: LandlockPolicy, abi: int | None = None,
             grants: Sequence[Grant] | None = None) -> None:
    """Build the ruleset and apply it to this (single-threaded) process."""
    build_rules(policy, abi if abi is not None else abi_version(), grants).restrict()
