"""The installed swebash (``-c``) meets a misbehaving provider: one line on stderr, exit 1, no
traceback — for a wrong-typed delta, an endless answer, huge or deep tool arguments, a server
that is down and an HTML page."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.fakes.server import FakeServer

SWEBASH = str(Path(sys.executable).parent / "swebash")
DELTA_123 = {"id": "x", "object": "chat.completion.chunk", "created": 1, "model": "m",
             "choices": [{"index": 0, "delta": {"content": 123}, "finish_reason": None}]}


@pytest.fixture
def server() -> Iterator[FakeServer]:
    fake = FakeServer().start()
    yield fake
    fake.stop()


def ask(base_url: str, cwd: Path, question: str = "? hi") -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("SWEBASH", "OPENAI"))}
    env.update({"OPENAI_API_KEY": "sk-test-not-a-real-key-000000", "SWEBASH_AI_PROVIDER": "openai",
                "OPENAI_BASE_URL": base_url, "SWEBASH_AI_MAX_RETRIES": "3"})
    return subprocess.run([SWEBASH, "-c", question], capture_output=True, text=True, env=env,
                          cwd=cwd, timeout=120, check=False)


def one_error_line(result: subprocess.CompletedProcess[str]) -> str:
    assert result.returncode == 1, result.stderr
    assert "Traceback" not in result.stderr and "internal error" not in result.stderr
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    return lines[0]


def test_a_number_as_delta_content_is_a_malformed_event(server: FakeServer,
                                                        tmp_path: Path) -> None:
    server.script({"events": [DELTA_123]})
    line = one_error_line(ask(server.url + "/v1", tmp_path))
    assert "openai: the provider sent a malformed event: delta.content is a number" in line
    assert len(server.requests) == 1


def test_an_endless_answer_stops_at_the_cap(server: FakeServer, tmp_path: Path) -> None:
    server.script({"endless": "All work and no play makes Jack a dull boy. "})
    result = ask(server.url + "/v1", tmp_path)
    assert "the answer passed 1 MB, the cap on one answer" in one_error_line(result)
    assert 990_000 < len(result.stdout) <= 1_000_001  # what was shown stays shown


def test_huge_tool_arguments_stop_at_the_cap(server: FakeServer, tmp_path: Path) -> None:
    server.script({"tools": [["write_file", {"fill": 3_000_000}]], "arg_chunks": 30})
    line = one_error_line(ask(server.url + "/v1", tmp_path))
    assert "the tool-call arguments passed 1 MB" in line
    assert not (tmp_path / "big.txt").exists()


def test_deep_tool_arguments_are_a_tool_error_the_model_sees(server: FakeServer,
                                                             tmp_path: Path) -> None:
    server.script({"tools": [["execute_command", {"depth": 100_000}]]}, {"text": "sorry"})
    result = ask(server.url + "/v1", tmp_path)
    assert result.returncode == 0 and result.stdout == "sorry\n"
    assert "nested deeper than 100 levels" in result.stderr
    assert "nested deeper than 100 levels" in str(server.requests[-1].body["messages"])


def test_a_server_that_is_down_is_named_at_once(tmp_path: Path) -> None:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    url = f"http://127.0.0.1:{port}/v1"
    line = one_error_line(ask(url, tmp_path))
    assert f"connection refused by {url} — is the server running? check OPENAI_BASE_URL" in line
    assert "retrying" not in line


def test_an_invalid_port_is_one_line(tmp_path: Path) -> None:
    line = one_error_line(ask("http://127.0.0.1:99999/v1", tmp_path))
    assert "invalid endpoint URL 'http://127.0.0.1:99999/v1'" in line and "TaskGroup" not in line


def test_an_html_page_is_named(server: FakeServer, tmp_path: Path) -> None:
    server.script({"body": "<html><body>login required</body></html>",
                   "content_type": "text/html"})
    line = one_error_line(ask(server.url + "/v1", tmp_path))
    assert "replied with text/html, not an event stream — is the base URL right?" in line
