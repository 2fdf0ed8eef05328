"""What the screen shows, side by side with `bash -i`: the stock Debian/Ubuntu ~/.bashrc (its
PS1 sets the window title), escapes in PS1 (OSC 133/633 marks, OSC 7, OSC 8 links) reaching the
terminal with zero width, PS0, output without a final newline kept (zsh's PROMPT_SP), the user's
PS1 as the very first prompt, and no erase-below from the top-left cell (which makes tmux copy
the first prompt into its scrollback twice). Each shell runs in a pty read through pyte."""

from __future__ import annotations

import re
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pexpect
import pyte
import pytest

from tests.e2e.conftest import SWEBASH, Term

BASH = shutil.which("bash") or "/bin/bash"
STOCK_BASHRC = Path("/etc/skel/.bashrc")
COLS, ROWS = 100, 30


class WatchedScreen(pyte.HistoryScreen):
    """Remembers every erase-below sent with the cursor in the top-left cell of a screen that
    had something on it (tmux's scroll-on-clear copies the screen into its history then)."""

    def __init__(self) -> None:
        super().__init__(COLS, ROWS, history=1000)
        self.cleared_from_top_left = 0

    def erase_in_display(self, how: int = 0, *args: Any, **kwargs: Any) -> None:
        if how == 0 and (self.cursor.x, self.cursor.y) == (0, 0) and any(
                line.strip() for line in self.display):
            self.cleared_from_top_left += 1
        super().erase_in_display(how, *args, **kwargs)


class Shell(Term):
    def __init__(self, argv: list[str], env: dict[str, str], cwd: str) -> None:
        self.screen = WatchedScreen()
        self.stream = pyte.ByteStream(self.screen)
        self.raw = b""
        self.child = pexpect.spawn(argv[0], argv[1:], env=env, dimensions=(ROWS, COLS), cwd=cwd)

    def lines(self) -> list[str]:
        """Scrollback and screen, blank lines dropped."""
        above = ["".join(line[x].data for x in range(COLS)).rstrip()
                 for line in self.screen.history.top]
        return [line for line in above + self.text().splitlines() if line.strip()]

    def at_prompt(self) -> bool:
        line = self.cursor_line()[: self.screen.cursor.x]
        return line.endswith(("$ ", "# ", "> "))

    def wait_prompt(self, timeout: float = 15.0) -> float:
        return self.wait_for(lambda t: t.at_prompt(), timeout, "the prompt")


@pytest.fixture
def shells(term_env: dict[str, str], tmp_path: Path) -> Iterator[Any]:
    """`make(rc)` starts swebash and bash -i with ``rc`` as ~/.bashrc (colours on)."""
    started: list[Shell] = []
    work = Path(term_env["HOME"])  # `~` in the prompt: short, whatever the temp path

    def make(rc: str) -> tuple[Shell, Shell]:
        home = Path(term_env["HOME"])
        (home / ".bashrc").write_text(rc)
        env = {**term_env, "NO_COLOR": "", "HISTFILE": "/dev/null", "TERM": "xterm-256color"}
        pair = Shell([SWEBASH], env, str(work)), Shell([BASH, "-i"], env, str(work))
        started.extend(pair)
        return pair

    yield make
    for shell in started:
        shell.close()


def cells(shell: Shell, row: int) -> list[tuple[str, str, bool]]:
    line = shell.screen.buffer[row]
    return [(line[x].data, line[x].fg, line[x].bold) for x in range(COLS)]


