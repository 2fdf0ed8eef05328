"""TerminalRenderer: events in order, text flushed before panels, spinners stopped."""

from __future__ import annotations

import asyncio
import io
import json
import os

from rich.console import Console

from swebash.api import (
    ConfirmAnswer,
    ConfirmRequest,
    Delta,
    Done,
    Error,
    ToolCallEnd,
    ToolCallStart,
    ToolExecuting,
    Usage,
    Verdict,
)
from swebash.render.events import TerminalRenderer


def test_text_before_a_tool_is_printed_before_its_panel() -> None:
    console = Console(file=io.StringIO(), width=80, force_terminal=False)
    renderer = TerminalRenderer(console)
    renderer.begin_turn()
    for event in [Delta("Checking the **dir**"), Delta(" first."),
                  ToolCallStart("execute_command", {}, description="$ ls"),
                  ToolExecuting("execute_command"),
                  ToolCallEnd("execute_command", json.dumps({"exit_code": 0, "stdout": "a\n"}),
                              True, 4),
                  Delta("Found `a`.\n"), Usage(1, 2), Done("Found `a`.")]:
        renderer.handle(event)
    text = console.file.getvalue()  # type: ignore[attr-defined]
    order = [text.index(s) for s in ("Checking the dir first.", "exit 0", "$ ls", "Found a.")]
    assert order == sorted(order)
    assert not renderer.spinner.active


def test_error_flushes_text_and_stops_spinner_on_a_terminal() -> None:
    console = Console(file=io.StringIO(), width=80, force_terminal=True, color_system=None)
    renderer = TerminalRenderer(console)
    renderer.begin_turn()
    assert renderer.spinner.active
    renderer.handle(Delta("partial answer"))
    assert not renderer.spinner.active
    renderer.handle(Error("stream interrupted"))
    text = console.file.getvalue()  # type: ignore[attr-defined]
    assert text.index("partial answer") < text.index("✗ stream interrupted")


def test_confirm_hook_declines_without_a_tty() -> None:
    console = Console(file=io.StringIO(), width=100, force_terminal=False)
    renderer = TerminalRenderer(console)
    read_fd, write_fd = os.pipe()
    try:
        hook = renderer.confirm_hook(read_fd)
        request = ConfirmRequest("execute_command", "$ rm x", Verdict("ask", True, ("deletes",)),
                                 command="rm x")
        assert asyncio.run(hook(request)) is ConfirmAnswer.NO
    finally:
        os.close(read_fd)
        os.close(write_fd)
    assert console.file.getvalue() == "⚠ run: rm x — deletes  [y/N] no\n"  # type: ignore[attr-defined]
