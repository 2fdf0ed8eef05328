"""The OS sandbox under every command the AI runs (``execute_command``).

Design note. A classifier cannot be the only wall (bash evaluates text in too many places), so a
command the model runs is also confined by the kernel:

* reads: everything, except the secret places of the path guard (``paths.SECRET_HOME_DIRS`` /
  ``SECRET_HOME_FILES`` under $HOME, histories and other secret-looking names at the top of
  $HOME and anywhere in the working tree, system secrets, agent and container sockets);
* writes: the working tree only (the git root when inside a repository, with ``.git/hooks``,
  ``.git/config`` and shell startup files kept read-only) and a private temp dir that TMPDIR
  points to;
* network: off unless ``[sandbox] network = true``.

Backends, best first. **bubblewrap** gives every guarantee above (a mount namespace can cover a
file anywhere, even inside a writable tree, and a network namespace cuts UDP and unix-abstract
sockets as well as TCP); it needs unprivileged user namespaces, which some distributions block.
**Landlock** needs nothing but a 5.13+ kernel; it cannot take back part of a tree it granted, so
inside the working tree it protects neither ``.git/hooks`` nor secret-looking files, and it
restricts TCP only (ABI >= 4). Where neither works, commands run as before and ``ai status`` and
the first ``?`` say so once. Only the AI's commands are confined: the user's own prompt commands
never pass through here.

A sandboxed command that fails because of the sandbox is recognised from its output (EROFS,
EACCES, unreachable network …) and exit status: ``blocked()`` names what was stopped, so the
agent can ask the user, once, whether to run it again outside the sandbox.
"""

from __future__ import annotations

import atexit
import functools
import glob
import os
import shutil
import subprocess
import tempfile
import threading
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Protocol

from swebash.config import SandboxConfig
from swebash.safety import sandbox_bwrap, sandbox_landlock, sandbox_seccomp
from swebash.safety.paths import (
    RC_FILES,
    SECRET_HOME_DIRS,
    SECRET_HOME_FILES,
    secret_reason,
    within,
)
from swebash.workspace import git_root

SYSTEM_SECRETS = ("/etc/shadow", "/etc/gshadow", "/etc/shadow-", "/etc/gshadow-",
                  "/etc/sudoers", "/etc/sudoers.d", "/etc/ssl/private", "/etc/wireguard",
                  "/etc/NetworkManager/system-connections", "/run/secrets", "/var/run/secrets",
                  "/var/lib/secrets", "/etc/ssh/ssh_host_*key", "/etc/*.keytab",
                  # sockets that hand out power outside the sandbox (docker = root, the user
                  # bus can start services, the agent signs with the user's keys)
                  "/run/docker.sock", "/var/run/docker.sock", "/run/podman",
                  "/run/containerd/containerd.sock")
SKIP_DIRS = frozenset({".git", "node_modules", ".venv", "venv", "__pycache__", ".mypy_cache",
                       ".ruff_cache", ".pytest_cache", ".tox", ".nox", "target", ".cache"})
SCAN_BUDGET = 4000  # directory entries looked at for secret-looking names in the working tree
MAX_HIDDEN = 400
SOCKET_VARS = ("SSH_AUTH_SOCK", "XDG_RUNTIME_DIR", "GPG_AGENT_INFO", "DBUS_SESSION_BUS_ADDRESS",
               "DOCKER_HOST", "CONTAINER_HOST")
SHARED_DIRS = frozenset({"", "/tmp", "/var/tmp", "/dev/shm", "/run", "/var/run", "/home"})
NESTED_SECRETS = tuple(r.lower() for r in SECRET_HOME_DIRS + SECRET_HOME_FILES if "/" in r)

WRITE_BLOCKED = ("read-only file system",)
READ_BLOCKED = ("permission denied", "operation not permitted")
NET_BLOCKED = ("network is unreachable", "could not resolve host", "name or service not known",
               "temporary failure in name resolution", "connection refused",
               "failed to connect", "no address associated", "couldn't connect",
               "network unreachable")


class Sandbox(Protocol):
    """What a tool needs to start its process confined (see ``tools.base.ToolContext``)."""

    def spawn(self, argv: Sequence[str], cwd: str,
              env: Mapping[str, str]) -> subprocess.Popen[bytes]:
        """Start ``argv`` in its own session with piped output, confined."""
        ...

    def blocked(self, exit_code: int, stdout: str, stderr: str) -> str | None:
        """What the sandbox stopped, in one line, when that is why the command failed."""
        ...


@dataclass(frozen=True)
class Policy:
    writable: tuple[str, ...]  # the working tree (absent when cwd is "/") and the temp dir
    readonly: tuple[str, ...]
    hidden: tuple[str, ...]  # every secret place found (bubblewrap masks them all)
    network: bool
    tmpdir: str
    # the home and system secrets alone: Landlock cannot hide a secret-looking name inside a
    # tree it lets the command write, but keeps these out even when the tree holds them
    guarded: tuple[str, ...] = ()


