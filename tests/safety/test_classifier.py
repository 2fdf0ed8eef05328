"""The labelled corpus: nothing that must never be allowed is allowed; the needless-ask rate on
read-only commands stays at or under 10 %. (The commands are only classified, never run.)"""

from __future__ import annotations

from pathlib import Path

import pytest

from swebash.config import PolicyConfig
from swebash.safety.gate import DefaultGate
from tests.safety.corpus import DANGEROUS, NEVER_ALLOW, READ_ONLY
from tests.safety.fresh import make_workdir

MAX_NEEDLESS_ASK = 0.10


@pytest.fixture
def workdir(tmp_path: Path, hermetic_env: Path) -> Path:
    return Path(make_workdir(str(tmp_path), ("existing.txt", "other.txt", "file", "a", "b",
                                             "README.md")))


def test_corpus_is_big_enough() -> None:
    assert len(NEVER_ALLOW) >= 100 and len(READ_ONLY) >= 100
    assert len(set(NEVER_ALLOW) & set(READ_ONLY)) == 0


@pytest.mark.parametrize("command", NEVER_ALLOW)
def test_never_allowed(command: str, gate: DefaultGate, workdir: Path) -> None:
    verdict = gate.check_command(command, str(workdir))
    assert verdict.decision != "allow", f"{command!r} was allowed"
    assert verdict.reasons, f"{command!r} has no reason"


@pytest.mark.parametrize("command", DANGEROUS)
def test_dangerous_flagged(command: str, gate: DefaultGate, workdir: Path) -> None:
    verdict = gate.check_command(command, str(workdir))
    assert verdict.dangerous, f"{command!r} not flagged dangerous: {verdict}"


def test_needless_ask_rate(gate: DefaultGate, workdir: Path,
                           capsys: pytest.CaptureFixture[str]) -> None:
    needless = [(c, gate.check_command(c, str(workdir))) for c in READ_ONLY]
    asked = [(c, v) for c, v in needless if v.decision != "allow"]
    rate = len(asked) / len(READ_ONLY)
    with capsys.disabled():
        print(f"\nneedless-ask rate on {len(READ_ONLY)} read-only commands: {rate:.1%}")
        for command, verdict in asked:
            print(f"  asked: {command!r}: {'; '.join(verdict.reasons)}")
    assert rate <= MAX_NEEDLESS_ASK
    assert not [c for c, v in needless if v.dangerous]


@pytest.mark.parametrize("command", ["cat ~/.ssh/id_rsa", "cat /etc/shadow", "head .env",
                                     "cat /proc/self/environ"])
def test_reading_secrets_is_denied(command: str, gate: DefaultGate, workdir: Path) -> None:
    assert gate.check_command(command, str(workdir)).decision == "deny"


def test_reasons_are_human(gate: DefaultGate, workdir: Path) -> None:
    verdict = gate.check_command("rm -r build/", str(workdir))
    assert verdict.reasons[0] == "rm: deletes files recursively"
    long = "rm -r " + " ".join(f"dir{n}" for n in range(50))
    assert all(len(r) < 80 for r in gate.check_command(long, str(workdir)).reasons)


def test_user_rules(hermetic_env: Path, workdir: Path) -> None:
    policy = PolicyConfig(allow=("make test", "npm test"), ask=("git status",),
                          deny=("terraform destroy",))
    gate = DefaultGate(policy, home=str(hermetic_env))
    cwd = str(workdir)
    assert gate.check_command("make test", cwd).decision == "allow"
    assert gate.check_command("make test && npm test", cwd).decision == "allow"
    assert gate.check_command("make test && make install", cwd).decision == "ask"
    assert gate.check_command("make test; rm -rf /", cwd).decision != "allow"
    assert gate.check_command("git status", cwd).decision == "ask"
    assert gate.check_command("ls && terraform destroy -auto", cwd).decision == "deny"
    dangerous_allowed = DefaultGate(PolicyConfig(allow=("rm",)), home=str(hermetic_env))
    assert dangerous_allowed.check_command("rm -rf x", cwd).decision == "ask"


def test_any_bytes_never_raise(gate: DefaultGate, workdir: Path) -> None:
    for weird in ["\x00rm", "\udcff\udcfe", "((((((((", "'" * 1001, "$(" * 300, "\\",
                  "echo \x1b[31mred", "a" * 100_000]:
        assert gate.check_command(weird, str(workdir)).decision in ("allow", "ask", "deny")
