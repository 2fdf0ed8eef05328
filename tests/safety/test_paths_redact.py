"""Path-guard attacks, secret redaction, visible escaping and the policy CLI."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from swebash.safety.paths import check_path
from swebash.safety.policy_cli import main as policy_main
from swebash.safety.redact import SecretRedactor
from swebash.tools.files import looks_binary
from swebash.visible import make_visible


@pytest.fixture
def home(hermetic_env: Path) -> Path:
    (hermetic_env / ".ssh").mkdir()
    (hermetic_env / ".ssh" / "id_rsa").write_text("-----BEGIN OPENSSH PRIVATE KEY-----\n")
    return hermetic_env


@pytest.fixture
def work(tmp_path: Path) -> Path:
    project = tmp_path / "project"
    project.mkdir()
    (project / "notes.txt").write_text("hi\n")
    return project


def judge(path: str, work: Path, home: Path, write: bool = False) -> tuple[str, bool, str]:
    verdict = check_path(path, str(work), str(home), write=write)
    return verdict.decision, verdict.dangerous, " ".join(verdict.reasons)


def test_plain_read_is_allowed_and_write_asks(work: Path, home: Path) -> None:
    assert judge("notes.txt", work, home)[0] == "allow"
    decision, dangerous, reason = judge("notes.txt", work, home, write=True)
    assert (decision, dangerous) == ("ask", False) and "writes" in reason


def test_traversal_into_ssh_is_denied(work: Path, home: Path) -> None:
    rel = os.path.relpath(home / ".ssh" / "id_rsa", work)
    assert judge(rel, work, home)[0] == "deny"
    assert judge("~/.ssh/id_rsa", work, home)[0] == "deny"
    assert judge("~/.SSH/ID_RSA", work, home)[0] == "deny"


def test_symlink_into_ssh_is_judged_by_its_target(work: Path, home: Path) -> None:
    (work / "innocent.txt").symlink_to(home / ".ssh" / "id_rsa")
    decision, _, reason = judge("innocent.txt", work, home)
    assert decision == "deny" and ".ssh" in reason


def test_new_file_under_symlinked_directory(work: Path, home: Path) -> None:
    (work / "cfg").symlink_to(home / ".ssh")
    assert judge("cfg/authorized_keys", work, home, write=True)[0] == "deny"


@pytest.mark.parametrize("path", ["/proc/self/environ", '/proc/"self"/environ'.replace('"', ""),
                                  "/proc/1/mem", "/etc/shadow", "/etc/sudoers", "/dev/sda",
                                  ".env", ".env.production", "server.pem", "tls.key",
                                  "~/.aws/credentials", "~/.netrc", "~/.git-credentials",
                                  "~/.docker/config.json", "~/.config/gh/hosts.yml",
                                  "~/.kube/config", "~/.npmrc", "~/.pypirc", "~/.gnupg/x"])
def test_secret_paths_denied(path: str, work: Path, home: Path) -> None:
    assert judge(path, work, home)[0] == "deny"
    assert judge(path, work, home, write=True)[0] == "deny"


def test_dev_null_and_public_key_are_fine(work: Path, home: Path) -> None:
    assert judge("/dev/null", work, home)[0] == "allow"
    assert judge("id_rsa.pub", work, home)[0] == "allow"


def test_fifo_refused(work: Path, home: Path) -> None:
    os.mkfifo(work / "pipe")
    decision, _, reason = judge("pipe", work, home)
    assert decision == "deny" and "not a regular file" in reason


@pytest.mark.parametrize("path", ["~/.bashrc", ".git/hooks/pre-commit", ".git/config",
                                  "/etc/hosts", "/tmp/outside.txt", "../sibling.txt"])
def test_sensitive_writes_are_dangerous(path: str, work: Path, home: Path) -> None:
    (work / ".git" / "hooks").mkdir(parents=True)
    decision, dangerous, _ = judge(path, work, home, write=True)
    assert decision == "ask" and dangerous


def test_binary_detection() -> None:
    assert looks_binary(b"abc\x00def")
    assert looks_binary(bytes(range(1, 32)) * 10)
    assert not looks_binary(b"plain text\n\twith tabs\n")
    assert not looks_binary(b"")


TOKENS = {
    "openai-key": "sk-proj-abcdefghijklmnopqrstuvwxyz123456",
    "anthropic-key": "sk-ant-api03-abcdefghijklmnopqrstuvwxyz",
    "aws-access-key": "AKIAIOSFODNN7EXAMPLE",
    "github-token": "ghp_abcdefghijklmnopqrstuvwxyz0123456789",
    "slack-token": "xoxb-123456789012-abcdefghijkl",
    "jwt": "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dBjftJeZ4CVPmB92K27uhbUJU1p1r",
    "private-key": "-----BEGIN RSA PRIVATE KEY-----\nMIIEow\n-----END RSA PRIVATE KEY-----",
}


@pytest.mark.parametrize("kind", list(TOKENS))
def test_token_shapes_redacted(kind: str) -> None:
    text = f"before {TOKENS[kind]} after"
    out = SecretRedactor({}).redact(text)
    assert TOKENS[kind] not in out and f"[REDACTED:{kind}]" in out
    assert out.startswith("before ") and out.endswith(" after")


def test_github_pat_and_env_values() -> None:
    env = {"MY_SERVICE_TOKEN": "tok-1234567", "DB_PASSWORD": "hunter22", "HOME": "/home/u",
           "SHORT_KEY": "1"}
    redactor = SecretRedactor(env, ["configured-key-999"])
    out = redactor.redact("t=tok-1234567 p=hunter22 h=/home/u k=configured-key-999 s=1 "
                          "github_pat_11ABCDEFG0123456789_abcdefghij")
    assert "[REDACTED:MY_SERVICE_TOKEN]" in out and "[REDACTED:DB_PASSWORD]" in out
    assert "[REDACTED:api-key]" in out and "[REDACTED:github-token]" in out
    assert "h=/home/u" in out and "s=1" in out


def test_make_visible_shows_hidden_characters() -> None:
    sneaky = "echo safe\r\x1b[2Krm -rf x \u202e\u200btxt"
    shown = make_visible(sneaky)
    assert "\r" not in shown and "\x1b" not in shown
    assert "\\r" in shown and "\\x1b" in shown and "\\u202e" in shown and "\\u200b" in shown
    assert make_visible("ls café") == "ls café"


def test_policy_cli_json(capsys: pytest.CaptureFixture[str], work: Path,
                         monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(work)
    assert policy_main(["check", "--json", "--", "rm", "-rf", "build/"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["decision"] == "ask" and out["dangerous"] is True and out["reasons"]
    assert policy_main(["check", "--", "ls", "-la"]) == 0
    assert capsys.readouterr().out.strip() == "decision: allow"
    assert policy_main(["check-path", "--json", "~/.ssh/id_rsa"]) == 0
    assert json.loads(capsys.readouterr().out)["decision"] == "deny"
    assert policy_main(["check-path", "--write", "notes.txt"]) == 0
    assert "decision: ask" in capsys.readouterr().out
    assert policy_main(["check"]) == 2
    assert policy_main(["frobnicate"]) == 2


def test_policy_rules_from_config_toml(capsys: pytest.CaptureFixture[str], work: Path,
                                       home: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    cfg = home / ".config" / "swebash"
    cfg.mkdir(parents=True)
    (cfg / "config.toml").write_text('[policy]\nallow = ["make test"]\ndeny = ["terraform"]\n')
    monkeypatch.chdir(work)
    policy_main(["check", "--json", "--", "make test"])
    assert json.loads(capsys.readouterr().out)["decision"] == "allow"
    policy_main(["check", "--json", "--", "terraform destroy"])
    assert json.loads(capsys.readouterr().out)["decision"] == "deny"


def test_a_key_cut_short_is_redacted_through_its_body() -> None:
    body = "MIIEowIBAAKCAQEA1234abcd\nQUJDREVGR0hJSktMTU5PUFFS\n"
    cut = f"head:\n-----BEGIN RSA PRIVATE KEY-----\nProc-Type: 4,ENCRYPTED\n{body}plain words\n"
    out = SecretRedactor({}).redact(cut)
    assert out == "head:\n[REDACTED:private-key]\nplain words\n"
    escaped = json.dumps({"content": cut})  # a tool result: newlines are JSON escapes
    assert "MIIEow" not in SecretRedactor({}).redact(escaped)


def test_many_begin_lines_cost_linear_time() -> None:
    # a quadratic BEGIN…END scan would not finish within the test timeout
    hostile = "-----BEGIN RSA PRIVATE KEY-----x" * 30_000 + "y" * 1_000_000
    out = SecretRedactor({}).redact(hostile)
    assert out.count("[REDACTED:private-key]") == 30_000 and out.endswith("y" * 1000)


@pytest.mark.parametrize(("text", "secret"), [
    ("DB_PASSWORD=hunter2xyz\n", "hunter2xyz"),
    ("export STRIPE_KEY=rk_live_abcdef123456\n", "rk_live_abcdef123456"),
    ('  password: "s3cr3t-Value!"\n', "s3cr3t-Value!"),
    ("      POSTGRES_PASSWORD: example123\n", "example123"),
    ('{"client_secret": "abcDEF123456", "x": 1}', "abcDEF123456"),
    ("aws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY\n",
     "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY"),
    ("AccountName=x;AccountKey=abc123+/def==;EndpointSuffix=core", "abc123+/def=="),
    ("postgres://app:pa55word@db/app", "pa55word"),
    ("mysql --password=S3cretPass db", "S3cretPass"),
    ("curl -u admin:hunter2 https://x", "hunter2"),
    ("x-api-key: abcdef123456", "abcdef123456"),
    (json.dumps({"stdout": "POSTGRES_PASSWORD: Tr0ub4dor-3x\nok\n"}), "Tr0ub4dor-3x")])
def test_a_value_given_to_a_secret_named_key_is_redacted(text: str, secret: str) -> None:
    out = SecretRedactor({}).redact(text)
    assert secret not in out and "[REDACTED:value]" in out


@pytest.mark.parametrize("text", [
    "token = tokenizer.encode(x)", "self.token = new_token",
    'password = request.form["password"]', "PASSWORD_MIN_LENGTH = 8",
    'api_key = os.environ["API_KEY"]', '"password": "${DB_PASSWORD}"',
    'TOKEN_URL = "https://oauth2.googleapis.com/token"', "const apiKey = process.env.API_KEY;",
    "foreign_key: user_id2", "primary_key = id", "docker run -u 1000:1000 img",
    "monkey = banana123", "secret: {{ .Values.secret }}", "def check_password(pw):"])
def test_code_that_names_a_secret_is_left_as_it_is(text: str) -> None:
    assert SecretRedactor({}).redact(text) == text

