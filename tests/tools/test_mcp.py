"""MCP servers as tools, against a real MCP server (the SDK's server side,
tests/fakes/mcp_server.py) over stdio and Streamable HTTP on 127.0.0.1: listing, calls, errors,
a crash, a hang past the startup timeout, a slow tool past its timeout, many tools, and shutdown
leaving no process."""

from __future__ import annotations

import asyncio
import json
import os
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from swebash.config import McpServerConfig, ToolConfig
from swebash.tools.base import ToolContext
from swebash.tools.mcp import INDEX_THRESHOLD, LOADER, McpManager, McpTool, McpToolError

ROOT = str(Path(__file__).resolve().parents[2])


def stdio(name: str = "srv", *extra: str, **kw: object) -> McpServerConfig:
    return McpServerConfig(name=name, command=sys.executable,
                           args=("-m", "tests.fakes.mcp_server", *extra), cwd=ROOT,
                           **kw)  # type: ignore[arg-type]


def ctx() -> ToolContext:
    return ToolContext(cwd=ROOT, env={}, config=ToolConfig())


def alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return True


def pid_from(path: Path) -> int:
    return int(path.read_text())


def tool(manager: McpManager, name: str) -> McpTool:
    found = next(t for t in manager.tools() if t.name == name)
    assert isinstance(found, McpTool)
    return found


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@pytest.fixture
def http_server(tmp_path: Path) -> Iterator[str]:
    port = free_port()
    proc = subprocess.Popen([sys.executable, "-m", "tests.fakes.mcp_server", "--http", str(port)],
                            cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
            break
        except OSError:
            time.sleep(0.05)
    yield f"http://127.0.0.1:{port}/mcp"
    proc.terminate()
    proc.wait(10)


async def exercise(manager: McpManager, server: str) -> None:
    await manager.ensure_started()
    names = {t.name for t in manager.tools()}
    assert {f"mcp__{server}__echo", f"mcp__{server}__add", f"mcp__{server}__fail"} <= names
    echo = tool(manager, f"mcp__{server}__echo")
    assert echo.definition().parameters["required"] == ["text"]
    out = await echo.execute({"text": "hi"}, ctx())
    assert json.loads(out.content) == {"server": server, "tool": "echo", "output": "echo: hi"}
    out = await tool(manager, f"mcp__{server}__add").execute({"a": 2, "b": 3}, ctx())
    assert '"sum": 5' in json.loads(out.content)["output"]
    with pytest.raises(McpToolError, match="boom"):
        await tool(manager, f"mcp__{server}__fail").execute({"message": "boom"}, ctx())
    out = await tool(manager, f"mcp__{server}__picture").execute({}, ctx())
    assert "[image image/png" in out.content and "not shown" in out.content


def test_stdio_listing_calls_errors_and_clean_shutdown(tmp_path: Path) -> None:
    pidfile = tmp_path / "pid"
    manager = McpManager([stdio("srv", "--pidfile", str(pidfile))], tmp_path / "logs")

    async def main() -> None:
        await exercise(manager, "srv")
        await manager.aclose()

    asyncio.run(main())
    assert not alive(pid_from(pidfile))
    assert "fake mcp server starting" in (tmp_path / "logs" / "mcp-srv.log").read_text()


def test_streamable_http(http_server: str) -> None:
    manager = McpManager([McpServerConfig(name="web", url=http_server)])

    async def main() -> None:
        await exercise(manager, "web")
        await manager.aclose()

    asyncio.run(main())
    assert manager.servers["web"].state == "stopped"


def test_one_failing_and_one_hanging_server_leave_the_others_working(tmp_path: Path) -> None:
    hang_pid = tmp_path / "hang.pid"
    reported: list[str] = []
    manager = McpManager([stdio("good"),
                          McpServerConfig(name="missing", command="/nonexistent/mcp"),
                          stdio("slow", "--hang-start", "--pidfile", str(hang_pid),
                                startup_timeout=1.0)],
                         tmp_path / "logs", report=reported.append)

    async def main() -> None:
        await manager.ensure_started()
        assert manager.servers["good"].state == "ready"
        assert manager.servers["slow"].error == "did not start within 1 s"
        assert "command not found" in manager.servers["missing"].error
        out = await tool(manager, "mcp__good__echo").execute({"text": "x"}, ctx())
        assert "echo: x" in out.content
        await manager.ensure_started()  # failures are reported once, not per question
        await manager.aclose()

    asyncio.run(main())
    assert len(reported) == 2 and all("unavailable" in line for line in reported)
    # under load the server may be stopped (at its 1 s deadline) before it wrote its pid
    assert not hang_pid.exists() or not alive(pid_from(hang_pid))
    lines = "\n".join(manager.describe())
    assert "good  stopped" in lines and "slow  failed: did not start within 1 s" in lines


def test_crash_mid_call_and_restart(tmp_path: Path) -> None:
    pidfile = tmp_path / "pid"
    manager = McpManager([stdio("srv", "--pidfile", str(pidfile))])

    async def main() -> None:
        await manager.ensure_started()
        first = pid_from(pidfile)
        with pytest.raises(McpToolError, match="exited during the call"):
            await tool(manager, "mcp__srv__crash").execute({}, ctx())
        assert manager.servers["srv"].state == "exited"
        with pytest.raises(StopIteration):
            tool(manager, "mcp__srv__echo")  # an exited server offers nothing
        await manager.ensure_started()  # the next question starts a crashed server again
        second = pid_from(pidfile)
        assert manager.servers["srv"].state == "ready" and second != first
        assert "ready" in await manager.restart("srv")  # ai mcp restart NAME
        assert pid_from(pidfile) != second and not alive(second)
        out = await tool(manager, "mcp__srv__echo").execute({"text": "back"}, ctx())
        assert "echo: back" in out.content
        await manager.aclose()
        assert not alive(first)

    asyncio.run(main())
    assert not alive(pid_from(pidfile))


def test_tool_timeout(tmp_path: Path) -> None:
    manager = McpManager([stdio("srv", tool_timeout=0.5)])

    async def main() -> None:
        await manager.ensure_started()
        with pytest.raises(McpToolError, match=r"timed out after 0\.5 s"):
            await tool(manager, "mcp__srv__sleep").execute({"seconds": 30}, ctx())
        out = await tool(manager, "mcp__srv__echo").execute({"text": "still"}, ctx())
        assert "echo: still" in out.content
        await manager.aclose()

    asyncio.run(main())


def test_many_tools_become_an_index_with_schemas_on_demand() -> None:
    manager = McpManager([stdio("big", "--many", "45")])

    async def main() -> None:
        await manager.ensure_started()
        assert len(manager.tools()) > INDEX_THRESHOLD
        assert [t.name for t in manager.offered()] == [LOADER]
        section = manager.prompt_section()
        assert "mcp__big__extra_44: Extra tool number 44." in section
        loader = manager.offered()[0]
        out = await loader.execute({"names": ["mcp__big__extra_3", "nope"]}, ctx())
        body = json.loads(out.content)
        assert body["loaded"][0]["name"] == "mcp__big__extra_3" and body["unknown"] == ["nope"]
        assert [t.name for t in manager.offered()] == [LOADER, "mcp__big__extra_3"]
        extra = tool(manager, "mcp__big__extra_7")  # callable by name even when not loaded
        assert "extra 7: q" in (await extra.execute({"x": "q"}, ctx())).content
        await manager.aclose()

    asyncio.run(main())


def test_tool_filters_and_disabled_servers() -> None:
    manager = McpManager([stdio("a", enabled_tools=("echo", "add"), disabled_tools=("add",)),
                          stdio("off", enabled=False)])

    async def main() -> None:
        await manager.ensure_started()
        assert [t.name for t in manager.tools()] == ["mcp__a__echo"]
        assert manager.servers["off"].state == "disabled"
        await manager.aclose()

    asyncio.run(main())


def test_close_from_another_thread_stops_servers_on_the_ai_loop(tmp_path: Path) -> None:
    from swebash.host.loop import AiLoop

    pidfile = tmp_path / "pid"
    manager = McpManager([stdio("srv", "--pidfile", str(pidfile))])
    loop = AiLoop()
    try:
        loop.run(manager.ensure_started(), 60)
        assert alive(pid_from(pidfile))
        manager.close()  # what the shell's exit path calls
        assert not alive(pid_from(pidfile))
        manager.close()  # idempotent
    finally:
        loop.close()


@pytest.mark.parametrize("version", ["2024-11-05", "2025-06-18"])
def test_a_hand_written_stdlib_server(version: str) -> None:
    manager = McpManager([McpServerConfig(
        name="tiny", command=sys.executable, cwd=ROOT,
        args=("-m", "tests.fakes.mcp_stdlib_server", "--version", version))])

    async def main() -> None:
        await manager.ensure_started()
        assert [t.name for t in manager.tools()] == ["mcp__tiny__shout"]
        out = await tool(manager, "mcp__tiny__shout").execute({"text": "hi"}, ctx())
        assert json.loads(out.content)["output"] == "HI"
        await manager.aclose()

    asyncio.run(main())


def test_text_from_a_server_is_made_printable_for_people() -> None:
    from swebash.tools.mcp import first_line

    assert first_line("evil\x1b]0;owned\x07 tool\u202e") == "evil\\x1b]0;owned\\x07 tool\\u202e"


def test_closing_during_a_slow_start_stops_the_process_at_once(tmp_path: Path) -> None:
    pidfile = tmp_path / "pid"
    manager = McpManager([stdio("slow", "--hang-start", "--pidfile", str(pidfile),
                                startup_timeout=300.0)])

    async def main() -> None:
        manager.start_idle()
        while not pidfile.exists() or not pidfile.read_text():
            await asyncio.sleep(0.05)
        await asyncio.wait_for(manager.aclose(), 60)  # far below the 300 s startup timeout

    asyncio.run(main())
    assert not alive(pid_from(pidfile))
    assert manager.servers["slow"].error == "stopped before it was ready"


def test_input_schemas_are_made_acceptable_to_providers() -> None:
    from swebash.tools.mcp import model_schema

    assert model_schema({}) == {"type": "object", "properties": {}}
    assert model_schema({"$schema": "x", "type": "object", "properties": {"a": {}}}) == {
        "type": "object", "properties": {"a": {}}}
    assert model_schema({"properties": {"a": {}}, "required": ["a"]})["type"] == "object"


def test_stdio_servers_inherit_the_environment_without_secrets() -> None:
    environ = {"PATH": os.environ["PATH"], "GREETING": "hello",
               "OPENAI_API_KEY": "sk-not-for-servers-000", "GITHUB_TOKEN": "ghp_x00000"}
    manager = McpManager([stdio("srv", env={"EXTRA": "1", "GITHUB_TOKEN": "given"})],
                         environ=environ)

    async def main() -> None:
        await manager.ensure_started()
        getenv = tool(manager, "mcp__srv__getenv")
        seen = {}
        for name in ("GREETING", "OPENAI_API_KEY", "GITHUB_TOKEN", "EXTRA"):
            out = await getenv.execute({"name": name}, ctx())
            seen[name] = json.loads(out.content)["output"]
        await manager.aclose()
        assert seen == {"GREETING": "hello", "OPENAI_API_KEY": "(unset)",
                        "GITHUB_TOKEN": "given", "EXTRA": "1"}

    asyncio.run(main())


def test_a_banner_on_stdout_is_logged_not_shown(tmp_path: Path,
                                                capfd: pytest.CaptureFixture[str]) -> None:
    manager = McpManager([McpServerConfig(
        name="noisy", command=sys.executable, cwd=ROOT,
        args=("-m", "tests.fakes.mcp_stdlib_server", "--banner"))], tmp_path / "logs")

    async def main() -> None:
        await manager.ensure_started()
        out = await tool(manager, "mcp__noisy__shout").execute({"text": "ok"}, ctx())
        assert json.loads(out.content)["output"] == "OK"
        await manager.aclose()

    asyncio.run(main())
    captured = capfd.readouterr()
    assert "Traceback" not in captured.err and "Traceback" not in captured.out
    assert "Failed to parse" in (tmp_path / "logs" / "mcp.log").read_text()


def test_a_server_that_exits_while_starting_fails_in_one_line(tmp_path: Path) -> None:
    manager = McpManager([McpServerConfig(name="dies", command=sys.executable,
                                          args=("-c", "import sys; sys.exit(3)"))],
                         tmp_path / "logs")

    async def main() -> None:
        await manager.ensure_started()
        await manager.aclose()

    asyncio.run(main())
    assert manager.servers["dies"].error == (
        "exited or closed the connection while starting (its stderr: "
        f"{tmp_path / 'logs' / 'mcp-dies.log'})")


def test_people_see_a_tool_under_its_servers_name() -> None:
    # a.b and a_b are two tools: the model calls a.b as mcp__big__a_b_<hash>; people read
    # "big · a.b" — in the loader's row too, and ai mcp lists both names.
    manager = McpManager([McpServerConfig(
        name="big", command=sys.executable, cwd=ROOT,
        args=("-m", "tests.fakes.mcp_stdlib_server", "--collide"))])

    async def main() -> None:
        await manager.ensure_started()
        mapped = next(t.name for t in manager.tools()
                      if isinstance(t, McpTool) and t.remote.name == "a.b")
        assert mapped.startswith("mcp__big__a_b_")
        loader = manager._loader
        label = loader.describe_call({"names": [mapped, "mcp__big__shout", "nope"]})
        assert label == "load MCP tool schemas: big · a.b, big · shout, nope"
        out = await loader.execute({"names": [mapped]}, ctx())
        assert out.summary == "1 schema loaded"
        call = tool(manager, mapped)
        assert call.describe_call({}) == "MCP big · a.b {}"
        await manager.aclose()

    asyncio.run(main())
