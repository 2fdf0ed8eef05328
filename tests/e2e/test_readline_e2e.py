"""Readline's behaviour in swebash's editor, side by side with ``bash -i`` where parity is the
point: Tab completion and its listing, an inputrc, Ctrl-O, Ctrl-Z, ``stty -echo``, an INT
trap, vi ``/`` and ``.``; and swebash alone for what needs it: ``bind -x`` widgets with fzf's
real key-binding script, TERM=dumb, a slow completion function.

Both shells see the same keys, the same HOME (so the same ~/.inputrc) and the same working
directory; only what follows the prompts is compared. The emulated terminal answers cursor
position requests, as a real one does (fzf asks before drawing).
"""

from __future__ import annotations

import shutil
import termios
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from tests.e2e.conftest import Term
from tests.e2e.test_parity_e2e import BashTerm, after_prompts

FZF_BINDINGS = Path("/usr/share/doc/fzf/examples/key-bindings.bash")
SPINNER = "⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏"
Pair = Callable[..., tuple[Term, Term]]
CLEAR = ("\x15", "$")  # Ctrl-U on a line whose cursor is at its end: an empty prompt


def answers_cpr(term: Term) -> Term:
    term.screen.write_process_input = term.child.send
    return term


@pytest.fixture
def work(tmp_path: Path) -> Path:
    folder = tmp_path / "work"
    folder.mkdir()
    return folder


@pytest.fixture
def env(term_env: dict[str, str], tmp_path: Path) -> dict[str, str]:
    return {**term_env, "PS1": "$ ", "HISTFILE": "/dev/null", "SWEBASH_BASH_COMPLETION": "",
            "XDG_DATA_DIRS": str(tmp_path / "none"),
            "BASH_COMPLETION_USER_DIR": str(tmp_path / "none")}


@pytest.fixture
def pair(env: dict[str, str], work: Path) -> Iterator[Pair]:
    terms: list[Term] = []

    def make() -> tuple[Term, Term]:
        (Path(env["HOME"]) / ".swebashrc").write_text("PS1='$ '\n")  # bash's prompt too
        ours = Term(env, cwd=str(work))
        theirs = BashTerm(env, cwd=str(work))
        terms.extend([ours, theirs])
        return ours, theirs

    yield make
    for term in terms:
        term.close()


def has_row(term: Term, text: str) -> bool:
    return any(row.rstrip() == text for row in term.screen.display)


def readline_reads(term: Term) -> bool:
    """Bash's readline has the terminal (out of canonical mode): keys are its own now."""
    return not termios.tcgetattr(term.child.child_fd)[3] & termios.ICANON


def fzf_counter(term: Term, count: str) -> bool:
    """fzf's info line shows ``count`` matches (``1/3``)."""
    return any(row.strip().startswith(count) for row in term.screen.display)


def at_fresh_prompt(term: Term, before: str) -> bool:
    return term.cursor_line().rstrip() == "$" and term.text() != before


def both(ours: Term, theirs: Term, *steps: str | tuple[str, str]) -> None:
    """Each step: keys, or (keys, what the cursor's row then shows — "row:…" for any row),
    in both terminals; keys ending in Enter wait for the next empty prompt."""
    for term in (ours, theirs):
        term.wait_prompt()
        for step in steps:
            keys, wait = step if isinstance(step, tuple) else (step, "")
            before = term.text()
            term.send(keys)
            if wait.startswith("row:"):
                term.wait_for(lambda t, w=wait[4:]: has_row(t, w), what=repr(wait))
            elif wait:
                term.wait_for(lambda t, w=wait: t.cursor_line().rstrip() == w, what=repr(wait))
            elif keys.endswith("\r"):
                term.wait_for(lambda t, b=before: at_fresh_prompt(t, b),
                              what=f"the prompt after {keys!r}")
                if isinstance(term, BashTerm):  # readline takes the terminal after it
                    term.wait_for(readline_reads, what="bash's readline")


def test_tab_completes_and_lists_like_bash(pair: Pair, work: Path) -> None:
    (work / "my dir").mkdir()
    (work / "mine.txt").write_text("")
    for name in ("prog.c", "prog.o"):
        (work / name).write_text("")
    ours, theirs = pair()
    both(ours, theirs,
         "complete -W 'apple apricot banana' fruit\r",
         ("fruit a\t", "$ fruit ap"), "\t", ("\t", "row:apple    apricot"), CLEAR,
         ("fruit \t\t", "row:apple    apricot  banana"), CLEAR,
         "_one() { compopt -o nospace; COMPREPLY=(word); }; complete -F _one one\r",
         ("one \tX", "$ one wordX"), CLEAR,
         "complete -o filenames -W 'my\\ dir other' fl\r",
         ("fl m\tX", "$ fl my\\ dir/X"), CLEAR,
         ("ls \"my d\tX", '$ ls "my dir"/X'), CLEAR,
         ("echo $HOM\tX", "$ echo $HOME/X"), CLEAR,
         "FIGNORE=.o\r", ("cat prog\tX", "$ cat prog.c X"), CLEAR,
         "cd my\t\r", "pwd\r")
    ours.wait_text("/work/my dir")
    assert after_prompts(ours)[1:] == after_prompts(theirs)[1:]


