"""Path checks for a command's words: the path guard applied from every directory the command
may be in (``cd x && cat y``), globs expanded within the time budget, and the write policy
for targets."""

from __future__ import annotations

import fnmatch
import os
import re

from swebash.safety.classify.model import Findings
from swebash.safety.paths import (
    HOME_READS,
    check_path,
    expand,
    read_place,
    within,
)

__all__ = ["bounded_glob", "class_path", "code_files", "expand", "globbed", "read_path",
           "resolved", "write_target"]

GLOB_CHARS = frozenset("*?[")
MAX_GLOB = 200
MAX_SCANS = 400  # directories one glob may read


def read_path(f: Findings, path: str, *, place: bool = True) -> None:
    """Deny reading a secret; a relative path is judged from every possible cwd. ``place``:
    also judge where the read lands (the working tree and the system's directories are
    known good; the rest of the home asks) — off for reads that only summarise a file."""
    if not path:
        return
    cwds = f.cwds
    if cwds is None:
        if not (os.path.isabs(path) or path.startswith("~")):
            f.ask(f"reads {path} after changing to a directory known only at run time")
            return
        cwds = [f.cwd]
    for cwd in dict.fromkeys(cwds):
        for candidate in globbed(f, path, cwd):
            key = (candidate, cwd)
            verdict = f.verdicts.get(key)
            if verdict is None:  # the same file read twice in one line is judged once
                verdict = f.verdicts[key] = check_path(candidate, cwd, f.home, write=False)
            if verdict.decision == "deny" and verdict.dangerous:
                f.deny(verdict.reasons[0])
                return
            if verdict.decision == "ask":
                f.ask(verdict.reasons[0])
            elif place:
                if key in f.places:
                    where = f.places[key]
                else:
                    where = f.places[key] = read_place(candidate, cwd, f.home, f.work_tree())
                if where is not None:
                    f.ask(*where)


def globbed(f: Findings, path: str, cwd: str) -> list[str]:
    """A glob is judged by what it matches now (and by its own spelling)."""
    if not GLOB_CHARS & set(path):
        return [path]
    full = expand(path, cwd, f.home)
    matches = bounded_glob(f, full)
    if matches is None:
        # what it matches was not all seen: only the working tree's own files are known good
        f.ask(f"reads a glob too large to check: {path[:60]}", not in_tree(f, full))
        return [path]
    return [path, *matches]


# where installed code lives: the system's program and library directories and the home's
# toolchains and package caches — not /dev/shm, /proc, /var/spool or /root, which anyone or
# anything may have written
INSTALLED = ("/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32", "/opt", "/etc",
             "/snap", "/nix/store", "/run/current-system")


def code_from(f: Findings, label: str, path: str, dynamic: bool = False) -> None:
    """A script, makefile or module file a program will run: the working tree's own code and
    installed code (``INSTALLED``, the home's toolchains) are what the other rules judge;
    code from anywhere else (``bash /tmp/x.sh``, ``make -f ~/Downloads/x.mk``) is unknown —
    nothing here says what it does."""
    if dynamic or path in ("-", "/dev/stdin") or "://" in path:
        return  # judged by the caller (run-time names, input, URLs)
    installed = [*INSTALLED, *(os.path.join(f.home, d) for d in HOME_READS)]
    for full in resolved(f, path):
        if not in_tree(f, full) and not any(within(full, d) for d in installed):
            f.ask_unknown(f"{label}: runs code from {path[:40]}, outside the working tree")
            return


def resolved(f: Findings, path: str) -> list[str]:
    """The real path ``path`` names from each directory the line may be in by then."""
    return [os.path.realpath(expand(path, cwd, f.home)) for cwd in f.cwds or [f.cwd]]


# files a runner takes as the program (`go run x.go`, `deno run x.ts`, `bun x.ts`)
SOURCE_FILE = re.compile(r"\.(go|[cm]?[jt]sx?|py|rb|php|pl|lua|jar|java|kts?|groovy|scala|"
                         r"swift|wasm|sh)$")


def code_files(f: Findings, label: str, words: list[str], dynamic: list[bool]) -> None:
    """The words of a runner's verb that name a program file or a directory of one (they
    hold a ``/`` or a source file's extension): each is judged by where it comes from."""
    for k, (word, dyn) in enumerate(zip(words, dynamic, strict=True)):
        if k and words[k - 1] in OUTPUT_OPTIONS:
            continue  # where the build goes, judged as a write by the runner's rules
        if not word.startswith("-") and "://" not in word and (
                "/" in word or SOURCE_FILE.search(word)):
            code_from(f, label, word, dyn)


OUTPUT_OPTIONS = frozenset({"-o", "--output", "--outfile", "--out-dir", "--outdir"})


def class_path(f: Findings, label: str, value: str, dynamic: bool) -> None:
    """A Java class path: each entry (``a.jar:lib/*:classes``) is code that runs."""
    for entry in value.split(":"):
        if entry:
            code_from(f, label, entry.removesuffix("/*").removesuffix("*") or ".", dynamic)


def in_tree(f: Findings, path: str) -> bool:
    """``path`` lies in the working tree, and that tree is neither the home nor ``/``."""
    tree = f.work_tree().rstrip("/")
    return bool(tree) and tree != f.home.rstrip("/") and within(path, tree)


def bounded_glob(f: Findings, pattern: str) -> list[str] | None:
    """Expand ``pattern`` one path component at a time, checking the time budget at every
    directory read and giving up (None) past ``MAX_GLOB`` matches or ``MAX_SCANS``
    directories — ``/*/*/*/*/x`` never walks the disk. Dot-files match only a component
    that starts with a dot, as in bash."""
    parts = [p for p in pattern.split("/") if p]
    paths = ["/"]
    scans = 0
    for index, part in enumerate(parts):
        last = index == len(parts) - 1
        if not GLOB_CHARS & set(part):
            paths = [os.path.join(p, part) for p in paths]
            continue
        found: list[str] = []
        for directory in paths:
            scans += 1
            if scans > MAX_SCANS:
                return None
            f.tick()
            try:
                with os.scandir(directory) as entries:
                    names = [e.name for e in entries if last or e.is_dir()]
            except OSError:
                continue
            for name in names:
                if name.startswith(".") and not part.startswith("."):
                    continue
                if fnmatch.fnmatchcase(name, part):
                    found.append(os.path.join(directory, name))
                    if len(found) > MAX_GLOB:
                        return None
        paths = found
    return [p for p in paths if os.path.lexists(p)]


def write_target(f: Findings, path: str, what: str, *, overwrite_is_dangerous: bool = True
                 ) -> None:
    """Judge writing ``path`` from every directory the command may be in by then."""
    cwds = f.cwds
    if cwds is None:
        if not (os.path.isabs(path) or path.startswith("~")):
            f.ask(f"{what}: writes {path[:40]} in a directory known only at run time", True)
            return
        cwds = [f.cwd]
    for cwd in dict.fromkeys(cwds):
        verdict = check_path(path, cwd, f.home, write=True)
        if verdict.decision == "deny":
            f.deny(verdict.reasons[0])
            return
        if overwrite_is_dangerous and os.path.isfile(expand(path, cwd, f.home)):
            f.ask(f"{what}: overwrites an existing file ({path[:40]})", dangerous=True)
        f.writes_outside.extend(verdict.writes_outside)
        if verdict.dangerous:
            for reason in verdict.reasons:
                f.ask(reason if cwd == f.cwd else f"{reason} (after a cd)", dangerous=True)
