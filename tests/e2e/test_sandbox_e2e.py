"""The sandbox end to end: the installed swebash, the model (the local OpenAI-protocol server)
asking for a script the classifier cannot see into, approved with ``--yes-dangerous``.

The script is harmless: it cats canary "secrets" in the temp HOME, touches a canary path outside
the working tree and connects to our own listener on 127.0.0.1. The sandbox must stop all three
(``--yes-dangerous`` never lifts it) and ``SWEBASH_AI_SANDBOX=off`` must lift all three.
"""

from __future__ import annotations

import json
import os
import secrets
import signal
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.e2e.conftest import SWEBASH, Term
from tests.fakes.server import FakeServer
from tests.safety.sandbox_fixtures import (
    CANARY,
    Listener,
    WebServer,
    World,
    available,
    make_world,
    processes_with,
    wait_for_waiter,
    wait_gone,
    waiters,
)


@pytest.fixture
def tcp() -> Iterator[Listener]:
    listener = Listener()
    yield listener
    listener.close()


@pytest.fixture
def world(tmp_path: Path) -> World:
    if available("bwrap") is not None and available("landlock") is not None:
        pytest.skip("no sandbox backend works on this machine")
    return make_world(tmp_path)


def ai_env(server: FakeServer, **extra: str) -> dict[str, str]:
    return {"OPENAI_API_KEY": "sk-test-not-a-real-key-000000", "SWEBASH_AI_PROVIDER": "openai",
            "OPENAI_BASE_URL": server.url + "/v1", "SWEBASH_AI_MAX_RETRIES": "0", **extra}


def run_swebash(args: list[str], env: dict[str, str], cwd: Path
                ) -> subprocess.CompletedProcess[str]:
    full = {k: v for k, v in os.environ.items() if not k.startswith(("SWEBASH", "OPENAI"))}
    full.update(env)
    return subprocess.run([SWEBASH, *args], capture_output=True, text=True, env=full, cwd=cwd,
                          timeout=60, check=False)


def probe_script(world: World, port: int) -> None:
    (world.work / "probe.sh").write_text(
        "touch made-here && ls made-here\n"
        "cat \"$HOME/.ssh/id_ed25519\" \"$HOME/.aws/credentials\"\n"
        f"python3 -c \"print(open('{world.home}/.aws/credentials').read())\"\n"
        "python3 -c \"import socket; socket.create_connection(('127.0.0.1', "
        f"{port}), timeout=3); print('connected')\"\n"
        f"touch {world.outside}/written-by-ai\n")  # last, so its failure is the exit status


def tool_result(server: FakeServer) -> str:
    return json.dumps(server.requests[-1].body["messages"][-1])


def test_yes_dangerous_cannot_read_secrets_write_outside_or_connect(
        server: FakeServer, world: World, tcp: Listener) -> None:
    probe_script(world, tcp.port)
    server.script({"tools": [["execute_command", json.dumps({"command": "sh probe.sh"})]]},
                  {"text": "done"})
    result = run_swebash(["--yes-dangerous", "-c", "? run the probe"], ai_env(server),
                         world.work)
    assert result.returncode == 0, result.stderr
    sent = tool_result(server)
    assert CANARY not in sent
    assert not (world.outside / "written-by-ai").exists()
    assert tcp.accepted == 0 and "connected" not in sent
    assert (world.work / "made-here").exists() and "made-here" in sent  # the tree works
    # non-interactive: the model is told the sandbox stopped it, nobody is asked, no rerun
    assert "sandbox" in sent and "not run again" in sent
    report = next(x for x in result.stderr.splitlines() if x.startswith("[sandbox] blocked"))
    assert "a write outside the working tree" in report and "network access" in report
    assert str(world.outside.resolve()) in report  # what the sandbox saw, not what was printed


