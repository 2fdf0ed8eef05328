"""The user's prompt as the terminal gets it: escape sequences found by their shape and passed
with zero width (userprompt.split_escapes, prompt.user_prompt), and the end of the output
judged for a fresh prompt line (freshline.LineEnd)."""

from __future__ import annotations

import pytest

from swebash.interactive.prompt import RESTORE_CURSOR, SAVE_CURSOR, ZERO_WIDTH, user_prompt
from swebash.shell.freshline import MARK, LineEnd, fresh_line
from swebash.shell.userprompt import split_escapes, strip_colours, visible_text

ESC = "\x1b"


@pytest.mark.parametrize("sequence", [
    f"{ESC}]0;user@host: ~\x07",  # window title, BEL-terminated (the stock Debian PS1)
    f"{ESC}]133;A{ESC}\\",  # shell-integration mark, ST-terminated
    f"{ESC}]633;P;Cwd=/home/me\x07",  # VS Code
    f"{ESC}]7;file://host/home/me{ESC}\\",  # working directory
    f"{ESC}]8;;https://example.com/{ESC}\\",  # hyperlink
    f"{ESC}P+q544e{ESC}\\",  # DCS
    f"{ESC}_Gf=24;data{ESC}\\",  # APC (kitty graphics)
    f"{ESC}[?2004h", f"{ESC}[2K", f"{ESC}[3 q",  # CSI with private/intermediate bytes
    f"{ESC}7", f"{ESC}(B", "\x07", "\x9b1m",  # ESC-Fp, charset, C0, C1 CSI
])
def test_every_escape_shape_is_zero_width(sequence: str) -> None:
    pieces = split_escapes(f"a{sequence}b")
    assert pieces == [("text", "a"), ("escape", sequence), ("text", "b")]
    assert visible_text(f"a{sequence}b") == "ab"


def test_colours_are_styles_and_can_be_dropped() -> None:
    text = f"{ESC}[01;32mme{ESC}[00m:{ESC}]0;t\x07{ESC}[38;5;208m~{ESC}[0m$ "
    assert [kind for kind, _ in split_escapes(text)] == [
        "sgr", "text", "sgr", "text", "escape", "sgr", "text", "sgr", "text"]
    assert strip_colours(text) == f"me:{ESC}]0;t\x07~$ "
    fragments = user_prompt(text)
    assert ("ansigreen bold", "m") in fragments
    assert "".join(t for s, t in fragments if ZERO_WIDTH not in s) == "me:~$ "
    plain = user_prompt(text, color=False)
    assert all(style in ("", ZERO_WIDTH) for style, _ in plain)


def test_an_unterminated_string_swallows_the_rest_as_the_terminal_would() -> None:
    assert split_escapes(f"ok{ESC}]0;never ended $ ") == [
        ("text", "ok"), ("escape", f"{ESC}]0;never ended $ ")]


def test_escapes_in_a_row_become_one_zero_width_group() -> None:
    # prompt-toolkit's ANSI parser takes a \x01 right after a \x02 for text
    fragments = user_prompt(f"{ESC}]133;A\x07{ESC}]633;A\x07{ESC}]7;f\x07> ")
    assert fragments[0] == (ZERO_WIDTH, f"{ESC}]133;A\x07{ESC}]633;A\x07{ESC}]7;f\x07")
    assert "".join(t for s, t in fragments if ZERO_WIDTH not in s) == "> "


def test_escapes_after_the_last_character_are_written_right_after_it() -> None:
    mark = f"{ESC}]133;B\x07"
    fragments = user_prompt(f"$ {mark}")
    # save the cursor, draw the last cell, the mark, back: then prompt-toolkit draws the cell
    assert fragments == [("", "$"), (ZERO_WIDTH, f"{SAVE_CURSOR} {mark}{RESTORE_CURSOR}"),
                         ("", " ")]


def test_a_line_of_only_escapes_hands_them_to_the_next_line() -> None:
    fragments = user_prompt(f"top\n{ESC}]0;t\x07\n$ ")
    texts = [t for _, t in fragments]
    assert texts.index(f"{ESC}]0;t\x07") > texts.index("\n", texts.index("p"))
    assert "".join(t for s, t in fragments if ZERO_WIDTH not in s) == "top\n\n$ "


@pytest.mark.parametrize("output,clean", [
    (b"", True), (b"hello\r\n", True), (b"50%\r", True), (b"TOKEN", False),
    (b"done\r\n\x1b[0m", True), (b"done\r\n\x1b]0;title\x07", True),  # colour, OSC: no move
    (b"json}", False), (b"x\r\n\x1b[?1049l", False),  # a cursor-moving sequence: not sure
    (b"a\n", False),  # a bare LF (the program turned ONLCR off): the column is unknown
])
def test_line_end_is_clean_only_when_sure(output: bytes, clean: bool) -> None:
    line = LineEnd()
    line.feed(output)
    assert line.at_line_start() is clean
    line.start_line()
    assert line.at_line_start()


def test_fresh_line_fills_exactly_one_row_then_returns() -> None:
    data = fresh_line(20)
    assert data.startswith(b"\x1b[0m" + MARK) and data.endswith(b"\r \r")
    assert data.count(b" ") - 1 == 19  # the mark's cell + 19 spaces: the row's 20 cells
    assert fresh_line(20, dumb=True) == b"\r\n"
