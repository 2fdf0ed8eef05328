"""The line editor's readline parts that need no shell: the listing's layout, the dumb
terminal's plain edits, vi's ``.``, history search, a widget's answer."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from prompt_toolkit import PromptSession
from prompt_toolkit.enums import EditingMode
from prompt_toolkit.history import InMemoryHistory
from prompt_toolkit.input import create_pipe_input
from prompt_toolkit.input.base import PipeInput
from prompt_toolkit.key_binding import KeyPressEvent
from prompt_toolkit.output import DummyOutput

from swebash.interactive.dumb import edit
from swebash.interactive.keys import MacroKey, PromptKeys
from swebash.interactive.tabcomplete import format_matches
from swebash.interactive.widgets import EditorMark, parse_answer, to_keys


def test_matches_are_listed_in_readlines_columns() -> None:
    # bash at 60 columns: columns as wide as the longest match plus two, down the columns
    assert format_matches(["apple", "apricot", "banana"], 60) == ["apple    apricot  banana"]
    items = [f"item{i:02}" for i in range(12)]
    assert format_matches(items, 40) == [
        "item00  item03  item06  item09",
        "item01  item04  item07  item10",
        "item02  item05  item08  item11",
    ]
    assert format_matches(items[:4], 40, horizontal=True) == ["item00  item01  item02  item03"]
    # a column that would touch the last screen column is not used (readline)
    assert format_matches(["abcd", "efgh"], 12) == ["abcd", "efgh"]
    assert format_matches(["a-very-long-name", "b"], 10) == ["a-very-long-name", "b"]


@pytest.mark.parametrize(("old", "old_cursor", "new", "new_cursor", "shown"), [
    ("", 0, "abc", 3, "abc"),
    ("abc", 3, "ab", 2, "\b \b"),
    ("abc", 3, "aXbc", 2, "\b\bXbc\b\b"),
    ("abc", 1, "abc", 0, "\b"),
    ("abc", 0, "abc", 2, "ab"),
    ("echo one", 8, "ls", 2, "\b" * 8 + "ls" + " " * 6 + "\b" * 6),
])
def test_dumb_terminal_edits_use_plain_characters(old: str, old_cursor: int, new: str,
                                                  new_cursor: int, shown: str) -> None:
    assert edit(old, old_cursor, new, new_cursor) == shown


def replay(old: str, old_cursor: int, data: str) -> tuple[str, int]:
    """What a terminal shows after ``data`` (plain characters and backspaces only)."""
    line, cursor = list(old), old_cursor
    for ch in data:
        if ch == "\b":
            cursor -= 1
        else:
            if cursor < len(line):
                line[cursor] = ch
            else:
                line.append(ch)
            cursor += 1
    return "".join(line).rstrip(), cursor


@pytest.mark.parametrize(("old", "new"), [("hello world", "hello"), ("ab", "xaby"),
                                          ("", "x"), ("abc", "")])
def test_dumb_edits_leave_the_new_line_on_screen(old: str, new: str) -> None:
    for cursor in range(len(new) + 1):
        assert replay(old, len(old), edit(old, len(old), new, cursor)) == (new, cursor)


@pytest.fixture
def pipe() -> Iterator[PipeInput]:
    with create_pipe_input() as inp:
        yield inp


def prompt(pipe: PipeInput, keys: str, vi: bool = False, history: list[str] | None = None,
           macro: str = "") -> str:
    """The line accepted after ``keys``; ``macro``: what Ctrl-T feeds, as a readline macro."""
    bindings = PromptKeys(lambda event: event.current_buffer.validate_and_handle(),
                          EditorMark())
    kb = bindings.bindings(lambda event, char: None)

    @kb.add("c-t")
    def _(event: KeyPressEvent) -> None:
        event.app.key_processor.feed_multiple(
            [MacroKey(k.key, k.data) for k in to_keys(macro)], first=True)

    stored = InMemoryHistory()
    for line in history or []:
        stored.append_string(line)
    session: PromptSession[str] = PromptSession(
        input=pipe, output=DummyOutput(), history=stored,
        key_bindings=kb,
        editing_mode=EditingMode.VI if vi else EditingMode.EMACS)
    bindings.vi_repeat.attach(session.app)
    pipe.send_text(keys)
    return session.prompt()


@pytest.mark.parametrize(("keys", "line"), [
    ("echo abc def ghi\x1b0dw.\r", "def ghi"),
    ("echo abc\x1b0ihey \x1b.\r", "heyhey  echo abc"),
    ("echo abcdef\x1b03x.\r", "bcdef"),
    ("abc\x1bx.\r", "a"),
    ("one two\x1b0w.\r", "one two"),  # a motion is not a change: nothing to repeat
])
def test_vi_dot_repeats_the_last_change(pipe: PipeInput, keys: str, line: str) -> None:
    assert prompt(pipe, keys, vi=True) == line


def test_ctrl_z_does_nothing_at_the_prompt(pipe: PipeInput) -> None:
    assert prompt(pipe, "ab\x1acd\r") == "abcd"


@pytest.mark.parametrize(("keys", "macro", "line"), [
    ("a\x14b\r", "xy\x1byZ", "axyb"),  # M-y with no yank before it: the macro ends there
    ("foo\x01\x0b\x14\r", "\x19\x1by!", "foo!"),  # after a yank it rotates, the macro goes on
    ("\x14\r", "ab\x1b\x20\x01\x18\x18c", "abc"),  # set-mark, C-a, exchange-point-and-mark
])
def test_a_macro_ends_where_readline_aborts_it(pipe: PipeInput, keys: str, macro: str,
                                               line: str) -> None:
    assert prompt(pipe, keys, macro=macro) == line


def test_vi_slash_search_puts_the_match_in_the_line(pipe: PipeInput) -> None:
    # Enter accepts the search only; the second Enter runs the line (as bash's vi mode)
    assert prompt(pipe, "\x1b/one\rX\r", vi=True,
                  history=["echo one", "echo two"]) == "echo one"


def test_widget_answer_round_trip() -> None:
    assert parse_answer(b"new line\x004\x000\x00", "old", 3, 0) == ("new line", 4, 0)
    assert parse_answer(b"x\x000x7fffffff\x000\x00", "old", 3, 0) == ("x", 1, 0)  # clamped
    assert parse_answer(None, "old", 3, 1) == ("old", 3, 1)
    assert parse_answer(b"a", "old", 3, 1) == ("old", 3, 1)
