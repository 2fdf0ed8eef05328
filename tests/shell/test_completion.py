"""Completion from the session's own bash: compspecs, completion files, the time limit."""

from __future__ import annotations

import os
import shutil
import time
from pathlib import Path

import pytest

from swebash.shell.session import ShellSession
from tests.shell.conftest import Harness

GIT_COMPLETION = Path("/usr/share/bash-completion/completions/git")


@pytest.mark.skipif(shutil.which("git") is None or not GIT_COMPLETION.exists(),
                    reason="git or its bash completion file is not installed")
def test_git_subcommands_from_the_git_completion_file(shell: Harness) -> None:
    found = [word.rstrip() for word in shell.session.complete("git che", timeout=5)]
    assert {"checkout", "cherry", "cherry-pick"} <= set(found)
    assert all(word.startswith("che") for word in found)


def test_completion_file_found_in_the_users_data_dir(shell: Harness, hermetic_env: Path) -> None:
    completions = hermetic_env / ".local/share/bash-completion/completions"
    completions.mkdir(parents=True)
    (completions / "frobnicate").write_text(
        "_frob() { COMPREPLY=($(compgen -W 'start stop status' -- \"$2\")); }\n"
        "complete -F _frob frobnicate\n")
    assert shell.session.complete("frobnicate st", timeout=5) == ["start", "status", "stop"]


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


@pytest.mark.parametrize("system", ["without", "with"])
def test_completion_alone_and_with_the_systems_bash_completion(
        tmp_path: Path, hermetic_env: Path, monkeypatch: pytest.MonkeyPatch,
        system: str) -> None:
    """Isolated from the machine's completion files (SWEBASH_BASH_COMPLETION=""), and the
    same answers when bash-completion is installed and loaded."""
    if system == "with" and not Path("/usr/share/bash-completion/bash_completion").exists():
        pytest.skip("bash-completion is not installed (.ci/run installs it)")
    if system == "without":
        monkeypatch.setenv("SWEBASH_BASH_COMPLETION", "")
    monkeypatch.setenv("XDG_DATA_DIRS", str(tmp_path / "none"))
    (tmp_path / "my dir").mkdir()
    (tmp_path / "file with space").write_text("")
    (hermetic_env / ".only-here").write_text("")
    session = ShellSession.start(rcfile=None, cwd=str(tmp_path))
    null = os.open(os.devnull, os.O_RDWR)
    session.stdin_fd = session.stdout_fd = null
    try:
        session.wait_ready()
        assert session.complete("cd my", timeout=5) == ["my\\ dir/"]
        assert session.complete("ls file\\ w", timeout=5) == ["file\\ with\\ space "]
        assert session.complete('ls "file w', timeout=5) == ['"file with space" ']
        # bash alone looks at the value ($HOME is a directory); bash-completion's answer
        # is a plain word
        assert session.complete("echo ${HOM", timeout=5) == (
            ["${HOME}/"] if system == "without" else ["${HOME} "])
        assert session.complete("cat $HOME/.only-he", timeout=5) == ["$HOME/.only-here "]
    finally:
        session.close()
        os.close(null)
