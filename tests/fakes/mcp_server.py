"""A real MCP server, written with the SDK's server side, for tests and benchmarks.

    python -m tests.fakes.mcp_server                 # stdio
    python -m tests.fakes.mcp_server --http PORT     # Streamable HTTP on 127.0.0.1:PORT/mcp

Tools: ``echo(text)``, ``add(a, b)`` (structured content), ``fail(message)`` (an ``isError``
result), ``picture()`` (an image block), ``crash()`` (the process exits mid-call),
``sleep(seconds)``, ``getenv(name)``. ``--many N`` adds N more tools (``extra_0`` …) for the
compact-index case; ``--hang-start`` never answers the handshake (a server slower than its
startup timeout); ``--pidfile FILE`` writes the server's pid so a test can prove the process is
gone afterwards.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from collections.abc import Callable

from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from mcp.server.mcpserver.utilities.types import Image

PNG_1X1 = bytes.fromhex("89504e470d0a1a0a0000000d4948445200000001000000010806000000"
                        "1f15c4890000000d49444154789c6360000002000154a24f5d0000000049454e44ae426082")


def make_extra(n: int) -> Callable[[str], str]:
    def extra(x: str = "") -> str:
        return f"extra {n}: {x}"

    return extra


def build(many: int) -> MCPServer:
    server: MCPServer = MCPServer("fake")

    @server.tool()
    def echo(text: str) -> str:
        """Repeat the text back."""
        return f"echo: {text}"

    @server.tool()
    def add(a: int, b: int) -> dict[str, int]:
        """Add two integers."""
        return {"sum": a + b}

    @server.tool()
    def fail(message: str) -> str:
        """Always fails with the given message."""
        raise ToolError(message)

    @server.tool()
    def picture() -> Image:
        """Return a tiny image."""
        return Image(data=PNG_1X1, format="png")

    @server.tool()
    def crash() -> str:
        """Exit the server process in the middle of the call."""
        os._exit(3)

    @server.tool()
    async def sleep(seconds: float) -> str:
        """Sleep, then answer."""
        import anyio

        await anyio.sleep(seconds)
        return "slept"

    @server.tool()
    def getenv(name: str) -> str:
        """The server's environment variable NAME ("(unset)" when missing)."""
        return os.environ.get(name, "(unset)")

    for n in range(many):
        server.add_tool(make_extra(n), name=f"extra_{n}", description=f"Extra tool number {n}.")
    return server


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--http", type=int, default=0)
    parser.add_argument("--many", type=int, default=0)
    parser.add_argument("--hang-start", action="store_true")
    parser.add_argument("--pidfile")
    parser.add_argument("--stderr", default="fake mcp server starting")
    args = parser.parse_args(argv)
    if args.pidfile:
        with open(args.pidfile, "w", encoding="utf-8") as handle:
            handle.write(str(os.getpid()))
    print(args.stderr, file=sys.stderr, flush=True)
    if args.hang_start:
        while True:
            time.sleep(3600)
    server = build(args.many)
    if args.http:
        server.run("streamable-http", host="127.0.0.1", port=args.http)
    else:
        server.run("stdio")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
