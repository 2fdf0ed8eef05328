"""What a sandboxed command may read and write: one policy, computed per command.

* reads: everything, except the secret places of the path guard (``paths.SECRET_HOME_DIRS`` /
  ``SECRET_HOME_FILES`` under $HOME, histories and other secret-looking names at the top of
  $HOME and anywhere in the working tree, system secrets, agent and container sockets);
* writes: the working tree (the git root when inside a repository) and a private temp dir;
  inside the tree ``.git`` as a whole, shell startup files and the places an editor or tool
  runs on its own (``paths.AUTORUN_DIRS`` / ``AUTORUN_FILES``: ``.vscode``, ``.husky``,
  ``.pre-commit-config.yaml``…) stay read-only (they run code later, outside the sandbox);
* swebash's own installation (the Python environment it runs in — its interpreter, its
  packages, the packaged bwrap — and its own package directory) stays read-only under
  bubblewrap wherever the tree holds it: swebash runs it later outside any sandbox (its next
  start, a restarted supervisor, an MCP server's launcher, every sandbox's bwrap). Landlock
  cannot take part of a granted tree back, as for ``.git``; ``ai status`` says so;
* when the tree is $HOME or holds it, $HOME's own level is list-only and every dot entry at the
  top of $HOME (rc files, ``~/.config`` with swebash's and git's configuration, ``~/.local/bin``,
  autostart, systemd user units, …) stays read-only, except ``~/.cache``; so does ``~/bin``.
  Admitting the known good (the user's own folders) rather than listing what runs code: any
  dot entry may be sourced by an rc file (``~/.cargo/env``, ``~/.nvm/nvm.sh``).

``carve`` turns "this tree minus these paths" into the trees both backends grant whole: a path
is granted when nothing excluded lies below it, else its own level stays read-only and its
entries are carved in turn. A missing excluded path therefore cannot be created either.
"""

from __future__ import annotations

import contextlib
import functools
import glob
import os
import stat
import sys
import threading
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import TypeVar

from swebash.safety.paths import (
    AUTORUN_DIRS,
    AUTORUN_FILES,
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
                  # a cluster's admin credentials, VPN secrets, core dumps (paths.SECRET_SYSTEM)
                  "/etc/kubernetes/pki", "/etc/kubernetes/*.conf", "/etc/rancher",
                  "/var/lib/rancher", "/etc/ipsec.secrets", "/etc/ppp/chap-secrets",
                  "/etc/ppp/pap-secrets", "/etc/openvpn", "/etc/pki/tls/private",
                  "/etc/mysql/debian.cnf", "/var/crash", "/var/lib/systemd/coredump",
                  "/var/lib/apport/coredump",
                  # sockets that hand out power outside the sandbox (docker = root, the user
                  # bus can start services, the agent signs with the user's keys)
                  "/run/docker.sock", "/var/run/docker.sock", "/run/podman",
                  "/run/containerd/containerd.sock")
SKIP_DIRS = frozenset({".git", "node_modules", ".venv", "venv", "__pycache__", ".mypy_cache",
                       ".ruff_cache", ".pytest_cache", ".tox", ".nox", "target", ".cache"})
SCAN_BUDGET = 4000  # directory entries looked at for secret-looking names in the working tree
MAX_HIDDEN = 400
MAX_CARVED = 400
T = TypeVar("T")
SOCKET_VARS = ("SSH_AUTH_SOCK", "XDG_RUNTIME_DIR", "GPG_AGENT_INFO", "DBUS_SESSION_BUS_ADDRESS",
               "DOCKER_HOST", "CONTAINER_HOST")
