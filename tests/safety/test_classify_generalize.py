"""Issue 16's generalisation rules, mechanism by mechanism: what a process target is, the
admin mark in a grammar, streams and loops that fill the disk, secret environment values
reshaped, and every path by which what cannot be read stays dangerous. (Commands are only
classified, never run.)"""

from __future__ import annotations

from pathlib import Path

import pytest

from swebash.api import Verdict
from swebash.safety.classify import dispatch, streams
from swebash.safety.gate import DefaultGate


@pytest.fixture
def work(tmp_path: Path) -> Path:
    project = tmp_path / "project"
    (project / "src").mkdir(parents=True)
    (project / "README.md").write_text("hi\n")
    return project


def verdict(command: str, work: Path, home: Path) -> Verdict:
    return DefaultGate(home=str(home)).check_command(command, str(work))


def test_signals_reach_only_processes_this_command_started(work: Path,
                                                           hermetic_env: Path) -> None:
    own = verdict("sleep 9 & p=$!; kill -TERM \"$p\"", work, hermetic_env)
    assert own.decision == "ask" and not own.dangerous, own
    assert "started" in own.reasons[0]
    # the same variable given another value is no longer ours
    assert verdict("sleep 9 & p=$!; p=77; kill $p", work, hermetic_env).dangerous
    for target in ("1", "-1", "%1", "$$", "$(pgrep x)", "$PPID"):
        result = verdict(f"kill -9 {target}", work, hermetic_env)
        assert result.dangerous and "did not start" in result.reasons[0], target
    probe = verdict("kill -0 4321", work, hermetic_env)
    assert probe.decision == "ask" and not probe.dangerous
    assert verdict("kill -l", work, hermetic_env).decision == "allow"


@pytest.mark.parametrize("command", ["strace -fp 9", "strace -ttfp9", "ltrace --pid=9",
                                     "gdb prog 9", "gdb -ex 'attach 9'", "lldb -p 9"])
def test_attaching_to_a_process_in_any_spelling_is_dangerous(command: str, work: Path,
                                                             hermetic_env: Path) -> None:
    result = verdict(command, work, hermetic_env)
    assert result.dangerous and "attaches" in result.reasons[0], result


def test_tracing_a_command_is_not_attaching(work: Path, hermetic_env: Path) -> None:
    assert not verdict("strace -f -e trace=open ls", work, hermetic_env).dangerous
    assert not verdict("gdb --args prog 9", work, hermetic_env).dangerous


def test_an_admin_grammar_turns_its_own_first_reason_dangerous(work: Path,
                                                               hermetic_env: Path) -> None:
    result = verdict("systemctl restart nginx", work, hermetic_env)
    assert result.dangerous and result.reasons[0] == \
        "systemctl restart: changes system services"
    # an unknown verb of an admin program is dangerous too; its read verbs are allowed
    assert verdict("timedatectl set-frob 1", work, hermetic_env).dangerous
    assert verdict("timedatectl show", work, hermetic_env).decision == "allow"
    assert verdict("resolvectl dns", work, hermetic_env).decision == "allow"
    assert verdict("resolvectl dns eth0 9.9.9.9", work, hermetic_env).dangerous


@pytest.mark.parametrize("amount,huge", [("16", False), ("1M", False), ("1G", True),
                                         ("5T", True), ("2e12", True), ("64KiB", False)])
def test_head_sizes_decide_a_huge_stream(amount: str, huge: bool) -> None:
    assert (streams.produce(["head", "-c", amount, "/dev/zero"], None) is not None) == huge


def test_a_bounded_stage_ends_an_endless_stream(work: Path, hermetic_env: Path) -> None:
    assert verdict("yes | head -n 5 > out.txt", work, hermetic_env).decision == "ask"
    assert not verdict("yes | head -n 5 > out.txt", work, hermetic_env).dangerous
    assert verdict("yes | head -c 5G > out.txt", work, hermetic_env).dangerous
    assert verdict("yes | sed s/y/n/ | gzip > out.gz", work, hermetic_env).dangerous
    endless = verdict("yes", work, hermetic_env)
    assert endless.decision == "ask" and not endless.dangerous


