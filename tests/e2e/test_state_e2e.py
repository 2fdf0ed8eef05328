"""State like bash (issue 17 item 6), side by side with ``bash -i`` where parity is the point:
PIPESTATUS, PROMPT_COMMAND as the user set it, bash-preexec (the real one, and a small hook
script with the same DEBUG-trap + PROMPT_COMMAND install contract), ignoreeof, histverify,
``set -o vi`` anywhere, ``exec`` of a shell and of swebash, HISTFILE, and a history file that
keeps every entry (also when it is a symlink)."""
# ruff: noqa: F811  (the parity tests' `pair` fixture is imported, then named as a parameter)

from __future__ import annotations

import os
import shutil
import subprocess
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.e2e.conftest import SWEBASH, Term
from tests.e2e.test_parity_e2e import Pair, after_prompts, pair, run_both  # noqa: F401

Spawn = Callable[..., Term]
PREEXEC_REPO = Path("/work/.mirror/rcaloras+bash-preexec/repo")

HOOKS = """
hk_installs=0 hk_armed=
hk_install() {
  hk_installs=$((hk_installs + 1))
  trap 'hk_pre' DEBUG
  PROMPT_COMMAND=(hk_precmd "${PROMPT_COMMAND[@]/hk_install/}" hk_arm)
}
hk_pre() { [[ -n $hk_armed ]] || return 0; hk_armed=; echo "pre[$BASH_COMMAND] $hk_installs"; }
hk_precmd() { echo "precmd"; }
hk_arm() { hk_armed=1; }
PROMPT_COMMAND+=(hk_install)
"""


def test_pipestatus_between_lines_and_in_prompt_command(pair: Pair) -> None:
    ours, theirs = pair("PROMPT_COMMAND='echo \"pc:${PIPESTATUS[*]}:$?\"'")
    run_both(ours, theirs, "cd /", "false | true", 'echo "ps:${PIPESTATUS[*]}"',
             "true | (exit 3) | true", "(exit 4)", 'echo "ps:${PIPESTATUS[*]}"')
    assert after_prompts(ours)[-11:] == after_prompts(theirs)[-11:]
    assert "pc:1 0:0" in ours.text() and "pc:0 3 0:0" in ours.text()


def test_prompt_command_as_the_user_set_it(pair: Pair) -> None:
    ours, theirs = pair()
    run_both(ours, theirs, "cd /", "PROMPT_COMMAND='echo A'",
             'PROMPT_COMMAND="echo B;$PROMPT_COMMAND"', 'echo "[$PROMPT_COMMAND]"',
             "PROMPT_COMMAND+=('echo C')",
             'PROMPT_COMMAND="${PROMPT_COMMAND:+$PROMPT_COMMAND;}echo D"',
             'echo "[${PROMPT_COMMAND[0]}]"', "unset PROMPT_COMMAND",
             'echo "[${PROMPT_COMMAND-unset}]"')
    assert after_prompts(ours)[-16:] == after_prompts(theirs)[-16:]
    assert "[echo B;echo A]" in ours.text() and "[unset]" in ours.text()
    assert "__sb" not in ours.text()
    # readonly (an audit hook in /etc/profile does it): it runs before every prompt, as in bash
    run_both(ours, theirs, "readonly PROMPT_COMMAND='echo ro-pc'", "echo one", "false",
             "echo $?")
    assert after_prompts(ours)[-8:] == after_prompts(theirs)[-8:]
    assert "cannot unset" not in ours.text()


