"""Private temp dirs name their owner, and the next swebash removes the ones a dead owner left —
never a live one's, never anything else (the temp dir is the test's own, see conftest)."""

from __future__ import annotations

import os
import subprocess
import tempfile
from pathlib import Path

from swebash import lifecycle


def owner_name(prefix: str, pid: int, start: int) -> str:
    namespace = os.stat("/proc/self/ns/pid").st_ino
    return f"{prefix}{namespace}.{pid}.{start}-abc123"


def dead_process() -> tuple[int, int]:
    """(pid, start time) of a process that has ended."""
    child = subprocess.Popen(["sleep", "30"])
    start = lifecycle._start_time(child.pid)
    assert start is not None
    child.kill()
    child.wait()
    return child.pid, start


def test_only_dirs_of_dead_owners_are_removed(tmp_path: Path) -> None:
    tmp = Path(tempfile.gettempdir())
    pid, start = dead_process()
    me, my_start = os.getpid(), lifecycle._start_time(os.getpid()) or 0
    dead = [tmp / owner_name(p, pid, start) for p in ("swebash-", "swebash-sandbox-")]
    reused = tmp / owner_name("swebash-", me, my_start + 1)  # our pid, another start: dead
    alive = tmp / owner_name("swebash-sandbox-", me, my_start)
    others = [tmp / "swebash-legacy1234", tmp / "someone-else", tmp / f"swebash-{pid}-x",
              tmp / ("swebash-1." + owner_name("", pid, start))]  # another pid namespace
    for folder in (*dead, reused, alive, *others):
        folder.mkdir()
        (folder / "content").write_text("x")
    link = tmp / owner_name("swebash-", pid, start + 7)
    link.symlink_to(alive)  # a symlink is never followed nor removed
    removed = lifecycle.clean_stale_private_dirs()
    assert sorted(removed) == sorted(str(p) for p in (*dead, reused))
    assert all(not p.exists() for p in (*dead, reused))
    assert alive.exists() and link.is_symlink() and all(p.exists() for p in others)


def test_a_new_private_dir_names_its_owner_and_cleans_first() -> None:
    tmp = Path(tempfile.gettempdir())
    pid, start = dead_process()
    stale = tmp / owner_name("swebash-", pid, start)
    stale.mkdir()
    lifecycle._cleaned.clear()
    made = Path(lifecycle.private_dir("swebash-sandbox-"))
    try:
        assert not stale.exists()
        assert made.name.startswith(f"swebash-sandbox-{os.stat('/proc/self/ns/pid').st_ino}."
                                    f"{os.getpid()}.")
        assert (made.stat().st_mode & 0o777) == 0o700
        assert lifecycle.clean_stale_private_dirs() == []  # ours, alive: kept
    finally:
        made.rmdir()