def test_sandbox_off_lifts_all_of_it(server: FakeServer, world: World, tcp: Listener) -> None:
    probe_script(world, tcp.port)
    server.script({"tools": [["execute_command", json.dumps({"command": "sh probe.sh"})]]},
                  {"text": "done"})
    result = run_swebash(["--yes-dangerous", "-c", "? run the probe"],
                         ai_env(server, SWEBASH_AI_SANDBOX="off"), world.work)
    assert result.returncode == 0, result.stderr
    sent = tool_result(server)
    assert CANARY in sent and "connected" in sent
    assert (world.outside / "written-by-ai").exists() and tcp.accepted == 1


def test_ai_status_from_c_names_the_sandbox(world: World) -> None:
    result = run_swebash(["-c", "ai status"], {}, world.work)
    assert result.returncode == 0, result.stderr
    # the line may be wrapped to the terminal's width: read it back as one
    line = " ".join(result.stdout[result.stdout.index("sandbox:"):].split())
    assert ("bubblewrap" in line or "landlock" in line)
    assert "network: through swebash's proxy" in line and "no capabilities" in line
    assert str(world.work.resolve()) in line
    off = run_swebash(["-c", "ai status"], {"SWEBASH_AI_SANDBOX": "off"}, world.work)
    assert "sandbox: off" in " ".join(off.stdout.split())


def test_interactive_user_is_asked_once_to_rerun_outside(
        spawn: object, server: FakeServer, world: World) -> None:
    target = world.outside / "approved-outside"
    (world.work / "write.sh").write_text(f"touch {target}\n")
    server.script({"tools": [["execute_command", json.dumps({"command": "sh write.sh"})]]},
                  {"text": "Written."})
    assert callable(spawn)
    term: Term = spawn(env=ai_env(server), cwd=str(world.work))
    term.wait_prompt()
    term.send("? write it\r")
    term.wait_for(lambda t: "run sh write.sh" in t.text() or "Run" in t.text()
                  or "[y/N" in t.text(), what="the first question")
    if "outside it" not in term.text():  # the gate asks first (a script runs code)
        term.send("y")
        term.wait_for(lambda t: "outside it" in t.text(), what="the sandbox question")
    screen = term.text()
    assert "the sandbox blocked a write outside the working tree" in screen
    term.send("y")
    term.wait_for(lambda t: "Written." in t.text(), what="the answer")
    assert target.exists()
    assert "outside the sandbox" in tool_result(server)


def test_a_new_domain_is_asked_in_the_terminal_and_a_saves_it(
        spawn: object, server: FakeServer, world: World) -> None:
    web = WebServer({"/": CANARY.encode()})
    command = f"curl -sSf http://ask.localhost:{web.port}/"
    server.script({"tools": [["execute_command", json.dumps({"command": command})]]},
                  {"text": "Fetched."})
    try:
        assert callable(spawn)
        term: Term = spawn(env=ai_env(server, SWEBASH_AI_TOOLS_CONFIRM="false"),
                           cwd=str(world.work))
        term.wait_prompt()
        term.send("? fetch it\r")
        # the gate asks first: a loopback name reaches this machine's own services
        term.wait_for(lambda t: "DANGEROUS" in t.text(), what="the gate's question")
        term.send("y")
        term.wait_for(lambda t: "reach ask.localhost?" in t.text(), what="the domain question")
        assert "[y/N/a]" in term.text() and "curl -sSf" in term.text()
        term.send("a")
        term.wait_for(lambda t: "Fetched." in t.text(), what="the answer")
    finally:
        web.close()
    assert CANARY in tool_result(server) and web.hits == ["/"]
    saved = Path(os.environ["XDG_STATE_HOME"]) / "swebash/sandbox-domains.json"
    assert json.loads(saved.read_text())["projects"] == {
        str(world.work.resolve()): ["ask.localhost"]}


# ---------------------------------------------------------------------------- no orphans


