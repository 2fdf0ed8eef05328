"""The bounded, guarded walk under ``search_text``, and the guarded directory listing.

Every entry passes the file boundary before it is opened or shown: a secret directory is not
entered, a secret file (by name, by where its symlink lands, by the file actually opened, by a
hard link to a home secret, or by a private key anywhere in its content) is not read, and each
is named in the result as skipped. Symlinked directories are not followed (no loops, no escape
from the root); symlinked files are read when their target passes. Version-control and tool
caches (``.git``, ``node_modules`` …) and pseudo-filesystems are not searched.

The walk is bounded in files read, bytes read, directory entries looked at and wall time, and
says which bound stopped it. It runs in a worker thread; ``stop`` (set when the call is
cancelled) ends it at the next file.
"""

from __future__ import annotations

import json
import os
import stat
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field

from swebash.api import JsonObject, JsonValue
from swebash.errors import ExecutionFailed, SwebashError
from swebash.safety.boundary import FileBoundary, SecretFile
from swebash.safety.paths import within
from swebash.tools.base import ToolOutput
from swebash.tools.files import FileTooLarge, guarded_read, kind_of
from swebash.wording import counted, plural

NOT_SEARCHED = frozenset({".git", ".hg", ".svn", "node_modules", "__pycache__", ".venv",
                          ".tox", ".mypy_cache"})
PSEUDO = ("/proc", "/sys", "/dev", "/run")
MAX_NAMED = 30  # skipped secrets named in a result; the rest are counted
MAX_LIST = 500  # entries shown by a listing
MAX_SCAN = 20_000  # entries a listing looks at


@dataclass(frozen=True)
class WalkLimits:
    files: int = 5000  # files read
    entries: int = 100_000  # directory entries looked at
    total_bytes: int = 64 << 20  # bytes read in all
    seconds: float = 10.0  # wall time
    file_bytes: int = 2 << 20  # a bigger file is walked past


def skipped_line(names: list[str], what: str) -> str:
    shown = ", ".join(names[:MAX_NAMED])
    if len(names) > MAX_NAMED:
        shown += f", … and {len(names) - MAX_NAMED} more"
    return f"skipped {len(names)} secret {plural(len(names), what)}: {shown}"


@dataclass
class Walk:
    boundary: FileBoundary
    root: str  # as the kernel resolves it (``FileBoundary.resolve``)
    limits: WalkLimits = field(default_factory=WalkLimits)
    stop: threading.Event = field(default_factory=threading.Event)
    skipped: list[str] = field(default_factory=list)
    stopped: str | None = None
    files: int = 0
    read_bytes: int = 0
    entries: int = 0
    too_large: int = 0
    started: float = field(default_factory=time.monotonic)

    def over(self) -> bool:
        """True once a bound is reached (and ``stopped`` says which)."""
        if self.stopped is None:
            lim = self.limits
            if self.stop.is_set():
                self.stopped = "stopped early: the call was cancelled"
            elif time.monotonic() - self.started >= lim.seconds:
                self.stopped = f"stopped early at the time limit of {lim.seconds:g} s"
            elif self.files >= lim.files:
                self.stopped = f"stopped early at the limit of {lim.files} files read"
            elif self.read_bytes >= lim.total_bytes:
                self.stopped = f"stopped early at the limit of {lim.total_bytes} bytes read"
            elif self.entries > lim.entries:
                self.stopped = f"stopped early at the limit of {lim.entries} directory entries"
        return self.stopped is not None

    def halt(self, why: str) -> None:
        self.stopped = self.stopped or why

    def texts(self) -> Iterator[tuple[str, bytes]]:
        """(path, content) of each readable file under the root that passes the boundary."""
        try:
            info = os.stat(self.root)
        except OSError as exc:
            raise ExecutionFailed(f"{self.root}: {exc.strerror}") from None
        real_root = os.path.realpath(self.root)
        if not stat.S_ISDIR(info.st_mode):
            yield from self._file(self.root, os.path.basename(self.root))
            return
        if any(within(real_root, p) for p in PSEUDO):
            raise ExecutionFailed(f"{self.root}: a pseudo-filesystem ({', '.join(PSEUDO)}) is "
                                  "not searched; name a file in it instead")
        stack = [(self.root, real_root)]
        while stack and not self.over():
            folder, real_folder = stack.pop()
            entries: list[os.DirEntry[str]] = []
            try:
                with os.scandir(folder) as it:
                    for entry in it:  # no more than the budget left, even from a huge folder
                        entries.append(entry)
                        if len(entries) > self.limits.entries - self.entries:
                            break
            except OSError:
                continue
            entries.sort(key=lambda e: e.name)
            below: list[tuple[str, str]] = []
            for entry in entries:
                self.entries += 1
                if self.over():
                    return
                link = entry.is_symlink()
                real = (os.path.realpath(entry.path) if link
                        else os.path.join(real_folder, entry.name))
                is_dir = os.path.isdir(real) if link else entry.is_dir(follow_symlinks=False)
                if is_dir and (entry.name in NOT_SEARCHED
                               or any(within(real, p) for p in PSEUDO)):
                    continue
                rel = os.path.relpath(entry.path, self.root)
                if self.boundary.entry_secret(entry.path, real):
                    self.skipped.append(rel + ("/" if is_dir else ""))
                elif is_dir and not link:
                    below.append((entry.path, real))
                elif not is_dir:
                    yield from self._file(entry.path, rel)
                    if self.stopped:
                        return
            stack.extend(reversed(below))

    def _file(self, path: str, rel: str) -> Iterator[tuple[str, bytes]]:
        if self.over():
            return
        try:
            data = guarded_read(self.boundary, path, rel, self.limits.file_bytes)
        except SecretFile:
            self.skipped.append(rel)
            return
        except FileTooLarge:
            self.too_large += 1
            return
        except SwebashError:
            return  # not a regular file, unreadable: grep -r walks past these too
        self.files += 1
        self.read_bytes += len(data)
        yield path, data

    def notes(self) -> JsonObject:
        notes: JsonObject = {}
        if self.skipped:
            notes["skipped"] = skipped_line(self.skipped, "file")
        if self.too_large:
            notes["not_searched"] = (f"{counted(self.too_large, 'file')} over "
                                     f"{self.limits.file_bytes} bytes")
        if self.stopped:
            notes["stopped"] = f"{self.stopped}; the results are partial"
        return notes


