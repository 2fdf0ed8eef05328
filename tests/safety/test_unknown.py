"""What the classifier does not model is dangerous as *unknown*: `--yes` never runs it, a
person may, and a rule the user writes may vouch for it — but a rule never lifts what the
classifier knows to be dangerous. Commands here are data passed to the classifier."""

from __future__ import annotations

import asyncio
import os
from pathlib import Path

import pytest

from swebash.api import ConfirmAnswer, ConfirmRequest, Verdict
from swebash.app import noninteractive_confirm
from swebash.render.confirm import build_confirm_prompt
from swebash.safety.gate import DefaultGate


@pytest.fixture
def tree(tmp_path: Path) -> Path:
    work = tmp_path / "project"
    (work / ".git").mkdir(parents=True)
    (work / "scripts").mkdir()
    return work


@pytest.fixture
def rules_gate(hermetic_env: Path) -> DefaultGate:
    return DefaultGate(home=str(hermetic_env),
                       rules_file=hermetic_env / ".config" / "swebash" / "rules.toml")


@pytest.mark.parametrize("command", [
    "frobnicate", "frobnicate --all", "ls --frobnicate", "git frobnicate", "sort --bogus f",
    "cat -Z f", "docker ps --no-such-flag", "/opt/vendor/bin/tool run", "cd /tmp && ./x"])
def test_what_the_classifier_does_not_know_is_unknown(command: str, tree: Path,
                                                      rules_gate: DefaultGate) -> None:
    verdict = rules_gate.check_command(command, str(tree))
    assert verdict.decision == "ask" and verdict.dangerous and verdict.unknown, verdict
    assert "not known to the classifier" in verdict.reasons[0] or \
        "not a program the classifier knows" in verdict.reasons[0] or \
        "outside the working tree" in verdict.reasons[0]


@pytest.mark.parametrize("command", [
    "for f in $(git ls-files); do wc -l $f; done",  # known program, value known only later
    "./scripts/build", "scripts/build --fast"])      # the project's own code: like `bash x.sh`
def test_known_programs_with_run_time_words_and_the_trees_own_programs_are_plain_asks(
        command: str, tree: Path, rules_gate: DefaultGate) -> None:
    verdict = rules_gate.check_command(command, str(tree))
    assert verdict.decision in ("allow", "ask") and not verdict.dangerous, verdict


def test_known_danger_leads_and_is_not_unknown(tree: Path, rules_gate: DefaultGate) -> None:
    verdict = rules_gate.check_command("frobnicate --all && rm -rf build", str(tree))
    assert verdict.dangerous and not verdict.unknown
    assert verdict.reasons[0].startswith("rm:")  # what is known comes before what is not


def test_a_rule_vouches_for_an_unknown_program(tree: Path, rules_gate: DefaultGate) -> None:
    message = rules_gate.approve("frobnicate --all", "project", str(tree))
    assert message.startswith("saved: allow frobnicate"), message
    assert rules_gate.check_command("frobnicate --all", str(tree)).decision == "allow"
    # ...never for what the classifier knows to be dangerous around it
    mixed = rules_gate.check_command("frobnicate --all; rm -rf build", str(tree))
    assert mixed.decision == "ask" and mixed.dangerous and not mixed.unknown
    carried = rules_gate.check_command("frobnicate --all -c 'rm -rf ~'", str(tree))
    assert carried.decision != "allow" and not carried.unknown
    assert rules_gate.approve("rm -rf build", "always", str(tree)).startswith("not saved")


def test_yes_refuses_unknown_and_yes_dangerous_runs_it() -> None:
    request = ConfirmRequest("execute_command", "$ frobnicate",
                             Verdict("ask", True, ("frobnicate: not a program…",), unknown=True),
                             command="frobnicate")
    yes = noninteractive_confirm(True, False)
    yes_dangerous = noninteractive_confirm(False, True)
    assert yes is not None and yes_dangerous is not None
    assert asyncio.run(yes(request)) is ConfirmAnswer.NOT_DANGEROUS
    assert asyncio.run(yes_dangerous(request)) is ConfirmAnswer.YES


def test_the_question_says_unknown_and_offers_always() -> None:
    unknown = ConfirmRequest("execute_command", "$ frobnicate",
                             Verdict("ask", True, ("not a program the classifier knows",),
                                     unknown=True), command="frobnicate")
    prompt = build_confirm_prompt(unknown)
    assert prompt.plain.startswith("⚠ UNKNOWN run: frobnicate") and prompt.offers_always
    assert "DANGEROUS" not in prompt.plain
    known = ConfirmRequest("execute_command", "$ rm -rf b",
                           Verdict("ask", True, ("deletes files recursively",)),
                           command="rm -rf b")
    assert not build_confirm_prompt(known).offers_always


def test_policy_check_says_why_it_is_dangerous(tree: Path, hermetic_env: Path) -> None:
    import subprocess
    import sys

    out = subprocess.run([sys.executable, "-m", "swebash", "policy", "check", "--json",
                          "--cwd", str(tree), "--", "frobnicate"], capture_output=True,
                         text=True, env=os.environ, check=True).stdout
    assert '"unknown": true' in out and '"dangerous": true' in out