def test_inputrc_like_bash(pair: Pair, work: Path, env: dict[str, str]) -> None:
    home = Path(env["HOME"])
    (home / ".inputrc").write_text(
        "$include ~/more.inputrc\n"
        "set completion-ignore-case on\n"
        "$if term=xterm-256color\n"
        '"\\e[A": history-search-backward\n'
        "$endif\n"
        "$if mode=emacs\n"
        '"\\C-xq": "echo from-a-macro"\n'
        "$endif\n")
    (home / "more.inputrc").write_text("set show-all-if-ambiguous on\n")
    (work / "Makefile").write_text("")
    (work / "main.c").write_text("")
    ours, theirs = pair()
    both(ours, theirs, "echo one\r", "echo two\r", "true\r",
         ("ec\x1b[AX", "$ ecXho two"), "\r",
         ("ls ma\t", "row:Makefile  main.c"), CLEAR,
         ("\x18q", "$ echo from-a-macro"), "\r")
    assert after_prompts(ours)[-9:] == after_prompts(theirs)[-9:]
    ours.wait_text("bash: ecXho: command not found")


def test_keys_like_bash(pair: Pair) -> None:
    ours, theirs = pair()
    both(ours, theirs, "echo a\r", "echo b\r", "echo c\r",
         ("\x1b[A\x1b[A", "$ echo b"), ("\x0f", "$ echo c"), "\r",  # Ctrl-O
         ("echo x", "$ echo x"), ("\x1ay", "$ echo xy"), "\r",  # Ctrl-Z: nothing
         "stty -echo\r", "echo secret\r", "stty echo\r", "echo visible\r",
         "set -o vi\r", "echo one\r", "echo two\r",
         ("\x1b", ""), ("/one\r", "$ echo one"), "\r",  # vi / puts the match in the line
         "echo abc def ghi", ("\x1b", ""), "0dw.\r",  # vi . repeats dw
         "set -o emacs\r")
    assert after_prompts(ours)[3:] == after_prompts(theirs)[3:]
    assert "echo secret" not in ours.text()
    # a user's INT trap fires on Ctrl-C at the prompt (bash draws it over its prompt line)
    for term in (ours, theirs):
        term.run("trap 'echo got-int' INT")
        term.send("half")
        term.wait_for(lambda t: "half" in t.cursor_line(), what="typed text")
        term.send("\x03")
        term.wait_text("got-int")
        term.run("echo status=$?")
        term.wait_text("status=130")
    # a line typed after Ctrl-C stopped a command shows (the pty's echo was readline's then)
    for term in (ours, theirs):
        term.run("trap - INT")
        term.send("sleep 30\r")
        term.wait_for(lambda t: not t.at_prompt(), what="sleep")
        time.sleep(0.3)
        term.send("\x03")
        term.wait_prompt()
        term.send("echo typed-after")
        term.wait_for(lambda t: "$ echo typed-after" in t.cursor_line(), what="the typed line")


