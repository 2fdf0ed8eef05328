"""The live region cannot lose or double a line: real byte streams replayed through pyte.

Each test streams an answer through ``MarkdownStream`` on a terminal ``Console`` the way the
REPL does, then feeds every byte written to a terminal emulator and compares scrollback + screen
with one rich render of the whole text — at several widths, chunkings, and with other threads
redrawing the live region while blocks are committed (the race that lost blocks in a pty).
"""

from __future__ import annotations

import random
import threading

import pytest

from swebash.render.stream import MarkdownStream
from swebash.render.terminal import ERASE_BELOW, SYNC_BEGIN, SYNC_END, LiveTerminal
from tests.render.screen import LONG_ANSWER, render_once, replay, terminal_console

PROMPT = "~/project $ ? why doesn't git push work\n"


def chunks(text: str, size: int) -> list[str]:
    return [text[i:i + size] for i in range(0, len(text), size)]


def random_chunks(text: str, seed: int) -> list[str]:
    rnd = random.Random(seed)
    out, i = [], 0
    while i < len(text):
        n = rnd.randint(1, 40)
        out.append(text[i:i + n])
        i += n
    return out


def stream_through(width: int, pieces: list[str], *, racers: int = 0, height: int = 24,
                   tick: float = 0.1, clock_step: float | None = None) -> tuple[str, LiveTerminal]:
    console = terminal_console(width, height)
    console.file.write(PROMPT)
    terminal = LiveTerminal(console, tick_seconds=tick)
    now = [0.0]

    def clock() -> float:
        now[0] += clock_step or 0.0
        return now[0]

    stream = MarkdownStream(console, terminal=terminal,
                            **({"clock": clock} if clock_step is not None else {}))
    stop = threading.Event()

    def race() -> None:  # a second thread asking for redraws as fast as it can
        while not stop.is_set():
            terminal.redraw()

    threads = [threading.Thread(target=race, daemon=True) for _ in range(racers)]
    for thread in threads:
        thread.start()
    try:
        for piece in pieces:
            stream.feed(piece)
    finally:
        stop.set()
        for thread in threads:
            thread.join()
    stream.finish()
    terminal.clear()
    output: str = console.file.getvalue()  # type: ignore[attr-defined]
    return output, terminal


def expected(width: int, height: int = 24) -> list[str]:
    return replay(render_once(LONG_ANSWER, width, height, before=PROMPT), width, height)


def test_the_answer_is_long_enough_to_scroll() -> None:
    assert 2000 <= len(LONG_ANSWER) <= 3000
    assert len(expected(50)) > 60


@pytest.mark.parametrize("width", [110, 50, 80])
@pytest.mark.parametrize("size", [1, 8, 64])
def test_every_redraw_leaves_exactly_one_render(width: int, size: int) -> None:
    # clock_step=1: every delta redraws the live region — the most cursor movement possible.
    output, _ = stream_through(width, chunks(LONG_ANSWER, size), clock_step=1.0)
    assert replay(output, width) == expected(width)


@pytest.mark.parametrize("width", [110, 50, 80])
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_redraws_racing_block_commits_lose_nothing(width: int, seed: int) -> None:
    # Real time, a ticker every millisecond and two threads hammering redraw().
    output, terminal = stream_through(width, random_chunks(LONG_ANSWER, seed), racers=2,
                                      tick=0.001)
    assert terminal.frames > 10
    assert replay(output, width) == expected(width)


def test_eight_char_chunks_with_the_ticker_at_several_heights() -> None:
    for height in (10, 40):
        output, _ = stream_through(50, chunks(LONG_ANSWER, 8), racers=1, height=height,
                                   tick=0.001)
        assert replay(output, 50, height) == expected(50, height)


def test_the_prompt_line_is_not_duplicated() -> None:
    output, _ = stream_through(110, chunks(LONG_ANSWER, 8), clock_step=1.0)
    rows = replay(output, 110)
    assert sum(PROMPT.strip() in row for row in rows) == 1


def test_frames_are_synchronized_updates() -> None:
    output, terminal = stream_through(80, chunks(LONG_ANSWER, 8), clock_step=1.0)
    assert output.count(SYNC_BEGIN) == output.count(SYNC_END) > 10
    # Every frame that erases is a synchronized update.
    for frame in output.split(SYNC_END)[:-1]:
        assert ERASE_BELOW not in frame.rpartition(SYNC_BEGIN)[0]
    assert terminal.frames > 20