SHARED_DIRS = frozenset({"", "/tmp", "/var/tmp", "/dev/shm", "/run", "/var/run", "/home"})
NESTED_SECRETS = tuple(r.lower() for r in SECRET_HOME_DIRS + SECRET_HOME_FILES if "/" in r)
HOME_WRITABLE_DOT = frozenset({".cache"})  # the one dot entry of $HOME a command may change
HOME_READONLY = ("bin",)  # on PATH in many distributions' .profile
# Variables that lead to a server outside the sandbox (a terminal multiplexer, a session bus,
# a display, an editor, an agent): not passed in. Any variable naming an existing socket, or a
# ``unix:`` address, is dropped as well (``session_env``).
SESSION_VARS = frozenset({
    "TMUX", "TMUX_PANE", "STY", "DBUS_SESSION_BUS_ADDRESS", "DBUS_SYSTEM_BUS_ADDRESS",
    "DISPLAY", "WAYLAND_DISPLAY", "XAUTHORITY", "SSH_AUTH_SOCK", "SSH_AGENT_PID",
    "GPG_AGENT_INFO", "XDG_RUNTIME_DIR", "KITTY_LISTEN_ON", "KITTY_WINDOW_ID",
    "WEZTERM_UNIX_SOCKET", "NVIM", "NVIM_LISTEN_ADDRESS", "VIMRUNTIME_SERVER",
    "EMACS_SOCKET_NAME", "VSCODE_IPC_HOOK_CLI", "VSCODE_GIT_IPC_HANDLE", "VSCODE_IPC_HOOK",
    "SWAYSOCK", "I3SOCK", "HYPRLAND_INSTANCE_SIGNATURE", "ZELLIJ", "ZELLIJ_SESSION_NAME",
    "NOTIFY_SOCKET", "DOCKER_HOST", "CONTAINER_HOST", "PODMAN_HOST", "SESSION_MANAGER",
    "GNOME_KEYRING_CONTROL", "KRB5CCNAME", "PULSE_SERVER", "PIPEWIRE_REMOTE"})
PROXY_VARS = ("HTTP_PROXY", "HTTPS_PROXY", "http_proxy", "https_proxy")
NO_PROXY_VARS = ("NO_PROXY", "no_proxy", "ALL_PROXY", "all_proxy")


@dataclass(frozen=True)
class Policy:
    root: str  # the working tree ("/" when the command runs outside any)
    # bubblewrap: over the read-only root, these paths in this order, writable or not (a later
    # mount covers an earlier one; the private temp dir is the last)
    mounts: tuple[tuple[str, bool], ...]
    hidden: tuple[str, ...]  # every secret place found (bubblewrap masks them all)
    network: str  # "off" | "proxy" | "on"
    tmpdir: str
    # Landlock: the home and system secrets alone (it cannot hide a secret-looking name inside
    # a tree it lets the command write, but keeps these out even when the tree holds them), and
    # the writable trees carved around them and around $HOME's protected entries
    guarded: tuple[str, ...] = ()
    landlock_writable: tuple[str, ...] = ()
    home_protected: bool = False  # the tree is or holds $HOME: its dot entries are read-only

    @property
    def writable(self) -> tuple[str, ...]:
        return tuple(p for p, writable in self.mounts if writable)

    @property
    def readonly(self) -> tuple[str, ...]:
        return tuple(p for p, writable in self.mounts if not writable)


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


class ScanCache:
    """Results of directory scans, reused while every directory they read keeps its mtime.

    A policy is built for every command; scanning $HOME, the system's secret places and up to
    4,000 entries of the working tree each time costs 5–30 ms, a ``stat`` of the directories
    read costs well under one. An entry created, removed or renamed changes its directory's
    mtime, so the scan runs again exactly when its answer may have changed. The mtime is taken
    before a directory is read, so a change during the scan is seen next time."""

    def __init__(self) -> None:
        self._entries: dict[object, tuple[tuple[tuple[str, int], ...], object]] = {}
        self._lock = threading.Lock()

    def get(self, key: object, compute: Callable[[Scanned], T]) -> T:
        with self._lock:
            hit = self._entries.get(key)
        if hit is not None and all(mtime(d) == m for d, m in hit[0]):
            return hit[1]  # type: ignore[return-value]
        seen = Scanned()
        value = compute(seen)
        with self._lock:
            if len(self._entries) > 64:
                self._entries.clear()
            self._entries[key] = (tuple(seen.dirs.items()), value)
        return value


class Scanned:
    """The directories a scan read, with their mtimes from just before."""

    def __init__(self) -> None:
        self.dirs: dict[str, int] = {}

    def scandir(self, path: str) -> list[os.DirEntry[str]]:
        self.dirs.setdefault(path, mtime(path))
        return list(os.scandir(path))

    def glob(self, pattern: str) -> list[str]:
        folder = os.path.dirname(pattern)
        self.dirs.setdefault(folder, mtime(folder))
        return glob.glob(pattern)

    def lexists(self, path: str) -> bool:
        folder = os.path.dirname(path)
        self.dirs.setdefault(folder, mtime(folder))
        return os.path.lexists(path)