def test_bind_x_widgets_and_fzf(env: dict[str, str], work: Path) -> None:
    (work / "deep").mkdir()
    (work / "deep" / "needle-file.txt").write_text("")
    (work / "other.txt").write_text("")
    # (not on C-y: fzf's Alt-C macro yanks with it)
    rc = ('bind -x \'"\\C-xy": READLINE_LINE="[${READLINE_LINE:0:$READLINE_POINT}|'
          '${READLINE_LINE:$READLINE_POINT}]"; READLINE_POINT=1\'\n')
    have_fzf = shutil.which("fzf") is not None and FZF_BINDINGS.exists()
    if have_fzf:
        rc += f"source {FZF_BINDINGS}\n"
    (Path(env["HOME"]) / ".swebashrc").write_text(rc)
    term = answers_cpr(Term(env, cwd=str(work)))
    try:
        # a widget from the rc file: READLINE_LINE/POINT in and out
        term.wait_prompt()
        term.send("abc\x1b[D\x18yX")
        term.wait_for(lambda t: "[Xab|c]" in t.cursor_line(), what="the widget's line")
        term.send("\x05\x15")
        # one bound at the prompt works from the next prompt on
        term.run("bind -x '\"\\C-xw\": READLINE_LINE=typed-widget; READLINE_POINT=5'")
        term.send("\x18w!")
        term.wait_for(lambda t: "typed!-widget" in t.cursor_line(), what="typed widget")
        term.send("\x05\x15")
        term.run("bind -X")
        term.wait_text('"\\C-xw": "READLINE_LINE=typed-widget; READLINE_POINT=5"')
        if not have_fzf:
            pytest.skip("fzf is not installed: its key bindings were not tried")
        term.run("echo history-needle-one")
        term.run("echo history-needle-two")
        term.send("ls \x14")  # Ctrl-T: fzf's file finder on the terminal
        term.wait_for(lambda t: "needle-file.txt" in t.text(), what="fzf's list")
        term.send("needle")
        term.wait_for(lambda t: fzf_counter(t, "1/3"), what="fzf's filter")
        term.send("\r")
        term.wait_for(lambda t: "ls deep/needle-file.txt" in t.cursor_line(), what="Ctrl-T")
        term.send("\x05\x15\x12")  # Ctrl-R: fzf over the history
        term.wait_for(lambda t: "history-needle-two" in t.text().split("\n")[-1]
                      or "echo history-needle-one" in t.text(), what="fzf's history")
        term.send("needle-one")
        term.wait_for(lambda t: fzf_counter(t, "1/"), what="fzf's history filter")
        term.send("\r")
        term.wait_for(lambda t: t.cursor_line().rstrip().endswith("echo history-needle-one"),
                      what="Ctrl-R")
        # Alt-C: fzf's cd, a macro with shell-expand-line and an Enter; the keys after its
        # Enter give the next prompt the line that was being typed, cursor included (bash:
        # "$ echo keep ab", cursor before "ab")
        term.send("\x05\x15echo keep ab\x1b[D\x1b[D\x1bc")
        term.wait_for(lambda t: fzf_counter(t, "1/1"), what="fzf's directories")
        term.send("deep\r")
        term.wait_for(lambda t: t.cursor_line().rstrip() == "$ echo keep ab"
                      and t.screen.cursor.x == len("$ echo keep "), what="the line back")
        term.send("\x05\x15")
        term.run("pwd")
        term.wait_text(str(work / "deep"))
    finally:
        term.close()


def test_dumb_terminal_and_a_slow_completion(env: dict[str, str], work: Path) -> None:
    dumb = Term({**env, "TERM": "dumb"}, ["--norc"], cwd=str(work))
    try:
        dumb.wait_for(lambda t: t.cursor_line().rstrip().endswith(("$", "#")), what="prompt")
        dumb.send("echo abc\x7f\x7f")
        dumb.wait_for(lambda t: t.cursor_line().rstrip().endswith("echo a"), what="backspace")
        dumb.send("\x01X")
        dumb.wait_for(lambda t: t.cursor_line().rstrip().endswith("Xecho a"), what="Ctrl-A X")
        dumb.send("\r")
        dumb.wait_text("Xecho: command not found")
        dumb.send("\x1b[A")
        dumb.wait_for(lambda t: t.cursor_line().rstrip().endswith("Xecho a"), what="history")
        assert "\x1b" not in dumb.raw.decode("utf-8", "replace").split("Xecho a")[-1]
    finally:
        dumb.close()
    term = Term(env, ["--norc"], cwd=str(work))
    try:
        term.run("_slow() { sleep 1.5; COMPREPLY=(late); }; complete -F _slow slowcmd")
        term.run("_hang() { sleep 60; COMPREPLY=(never); }; complete -F _hang hang")
        term.send("slowcmd \t")
        term.wait_for(lambda t: any(c in t.cursor_line() for c in SPINNER), what="spinner")
        term.send("Z")  # typed while bash works: applied after the completion, as readline
        term.wait_for(lambda t: t.cursor_line().rstrip().endswith("slowcmd late Z"),
                      what="completion, then the key")
        term.send("\x05\x15hang \t")
        term.wait_for(lambda t: any(c in t.cursor_line() for c in SPINNER), what="spinner")
        term.send("\x03")  # Ctrl-C cancels the completion and keeps the line
        term.send("ok")
        term.wait_for(lambda t: t.cursor_line().rstrip().endswith("hang ok"), what="line kept")
        term.send("\x05\x15")
        term.run("echo alive")
        term.wait_text("alive")
    finally:
        term.close()
