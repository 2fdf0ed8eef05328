from __future__ import annotations

from swebash.api import CommandRecord
from swebash.shell.context import CommandContext, OutputTail


def record(command: str, tail: str = "") -> CommandRecord:
    return CommandRecord(command, "/tmp", 0, 0.0, 1.0, tail)


def test_ring_is_bounded_and_skips_leading_space() -> None:
    ctx = CommandContext(lambda: "/tmp", lambda: {}, limit=3)
    for n in range(5):
        ctx.add(record(f"cmd{n}"))
    ctx.add(record(" secret-command"))
    assert [r.command for r in ctx.recent_commands(10)] == ["cmd2", "cmd3", "cmd4"]
    assert [r.command for r in ctx.recent_commands(1)] == ["cmd4"]
    assert ctx.recent_commands(0) == []


def test_tail_strips_ansi_and_bounds_lines() -> None:
    tail = OutputTail()
    tail.add(b"\x1b[31mred\x1b[0m\r\n")
    for n in range(300):
        tail.add(f"line {n}\r\n".encode())
    text, truncated = tail.text()
    assert truncated and "\x1b" not in text
    assert text.splitlines()[-1] == "line 299" and len(text.splitlines()) <= 200


def test_tail_bytes_bounded() -> None:
    tail = OutputTail()
    tail.add(b"x" * 100_000)
    text, truncated = tail.text()
    assert truncated and len(text) <= 16 * 1024


def test_fullscreen_output_not_recorded() -> None:
    tail = OutputTail()
    tail.add(b"\x1b[?1049hSCREEN DUMP\x1b[?1049l")
    assert tail.fullscreen and tail.text() == ("", False)
