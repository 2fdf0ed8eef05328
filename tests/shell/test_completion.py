"""Completion from the session's own bash: compspecs, completion files, the time limit."""

from __future__ import annotations

import shutil
import time
from pathlib import Path

import pytest

from tests.shell.conftest import Harness

GIT_COMPLETION = Path("/usr/share/bash-completion/completions/git")


@pytest.mark.skipif(shutil.which("git") is None or not GIT_COMPLETION.exists(),
                    reason="git or its bash completion file is not installed")
def test_git_subcommands_from_the_git_completion_file(shell: Harness) -> None:
    found = shell.session.complete("git che", timeout=5)
    assert {"checkout", "cherry", "cherry-pick"} <= set(found)
    assert all(word.startswith("che") for word in found)


def test_completion_file_found_in_the_users_data_dir(shell: Harness, hermetic_env: Path) -> None:
    completions = hermetic_env / ".local/share/bash-completion/completions"
    completions.mkdir(parents=True)
    (completions / "frobnicate").write_text(
        "_frob() { COMPREPLY=($(compgen -W 'start stop status' -- \"$2\")); }\n"
        "complete -F _frob frobnicate\n")
    assert shell.session.complete("frobnicate st", timeout=5) == ["start", "stop", "status"]


def test_slow_compspec_gives_up_without_blocking_and_the_session_recovers(
        shell: Harness) -> None:
    shell.run("_slow() { sleep 1; COMPREPLY=(late); }; complete -F _slow slowcmd")
    started = time.monotonic()
    assert shell.session.complete("slowcmd ", timeout=0.1) == []
    assert time.monotonic() - started < 0.9  # well before the compspec finishes
    # the abandoned helper is waited for before the next command, whose output stays its own
    assert shell.run("echo after")[1] == "after\r\n"
    assert shell.session.complete("slowcmd ", timeout=5) == ["late "]


def test_completion_of_variables_and_directories_in_the_session_cwd(
        shell: Harness, tmp_path: Path) -> None:
    (tmp_path / "deep" / "er").mkdir(parents=True)
    shell.run("cd deep; MY_SESSION_VAR=1")
    assert shell.session.complete("cd e", timeout=5) == ["er/"]
    assert shell.session.complete("echo $MY_SES", timeout=5) == ["$MY_SESSION_VAR "]
