"""Ending swebash from outside: a signal becomes SystemExit in the main thread; what a SIGKILL
left behind is cleaned up by the next swebash.

Problem: SIGHUP (the window closed) or SIGTERM kills a Python process without running its
``finally`` blocks, leaving tool process groups, MCP servers, the private temp dir and a raw
terminal behind. Approach: the handler raises SystemExit(128 + signal), so the way out is the
same as `exit` and every cleanup runs; further signals are ignored while that happens. SIGKILL
runs nothing: tool commands end anyway (their supervisor sees swebash go, see
``safety/sandbox_supervisor``) and private temp dirs name their owner, so the next start can
remove those of dead owners (below).
"""

from __future__ import annotations

import os
import re
import shutil
import signal
import tempfile
import threading
from collections.abc import Iterable
from types import FrameType
from typing import Any

Saved = dict[int, Any]  # signal number → the handler signal.signal() handed back


def exit_on_signals(signals: Iterable[signal.Signals]) -> Saved:
    """Install the handler for ``signals``; return the previous handlers (main thread only)."""
    chosen = tuple(signals)
    saved: Saved = {}
    if threading.current_thread() is not threading.main_thread():
        return saved

    def on_signal(signum: int, frame: FrameType | None) -> None:
        for sig in chosen:
            signal.signal(sig, signal.SIG_IGN)
        raise SystemExit(128 + signum)

    for sig in chosen:
        try:
            saved[sig] = signal.signal(sig, on_signal)
        except (OSError, ValueError):
            pass
    return saved


def restore_signals(saved: Saved) -> None:
    for sig, handler in saved.items():
        try:
            signal.signal(sig, handler)
        except (OSError, ValueError):
            pass
    saved.clear()


# ---------------------------------------------------------------------------- private temp dirs
#
# A private temp dir is named after its owner: ``<prefix><pidns>.<pid>.<start>-XXXXXXXX``, the
# pid namespace's inode, the pid and the process's start time (clock ticks since boot, from
# /proc/PID/stat). swebash removes its dirs on the way out; one that a SIGKILL left behind is
# removed by the next swebash to start — only when it is ours (uid), a real directory, named
# this way, from our pid namespace, and its owner is dead (no such pid, or a pid reused by a
# process that started at another time). Nothing else is ever touched.

PRIVATE_PREFIXES = ("swebash-", "swebash-sandbox-")
_OWNER = re.compile(r"^(swebash-(?:sandbox-)?)(\d+)\.(\d+)\.(\d+)-[A-Za-z0-9_]+$")
_cleaned: list[bool] = []


def _start_time(pid: int) -> int | None:
    """When ``pid`` started (clock ticks after boot); None if it is gone or a zombie."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as handle:
            fields = handle.read().rsplit(b")", 1)[1].split()
        return None if fields[0] in (b"Z", b"X") else int(fields[19])
    except (OSError, ValueError, IndexError):
        return None


def _pid_namespace() -> int:
    try:
        return os.stat("/proc/self/ns/pid").st_ino
    except OSError:
        return 0


def clean_once() -> None:
    """Remove what dead swebash processes left behind, once per process (at its start)."""
    if not _cleaned:
        _cleaned.append(True)
        clean_stale_private_dirs()


def private_dir(prefix: str = "swebash-") -> str:
    """A new 0700 temp dir that names its owner (this process); stale ones are cleaned first."""
    clean_once()
    me = os.getpid()
    owner = f"{prefix}{_pid_namespace()}.{me}.{_start_time(me) or 0}-"
    return tempfile.mkdtemp(prefix=owner)


def clean_stale_private_dirs(where: str | None = None) -> list[str]:
    """Remove the private dirs whose owner is dead (see above); returns what was removed."""
    folder = where or tempfile.gettempdir()
    removed: list[str] = []
    namespace = str(_pid_namespace())
    try:
        entries = list(os.scandir(folder))
    except OSError:
        return removed
    for entry in entries:
        found = _OWNER.match(entry.name)
        if found is None or found.group(2) != namespace:
            continue
        try:
            if not entry.is_dir(follow_symlinks=False) or \
                    entry.stat(follow_symlinks=False).st_uid != os.getuid():
                continue
        except OSError:
            continue
        pid, start = int(found.group(3)), int(found.group(4))
        if _start_time(pid) == start:
            continue  # its owner is alive
        shutil.rmtree(entry.path, ignore_errors=True)
        removed.append(entry.path)
    return removed