def test_a_loop_without_end_needs_a_way_out(work: Path, hermetic_env: Path) -> None:
    assert verdict("while true; do ls; done", work, hermetic_env).dangerous
    assert verdict("while true; do ls; break; done", work, hermetic_env).decision == "allow"
    assert verdict("while read x; do echo \"$x\"; done < README.md", work,
                   hermetic_env).decision == "allow"


def test_secret_values_pass_only_through_programs_that_keep_lines(work: Path,
                                                                  hermetic_env: Path) -> None:
    assert verdict("env | grep -i lang | sort", work, hermetic_env).decision == "allow"
    assert verdict("env | sort | base64", work, hermetic_env).dangerous
    assert verdict("t=$GITHUB_TOKEN; u=$t; echo ${u:0:4}", work, hermetic_env).dangerous
    assert verdict("base64 <<< \"$NPM_TOKEN\"", work, hermetic_env).dangerous
    assert not verdict("echo ${HOME:0:4}", work, hermetic_env).dangerous


def test_a_glob_too_large_to_expand_is_dangerous_outside_the_tree(
        work: Path, hermetic_env: Path) -> None:
    outside = hermetic_env / "many"
    outside.mkdir()
    for n in range(260):
        (outside / f"f{n}").write_text("")
        (work / "src" / f"f{n}.py").write_text("")
    inside = verdict("cat src/*", work, hermetic_env)
    assert inside.decision == "ask" and not inside.dangerous, inside
    result = verdict(f"cat {outside}/*", work, hermetic_env)
    assert result.dangerous and "too large" in result.reasons[0], result


def test_a_too_large_glob_still_finds_a_name_that_reads_as_an_option(
        work: Path, hermetic_env: Path) -> None:
    for n in range(260):
        (work / "src" / f"f{n}").write_text("")
    assert not verdict("ls src/*", work, hermetic_env).dangerous
    (work / "src" / "--checkpoint-action=exec=sh x").write_text("")
    result = verdict("ls src/*", work, hermetic_env)
    assert result.dangerous and "option" in result.reasons[0], result


def test_a_fault_in_a_rule_is_dangerous(work: Path, hermetic_env: Path,
                                        monkeypatch: pytest.MonkeyPatch) -> None:
    def broken(*args: object) -> None:
        raise ZeroDivisionError

    monkeypatch.setattr(dispatch, "check_argv", broken)
    monkeypatch.setattr("swebash.safety.classify.walker.check_argv", broken)
    result = verdict("ls", work, hermetic_env)
    assert result.decision == "ask" and result.dangerous, result


@pytest.mark.parametrize("command", ["echo `echo \\`id\\``", "cat <<E\\OF\nx\nEOF",
                                     "ls; (((( ls", "ls \u2066x\u2069", "echo \"a; rm x"])
def test_what_the_parser_reads_otherwise_is_dangerous(command: str, work: Path,
                                                      hermetic_env: Path) -> None:
    result = verdict(command, work, hermetic_env)
    assert result.decision != "allow" and result.dangerous, result


def test_an_endless_stream_behind_a_group_a_function_or_exec(work: Path,
                                                             hermetic_env: Path) -> None:
    for command in ("(yes) > out.txt", "exec > out.txt; yes", "f(){ yes; }; f > out.txt"):
        result = verdict(command, work, hermetic_env)
        assert result.dangerous and "endless" in result.reasons[0], (command, result)
    # the same group with a bounded stream only asks for the write
    bounded = verdict("(yes | head -n 3) > out.txt", work, hermetic_env)
    assert bounded.decision == "ask" and not bounded.dangerous, bounded
    captured = verdict("v=$(yes)", work, hermetic_env)
    assert captured.dangerous and "memory" in captured.reasons[0], captured
