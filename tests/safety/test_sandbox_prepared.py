"""bubblewrap's prepared sandbox: built with the previous command's policy while the model reads
its result, used by the next command only when it was built for exactly that command's policy
and every mount is still where it was made.

Host-side changes between two commands (the test's own files in its temp dir) stand for an
editor's save, ``git init`` after ``rm -rf .git``, a new key dropped in the tree. Payloads are
harmless (cat, echo, touch) and aim at canaries.
"""

from __future__ import annotations

import asyncio
import json
import os
import shutil
import signal
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from swebash.ai.service import DefaultAiService
from swebash.api import ChatRequest, ConfirmAnswer
from swebash.config import AiConfig
from swebash.providers.base import ToolResultMessage
from swebash.providers.fake import ScriptedProvider, Turn
from swebash.safety import sandbox_bwrap, sandbox_waiter
from swebash.safety.sandbox import OsSandbox
from swebash.safety.sandbox_command import READY_TIMEOUT
from tests.ai.fakes import FakeTerminal, PatternRedactor, RuleGate, answering, registry
from tests.safety.sandbox_fixtures import (
    CANARY,
    World,
    available,
    make_sandbox,
    make_world,
    prepare,
    wait_for_waiter,
    waiters,
)

pytestmark = pytest.mark.skipif(available("bwrap") is not None,
                                reason=f"bubblewrap does not work here: {available('bwrap')}")


def spawn(sandbox: OsSandbox, world: World, argv: list[str],
          cwd: Path | None = None) -> tuple[str, str, int, bool]:
    process = sandbox.spawn(argv, str(cwd or world.work), world.env)
    out, err = process.communicate()
    sandbox.finished(process)
    return (out.decode(errors="replace"), err.decode(errors="replace"),
            process.returncode or 0, process.prepared)


def sh(command: str) -> list[str]:
    return ["bash", "-c", command]


@pytest.fixture
def sandbox(world: World) -> Iterator[OsSandbox]:
    made = make_sandbox(world, "bwrap")
    yield made
    made.close()


# what a command sees of its process, the same whichever way its sandbox was built
PROCESS_VIEW = [
    sh("env | sort; pwd; umask; id -u; echo $$ $PPID"),
    sh("grep -E '^(Sig(Ign|Blk)|NoNewPrivs|Seccomp|Cap(Inh|Prm|Eff|Bnd|Amb)):' "
       "/proc/self/status"),
    ["python3", "-c", "import os; print(sorted(os.listdir('/proc/self/fd')))"],
    sh("cut -d' ' -f5 /proc/self/mountinfo | sort; ulimit -a; ls /proc | grep -c '^[0-9]'"),
    sh("yes | head -c 4; echo; exit 7"),  # SIGPIPE as bash has it: yes ends quietly
    sh("tty; echo $?; cat /proc/self/stat | cut -d' ' -f7"),  # no terminal
    ["no-such-command-4242", "x"],
]


@pytest.mark.parametrize("argv", PROCESS_VIEW, ids=range(len(PROCESS_VIEW)))
def test_a_prepared_sandbox_runs_the_command_as_a_new_one_would(
        world: World, sandbox: OsSandbox, argv: list[str]) -> None:
    sandbox.supervisor().prepare = False
    cold = spawn(sandbox, world, argv)
    sandbox.supervisor().prepare = True
    prepare(sandbox, world, world.work)
    warm = spawn(sandbox, world, argv)
    assert not cold[3] and warm[3]  # (each was what it should be)
    assert warm[:3] == cold[:3]


