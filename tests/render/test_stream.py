"""MarkdownStream: streamed output equals the one-shot rendering; only the open block is live."""

from __future__ import annotations

import io
import random
import re

import pyte
import pytest
from rich.console import Console

from swebash.render.blocks import Cut, cut_finished
from swebash.render.markdown import MarkdownMaker
from swebash.render.stream import MarkdownStream, OpenBlockView

TRICKY = {
    "fence_with_blank_lines": "Intro:\n\n```python\ndef f():\n\n\n    return 1\n```\nAfter.\n",
    "nested_lists": "- a\n  - a1\n\n  - a2\n    1. deep\n- b\n\n  continued b\n\nend\n",
    "ordered_from_three": "3. three\n4. four\n\npara\n\n7. seven\n",
    "table": "Text\n\n| a | b |\n|---|---|\n| 1 | `x` |\n| 2 | **y** |\n\nbelow\n",
    "heading_after_text": "some text\n# Heading\nmore text\n## Sub\n- list right after\n",
    "setext": "Title\n=====\npara\n\nSub\n---\n",
    "quote_lazy": "> quoted\nlazy line\n> more\n\n> second\n\nplain\n",
    "hr_then_blocks": "para\n\n---\n\n- item\n\n***\n```\ncode\n```\n",
    "unclosed_fence": "text\n\n```bash\nls -la\n\necho hi",
    "tilde_fence_with_backticks": "~~~\n```\nnot a fence end\n~~~\ndone\n",
    "no_trailing_newline": "# T\n\nlast words without newline",
    "indented_code": "para\n\n    indented code\n\n    more code\n\nafter\n",
    "html_and_links": "<!-- note -->\n\n[link](http://x.y) and ![img](p.png)\n\n- [a](b)\n",
}


def render_once(text: str, width: int = 80) -> str:
    """One render of the whole text, as rows without trailing spaces (none are written)."""
    console = Console(file=io.StringIO(), width=width, force_terminal=False)
    console.print(MarkdownMaker().make(text), crop=False)
    output: str = console.file.getvalue()  # type: ignore[attr-defined]
    return "".join(line.rstrip(" ") + "\n" for line in output.splitlines())


def render_streamed(pieces: list[str], width: int = 80) -> str:
    console = Console(file=io.StringIO(), width=width, force_terminal=False)
    stream = MarkdownStream(console)
    for piece in pieces:
        stream.feed(piece)
    stream.finish()
    return console.file.getvalue()  # type: ignore[attr-defined]


def chars(text: str) -> list[str]:
    return list(text)


def random_chunks(text: str, seed: int) -> list[str]:
    rnd = random.Random(seed)
    out, i = [], 0
    while i < len(text):
        n = rnd.randint(1, 9)
        out.append(text[i:i + n])
        i += n
    return out


def tokens(text: str) -> list[str]:
    return re.findall(r" ?\w+| ?[^\w\s]|\n| +", text)


@pytest.mark.parametrize("name", sorted(TRICKY))
def test_streamed_equals_one_shot(name: str) -> None:
    text = TRICKY[name]
    expected = render_once(text)
    assert render_streamed(chars(text)) == expected
    assert render_streamed(tokens(text)) == expected
    for seed in range(5):
        assert render_streamed(random_chunks(text, seed)) == expected


def test_all_tricky_documents_concatenated() -> None:
    text = "\n".join(TRICKY[name] for name in sorted(TRICKY) if name != "unclosed_fence")
    assert render_streamed(random_chunks(text, 42)) == render_once(text)


def test_fence_split_mid_marker() -> None:
    text = "para\n\n```\nx = 1\n\ny = 2\n```\nafter\n"
    pieces = ["para\n\n``", "`\nx = 1\n", "\n", "y = 2\n``", "`\naf", "ter\n"]
    assert render_streamed(pieces) == render_once(text)


def test_finished_blocks_are_printed_before_finish() -> None:
    console = Console(file=io.StringIO(), width=80, force_terminal=False)
    stream = MarkdownStream(console)
    stream.feed("first paragraph\n")
    assert console.file.getvalue() == ""  # type: ignore[attr-defined]
    stream.feed("\nsecond ")  # a blank line: nothing can change the first paragraph now
    assert console.file.getvalue() == "first paragraph\n"  # type: ignore[attr-defined]
    stream.feed("paragraph\n")
    printed = console.file.getvalue()  # type: ignore[attr-defined]
    # The second paragraph stays open until a blank line or the next block ends it.
    assert "first paragraph" in printed and "second" not in printed
    stream.feed("\n- item")
    printed = console.file.getvalue()  # type: ignore[attr-defined]
    assert "second paragraph" in printed and "item" not in printed
    stream.feed("\n\n")  # a list may go on after a blank line: still open
    assert "item" not in console.file.getvalue()  # type: ignore[attr-defined]
    stream.finish()
    assert "item" in console.file.getvalue()  # type: ignore[attr-defined]


def test_blank_line_inside_fence_does_not_finish_it() -> None:
    cut = cut_finished("```\na\n\nb\n\n")
    assert cut.finished == ""
    cut = cut_finished("para\n\n```\na\n\nb\n")
    assert cut.finished == "para\n\n" and cut.rest.startswith("```")


