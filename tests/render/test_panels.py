"""Tool panels: headers, result summaries, errors in red, notices, spinners."""

from __future__ import annotations

import io
import json

from rich.console import Console

from swebash.api import Error, Retrying, ToolCallEnd, ToolCallStart, ToolExecuting
from swebash.render.panels import Spinner, ToolPanels
from swebash.render.results import view_result
from swebash.render.theme import make_console


def plain_console() -> Console:
    return make_console(io.StringIO(), force_terminal=False, width=80)


def colour_console() -> Console:
    return Console(file=io.StringIO(), width=80, force_terminal=True, color_system="standard")


def output(console: Console) -> str:
    return console.file.getvalue()  # type: ignore[attr-defined]


def end(result: object, *, ok: bool = True, ms: float = 12, summary: str = "") -> ToolCallEnd:
    text = result if isinstance(result, str) else json.dumps(result)
    return ToolCallEnd("execute_command", text, ok, ms, summary=summary)


def test_one_compact_panel_per_call_command_then_result() -> None:
    console = plain_console()
    panels = ToolPanels(console)
    panels.start(ToolCallStart("execute_command", {"command": "ls -la"},
                               description="$ ls -la", call_id="c1"))
    assert output(console) == ""  # drawn once, with its result
    panels.end(ToolCallEnd("execute_command", json.dumps({"exit_code": 0, "stdout": "a\n"}),
                           True, 3, call_id="c1"))
    lines = output(console).splitlines()
    assert "execute_command ✓ exit 0 · 1 line · 3 ms" in lines[0]
    assert "$ ls -la" in lines[1] and "a" in lines[2]
    assert len(lines) == 4


def test_parallel_calls_are_each_labelled_with_their_command() -> None:
    console = plain_console()
    panels = ToolPanels(console)
    for i in range(3):
        panels.start(ToolCallStart("execute_command", {}, description=f"$ echo {i}",
                                   call_id=f"c{i}"))
    for i in range(3):
        panels.end(ToolCallEnd("execute_command",
                               json.dumps({"exit_code": 0, "stdout": f"{i}\n"}), True, 1,
                               call_id=f"c{i}"))
    text = output(console)
    assert [text.index(f"$ echo {i}") for i in range(3)] == sorted(
        text.index(f"$ echo {i}") for i in range(3))
    assert len(text.splitlines()) == 12  # three panels of four lines


def test_label_without_description_falls_back_to_arguments_made_visible() -> None:
    console = plain_console()
    panels = ToolPanels(console)
    panels.start(ToolCallStart("read_file", {"path": "a\x1b[2Jb"}))
    panels.end(ToolCallEnd("read_file", json.dumps({"content": "x"}), True, 1))
    text = output(console)
    assert "read_file" in text and "\x1b" not in text
    assert 'a\\u001b[2Jb' in text  # JSON-escaped, then shown as is


def test_a_failing_command_is_red_and_shows_its_tail() -> None:
    stderr = "".join(f"line {i}\n" for i in range(59)) + "error: the real reason\n"
    result = end({"exit_code": 1, "stdout": "", "stderr": stderr}, ok=True,
                 summary="exit 1 · 61 lines")
    console = plain_console()
    ToolPanels(console).end(result)
    text = output(console)
    assert "✓" not in text and "✗ exit 1 · 60 lines" in text
    assert "error: the real reason" in text and "line 0 " not in text
    assert "… 55 earlier lines" in text  # 5 shown + 55 = 60
    coloured = colour_console()
    ToolPanels(coloured).end(result)
    assert "\x1b[1;31m✗" in output(coloured)


def test_ok_result_summary_with_first_lines() -> None:
    console = plain_console()
    ToolPanels(console).end(end({"exit_code": 0, "stdout": "a\nb\nc\n", "stderr": ""}))
    text = output(console)
    assert "✓ exit 0 · 3 lines · 12 ms" in text
    assert all(f"│ {x} " in text for x in "abc")
    assert "more line" not in text