def test_a_secret_replaced_on_the_host_after_preparing_stays_hidden(
        world: World, sandbox: OsSandbox) -> None:
    env, aws = world.work / ".env", world.home / ".aws"
    for swap in ("rewrite", "rename"):
        built(sandbox, world, world.work)
        if swap == "rewrite":  # unlinked and written again (the same name, maybe the inode)
            env.unlink()
            env.write_text(f"TOKEN={CANARY}\n")
        else:  # an editor's save: a new file renamed over the old one
            (world.work / ".env.swp").write_text(f"TOKEN={CANARY}\n")
            os.replace(world.work / ".env.swp", env)
        out, _err, _code, used = spawn(sandbox, world, sh("cat .env; echo done"))
        assert CANARY not in out and out.endswith("done\n") and not used
    built(sandbox, world, world.work)
    os.rename(aws, world.home / ".aws-old")  # a secret directory moved, a new one in its place
    (aws).mkdir()
    (aws / "credentials").write_text(f"{CANARY} new\n")
    out, _err, _code, used = spawn(sandbox, world, sh("cat ~/.aws/credentials; echo done"))
    assert CANARY not in out and out.endswith("done\n") and not used


def test_git_replaced_on_the_host_after_preparing_stays_read_only(
        world: World, sandbox: OsSandbox) -> None:
    git = world.work / ".git"
    built(sandbox, world, world.work)
    shutil.rmtree(git)
    (git / "hooks").mkdir(parents=True)  # rm -rf .git && git init
    out, _err, _code, used = spawn(sandbox, world, sh(
        "echo x > .git/hooks/post-checkout; echo y > .git/config; echo done"))
    assert out.endswith("done\n") and not used
    assert not (git / "hooks/post-checkout").exists() and not (git / "config").exists()


def test_a_new_secret_or_another_directory_gets_a_new_sandbox(
        world: World, sandbox: OsSandbox) -> None:
    prepare(sandbox, world, world.work)
    (world.work / "id_rsa").write_text(f"{CANARY} key\n")
    out, _err, _code, used = spawn(sandbox, world, sh("cat id_rsa; echo done"))
    assert CANARY not in out and out.endswith("done\n") and not used
    prepare(sandbox, world, world.work)
    out, _err, _code, used = spawn(sandbox, world, sh("pwd"), cwd=world.work / "src")
    assert out == f"{(world.work / 'src').resolve()}\n" and not used
    # and then the same command again is served by the sandbox prepared for it
    prepare(sandbox, world, world.work / "src")
    out, _err, _code, used = spawn(sandbox, world, sh("pwd"), cwd=world.work / "src")
    assert out == f"{(world.work / 'src').resolve()}\n" and used


def test_a_prepared_sandbox_that_died_gives_way_to_a_new_one(
        world: World, sandbox: OsSandbox) -> None:
    built(sandbox, world, world.work)
    for pid in waiters(world.work):
        os.kill(pid, 9)
    out, _err, code, used = spawn(sandbox, world, sh("echo still here"))
    assert (out, code, used) == ("still here\n", 0, False)


def built(sandbox: OsSandbox, world: World, cwd: Path) -> None:
    """``prepare``, then wait until its sandbox is built: its mounts are made before bubblewrap
    execs the waiter."""
    prepare(sandbox, world, cwd)
    wait_for_waiter(cwd)


def test_mount_points_and_mountinfo_escapes() -> None:
    argv = ["bwrap", "--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc",
            "--bind", "/w", "/w", "--ro-bind", "/w/.git", "/w/.git", "--tmpfs", "/h/.ssh",
            "--remount-ro", "/h/.ssh", "--ro-bind", "/dev/null", "/w/.env", "--chdir", "/w"]
    assert sandbox_bwrap.mount_points(argv) == ["/dev", "/proc", "/w", "/w/.git", "/h/.ssh",
                                                "/w/.env"]
    assert sandbox_waiter.unescape(r"/a\040b\011c\134d") == "/a b\tc\\d"
    assert sandbox_waiter.unescape(r"/plain") == "/plain"


