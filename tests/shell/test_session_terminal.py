"""The session as a terminal: type-ahead, hidden password input, job control, forged markers,
bash's own state ($_, xtrace, history), death and login mode."""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest

from swebash.errors import ShellDied
from swebash.shell.markers import marker_bytes
from swebash.shell.session import ShellSession
from swebash.shell.startup import Startup
from tests.shell.conftest import Harness


def test_keys_typed_during_a_command_come_back_for_the_next_prompt(shell: Harness) -> None:
    shell.press(b"echo typed-ahead\npartial", after=0.2)
    assert shell.run("sleep 1")[0] == 0
    # bash did not run the typed line behind swebash's back ...
    assert shell.run("echo next")[1] == "next\r\n"
    # ... it is handed back, the half-typed line included
    assert shell.session.take_typeahead() == "echo typed-ahead\npartial"
    assert shell.session.take_typeahead() == ""


def test_arrow_keys_typed_ahead_are_dropped(shell: Harness) -> None:
    shell.press(b"ls\x1b[A\x1b[D -l", after=0.2)
    shell.run("sleep 1")
    assert shell.session.take_typeahead() == "ls -l"


def test_program_input_is_not_type_ahead(shell: Harness) -> None:
    shell.press(b"answer\n", after=0.3)
    status, out = shell.run("read -r x; echo got:$x")
    assert status == 0 and "got:answer" in out
    assert shell.session.take_typeahead() == ""


def test_password_prompt_does_not_echo(shell: Harness) -> None:
    shell.press(b"hunter2\n", after=0.3)
    status, out = shell.run("read -rs -p 'Password: ' pw; echo; echo len=${#pw}")
    assert status == 0 and "Password: " in out and "len=7" in out
    assert "hunter2" not in out


def test_ctrl_z_stops_the_job_and_fg_resumes_it(shell: Harness) -> None:
    shell.press(b"\x1a", after=0.5)
    status, out = shell.run("sleep 30")
    assert status == 148 and "Stopped" in out
    assert "sleep 30" in shell.run("jobs")[1]
    shell.press(b"\x03", after=0.5)
    started = time.monotonic()
    assert shell.run("fg")[0] == 130
    assert time.monotonic() - started < 20
    assert shell.run("jobs")[1] == ""


def test_forged_marker_in_output_is_shown_not_obeyed(shell: Harness) -> None:
    fake = marker_bytes("not-the-nonce", 99, 7, "/etc").decode()
    printf_arg = fake.replace("\x1b", "\\033").replace("\x07", "\\007")
    status, out = shell.run(f"printf '{printf_arg}'; echo after")
    assert status == 0 and out == fake + "after\r\n"
    assert shell.session.cwd != "/etc" and shell.session.last_status == 0


def test_dollar_underscore_and_status_survive_plumbing_and_completion(shell: Harness) -> None:
    shell.run("echo first last-arg")
    shell.session.complete("ech", timeout=2)
    shell.session.exported_env()
    assert shell.run("echo $_")[1] == "last-arg\r\n"
    shell.run("false")
    shell.session.complete("ls ", timeout=2)
    assert shell.run("echo $?")[1] == "1\r\n"


def test_xtrace_shows_the_users_commands_only(shell: Harness) -> None:
    shell.run("set -x")
    out = shell.run("echo traced")[1]
    shell.run("set +x")
    assert "echo traced" in out and "__sb" not in out
    assert shell.run("echo quiet")[1] == "quiet\r\n"


def test_bash_history_gets_the_lines_but_no_file(tmp_path: Path, hermetic_env: Path) -> None:
    rc = hermetic_env / ".swebashrc"
    rc.write_text("HISTFILE=~/.bash_history\nHISTCONTROL=ignoreboth\nHISTIGNORE=ls\n")
    session = ShellSession.start(rcfile=rc, cwd=str(tmp_path))
    null = os.open(os.devnull, os.O_RDWR)
    session.stdin_fd = session.stdout_fd = null
    try:
        session.run("echo one")
        session.complete("ech", timeout=2)
        session.run(" echo secret")
        record = session.run("history", record=False)
    finally:
        session.close()
        os.close(null)
    listed = [line.split(None, 1)[1] for line in record.output_tail.splitlines() if line]
    assert listed == ["echo one", "history"]
    assert not (hermetic_env / ".bash_history").exists()


def test_exec_false_dies_with_its_status_and_restart_works(shell: Harness) -> None:
    with pytest.raises(ShellDied) as died:
        shell.run("exec false")
    assert died.value.status == 1 and not shell.session.alive
    shell.session.restart()
    assert shell.session.alive and shell.run("echo again")[1] == "again\r\n"


def test_login_mode_sources_profile(tmp_path: Path, hermetic_env: Path) -> None:
    (hermetic_env / ".profile").write_text("export FROM_PROFILE=yes\n")
    for login, expected in ((True, "yes"), (False, None)):
        session = ShellSession.start(startup=Startup(login=login, rc=False),
                                     cwd=str(tmp_path))
        try:
            session.wait_ready()
            assert session.exported_env().get("FROM_PROFILE") == expected
        finally:
            session.close()


def test_close_ends_bash(tmp_path: Path) -> None:
    session = ShellSession.start(rcfile=None, cwd=str(tmp_path))
    try:
        assert session.alive
        session.wait_ready()
        assert session.cwd == str(tmp_path)
    finally:
        session.close()
    assert not session.alive


def test_prompt_set_by_a_command_never_shows(shell: Harness) -> None:
    shell.run("PS1='(venv) '$PS1")  # what a virtualenv's activate does
    assert shell.run("echo x")[1] == "x\r\n"
    assert shell.run("echo y")[1] == "y\r\n"


def test_ps0_is_printed_after_the_line_is_read_before_it_runs(shell: Harness) -> None:
    shell.run("PS0='[ps0 $((1+1))]'")  # expanded as a prompt, each time, as bash does
    assert shell.run("echo x")[1] == "[ps0 2]x\r\n"
    assert shell.run("# only a comment")[1] == ""  # bash prints no PS0 for it either
    shell.run("unset PS0")
    assert shell.run("echo y")[1] == "y\r\n"


@pytest.mark.timeout(60)
def test_ctrl_c_already_waiting_when_a_line_starts_never_hangs_or_reruns(
        shell: Harness) -> None:
    shell.run("echo previous-command")
    for _ in range(15):
        os.write(shell.keys, b"\x03")  # pressed before bash can even have read the line
        status, out = shell.run("sleep 0.3")
        assert status in (0, 130)
        assert "previous-command" not in out and "not found" not in out
    assert shell.run("echo fine")[1] == "fine\r\n"


@pytest.mark.parametrize("login,zero,shopt", [(False, "bash", "off"), (True, "-bash", "on")])
def test_dollar_zero_and_login_shell_as_bash(tmp_path: Path, login: bool, zero: str,
                                             shopt: str) -> None:
    session = ShellSession.start(startup=Startup(login=login, rc=False), cwd=str(tmp_path))
    screen = tmp_path / "screen"
    out = os.open(screen, os.O_RDWR | os.O_CREAT)
    null = os.open(os.devnull, os.O_RDWR)
    session.stdin_fd, session.stdout_fd = null, out
    try:
        session.run("echo $0; shopt login_shell")
    finally:
        session.close()
        os.close(null)
        os.close(out)
    lines = screen.read_text().split()
    assert lines[:3] == [zero, "login_shell", shopt]
