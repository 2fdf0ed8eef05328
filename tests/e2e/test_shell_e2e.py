"""The interactive shell, typed at as a person would."""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path

from tests.e2e.conftest import Term

Spawn = Callable[..., Term]


def test_state_persists_and_status_shows(spawn: Spawn, tmp_path: Path) -> None:
    term = spawn(cwd=str(tmp_path))
    (tmp_path / "sub").mkdir()
    term.run("cd sub")
    term.run("export GREETING=hey; alias say='echo said'")
    term.run("echo $GREETING $(pwd)")
    assert f"hey {tmp_path}/sub" in term.text()
    term.run("say it")
    assert "said it" in term.text()
    term.run("no-such-command-here")
    assert "bash: no-such-command-here: command not found" in term.text()
    assert "[127]" in term.cursor_line()


def test_less_draws_and_q_returns(spawn: Spawn, tmp_path: Path) -> None:
    (tmp_path / "numbers.txt").write_text("".join(f"number {n}\n" for n in range(1, 500)))
    term = spawn(cwd=str(tmp_path))
    term.wait_prompt()
    term.send("less numbers.txt\r")
    term.wait_text("number 20")
    term.send("q")
    term.wait_prompt()
    term.run("echo back-at-prompt")
    assert "back-at-prompt" in term.text()


def test_ctrl_c_on_sleep_interrupts_it(spawn: Spawn) -> None:
    term = spawn()
    term.wait_prompt()
    term.send("sleep 30\r")
    term.wait_for(lambda t: not t.at_prompt(), what="sleep running")
    time.sleep(0.3)  # let bash start it (how fast Ctrl-C returns is measured in bench/)
    term.send("\x03")
    term.wait_prompt(timeout=10)
    assert "[130]" in term.cursor_line()


def test_exit_with_status(spawn: Spawn) -> None:
    term = spawn()
    term.run("true")
    term.send("exit 3\r")
    assert term.exit_status() == 3


def test_ctrl_d_exits_with_last_status(spawn: Spawn) -> None:
    term = spawn()
    term.run("false")
    term.send("\x04")
    assert term.exit_status() == 1


def test_history_survives_a_restart(spawn: Spawn) -> None:
    first = spawn()
    first.run("echo remembered-1234")
    first.send("exit\r")
    first.exit_status()
    second = spawn()
    second.wait_prompt()
    second.send("\x1b[A\x1b[A")  # up arrow twice: `exit` was the last line
    second.wait_for(lambda t: "echo remembered-1234" in t.cursor_line(), what="recalled line")


def test_multi_line_for_loop(spawn: Spawn) -> None:
    term = spawn()
    term.wait_prompt()
    term.send("for i in 1 2 3\r")
    term.wait_for(lambda t: t.cursor_line().strip().startswith(">"), what="continuation")
    term.send("do echo item-$i\r")
    term.send("done\r")
    term.wait_text("item-3")
    term.wait_prompt()


def test_bash_killed_ends_swebash_as_it_would_end_bash(spawn: Spawn) -> None:
    term = spawn()
    term.run("export KEPT=yes")
    term.send("kill -9 $$\r")
    assert term.exit_status() == 137


def test_question_without_ai_config_is_one_line(spawn: Spawn) -> None:
    term = spawn()
    term.run("? hello there")
    assert "AI is not configured" in term.text() and "Traceback" not in term.text()
    term.run("echo still-working")
    assert "still-working" in term.text()


def test_tab_completes_from_bash(spawn: Spawn, tmp_path: Path) -> None:
    (tmp_path / "uniquely-named-file.txt").write_text("")
    term = spawn(cwd=str(tmp_path))
    term.wait_prompt()
    term.send("cat uniquely-na\t")
    term.wait_for(lambda t: "uniquely-named-file.txt" in t.cursor_line(), what="completion")


def test_swebashrc_and_norc(spawn: Spawn, hermetic_env: Path) -> None:
    (hermetic_env / ".swebashrc").write_text("export FROM_RC=loaded\n")
    term = spawn()
    term.run("echo rc=[$FROM_RC]")
    assert "rc=[loaded]" in term.text()
    bare = spawn(["--norc"])
    bare.run("echo rc=[$FROM_RC]")
    assert "rc=[]" in bare.text()


