"""Rules over each judged command of a line, in the order bash runs them.

The walker hands every simple command to the dispatcher, which peels wrappers (``sudo``,
``nohup``, ``xargs``, ``find -exec``, ``bash -c``) and records the command it judged in
``Findings.commands``. The families here read those records once each, in order, so a fact
one command leaves (a file it wrote) is there for the commands after it. Their questions are
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
    while f.flowed < len(f.commands):
        index = f.flowed
        f.flowed += 1
        argv = f.commands[index]
        if not argv:
            continue
        first = argv[0]  # no family's program has a path or a version in its name
        if first not in CONCERNED and "/" not in first and not (
                f.notes and (f.notes.get(written.WRITTEN) or f.notes.get(written.UNPACKED))):
            continue
        before = f.asks
        f.window += 1
        try:
            envflow.line_command(f, argv)
            searching.line_command(f, argv)
            written.line_command(f, argv)
        finally:
            f.window -= 1
        f.command_asks[index] += f.asks - before