def test_bytes_per_answer_byte_stay_small() -> None:
    # Redrawing only the rows that changed keeps the traffic near the size of the answer
    # (it was ~75x when every refresh erased and redrew the whole region).
    output, _ = stream_through(110, chunks(LONG_ANSWER, 8), clock_step=1 / 50)
    once = render_once(LONG_ANSWER, 110)
    assert len(output.encode()) <= 4 * len(once.encode())


def test_widening_mid_stream_rerenders_the_region() -> None:
    console = terminal_console(50)
    terminal = LiveTerminal(console)
    stream = MarkdownStream(console, terminal=terminal, clock=iter(range(10**6)).__next__)
    text = LONG_ANSWER
    half = text.index("## If it still fails") - 40
    for piece in chunks(text[:half], 8):
        stream.feed(piece)
    resize_at = len(console.file.getvalue())  # type: ignore[attr-defined]
    console.width = 80
    for piece in chunks(text[half:], 8):
        stream.feed(piece)
    stream.finish()
    terminal.clear()
    rows = replay(console.file.getvalue(), 50, resizes={resize_at: 80})  # type: ignore[attr-defined]
    text_rows = "\n".join(rows)
    # Every block is there once; nothing of the live region is left behind.
    for needle in ("From then on", "knows where to pull", "If it still fails",
                   "someone pushed", "Automatic upstream", "That's all"):
        assert text_rows.count(needle) == 1, needle
    assert rows[-1].startswith("That's all")


def test_a_non_terminal_gets_plain_output_once() -> None:
    import io

    from rich.console import Console

    from swebash.render.markdown import MarkdownMaker

    console = Console(file=io.StringIO(), width=80, force_terminal=False)
    stream = MarkdownStream(console)
    for piece in chunks(LONG_ANSWER, 8):
        stream.feed(piece)
    stream.finish()
    once = Console(file=io.StringIO(), width=80, force_terminal=False)
    once.print(MarkdownMaker().make(LONG_ANSWER))
    expected = once.file.getvalue().splitlines()  # type: ignore[attr-defined]
    lines = console.file.getvalue().splitlines()  # type: ignore[attr-defined]
    assert lines == [line.rstrip(" ") for line in expected]  # the same, without padding
    assert not any(line.endswith(" ") for line in lines)


def test_escape_sequences_from_the_model_never_reach_the_terminal() -> None:
    hostile = ("Copy this: \x1b]52;c;cm0gLXJmIH4=\x07 and \x1b]8;;http://evil\x1b\\link"
               "\x1b]8;;\x1b\\ \x1b[8mhidden\x1b[0m \x1b[2J\x1b[H \x1bP+q\x1b\\ done\n")
    output, _ = stream_through(80, chunks(hostile, 3), clock_step=1.0)
    for sequence in ("\x1b]52", "\x1b]8", "\x1b[8m", "\x1b[2J", "\x1b[H", "\x1bP"):
        assert sequence not in output
    assert "done" in "\n".join(replay(output, 80))


@pytest.mark.parametrize("split", ["## If it still fails", "That one means", "- Automatic"])
def test_narrowing_mid_stream_on_a_reflowing_terminal_leaves_no_stale_line(split: str) -> None:
    from tests.render.screen import ReflowScreen, replay_on

    console = terminal_console(110)
    console.file.write(PROMPT)
    terminal = LiveTerminal(console)
    stream = MarkdownStream(console, terminal=terminal, clock=iter(range(10**6)).__next__)
    half = LONG_ANSWER.index(split) + 30  # the open block is live when the window narrows
    for piece in chunks(LONG_ANSWER[:half], 8):
        stream.feed(piece)
    output: str = console.file.getvalue()  # type: ignore[attr-defined]
    resize_at = len(output)
    console.width = 50
    for piece in chunks(LONG_ANSWER[half:], 8):
        stream.feed(piece)
    stream.finish()
    terminal.clear()
    rows = replay_on(ReflowScreen(110, 24, history=100_000, ratio=0.001),
                     console.file.getvalue(), {resize_at: 50})  # type: ignore[attr-defined]
    text = "".join(rows).replace(" ", "")  # rows the terminal rewrapped join up again
    for needle in ("why doesn't git push work", "Why git push doesn't work", "What to check",
                   "Background", "If it still fails", "someone pushed", "Automatic upstream",
                   "That's all"):
        assert text.count(needle.replace(" ", "")) == 1, needle
    # What came after the resize is the tail of a 50-column render, row for row.
    tail = replay(render_once(LONG_ANSWER, 50), 50)
    assert rows[-8:] == tail[-8:]
