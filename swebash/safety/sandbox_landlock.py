"""The Landlock backend: the kernel's own LSM, no dependency, no privileges.

Design note. Landlock restricts the *calling thread* and everything it starts afterwards
(``landlock_restrict_self`` commits new credentials for one task; children inherit them). So
there is no launcher process and no ``preexec_fn`` (which is unsafe with threads and forces a
plain fork of a large interpreter): a fresh, short-lived thread applies the ruleset to itself
and then starts the command with ``subprocess.Popen``. The thread ends right after, so no
thread of swebash stays restricted. Cost: one thread, a few hundred syscalls.

What Landlock can and cannot express. Rules only ever *grant* access, and a rule on a directory
grants it for the whole tree below. "Everything readable except the secret places" is built
by granting read on every sibling along the path to each secret place (for ``~/.ssh``: every
entry of ``/`` except ``/root``-or-``/home``, every entry of ``$HOME`` except ``.ssh``), and only
``READ_DIR`` on the ancestors themselves, so ``ls ~`` still works. Consequences, stated in the
README: names inside a secret directory can still be listed (not read); a secret created at the
top of ``$HOME`` after the ruleset was built is readable by nobody in the sandbox; since write
rights on the working directory cover its whole tree, ``.git/hooks`` and secret-looking files
*inside* the working directory are not protected by this backend — bubblewrap does that; and
when the working directory holds home secrets (it *is* $HOME), its top level is list-only.
ABI >= 4 denies every TCP bind/connect when the network is off; since that leaves UDP and named
unix sockets (the docker socket, the ssh agent), a seccomp filter (``sandbox_seccomp``) refuses
creating such sockets at all. ABI >= 6 also scopes abstract unix sockets and signals.
"""

from __future__ import annotations

import ctypes
import os
import subprocess
import threading
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from swebash.safety import sandbox_seccomp
from swebash.safety.paths import within

SYS_CREATE_RULESET, SYS_ADD_RULE, SYS_RESTRICT_SELF = 444, 445, 446  # same on every arch
CREATE_RULESET_VERSION = 1
RULE_PATH_BENEATH, RULE_NET_PORT = 1, 2
PR_SET_NO_NEW_PRIVS = 38

EXECUTE, WRITE_FILE, READ_FILE, READ_DIR = 1 << 0, 1 << 1, 1 << 2, 1 << 3
REMOVE_DIR, REMOVE_FILE, MAKE_CHAR, MAKE_DIR = 1 << 4, 1 << 5, 1 << 6, 1 << 7
MAKE_REG, MAKE_SOCK, MAKE_FIFO, MAKE_BLOCK, MAKE_SYM = 1 << 8, 1 << 9, 1 << 10, 1 << 11, 1 << 12
REFER, TRUNCATE = 1 << 13, 1 << 14  # ABI 2, ABI 3
NET_BIND_TCP, NET_CONNECT_TCP = 1, 2  # ABI 4
SCOPE_ABSTRACT_UNIX, SCOPE_SIGNAL = 1, 2  # ABI 6

READ = EXECUTE | READ_FILE | READ_DIR
FILE_RIGHTS = EXECUTE | WRITE_FILE | READ_FILE | TRUNCATE  # the only rights a file rule may hold
DEVICES = ("/dev/null", "/dev/zero", "/dev/full", "/dev/tty")


class _RulesetAttr(ctypes.Structure):
    _fields_ = [("handled_access_fs", ctypes.c_uint64), ("handled_access_net", ctypes.c_uint64),
                ("scoped", ctypes.c_uint64)]


class _PathBeneathAttr(ctypes.Structure):
    _pack_ = 1
    _fields_ = [("allowed_access", ctypes.c_uint64), ("parent_fd", ctypes.c_int32)]


_libc = ctypes.CDLL(None, use_errno=True)
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
    return rights  # IOCTL_DEV (ABI 5) is left unhandled: no tty, and pipes are not devices


@dataclass(frozen=True)
class LandlockPolicy:
    writable: tuple[str, ...]  # trees the command may change (working tree, private temp dir)
    hidden: tuple[str, ...]  # existing secret paths (real paths) nobody may read
    network: bool


