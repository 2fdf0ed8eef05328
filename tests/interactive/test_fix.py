"""?fix: routing, and the request built from the failed command's record."""

from __future__ import annotations

from swebash.api import CommandRecord
from swebash.interactive.fix import fix_request
from swebash.router import Fix, ShellLine, route


def test_routing() -> None:
    assert route("?fix") == Fix("")
    assert route("  ?fix use sudo ") == Fix("use sudo")
    assert route("?fixme") == ShellLine("?fixme")


def test_request_carries_command_status_and_output_tail() -> None:
    output = "\n".join(f"line {i}" for i in range(100)) + "\nbash: gti: command not found\n"
    record = CommandRecord(command="gti status", cwd="/repo", exit_status=127, started_at=0.0,
                           duration_ms=3.0, output_tail=output)
    text = fix_request(record, hint="it is git")
    assert "Command: gti status" in text and "Exit status: 127" in text
    assert "Directory: /repo" in text and "gti: command not found" in text
    assert "line 99" in text and "line 10\n" not in text  # only the tail
    assert "User's hint: it is git" in text
