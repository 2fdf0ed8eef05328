"""Inline y/N: prompt text, previews, key mapping, and the raw-mode key reader on a real pty."""

from __future__ import annotations

import io
import os
import select
import termios
import threading
import tty
from collections.abc import Callable, Iterator
from dataclasses import dataclass

import pytest
from rich.console import Console

from swebash.api import ConfirmAnswer, ConfirmRequest, Verdict
from swebash.render.confirm import (
    answer_for_key,
    ask_confirm,
    build_confirm_prompt,
    read_confirm_key,
    render_preview,
)

RM = ConfirmRequest("execute_command", "$ rm -rf build/",
                    Verdict("ask", dangerous=True,
                            reasons=("deletes files recursively", "forced")),
                    command="rm -rf build/")
TOUCH = ConfirmRequest("execute_command", "$ touch x",
                       Verdict("ask", reasons=("writes files",)), command="touch x")


def test_dangerous_prompt_has_all_reasons_in_red_and_no_always() -> None:
    prompt = build_confirm_prompt(RM)
    assert prompt.plain == ("⚠ DANGEROUS run: rm -rf build/ — deletes files recursively; "
                            "forced  [y/N]")
    assert not prompt.offers_always
    console = Console(file=io.StringIO(), width=120, force_terminal=True,
                      color_system="standard")
    console.print(prompt.line)
    assert "\x1b[1;31m" in console.file.getvalue()  # type: ignore[attr-defined]


def test_safe_prompt_offers_always() -> None:
    prompt = build_confirm_prompt(TOUCH)
    assert prompt.plain == "⚠ run: touch x — writes files  [y/N/a]"
    assert prompt.offers_always


def test_hidden_characters_in_the_command_are_made_visible() -> None:
    sneaky = ConfirmRequest("execute_command", "", Verdict("ask"),
                            command="echo hi\rrm -rf ~ \u202e\x1b[8m")
    plain = build_confirm_prompt(sneaky).plain
    assert "\r" not in plain and "\u202e" not in plain and "\x1b" not in plain
    assert "\\r" in plain and "\\u202e" in plain and "\\x1b" in plain
    assert plain.startswith("⚠ run: echo hi\\rrm -rf ~ ")


def test_write_request_shows_a_coloured_diff_capped_in_height() -> None:
    diff = "--- a/app.py\n+++ b/app.py\n@@ -1,2 +1,2 @@\n-old\n+new\n" + " ctx\n" * 40
    request = ConfirmRequest("edit_file", "edit app.py", Verdict("ask"), preview=diff,
                             path="app.py")
    prompt = build_confirm_prompt(request)
    assert prompt.plain.startswith("⚠ edit app.py")
    console = Console(file=io.StringIO(), width=80, force_terminal=True,
                      color_system="standard")
    console.print(prompt.preview)
    text = console.file.getvalue()  # type: ignore[attr-defined]
    assert "\x1b[32m+new" in text and "\x1b[31m-old" in text
    assert "… 33 more lines" in text
    assert len(text.splitlines()) == 12 + 1 + 2  # lines, the count, the panel border


def test_new_file_preview_is_its_head() -> None:
    console = Console(file=io.StringIO(), width=80, force_terminal=False)
    console.print(render_preview("line one\nline two\n", "new.txt", max_lines=1))
    text = console.file.getvalue()  # type: ignore[attr-defined]
    assert "new.txt" in text and "line one" in text and "line two" not in text
    assert "… 1 more line" in text


@pytest.mark.parametrize(("key", "always", "answer"), [
    (b"y", False, ConfirmAnswer.YES),
    (b"Y", True, ConfirmAnswer.YES),
    (b"a", True, ConfirmAnswer.ALWAYS),
    (b"a", False, ConfirmAnswer.NO),
    (b"n", True, ConfirmAnswer.NO),
    (b"\r", True, ConfirmAnswer.NO),
    (b"\n", True, ConfirmAnswer.NO),
    (b"\x1b", True, ConfirmAnswer.STOP),
    (b"\x03", True, ConfirmAnswer.STOP),
    (b"\x03", False, ConfirmAnswer.STOP),
    (b"\x1b[A", True, ConfirmAnswer.NO),  # an arrow key is not Esc
    (b"\x1bx", True, ConfirmAnswer.NO),  # nor is Alt-x
    (b"", True, ConfirmAnswer.NO),
    ("ý".encode(), True, ConfirmAnswer.NO),
])
def test_key_mapping(key: bytes, always: bool, answer: ConfirmAnswer) -> None:
    assert answer_for_key(key, offers_always=always) is answer


