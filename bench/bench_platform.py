"""Platform benchmarks (issue 13): what MCP servers, AGENTS.md and stored sessions cost.

* Startup to the first prompt with two MCP servers configured vs none (target: unchanged —
  servers start on the first `?`, never before the prompt).
* Enter on `? q` → first request byte at the local model server, second question of a session
  (servers already started), two MCP servers vs none (target: no slower). The first question
  with MCP, which waits for the servers' handshake, is printed too.
* `swebash -c '? q'` wall time with two MCP servers vs none (informational: includes starting
  and stopping the servers).
"""

from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.dirname(HERE))

from _pty import ROOT, SWEBASH, Pty, prompt_shown, quiet_env  # noqa: E402

from tests.fakes.server import FakeServer  # noqa: E402

ROUNDS = 7


def make_home(mcp: bool, module: str = "tests.fakes.mcp_server") -> str:
    home = tempfile.mkdtemp(prefix="swebash-bench-")
    config = os.path.join(home, ".config", "swebash")
    os.makedirs(config)
    os.makedirs(os.path.join(home, ".local", "state"))
    with open(os.path.join(config, "config.toml"), "w", encoding="utf-8") as handle:
        handle.write("[ai]\nautocomplete = false\n\n")  # both homes parse a config file
        if mcp:
            for name in ("one", "two"):
                handle.write(f"[mcp_servers.{name}]\ncommand = {json.dumps(sys.executable)}\n"
                             f'args = ["-m", "{module}"]\n'
                             f"cwd = {json.dumps(str(ROOT))}\ntrust = true\n\n")
    return home


def env_for(server: FakeServer, home: str) -> dict[str, str]:
    return {**quiet_env(home), "XDG_CONFIG_HOME": os.path.join(home, ".config"),
            "XDG_STATE_HOME": os.path.join(home, ".local", "state"),
            "OPENAI_API_KEY": "sk-bench-000000000000", "OPENAI_BASE_URL": server.url + "/v1",
            "SWEBASH_AI_PROVIDER": "openai", "SWEBASH_AI_MAX_RETRIES": "0"}


def startup(server: FakeServer, home: str) -> float:
    term = Pty([SWEBASH], env_for(server, home))
    try:
        return term.read_until(prompt_shown) * 1000
    finally:
        term.send(b"exit\r")
        time.sleep(0.3)
        term.close()


def ask(term: Pty, server: FakeServer) -> float:
    server.script({"text": "ok"})
    seen = len(server.requests)
    mark = len(term.out)
    sent = time.monotonic()
    term.send(b"? q\r")
    deadline = sent + 30
    while len(server.requests) == seen and time.monotonic() < deadline:
        time.sleep(0.001)
    if len(server.requests) == seen:
        raise TimeoutError("no request reached the model server")
    latency = (server.requests[seen].arrived - sent) * 1000
    term.read_until(lambda out: b"ok" in out[mark:] and b"\x1b[?2004h" in out[mark:], 10)
    time.sleep(0.3)  # the answer is drawn and the line editor is live again
    return latency


def session(server: FakeServer, home: str) -> tuple[float, list[float]]:
    """(first `?`, later `?`s) latencies in one interactive session."""
    term = Pty([SWEBASH], env_for(server, home))
    try:
        term.read_until(lambda out: b"\x1b[?2004h" in out)
        time.sleep(2.0)  # the SDK is warmed in the background, as in bench_ai
        first = ask(term, server)
        return first, [ask(term, server) for _ in range(4)]
    finally:
        term.send(b"exit\r")
        time.sleep(0.5)
        term.close()


def one_shot(server: FakeServer, home: str) -> float:
    server.script({"text": "ok"})
    started = time.monotonic()
    subprocess.run([SWEBASH, "-c", "? q"], env={**os.environ, **env_for(server, home)},
                   capture_output=True, check=False, timeout=60, cwd=home)
    return (time.monotonic() - started) * 1000


def main() -> int:
    server = FakeServer().start()
    plain, mcp = make_home(False), make_home(True)
    tiny = make_home(True, "tests.fakes.mcp_stdlib_server")
    try:
        starts: dict[str, list[float]] = {"plain": [], "mcp": []}
        for _ in range(ROUNDS):  # interleaved, so background load hits both alike
            starts["plain"].append(startup(server, plain))
            starts["mcp"].append(startup(server, mcp))
        base, with_mcp = (statistics.median(starts[k]) for k in ("plain", "mcp"))
        print(f"startup to first prompt: {base:.0f} ms without MCP, {with_mcp:.0f} ms with two "
              f"MCP servers (ratio {with_mcp / base:.2f}x)   [target: unchanged]")
        later: dict[str, list[float]] = {"plain": [], "mcp": []}
        firsts: list[float] = []
        for _ in range(3):
            later["plain"].extend(session(server, plain)[1])
            first, rest = session(server, mcp)
            firsts.append(first)
            later["mcp"].extend(rest)
        p2, m2 = (statistics.median(later[k]) for k in ("plain", "mcp"))
        m1 = statistics.median(firsts)
        print(f"Enter on `? q` -> first request byte, servers started: {p2:.0f} ms without MCP, "
              f"{m2:.0f} ms with two MCP servers (ratio {m2 / p2:.2f}x)   [target: no slower]")
        print(f"first `?` of a session with two MCP servers (waits for their handshake): "
              f"{m1:.0f} ms")
        c_plain = statistics.median(one_shot(server, plain) for _ in range(3))
        c_mcp = statistics.median(one_shot(server, mcp) for _ in range(3))
        c_tiny = statistics.median(one_shot(server, tiny) for _ in range(3))
        print(f"swebash -c '? q' wall time: {c_plain:.0f} ms without MCP, {c_mcp:.0f} ms with two "
              f"SDK-built MCP servers, {c_tiny:.0f} ms with two stdlib ones (start + stop "
              "included; the SDK servers' own Python start-up dominates)")
    finally:
        server.stop()
        import shutil

        shutil.rmtree(plain, ignore_errors=True)
        shutil.rmtree(mcp, ignore_errors=True)
        shutil.rmtree(tiny, ignore_errors=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
