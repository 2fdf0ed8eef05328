"""Project instructions: AGENTS.md files in the system prompt, under a visible byte budget.

Which files: the user's own ``$XDG_CONFIG_HOME/swebash/AGENTS.md`` first (personal rules),
then one file per directory from the git root down to the cwd, root first, so the most specific
rules come last and win. In a directory without ``AGENTS.md``, ``CLAUDE.md`` and then
``GEMINI.md`` stand in (projects written for those tools work unchanged). Outside a git
repository only the cwd is looked at — walking up to ``/`` would pick up strangers' files.

Files are read on every question, so an edit applies at once; reading a few small files costs
well under a millisecond. The text is redacted like everything the model sees. When the files
exceed the budget (``[ai] instructions_budget``, 32 KB by default) the budget goes to the
nearest files first — the cwd's, then each parent's up to the git root, then the user's own
file — so the most specific rules stay whole and the farthest file is the one cut (its head
kept) or left out. ``ai context`` says so file by file, and the question says once, in a
notice, that something was cut: a silently truncated instruction file is worse than none.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path

from swebash import workspace
from swebash.safety.base import Redactor

NAMES = ("AGENTS.md", "CLAUDE.md", "GEMINI.md")
MAX_FILE = 1024 * 1024  # a larger "instruction file" is not one; read only its head


@dataclass(frozen=True)
class UsedFile:
    path: str
    size: int  # bytes in the file
    used: int  # bytes that went into the prompt
    skipped: bool = False  # nothing of it fit

    @property
    def cut(self) -> bool:
        return self.used < self.size


@dataclass(frozen=True)
class Instructions:
    text: str = ""  # the section for the system prompt ("" when there are no files)
    files: tuple[UsedFile, ...] = field(default_factory=tuple)
    budget: int = 0

    @property
    def cut(self) -> bool:
        return any(f.cut for f in self.files)

    def cut_notice(self) -> str:
        """One line for the question when the budget cut something ("" when nothing was)."""
        if not self.cut:
            return ""
        parts = [f"{f.path} left out" if f.skipped else f"{f.path} cut to {f.used} of {f.size} "
                 "bytes" for f in self.files if f.cut]
        return (f"project instructions over their {self.budget} byte budget: "
                + "; ".join(parts) + " (nearer files kept whole; ai context shows them)")

    def describe(self) -> str:
        """For ``ai context``: which files, how much of each, and whether anything was cut."""
        if not self.files:
            return ("Project instructions: none (AGENTS.md from the git root down to this "
                    "directory, or ~/.config/swebash/AGENTS.md)")
        used = sum(f.used for f in self.files)
        lines = [f"Project instructions ({used} of {self.budget} bytes budget"
                 + (", SOME TEXT WAS CUT" if self.cut else "") + "):"]
        for f in self.files:
            state = ("left out: over budget" if f.skipped else
                     f"cut to {f.used} of {f.size} bytes" if f.cut else f"{f.size} bytes")
            lines.append(f"  {f.path}  ({state})")
        return "\n".join(lines)


def git_root(cwd: Path) -> Path | None:
    root = workspace.git_root(str(cwd))
    return None if root is None else Path(root)


def candidate_dirs(cwd: Path) -> list[Path]:
    """The directories whose instruction file counts, root first."""
    root = git_root(cwd)
    if root is None:
        return [cwd]
    dirs = [cwd]
    while dirs[-1] != root:
        dirs.append(dirs[-1].parent)
    return list(reversed(dirs))


def instruction_file(directory: Path) -> Path | None:
    for name in NAMES:
        path = directory / name
        if path.is_file():
            return path
    return None


def find_files(cwd: str, user_file: Path | None) -> list[Path]:
    found: list[Path] = []
    if user_file is not None and user_file.is_file():
        found.append(user_file)
    try:
        here = Path(os.path.realpath(cwd))
    except OSError:
        return found
    for directory in candidate_dirs(here):
        path = instruction_file(directory)
        if path is not None and path not in found:
            found.append(path)
    return found


def read_head(path: Path) -> bytes | None:
    try:
        with open(path, "rb") as handle:
            return handle.read(MAX_FILE)
    except OSError:
        return None


def load_instructions(cwd: str, user_file: Path | None, budget: int,
                      redactor: Redactor | None = None) -> Instructions:
    read: list[tuple[Path, bytes, int]] = []
    for path in find_files(cwd, user_file):
        data = read_head(path)
        if data is not None:
            try:
                size = max(len(data), path.stat().st_size)
            except OSError:
                size = len(data)
            read.append((path, data, size))
    # The budget is spent nearest first (the list is farthest first: user, root … cwd).
    taken: dict[Path, bytes] = {}
    room = max(0, budget)
    for path, data, _ in reversed(read):
        taken[path] = data[:room]
        room -= len(taken[path])
    files: list[UsedFile] = []
    blocks: list[str] = []
    for path, _, size in read:  # shown root first: the most specific rules come last
        part = taken[path]
        if not part:
            files.append(UsedFile(str(path), size, 0, skipped=True))
            continue
        text = part.decode("utf-8", "ignore")  # a cut may split a character: drop it
        if redactor is not None:
            text = redactor.redact(text)
        files.append(UsedFile(str(path), size, len(part)))
        marker = "\n[… cut: over the instructions budget]" if len(part) < size else ""
        blocks.append(f"--- {path} ---\n{text.rstrip()}{marker}")
    if not blocks:
        return Instructions(files=tuple(files), budget=budget)
    text = ("Instructions from the user and the project (AGENTS.md files; later, more specific "
            "files take precedence). Follow them unless they conflict with safety:\n\n"
            + "\n\n".join(blocks))
    return Instructions(text, tuple(files), budget)