@pytest.mark.parametrize("hooks", ["bash-preexec", "self-written"])
def test_preexec_hooks_install_once_and_fire_once_per_command(pair: Pair, tmp_path: Path,
                                                              hooks: str) -> None:
    script = tmp_path / "hooks.sh"
    if hooks == "bash-preexec":
        if not PREEXEC_REPO.is_dir():
            pytest.skip("no copy of bash-preexec's repository on this machine")
        source = subprocess.run(["git", f"--git-dir={PREEXEC_REPO}", "show",
                                 "HEAD:bash-preexec.sh"], capture_output=True, check=True)
        script.write_bytes(source.stdout + b"\npreexec() { echo \"pre[$1]\"; }\n"
                                           b"precmd() { echo precmd; }\n")
    else:
        script.write_text(HOOKS)
    ours, theirs = pair(f"source {script}")
    run_both(ours, theirs, "echo one", "echo two; echo three", "true")
    expected = after_prompts(theirs)[-10:]
    assert after_prompts(ours)[-10:] == expected
    text = "\n".join(after_prompts(ours))
    # (the self-written script's first hook fires from the second command on, in bash too)
    fired = ("echo one", "echo two", "true") if hooks == "bash-preexec" else ("echo two", "true")
    for command in fired:
        assert text.count(f"pre[{command}") == 1, text
    assert text.count("pre[") == len(fired)
    # one per command, and the first prompt's (bash-preexec runs it when it installs)
    assert text.count("precmd") == (4 if hooks == "bash-preexec" else 3)
    if hooks == "self-written":
        assert "pre[true] 1" in text  # installed once


def test_set_u_in_the_rc_file_and_set_x_after_a_debug_trap_as_bash(pair: Pair) -> None:
    # the user's options hold for their commands and PROMPT_COMMAND, never for swebash's hook
    ours, theirs = pair("set -u")
    run_both(ours, theirs, "echo ok", "echo $NOPE_UNSET; echo after", "false | true",
             'echo "ps:${PIPESTATUS[*]}"', "PROMPT_COMMAND='echo \"pc:$NOPE_PC\"'", "true",
             "set +u", "echo done")
    assert after_prompts(ours)[-13:] == after_prompts(theirs)[-13:]
    assert "ps:1 0" in ours.text() and "done" in ours.text()
    assert ours.text().count("NOPE_PC: unbound variable") == 2
    # `trap - DEBUG` removes it (bash puts back what an untraced function removed), so set -x
    # then traces the command alone (with one more +: the line runs in an eval, README)
    run_both(ours, theirs, "unset PROMPT_COMMAND", "trap 'echo dbg' DEBUG", "trap - DEBUG",
             "set -x; echo hi; set +x")
    assert [line.replace("++ ", "+ ") for line in after_prompts(ours)[-7:]] == \
        after_prompts(theirs)[-7:]
    assert "+ echo hi" in ours.text() and "__sb" not in ours.text()


def test_ignoreeof_as_bash(pair: Pair) -> None:
    ours, theirs = pair()
    for term in (ours, theirs):
        term.run("set -o ignoreeof")
        term.send("\x04")
        term.wait_text('Use "exit" to leave the shell.')
        term.run("IGNOREEOF=1")
        term.send("\x04")
        term.wait_for(lambda t: t.text().count('Use "exit"') == 2, what="the second hint")
        term.wait_prompt()
        term.send("\x04")
    assert ours.exit_status() == theirs.exit_status() == 0
    assert ours.text().count('Use "exit" to leave the shell.') == 2


def test_histverify_puts_the_expansion_back_for_editing(pair: Pair) -> None:
    ours, theirs = pair()
    for term in (ours, theirs):
        term.run("shopt -s histverify")
        term.run("echo verify-me")
        term.send("!!\r")
        term.wait_for(lambda t: t.cursor_line().rstrip().endswith(("$ echo verify-me",
                                                                   "# echo verify-me")),
                      what="the expanded line, for editing")
        time.sleep(0.3)
        term.pump()
        assert term.text().splitlines().count("verify-me") == 1  # not run
        term.send(" again\r")
        term.wait_text("verify-me again")


