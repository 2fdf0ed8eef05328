"""Streaming markdown: CPU of MarkdownStream vs one render of the final text vs the naive way.

A generated ~2,400-token answer (headings, paragraphs, nested lists, code fences with blank
lines, tables) is fed token by token into a terminal Console writing to /dev/null:

* one render: ``console.print(Markdown(final_text))`` once — the floor;
* MarkdownStream, live region on, deltas as fast as possible (real clock, 12 Hz limit);
* MarkdownStream, live region on, paced like a 100 tokens/s model (a fake clock advances
  10 ms per token, so the 12 Hz limit allows ~290 redraws — what a real stream costs);
* naive: rich Live + Markdown(whole buffer) refreshed per delta, measured on a prefix and
  extrapolated quadratically (per-delta cost grows with the buffer).

Figures are process CPU time (time.process_time), best of a few runs.

Terminal traffic: a ~2.4 KB slice of the answer is streamed in 8-character chunks paced like a
local server (a fake clock advances 20 ms per chunk) into a 110x40 terminal Console; the bytes
written to the terminal are divided by the bytes of the answer (target <= 4x; the old renderer,
which erased and redrew the whole live region on every refresh, wrote ~75x) — with NO_COLOR, in
256 colours, and for a code-heavy answer in truecolor (9.41x and 24.52x before code blocks lost
their background and padding). Since frames stopped depending on the width (resizes in tmux), a
finished row is written afresh when committed instead of being kept from the live region: about
1.7x one render (it was 0.9x when kept).

Resizing while streaming, in a real tmux: ``python bench/tmux_resize.py --runs 10`` (not part of
``make bench``: about 15 s a run) prints how many runs left every line exactly once.

Rows of a 3-tool answer: the "typical 3-tool answer" of issue 18 (tests/render/scenarios.py: a
sentence, a command, a file read and a search run in parallel, a short markdown answer) drawn by
the TerminalRenderer on a 100-column terminal and replayed through pyte (target <= 16; boxed
panels took 30).
"""

from __future__ import annotations

import io
import os
import re
import sys
import time
from collections.abc import Callable

from rich.console import Console
from rich.live import Live
from rich.markdown import Markdown

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from swebash.render.events import TerminalRenderer
from swebash.render.markdown import MarkdownMaker
from swebash.render.stream import MarkdownStream
from swebash.render.terminal import LiveTerminal
from swebash.render.theme import RenderSettings
from tests.render.scenarios import CODE_HEAVY, INTRO, three_tool_turn
from tests.render.screen import replay

WORDS = tuple(" ".join((
    "the shell keeps one bash session alive so that cd and export persist between commands",
    "while the agent reads files runs tools and streams its answer into the terminal",
    "without re rendering the whole document for every token it receives")).split(" "))


def generate_answer(target_tokens: int = 2400) -> str:
    """A deterministic markdown answer of about ``target_tokens`` tokens."""
    parts: list[str] = []
    section = 0
    while len(tokenize("".join(parts))) < target_tokens:
        section += 1
        words = [WORDS[(section * 7 + i) % len(WORDS)] for i in range(60)]
        parts.append(f"## Step {section}: {' '.join(words[:4])}\n\n")
        parts.append(" ".join(words[:30]).capitalize() + " with `inline code` and **bold**.\n"
                     + " ".join(words[30:]) + ".\n\n")
        parts.append(f"- first point about {words[5]}\n  - nested detail {words[6]}\n"
                     f"- second point with `{words[7]}`\n- third point\n\n")
        parts.append("```python\n"
                     f"def step_{section}(path: str) -> int:\n"
                     "    total = 0\n\n"
                     "    for line in open(path):\n"
                     f"        total += len(line)  # {words[8]}\n\n"
                     "    return total\n```\n\n")
        if section % 2 == 0:
            parts.append("| command | meaning | exit |\n|---|---|---|\n"
                         f"| `ls -la` | {words[9]} {words[10]} | 0 |\n"
                         f"| `grep -r x` | {words[11]} | 1 |\n\n")
    return "".join(parts)


def tokenize(text: str) -> list[str]:
    """Split like a model's deltas: a word with its leading space, punctuation, newlines."""
    return re.findall(r" ?[A-Za-z_]+| ?[0-9]+| ?[^\sA-Za-z0-9]|\n| +", text)


def terminal_console() -> Console:
    sink = open(os.devnull, "w")  # noqa: SIM115 - lives as long as the console
    return Console(file=sink, force_terminal=True, width=100, height=40,
                   color_system="truecolor")


def cpu(fn: Callable[[], None], repeat: int = 3) -> float:
    best = float("inf")
    for _ in range(repeat):
        start = time.process_time()
        fn()
        best = min(best, time.process_time() - start)
    return best


def one_render(text: str) -> None:
    terminal_console().print(MarkdownMaker().make(text), crop=False)


def streamed(tokens: list[str], clock: Callable[[], float] | None = None) -> None:
    stream = MarkdownStream(terminal_console(), clock=clock or time.monotonic, live=True)
    for token in tokens:
        stream.feed(token)
    stream.finish()


def paced(tokens: list[str]) -> None:
    fake_now = [0.0]

    def clock() -> float:
        fake_now[0] += 0.010  # one token every 10 ms: 100 tokens/s
        return fake_now[0]

    streamed(tokens, clock)


def naive(tokens: list[str]) -> None:
    console = terminal_console()
    buffer = ""
    with Live(console=console, auto_refresh=False, transient=False) as live:
        for token in tokens:
            buffer += token
            live.update(Markdown(buffer), refresh=True)


