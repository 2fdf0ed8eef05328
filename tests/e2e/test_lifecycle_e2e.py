"""Ending swebash from outside: closing the window (SIGHUP), SIGTERM and SIGQUIT end it like
`exit` — no AI tool process left running, the private temp dir gone — and closed standard
descriptors behave as they do for bash."""

from __future__ import annotations

import json
import os
import secrets
import signal
import subprocess
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.e2e.conftest import SWEBASH, Term
from tests.fakes.server import FakeServer

Spawn = Callable[..., Term]


def processes_with(needle: str) -> list[int]:
    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            cmdline = Path(f"/proc/{entry}/cmdline").read_bytes()
        except OSError:
            continue
        if needle.encode() in cmdline:
            found.append(int(entry))
    return found


def wait_until(check: Callable[[], bool], timeout: float = 10.0) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if check():
            return True
        time.sleep(0.05)
    return check()


@pytest.mark.parametrize("sig", [signal.SIGHUP, signal.SIGTERM, signal.SIGQUIT])
def test_a_signal_during_a_tool_leaves_no_process_and_no_temp_dir(
        spawn: Spawn, server: FakeServer, tmp_path: Path, sig: signal.Signals) -> None:
    # A harmless, uniquely recognisable payload: sleep for an odd number of seconds.
    seconds = f"{900 + secrets.randbelow(90)}.{secrets.randbelow(10**6):06d}"
    server.script({"tools": [["execute_command", json.dumps({"command": f"sleep {seconds}"})]]},
                  {"text": "done"})
    tmpdir = Path(os.environ["TMPDIR"])
    term = spawn(env={"OPENAI_API_KEY": "sk-test-not-a-real-key-000000",
                      "SWEBASH_AI_PROVIDER": "openai", "OPENAI_BASE_URL": server.url + "/v1",
                      "SWEBASH_AI_MAX_RETRIES": "0", "SWEBASH_AI_TOOLS_CONFIRM": "false",
                      "TMPDIR": str(tmpdir)}, cwd=str(tmp_path))
    term.wait_prompt()
    assert [p for p in tmpdir.iterdir() if p.name.startswith("swebash-")]
    term.send("? wait a while\r")
    term.wait_for(lambda t: bool(processes_with(seconds)), 15, "the tool to run")
    os.kill(term.child.pid, sig)
    term.exit_status(timeout=10)
    assert wait_until(lambda: not processes_with(seconds), 5), "tool left running"
    assert not [p for p in tmpdir.iterdir() if p.name.startswith("swebash-")]


@pytest.mark.parametrize("redirect,expected", [
    ("-c true >&-", 0), ("-c true 2>&-", 0), ("-c true <&-", 0), ("<&-", 0),
    ("-c 'exit 4' >&- 2>&-", 4),
])
def test_closed_standard_descriptors_behave_as_for_bash(redirect: str, expected: int,
                                                        term_env: dict[str, str]) -> None:
    done = subprocess.run(["bash", "-c", f"exec {SWEBASH} {redirect}"], env=term_env,
                          capture_output=True, text=True, timeout=20)
    assert done.returncode == expected, done.stderr
    assert "Traceback" not in done.stderr and "internal error" not in done.stderr


def test_writing_to_a_closed_stdout_reports_like_bash(term_env: dict[str, str]) -> None:
    ours = subprocess.run(["bash", "-c", f"{SWEBASH} -c 'echo hi' >&-"], env=term_env,
                          capture_output=True, text=True, timeout=20)
    theirs = subprocess.run(["bash", "-c", "bash -c 'echo hi' >&-"], env=term_env,
                            capture_output=True, text=True, timeout=20)
    assert ours.returncode == theirs.returncode == 1
    assert "write error" in ours.stderr