@dataclass
class Pty:
    master: int
    slave: int

    def press(self, keys: bytes, reader: Callable[[Callable[[], None]], ConfirmAnswer], *,
              typeahead: bytes = b"") -> ConfirmAnswer:
        """Run ``reader(ready)`` on the slave side; type ``keys`` once it calls ``ready``."""
        ready = threading.Event()
        result: list[ConfirmAnswer] = []
        if typeahead:
            os.write(self.master, typeahead)
        thread = threading.Thread(target=lambda: result.append(reader(ready.set)), daemon=True)
        thread.start()
        assert ready.wait(30)
        os.write(self.master, keys)
        thread.join(30)
        assert not thread.is_alive()
        return result[0]

    def read_key(self, keys: bytes, *, always: bool = False,
                 typeahead: bytes = b"") -> ConfirmAnswer:
        return self.press(
            keys, lambda ready: read_confirm_key(self.slave, offers_always=always, ready=ready),
            typeahead=typeahead)


@pytest.fixture
def pty() -> Iterator[Pty]:
    master, slave = os.openpty()
    yield Pty(master, slave)
    os.close(master)
    os.close(slave)


def test_pty_y_runs_and_settings_are_restored(pty: Pty) -> None:
    before = termios.tcgetattr(pty.slave)
    assert pty.read_key(b"y") is ConfirmAnswer.YES
    assert termios.tcgetattr(pty.slave) == before


def test_pty_a_only_when_offered(pty: Pty) -> None:
    assert pty.read_key(b"a", always=True) is ConfirmAnswer.ALWAYS
    assert pty.read_key(b"a", always=False) is ConfirmAnswer.NO


@pytest.mark.parametrize("key", [b"n", b"\r", b"q"])
def test_pty_everything_else_declines(pty: Pty, key: bytes) -> None:
    assert pty.read_key(key, always=True) is ConfirmAnswer.NO


@pytest.mark.parametrize("key", [b"\x03", b"\x1b", b"\x03typed on"])
def test_pty_ctrl_c_and_esc_stop_the_turn(pty: Pty, key: bytes) -> None:
    # ISIG is off while reading: 0x03 comes back as STOP, not as KeyboardInterrupt.
    assert pty.read_key(key) is ConfirmAnswer.STOP


def test_pty_an_arrow_split_after_its_esc_is_not_esc(pty: Pty) -> None:
    # a slow link: the arrow's ESC arrives alone, its "[A" 50 ms later (more than the 30 ms
    # a key's bytes normally take, less than the wait after a lone ESC)
    import time

    def later() -> None:
        time.sleep(0.05)
        os.write(pty.master, b"[A")

    def esc_then_rest() -> None:
        os.write(pty.master, b"\x1b")
        threading.Thread(target=later, daemon=True).start()

    assert read_confirm_key(pty.slave, ready=esc_then_rest) is ConfirmAnswer.NO
    assert termios.tcgetattr(pty.slave)[3] & termios.ISIG


def test_pty_typeahead_does_not_answer(pty: Pty) -> None:
    assert pty.read_key(b"n", typeahead=b"y") is ConfirmAnswer.NO


@pytest.mark.parametrize("keys", [b"\x1b[A", b"n" + b"pasted text " * 20])
def test_pty_multibyte_keys_and_pastes_are_drained_entirely(pty: Pty, keys: bytes) -> None:
    assert pty.read_key(keys) is ConfirmAnswer.NO
    # Nothing of the key or paste is left for the next reader (the shell's prompt).
    saved = termios.tcgetattr(pty.slave)
    tty.setraw(pty.slave, termios.TCSANOW)  # not TCSAFLUSH: that would hide leftovers
    try:
        assert select.select([pty.slave], [], [], 0.3)[0] == []
    finally:
        termios.tcsetattr(pty.slave, termios.TCSANOW, saved)