class RuleSet:
    """A Landlock ruleset being built; ``restrict()`` applies it to the calling thread."""

    def __init__(self, abi: int, network: bool) -> None:
        self.abi = abi
        self.fs = handled_fs(abi)
        attr = _RulesetAttr(self.fs, NET_BIND_TCP | NET_CONNECT_TCP
                            if abi >= 4 and not network else 0,
                            SCOPE_ABSTRACT_UNIX | SCOPE_SIGNAL if abi >= 6 else 0)
        size = ctypes.sizeof(_RulesetAttr) if abi >= 6 else 16 if abi >= 4 else 8
        fd = _syscall(SYS_CREATE_RULESET, ctypes.byref(attr), ctypes.c_size_t(size),
                      ctypes.c_uint32(0))
        if fd < 0:
            raise OSError(ctypes.get_errno(), "landlock_create_ruleset failed")
        self.fd = int(fd)
        self.rules = 0

    def grant(self, path: str, rights: int) -> None:
        try:
            target = os.open(path, os.O_PATH | os.O_CLOEXEC)
        except OSError:
            return  # vanished or unreachable: nothing to grant
        try:
            if not os.path.isdir(f"/proc/self/fd/{target}"):
                rights &= FILE_RIGHTS
            rule = _PathBeneathAttr(rights & self.fs, target)
            if rule.allowed_access and _syscall(SYS_ADD_RULE, ctypes.c_int(self.fd),
                                                ctypes.c_int(RULE_PATH_BENEATH),
                                                ctypes.byref(rule), ctypes.c_uint32(0)) == 0:
                self.rules += 1
        finally:
            os.close(target)

    def restrict(self) -> None:
        """Apply to the calling thread (and so to every process it starts from now on)."""
        try:
            if _prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0:
                raise OSError(ctypes.get_errno(), "prctl(NO_NEW_PRIVS) failed")
            if _syscall(SYS_RESTRICT_SELF, ctypes.c_int(self.fd), ctypes.c_uint32(0)) != 0:
                raise OSError(ctypes.get_errno(), "landlock_restrict_self failed")
        finally:
            os.close(self.fd)


def grant_all_but(rules: RuleSet, root: str, hidden: Sequence[str], rights: int) -> None:
    """Grant ``rights`` on everything under ``root`` except the ``hidden`` paths (and below).

    Ancestors of a hidden path get ``READ_DIR`` only (listing); their other entries recurse.
    """
    inside = [h for h in hidden if within(h, root)]
    if not inside:
        rules.grant(root, rights)
        return
    if root in inside:
        return
    rules.grant(root, rights & READ_DIR)
    try:
        # A symlink is skipped: a rule on it would land on its target (which may be the very
        # secret), and whatever it points to is reached, and judged, where it really is.
        entries = [e.path for e in os.scandir(root) if not e.is_symlink()]
    except OSError:
        return
    for entry in entries:
        grant_all_but(rules, entry, inside, rights)


def build_rules(policy: LandlockPolicy, abi: int) -> RuleSet:
    rules = RuleSet(abi, policy.network)
    grant_all_but(rules, "/", policy.hidden, READ)
    everything = rules.fs
    for tree in policy.writable:
        # Usually one rule. When the tree holds a home secret (working in $HOME itself), the
        # secret is left out and the tree's own top level gets listing only: files cannot be
        # created right in $HOME then, which is the price of ~/.ssh staying unreadable.
        grant_all_but(rules, tree, policy.hidden, everything)
    for device in DEVICES:
        rules.grant(device, READ_FILE | WRITE_FILE)
    # POSIX semaphores and shared memory (multiprocessing, test runners) live here
    rules.grant("/dev/shm", everything)
    return rules


def spawn_restricted(policy: LandlockPolicy, abi: int, argv: Sequence[str], cwd: str,
                     env: Mapping[str, str]) -> subprocess.Popen[bytes]:
    """Start ``argv`` under the policy from a throw-away thread (see the design note)."""
    box: dict[str, subprocess.Popen[bytes] | BaseException] = {}

    def run() -> None:
        try:
            rules = build_rules(policy, abi)
            rules.restrict()
            if not policy.network and sandbox_seccomp.supported():
                sandbox_seccomp.install_no_network()  # UDP and unix sockets too
            box["proc"] = popen(argv, cwd, env)
        except BaseException as exc:  # handed to the caller's thread below
            box["error"] = exc

    thread = threading.Thread(target=run, name="swebash-landlock", daemon=True)
    thread.start()
    thread.join()
    error = box.get("error")
    if isinstance(error, BaseException):
        raise error
    proc = box["proc"]
    assert isinstance(proc, subprocess.Popen)
    return proc


def popen(argv: Sequence[str], cwd: str, env: Mapping[str, str]) -> subprocess.Popen[bytes]:
    """The one way a tool's command starts: own session (so its group can be killed), no tty,
    stdin from /dev/null, output on pipes."""
    return subprocess.Popen(list(argv), cwd=cwd, env=dict(env), stdin=subprocess.DEVNULL,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            start_new_session=True)


def existing(paths: Iterable[str]) -> tuple[str, ...]:
    return tuple(p for p in paths if os.path.lexists(p))
