"""One history that never loses an entry: the file (seeding, whole appends, unusable
locations, odd bytes, symlinks, HISTFILESIZE) and, with a real session bash, listings that
write nothing, deletions that take out only what they name — also with another shell
appending — and bash's list as the truth for HISTCONTROL/HISTIGNORE/fc."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest

from swebash.interactive.history import (
    ShellHistory,
    entry_bytes,
    new_entry,
    parse_bash_history,
    parse_entries,
    parse_file,
)
from swebash.interactive.histsync import HistorySync
from swebash.shell.session import ShellSession

ODD = ["echo a\x00b", "cat <<X\n#2024\n#1700000000\nX", "printf '\udcff\udcfe'",
       "echo cr\rhere", "", "  spaced", "ends with newline\n", "+plus\n# hash"]


class Shell:
    """A session bash with swebash's history attached, as the REPL attaches it."""

    def __init__(self, path: Path, cwd: Path, rc: Path | None = None) -> None:
        self.history = ShellHistory(path)
        self.session = ShellSession.start(rcfile=rc, cwd=str(cwd))
        self.null = os.open(os.devnull, os.O_RDWR)
        self.session.stdin_fd = self.session.stdout_fd = self.null
        self.session.wait_ready()
        self.sync = HistorySync(self.history, self.session)
        self.sync.load()

    def run(self, *lines: str) -> None:
        for line in lines:
            self.session.run(line)
            self.sync.after_command(line)

    def listing(self) -> list[str]:
        data = self.session.dump_history()
        assert data is not None
        from swebash.interactive.histsync import parse_dump
        return parse_dump(data, self.session.nonce).texts

    def close(self) -> None:
        self.session.close()
        os.close(self.null)


@pytest.fixture
def shells(tmp_path: Path, hermetic_env: Path) -> Iterator[list[Shell]]:
    made: list[Shell] = []
    yield made
    for shell in made:
        shell.close()


def saved(path: Path) -> list[str]:
    return parse_file(path.read_bytes().decode("utf-8", "surrogateescape"))


