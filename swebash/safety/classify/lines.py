"""Rules over each judged command of a line, in the order bash runs them.

The walker hands every simple command to the dispatcher, which peels wrappers (``sudo``,
``nohup``, ``xargs``, ``find -exec``, ``bash -c``) and records the command it judged in
``Findings.commands``. The families here read those records once each, in order, so a fact
one command leaves (a file it wrote) is there for the commands after it. They run at a
``cd`` (for the commands before it, in the directory they ran in) and once at the end of the
walk, not after every command: a 1 KB pipeline has sixty. Their questions are
counted against the command that raised them, so a user's allow rule for that command lifts
a question that is not dangerous, as it lifts the command's own.
"""

from __future__ import annotations

from swebash.safety.classify import envflow, searching, written
from swebash.safety.classify.model import Findings

# the programs some family has a rule for (a 1 KB pipeline of others costs a set lookup each)
CONCERNED = envflow.NAMERS | searching.FINDERS | written.WRITERS


def after(f: Findings) -> None:
    """Apply the line families to every command recorded since the last call."""
    commands = f.commands
    while f.flowed < len(commands):
        index = f.flowed
        f.flowed += 1
        argv = commands[index]
        # no family's program has a path or a version in its name
        if not argv or (argv[0] not in CONCERNED and "/" not in argv[0] and not (
                f.notes and (written.WRITTEN in f.notes or written.UNPACKED in f.notes))):
            continue
        apply(f, index, argv)


def apply(f: Findings, index: int, argv: list[str]) -> None:
    """The families on one recorded command; its questions count against it."""
    before = f.asks
    f.window += 1
    try:
        envflow.line_command(f, argv)
        searching.line_command(f, argv)
        written.line_command(f, argv)
    finally:
        f.window -= 1
    f.command_asks[index] += f.asks - before