def test_non_tty_declines() -> None:
    read_fd, write_fd = os.pipe()
    try:
        os.write(write_fd, b"y")
        assert read_confirm_key(read_fd, offers_always=True) is ConfirmAnswer.NO
        console = Console(file=io.StringIO(), width=100, force_terminal=False)
        assert ask_confirm(console, TOUCH, read_fd) is ConfirmAnswer.NO
        assert console.file.getvalue() == "⚠ run: touch x — writes files  [y/N/a] no\n"  # type: ignore[attr-defined]
    finally:
        os.close(read_fd)
        os.close(write_fd)


def test_ask_confirm_on_a_pty_echoes_the_answer(pty: Pty) -> None:
    def ask(ready: Callable[[], None]) -> ConfirmAnswer:
        class FlushSignals(io.StringIO):
            def flush(self) -> None:
                ready()  # the question is flushed once raw mode is on and type-ahead gone

        console = Console(file=FlushSignals(), width=100, force_terminal=False)
        answer = ask_confirm(console, RM, pty.slave)
        outputs.append(console.file.getvalue())  # type: ignore[attr-defined]
        return answer

    outputs: list[str] = []
    assert pty.press(b"y", ask) is ConfirmAnswer.YES
    assert outputs[0].endswith("[y/N] yes\n")


# --------------------------------------------------------------------------- short prompts


def rows_at(prompt_line: object, width: int) -> list[str]:
    console = Console(file=io.StringIO(), width=width, force_terminal=False)
    console.print(prompt_line)
    return console.file.getvalue().splitlines()  # type: ignore[attr-defined]


def test_each_reason_once_without_repeating_the_command() -> None:
    request = ConfirmRequest("execute_command", "$ rm -rf build", Verdict(
        "ask", dangerous=True, reasons=("deletes files recursively: rm -rf build",
                                        "deletes files: rm -rf build", "forced",
                                        "Forced", "deletes files recursively: rm -rf build")),
                             command="rm -rf build")
    plain = build_confirm_prompt(request).plain
    assert plain == "⚠ DANGEROUS run: rm -rf build — deletes files recursively; forced  [y/N]"
    assert plain.count("rm -rf build") == 1


def test_a_long_command_is_folded_within_eight_rows_at_50_columns() -> None:
    long_find = ("find . -type f -name '*.tmp' -o -name '*.bak' -o -name '*.orig' "
                 + " ".join(f"-o -name '*.x{i}'" for i in range(60)) + " | xargs rm -f")
    request = ConfirmRequest("execute_command", "", Verdict(
        "ask", dangerous=True, reasons=("deletes files: xargs rm -f", "runs a command for "
                                        "every input line (xargs)")), command=long_find)
    prompt = build_confirm_prompt(request, width=50)
    rows = rows_at(prompt.line, 50)
    assert len(rows) <= 8
    assert "more characters (v shows all)" in prompt.plain and "[y/N/v]" in prompt.plain
    assert prompt.plain.count("xargs rm -f") <= 2
    assert prompt.full is not None and prompt.full.endswith("| xargs rm -f")


def test_a_many_line_command_shows_first_and_last_lines() -> None:
    script = "\n".join(f"echo step {i}" for i in range(30))
    prompt = build_confirm_prompt(ConfirmRequest("execute_command", "", Verdict("ask"),
                                                 command=script), width=50)
    assert "echo step 0" in prompt.plain and "echo step 29" in prompt.plain
    assert "… 28 more lines" in prompt.plain and "echo step 15" not in prompt.plain


def test_sandbox_retry_is_one_line_without_always() -> None:
    request = ConfirmRequest("execute_command", "$ npm install", Verdict("ask"),
                             command="npm install", kind="sandbox_retry",
                             blocked="network access to registry.npmjs.org")
    prompt = build_confirm_prompt(request, width=110)
    assert not prompt.offers_always and prompt.plain.endswith("[y/N]")
    assert "the sandbox blocked network access to registry.npmjs.org" in prompt.plain
    assert "npm install" in prompt.plain and len(rows_at(prompt.line, 110)) == 1


