"""The sandbox end to end: the installed swebash, the model (the local OpenAI-protocol server)
asking for a script the classifier cannot see into, approved with ``--yes-dangerous``.

The script is harmless: it cats canary "secrets" in the temp HOME, touches a canary path outside
the working tree and connects to our own listener on 127.0.0.1. The sandbox must stop all three
(``--yes-dangerous`` never lifts it) and ``SWEBASH_AI_SANDBOX=off`` must lift all three.
"""

from __future__ import annotations

import json
import os
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.e2e.conftest import SWEBASH, Term
from tests.fakes.server import FakeServer
from tests.safety.sandbox_fixtures import CANARY, Listener, World, available, make_world


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
    assert ("bubblewrap" in line or "landlock" in line) and "network: off" in line
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
