"""PlainPrinter: the answer on stdout as it arrives, tool events one line each on stderr."""

from __future__ import annotations

import io
import json

from swebash.api import (
    Delta,
    Done,
    Error,
    Notice,
    Retrying,
    ToolCallEnd,
    ToolCallStart,
    ToolExecuting,
    Usage,
)
from swebash.render.plain import PlainPrinter


def run(events: list[object]) -> tuple[str, str]:
    out, err = io.StringIO(), io.StringIO()
    printer = PlainPrinter(out, err)
    for event in events:
        printer.handle(event)  # type: ignore[arg-type]
    return out.getvalue(), err.getvalue()


def test_turn_with_a_tool() -> None:
    out, err = run([
        Delta("Let me "), Delta("look."),
        ToolCallStart("execute_command", {"command": "ls -la"}, description="$ ls -la"),
        ToolExecuting("execute_command"),
        ToolCallEnd("execute_command", json.dumps({"exit_code": 0, "stdout": "a\nb\nc\n"}),
                    True, 12.4),
        Delta("Three **files**."), Usage(10, 5), Done("Three **files**."),
    ])
    assert out == "Let me look.\nThree **files**.\n"
    assert err == "[tool] $ ls -la\n[tool] exit 0 · 3 lines · 12 ms\n"
    assert "\x1b" not in out + err


def test_errors_retries_and_failed_tools() -> None:
    out, err = run([
        Retrying(2, 1.0, "rate limited"),
        ToolCallStart("read_file", {"path": "x"}, description="read x"),
        ToolCallEnd("read_file", json.dumps({"error": "not found"}), False, 3,
                    summary="not found"),
        ToolCallEnd("execute_command", json.dumps({"exit_code": 0, "stdout": "x",
                                                   "truncated": True}), True, 5),
        Delta("partial"), Error("provider unreachable"),
    ])
    assert err.splitlines() == [
        "[retry] attempt 2 in 1.0 s: rate limited",
        "[tool] read x",
        "[tool] ✗ failed · 3 ms: not found",
        "[tool] exit 0 · 1 line · 5 ms · truncated",
        "[error] provider unreachable",
    ]
    assert out == "partial\n"


def test_done_adds_newline_only_when_needed_and_prints_unstreamed_reply() -> None:
    assert run([Delta("line\n"), Done("line\n")])[0] == "line\n"
    assert run([Done("whole reply")])[0] == "whole reply\n"
    assert run([Done("")])[0] == ""


def test_control_characters_never_reach_the_terminal() -> None:
    out, err = run([Delta("a\x1b[2Jb\rc\td\n"),
                    ToolCallStart("execute_command", {}, description="$ echo \x1b]0;x\x07")])
    assert out == "a[2Jbc\td\n"
    assert "\x1b" not in err and "\x07" not in err


def test_notices_go_to_stderr_never_into_the_answer() -> None:
    out, err = run([Delta("Half"), Notice("sandbox unavailable (no \x1b[31mbackend)"),
                    Delta(" done."), Done("Half done.")])
    assert "sandbox" not in out and "Half" in out
    assert "[note] sandbox unavailable (no \\x1b[31mbackend)\n" in err


def test_parallel_results_name_their_call_while_several_are_outstanding() -> None:
    ok = json.dumps({"exit_code": 0, "stdout": "x\n"})
    _, err = run([
        ToolCallStart("execute_command", {}, "$ sleep 2", "c0"),
        ToolCallStart("execute_command", {}, "$ echo fast", "c1"),
        ToolCallEnd("execute_command", ok, True, 3, "c1"),  # finished first
        ToolCallEnd("execute_command", ok, True, 2000, "c0"),
    ])
    assert err.splitlines() == ["[tool] $ sleep 2", "[tool] $ echo fast",
                                "[tool] $ echo fast → exit 0 · 1 line · 3 ms",
                                "[tool] exit 0 · 1 line · 2.0 s"]