@pytest.mark.skipif(not STOCK_BASHRC.exists(), reason="no /etc/skel/.bashrc on this system")
def test_stock_bashrc_prompt_title_and_partial_output_beside_bash(shells: Any) -> None:
    ours, theirs = shells(STOCK_BASHRC.read_text())
    for shell in (ours, theirs):
        shell.wait_prompt()
        assert shell.cursor_line().startswith(shell.screen.title.split(": ")[0])
    # the first prompt: the same cells (text, colour, bold) and the same window title
    assert cells(ours, 0) == cells(theirs, 0)
    assert ours.screen.title == theirs.screen.title and "@" in ours.screen.title
    for shell in (ours, theirs):
        shell.run("echo one")
        shell.send("printf 'TOKEN-abc123'\r")
        shell.wait_for(lambda t: "TOKEN-abc123" in t.text() and t.at_prompt(), what="TOKEN")
        shell.run("true")
        shell.run("echo two")
        shell.send("seq 1 40\r")  # the TOKEN line scrolls up into the scrollback
        shell.wait_for(lambda t: "\n40\n" in t.text() and t.at_prompt(), what="seq")
    above = ["".join(line[x].data for x in range(COLS)).rstrip()
             for line in ours.screen.history.top]
    assert "TOKEN-abc123%" in above
    ours_lines, theirs_lines = ours.lines(), theirs.lines()
    # bash leaves the output on the prompt's line; swebash keeps it, marks it and starts the
    # prompt on a fresh line (zsh's PROMPT_SP); everything else is the same
    assert "TOKEN-abc123%" in ours_lines
    joined = [line.replace("TOKEN-abc123%", "TOKEN-abc123") for line in ours_lines]
    merged = []
    for line in joined:
        if merged and merged[-1] == "TOKEN-abc123":
            merged[-1] += line
        else:
            merged.append(line)
    assert merged == theirs_lines
    for shell in (ours, theirs):  # the title escape never shows as text
        assert not re.search(r"\]0;|\^G|0;\S+@", shell.text())
    assert ours.screen.cleared_from_top_left == 0
    assert ours_lines.count(ours_lines[0]) == 1  # the first prompt is not in the scrollback twice


def test_osc_marks_links_and_ps0_pass_through_zero_width(shells: Any) -> None:
    marks = {"a133": "\x1b]133;A\x07", "b133": "\x1b]133;B\x1b\\", "m633": "\x1b]633;P;Cwd=/w\x07",
             "osc7": "\x1b]7;file://host/w\x1b\\", "link": "\x1b]8;;https://example.com/\x1b\\",
             "unlink": "\x1b]8;;\x1b\\", "private_csi": "\x1b[?12h", "c0": "\x07"}
    # marks inside \[ \] (as shell integrations write them) and one outside, as bash allows
    ps1 = ("\\[{a133}{m633}\\]\\[{osc7}\\]{link}here{unlink}> \\[{private_csi}{c0}\\]"
           "\\[{b133}\\]").format(**{
               k: v.replace("\\", "\\\\").replace("\x1b", "\\e").replace("\x07", "\\a")
               for k, v in marks.items()})
    # (no \\[ \\] in PS0: bash 5.2 prints them there as SOH/STX, which pyte mistakes)
    rc = f"PS1='{ps1}'\nPS0='\\e]133;C\\aps0:'\n"
    ours, theirs = shells(rc)
    for shell in (ours, theirs):
        shell.wait_prompt()
        shell.send("echo x")
        shell.wait_for(lambda t: t.cursor_line().startswith("here> echo x"), what="typed")
        shell.send("\r")
        shell.wait_for(lambda t: t.text().count("here>") == 2 and t.at_prompt(),
                       what="the next prompt")
    assert ours.text() == theirs.text()
    assert "ps0:x" in ours.text()
    assert ours.screen.cursor.x == theirs.screen.cursor.x == len("here> ")
    for name, sequence in marks.items():
        assert sequence.encode() in ours.raw, name
    assert b"\x1b]133;C\x07ps0:x" in ours.raw
    link = ours.raw.index(marks["link"].encode())
    assert ours.raw.index(b"here", link) < ours.raw.index(marks["unlink"].encode(), link)
    # the end-of-prompt mark comes right after the prompt's last cell, before what is typed
    first = ours.raw.index(marks["b133"].encode())
    assert ours.raw.rfind(b"> ", 0, first) > ours.raw.rfind(b"echo", 0, first)


def test_first_prompt_is_the_users_own_from_the_first_byte(shells: Any) -> None:
    ours, _ = shells("sleep 0.3\nPS1='mine\\$ '\n")
    ours.wait_for(lambda t: "mine" in t.text(), what="the first prompt")
    ours.send("echo early")  # at once: echoed, and run by the line editor once it is up
    ours.wait_for(lambda t: "mine# echo early" in t.text() or "mine$ echo early" in t.text(),
                  what="the early prompt with the typed keys")
    ours.send("\r")
    ours.wait_for(lambda t: "\nearly" in "\n" + t.text(), what="the command ran")
    ours.wait_prompt()
    plain = re.sub(rb"\x1b\[[0-9;?]*[A-Za-z]|\x1b\][^\x07]*\x07", b"", ours.raw)
    assert plain.startswith(b"mine")  # nothing drawn before the user's prompt
    assert not re.search(rb"@\S+:\S* [$#] ", plain)  # swebash's default prompt never drawn