def work_root(cwd: str) -> str:
    """The git root above ``cwd`` (a ``.git`` directory or file), else ``cwd`` itself."""
    path = os.path.realpath(cwd)
    return git_root(path) or path


def secret_name(rel: str) -> bool:
    """Whether a relative path's *names* mark it secret (judged away from any real location,
    so a project under /root is not secret as a whole)."""
    low = rel.strip("/").lower()
    if any(f"/{m}/" in f"/{low}/" for m in NESTED_SECRETS):
        return True
    return any(name_is_secret(part) for part in low.split("/"))


@functools.lru_cache(maxsize=16384)
def name_is_secret(name: str) -> bool:
    # the path guard's judgement of one name; cached, since a scan meets the same names again
    return secret_reason("/w/" + name, "/nonexistent-home") is not None


def home_secrets(home: str, environ: Mapping[str, str]) -> list[str]:
    found = [os.path.join(home, rel) for rel in SECRET_HOME_DIRS + SECRET_HOME_FILES]
    try:
        found += [e.path for e in os.scandir(home) if secret_name(e.name)]
    except OSError:
        pass
    for pattern in SYSTEM_SECRETS:
        found += glob.glob(pattern) if "*" in pattern else [pattern]
    for name in SOCKET_VARS:
        value = environ.get(name, "")
        value = value.removeprefix("unix:path=").removeprefix("unix://")
        value = value.split(",")[0].split(":")[0]
        if value.startswith("/") and value.rstrip("/") not in SHARED_DIRS:
            found.append(value)
    return found


def tree_secrets(root: str, budget: int = SCAN_BUDGET) -> list[str]:
    """Secret-looking files and directories in the working tree, breadth first, bounded."""
    found: list[str] = []
    queue = [root]
    while queue and budget > 0:
        folder = queue.pop(0)
        try:
            entries = list(os.scandir(folder))
        except OSError:
            continue
        for entry in entries:
            budget -= 1
            rel = os.path.relpath(entry.path, root)
            if secret_name(rel):
                found.append(entry.path)
            elif entry.is_dir(follow_symlinks=False) and entry.name not in SKIP_DIRS:
                queue.append(entry.path)
    return found


def guarded_in_tree(root: str) -> list[str]:
    """Files in the working tree that run code later, outside the sandbox: read-only."""
    names = [".git/hooks", ".git/config", *sorted(RC_FILES)]
    return [p for p in (os.path.join(root, n) for n in names) if os.path.lexists(p)]


def maskable(path: str, root: str, tmp: str) -> bool:
    """A secret place is masked unless that would hide the working tree or the temp dir (it
    holds them: the user chose to work there); secrets *inside* the tree are masked."""
    if within(path, tmp):
        return False
    return not any(place != "/" and within(place, path) for place in (root, tmp))


def real_existing(paths: Sequence[str]) -> tuple[str, ...]:
    seen: dict[str, None] = {}
    for path in paths:
        if os.path.lexists(path):
            real = os.path.realpath(path)
            if real not in ("/", "/dev", "/proc") and not real.startswith(("/dev/", "/proc/")):
                seen[real] = None
    # a path inside an already hidden directory needs no mount of its own
    ordered = sorted(seen)
    kept = [p for i, p in enumerate(ordered)
            if not any(p.startswith(q + "/") for q in ordered[:i])]
    return tuple(kept[:MAX_HIDDEN])


