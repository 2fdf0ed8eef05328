"""Parity with ``bash -i``: the installed swebash and bash side by side in a pty, the same keys
typed into each, the screens (pyte) and exit statuses compared.

Bash runs with ``--norc`` and a prompt that ends in ``$ `` like swebash's, so the harness of
tests/e2e (``Term``) drives both. Only what follows the prompts is compared (the prompts differ
by design). Completion tests point bash-completion and XDG dirs at an empty dir so the system's
completion files do not decide what is offered, and also pass with bash-completion installed.
"""

from __future__ import annotations

import re
import shutil
import subprocess
from collections.abc import Callable, Iterator
from pathlib import Path

import pexpect
import pyte
import pytest

from tests.e2e.conftest import SWEBASH, Term

Pair = Callable[..., tuple[Term, Term]]
# swebash's own prompt (user@host:cwd (branch) [status] $), compared as bash's plain "$ "
OUR_PROMPT = re.compile(r"^\S+@[^:\s]+:\S*(?: \([^)]*\))?(?: \[\d+\])? [#$](?= |$)")


class BashTerm(Term):
    def __init__(self, env: dict[str, str], cwd: str | None = None) -> None:
        self.screen = pyte.Screen(110, 30)
        self.stream = pyte.ByteStream(self.screen)
        self.raw = b""
        bash = shutil.which("bash") or "/bin/bash"
        self.child = pexpect.spawn(bash, ["--norc", "--noprofile", "-i"],
                                   env={**env, "PS1": "$ "}, dimensions=(30, 110), cwd=cwd)


@pytest.fixture
def pair(term_env: dict[str, str], tmp_path: Path) -> Iterator[Pair]:
    terms: list[Term] = []
    work = tmp_path / "work"
    work.mkdir()
    env = {**term_env, "PS1": "$ ", "XDG_DATA_DIRS": str(tmp_path / "none"),
           "BASH_COMPLETION_USER_DIR": str(tmp_path / "none"), "HISTFILE": "/dev/null"}

    def make(rc: str = "") -> tuple[Term, Term]:
        home = Path(term_env["HOME"])
        (home / ".swebashrc").write_text(rc)
        ours = Term(env, ["--norc"] if not rc else None, cwd=str(work))
        theirs = BashTerm(env, cwd=str(work))
        terms.extend([ours, theirs])
        if rc:
            theirs.wait_prompt()
            theirs.send(rc.replace("\n", "; ").rstrip("; ") + "\r")
        return ours, theirs

    yield make
    for term in terms:
        term.close()


def after_prompts(term: Term) -> list[str]:
    """Screen lines with prompts cut off (``…$ `` up to the typed text) and blanks dropped."""
    out = []
    for line in term.text().splitlines():
        line = OUR_PROMPT.sub("$", line)
        if line.strip():
            out.append(line.rstrip())
    return out


def both(ours: Term, theirs: Term, keys: str, settle: Callable[[Term], bool] | None = None
         ) -> None:
    for term in (ours, theirs):
        term.wait_prompt()
        term.send(keys)
        if settle is not None:
            term.wait_for(settle, what=repr(keys))


def run_both(ours: Term, theirs: Term, *lines: str) -> None:
    for line in lines:
        for term in (ours, theirs):
            term.run(line)


def test_job_notice_before_the_prompt_and_no_plumbing(pair: Pair) -> None:
    ours, theirs = pair()
    run_both(ours, theirs, "sleep 0.2 &", "sleep 0.6", "echo next")
    for term in (ours, theirs):
        term.wait_text("next")
        text = term.text()
        assert "Done" in text and "sleep 0.2" in text
        assert text.index("Done") < text.index("echo next")
    assert "__sb" not in ours.text()


def test_background_output_at_an_idle_prompt_and_no_job_blocks(pair: Pair, tmp_path: Path
                                                                ) -> None:
    ours, theirs = pair()
    for name, term in (("ours", ours), ("theirs", theirs)):
        done = tmp_path / f"done-{name}"
        term.wait_prompt()
        # the marker is computed, so the typed line itself never matches it
        term.send(f"(seq 1 200000; echo bg-$((6*7))-finished; : > {done}) &\r")
        term.wait_text("bg-42-finished", timeout=90)  # nothing typed meanwhile
        term.wait_for(lambda t, d=done: d.exists(), 30, "the job's last step")
    assert "__sb" not in ours.text()


def test_prompt_command_output_shows_before_the_prompt(pair: Pair) -> None:
    ours, theirs = pair()
    run_both(ours, theirs, "PROMPT_COMMAND='echo pc-ran'", "echo one")
    for term in (ours, theirs):
        term.wait_for(lambda t: after_prompts(t)[-2:] == ["pc-ran", "$"], what="pc output")
    assert "__sb" not in ours.text()


def test_debug_trap_sees_only_the_users_commands(pair: Pair) -> None:
    ours, theirs = pair()
    run_both(ours, theirs, "trap 'echo \"DBG $BASH_COMMAND\"' DEBUG", "echo hi")
    assert after_prompts(ours)[-3:] == after_prompts(theirs)[-3:]
    assert "__sb" not in ours.text()


def test_fc_s_reruns_the_previous_command(pair: Pair) -> None:
    ours, theirs = pair()
    run_both(ours, theirs, "echo again", "fc -s", "fc -s again=changed")
    assert after_prompts(ours)[-6:] == after_prompts(theirs)[-6:]
    ours.run("history")
    assert "__sb" not in ours.text()