def test_ctrl_r_searches_history(spawn: Spawn) -> None:
    term = spawn()
    term.run("echo needle-in-history")
    term.run("echo something-else")
    term.send("\x12")  # Ctrl-R: bash's search, in the prompt line
    term.wait_text("(reverse-i-search)`':")
    term.send("needle")
    term.wait_text("(reverse-i-search)`needle': echo needle-in-history")
    term.send("\r")  # Enter runs the match, as in bash
    term.wait_for(lambda t: t.text().count("needle-in-history") >= 3, what="re-run")


def test_window_resize_reaches_commands(spawn: Spawn) -> None:
    term = spawn()
    term.run("stty size")
    assert "30 110" in term.text()
    term.child.setwinsize(40, 120)
    term.screen.resize(40, 120)
    term.run("stty size")
    assert "40 120" in term.text()


def test_ctrl_z_stops_the_job_and_jobs_lists_it(spawn: Spawn) -> None:
    term = spawn()
    term.wait_prompt()
    term.send("sleep 60\r")
    term.wait_for(lambda t: not t.at_prompt(), what="sleep")  # the editor took the line
    time.sleep(0.5)
    term.send("\x1a")  # Ctrl-Z
    term.wait_prompt(timeout=5)
    assert "[148]" in term.cursor_line()
    term.run("jobs")
    assert "Stopped" in term.text() and "sleep 60" in term.text()
    term.run("kill %1")
    term.run("echo done-with-jobs")
    assert "done-with-jobs" in term.text()


def test_closing_the_terminal_hangs_up_background_jobs_and_cleans_up(
        spawn: Spawn, tmp_path: Path, term_env: dict[str, str]) -> None:
    mark = tmp_path / "got-hup"
    term = spawn(cwd=str(tmp_path))
    term.run(f"(trap 'echo hup > {mark}; exit' HUP; while :; do sleep 0.1; done) &")
    tmp = Path(term_env["TMPDIR"])
    assert list(tmp.glob("swebash-*"))  # the session's private dir lives here
    term.child.close(force=False)  # the window closes: the pty hangs up
    deadline = time.monotonic() + 10
    while (not mark.exists() or list(tmp.glob("swebash-*"))) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert mark.read_text() == "hup\n"  # bash passed the hang-up on to its job
    assert not list(tmp.glob("swebash-*"))


def test_tmout_ends_an_idle_shell_as_bash_does(spawn: Spawn, term_env: dict[str, str]) -> None:
    Path(term_env["HOME"], ".swebashrc").write_text("TMOUT=1\n")
    term = spawn()
    term.wait_prompt()
    term.wait_text("auto-logout")  # bash's own words, then swebash ends
    term.exit_status(timeout=15)
    assert not term.child.isalive()


def test_slow_rc_file_is_shown_and_ctrl_c_interrupts_it(spawn: Spawn,
                                                        term_env: dict[str, str]) -> None:
    Path(term_env["HOME"], ".swebashrc").write_text(
        "echo rc-says-hello\necho rc-error >&2\nsleep 30\nexport AFTER_SLEEP=yes\n")
    term = spawn()
    term.wait_text("rc-error")  # the rc file's output and errors are shown
    time.sleep(0.5)  # well into the sleep (no prompt yet: the rc file is still running)
    assert not term.at_prompt()
    term.send("\x03")  # interrupts the rc file, as in bash; the shell still starts
    term.wait_prompt()
    term.run("echo works-after-rc")
    assert "rc-says-hello" in term.text() and "works-after-rc" in term.text()


def test_ctrl_c_while_swebash_starts_does_not_end_it(spawn: Spawn) -> None:
    term = spawn()
    term.wait_for(lambda t: t.text().rstrip().endswith(("$", "#")), what="the early prompt")
    term.send("\x03")  # the prompt is drawn, the line editor is not up yet
    term.wait_prompt()
    term.run("echo still-here")
    assert "still-here" in term.text() and term.child.isalive()


def test_history_c_empties_up_arrow_and_the_file_too(spawn: Spawn,
                                                     term_env: dict[str, str]) -> None:
    term = spawn()
    term.run("echo forget-me-77")
    term.run("history -c")
    term.send("\x1b[A")  # ↑: nothing left to recall
    term.send("\x1b[A")
    time.sleep(0.5)
    term.pump()
    assert "forget-me-77" not in term.cursor_line()
    term.send("\x15")
    term.run("history")
    lines = [row for row in term.text().splitlines() if row.strip()]
    assert "forget-me-77" not in lines[-2]
    saved = Path(term_env["HOME"], ".local/state/swebash/history")
    assert "forget-me-77" not in saved.read_text()