def mtime(path: str) -> int:
    try:
        return os.stat(path).st_mtime_ns
    except OSError:
        return -1


def home_secrets(home: str, environ: Mapping[str, str],
                 seen: Scanned | None = None) -> list[str]:
    seen = seen or Scanned()
    found = [os.path.join(home, rel) for rel in SECRET_HOME_DIRS + SECRET_HOME_FILES]
    try:
        found += [e.path for e in seen.scandir(home) if secret_name(e.name)]
    except OSError:
        pass
    for pattern in SYSTEM_SECRETS:
        found += seen.glob(pattern) if "*" in pattern else [pattern]
    for name in SOCKET_VARS:
        value = environ.get(name, "")
        value = value.removeprefix("unix:path=").removeprefix("unix://")
        value = value.split(",")[0].split(":")[0]
        if value.startswith("/") and value.rstrip("/") not in SHARED_DIRS:
            found.append(value)
    return found


def tree_secrets(root: str, budget: int = SCAN_BUDGET, seen: Scanned | None = None
                 ) -> list[str]:
    """Secret-looking files and directories in the working tree, breadth first, bounded."""
    seen = seen or Scanned()
    found: list[str] = []
    queue = [root]
    while queue and budget > 0:
        folder = queue.pop(0)
        try:
            entries = seen.scandir(folder)
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


def readonly_in_tree(root: str) -> list[str]:
    """Paths in the working tree that run code later, outside the sandbox: ``.git`` whole (so
    it can be neither renamed nor replaced, nor a hook or a ``commondir`` added), startup
    files, and what an editor or tool runs on its own (``.vscode``, ``.husky``, …) — those
    at the top of the tree that exist (a missing one can be created, as a missing rc file)."""
    wanted = {".git", *RC_FILES, *AUTORUN_DIRS, *AUTORUN_FILES}
    try:  # one directory read, not a stat per name (this runs for every command)
        present = wanted.intersection(os.listdir(root))
    except OSError:
        return []
    return [os.path.join(root, n) for n in sorted(present, key=lambda n: (n != ".git", n))]


def home_excluded(home: str, extra: Iterable[str] = ()) -> list[str]:
    """What stays read-only when the tree is $HOME or holds it (see the module docstring)."""
    found = [os.path.join(home, name) for name in HOME_READONLY]
    try:
        found += [e.path for e in os.scandir(home)
                  if e.name.startswith(".") and e.name not in HOME_WRITABLE_DOT]
    except OSError:
        pass
    return found + [p for p in extra if p]


def carve(root: str, excluded: Sequence[str], budget: list[int] | None = None) -> list[str]:
    """The largest trees under ``root`` that hold nothing ``excluded`` (see module docstring).

    Symlinks are not followed (what they point to is judged where it is); past ``MAX_CARVED``
    trees the rest stays read-only."""
    budget = budget if budget is not None else [MAX_CARVED]
    inside = [x for x in excluded if within(x, root)]
    if not inside:
        budget[0] -= 1
        return [root] if budget[0] >= 0 else []
    if root in inside:
        return []
    try:
        entries = sorted(e.path for e in os.scandir(root) if not e.is_symlink())
    except OSError:
        return []
    found: list[str] = []
    for entry in entries:
        found += carve(entry, inside, budget)
    return found


def maskable(path: str, root: str, tmp: str) -> bool:
    """A secret place is masked unless that would hide the working tree or the temp dir (it
    holds them: the user chose to work there); secrets *inside* the tree are masked."""
    if within(path, tmp):
        return False
    return not any(place != "/" and within(place, path) for place in (root, tmp))


def real_existing(paths: Sequence[str], seen: Scanned | None = None) -> tuple[str, ...]:
    seen = seen or Scanned()
    found: dict[str, None] = {}
    for path in paths:
        if seen.lexists(path):
            real = os.path.realpath(path)
            if real not in ("/", "/dev", "/proc") and not real.startswith(("/dev/", "/proc/")):
                found[real] = None
    # a path inside an already hidden directory needs no mount of its own
    ordered = sorted(found)
    kept = [p for i, p in enumerate(ordered)
            if not any(p.startswith(q + "/") for q in ordered[:i])]
    return tuple(kept[:MAX_HIDDEN])