def test_paragraph_is_kept_open_until_the_next_block_starts() -> None:
    assert cut_finished("Title\n").finished == ""  # may still become a setext heading
    assert cut_finished("| a |\n").finished == ""  # may still become a table
    assert cut_finished("one\n\ntwo\n").finished == "one\n\n"
    assert cut_finished("one\ntw").finished == ""  # a partial line is never cut on
    # Over whatever comes next: a paragraph after a blank line, an ATX heading at once.
    assert cut_finished("one\n\ntw") == Cut("one\n\n", "tw")
    assert cut_finished("# Title\nmo") == Cut("# Title\n", "mo")
    assert cut_finished("Title\n---\n").finished == ""  # a setext heading: wait
    assert cut_finished("- a\n\n").finished == ""  # a list may go on after a blank line
    assert cut_finished("> a\n\n").finished == ""


def test_stream_is_reusable_after_finish() -> None:
    console = Console(file=io.StringIO(), width=80, force_terminal=False)
    stream = MarkdownStream(console)
    stream.feed("- a\n- b\n")
    stream.finish()
    stream.feed("next answer\n")
    assert stream.text == "next answer\n"
    stream.finish()
    assert console.file.getvalue() == render_once("- a\n- b\n") + render_once("next answer\n")  # type: ignore[attr-defined]


def screen_of(output: str, columns: int = 80, lines: int = 400) -> list[str]:
    screen = pyte.Screen(columns, lines)
    pyte.Stream(screen).feed(output.replace("\n", "\r\n"))
    rows = [row.rstrip() for row in screen.display]
    while rows and not rows[-1]:
        rows.pop()
    return rows


def terminal_console(height: int = 30) -> Console:
    return Console(file=io.StringIO(), width=80, height=height, force_terminal=True,
                   color_system=None)


def test_live_terminal_leaves_exactly_the_one_shot_rendering_on_screen() -> None:
    text = "\n".join(TRICKY[name] for name in sorted(TRICKY) if name != "unclosed_fence")
    now = [0.0]

    def clock() -> float:
        now[0] += 0.05  # every delta lands after the rate limit: many live redraws
        return now[0]

    console = terminal_console()
    stream = MarkdownStream(console, clock=clock)
    for piece in tokens(text):
        stream.feed(piece)
    assert stream.refreshes > 20
    stream.finish()
    once = terminal_console()
    once.print(MarkdownMaker().make(text), crop=False)
    padded: str = once.file.getvalue()  # type: ignore[attr-defined]
    # rich pads rows to the width; with a wide emoji pyte counts one cell more and wraps.
    expected = screen_of("\n".join(line.rstrip(" ") for line in padded.split("\n")))
    assert screen_of(console.file.getvalue()) == expected  # type: ignore[attr-defined]


def test_tall_open_block_shows_only_its_tail_live_and_prints_whole() -> None:
    code = "```\n" + "".join(f"line {i:03}\n" for i in range(60))
    console = terminal_console(height=10)
    view = OpenBlockView(console, MarkdownMaker())
    view.text = code
    shown = view.rows(80, 9)
    assert len(shown) <= 9
    assert any("line 059" in row for row in shown)
    assert not any("line 000" in row for row in shown)

    stream = MarkdownStream(console, clock=lambda: 1e9)
    stream.feed(code)
    stream.finish()
    final = screen_of(console.file.getvalue())  # type: ignore[attr-defined]
    assert sum("line " in row for row in final) == 60


@pytest.mark.parametrize("text", [
    "Words that wrap as usual, " * 30 + "end.",
    "前言。" + "漢字かなカナ混じりの文章は空白なしで続きます。" * 12,  # no spaces to wrap at
    "A word longer than a row: " + "x" * 300 + " and after it more words " * 8,
])
def test_a_long_paragraph_goes_to_scrollback_row_by_row(text: str) -> None:
    # Each row is printed once the row after it has begun for good, so the live region
    # stays a row or two however long the paragraph is (it was the whole paragraph for
    # text without spaces), and what is left equals one render.
    from tests.render.screen import render_once, replay

    console = Console(file=io.StringIO(), width=40, height=24, force_terminal=True,
                      color_system="256")
    stream = MarkdownStream(console, clock=iter(range(10**6)).__next__)
    tallest = 0
    for i in range(0, len(text), 5):
        stream.feed(text[i:i + 5])
        tallest = max(tallest, stream.terminal.height)
    stream.finish()
    stream.terminal.clear()
    assert tallest <= 2
    assert replay(console.file.getvalue(), 40) == replay(render_once(text, 40), 40)  # type: ignore[attr-defined]


def test_live_redraws_are_rate_limited_and_only_on_change() -> None:
    now = [0.0]

    def clock() -> float:
        now[0] += 0.001  # 1 ms per call: 200 deltas within ~0.2 s of stream time
        return now[0]

    console = terminal_console()
    stream = MarkdownStream(console, clock=clock, max_refresh_hz=12)
    for _ in range(200):
        stream.feed("word ")
    # 12 Hz over ~0.2 s of fake time; a deferred redraw may add one or two in real time.
    assert stream.refreshes <= 6
    stream.terminal.print("unrelated line")  # redraws the live region with the latest text
    renders = stream.live_renders
    stream.terminal.print("another line")  # redraws it again: same text, no new render
    assert stream.live_renders == renders
    stream.finish()


def test_non_terminal_console_gets_no_live_region() -> None:
    console = Console(file=io.StringIO(), width=80, force_terminal=False)
    stream = MarkdownStream(console)
    stream.feed("partial para")
    assert stream.refreshes == 0 and stream.live_renders == 0
    assert console.file.getvalue() == ""  # type: ignore[attr-defined]
    stream.finish()
