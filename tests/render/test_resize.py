"""Resizing the window while an answer streams never doubles or loses a line.

The answer is streamed through ``MarkdownStream`` while the console's width changes between
deltas; the bytes written are replayed through an emulator that is resized at the same points —
one that rewraps its lines the way tmux does (``ReflowScreen``: the cursor keeps its screen row,
lines that grow above it go into the scrollback) and pyte's own, which cuts rows instead. Every
block of the answer must then be there exactly once, and what was written after the last
resize must be, row for row, what one render at that width shows.
"""

from __future__ import annotations

import pyte
import pytest

from swebash.render.stream import MarkdownStream
from swebash.render.terminal import LiveTerminal
from tests.render.screen import (
    LONG_ANSWER,
    ReflowScreen,
    render_once,
    replay,
    replay_on,
    terminal_console,
)

PROMPT = "~/project $ ? why doesn't git push work\n"

# Phrases that each occur once in LONG_ANSWER; spaces are ignored when counting, since a row a
# terminal rewraps or cuts can split a phrase anywhere.
NEEDLES = ("Why git push doesn't work", "Your branch has no upstream", "What to check",
           "remotes", "rev-parse",
           "Note:", "Set the upstream once",
           "git push -u origin feature", "git branch --set-upstream-to", "From then on",
           "knows where to pull from", "If it still fails", "! [rejected]",
           "hint: Updates were rejected", "someone pushed before you", "Background",
           "Git keeps, for every local branch", "Tip: git branch -vv", "[origin/main]",
           "Find branches without brackets", "Push each once with -u", "Automatic upstream",
           "Check your credentials", "That's all")


def chunks(text: str, size: int) -> list[str]:
    return [text[i:i + size] for i in range(0, len(text), size)]


def stream_resizing(widths: list[int], *, start: int = 110, height: int = 24,
                    size: int = 8) -> tuple[str, dict[int, int]]:
    """Stream LONG_ANSWER, switching to the next of ``widths`` at evenly spaced deltas."""
    console = terminal_console(start, height)
    console.file.write(PROMPT)
    terminal = LiveTerminal(console)
    stream = MarkdownStream(console, terminal=terminal, clock=iter(range(10**6)).__next__)
    pieces = chunks(LONG_ANSWER, size)
    every = max(1, len(pieces) // (len(widths) + 1))
    resizes: dict[int, int] = {}
    pending = list(widths)
    for number, piece in enumerate(pieces):
        if pending and number and number % every == 0:
            console.width = pending.pop(0)
            resizes[len(console.file.getvalue())] = console.width  # type: ignore[attr-defined]
        stream.feed(piece)
    stream.finish()
    terminal.clear()
    return console.file.getvalue(), resizes  # type: ignore[attr-defined]


def stream_resizing_at(points: list[tuple[str, int]], *, start: int = 110,
                       height: int = 24) -> tuple[str, dict[int, int]]:
    """Stream LONG_ANSWER in 8-character deltas; when the text reaches each phrase of
    ``points``, the window takes the width paired with it."""
    console = terminal_console(start, height)
    console.file.write(PROMPT)
    terminal = LiveTerminal(console)
    stream = MarkdownStream(console, terminal=terminal, clock=iter(range(10**6)).__next__)
    offsets = sorted((LONG_ANSWER.index(phrase), width) for phrase, width in points)
    resizes: dict[int, int] = {}
    fed = 0
    for piece in chunks(LONG_ANSWER, 8):
        while offsets and offsets[0][0] <= fed:
            console.width = offsets.pop(0)[1]
            resizes[len(console.file.getvalue())] = console.width  # type: ignore[attr-defined]
        stream.feed(piece)
        fed += len(piece)
    stream.finish()
    terminal.clear()
    return console.file.getvalue(), resizes  # type: ignore[attr-defined]


def squeezed(rows: list[str]) -> str:
    return "".join(rows).replace(" ", "")


def assert_each_once(rows: list[str]) -> None:
    text = squeezed(rows)
    counts = {needle: text.count(needle.replace(" ", "")) for needle in NEEDLES}
    assert {n: c for n, c in counts.items() if c != 1} == {}


@pytest.mark.parametrize("width", [40, 45, 50, 60, 70, 80, 90, 100, 110])
def test_each_phrase_is_once_in_one_render(width: int) -> None:
    assert_each_once(replay(render_once(LONG_ANSWER, width), width))


@pytest.mark.parametrize("widths", [
    [50, 110, 60, 100, 40, 110],
    [80, 45, 90, 50, 100, 60, 110, 40, 80],
    [60, 50, 40, 70, 90],
])
@pytest.mark.parametrize("height", [24, 60])
def test_a_reflowing_terminal_never_doubles_or_loses_a_line(widths: list[int],
                                                             height: int) -> None:
    output, resizes = stream_resizing(widths, height=height)
    screen = ReflowScreen(110, height, history=100_000, ratio=0.001)
    rows = replay_on(screen, output, resizes)
    assert_each_once(rows)
    assert sum(PROMPT.strip().replace(" ", "") in row.replace(" ", "") for row in rows) == 1
    final = widths[-1]
    tail = replay(render_once(LONG_ANSWER, final, height), final, height)
    assert rows[-6:] == tail[-6:]


@pytest.mark.parametrize("widths", [[80, 110], [60, 90, 110], [100, 70, 110]])
def test_a_terminal_that_cuts_rows_never_doubles_or_loses_a_line(widths: list[int]) -> None:
    # pyte cuts a row that no longer fits instead of rewrapping it (xterm does the same): what
    # was cut is the terminal's doing, but nothing may be doubled, and nothing committed may be
    # erased — when the window is wide again at the end, every phrase is there once.
    output, resizes = stream_resizing(widths)
    rows = replay_on(pyte.HistoryScreen(110, 24, history=100_000, ratio=0.001), output,
                     resizes)
    text = squeezed(rows)
    for needle in NEEDLES:
        assert text.count(needle.replace(" ", "")) <= 1, needle
    tail = replay(render_once(LONG_ANSWER, 110, 24), 110, 24)
    assert rows[-6:] == tail[-6:]


@pytest.mark.parametrize("points", [
    # Near the top of a fresh window: the live region reflows up to the first row, where
    # tmux's scroll-on-clear would keep the old rows in the scrollback.
    [("t know where to push", 60), ("## What to check", 110)],
    [("t know where to push", 60), ("This happens after", 110), ("## What", 50),
     ("| upstream", 100)],
    [("knows where to pull", 40), ("## If it still", 110)],  # a tall list is live
    [("a branch you start", 40), ("> Tip", 110)],  # a long paragraph is live
    [("push again. Never", 45), ("## Background", 100), ("gets one automatically", 50),
     ("2. Find branches", 110)],
])
@pytest.mark.parametrize("height", [24, 60])
def test_narrowing_while_a_tall_block_is_live(points: list[tuple[str, int]], height: int) -> None:
    output, resizes = stream_resizing_at(points, height=height)
    rows = replay_on(ReflowScreen(110, height, history=100_000, ratio=0.001), output, resizes)
    assert_each_once(rows)
    final = points[-1][1]
    tail = replay(render_once(LONG_ANSWER, final, height), final, height)
    assert rows[-6:] == tail[-6:]