def ask_with_keys(pty: Pty, request: ConfirmRequest, keys: list[bytes]) -> tuple[
        ConfirmAnswer, str]:
    """Run ``ask_confirm`` on the pty, typing one key each time it shows something."""
    shown = threading.Semaphore(0)

    class FlushSignals(io.StringIO):
        seen = 0

        def flush(self) -> None:  # only a flush of something new means "shown"
            if len(self.getvalue()) > self.seen:
                self.seen = len(self.getvalue())
                shown.release()

    console = Console(file=FlushSignals(), width=100, force_terminal=False)
    result: list[ConfirmAnswer] = []
    thread = threading.Thread(target=lambda: result.append(
        ask_confirm(console, request, pty.slave)), daemon=True)
    thread.start()
    for key in keys:
        assert shown.acquire(timeout=30)
        os.write(pty.master, key)
    thread.join(30)
    assert not thread.is_alive()
    return result[0], console.file.getvalue()


@pytest.mark.parametrize(("scope", "answer"), [(b"s", ConfirmAnswer.ALWAYS),
                                               (b"p", ConfirmAnswer.PROJECT),
                                               (b"f", ConfirmAnswer.FOREVER),
                                               (b"x", ConfirmAnswer.NO)])
def test_pty_a_asks_how_long(pty: Pty, scope: bytes, answer: ConfirmAnswer) -> None:
    got, text = ask_with_keys(pty, TOUCH, [b"a", scope])
    assert got is answer
    assert "[s] this session  [p] this project  [f] always" in text


def test_pty_a_at_a_dangerous_prompt_says_why_and_asks_again(pty: Pty) -> None:
    got, text = ask_with_keys(pty, RM, [b"a", b"y"])
    assert got is ConfirmAnswer.YES
    assert "a is not offered: the gate marked this dangerous" in text


def test_pty_v_shows_a_folded_command_whole(pty: Pty) -> None:
    script = "\n".join(f"echo step {i}" for i in range(30))
    request = ConfirmRequest("execute_command", "", Verdict("ask"), command=script)
    got, text = ask_with_keys(pty, request, [b"v", b"n"])
    assert got is ConfirmAnswer.NO
    assert "echo step 15" in text and text.rstrip().endswith("no")


@pytest.mark.parametrize("request_", [TOUCH, RM])
def test_pty_ctrl_c_after_a_stops_too(pty: Pty, request_: ConfirmRequest) -> None:
    got, text = ask_with_keys(pty, request_, [b"a", b"\x03"])
    assert got is ConfirmAnswer.STOP
    assert text.rstrip().endswith("stopped — the turn ends here")


def test_dangerous_is_a_word_visible_without_colour() -> None:
    # With NO_COLOR the two prompts must still differ by more than [y/N] vs [y/N/a].
    console = Console(file=io.StringIO(), width=100, no_color=True, force_terminal=True)
    for request in (RM, TOUCH):
        console.print(build_confirm_prompt(request).line)
    dangerous, ordinary = console.file.getvalue().splitlines()  # type: ignore[attr-defined]
    assert "DANGEROUS" in dangerous and "DANGEROUS" not in ordinary


def test_an_approved_sandbox_rerun_is_not_asked_again(pty: Pty) -> None:
    request = ConfirmRequest("execute_command", "$ touch /x/y", Verdict("ask", True),
                             command="touch /x/y", kind="sandbox_retry", approved=True,
                             blocked="a write outside the working tree (touch: Permission "
                                     "denied)")
    console = Console(file=io.StringIO(), width=100, force_terminal=False)
    assert ask_confirm(console, request, pty.slave) is ConfirmAnswer.YES  # no key was typed
    text = console.file.getvalue()  # type: ignore[attr-defined]
    assert "[y/N]" not in text and "you approved that" in text


def test_pty_a_for_a_file_write_allows_it_for_the_session(pty: Pty) -> None:
    # Rules in rules.toml are about commands; a write is remembered for the session only.
    request = ConfirmRequest("write_file", "write notes.txt (1 line)", Verdict("ask"),
                             path="notes.txt")
    got, text = ask_with_keys(pty, request, [b"a"])
    assert got is ConfirmAnswer.ALWAYS and "this project" not in text