def build_policy(cwd: str, home: str, environ: Mapping[str, str], tmp: str, network: str,
                 protect: Sequence[str] = (), cache: ScanCache | None = None,
                 runtime: Sequence[str] = ()) -> Policy:
    """The policy for a command started in ``cwd``; ``protect``: swebash's own configuration
    and state directories, read-only wherever they are; ``runtime``: its installation
    (``runtime_places``), read-only under bubblewrap."""
    cache = cache or ScanCache()
    root = work_root(cwd)
    sockets = tuple(environ.get(name, "") for name in SOCKET_VARS)
    home_found: tuple[str, ...] = cache.get(
        ("home", home, sockets),
        lambda seen: real_existing(home_secrets(home, environ, seen), seen))
    guarded = tuple(p for p in home_found if maskable(p, root, tmp))
    protected = [os.path.realpath(p) for p in protect]
    mounts: list[tuple[str, bool]] = []
    in_tree: tuple[str, ...] = ()
    excluded = list(protected)
    home_protected = root != "/" and within(home, root)
    if root != "/":
        in_tree = cache.get(("tree", root), lambda seen: real_existing(
            tree_secrets(root, seen=seen), seen))
        if home_protected:
            home_dots = home_excluded(home)
            excluded += home_dots
            if root != home:  # $HOME a read-only mount point: it cannot be renamed either
                mounts += [(root, True), (home, False)]
            mounts += [(p, True) for p in carve(home, [*home_dots, *protected])]
        else:
            mounts.append((root, True))
        held = [p for p in (*protected, *runtime) if within(p, root) and os.path.lexists(p)]
        if any(within(root, p) for p in runtime):  # (a tree inside it: all of it)
            held.append(root)
        for place in sorted({*held, *readonly_in_tree(root)}):
            if mount_allows(mounts, place):  # (not inside one made read-only already)
                mounts.append((place, False))
    mounts.append((tmp, True))
    hidden = tuple(p for p in real_existing((*home_found, *in_tree)) if maskable(p, root, tmp))
    # Landlock has no mount points: what holds $HOME keeps its own level list-only as well
    landlock = (carve(root, [*excluded, *guarded]) if root != "/" else []) + [tmp]
    return Policy(root, tuple(mounts), hidden, network, tmp, guarded, tuple(landlock),
                  home_protected)


@functools.cache
def runtime_places() -> tuple[str, ...]:
    """What swebash runs outside any sandbox, as real paths: the virtual environment it runs
    in (interpreter link, entry point, packages, the packaged bwrap), the interpreter and the
    standard library and package directories it imports from, and its own package directory
    (an editable install lives in its checkout)."""
    import sysconfig

    import swebash

    places = {os.path.realpath(sys.executable),
              os.path.dirname(os.path.realpath(swebash.__file__))}
    if sys.prefix != sys.base_prefix:
        places.add(os.path.realpath(sys.prefix))
    for name in ("stdlib", "platstdlib", "purelib", "platlib"):
        with contextlib.suppress(KeyError):
            places.add(os.path.realpath(sysconfig.get_paths()[name]))
    return tuple(sorted(p for p in places if p not in ("/", "")))


def mount_allows(mounts: Sequence[tuple[str, bool]], path: str) -> bool:
    """Whether ``path`` is writable under ``mounts`` (the most specific one decides)."""
    best, allowed = -1, False
    for place, writable in mounts:
        if within(path, place) and len(place) >= best:
            best, allowed = len(place), writable
    return allowed


def session_env(env: Mapping[str, str]) -> dict[str, str]:
    """``env`` without the ways to a server outside the sandbox (``SESSION_VARS``, and any
    variable whose value is a ``unix:`` address or names an existing socket)."""
    kept = {}
    for name, value in env.items():
        if name in SESSION_VARS or value.startswith(("unix:", "unix://")):
            continue
        if value.startswith("/") and len(value) < 4096 and is_socket(value):
            continue
        kept[name] = value
    return kept


def is_socket(path: str) -> bool:
    try:
        return stat.S_ISSOCK(os.stat(path).st_mode)
    except (OSError, ValueError):
        return False


def proxy_env(env: Mapping[str, str], url: str) -> dict[str, str]:
    """Every HTTP(S) client pointed at the proxy ``url``, with no exception list."""
    out = {k: v for k, v in env.items() if k not in NO_PROXY_VARS}
    out.update(dict.fromkeys(PROXY_VARS, url))
    return out
