"""swebash's own commands where a user puts them: in pipelines, compound lines, beside a damaged
rules.toml — one clear line and the right status, never a traceback (installed binary)."""

from __future__ import annotations

import subprocess
from pathlib import Path

from tests.e2e.conftest import SWEBASH

TRACEBACK = ("Traceback", "internal error", "BrokenPipeError")


def run(args: list[str], env: dict[str, str], stdin: bytes | None = None
        ) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run(args, env=env, input=stdin, capture_output=True, timeout=60)


def many_rules(config_dir: Path, count: int) -> None:
    rules = config_dir / "swebash" / "rules.toml"
    rules.parent.mkdir(parents=True, exist_ok=True)
    rules.write_text("".join(f'[[rule]]\nprefix = ["make", "t{i}"]\ndecision = "allow"\n\n'
                             for i in range(count)))


def test_a_reader_that_leaves_early_ends_swebash_quietly(hermetic_env: Path,
                                                         term_env: dict[str, str]) -> None:
    many_rules(hermetic_env / ".config", 5000)  # far more than a pipe holds
    for command in ("policy rules", "--help"):
        done = run(["bash", "-c", f"{SWEBASH} {command} | head -1; "
                    "echo status=${PIPESTATUS[0]}"], term_env)
        out, err = done.stdout.decode(), done.stderr.decode()
        assert not any(word in out + err for word in TRACEBACK), err
        assert out.count("\n") == 2 and "status=" in out
    assert "status=141" in out or "status=0" in out  # --help fits in the pipe


def test_ai_builtins_in_a_pipe_or_list_say_they_stand_alone(term_env: dict[str, str]) -> None:
    line = "ai sessions | grep x; echo y"
    done = run([SWEBASH, "-c", line], term_env)
    assert done.returncode != 0
    (message,) = done.stderr.decode().strip().splitlines()
    assert "stands alone" in message and "'|'" in message
    piped = run([SWEBASH], term_env, stdin=f"{line}\necho after\n".encode())
    assert b"stands alone" in piped.stderr and piped.stdout.strip() == b"after"
    alone = run([SWEBASH, "-c", "ai sessions"], term_env)  # the same builtin, alone: works
    assert alone.returncode == 0 and b"no stored conversations" in alone.stdout


def test_a_rules_file_that_is_not_utf8_is_left_alone(hermetic_env: Path,
                                                     term_env: dict[str, str]) -> None:
    rules = hermetic_env / ".config" / "swebash" / "rules.toml"
    rules.parent.mkdir(parents=True, exist_ok=True)
    original = b'[[rule]]\nprefix = ["make", "caf\xe9"]\ndecision = "allow"\n'
    rules.write_bytes(original)
    listed = run([SWEBASH, "-c", "ai rules"], term_env)
    removed = run([SWEBASH, "-c", "ai rules rm 1"], term_env)
    for done in (listed, removed):
        text = (done.stdout + done.stderr).decode()
        assert not any(word in text for word in TRACEBACK), text
    assert b"not UTF-8" in listed.stdout
    assert removed.returncode == 1 and b"not removed" in removed.stdout
    assert b"byte 0xe9" in removed.stdout
    assert rules.read_bytes() == original  # never rewritten with a guess
