"""Keys typed at the first prompt before the line editor was up (interactive/firstprompt.py):
what follows the first Enter reaches the command that line runs, as late after its start as it
was typed after the Enter."""

from __future__ import annotations

import time

from swebash.interactive.firstprompt import EarlyPrompt
from tests.shell.conftest import Harness


def early_prompt_with(pieces: list[tuple[float, bytes]]) -> EarlyPrompt:
    early = EarlyPrompt.__new__(EarlyPrompt)  # (no terminal to draw on: only the keys)
    early.typed = bytearray()
    early.arrivals = []
    for when, data in pieces:
        early.arrivals.append((len(early.typed), when))
        early.typed += data
    return early


def test_keys_after_the_enter_keep_their_delay_and_their_pieces() -> None:
    early = early_prompt_with([(10.0, b"sleep 6"), (10.1, b"0\rab"), (10.4, b"\x1a"),
                               (10.5, b"cd")])
    enter = bytes(early.typed).index(b"\r") + 1
    after = early.after(enter)
    assert [(round(delay, 3), keys) for delay, keys in after] == [
        (0.0, b"ab"), (0.3, b"\x1a"), (0.4, b"cd")]
    assert early.after(len(early.typed)) == []


def test_a_ctrl_z_typed_after_enter_stops_the_command_once_it_runs(shell: Harness) -> None:
    shell.session.keys_after_enter = [(0.5, b"\x1a")]
    started = time.monotonic()
    status, out = shell.run("sleep 30")
    assert status == 148 and "Stopped" in out  # 128 + SIGTSTP, as bash reports it
    assert time.monotonic() - started < 10
    shell.run("kill %1")


def test_keys_still_due_when_the_command_ends_wait_for_the_next_prompt(shell: Harness) -> None:
    shell.session.keys_after_enter = [(30.0, b"echo later\r")]
    status, _ = shell.run("true")
    assert status == 0 and shell.session.take_typeahead() == "echo later\n"
