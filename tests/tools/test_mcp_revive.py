"""A killed MCP server (the real fake server over stdio, killed between calls): `ai mcp` says
"exited", and the next call starts it again quietly and works — it never fails with "exited
during the call". A server that crashes *during* a call still reports that, once."""

from __future__ import annotations

import asyncio
import json
import os
import signal
import time
from pathlib import Path

import pytest

from swebash.tools.mcp import McpManager, McpToolError
from tests.tools.test_mcp import alive, ctx, pid_from, stdio, tool


def kill_and_wait(pid: int) -> None:
    os.kill(pid, signal.SIGKILL)
    deadline = time.monotonic() + 10
    while alive(pid) and time.monotonic() < deadline:
        time.sleep(0.02)
    # the kernel reaped it (its parent is our loop's child watcher) or it is a zombie: gone
    assert time.monotonic() < deadline


def test_a_killed_server_shows_exited_and_the_next_call_restarts_it(tmp_path: Path) -> None:
    pidfile = tmp_path / "pid"
    reported: list[str] = []
    manager = McpManager([stdio("srv", "--pidfile", str(pidfile))], report=reported.append)

    async def main() -> None:
        await manager.ensure_started()
        echo = tool(manager, "mcp__srv__echo")
        assert "echo: one" in (await echo.execute({"text": "one"}, ctx())).content
        first = pid_from(pidfile)
        os.kill(first, signal.SIGKILL)
        await asyncio.sleep(0.3)  # the loop sees the pipe close
        await manager.check()  # what `ai mcp` does
        lines = "\n".join(manager.describe())
        assert "srv  exited — starts again at its next call" in lines
        assert "ready" not in lines
        out = await echo.execute({"text": "two"}, ctx())  # the same tool object, as the
        assert "echo: two" in out.content  # model would call it again
        second = pid_from(pidfile)
        assert second != first and manager.servers["srv"].state == "ready"
        assert "srv  ready, 7 tools" in "\n".join(manager.describe())
        await manager.aclose()
        assert not alive(second)

    asyncio.run(main())
    assert reported == []  # quietly


def test_killed_while_idle_without_a_check_the_call_still_works(tmp_path: Path) -> None:
    pidfile = tmp_path / "pid"
    manager = McpManager([stdio("srv", "--pidfile", str(pidfile))])

    async def main() -> None:
        await manager.ensure_started()
        first = pid_from(pidfile)
        os.kill(first, signal.SIGKILL)
        await asyncio.sleep(0.3)
        out = await tool(manager, "mcp__srv__add").execute({"a": 2, "b": 3}, ctx())
        assert '"sum": 5' in json.loads(out.content)["output"]
        assert pid_from(pidfile) != first
        await manager.aclose()

    asyncio.run(main())


def test_a_crash_during_the_call_is_reported_and_the_next_call_works(tmp_path: Path) -> None:
    pidfile = tmp_path / "pid"
    manager = McpManager([stdio("srv", "--pidfile", str(pidfile))])

    async def main() -> None:
        await manager.ensure_started()
        crash = tool(manager, "mcp__srv__crash")
        echo = tool(manager, "mcp__srv__echo")
        with pytest.raises(McpToolError, match="exited during the call"):
            await crash.execute({}, ctx())  # the call itself killed it: not replayed
        assert manager.servers["srv"].state == "exited"
        assert "echo: back" in (await echo.execute({"text": "back"}, ctx())).content
        await manager.aclose()

    asyncio.run(main())
