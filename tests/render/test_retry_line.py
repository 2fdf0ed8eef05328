"""Retry notices: one live line, replaced by the next retry, gone when the answer starts —
checked on the real byte stream replayed through a terminal emulator."""

from __future__ import annotations

import io

from rich.console import Console

from swebash.api import Delta, Done, Error, Retrying
from swebash.render.events import TerminalRenderer, retry_label
from swebash.render.terminal import LiveTerminal
from tests.render.screen import replay, terminal_console

REASON = "openai: server error (500): The server had an error while processing your request"


def output(console: Console) -> str:
    value: str = console.file.getvalue()  # type: ignore[attr-defined]
    return value


def renderer_at(width: int) -> tuple[TerminalRenderer, Console]:
    console = terminal_console(width)
    # a clock that never moves: no ticker frame can land between the steps checked here
    return TerminalRenderer(console, terminal=LiveTerminal(console, clock=lambda: 100.0)), console


def test_three_retries_leave_one_line_that_goes_when_the_answer_starts() -> None:
    renderer, console = renderer_at(80)
    renderer.begin_turn()
    for attempt in (1, 2, 3):
        renderer.handle(Retrying(attempt, 4.0, REASON))
        rows = [r for r in replay(output(console), 80) if r]
        assert len(rows) == 1 and f"retry {attempt} in 4 s" in rows[0]  # one row, the latest
        assert "server error (500)" in rows[0]
    renderer.handle(Delta("The answer is 42.\n"))
    renderer.handle(Done("The answer is 42."))
    rows = [r for r in replay(output(console), 80) if r]
    assert rows == ["The answer is 42."]


def test_a_last_failure_replaces_the_retry_line_with_the_error() -> None:
    renderer, console = renderer_at(60)
    renderer.begin_turn()
    renderer.handle(Retrying(1, 0.5, REASON))
    renderer.handle(Error("openai: server error (500): gave up"))
    renderer.end_turn()
    rows = [r for r in replay(output(console), 60) if r]
    assert rows == ["✗ openai: server error (500): gave up"]


def test_the_label_fits_one_row_with_its_countdown() -> None:
    label = retry_label(Retrying(2, 3.0, "x" * 500))
    assert len(label) < 80 and label.endswith("retry 2 in") and "…" in label
    assert retry_label(Retrying(1, 1.0)) == "↻ retry 1 in"


def test_without_a_live_terminal_each_retry_is_a_line() -> None:
    console = Console(file=io.StringIO(), width=80, force_terminal=False)
    renderer = TerminalRenderer(console)
    renderer.handle(Retrying(1, 0.5, "rate limited"))
    assert "retrying (attempt 1)" in output(console)
