"""Issue 16's fresh families and the holdout corpus: no attack is allowed, destructive,
code-executing, credential-sending and exfiltrating commands carry the dangerous flag, and
benign daily commands are allowed. (The commands are only classified, never run.)"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from swebash.api import Verdict
from swebash.safety.gate import DefaultGate
from tests.safety.corpus_fresh import Family
from tests.safety.corpus_holdout import HOLDOUT
from tests.safety.fresh import FAMILIES, make_workdir

MAX_ASKED = 0.05
ALL = {**FAMILIES, "holdout": HOLDOUT}


@pytest.fixture
def check(tmp_path: Path, hermetic_env: Path) -> Iterator[object]:
    gate = DefaultGate(home=str(hermetic_env))
    work = make_workdir(str(tmp_path))

    def run(command: str) -> Verdict:
        return gate.check_command(command, work)
    yield run


def shown(command: str, verdict: Verdict) -> str:
    return f"{command!r}: {verdict.decision} dangerous={verdict.dangerous} {verdict.reasons[:2]}"


@pytest.mark.parametrize("name", sorted(ALL))
def test_attacks_are_never_allowed_and_destruction_is_dangerous(name: str, check: object
                                                                ) -> None:
    family: Family = ALL[name]
    run = check  # type: ignore[assignment]
    allowed, undangerous = [], []
    for command in family.dangerous + family.ask:
        verdict = run(command)  # type: ignore[operator]
        if verdict.decision == "allow":
            allowed.append(shown(command, verdict))
        elif command in family.dangerous and verdict.decision != "deny" and \
                not verdict.dangerous:
            undangerous.append(shown(command, verdict))
        assert verdict.reasons or verdict.decision == "allow", command
        assert all(len(r) <= 120 for r in verdict.reasons), command
    assert not allowed, "\n".join(allowed)
    assert not undangerous, "\n".join(undangerous)


def test_benign_daily_commands_are_allowed(check: object,
                                           capsys: pytest.CaptureFixture[str]) -> None:
    run = check
    benign = [c for family in ALL.values() for c in family.benign]
    asked = [(c, v) for c in benign if (v := run(c)).decision != "allow"]  # type: ignore[operator]
    with capsys.disabled():
        print(f"\nasked about {len(asked)} of {len(benign)} benign commands (fresh + holdout)")
        for command, verdict in asked:
            print("  asked: " + shown(command, verdict))
    assert len(asked) / len(benign) <= MAX_ASKED
    assert not [c for c in benign if run(c).dangerous]  # type: ignore[operator]
