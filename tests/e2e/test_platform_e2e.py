"""The installed swebash with MCP servers, AGENTS.md and stored conversations, end to end: the
local OpenAI-protocol server through the real SDK, a real MCP server over stdio, `-c`, piped
input and a pty; a `kill -9` in the middle of an answer."""

from __future__ import annotations

import json
import os
import signal
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.e2e.conftest import Term
from tests.e2e.test_ai_e2e import run_swebash
from tests.fakes.server import FakeServer

Spawn = Callable[..., Term]
ROOT = str(Path(__file__).resolve().parents[2])


def configure_mcp(home: Path, pidfile: Path, trust: bool = True, extra: str = "") -> None:
    config = home / ".config" / "swebash"
    config.mkdir(parents=True, exist_ok=True)
    # the server works next to its pidfile: an untrusted one runs in the sandbox, which lets it
    # write only in its working tree
    (config / "config.toml").write_text(
        "[mcp_servers.srv]\n"
        f"command = {json.dumps(sys.executable)}\n"
        f'args = ["-m", "tests.fakes.mcp_server", "--pidfile", {json.dumps(str(pidfile))}]\n'
        f"cwd = {json.dumps(str(pidfile.parent))}\n"
        f"env = {{ PYTHONPATH = {json.dumps(ROOT)} }}\n"
        f"trust = {'true' if trust else 'false'}\n" + extra)


def gone(pidfile: Path) -> bool:
    """No server process is left: none has the pidfile on its command line (an untrusted server
    runs in the sandbox's own pid namespace, where the pid it wrote means nothing here)."""
    assert pidfile.exists()  # the server did start
    marker = str(pidfile).encode()
    for entry in os.listdir("/proc"):
        try:
            with open(f"/proc/{entry}/cmdline", "rb") as handle:
                if entry.isdigit() and marker in handle.read():
                    return False
        except OSError:
            continue
    return True


def messages(server: FakeServer, n: int) -> str:
    return json.dumps(server.requests[n].body["messages"])