@pytest.mark.parametrize("backend", ["bwrap", "landlock", "off"])
def test_kill_9_of_swebash_ends_its_tool_command_and_the_next_start_cleans_up(
        spawn: object, server: FakeServer, tmp_path: Path, backend: str) -> None:
    if available(backend) is not None:
        pytest.skip(f"{backend} does not work here")
    seconds = f"{900 + secrets.randbelow(90)}.{secrets.randbelow(10**6):06d}"  # harmless
    server.script({"tools": [["execute_command", json.dumps(
        {"command": f"sleep {seconds} & sleep {seconds}"})]]}, {"text": "done"})
    tmpdir = Path(os.environ["TMPDIR"])
    env = ai_env(server, SWEBASH_AI_TOOLS_CONFIRM="false", SWEBASH_AI_SANDBOX=backend)
    assert callable(spawn)
    term: Term = spawn(env=env, cwd=str(tmp_path))
    term.wait_prompt()
    term.send("? wait a while\r")
    term.wait_for(lambda t: len(processes_with(seconds)) >= 2, 20, "the tool to run")
    victim = term.child.pid
    mine = [p for p in tmpdir.iterdir() if f".{victim}." in p.name]
    assert mine  # the shell's and the sandbox's private dirs
    os.kill(victim, signal.SIGKILL)
    assert wait_gone(seconds) == []  # the command and its background child: gone
    assert all(p.exists() for p in mine)  # SIGKILL ran no cleanup
    again: Term = spawn(env=env, cwd=str(tmp_path))
    again.wait_prompt()
    assert not any(p.exists() for p in mine)  # the next start removed them


@pytest.mark.parametrize("end", ["exit", "kill -9"])
def test_the_sandbox_prepared_for_the_next_command_ends_with_swebash(
        spawn: object, server: FakeServer, tmp_path: Path, end: str) -> None:
    """After a command, bubblewrap builds the next one's sandbox and it waits; it is swebash's
    like its commands: gone when swebash exits or is killed."""
    if available("bwrap") is not None:
        pytest.skip("bubblewrap does not work here")
    server.script({"tools": [["execute_command", json.dumps({"command": "echo ran-here"})]]},
                  {"text": "Done."})
    env = ai_env(server, SWEBASH_AI_TOOLS_CONFIRM="false", SWEBASH_AI_SANDBOX="bwrap")
    assert callable(spawn)
    term: Term = spawn(env=env, cwd=str(tmp_path))
    term.wait_prompt()
    term.send("? run it\r")
    term.wait_for(lambda t: "Done." in t.text(), what="the answer")
    assert "ran-here" in tool_result(server)
    wait_for_waiter(tmp_path)  # built for the next command, in the same place
    if end == "exit":
        term.send("exit\r")
        assert term.exit_status() == 0
    else:
        os.kill(term.child.pid, signal.SIGKILL)
    deadline = time.monotonic() + 10
    while waiters(tmp_path) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert waiters(tmp_path) == []


# ---------------------------------------------------------------------------- the network


def test_allowed_domains_from_config_and_one_line_for_a_refused_one(
        server: FakeServer, world: World) -> None:
    web = WebServer({"/": CANARY.encode()})
    config = Path(os.environ["XDG_CONFIG_HOME"]) / "swebash"
    config.mkdir(parents=True, exist_ok=True)
    (config / "config.toml").write_text('[sandbox]\nallow_domains = ["allowed.localhost"]\n')
    command = (f"curl -sSf http://allowed.localhost:{web.port}/ && "
               f"curl -sSf http://refused.localhost:{web.port}/")
    server.script({"tools": [["execute_command", json.dumps({"command": command})]]},
                  {"text": "done"})
    try:
        # --yes-dangerous: the gate lets a loopback name through, the proxy still judges it
        result = run_swebash(["--yes-dangerous", "-c", "? fetch both"], ai_env(server),
                             world.work)
    finally:
        web.close()
    assert result.returncode == 0, result.stderr
    sent = tool_result(server)
    assert CANARY in sent and web.hits == ["/"]  # the allowed one only
    lines = [x for x in result.stderr.splitlines() if x.startswith("[sandbox] blocked")]
    assert len(lines) == 1 and "network access to refused.localhost" in lines[0]
