"""rules.toml: loading, examples checked at load, refused interpreter rules, project scope,
chains, the `a`-key writer, and `swebash policy check` applying the file (it only classifies)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from swebash.safety.gate import DefaultGate
from swebash.safety.rulesfile import add_approval, list_rules, load_rules, remove_rule


@pytest.fixture
def rules_file(hermetic_env: Path) -> Path:
    path = hermetic_env / ".config" / "swebash" / "rules.toml"
    path.parent.mkdir(parents=True, exist_ok=True)
    return path


@pytest.fixture
def work(tmp_path: Path) -> Path:
    project = tmp_path / "project"
    project.mkdir()
    (project / ".git").mkdir()
    return project


def gate_for(rules_file: Path, home: Path) -> DefaultGate:
    return DefaultGate(home=str(home), rules_file=rules_file)


def test_allow_rule_applies_to_each_simple_command(rules_file: Path, hermetic_env: Path,
                                                   work: Path) -> None:
    rules_file.write_text('[[rule]]\nprefix = ["make", "test"]\ndecision = "allow"\n'
                          'match = ["make test", "timeout 60 make test -k unit"]\n'
                          'not_match = ["make install"]\n')
    gate = gate_for(rules_file, hermetic_env)
    cwd = str(work)
    assert gate.check_command("make test", cwd).decision == "allow"
    assert gate.check_command("make test && ls", cwd).decision == "allow"
    assert gate.check_command("make test | grep FAIL", cwd).decision == "allow"
    assert gate.check_command("make test && make install", cwd).decision == "ask"
    assert gate.check_command("make test > out.txt", cwd).decision == "ask"
    assert gate.check_command("make test; rm -rf x", cwd).decision == "ask"
    assert gate.check_command("FOO=1 make test", cwd).decision == "ask"
    assert gate.notes() == ()


def test_deny_beats_allow_and_ask_beats_allow(rules_file: Path, hermetic_env: Path,
                                              work: Path) -> None:
    rules_file.write_text('[[rule]]\nprefix = ["cargo"]\ndecision = "allow"\n\n'
                          '[[rule]]\nprefix = ["cargo", "publish"]\ndecision = "deny"\n\n'
                          '[[rule]]\nprefix = ["cargo", "install"]\ndecision = "ask"\n\n'
                          '[[rule]]\nprefix = ["git", "status"]\ndecision = "ask"\n')
    gate = gate_for(rules_file, hermetic_env)
    cwd = str(work)
    assert gate.check_command("cargo build", cwd).decision == "allow"
    assert gate.check_command("ls && cargo publish", cwd).decision == "deny"
    assert gate.check_command("cargo install x", cwd).decision == "ask"
    assert gate.check_command("git status", cwd).decision == "ask"


def test_allow_never_lifts_a_dangerous_verdict(rules_file: Path, hermetic_env: Path,
                                               work: Path) -> None:
    rules_file.write_text('[[rule]]\nprefix = ["rm"]\ndecision = "allow"\n')
    verdict = gate_for(rules_file, hermetic_env).check_command("rm -rf x", str(work))
    assert verdict.decision == "ask" and verdict.dangerous


@pytest.mark.parametrize("prefix", ['["bash"]', '["python3", "-c"]', '["env"]',
                                    '["sudo"]', '["xargs"]', '["/usr/bin/node"]',
                                    '["env", "FOO=1"]'])
def test_interpreter_prefix_cannot_allow(prefix: str, rules_file: Path,
                                         hermetic_env: Path) -> None:
    rules_file.write_text(f'[[rule]]\nprefix = {prefix}\ndecision = "allow"\n')
    loaded = load_rules(rules_file, home=str(hermetic_env))
    assert loaded.rules == ()
    assert len(loaded.notes) == 1 and "rule 1" in loaded.notes[0]
    assert "\n" not in loaded.notes[0]


def test_interpreter_prefix_may_deny_or_name_a_script(rules_file: Path,
                                                      hermetic_env: Path) -> None:
    rules_file.write_text('[[rule]]\nprefix = ["python3"]\ndecision = "deny"\n\n'
                          '[[rule]]\nprefix = ["python3", "tools/check.py"]\n'
                          'decision = "allow"\n')
    assert len(load_rules(rules_file, home=str(hermetic_env)).rules) == 2


def test_failing_examples_are_reported_and_the_rule_ignored(rules_file: Path,
                                                            hermetic_env: Path) -> None:
    rules_file.write_text('[[rule]]\nprefix = ["make", "test"]\ndecision = "allow"\n'
                          'match = ["make check"]\n\n'
                          '[[rule]]\nprefix = ["make"]\ndecision = "allow"\n'
                          'not_match = ["make install"]\n\n'
                          '[[rule]]\nprefix = ["cargo", "test"]\ndecision = "allow"\n')
    loaded = load_rules(rules_file, home=str(hermetic_env))
    assert [r.prefix for r in loaded.rules] == [("cargo", "test")]
    assert len(loaded.notes) == 2
    assert "does not match" in loaded.notes[0] and "should not" in loaded.notes[1]


@pytest.mark.parametrize("text", ["[[rule]]\nprefix = 'make'\ndecision = 'allow'\n",
                                  "[[rule]]\nprefix = ['make']\ndecision = 'maybe'\n",
                                  "[[rule]]\nprefix = ['make']\ndecision = 'allow'\nx = 1\n",
                                  "[[rule]\n", "rule = 3\n"])
def test_broken_rules_are_one_line_notes(text: str, rules_file: Path,
                                         hermetic_env: Path) -> None:
    rules_file.write_text(text)
    loaded = load_rules(rules_file, home=str(hermetic_env))
    assert loaded.rules == () and len(loaded.notes) == 1


def test_project_scope(rules_file: Path, hermetic_env: Path, work: Path,
                       tmp_path: Path) -> None:
    other = tmp_path / "other"
    other.mkdir()
    rules_file.write_text(f'[[rule]]\nprefix = ["make", "test"]\ndecision = "allow"\n'
                          f'project = "{work}"\n')
    gate = gate_for(rules_file, hermetic_env)
    (work / "sub").mkdir()
    assert gate.check_command("make test", str(work / "sub")).decision == "allow"
    assert gate.check_command("make test", str(other)).decision == "ask"


def test_add_approval_writes_the_narrowest_rule(rules_file: Path, hermetic_env: Path,
                                                work: Path) -> None:
    home = str(hermetic_env)
    message = add_approval("npm run build --prod", "project", str(work), rules_file,
                           home=home)
    assert message.startswith("saved") and "npm run build" in message
    rules = list_rules(rules_file, home=home).rules
    assert [(r.prefix, r.project) for r in rules] == [(("npm", "run", "build"),
                                                       os.path.realpath(work))]
    gate = gate_for(rules_file, hermetic_env)
    assert gate.check_command("npm run build", str(work)).decision == "allow"
    assert gate.check_command("npm run deploy", str(work)).decision == "ask"
    add_approval("make test && ls", "always", str(work), rules_file, home=home)
    assert list_rules(rules_file, home=home).rules[-1].prefix == ("make", "test")
    assert list_rules(rules_file, home=home).rules[-1].project is None


@pytest.mark.parametrize("command", ["python3 -c 'print(1)'", "rm -rf x", "bash",
                                     "node", "ls > out.txt"])
def test_add_approval_refuses_interpreters_and_dangerous(command: str, rules_file: Path,
                                                         hermetic_env: Path,
                                                         work: Path) -> None:
    message = add_approval(command, "always", str(work), rules_file,
                           home=str(hermetic_env))
    assert message.startswith("not saved")
    assert not rules_file.exists()


def test_remove_rule(rules_file: Path, hermetic_env: Path, work: Path) -> None:
    home = str(hermetic_env)
    for command in ("make test", "cargo build", "npm test"):
        add_approval(command, "always", str(work), rules_file, home=home)
    assert remove_rule(rules_file, 2).startswith("removed rule 2")
    prefixes = [r.prefix for r in list_rules(rules_file, home=home).rules]
    assert prefixes == [("make", "test"), ("npm", "test")]
    assert remove_rule(rules_file, 9).startswith("no rule 9")


def run_policy(*args: str) -> subprocess.CompletedProcess[str]:
    exe = Path(sys.executable).with_name("swebash")
    return subprocess.run([str(exe), "policy", *args], capture_output=True, text=True,
                          timeout=60, env=os.environ.copy())


def test_policy_check_applies_rules_toml(rules_file: Path, work: Path) -> None:
    rules_file.write_text('[[rule]]\nprefix = ["make", "test"]\ndecision = "allow"\n\n'
                          '[[rule]]\nprefix = ["bash"]\ndecision = "allow"\n')
    done = run_policy("check", "--json", "--cwd", str(work), "--", "make", "test")
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["decision"] == "allow"
    assert "rule 2" in done.stderr and len(done.stderr.strip().splitlines()) == 1
    assert "Traceback" not in done.stderr


def test_policy_check_json_for_attacks(work: Path) -> None:
    done = run_policy("check", "--json", "--", "sed", "1e touch p", "file")
    verdict = json.loads(done.stdout)
    assert verdict["decision"] == "ask" and verdict["dangerous"] is True


def test_policy_check_path_after_double_dash(work: Path) -> None:
    done = run_policy("check-path", "--json", "--", "--json")
    assert done.returncode == 0 and json.loads(done.stdout)["decision"] == "allow"
    done = run_policy("check-path", "--json", "--", "~/.vault-token")
    assert json.loads(done.stdout)["decision"] == "deny"
    assert run_policy("check-path", "a", "b").returncode == 2
    assert run_policy("frobnicate").returncode == 2


def test_ai_rules_lists_and_removes(rules_file: Path) -> None:
    rules_file.write_text('[[rule]]\nprefix = ["make", "test"]\ndecision = "allow"\n\n'
                          '[[rule]]\nprefix = ["sh"]\ndecision = "allow"\n\n'
                          '[[rule]]\nprefix = ["cargo", "build"]\ndecision = "allow"\n')
    exe = str(Path(sys.executable).with_name("swebash"))

    def ai(line: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([exe, "-c", line], capture_output=True, text=True, timeout=60,
                              env=os.environ.copy())

    listed = ai("ai rules")
    assert "1. allow make test" in listed.stdout and "3. allow cargo build" in listed.stdout
    assert "refused: rules.toml rule 2" in listed.stdout
    assert ai("ai rules rm 3").stdout.startswith("removed rule 3")
    assert "cargo" not in rules_file.read_text()
    assert ai("ai rules rm 9").returncode == 1


def test_allow_matches_the_program_as_written_deny_however_spelled(
        rules_file: Path, hermetic_env: Path, work: Path) -> None:
    rules_file.write_text('[[rule]]\nprefix = ["make", "test"]\ndecision = "allow"\n\n'
                          '[[rule]]\nprefix = ["./run.sh"]\ndecision = "allow"\n\n'
                          '[[rule]]\nprefix = ["terraform"]\ndecision = "deny"\n')
    gate = gate_for(rules_file, hermetic_env)
    cwd = str(work)
    assert gate.check_command("make test", cwd).decision == "allow"
    assert gate.check_command("/usr/bin/make test", cwd).decision == "allow"
    assert gate.check_command("./make test", cwd).decision == "ask"
    assert gate.check_command("./run.sh --fast", cwd).decision == "allow"
    assert gate.check_command("/tmp/x/run.sh", cwd).decision == "ask"
    assert gate.check_command("/opt/bin/terraform plan", cwd).decision == "deny"
