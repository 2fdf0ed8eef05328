"""Many MCP tools, end to end with the installed swebash: an MCP server over stdio
(tests/fakes/mcp_stdlib_server.py) with 500 tools plus tools whose names collide once made
acceptable to providers, the local OpenAI-protocol server scripting the model through the real
SDK."""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

from tests.e2e.test_ai_e2e import run_swebash
from tests.fakes.mcp_stdlib_server import COLLIDING
from tests.fakes.server import FakeServer

ROOT = str(Path(__file__).resolve().parents[2])
PROVIDER_NAME = re.compile(r"[A-Za-z0-9_-]{1,64}")


def configure(home: Path) -> None:
    config = home / ".config" / "swebash"
    config.mkdir(parents=True, exist_ok=True)
    (config / "config.toml").write_text(
        "[mcp_servers.big]\n"
        f"command = {json.dumps(sys.executable)}\n"
        'args = ["-m", "tests.fakes.mcp_stdlib_server", "--many", "500", "--collide"]\n'
        f"cwd = {json.dumps(ROOT)}\n"
        "trust = true\n")


def listed_names(listing: str) -> dict[str, str]:
    """`ai mcp` as a person reads it: the server's own tool name → the name the model uses."""
    names: dict[str, str] = {}
    for line in listing.splitlines():
        shown = re.match(r"  (mcp__big__\S+)  (?:\((.+?)\)  )?", line)
        if shown:
            own = shown.group(2) or shown.group(1).removeprefix("mcp__big__")
            names[own] = shown.group(1)
    return names


def test_500_tools_load_on_demand_and_colliding_names_each_reach_their_tool(
        server: FakeServer, ai_env: dict[str, str], hermetic_env: Path,
        tmp_path: Path) -> None:
    configure(hermetic_env)
    listing = run_swebash(["-c", "ai mcp"], ai_env, cwd=tmp_path)
    assert listing.returncode == 0, listing.stderr
    names = listed_names(listing.stdout)
    assert len(names) == 1 + 500 + len(COLLIDING)
    assert len(set(names.values())) == len(names)  # injective
    assert all(PROVIDER_NAME.fullmatch(n) for n in names.values())
    assert names["a_b"] == "mcp__big__a_b" and names["extra_321"] == "mcp__big__extra_321"
    wanted = [names[n] for n in ("extra_321", *COLLIDING)]
    server.script(
        {"tools": [["mcp_load_tools", json.dumps({"names": wanted})]]},
        {"tools": [[names["extra_321"], '{"x": "q"}'],
                   *([names[own], "{}"] for own in COLLIDING)]},
        {"text": "All five answered."})
    result = run_swebash(["-c", "? use the big server"], ai_env, cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert "All five answered." in result.stdout
    first, second, third = (server.requests[n].body for n in range(3))
    assert [t["function"]["name"] for t in first["tools"]
            if t["function"]["name"].startswith("mcp")] == ["mcp_load_tools"]
    system = json.dumps(first["messages"][0])
    assert all(name in system for name in names.values())  # the index, same names (restarted)
    loaded = json.loads(second["messages"][-1]["content"])
    assert [t["name"] for t in loaded["loaded"]] == wanted and "unknown" not in loaded
    offered = {t["function"]["name"] for t in second["tools"]}
    assert set(wanted) <= offered
    results = [m["content"] for m in third["messages"] if m["role"] == "tool"][1:]
    outputs = [json.loads(r)["output"] for r in results]
    assert outputs == ["extra 321: q", *(f"tool {own} answered" for own in COLLIDING)]
    assert [json.loads(r)["tool"] for r in results] == ["extra_321", *COLLIDING]
    assert "MCP big · a.b {}" in result.stderr  # shown under the server's own name