class OsSandbox:
    """The sandbox of one swebash session: picks a backend once, confines each command."""

    def __init__(self, config: SandboxConfig, home: str,
                 environ: Mapping[str, str] | None = None) -> None:
        self.config = config
        self.home = os.path.realpath(home)
        self.environ = dict(os.environ if environ is None else environ)
        self._lock = threading.Lock()
        self._backend: str | None = None
        self._why_none = ""
        self._probed = False
        self._tmpdir: str | None = None
        self._noticed = False

    # ------------------------------------------------------------------ backend

    @property
    def enabled(self) -> bool:
        return self.config.enabled

    def backend(self) -> str | None:
        """"bwrap", "landlock" or None (off, or nothing works here; see ``describe``)."""
        with self._lock:
            if not self._probed:
                self._backend, self._why_none = self._probe()
                self._probed = True
            return self._backend

    def _probe(self) -> tuple[str | None, str]:
        if not self.config.enabled:
            return None, "off"
        wanted = self.config.backend
        reasons: list[str] = []
        if wanted in ("auto", "bwrap"):
            why = sandbox_bwrap.probe(self.config.network)
            if why is None:
                return "bwrap", ""
            reasons.append(why)
        if wanted in ("auto", "landlock"):
            abi = sandbox_landlock.abi_version()
            if abi >= 1:
                return "landlock", ""
            reasons.append("the kernel has no Landlock")
        return None, "; ".join(reasons)

    def describe(self, cwd: str | None = None) -> str:
        """One line for ``ai status``: the backend and the policy, or why there is none."""
        backend = self.backend()
        if backend is None:
            if self._why_none == "off":
                return "off (SWEBASH_AI_SANDBOX=off or [sandbox] mode = \"off\"): AI commands " \
                       "run unconfined"
            return f"unavailable ({self._why_none}): AI commands run unconfined"
        root = work_root(cwd or os.getcwd())
        writes = "private temp dir only" if root == "/" else f"{root} + private temp dir"
        if backend == "bwrap":
            net = "on" if self.config.network else "off"
            if os.path.isdir(os.path.join(root, ".git")):
                writes += " (.git/hooks, .git/config read-only)"
            return f"bubblewrap — writes: {writes}, network: {net}, secrets hidden"
        abi = sandbox_landlock.abi_version()
        net = "on" if self.config.network else \
            "off (TCP, UDP and unix sockets)" if sandbox_seccomp.supported() else \
            "off (TCP only)" if abi >= 4 else f"not restricted (Landlock ABI {abi} < 4)"
        return (f"landlock ABI {abi} — writes: {writes}, network: {net}, home and system "
                "secrets unreadable (not .git/hooks or secret-looking files in the tree)")

    def notice(self) -> str | None:
        """Once per session, when the sandbox should be on but no backend works."""
        if self._noticed or not self.config.enabled or self.backend() is not None:
            return None
        self._noticed = True
        return f"sandbox unavailable ({self._why_none}); AI commands run unconfined"

    # ------------------------------------------------------------------ policy

    def tmpdir(self) -> str:
        with self._lock:
            if self._tmpdir is None or not os.path.isdir(self._tmpdir):
                self._tmpdir = os.path.realpath(tempfile.mkdtemp(prefix="swebash-sandbox-"))
                atexit.register(shutil.rmtree, self._tmpdir, True)
            return self._tmpdir

    def close(self) -> None:
        if self._tmpdir is not None:
            shutil.rmtree(self._tmpdir, ignore_errors=True)
            self._tmpdir = None

    def policy(self, cwd: str, environ: Mapping[str, str]) -> Policy:
        root = work_root(cwd)
        tmp = self.tmpdir()
        writable = (tmp,) if root == "/" else (root, tmp)
        secrets = home_secrets(self.home, {**self.environ, **environ})
        guarded = tuple(p for p in real_existing(secrets) if maskable(p, root, tmp))
        readonly: list[str] = []
        if root != "/":
            secrets += tree_secrets(root)
            readonly = guarded_in_tree(root)
        hidden = tuple(p for p in real_existing(secrets) if maskable(p, root, tmp))
        return Policy(writable, tuple(readonly), hidden, self.config.network, tmp, guarded)

    # ------------------------------------------------------------------ Sandbox

    def spawn(self, argv: Sequence[str], cwd: str,
              env: Mapping[str, str]) -> subprocess.Popen[bytes]:
        backend = self.backend()
        if backend is None:
            return sandbox_landlock.popen(argv, cwd, env)
        policy = self.policy(cwd, env)
        env = {**env, "TMPDIR": policy.tmpdir}
        if backend == "bwrap":
            bw = sandbox_bwrap.BwrapPolicy(policy.writable, policy.readonly, policy.hidden,
                                           policy.network)
            return sandbox_landlock.popen(sandbox_bwrap.bwrap_argv(bw, argv, cwd), cwd, env)
        ll = sandbox_landlock.LandlockPolicy(policy.writable, policy.guarded, policy.network)
        return sandbox_landlock.spawn_restricted(ll, sandbox_landlock.abi_version(), argv, cwd,
                                                 env)

    def blocked(self, exit_code: int, stdout: str, stderr: str) -> str | None:
        if exit_code == 0 or self.backend() is None:
            return None
        return blocked_line(stderr + "\n" + stdout, network=self.config.network)


def blocked_line(output: str, network: bool) -> str | None:
    """Name what the sandbox stopped: every kind seen, with the last line that shows one (the
    likeliest cause of the exit status)."""
    kinds: list[str] = []
    example = ""
    for line in output.splitlines():
        low = line.lower()
        what = None
        if any(m in low for m in WRITE_BLOCKED):
            what = "a write outside the working tree"
        elif not network and any(m in low for m in NET_BLOCKED):
            what = "network access"
        elif any(m in low for m in READ_BLOCKED):
            what = "access to a protected path"
        if what is not None:
            example = " ".join(line.split())[:160]
            if what not in kinds:
                kinds.append(what)
    if not kinds:
        return None
    return f"{' and '.join(kinds)} ({example})"