def test_a_sandbox_is_prepared_where_asked_and_replaced_when_asked_elsewhere(
        world: World, sandbox: OsSandbox) -> None:
    src = world.work / "src"
    spawn(sandbox, world, sh("true"))  # (the supervisor runs; its helper is lent)
    sandbox.prepare(str(src), world.env)
    wait_for_waiter(src)
    sandbox.prepare(str(world.work), world.env)  # a question asked elsewhere meanwhile
    wait_for_waiter(world.work)
    assert not waiters(src)  # the first one was ended
    out, _err, _code, used = spawn(sandbox, world, sh("pwd"))
    assert out == f"{world.work.resolve()}\n" and used


def test_a_question_has_its_sandbox_built_before_the_first_command(world: World) -> None:
    src = world.work / "src"
    sandbox = make_sandbox(world, "bwrap")
    sandbox.warm()
    cfg = AiConfig()
    # the model thinks half a second before its first command: the sandbox is built meanwhile
    provider = ScriptedProvider([Turn(".", calls=(("execute_command", '{"command": "pwd"}'),),
                                      delay=0.5), Turn("ok")])
    svc = DefaultAiService(config=cfg, provider_factory=lambda _: provider,
                           registry=registry(cfg.tools), gate=RuleGate(),
                           redactor=PatternRedactor(),
                           terminal=FakeTerminal(where=str(src), env=world.env),
                           sandbox=sandbox)
    try:
        spawn(sandbox, world, sh("true"))  # a command elsewhere before: its sandbox is not
        used = sandbox.supervisor().prepared_used  # the one the question needs

        async def go() -> None:
            async for _event in svc.chat_stream(ChatRequest("where am I?"),
                                                answering(ConfirmAnswer.YES, [])):
                pass
        asyncio.run(go())
        assert sandbox.supervisor().prepared_used == used + 1
        results = [m for m in provider.sent[-1].messages if isinstance(m, ToolResultMessage)]
        assert json.loads(results[-1].content)["stdout"] == f"{src.resolve()}\n"
    finally:
        sandbox.close()


def test_a_large_request_reaches_a_prepared_sandbox(world: World, sandbox: OsSandbox) -> None:
    """Over half of the socket's message size, a request travels in a memfd: the waiter opens
    it the way the supervisor's own processes do."""
    built(sandbox, world, world.work)
    env = {**world.env, "BIG": "x" * 100_000}
    process = sandbox.spawn(["bash", "-c", "echo ${#BIG}"], str(world.work), env)
    out, _err = process.communicate()
    assert out == b"100000\n" and process.prepared


def test_a_waiter_that_dies_with_the_request_gives_way(world: World, sandbox: OsSandbox) -> None:
    """Stopped, then killed after the request reached it: no answer ever comes, every end of its
    channel and of the audit's filter closes — the command still runs, in a new sandbox."""
    built(sandbox, world, world.work)
    (pid,) = waiters(world.work)
    os.kill(pid, signal.SIGSTOP)
    threading.Timer(0.3, os.kill, (pid, signal.SIGKILL)).start()
    started = time.monotonic()
    out, _err, code, used = spawn(sandbox, world, sh("echo fine"))
    assert (out, code, used) == ("fine\n", 0, False)
    assert time.monotonic() - started < READY_TIMEOUT  # it did not wait for the timeout


def test_a_tree_whose_path_needs_escaping_is_served_prepared(tmp_path: Path) -> None:
    """mountinfo writes a space, tab, newline and backslash in a path as octal escapes: the
    waiter reads them back, so such a tree still gets its prepared sandbox, secrets masked."""
    odd = tmp_path / "we ird\nname\\x\tz"
    odd.mkdir()
    world = make_world(odd)
    (world.work / "my key.pem").write_text(f"{CANARY} pem\n")
    sandbox = make_sandbox(world, "bwrap")
    try:
        built(sandbox, world, world.work)
        out, err, _code, used = spawn(sandbox, world, sh("pwd; cat 'my key.pem' .env; echo ."))
        assert used and out == f"{world.work.resolve()}\n.\n" and CANARY not in out + err
    finally:
        sandbox.close()
