"""What checking an MCP server before each call costs (issue 18), against the real fake server
over stdio:

* a tool call as the agent makes it (the check — a ping — then the call) vs the bare call;
* a call after the server was killed: the quiet restart (a new process and handshake) included.
"""

from __future__ import annotations

import asyncio
import os
import signal
import statistics
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))

from swebash.config import McpServerConfig, ToolConfig  # noqa: E402
from swebash.tools.base import ToolContext  # noqa: E402
from swebash.tools.mcp import McpManager, McpTool  # noqa: E402

ROOT = os.path.dirname(HERE)
CALLS = 200
KILLS = 3


async def measure(pidfile: str) -> tuple[float, float, float]:
    config = McpServerConfig(name="srv", command=sys.executable,
                             args=("-m", "tests.fakes.mcp_server", "--pidfile", pidfile),
                             cwd=ROOT)
    manager = McpManager([config])
    ctx = ToolContext(cwd=ROOT, env={}, config=ToolConfig())
    await manager.ensure_started()
    echo = next(t for t in manager.tools() if t.name == "mcp__srv__echo")
    assert isinstance(echo, McpTool)
    server = manager.servers["srv"]

    async def timed(call: object) -> float:
        started = time.perf_counter()
        await call  # type: ignore[misc]
        return (time.perf_counter() - started) * 1000

    for _ in range(10):  # warm both paths
        await echo.execute({"text": "x"}, ctx)
    bare, checked = [], []
    for _ in range(CALLS):
        bare.append(await timed(server.call("echo", {"text": "x"})))
        checked.append(await timed(echo.execute({"text": "x"}, ctx)))
    restarts = []
    for _ in range(KILLS):
        with open(pidfile, encoding="utf-8") as handle:
            os.kill(int(handle.read()), signal.SIGKILL)
        await asyncio.sleep(0.3)  # the pipe closes; the next call finds it dead
        restarts.append(await timed(echo.execute({"text": "x"}, ctx)))
    await manager.aclose()
    return statistics.median(bare), statistics.median(checked), statistics.median(restarts)


def main() -> int:
    with tempfile.TemporaryDirectory() as tmp:
        bare, checked, restart = asyncio.run(measure(os.path.join(tmp, "pid")))
    print(f"MCP tool call over stdio: {bare:.2f} ms bare, {checked:.2f} ms with the check "
          f"before it (+{checked - bare:.2f} ms, ratio {checked / bare:.2f}x)")
    print(f"MCP call after the server was killed (quiet restart included): {restart:.0f} ms")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
