"""The OS sandbox with real sandboxed processes, for each backend this machine supports.

Payloads are harmless (cat/touch/echo/ls, a connect to our own 127.0.0.1 listener) and aim at
canary files in the test's temp dir; HOME is a temp dir, so the "secrets" are canaries.
"""

from __future__ import annotations

import os
import signal
import socket
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from swebash.safety.sandbox import secret_name, work_root
from tests.safety.sandbox_fixtures import (
    CANARY,
    Listener,
    WebServer,
    World,
    available,
    connect_command,
    listener,
    make_sandbox,
    processes_with,
    run,
    wait_gone,
)


@pytest.fixture
def tcp() -> Iterator[Listener]:
    yield from listener()


def test_secrets_in_home_cannot_be_read(world: World, backend: str) -> None:
    ssh = world.home / ".ssh/id_ed25519"
    aws = world.home / ".aws/credentials"
    result = run(f"cat {ssh}; cat ~/.aws/credentials; cat \"$HOME/.netrc\"; "
                 f"python3 -c \"print(open('{aws}').read())\"; "
                 f"python3 -c \"print(open('{ssh}').read())\"; "
                 "cat ~/.ssh/*; cat ~/.bash_history; echo done",
                 world, make_sandbox(world, backend))
    assert CANARY not in result["stdout"] + result["stderr"]
    assert result["stdout"].rstrip().endswith("done")
    # what is not secret stays readable: the public key next to the private one (bwrap hides
    # the whole directory, Landlock only its files' contents — both keep the canary away)
    assert ssh.read_text().startswith(CANARY)  # and nothing changed on the host


def test_a_symlink_to_a_secret_does_not_open_it(world: World, backend: str) -> None:
    (world.outside / "keys").symlink_to(world.home / ".ssh")
    (world.work / "creds").symlink_to(world.home / ".aws/credentials")
    result = run(f"cat {world.outside}/keys/id_ed25519; cat creds; echo done", world,
                 make_sandbox(world, backend))
    assert CANARY not in result["stdout"] and result["stdout"].strip() == "done"


def test_working_in_home_itself_keeps_its_secrets(world: World, backend: str) -> None:
    (world.home / "notes").mkdir()
    result = run("cat .ssh/id_ed25519 .aws/credentials .netrc; cat ~/.ssh/*; "
                 "touch notes/todo.txt && echo wrote", world, make_sandbox(world, backend),
                 cwd=world.home)
    assert CANARY not in result["stdout"]
    assert "wrote" in result["stdout"] and (world.home / "notes/todo.txt").exists()


def test_python_cannot_read_secrets_either(world: World, backend: str) -> None:
    target = world.home / ".aws/credentials"
    result = run(f"python3 -c \"import sys; sys.stdout.write(open('{target}').read())\"",
                 world, make_sandbox(world, backend))
    assert result["exit_code"] != 0
    assert CANARY not in result["stdout"]


def test_writes_outside_the_working_tree_fail(world: World, backend: str) -> None:
    canary = world.outside / "canary.txt"
    result = run(f"touch {world.outside}/new.txt; echo overwritten > {canary}; "
                 f"rm -f {canary}; mkdir {world.outside}/dir; touch ~/in-home.txt",
                 world, make_sandbox(world, backend))
    assert result["exit_code"] != 0
    assert canary.read_text() == f"{CANARY} outside\n"
    assert sorted(p.name for p in world.outside.iterdir()) == ["canary.txt"]
    assert not (world.home / "in-home.txt").exists()
    blocked = result["blocked"] or ""
    assert "write outside" in blocked or "protected" in blocked


