"""Hooks for small corners of the coreutils the grammar cannot say: an operand that sets
the clock or the host name, ``stty`` settings, ``mktemp`` creating a file, ``dc``'s ``!``,
``diff -r`` reading whole trees."""

from __future__ import annotations

from collections.abc import Callable

from swebash.safety.classify import roles, terminal
from swebash.safety.classify.checks import code_from, read_path
from swebash.safety.classify.model import Findings
from swebash.safety.classify.parser import Parsed


def date(f: Findings, p: Parsed, depth: int) -> None:
    if any(not a.text.startswith("+") for a in p.operands):
        f.ask("date: an operand that is not +FORMAT sets the clock", True)


def hostname(f: Findings, p: Parsed, depth: int) -> None:
    if p.operands:
        f.ask("hostname: sets the host name", True)


def stty(f: Findings, p: Parsed, depth: int) -> None:
    if any(a.text not in ("size", "speed") for a in p.operands):
        f.ask("stty: changes the terminal settings")


def mktemp(f: Findings, p: Parsed, depth: int) -> None:
    if not p.has("-u", "--dry-run"):
        f.ask("mktemp: creates a temporary file")


def ulimit(f: Findings, p: Parsed, depth: int) -> None:
    if p.operands:
        f.ask("ulimit: changes a resource limit")


def umask(f: Findings, p: Parsed, depth: int) -> None:
    if p.operands:
        f.ask("umask: changes the permissions of files created later")


def dc(f: Findings, p: Parsed, depth: int) -> None:
    scripts = p.values("-e", "--expression")
    if any("!" in s for s in scripts):
        f.ask("dc: '!' runs a shell command", True)
    if p.operands or not scripts:
        f.ask("dc: runs a dc program from a file or its input")


def diff(f: Findings, p: Parsed, depth: int) -> None:
    """``diff -r`` reads every file under both trees."""
    if not p.has("-r", "--recursive"):
        return
    for arg in p.operands:
        if arg.dynamic:
            f.ask("diff: compares a tree known only at run time")
        else:
            roles.tree(f, "diff", arg.text, hidden=True)


def source(f: Findings, p: Parsed, depth: int) -> None:
    """``source FILE``: the file runs in the shell; ``source <(…)`` runs another command's
    output."""
    words = list(zip(p.argv[1:], p.dynamic[1:], strict=True))
    dangerous = any(d and w.startswith(("<(", "$(")) for w, d in words)
    f.ask(f"{p.name}: runs a script in the shell", dangerous)
    for word, dynamic in words[:1]:
        if not dynamic:
            read_path(f, word)
            code_from(f, p.name, word)


def echo(f: Findings, p: Parsed, depth: int) -> None:
    terminal.printed(f, p.name, p.argv[1:])


HOOKS: dict[str, Callable[[Findings, Parsed, int], None]] = {
    "source": source, "echo": echo,
    "date": date, "hostname": hostname, "stty": stty, "mktemp": mktemp, "ulimit": ulimit,
    "umask": umask, "dc": dc, "diff": diff,
}
