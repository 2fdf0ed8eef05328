"""Options that run, load, write outside the tree or reach a port: the positive model flags
them dangerous, and their read-only neighbours stay allowed. (Classified, never run.)"""

from __future__ import annotations

from pathlib import Path

import pytest

from swebash.safety.gate import DefaultGate
from tests.safety.corpus_capabilities import (
    CAPABILITY_ASKED_PLAIN,
    CAPABILITY_DANGEROUS,
    CAPABILITY_NEVER_ALLOW,
    CAPABILITY_READ_ONLY,
)
from tests.safety.fresh import make_workdir


@pytest.fixture
def workdir(tmp_path: Path, hermetic_env: Path) -> Path:
    return Path(make_workdir(str(tmp_path), ("README.md", "a", "b", "key.pub", "fix.patch")))


@pytest.mark.parametrize("command", CAPABILITY_DANGEROUS)
def test_capability_is_dangerous(command: str, gate: DefaultGate, workdir: Path) -> None:
    verdict = gate.check_command(command, str(workdir))
    assert verdict.decision != "allow" and verdict.dangerous, f"{command!r}: {verdict}"
    assert verdict.reasons and all(len(r) <= 120 for r in verdict.reasons)


@pytest.mark.parametrize("command", CAPABILITY_NEVER_ALLOW)
def test_capability_is_never_allowed(command: str, gate: DefaultGate, workdir: Path) -> None:
    verdict = gate.check_command(command, str(workdir))
    assert verdict.decision != "allow", f"{command!r} was allowed"


@pytest.mark.parametrize("command", CAPABILITY_READ_ONLY)
def test_read_only_neighbour_is_allowed(command: str, gate: DefaultGate,
                                        workdir: Path) -> None:
    verdict = gate.check_command(command, str(workdir))
    assert verdict.decision == "allow", f"{command!r}: {verdict.reasons}"


@pytest.mark.parametrize("command", CAPABILITY_ASKED_PLAIN)
def test_plain_unknown_command_is_not_known_dangerous(command: str, gate: DefaultGate,
                                                      workdir: Path) -> None:
    """Nothing in these words is a capability: the program is only unknown (dangerous for
    --yes, but a rule may vouch for it), never dangerous for what a rule saw."""
    verdict = gate.check_command(command, str(workdir))
    assert verdict.decision == "ask" and (verdict.unknown or not verdict.dangerous), \
        f"{command!r}: {verdict}"


def test_the_reason_names_the_capability(gate: DefaultGate, workdir: Path) -> None:
    """One short reason says what the option does, not only that the command asks."""
    cases = {
        "tmux -c 'touch p'": "runs a shell command",
        "mysql --default-auth=x": "loads the plugin library",
        "backup-tool --pre-command='touch p' run": "is handed a command to run",
        "frobnicate --address=unixexec:path=/bin/bash": "is handed a shell to run",
        "whois -p 6379 -h 127.0.0.1 x": "chosen port",
    }
    for command, words in cases.items():
        verdict = gate.check_command(command, str(workdir))
        assert any(words in r for r in verdict.reasons), (command, verdict.reasons)