def write_history(path: Path, texts: list[str]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(b"".join(entry_bytes(new_entry(t)) for t in texts))


# ------------------------------------------------------------------ the file


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


def test_any_byte_sequence_round_trips_through_the_file(tmp_path: Path) -> None:
    path = tmp_path / "history"
    history = ShellHistory(path)
    for text in ODD:
        history.remember(text)
    history.change([history.records()[0]], ["added later"])  # a rewrite, not just appends
    assert ShellHistory(path).entries() == [*ODD[1:], "added later"]
    assert [e.text for e in parse_entries(path.read_bytes())] == [*ODD[1:], "added later"]


def test_deletions_take_out_only_what_they_name_and_keep_other_windows_lines(
        tmp_path: Path) -> None:
    path = tmp_path / "history"
    ours, theirs = ShellHistory(path), ShellHistory(path)
    for line in ("a", "b\nc", "a", "d"):
        ours.remember(line)
    theirs.remember("from the other window")
    first_a = ours.records()[0]
    ours.change([first_a], ["e"])  # history -d of the first "a"; fc -s added "e"
    assert saved(path) == ["b\nc", "a", "d", "from the other window", "e"]
    ours.change(list(ours.records()), [])  # history -c: everything this shell knew
    assert saved(path) == ["from the other window"]
    assert ours.entries() == []


def test_a_symlinked_history_file_stays_a_link(tmp_path: Path) -> None:
    dotfiles = tmp_path / "dotfiles"
    dotfiles.mkdir()
    target = dotfiles / "history"
    link = tmp_path / "state" / "history"
    link.parent.mkdir()
    link.symlink_to(target)
    history = ShellHistory(link)
    for line in ("one", "two", "three"):
        history.remember(line)
    history.change([history.records()[1]], [])
    history.limit_file(1)
    assert link.is_symlink() and os.readlink(link) == str(target)
    assert saved(target) == ["three"]
    assert not [p for p in dotfiles.iterdir() if p != target]  # no temp file left behind


def test_histfilesize_limits_the_file_to_its_newest_entries(tmp_path: Path) -> None:
    path = tmp_path / "history"
    write_history(path, [f"echo {i}" for i in range(10)])
    ShellHistory(path).limit_file(3)
    assert saved(path) == ["echo 7", "echo 8", "echo 9"]
    ShellHistory(path).limit_file(5)  # fewer than the limit: untouched
    assert saved(path) == ["echo 7", "echo 8", "echo 9"]


# ------------------------------------------------------------------ with the session's bash


@pytest.mark.parametrize("count", [1_000, 100_000])
def test_listing_history_never_truncates_the_file(tmp_path: Path, shells: list[Shell],
                                                   count: int) -> None:
    path = tmp_path / "history"
    write_history(path, [f"echo entry-{i}" for i in range(count)])
    shell = Shell(path, tmp_path)
    shells.append(shell)
    shell.run("history", "history 5", "fc -l -3")
    kept = saved(path)
    assert kept[:count] == [f"echo entry-{i}" for i in range(count)]
    assert kept[count:] == ["history", "history 5", "fc -l -3"]
    assert len(shell.listing()) == 500  # bash holds HISTSIZE of them, as bash does


def test_history_d_in_one_shell_keeps_what_another_appended(tmp_path: Path,
                                                            shells: list[Shell]) -> None:
    path = tmp_path / "history"
    write_history(path, [f"echo old-{i}" for i in range(5)])
    one, two = Shell(path, tmp_path), Shell(path, tmp_path)
    shells += [one, two]
    two.run("echo from-two-a", "echo from-two-b")
    one.run("echo from-one", "history -d 1")
    kept = saved(path)
    assert "echo old-0" not in kept  # what history -d 1 named
    assert kept == ["echo old-1", "echo old-2", "echo old-3", "echo old-4",
                    "echo from-two-a", "echo from-two-b", "echo from-one", "history -d 1"]
    assert one.listing() == ["echo old-1", "echo old-2", "echo old-3", "echo old-4",
                             "echo from-one", "history -d 1"]


def test_odd_entries_survive_a_session_with_history_d(tmp_path: Path,
                                                      shells: list[Shell]) -> None:
    path = tmp_path / "history"
    write_history(path, ["echo first", *ODD])
    shell = Shell(path, tmp_path)
    shells.append(shell)
    shell.run("history -d 1", "history")
    assert saved(path) == [*ODD, "history -d 1", "history"]
    # bash holds every entry a bash string can hold, byte for byte
    loadable = [t for t in ODD if "\0" not in t]
    assert shell.listing() == [*loadable, "history -d 1", "history"]


def test_history_c_clears_what_this_shell_knew(tmp_path: Path, shells: list[Shell]) -> None:
    path = tmp_path / "history"
    write_history(path, [f"echo old-{i}" for i in range(800)])  # more than bash holds
    one, two = Shell(path, tmp_path), Shell(path, tmp_path)
    shells += [one, two]
    two.run("echo meanwhile")
    one.run("history -c", "echo after")
    assert saved(path) == ["echo meanwhile", "echo after"]
    assert one.history.entries() == ["echo after"]


def test_bash_list_is_the_truth(tmp_path: Path, shells: list[Shell],
                                hermetic_env: Path) -> None:
    rc = hermetic_env / ".swebashrc"
    rc.write_text("HISTCONTROL=ignoreboth\nHISTIGNORE='echo skip*'\n")
    path = tmp_path / "history"
    write_history(path, ["echo old", "echo old", "for i in 1\ndo :\ndone", " echo spaced"])
    shell = Shell(path, tmp_path, rc)
    shells.append(shell)
    # loaded as saved: HISTCONTROL and HISTIGNORE decide what enters, not what was saved
    assert shell.listing() == ["echo old", "echo old", "for i in 1\ndo :\ndone", " echo spaced"]
    shell.run("echo new", " echo spaced-now", "echo skip-me", "echo new", "fc -s new=again")
    assert shell.listing()[-2:] == ["echo new", "echo again"]
    assert saved(path)[-2:] == ["echo new", "echo again"]
    shell.run("HISTSIZE=3", "history")  # shrinking HISTSIZE drops from bash's list only
    assert len(shell.listing()) == 3 and len(saved(path)) == 8


def test_histfile_is_written_the_way_bash_writes_it(tmp_path: Path, shells: list[Shell],
                                                    hermetic_env: Path) -> None:
    rc = hermetic_env / ".swebashrc"
    rc.write_text("shopt -s histappend\n")
    bash_history = hermetic_env / ".bash_history"
    bash_history.write_text("older-bash-line\n")
    path = tmp_path / "history"
    write_history(path, ["echo from-swebash-file"])
    shell = Shell(path, tmp_path, rc)
    shells.append(shell)
    shell.run("echo one", "history -a")
    assert bash_history.read_text() == "older-bash-line\necho one\nhistory -a\n"
    bash_history.write_text(bash_history.read_text() + "echo from-another-bash\n")
    shell.run("history -n")  # lines other shells appended since the start
    assert shell.listing()[-1] == "echo from-another-bash"
    shell.run("echo two")
    shell.session.close()  # as a closing terminal: bash appends the rest at exit
    # (bash appends the newest entries, as many as the session added: the line read by -n
    # is among them and `history -n` is not — bash's own way, kept)
    assert bash_history.read_text().splitlines()[-2:] == ["echo from-another-bash", "echo two"]
    assert "echo from-swebash-file" not in bash_history.read_text()


def test_unset_histfile_keeps_the_commands_out_of_every_file(tmp_path: Path,
                                                              shells: list[Shell],
                                                              hermetic_env: Path) -> None:
    bash_history = hermetic_env / ".bash_history"
    path = tmp_path / "history"
    shell = Shell(path, tmp_path)
    shells.append(shell)
    shell.run("echo kept", "unset HISTFILE", "echo secret-command")
    assert shell.history.entries()[-1] == "echo secret-command"  # ↑ still has it
    assert shell.listing()[-1] == "echo secret-command"  # and `history`, as in bash
    shell.session.close()
    assert saved(path) == ["echo kept", "unset HISTFILE"]
    assert not bash_history.exists()


def test_histfile_set_by_a_command_is_where_bash_writes(tmp_path: Path, shells: list[Shell],
                                                        hermetic_env: Path) -> None:
    shell = Shell(tmp_path / "history", tmp_path)
    shells.append(shell)
    shell.run("HISTFILE=~/.other_history", "echo elsewhere")
    shell.session.close()
    assert (hermetic_env / ".other_history").read_text().splitlines() == [
        "HISTFILE=~/.other_history", "echo elsewhere"]
    assert not (hermetic_env / ".bash_history").exists()


def test_the_exit_of_a_ctrl_d_is_not_history_a_typed_exit_is(tmp_path: Path,
                                                             shells: list[Shell],
                                                             hermetic_env: Path) -> None:
    from swebash.errors import ShellDied

    bash_history = hermetic_env / ".bash_history"
    for typed in (False, True):
        shell = Shell(tmp_path / f"history-{typed}", tmp_path)
        shells.append(shell)
        shell.run("echo last")
        with pytest.raises(ShellDied):
            shell.session.run("exit", history=typed)
        assert shell.session.last_added_to_history is typed
        assert bash_history.read_text().splitlines()[-1] == ("exit" if typed else "echo last")


def test_history_r_and_n_read_histfile_without_deleting_or_duplicating(
        tmp_path: Path, shells: list[Shell], hermetic_env: Path) -> None:
    (hermetic_env / ".bash_history").write_text("".join(f"bash-{i}\n" for i in range(700)))
    path = tmp_path / "history"
    write_history(path, [f"echo mine-{i}" for i in range(600)])
    shell = Shell(path, tmp_path)
    shells.append(shell)
    shell.run("history -r")  # 700 lines: bash's list is HISTFILE's newest 500 now
    assert shell.listing()[-1] == "bash-699" and len(shell.listing()) == 500
    shell.run("history -c; history -r", "echo after")
    kept = saved(path)
    assert kept[:600] == [f"echo mine-{i}" for i in range(600)]  # nothing taken out…
    # …nor copied (the reload's own line went with the -c, as in bash's list)
    assert kept[600:] == ["history -r", "echo after"]
    assert "bash-699" in shell.history.entries()  # ↑ has what bash read