def traffic(text: str, chunk: int = 8, *, no_color: bool = False,
            color_system: str = "truecolor") -> tuple[int, int, int]:
    """(bytes written streaming ``text``, bytes of one render, frames) on a 110x40 terminal."""
    fake_now = [0.0]

    def clock() -> float:
        fake_now[0] += 0.020  # one chunk every 20 ms
        return fake_now[0]

    def console() -> Console:
        return Console(file=io.StringIO(), force_terminal=True, width=110, height=40,
                       color_system=color_system, no_color=no_color)  # type: ignore[arg-type]

    live_console = console()
    terminal = LiveTerminal(live_console)
    stream = MarkdownStream(live_console, clock=clock, terminal=terminal)
    for i in range(0, len(text), chunk):
        stream.feed(text[i:i + chunk])
    stream.finish()
    terminal.clear()
    once = console()
    once.print(MarkdownMaker().make(text), crop=False)
    written = len(live_console.file.getvalue().encode())  # type: ignore[attr-defined]
    return written, len(once.file.getvalue().encode()), terminal.frames  # type: ignore[attr-defined]


def three_tool_rows(width: int = 100, tools: str = "compact") -> int:
    """Rows a typical 3-tool answer takes on a ``width``-column terminal (replayed in pyte),
    with the tools drawn ``compact`` (the default) or ``boxed``."""
    console = Console(file=io.StringIO(), force_terminal=True, width=width, height=40,
                      color_system="256")
    renderer = TerminalRenderer(console, terminal=LiveTerminal(console, tick_seconds=3600),
                                settings=RenderSettings(tools=tools))
    for event in three_tool_turn():
        renderer.handle(event)
    renderer.end_turn()
    rows = replay(console.file.getvalue(), width, 40)  # type: ignore[attr-defined]
    first = next(i for i, row in enumerate(rows) if row.startswith(INTRO[:20]))
    return len(rows) - first


def main() -> int:
    text = generate_answer()
    tokens = tokenize(text)
    assert "".join(tokens) == text
    base = cpu(lambda: one_render(text))
    fast = cpu(lambda: streamed(tokens))
    slow = cpu(lambda: paced(tokens))
    prefix = 300
    naive_prefix = cpu(lambda: naive(tokens[:prefix]), repeat=1)
    naive_total = naive_prefix * (len(tokens) / prefix) ** 2  # per-delta cost ∝ buffer size
    print(f"answer: {len(tokens)} tokens, {len(text)} chars")
    print(f"one render of the final text: {base * 1000:7.1f} ms CPU")
    print(f"MarkdownStream, fed flat out:  {fast * 1000:7.1f} ms CPU  = {fast / base:5.2f}x"
          " one render")
    print(f"MarkdownStream, fed flat out is the target measure (<= 3x): "
          f"{'met' if fast <= 3 * base else 'MISSED'}")
    stream_seconds = len(tokens) / 100
    print(f"MarkdownStream, 100 tok/s:     {slow * 1000:7.1f} ms CPU  = {slow / base:5.2f}x"
          f" one render = {slow / stream_seconds * 100:.1f}% of a core over the"
          f" {stream_seconds:.0f} s answer (12 Hz live redraws)")
    print(f"naive Live+Markdown(buffer):  ~{naive_total:7.1f} s CPU   = {naive_total / base:5.0f}x"
          f" one render (measured {naive_prefix:.2f} s on the first {prefix} tokens,"
          " extrapolated quadratically)")
    answer = text[:text.index("## Step", 2400)]
    ok = fast <= 3 * base
    for no_color in (False, True):
        written, one, frames = traffic(answer, no_color=no_color)
        per_byte = written / len(answer.encode())
        ok = ok and written <= 2 * one
        print(f"terminal traffic ({'NO_COLOR' if no_color else 'truecolor'}), {len(answer)} B"
              f" answer in 8-char chunks: {written} B in {frames} frames = {per_byte:.2f}x the"
              f" answer, {written / one:.2f}x one render ({one} B = {one / len(answer):.2f}x"
              " the answer)")
    print("target: <= 4x the answer where one render allows it, and at most twice one render"
          f" (a committed row is written afresh, not kept from the live region): "
          f"{'met' if ok else 'MISSED'}")
    per_answer_byte: list[float] = []
    for label, text, colours, no_color in (("NO_COLOR", answer, "truecolor", True),
                                           ("256-colour", answer, "256", False),
                                           ("truecolor, code-heavy", CODE_HEAVY, "truecolor",
                                            False)):
        written, one, frames = traffic(text, no_color=no_color, color_system=colours)
        per_answer_byte.append(written / len(text.encode()))
        print(f"bytes per answer byte ({label}, {len(text)} B answer): "
              f"{per_answer_byte[-1]:.2f}x (one render {one / len(text.encode()):.2f}x)")
    bytes_ok = all(ratio <= 4 for ratio in per_answer_byte)
    print(f"target: every answer <= 4x its bytes: {'met' if bytes_ok else 'MISSED'}")
    rows = three_tool_rows(100)
    print(f"rows used by a 3-tool answer at 100 columns: {rows} (target <= 16): "
          f"{'met' if rows <= 16 else 'MISSED'}")
    boxed = three_tool_rows(100, "boxed")
    print(f"rows used by the same answer with [ui] tools = \"boxed\": {boxed}")
    ok = ok and bytes_ok and rows <= 16
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
