"""Issue 10's families: a sound "allow", dangerous flags, bounded classification.
(The commands are only classified, never run.)"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from swebash.safety.commands import classify
from swebash.safety.gate import DefaultGate
from tests.safety.corpus import READ_ONLY
from tests.safety.corpus_families import (
    FAMILY_DANGEROUS,
    FAMILY_NEVER_ALLOW,
    FAMILY_READ_ONLY,
    STRESS,
)
from tests.safety.fresh import make_workdir

MAX_ASKED = 0.05


@pytest.fixture
def workdir(tmp_path: Path, hermetic_env: Path) -> Path:
    return Path(make_workdir(str(tmp_path)))


@pytest.mark.parametrize("command", FAMILY_DANGEROUS)
def test_family_dangerous(command: str, gate: DefaultGate, workdir: Path) -> None:
    verdict = gate.check_command(command, str(workdir))
    assert verdict.decision != "allow" and verdict.dangerous, f"{command!r}: {verdict}"
    assert verdict.reasons and all(len(r) <= 120 for r in verdict.reasons)


@pytest.mark.parametrize("command", FAMILY_NEVER_ALLOW)
def test_family_never_allowed(command: str, gate: DefaultGate, workdir: Path) -> None:
    verdict = gate.check_command(command, str(workdir))
    assert verdict.decision != "allow", f"{command!r} was allowed"
    assert verdict.reasons


def test_read_only_is_not_asked(gate: DefaultGate, workdir: Path,
                                capsys: pytest.CaptureFixture[str]) -> None:
    commands = READ_ONLY + FAMILY_READ_ONLY
    asked = [(c, v) for c in commands
             if (v := gate.check_command(c, str(workdir))).decision != "allow"]
    with capsys.disabled():
        print(f"\nasked about {len(asked)} of {len(commands)} read-only commands")
        for command, verdict in asked:
            print(f"  asked: {command!r}: {'; '.join(verdict.reasons)}")
    assert len(asked) / len(commands) <= MAX_ASKED
    assert not [c for c in commands if gate.check_command(c, str(workdir)).dangerous]


@pytest.mark.parametrize("index", range(len(STRESS)))
def test_stress_inputs_get_an_answer(index: int, gate: DefaultGate, workdir: Path) -> None:
    verdict = gate.check_command(STRESS[index], str(workdir))
    assert verdict.decision in ("allow", "ask", "deny")
    assert all(len(r) < 200 for r in verdict.reasons)


def test_dangerous_reasons_lead(gate: DefaultGate, workdir: Path) -> None:
    verdict = gate.check_command("touch a && rm -rf build", str(workdir))
    assert verdict.reasons[0] == "rm: deletes files recursively"


def test_symlink_then_dotdot_reaches_the_secret(gate: DefaultGate, workdir: Path,
                                                hermetic_env: Path) -> None:
    ssh = hermetic_env / ".ssh"
    ssh.mkdir()
    (ssh / "id_rsa").write_text("-----BEGIN OPENSSH PRIVATE KEY-----\n")
    (hermetic_env / "deep").mkdir()
    (workdir / "link").symlink_to(hermetic_env / "deep")
    verdict = gate.check_command("cat link/../.ssh/id_rsa", str(workdir))
    assert verdict.decision == "deny"


def test_hard_link_to_a_secret_is_the_secret(gate: DefaultGate, workdir: Path,
                                             hermetic_env: Path) -> None:
    aws = hermetic_env / ".aws"
    aws.mkdir()
    (aws / "credentials").write_text("[default]\nkey = x\n")
    os.link(aws / "credentials", workdir / "notes.txt")
    assert gate.check_command("cat notes.txt", str(workdir)).decision == "deny"


def test_private_key_content_is_secret_whatever_the_name(gate: DefaultGate,
                                                         workdir: Path) -> None:
    (workdir / "backup.txt").write_text("-----BEGIN RSA PRIVATE KEY-----\nabc\n")
    assert gate.check_command("cat backup.txt", str(workdir)).decision == "deny"
    assert gate.check_command("cat cert.pem", str(workdir)).decision == "allow"


def test_findings_attribute_asks_to_commands(workdir: Path, hermetic_env: Path) -> None:
    found = classify("ls && make test > out.txt", str(workdir), str(hermetic_env))
    assert [c[0] for c in found.commands] == ["ls", "make"]
    assert found.command_asks[0] == 0 and found.command_asks[1] > 0
    assert found.loose > 0  # the redirect asked outside any command


def test_classifier_modules_do_not_import_each_other_in_a_cycle() -> None:
    import ast

    package = Path(__file__).resolve().parents[2] / "swebash" / "safety" / "classify"
    for module in ("model", "tables"):
        tree = ast.parse((package / f"{module}.py").read_text())
        imported = {n.module for n in ast.walk(tree)
                    if isinstance(n, ast.ImportFrom) and n.module}
        assert not {m for m in imported if m.startswith("swebash.safety.")} - {
            "swebash.safety.paths"}, module


@pytest.mark.parametrize("path", [
    "~/.vault-token", "~/.bash_history", "~/.zsh_history", "~/.python_history",
    "/run/secrets/db", "/var/run/secrets/kubernetes.io/serviceaccount/token",
    "terraform.tfstate", "prod.tfstate.backup", "x.tfvars", ".envrc", ".env.local", "prod.env",
    "~/.docker/config.json", "~/.config/gcloud/credentials.db", "~/.azure/x.json",
    "~/.cargo/credentials.toml", "~/.codex/auth.json", "/root/.ssh/id_rsa",
    "/home/other/.aws/credentials", "/proc/self/root/etc/shadow", "/proc/1/environ",
    "/proc/self/fd/3", "~/.ssh", "secrets/db.txt", "~/.SSH/ID_RSA", "$HOME/.ssh/id_rsa",
    "/etc/ssl/private/x.key", "key.pem", "~/.npmrc", "~/.local/share/fish/fish_history"])
def test_secret_path_families_denied(path: str, hermetic_env: Path, workdir: Path) -> None:
    from swebash.safety.paths import check_path

    assert check_path(path, str(workdir), str(hermetic_env), write=False).decision == "deny"


@pytest.mark.parametrize("path", ["cert.pem", "fullchain.pem", "ca-bundle.pem", ".env.example",
                                  "~/.ssh/id_ed25519.pub", "~/.ssh/known_hosts", "README.md",
                                  "/etc/hosts", "~/.gitconfig"])
def test_public_paths_allowed(path: str, hermetic_env: Path, workdir: Path) -> None:
    from swebash.safety.paths import check_path

    assert check_path(path, str(workdir), str(hermetic_env), write=False).decision == "allow"