def test_model_calls_an_mcp_tool_and_gets_its_answer(server: FakeServer, ai_env: dict[str, str],
                                                     hermetic_env: Path, tmp_path: Path) -> None:
    pidfile = tmp_path / "mcp.pid"
    configure_mcp(hermetic_env, pidfile)
    server.script({"tools": [["mcp__srv__echo", '{"text": "ping"}']]},
                  {"text": "The server answered."})
    result = run_swebash(["-c", "? ask the server"], ai_env, cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert "The server answered." in result.stdout
    offered = [t["function"]["name"] for t in server.requests[0].body["tools"]]
    assert "mcp__srv__echo" in offered
    assert "echo: ping" in messages(server, 1)
    assert gone(pidfile)  # the server process ended with swebash
    log = hermetic_env / ".local" / "state" / "swebash" / "logs" / "mcp-srv.log"
    assert "fake mcp server starting" in log.read_text()  # stderr went to the log
    assert "fake mcp server starting" not in result.stderr


def test_ai_builtins_from_c_and_piped_input(ai_env: dict[str, str], hermetic_env: Path,
                                            tmp_path: Path) -> None:
    pidfile = tmp_path / "mcp.pid"
    configure_mcp(hermetic_env, pidfile)
    result = run_swebash(["-c", "ai mcp"], ai_env, cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert "srv  ready, 7 tools, trusted" in result.stdout
    assert "mcp__srv__echo  Repeat the text back." in result.stdout
    assert "\x1b" not in result.stdout and gone(pidfile)
    piped = run_swebash([], ai_env, stdin="echo before\nai status\nai sessions\necho after\n",
                        cwd=tmp_path)
    assert piped.returncode == 0, piped.stderr
    out = piped.stdout
    assert out.index("before") < out.index("provider:  openai") < out.index("after")
    assert "MCP srv: not started yet" in out and "no stored conversations yet" in out


def test_agents_md_at_the_git_root_is_seen_from_a_subdirectory(
        server: FakeServer, ai_env: dict[str, str], tmp_path: Path) -> None:
    repo = tmp_path / "repo"
    (repo / ".git").mkdir(parents=True)
    (repo / "src" / "deep").mkdir(parents=True)
    (repo / "AGENTS.md").write_text("Always answer in haiku.\n")
    server.script({"text": "ok"})
    result = run_swebash(["-c", "? hello"], ai_env, cwd=repo / "src" / "deep")
    assert result.returncode == 0, result.stderr
    system = server.requests[0].body["messages"][0]
    assert system["role"] in ("system", "developer")
    assert "Always answer in haiku." in json.dumps(system)
    context = run_swebash(["-c", "ai context"], ai_env, cwd=repo / "src" / "deep").stdout
    assert f"{repo / 'AGENTS.md'}" in context and "SOME TEXT WAS CUT" not in context


def test_continue_brings_back_the_last_conversation_of_this_directory(
        server: FakeServer, ai_env: dict[str, str], tmp_path: Path) -> None:
    server.script({"text": "Remembered: the code word is BLUEBIRD."}, {"text": "continued"},
                  {"text": "fresh"})
    first = run_swebash(["-c", "? the code word is BLUEBIRD"], ai_env, cwd=tmp_path)
    assert first.returncode == 0, first.stderr
    cont = run_swebash(["--continue", "-c", "? what was the code word"], ai_env, cwd=tmp_path)
    assert cont.returncode == 0, cont.stderr
    assert "Remembered: the code word is BLUEBIRD." in messages(server, 1)
    plain = run_swebash(["-c", "? what was the code word"], ai_env, cwd=tmp_path)
    assert plain.returncode == 0 and "BLUEBIRD" not in messages(server, 2)
    other = tmp_path / "elsewhere"
    other.mkdir()
    none = run_swebash(["--continue", "-c", "? anything"], ai_env, cwd=other)
    assert f"no earlier conversation in {other} to continue" in none.stderr
    assert none.stderr.count("\n") <= 2
    listing = run_swebash(["-c", "ai sessions"], ai_env, cwd=tmp_path).stdout
    assert "the code word is BLUEBIRD" in listing and str(tmp_path) in listing


def test_a_conversation_survives_kill_9_mid_answer(spawn: Spawn, server: FakeServer,
                                                   ai_env: dict[str, str],
                                                   tmp_path: Path) -> None:
    server.script({"text": "Noted: PELICAN."},
                  {"text": "word " * 400, "chunks": 400, "delay": 0.05},
                  {"text": "back"})
    term = spawn(env=ai_env, cwd=str(tmp_path))
    term.run("? remember PELICAN")
    term.wait_text("Noted: PELICAN.")
    term.send("? tell me a long story\r")
    term.wait_text("word word word")
    os.kill(term.child.pid, signal.SIGKILL)
    term.child.wait()
    cont = run_swebash(["--continue", "-c", "? what did I ask you to remember"], ai_env,
                       cwd=tmp_path)
    assert cont.returncode == 0, cont.stderr
    sent = messages(server, 2)
    assert "remember PELICAN" in sent and "Noted: PELICAN." in sent
    assert "word word" not in sent  # only the answer being streamed was lost


def test_interactive_mcp_server_stops_when_the_shell_exits(spawn: Spawn, server: FakeServer,
                                                          ai_env: dict[str, str],
                                                          hermetic_env: Path,
                                                          tmp_path: Path) -> None:
    pidfile = tmp_path / "mcp.pid"
    configure_mcp(hermetic_env, pidfile, trust=False,
                  extra='[mcp_servers.bad]\ncommand = "/nonexistent/mcp-server"\n')
    server.script({"tools": [["mcp__srv__echo", '{"text": "x"}']]}, {"text": "Declined, fine."})
    term = spawn(env=ai_env, cwd=str(tmp_path))
    term.wait_prompt()
    term.send("? use the server\r")
    term.wait_text("MCP srv · echo")  # every call of an untrusted server asks
    term.wait_text("[y/N")
    rows = term.text().splitlines()  # the failing server: one line of its own, above the rest
    assert any(row.startswith("swebash: MCP server 'bad' unavailable: command not found")
               for row in rows)
    term.send("n")
    term.wait_text("Declined, fine.")
    term.run("ai mcp")
    assert "srv  ready, 7 tools" in term.text()
    assert not gone(pidfile)
    term.send("exit\r")
    assert term.exit_status() == 0
    assert gone(pidfile)


def test_sigterm_during_a_c_answer_stops_the_mcp_server(server: FakeServer,
                                                        ai_env: dict[str, str],
                                                        hermetic_env: Path,
                                                        tmp_path: Path) -> None:
    import subprocess
    import time

    from tests.e2e.conftest import SWEBASH

    pidfile = tmp_path / "mcp.pid"
    configure_mcp(hermetic_env, pidfile)
    server.script({"text": "slow " * 200, "chunks": 200, "delay": 0.05})
    env = {k: v for k, v in os.environ.items() if not k.startswith(("SWEBASH", "OPENAI"))}
    proc = subprocess.Popen([SWEBASH, "-c", "? take your time"], env={**env, **ai_env},
                            cwd=tmp_path, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        deadline = time.monotonic() + 30
        while not server.requests and time.monotonic() < deadline:
            time.sleep(0.02)
        assert server.requests and not gone(pidfile)
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(30) == 128 + signal.SIGTERM
        assert gone(pidfile)
        assert b"Traceback" not in proc.stderr.read()  # type: ignore[union-attr]
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()


@pytest.mark.parametrize("sig", [signal.SIGHUP, signal.SIGTERM])
def test_the_shell_killed_by_a_signal_stops_its_mcp_servers(spawn: Spawn, server: FakeServer,
                                                            ai_env: dict[str, str],
                                                            hermetic_env: Path, tmp_path: Path,
                                                            sig: signal.Signals) -> None:
    pidfile = tmp_path / "mcp.pid"
    configure_mcp(hermetic_env, pidfile)
    term = spawn(env=ai_env, cwd=str(tmp_path))
    term.run("ai mcp")
    assert "srv  ready" in term.text() and not gone(pidfile)
    os.kill(term.child.pid, sig)
    term.exit_status()
    assert gone(pidfile)
