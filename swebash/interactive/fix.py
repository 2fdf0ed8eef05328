"""`?fix` (or Ctrl-X Ctrl-F): a corrected version of the last failed command, placed in the
next prompt, editable and not run.

The request sent through ``AiService.translate`` carries the command, its exit status, its
directory and the tail of its output (already ANSI-stripped and bounded by the command
context; secrets are redacted by the service like every request). The corrected command is
taken whole (a multi-line fix stays whole, as a `??` proposal does) and its explanation is
printed above the prompt; a proposal the safety gate calls dangerous is flagged in red with
its reasons by the same code as for `??` (``AiFrontend.translate``), and is still only placed
in the buffer — nothing runs until Enter.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from swebash.api import CommandRecord, TerminalContext

if TYPE_CHECKING:
    from swebash.interactive.ai_session import AiFrontend

FIX_KEY = ("c-x", "c-f")  # unbound in readline's and prompt-toolkit's emacs maps
TAIL_LINES = 30
TAIL_CHARS = 4000


def last_command(context: TerminalContext) -> CommandRecord | None:
    recent = context.recent_commands(1)
    return recent[-1] if recent else None


def fix_request(record: CommandRecord, hint: str = "") -> str:
    lines = record.output_tail.rstrip("\n").split("\n")[-TAIL_LINES:]
    tail = "\n".join(lines)[-TAIL_CHARS:]
    parts = [
        "This shell command failed; give the corrected command that does what the user meant "
        "(fix typos in command names, options and paths; keep everything else).",
        f"Command: {record.command}",
        f"Exit status: {record.exit_status}",
        f"Directory: {record.cwd}",
        "Output (last lines):",
        tail or "(no output)",
    ]
    if hint:
        parts.append(f"User's hint: {hint}")
    return "\n".join(parts)


def propose_fix(frontend: AiFrontend, context: TerminalContext, hint: str = "") -> str | None:
    """Ask for the fix; return the command for the buffer. ``frontend.translate`` prints the
    explanation and, like for `??`, the gate's warning when the proposal is dangerous."""
    record = last_command(context)
    if record is None:
        print("swebash: ?fix: no command to fix yet")
        return None
    if record.exit_status == 0:
        print(f"swebash: ?fix: the last command succeeded: {record.command}")
        return None
    return frontend.translate(fix_request(record, hint)) or None
