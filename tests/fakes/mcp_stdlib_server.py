"""A minimal MCP server written with the standard library only (newline-delimited JSON-RPC on
stdio), the way small hand-made servers are: it knows ``initialize``, ``tools/list`` and
``tools/call``, answers an older protocol version, and ignores notifications. Proves the
client does not depend on the SDK's own server behaviour.

    python -m tests.fakes.mcp_stdlib_server [--version 2024-11-05] [--banner]
"""

from __future__ import annotations

import json
import sys
from typing import Any

TOOLS = [{"name": "shout", "description": "Upper-case the text.",
          "inputSchema": {"type": "object", "properties": {"text": {"type": "string"}},
                          "required": ["text"]}}]


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
            reply(message["id"], {"tools": TOOLS})
        elif method == "tools/call" and params.get("name") == "shout":
            text = str(params.get("arguments", {}).get("text", ""))
            reply(message["id"], {"content": [{"type": "text", "text": text.upper()}],
                                  "isError": False})
        elif method == "ping":
            reply(message["id"], {})
        else:
            reply(message["id"], error={"code": -32601, "message": f"no method {method}"})
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
