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
    order = [text.index(s) for s in ("Checking the dir first.", "$ ls", "exit 0", "Found a.")]
    assert order == sorted(order)
    assert not renderer.spinner.active
    # The answer goes on below the tool's rows, set apart by a blank row.
    assert "\n  a\n\nFound a." in text


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
    assert console.file.getvalue() == "⚠ DANGEROUS run: rm x — deletes  [y/N] no\n"  # type: ignore[attr-defined]


def test_the_spinner_comes_back_counting_when_the_model_goes_quiet() -> None:
    # A 9 KB write_file argument streams for seconds with no text: something must move.
    import time as real_time

    from swebash.render.terminal import LiveTerminal

    now = [1000.0]
    console = Console(file=io.StringIO(), width=80, height=20, force_terminal=True,
                      color_system=None)
    terminal = LiveTerminal(console, clock=lambda: now[0], tick_seconds=0.005)
    renderer = TerminalRenderer(console, terminal=terminal)
    renderer.begin_turn()
    renderer.handle(Delta("I will write the file now.\n\n"))
    assert not renderer.spinner.active
    now[0] += 13.0
    deadline = real_time.monotonic() + 30
    while "thinking… · 13 s" not in console.file.getvalue():  # type: ignore[attr-defined]
        assert real_time.monotonic() < deadline, "the ticker never showed the spinner"
        real_time.sleep(0.01)
    renderer.handle(ToolCallStart("write_file", {}, description="write big.txt (200 lines)"))
    renderer.end_turn()
    assert not renderer.spinner.active


def test_no_spinner_is_drawn_after_a_question_waiting_for_its_key() -> None:
    from swebash.render.terminal import LiveTerminal

    now = [0.0]
    console = Console(file=io.StringIO(), width=80, height=20, force_terminal=True,
                      color_system=None)
    renderer = TerminalRenderer(console, terminal=LiveTerminal(console, clock=lambda: now[0]))
    renderer.begin_turn()
    seen: list[bool] = []
    request = ConfirmRequest("execute_command", "$ touch x", Verdict("ask"), command="touch x")

    def ask(*args: object, **kwargs: object) -> ConfirmAnswer:
        now[0] += 30  # the user thinks for half a minute
        renderer._idle()  # what the ticker does meanwhile
        seen.append(renderer.spinner.active)
        return ConfirmAnswer.NO

    import swebash.render.events as events

    real = events.ask_confirm
    events.ask_confirm = ask  # type: ignore[assignment]
    try:
        assert renderer.confirm(request, 0) is ConfirmAnswer.NO
    finally:
        events.ask_confirm = real
        renderer.end_turn()
    assert seen == [False]


def test_three_tool_answer_takes_at_most_16_rows_at_100_columns() -> None:
    # Issue 18: boxed panels took 30 rows for this answer; the target is half.
    from tests.render.scenarios import INTRO, three_tool_turn
    from tests.render.screen import replay

    console = Console(file=io.StringIO(), width=100, height=40, force_terminal=True,
                      color_system="256")
    from swebash.render.terminal import LiveTerminal

    renderer = TerminalRenderer(console, terminal=LiveTerminal(console, tick_seconds=3600))
    for event in three_tool_turn():
        renderer.handle(event)
    renderer.end_turn()
    rows = replay(console.file.getvalue(), 100, 40)  # type: ignore[attr-defined]
    first = rows.index(INTRO.strip())
    answer = rows[first:]
    assert len(answer) <= 16
    assert answer[1] == "✓ $ git status --short · exit 0 · 35 ms"
    assert "✓ read src/app.py · 120 lines · 1 ms" in answer
    assert "  src/app.py:2: line 2 # TODO maybe  … +118 matches" in answer
    assert answer[-1] == "Start with the first TODO at line 1."


def test_thinking_comes_back_only_when_every_parallel_call_ended() -> None:
    console = Console(file=io.StringIO(), width=80, height=20, force_terminal=True,
                      color_system=None)
    from swebash.render.terminal import LiveTerminal

    renderer = TerminalRenderer(console, terminal=LiveTerminal(console, tick_seconds=3600))
    renderer.begin_turn()
    for number in range(2):
        renderer.handle(ToolCallStart("execute_command", {}, f"$ sleep {number}", f"c{number}"))
    for number in range(2):
        renderer.handle(ToolExecuting("execute_command", f"c{number}"))
    renderer.handle(ToolCallEnd("execute_command", json.dumps({"exit_code": 0}), True, 1,
                                "c0"))
    assert renderer.spinner.line().endswith("running $ sleep 1")
    renderer.handle(ToolCallEnd("execute_command", json.dumps({"exit_code": 0}), True, 1,
                                "c1"))
    assert renderer.spinner.line().endswith("thinking…")
    renderer.end_turn()