def test_the_working_tree_and_the_private_tmp_work(world: World, backend: str) -> None:
    result = run("touch new.txt && echo hi > out.txt && cat app.py && ls && "
                 "mkdir -p ../build/x && mv new.txt ../build/x/ && t=$(mktemp) && "
                 "echo tmp > \"$t\" && cat \"$t\" && echo \"$TMPDIR\"", world,
                 make_sandbox(world, backend), cwd=world.work / "src")
    assert result["exit_code"] == 0, result
    lines = result["stdout"].splitlines()
    assert "print('hello')" in lines and "app.py" in lines and "tmp" in lines
    assert (world.work / "build/x/new.txt").exists()
    assert (world.work / "src/out.txt").read_text() == "hi\n"
    private = lines[-1]
    assert os.path.basename(private).startswith("swebash-sandbox-")
    assert result["blocked"] is None


def test_writes_reach_the_git_root_from_a_subdirectory(world: World, backend: str) -> None:
    assert work_root(str(world.work / "src")) == str(world.work.resolve())
    result = run("touch ../top.txt", world, make_sandbox(world, backend),
                 cwd=world.work / "src")
    assert result["exit_code"] == 0 and (world.work / "top.txt").exists()


def test_git_stays_read_only_as_a_whole(world: World) -> None:
    if available("bwrap") is not None:
        pytest.skip("bubblewrap does not work here (Landlock cannot protect it, see README)")
    result = run("echo evil > .git/hooks/pre-commit; echo '[x]' >> .git/config; "
                 "touch .git/other; touch src/new && echo ok", world,
                 make_sandbox(world, "bwrap"))
    assert not (world.work / ".git/hooks/pre-commit").exists()
    assert (world.work / ".git/config").read_text() == "[core]\n"
    assert not (world.work / ".git/other").exists()
    assert result["stdout"].strip() == "ok"  # the rest of the tree stays writable


def test_secret_files_inside_the_working_tree_are_hidden(world: World) -> None:
    if available("bwrap") is not None:
        pytest.skip("bubblewrap does not work here (Landlock cannot hide them, see README)")
    result = run("cat .env; cat src/app.py", world, make_sandbox(world, "bwrap"))
    assert CANARY not in result["stdout"]
    assert "print('hello')" in result["stdout"]


def test_network_is_off_by_default(world: World, backend: str, tcp: Listener) -> None:
    result = run(connect_command(tcp.port), world, make_sandbox(world, backend))
    assert result["exit_code"] != 0
    assert "connected" not in result["stdout"]
    assert tcp.accepted == 0
    assert result["blocked"] is not None and "network access" in result["blocked"]


def test_agent_and_container_sockets_are_unreachable(world: World, backend: str,
                                                      tmp_path: Path) -> None:
    servers = []
    for name, var, prefix in (("agent.sock", "SSH_AUTH_SOCK", ""),
                              ("docker.sock", "DOCKER_HOST", "unix://")):
        server = socket.socket(socket.AF_UNIX)
        server.bind(str(tmp_path / name))
        server.listen(1)
        servers.append(server)
        world.env[var] = prefix + str(tmp_path / name)
    try:
        result = run("for s in agent.sock docker.sock; do python3 -c \"import socket, sys; "
                     "socket.socket(socket.AF_UNIX).connect(sys.argv[1]); print('reached')\" "
                     f"{tmp_path}/$s; done", world, make_sandbox(world, backend))
    finally:
        for server in servers:
            server.close()
    assert "reached" not in result["stdout"]


def test_network_true_allows_the_connection(world: World, backend: str, tcp: Listener) -> None:
    result = run(connect_command(tcp.port), world, make_sandbox(world, backend, network="on"))
    assert result["exit_code"] == 0, result
    assert result["stdout"].strip() == "connected"


def test_mode_off_lifts_everything(world: World, tcp: Listener) -> None:
    sandbox = make_sandbox(world, "auto", mode="off")
    assert sandbox.backend() is None
    assert sandbox.describe(str(world.work)).startswith("off")
    result = run(f"cat ~/.aws/credentials && touch {world.outside}/lifted && "
                 + connect_command(tcp.port), world, sandbox)
    assert result["exit_code"] == 0, result
    assert CANARY in result["stdout"] and "connected" in result["stdout"]
    assert (world.outside / "lifted").exists()


