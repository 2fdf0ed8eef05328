"""One history: the file, seeding from ~/.bash_history, durable appends, unusable locations,
and bash's list as the truth for ``history -c`` / ``fc -s`` / HISTCONTROL."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from swebash.interactive.history import (
    ShellHistory,
    bash_history_text,
    parse_bash_history,
    parse_file,
)
from swebash.shell.session import ShellSession


def test_seeded_from_bash_history_once(tmp_path: Path) -> None:
    seed = tmp_path / ".bash_history"
    seed.write_text("#1700000000\nls -l\n#1700000001\nfor i in 1\ndo echo $i\ndone\n")
    path = tmp_path / "state" / "history"
    history = ShellHistory(path, seed=seed)
    assert history.entries() == ["ls -l", "for i in 1\ndo echo $i\ndone"]
    seed.write_text("echo later\n")
    assert ShellHistory(path, seed=seed).entries() == history.entries()  # only the first time
    assert (path.stat().st_mode & 0o777) == 0o600


def test_plain_bash_history_without_timestamps() -> None:
    assert parse_bash_history("ls\n\npwd\n") == ["ls", "pwd"]


@pytest.mark.parametrize("kind", ["directory", "parent-is-file"])
def test_unusable_location_warns_once_and_keeps_working(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], kind: str) -> None:
    if kind == "directory":
        path = tmp_path / "history"
        path.mkdir()
    else:
        (tmp_path / "state").write_text("not a dir")
        path = tmp_path / "state" / "history"
    history = ShellHistory(path)
    history.remember("echo one")
    history.remember("echo two")
    assert history.entries() == ["echo one", "echo two"]
    err = capsys.readouterr().err
    assert err.count("swebash:") == 1 and "history will not be saved" in err


def test_entries_are_whole_and_replace_rewrites_on_deletion(tmp_path: Path) -> None:
    path = tmp_path / "history"
    history = ShellHistory(path)
    for line in ("a", "b\nc", "d"):
        history.remember(line)
    assert parse_file(path.read_text()) == ["a", "b\nc", "d"]
    history.replace(["a", "b\nc", "d", "e"])  # appended (fc -s)
    assert parse_file(path.read_text()) == ["a", "b\nc", "d", "e"]
    history.replace(["x"])  # history -c, then x
    assert parse_file(path.read_text()) == ["x"]
    assert ShellHistory(path).entries() == ["x"]


def test_bash_list_is_the_truth(tmp_path: Path, hermetic_env: Path) -> None:
    rc = hermetic_env / ".swebashrc"
    rc.write_text("HISTCONTROL=ignoreboth\nHISTIGNORE='echo skip*'\n")
    session = ShellSession.start(rcfile=rc, cwd=str(tmp_path))
    null = os.open(os.devnull, os.O_RDWR)
    session.stdin_fd = session.stdout_fd = null
    try:
        session.wait_ready()
        session.load_history(bash_history_text(["echo old", "for i in 1\ndo :\ndone"]).encode())
        added = []
        for line in ("echo new", " echo spaced", "echo skip-me", "echo new"):
            session.run(line)
            added.append(session.last_added_to_history)
        session.run("fc -s new=again")
        dump = session.dump_history()
        assert dump is not None
        listed = parse_bash_history(dump.decode())
        session.run("history -c")
        cleared = session.dump_history()
    finally:
        session.close()
        os.close(null)
    assert added == [True, False, False, False]  # ignorespace, HISTIGNORE, ignoredups
    assert listed == ["echo old", "for i in 1\ndo :\ndone", "echo new", "echo again"]
    assert cleared == b""