def test_many_lines_are_cut_with_a_count() -> None:
    console = plain_console()
    stdout = "".join(f"row {i}\n" for i in range(40))
    ToolPanels(console, max_lines=5).end(end({"exit_code": 0, "stdout": stdout}, ms=2500))
    text = output(console)
    assert "row 4" in text and "row 5" not in text
    assert "… 35 more lines" in text
    assert "40 lines · 2.5 s" in text


def test_truncated_marker() -> None:
    console = plain_console()
    ToolPanels(console).end(end({"content": "head\n", "truncated": True}))
    assert "output truncated" in output(console)


def test_error_result_is_red_and_shows_the_error() -> None:
    console = colour_console()
    ToolPanels(console).end(end({"error": "No such file: x.py", "type": "NotFound"}, ok=False))
    text = output(console)
    assert "No such file: x.py" in text
    assert "\x1b[31m" in text or "\x1b[1;31m" in text  # red
    plain = plain_console()
    ToolPanels(plain).end(end({"error": "boom"}, ok=False))
    assert "✗ failed" in output(plain)


def test_tool_summary_wins_and_output_escapes_are_neutralised() -> None:
    console = plain_console()
    result = {"exit_code": 1, "stdout": "\x1b[31mred\x1b[0m\rover\n"}
    ToolPanels(console).end(end(result, ok=False, summary="exit 1 · 1 line"))
    text = output(console)
    assert "exit 1 · 1 line · 12 ms" in text
    assert "\x1b" not in text and "\r" not in text
    assert "red\\rover" in text


def test_non_json_and_search_results() -> None:
    view = view_result(end("plain words\nsecond"))
    assert view.lines == ("plain words", "second")
    hits = [{"title": "Rich", "url": "https://rich.readthedocs.io"}]
    assert view_result(end(hits)).lines == ("Rich — https://rich.readthedocs.io",)
    assert view_result(end({"results": hits})).lines == ("Rich — https://rich.readthedocs.io",)


def test_retry_and_error_notices_are_one_line() -> None:
    console = plain_console()
    panels = ToolPanels(console)
    panels.retrying(Retrying(2, 1.5, "rate limited"))
    panels.error(Error("provider unreachable"))
    lines = output(console).splitlines()
    assert lines == ["↻ retrying (attempt 2) in 1.5 s: rate limited", "✗ provider unreachable"]


def test_spinner_is_silent_off_terminal_and_transient_on_terminal() -> None:
    console = plain_console()
    spinner = Spinner(console)
    spinner.start()
    assert not spinner.active
    spinner.stop()
    assert output(console) == ""

    tty = Console(file=io.StringIO(), width=80, force_terminal=True)
    now = [100.0]
    spinner = Spinner(tty, clock=lambda: now[0])
    panels = ToolPanels(tty, spinner=spinner)
    panels.start(ToolCallStart("execute_command", {}, description="$ make test"))
    panels.executing(ToolExecuting("execute_command"))
    assert spinner.active
    now[0] += 12.3
    spinner.terminal.redraw()
    assert "running $ make test · 12 s" in output(tty)  # the elapsed seconds count up
    panels.end(end({"exit_code": 0, "stdout": "ok\n"}))
    assert not spinner.active
    assert "exit 0" in output(tty)
    spinner.terminal.clear()


def test_retry_wait_counts_down() -> None:
    tty = Console(file=io.StringIO(), width=80, force_terminal=True)
    now = [0.0]
    spinner = Spinner(tty, clock=lambda: now[0])
    ToolPanels(tty, spinner=spinner).retrying(Retrying(2, 5.0))
    assert "retrying in 5 s" in output(tty)
    now[0] += 3
    spinner.terminal.redraw()
    assert "retrying in 2 s" in output(tty)
    spinner.stop()
    spinner.terminal.clear()


def test_a_result_nested_past_the_json_decoder_is_shown_as_text() -> None:
    deep = "[" * 100_000 + "]" * 100_000
    view = view_result(ToolCallEnd("mcp__srv__deep", deep, True, 1.0))
    assert view.ok and view.lines  # no RecursionError: the raw text is the output
