"""What the model sees of the terminal: recent commands with status and output tails.

Everything passes through the redactor and stays within a character budget: newest commands
first get room; older ones are dropped, and long output tails are cut from their head.
"""

from __future__ import annotations

from collections.abc import Sequence

from swebash.api import CommandRecord, TerminalContext
from swebash.safety.base import Redactor

DEFAULT_BUDGET = 12_000
TAIL_PER_COMMAND = 3_000


def format_record(record: CommandRecord, tail_budget: int) -> str:
    head = f"$ {record.command}    # cwd {record.cwd}, exit {record.exit_status}, " \
           f"{record.duration_ms / 1000:.1f} s"
    if record.fullscreen:
        return head + "\n(full-screen program; screen not recorded)"
    tail = record.output_tail.rstrip("\n")
    if len(tail) > tail_budget:
        tail = "… " + tail[-tail_budget:]
    elif record.truncated and tail:
        tail = "… " + tail
    return head + ("\n" + tail if tail else "")


def render_commands(records: Sequence[CommandRecord], budget: int) -> str:
    blocks: list[str] = []
    used = 0
    for record in reversed(records):
        block = format_record(record, min(TAIL_PER_COMMAND, max(0, budget - used - 200)))
        if used + len(block) > budget and blocks:
            break
        blocks.append(block)
        used += len(block) + 1
    return "\n".join(reversed(blocks))


def terminal_context_text(terminal: TerminalContext | None, redactor: Redactor, limit: int,
                          budget: int = DEFAULT_BUDGET) -> str:
    if terminal is None or limit <= 0:
        return ""
    return redactor.redact(render_commands(terminal.recent_commands(limit), budget))