def test_set_o_vi_in_compound_lines_functions_and_sourced_files(spawn: Spawn,
                                                                tmp_path: Path) -> None:
    (tmp_path / "mode.sh").write_text("set -o vi\n")
    term = spawn(cwd=str(tmp_path))
    term.run("true; set -o vi")
    term.send("echo vi-mode\x1b0x")  # Esc, 0, x: vi deletes the "e"
    term.wait_for(lambda t: "cho vi-mode" in t.cursor_line(), what="vi edit")
    term.send("\r")
    term.wait_text("bash: cho")
    term.run("f() { set -o emacs; }; f")
    term.run("set -o")  # (answered by swebash: its editor's mode)
    rows = [row.split() for row in term.text().splitlines()]
    assert ["emacs", "on"] in rows and ["vi", "off"] in rows
    term.run("source ./mode.sh; echo sourced")
    term.run("set -o")
    text = term.text()
    rows = [row.split() for row in text[text.rindex("sourced"):].splitlines()]
    assert ["vi", "on"] in rows and ["emacs", "off"] in rows
    # `set +o vi` in a compound line: emacs, as when typed alone (it once left the line unended)
    term.run("true; set +o vi; echo turned-off")
    term.run("set -o")
    text = term.text()
    rows = [row.split() for row in text[text.rindex("turned-off"):].splitlines()]
    assert ["emacs", "on"] in rows and ["vi", "off"] in rows
    assert term.child.isalive()


def test_exec_of_another_shell_says_so_and_exec_swebash_starts_afresh(
        spawn: Spawn, tmp_path: Path) -> None:
    bash = shutil.which("bash") or "/bin/bash"
    term = spawn(cwd=str(tmp_path))
    term.run(f"export MARK=kept SHELL={SWEBASH}; echo before-$$")
    before = [ln for ln in after_prompts(term) if ln.startswith("before-")][-1]
    term.run("exec $SHELL")  # swebash itself: a fresh swebash, same directory and exports
    term.run("echo after-$$-$MARK-$PWD")
    after = [ln for ln in after_prompts(term) if ln.startswith("after-")][-1]
    assert after != before.replace("before", "after") and after.endswith(f"-kept-{tmp_path}")
    term.wait_prompt()
    term.send(f"exec {bash} --norc\r")
    term.wait_text("swebash: exec handed this terminal to bash; swebash ends when it does")
    term.wait_for(lambda t: t.cursor_line().rstrip().endswith(("$", "#")), what="bash")
    said = term.text().index("swebash: exec handed")
    assert said < term.text().rindex("bash-")  # said before bash's own prompt
    term.send("exit 7\r")
    assert term.exit_status() == 7


def test_history_keeps_every_entry_and_histfile_is_written_as_bash_does(
        spawn: Spawn, hermetic_env: Path, tmp_path: Path) -> None:
    dotfiles = tmp_path / "dotfiles"
    dotfiles.mkdir()
    real = dotfiles / "history"
    real.write_text("".join(f"\n# 2025-01-01 00:00:00\n+echo saved-{i}\n" for i in range(1000)))
    state = hermetic_env / ".local/state/swebash"
    state.mkdir(parents=True)
    (state / "history").symlink_to(real)  # a dotfile manager's link
    (hermetic_env / ".swebashrc").write_text("shopt -s histappend\n")
    term = spawn()
    term.run("history | tail -2")
    term.run("history 3")
    term.run("history -d -2")  # the entry before this line: "history 3"
    term.run("echo appended; history -a")
    assert (hermetic_env / ".bash_history").read_text().splitlines() == [
        "history | tail -2", "history -d -2", "echo appended; history -a"]
    term.send("exit\r")
    assert term.exit_status() == 0
    assert (state / "history").is_symlink()
    kept = [ln[1:] for ln in real.read_text().splitlines() if ln.startswith("+")]
    assert kept[:1000] == [f"echo saved-{i}" for i in range(1000)]
    assert kept[1000:] == ["history | tail -2", "history -d -2", "echo appended; history -a",
                           "exit"]
    assert (hermetic_env / ".bash_history").read_text().splitlines()[-1] == "exit"
    assert not [p for p in dotfiles.iterdir() if p != real]
    assert os.readlink(state / "history") == str(real)