def test_a_timed_out_sandboxed_command_is_killed(world: World, backend: str) -> None:
    marker = "3031.303030"
    result = run(f"trap '' TERM; sleep {marker} & sleep {marker}", world,
                 make_sandbox(world, backend), timeout=1)
    assert result.get("timed_out") is True and result["exit_code"] != 0
    assert wait_gone(marker) == []  # SIGTERM ignored: SIGKILL, the whole tree


def test_status_line_names_backend_and_policy(world: World, backend: str) -> None:
    line = make_sandbox(world, backend).describe(str(world.work / "src"))
    assert ("bubblewrap" if backend == "bwrap" else "landlock") in line
    assert str(world.work.resolve()) in line and "network: off" in line


def test_a_missing_backend_is_said_once(world: World) -> None:
    sandbox = make_sandbox(world, "bwrap")
    sandbox._probed, sandbox._backend, sandbox._why_none = True, None, "no user namespaces"
    assert "unavailable (no user namespaces)" in sandbox.describe()
    first = sandbox.notice()
    assert first is not None and "unconfined" in first
    assert sandbox.notice() is None


def test_secret_names_are_judged_by_name_not_location() -> None:
    assert secret_name(".env") and secret_name("deploy/id_rsa") and secret_name(".ssh/config")
    assert not secret_name("src/app.py") and not secret_name("id_rsa.pub")


def test_a_command_goes_straight_to_the_helper_forked_for_it(world: World,
                                                            backend: str) -> None:
    """The supervisor lends swebash the helper it forked ahead of time: a request goes to it
    directly, so a command starts and ends (and says so) even while the supervisor itself
    cannot run."""
    sandbox = make_sandbox(world, backend)
    try:
        assert run("echo warm", world, sandbox, keep=True)["stdout"] == "warm\n"
        supervisor = sandbox.supervisor().pid
        assert supervisor is not None
        deadline = time.monotonic() + 5
        link = sandbox.supervisor()._link
        while link is not None and link.spare is None and time.monotonic() < deadline:
            time.sleep(0.02)  # lent once the supervisor has been idle a moment
        os.kill(supervisor, signal.SIGSTOP)
        try:
            process = sandbox.spawn(["bash", "-c", "echo direct"], str(world.work), world.env)
            out, _err = process.communicate()
            assert out == b"direct\n" and process.returncode == 0
        finally:
            os.kill(supervisor, signal.SIGCONT)
        assert run("echo after", world, sandbox, keep=True)["stdout"] == "after\n"
    finally:
        sandbox.close()


def test_a_killed_supervisor_takes_its_commands_along_and_is_started_again(
        world: World, backend: str) -> None:
    web = WebServer({"/": CANARY.encode()})
    sandbox = make_sandbox(world, backend, network="proxy", allow=("back.localhost",))
    try:
        marker = "7171.171717"
        process = sandbox.spawn(["sleep", marker], str(world.work), world.env)
        assert processes_with(marker)
        supervisor = sandbox.supervisor().pid
        assert supervisor is not None
        os.kill(supervisor, signal.SIGKILL)
        assert wait_gone(marker) == []
        process.wait(10)  # the end of the supervisor ends the process's record as well
        result = run(f"curl -sSf http://back.localhost:{web.port}/", world, sandbox,
                     keep=True)
        assert result["stdout"] == CANARY and sandbox.supervisor().pid != supervisor
        # at once, again and again: the dead supervisor's helpers keep its socket open for a
        # moment after its commands' records have ended; the next command must not go there
        for _ in range(5):
            process = sandbox.spawn(["sleep", marker], str(world.work), world.env)
            supervisor = sandbox.supervisor().pid
            assert supervisor is not None
            os.kill(supervisor, signal.SIGKILL)
            process.wait(10)
            assert run("echo again", world, sandbox, keep=True)["stdout"] == "again\n"
            assert sandbox.supervisor().pid != supervisor
    finally:
        sandbox.close()
        web.close()