def list_directory(boundary: FileBoundary, path: str, shown: str) -> JsonObject:
    """The entries of ``path`` that pass the boundary; secret ones are named as skipped."""
    try:
        with os.scandir(path) as it:
            entries = []
            for entry in it:
                entries.append(entry)
                if len(entries) >= MAX_SCAN:
                    break
    except NotADirectoryError:
        raise ExecutionFailed(f"{shown}: not a directory") from None
    except OSError as exc:
        raise ExecutionFailed(f"{shown}: {exc.strerror}") from None
    entries.sort(key=lambda e: e.name)
    real_folder = os.path.realpath(path)
    listed: list[JsonValue] = []
    skipped: list[str] = []
    for entry in entries:
        real = (os.path.realpath(entry.path) if entry.is_symlink()
                else os.path.join(real_folder, entry.name))
        info: os.stat_result | None
        target: os.stat_result | None
        try:
            info = entry.stat(follow_symlinks=False)
            target = os.stat(real) if entry.is_symlink() else info
        except OSError:
            info = target = None
        if boundary.entry_secret(entry.path, real) or (
                target is not None and boundary.hard_link_secret(target)):
            skipped.append(entry.name + ("/" if target and stat.S_ISDIR(target.st_mode) else ""))
            continue
        if len(listed) < MAX_LIST:
            listed.append({"name": entry.name, "type": kind_of(info.st_mode) if info else
                           "unknown", "size": info.st_size if info else 0})
    result: JsonObject = {"path": shown, "entries": listed}
    hidden = len(entries) - len(skipped) - len(listed)
    if hidden > 0 or len(entries) >= MAX_SCAN:
        result["truncated"] = (f"{hidden} more {plural(hidden, 'entry')} not shown"
                               if len(entries) < MAX_SCAN
                               else f"only the first {MAX_SCAN} entries were looked at")
    if skipped:
        result["skipped"] = skipped_line(skipped, "entry")
    return result


def listing(boundary: FileBoundary, where: str, cwd: str) -> ToolOutput:
    path = boundary.resolve(where, cwd)
    boundary.require_read(where, cwd)
    result = list_directory(boundary, path, os.path.normpath(path))
    entries = result["entries"]
    count = len(entries) if isinstance(entries, list) else 0
    summary = f"{count} entries" + (" · " + str(result["skipped"]).split(":")[0]
                                    if "skipped" in result else "")
    return ToolOutput(json.dumps(result), summary=summary, truncated="truncated" in result)