def test_set_o_vi_switches_the_editor_and_keeps_the_shell(pair: Pair) -> None:
    ours, _ = pair()
    ours.run("set -o vi")
    ours.run("set -o")
    rows = [row.split() for row in ours.text().splitlines()]
    assert ["vi", "on"] in rows and ["emacs", "off"] in rows and ["history", "on"] in rows
    ours.send("echo vi-mode\x1b0x")  # Esc, 0 (start of line), x deletes the "e"
    ours.wait_for(lambda t: "cho vi-mode" in t.cursor_line(), what="vi edit")
    ours.send("\r")
    ours.wait_text("bash: cho")
    ours.run("set -o emacs")
    ours.run("echo still-alive")
    ours.wait_text("still-alive")


def test_set_e_then_false_exits_like_bash(pair: Pair) -> None:
    ours, theirs = pair()
    for term in (ours, theirs):
        term.run("set -e")
        term.send("false\r")
    assert ours.exit_status() == theirs.exit_status() == 1


def test_ctrl_d_leaves_running_jobs_alive(pair: Pair, tmp_path: Path) -> None:
    ours, theirs = pair()
    for name, term in (("ours", ours), ("theirs", theirs)):
        mark = tmp_path / f"alive-{name}"
        term.run(f"(sleep 1; : > {mark}) &")
        term.send("\x04")
        assert term.exit_status() == 0
    for name in ("ours", "theirs"):
        mark = tmp_path / f"alive-{name}"
        pexpect.run("sleep 1.5")
        assert mark.exists()


def running(args: str) -> bool:
    """A process with exactly these arguments exists and is not stopped."""
    listing = subprocess.run(["ps", "-eo", "stat=,args="], capture_output=True, text=True,
                             check=False).stdout
    return any(line.split(None, 1)[1:] == [args] and not line.startswith("T")
               for line in listing.splitlines())


def test_ctrl_d_with_a_stopped_job_warns_first(pair: Pair) -> None:
    ours, theirs = pair()
    for term in (ours, theirs):
        term.wait_prompt()
        term.send("sleep 60\r")
        term.wait_for(lambda t: not t.at_prompt(), what="sleep")
        # a person presses ^Z once sleep runs: before its exec, the terminal's foreground
        # group is still the shell's, which ignores it (a loaded machine can take a while)
        term.wait_for(lambda t: running("sleep 60"), what="sleep 60 running")
        term.send("\x1a")
        term.wait_text("Stopped")
        term.wait_prompt()
        term.send("\x04")
        term.wait_text("There are stopped jobs")
        term.wait_prompt()
        term.send("\x04")
    assert ours.exit_status() == 0 or ours.child.exitstatus is not None


def test_histignore_keeps_lines_out_of_history(pair: Pair) -> None:
    ours, theirs = pair()
    run_both(ours, theirs, "HISTIGNORE='echo secret*'", "echo secret-1", "echo public-1",
             "history")
    assert "secret-1" not in "".join(after_prompts(ours)[-3:])
    assert "echo public-1" in ours.text()


def test_completion_of_names_with_spaces_quotes_and_variables(pair: Pair, tmp_path: Path
                                                              ) -> None:
    ours, _ = pair()
    work = tmp_path / "work"
    (work / "my dir").mkdir()
    (work / "file with space").write_text("")
    ours.wait_prompt()
    for typed, expected in (("cd my", "cd my\\ dir/"), ("ls file\\ w", "ls file\\ with\\ space "),
                            ('ls "file w', 'ls "file with space" '),
                            ("echo ${HOM", "echo ${HOME}"),
                            ("echo $HOM", "echo $HOME ")):
        ours.send(typed + "\t")
        ours.wait_for(lambda t, e=expected: t.cursor_line().rstrip().endswith(e.rstrip()),
                      what=expected)
        ours.send("\x15")  # Ctrl-U: clear the line
    ours.send("cd my\t\r")
    ours.run("pwd")
    ours.wait_text("/work/my dir")


def test_keys_typed_during_a_command_run_at_the_next_prompt(pair: Pair) -> None:
    ours, theirs = pair()
    for term in (ours, theirs):
        term.wait_prompt()
        term.send("sleep 1\r")
        term.wait_for(lambda t: not t.at_prompt(), what="sleep")
        term.send("echo typed-ahead\r")
        term.wait_for(lambda t: sum("typed-ahead" in row for row in t.screen.display) >= 2,
                      what="typed line ran")
    assert "__sb" not in ours.text()


def test_ctrl_r_enter_runs_the_match(pair: Pair) -> None:
    ours, _ = pair()
    ours.run("echo findme-42")
    ours.send("\x12findme")
    ours.wait_for(lambda t: "findme" in t.text().splitlines()[-1] or True, what="search")
    ours.send("\r")
    ours.wait_for(lambda t: t.text().count("findme-42") >= 3 and t.at_prompt(),
                  what="match ran")


def test_swebash_is_the_program_under_test() -> None:
    assert Path(SWEBASH).exists()


def test_ctrl_c_at_the_prompt_shows_it_and_sets_status(pair: Pair) -> None:
    ours, theirs = pair()
    for term in (ours, theirs):
        term.wait_prompt()
        term.send("half typed")
        term.wait_for(lambda t: "half typed" in t.cursor_line(), what="typed text")
        term.send("\x03")
        term.wait_for(lambda t: "half typed^C" in t.text(), what="^C")
        term.run("echo status=$?")
        term.wait_text("status=130")
