"""Fault injection as a reliability tester would do it: a fresh HOME each time, the installed
swebash in a real pty (or -c), and the fault from outside — an unusable state directory, a
history path that is a directory, one bad config value, hostile model output, malformed
events. Each ends in a working shell and at most one clear line, never a traceback."""

from __future__ import annotations

import json
import os
import re
import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.e2e.conftest import SWEBASH, Term
from tests.fakes.server import FakeServer

Spawn = Callable[..., Term]
TRACEBACK = re.compile(r"Traceback|internal error|Press ENTER")


def works(term: Term) -> None:
    """The shell runs commands, keeps state, and showed no traceback."""
    term.run("cd / && export FAULT_PROBE=kept")
    term.run("echo \"$PWD:$FAULT_PROBE\"")
    assert "/:kept" in term.text()
    assert not TRACEBACK.search(term.text()), term.text()


def test_state_home_that_is_a_file(spawn: Spawn, hermetic_env: Path) -> None:
    state = hermetic_env / "state-is-a-file"
    state.write_text("")
    term = spawn(env={"XDG_STATE_HOME": str(state)})
    term.wait_prompt()
    works(term)
    assert term.text().count("not saved") == 1


def test_state_dir_with_a_read_only_parent(spawn: Spawn, hermetic_env: Path) -> None:
    if os.geteuid() == 0:
        pytest.skip("root writes through read-only modes")
    parent = hermetic_env / "ro"
    parent.mkdir()
    parent.chmod(0o500)
    try:
        term = spawn(env={"XDG_STATE_HOME": str(parent)})
        term.wait_prompt()
        works(term)
    finally:
        parent.chmod(0o700)


def test_history_path_that_is_a_directory(spawn: Spawn, hermetic_env: Path) -> None:
    (hermetic_env / ".local/state/swebash/history").mkdir(parents=True)
    term = spawn()
    term.wait_prompt()
    works(term)
    term.send("\x1b[A")  # ↑ must not crash either
    term.wait_for(lambda t: "echo" in t.cursor_line(), 10, "history recall")
    assert not TRACEBACK.search(term.text())


def test_one_bad_config_value_leaves_the_ai_settings_working(
        hermetic_env: Path, server: FakeServer, ai_env: dict[str, str],
        term_env: dict[str, str]) -> None:
    config = hermetic_env / ".config/swebash/config.toml"
    config.parent.mkdir(parents=True, exist_ok=True)
    config.write_text('[prompt]\nshow_git = "sometimes"\n')
    server.script({"text": "configured fine"})
    done = subprocess.run([SWEBASH, "-c", "? are you there"], env={**term_env, **ai_env},
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert "configured fine" in done.stdout
    (warning,) = [line for line in done.stderr.splitlines() if "show_git" in line]
    assert "[prompt] show_git" in warning


HOSTILE = ("Look: \x1b]52;c;ZWNobyBwd25lZA==\x07 clip, \x1b]8;;http://evil/\x1b\\link\x1b]8;;"
           "\x1b\\ and \x1b[8mhidden\x1b[0m then \x1b[2J\x1b[H clear, \x1bP+q\x1b\\ dcs. Done.")


def test_escape_sequences_from_the_model_never_reach_the_terminal(
        spawn: Spawn, server: FakeServer, ai_env: dict[str, str]) -> None:
    server.script({"text": HOSTILE, "chunks": 7})
    term = spawn(env=ai_env)
    term.wait_prompt()
    before = len(term.raw)
    term.send("? say something\r")
    term.wait_text("Done.", 30)
    term.wait_prompt()
    written = term.raw[before:]
    for sequence in (b"\x1b]52", b"\x1b]8;", b"\x1b[8m", b"\x1b[2J", b"\x1bP"):
        assert sequence not in written, sequence
    assert "Look:" in term.text()


def test_hostile_tool_names_are_inert_in_ai_stats(spawn: Spawn, server: FakeServer,
                                                  ai_env: dict[str, str]) -> None:
    server.script({"tools": [["evil\x1b]52;c;eA==\x07\x1b[2Jname", "{}"]]}, {"text": "ok."})
    term = spawn(env=ai_env)
    term.wait_prompt()
    term.send("? go\r")
    term.wait_text("ok.", 30)
    term.wait_prompt()
    before = len(term.raw)
    term.run("ai stats")
    written = term.raw[before:]
    assert b"\x1b]52" not in written and b"\x1b[2J" not in written


@pytest.mark.parametrize("event", [
    {"choices": [{"index": 0, "delta": {"content": 123}}]},
    {"choices": [{"index": 0, "delta": {"tool_calls": "nope"}}]},
    {"choices": "nope"},
])
def test_wrong_json_types_from_the_provider_are_one_clear_line(
        server: FakeServer, ai_env: dict[str, str], term_env: dict[str, str],
        event: dict[str, object]) -> None:
    server.script({"events": [event, "data: [DONE]\n\n"]})
    done = subprocess.run([SWEBASH, "-c", "? hi"], env={**term_env, **ai_env},
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 1
    lines = [line for line in done.stderr.splitlines() if line.strip()]
    assert len(lines) == 1 and "malformed" in lines[0], done.stderr
    assert not TRACEBACK.search(done.stderr)


def test_deeply_nested_tool_arguments_become_an_error_the_model_sees(
        server: FakeServer, ai_env: dict[str, str], term_env: dict[str, str]) -> None:
    deep = "[" * 100_000 + "]" * 100_000
    server.script({"tools": [["execute_command", json.dumps({"command": "ls"})[:-1]
                              + ', "x": ' + deep + "}"]]}, {"text": "recovered"})
    done = subprocess.run([SWEBASH, "-c", "? hi"], env={**term_env, **ai_env},
                          capture_output=True, text=True, timeout=60)
    assert "recovered" in done.stdout, done.stderr
    assert not TRACEBACK.search(done.stderr)
    second = server.requests[1].body
    assert "nested" in json.dumps(second)


@pytest.mark.parametrize("url,needle", [
    ("http://127.0.0.1:99999/v1", "99999"),
    ("ftp://127.0.0.1/v1", "ftp"),
])
def test_invalid_endpoints_fail_at_once_in_one_line(term_env: dict[str, str], url: str,
                                                    needle: str) -> None:
    env = {**term_env, "OPENAI_API_KEY": "sk-test-not-a-real-key-000000",
           "SWEBASH_AI_PROVIDER": "openai", "OPENAI_BASE_URL": url}
    done = subprocess.run([SWEBASH, "-c", "? hi"], env=env, capture_output=True, text=True,
                          timeout=60)
    assert done.returncode != 0
    assert needle in done.stderr and "retrying" not in done.stderr.lower()
    assert not TRACEBACK.search(done.stderr) and "TaskGroup" not in done.stderr
