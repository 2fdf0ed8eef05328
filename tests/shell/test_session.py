"""ShellSession on a real bash pty. The user's terminal is replaced by a pipe (keys in) and a
file (screen out), so these run anywhere; the e2e tests drive a real terminal."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from swebash.errors import ShellDied
from swebash.shell.continuation import needs_more_input
from tests.shell.conftest import Harness


def test_state_persists_across_lines(shell: Harness, tmp_path: Path) -> None:
    (tmp_path / "sub").mkdir()
    assert shell.run("cd sub")[0] == 0
    assert shell.session.cwd == str(tmp_path / "sub")
    shell.run("export FOO=bar; alias ll='echo aliased'; set -o noclobber; shopt -s extglob")
    assert shell.run("echo $FOO")[1] == "bar\r\n"
    assert shell.run("ll")[1] == "aliased\r\n"
    assert shell.run("[[ -o noclobber ]] && shopt -q extglob && echo both")[1] == "both\r\n"
    assert shell.run("greet you")[1] == "hello you\r\n"  # function from ~/.swebashrc


def test_exit_codes_and_previous_status(shell: Harness) -> None:
    assert shell.run("false")[0] == 1
    assert shell.run("echo $?") == (0, "1\r\n")
    status, out = shell.run("definitely-not-a-command")
    assert status == 127 and "bash: definitely-not-a-command: command not found" in out
    assert shell.run("(exit 42)")[0] == 42


def test_declare_and_positional_parameters_at_top_level(shell: Harness) -> None:
    shell.run("declare -a arr=(a b c)")
    assert shell.run("echo ${#arr[@]} [$1]")[1] == "3 []\r\n"


def test_multi_line_input(shell: Harness) -> None:
    status, out = shell.run("for i in 1 2 3\ndo\n  echo n=$i\ndone")
    assert status == 0 and out == "n=1\r\nn=2\r\nn=3\r\n"
    assert shell.run("cat <<EOF\nline one\nEOF")[1] == "line one\r\n"


def test_ctrl_c_interrupts_foreground_command(shell: Harness) -> None:
    shell.press(b"\x03", after=0.5)
    started = time.monotonic()
    status, _ = shell.run("sleep 30")
    assert status == 130 and time.monotonic() - started < 10
    assert shell.run("echo alive")[1] == "alive\r\n"


def test_ctrl_c_interrupts_a_builtin_loop(shell: Harness) -> None:
    shell.press(b"\x03", after=0.5)
    status, _ = shell.run("while true; do :; done")
    assert status == 130
    assert shell.run("echo still here")[0] == 0


def test_program_reads_the_terminal(shell: Harness) -> None:
    shell.press(b"typed line\n", after=0.3)
    status, out = shell.run("read -r x; echo got:$x")
    assert status == 0 and "got:typed line" in out


def test_context_records_commands(shell: Harness) -> None:
    shell.run("echo recorded; false")
    shell.run(" echo hidden")
    records = shell.session.context.recent_commands(5)
    assert [r.command for r in records] == ["echo recorded; false"]
    assert records[0].exit_status == 1 and records[0].output_tail == "recorded\n"


def test_alternate_screen_is_not_recorded(shell: Harness) -> None:
    shell.run("printf '\\033[?1049hFULL\\033[?1049l'")
    record = shell.session.context.recent_commands(1)[0]
    assert record.fullscreen and record.output_tail == ""


def test_exit_raises_shell_died_with_status(shell: Harness) -> None:
    with pytest.raises(ShellDied) as died:
        shell.run("exit 3")
    assert died.value.status == 3


def test_kill_and_restart(shell: Harness) -> None:
    shell.run("export LOST=1")
    with pytest.raises(ShellDied) as died:
        shell.run("kill -9 $$")
    assert died.value.status == 137
    shell.session.restart()
    assert shell.run("echo [$LOST]")[1] == "[]\r\n"
    assert len(shell.session.context) >= 1  # the context survives a restart


def test_completion_commands_paths_variables_and_compspecs(shell: Harness,
                                                           tmp_path: Path) -> None:
    (tmp_path / "somedir").mkdir()
    (tmp_path / "somefile.txt").write_text("")
    assert shell.session.complete("ech", timeout=2) == ["echo "]  # unique: a space, as readline
    assert shell.session.complete("ls some", timeout=2) == ["somedir/", "somefile.txt"]
    assert "$HOME" in shell.session.complete("echo $HO", timeout=2)
    assert shell.session.complete("mytool ", timeout=2) == ["alpha", "beta"]
    assert "greet" in shell.session.complete("gre", timeout=2)
    shell.run("false")
    assert shell.run("echo $?")[1] == "1\r\n"  # completion did not disturb $?


def test_exported_env_reflects_session(shell: Harness) -> None:
    shell.run("export FROM_SESSION=yes")
    assert shell.session.exported_env()["FROM_SESSION"] == "yes"


@pytest.mark.parametrize("text,more", [
    ("echo 'open", True), ('echo "open', True), ("echo a \\", True), ("if true; then", True),
    ("for i in 1 2; do", True), ("f() {", True), ("cat <<EOF\nhello", True), ("ls |", True),
    ("ls &&", True), ("echo ok", False), ("if true; then echo; fi", False),
    ("cat <<EOF\nhi\nEOF", False), ("echo )", False), ("", False), ("echo 'a'", False),
])
def test_needs_more_input(text: str, more: bool) -> None:
    assert needs_more_input(text) is more
