"""Resizing while an answer streams, when the program learns the width late.

tmux reflows its grid at once when a window is resized, but tells the program (TIOCSWINSZ,
SIGWINCH) at most about every 250 ms, and only the latest size: while a window is dragged,
what swebash believes the width is lags what the terminal does, and widths in between are
never reported at all (measured in tmux 3.3: resized every 150 ms through ten widths, the
program saw six of them, each 100-250 ms late). Frames written in between are interpreted at
a width they were not composed for. Here the emulator (``ReflowScreen``, tmux-like) is resized
at one byte offset while the console learns each width some deltas later, or never: every
marker of the answer must still be in scrollback exactly once, in order, and what streamed
after the last resize must be, row for row, one render at the final width.
"""

from __future__ import annotations

import re

import pytest

from swebash.render.stream import MarkdownStream
from swebash.render.terminal import LiveTerminal
from tests.render.scenarios import RESIZE_ANSWER
from tests.render.screen import ReflowScreen, render_once, replay, replay_on, terminal_console

PROMPT = "~/project $ ? resize me\n"
MARKER = re.compile(r"Q\d{3}x")
MARKERS = MARKER.findall(RESIZE_ANSWER)
TAIL_FROM = RESIZE_ANSWER.rindex("A paragraph")  # streamed after the last resize


def stream_lagging(widths: list[int], lag: int, *, start: int = 110, every: int = 6,
                   size: int = 6, height: int = 24) -> tuple[str, dict[int, int]]:
    """Stream the answer in ``size``-character deltas; every ``every`` deltas the terminal takes
    the next of ``widths``, and the console learns the terminal's width ``lag`` deltas after
    its latest change (a width changed again before that is never reported) — the last one a
    few deltas after it, well before the last paragraph."""
    console = terminal_console(start, height)
    console.file.write(PROMPT)
    terminal = LiveTerminal(console)
    stream = MarkdownStream(console, terminal=terminal, clock=iter(range(10**6)).__next__)
    pieces = [RESIZE_ANSWER[i:i + size] for i in range(0, len(RESIZE_ANSWER), size)]
    resizes: dict[int, int] = {}
    pending = list(widths)
    told: tuple[int, int] | None = None  # (delta number, width): when the console learns it
    last = 0
    for number, piece in enumerate(pieces):
        if pending and number and number % every == 0:
            width, last = pending.pop(0), number
            resizes[len(console.file.getvalue())] = width  # type: ignore[attr-defined]
            told = (number + (lag if pending else min(lag, 4)), width)
        if told is not None and number >= told[0]:
            console.width = told[1]
            told = None
        stream.feed(piece)
    assert not pending and told is None and (last + 4) * size < TAIL_FROM
    stream.finish()
    terminal.clear()
    return console.file.getvalue(), resizes  # type: ignore[attr-defined]


def check(output: str, resizes: dict[int, int], final: int, height: int = 24) -> None:
    rows = replay_on(ReflowScreen(110, height, history=100_000, ratio=0.001), output, resizes)
    squeezed = "".join("".join(rows).split())
    found = MARKER.findall(squeezed)
    assert {m: found.count(m) for m in MARKERS if found.count(m) != 1} == {}
    assert found == MARKERS
    assert squeezed.count("?resizeme") == 1
    one = replay(render_once(RESIZE_ANSWER, final, height), final, height)
    tail = len(one) - next(i for i, row in enumerate(one)
                           if MARKER.findall(RESIZE_ANSWER[TAIL_FROM:])[0] in row)
    assert rows[-tail:] == one[-tail:]


WIDTHS = [60, 110, 45, 90, 40, 120, 70, 100, 50, 80]


@pytest.mark.parametrize("lag", [1, 5, 12])
def test_a_width_learned_late_never_doubles_or_loses_a_line(lag: int) -> None:
    output, resizes = stream_lagging([*WIDTHS, 100], lag, every=20)
    check(output, resizes, 100)


@pytest.mark.parametrize("every", [3, 7])
def test_widths_the_program_never_learns(every: int) -> None:
    # The window changes faster than it is reported: the console learns only the last width.
    widths = [*(WIDTHS * 5)[:(TAIL_FROM - 300) // 6 // every], 90]
    output, resizes = stream_lagging(widths, lag=10**6, every=every)
    check(output, resizes, 90)


def test_a_window_narrowed_and_widened_back_unnoticed() -> None:
    # 110 -> 45 -> 110 within one report: the program never sees a change at all.
    output, resizes = stream_lagging([45, 110], lag=10**6, every=4)
    check(output, resizes, 110)
