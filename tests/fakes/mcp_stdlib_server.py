"""A minimal MCP server written with the standard library only (newline-delimited JSON-RPC on
stdio), the way small hand-made servers are: it knows ``initialize``, ``tools/list`` and
``tools/call``, answers an older protocol version, and ignores notifications. Proves the
client does not depend on the SDK's own server behaviour. Cheap to start with many tools:

    python -m tests.fakes.mcp_stdlib_server [--version 2024-11-05] [--banner] [--many N]
        [--collide]

``--many N`` adds ``extra_0`` … (``extra_N(x)`` answers ``extra N: x``); ``--collide`` adds
tools whose names differ only where providers accept no character, or past the 64 characters
they accept (``COLLIDING``), each answering ``tool NAME answered``.
"""

from __future__ import annotations

import json
import sys
from typing import Any

TOOLS = [{"name": "shout", "description": "Upper-case the text.",
          "inputSchema": {"type": "object", "properties": {"text": {"type": "string"}},
                          "required": ["text"]}}]
LONG = "long_" + "x" * 60
COLLIDING = ("a.b", "a_b", LONG + "_one", LONG + "_two")


def tool_list(many: int, collide: bool) -> list[dict[str, Any]]:
    extra = [{"name": f"extra_{n}", "description": f"Extra tool number {n}.",
              "inputSchema": {"type": "object", "properties": {"x": {"type": "string"}}}}
             for n in range(many)]
    named = [{"name": name, "description": "Say which tool answered.",
              "inputSchema": {"type": "object", "properties": {}}}
             for name in (COLLIDING if collide else ())]
    return TOOLS + extra + named


def answer(name: str, arguments: dict[str, Any], known: set[str]) -> str | None:
    if name not in known:
        return None
    if name == "shout":
        return str(arguments.get("text", "")).upper()
    if name.startswith("extra_"):
        return f"extra {name.removeprefix('extra_')}: {arguments.get('x', '')}"
    return f"tool {name} answered"


def reply(message_id: Any, result: dict[str, Any] | None = None,
          error: dict[str, Any] | None = None) -> None:
    body: dict[str, Any] = {"jsonrpc": "2.0", "id": message_id}
    if error is not None:
        body["error"] = error
    else:
        body["result"] = result
    sys.stdout.write(json.dumps(body) + "\n")
    sys.stdout.flush()


def main(argv: list[str]) -> int:
    version = argv[argv.index("--version") + 1] if "--version" in argv else "2024-11-05"
    many = int(argv[argv.index("--many") + 1]) if "--many" in argv else 0
    tools = tool_list(many, "--collide" in argv)
    known = {t["name"] for t in tools}
    if "--banner" in argv:  # a common bug: a greeting on stdout, which is the protocol channel
        print("Starting my server v1", flush=True)
    for line in sys.stdin:
        try:
            message = json.loads(line)
        except ValueError:
            continue
        if "id" not in message:
            continue  # a notification
        method, params = message.get("method"), message.get("params") or {}
        if method == "initialize":
            reply(message["id"], {"protocolVersion": version, "capabilities": {"tools": {}},
                                  "serverInfo": {"name": "stdlib", "version": "1"}})
        elif method == "tools/list":
            reply(message["id"], {"tools": tools})
        elif method == "tools/call" and (text := answer(
                str(params.get("name")), params.get("arguments") or {}, known)) is not None:
            reply(message["id"], {"content": [{"type": "text", "text": text}],
                                  "isError": False})
        elif method == "ping":
            reply(message["id"], {})
        else:
            reply(message["id"], error={"code": -32601, "message": f"no method {method}"})
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
