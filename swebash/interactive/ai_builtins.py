"""`ai …`: swebash's builtin for AI commands (status, reset, model, provider, tools, stats,
context, explain, help)."""

from __future__ import annotations

import shlex
from typing import TYPE_CHECKING, Any

from swebash.errors import SwebashError

if TYPE_CHECKING:
    from swebash.interactive.ai_session import AiFrontend

HELP = """\
AI commands
  ? QUESTION         ask the AI; it may read files, run commands (asking y/N first) and search
  ?? TASK            turn TASK into a shell command placed in your prompt for editing
  ai explain CMD     explain a command (Alt-E explains the line you are typing)
  ai status          provider, model, endpoint, reachability, tools and limits
  ai reset           forget this session's conversation
  ai model [NAME]    show or switch the model
  ai provider [NAME] show or switch the provider (openai, anthropic, gemini, ollama,
                     openai-compatible)
  ai tools           which tools are enabled
  ai stats           tool calls, durations, iterations and tokens of this session
  ai context         exactly what the model sees of your terminal (after redaction)
  ai help            this text"""

SUBCOMMANDS = ("status", "reset", "model", "provider", "tools", "stats", "context", "explain",
               "help")


def parse(line: str) -> list[str]:
    """`ai model gpt-4o` → ["model", "gpt-4o"]; raises SwebashError on bad quoting."""
    try:
        words = shlex.split(line)
    except ValueError as exc:
        raise SwebashError(f"ai: {exc}") from None
    return words[1:] if words[:1] == ["ai"] else words


def run(frontend: AiFrontend, line: str) -> int:
    words = parse(line)
    if not words or words[0] in ("help", "-h", "--help"):
        print(HELP)
        return 0
    name, args = words[0], words[1:]
    if name not in SUBCOMMANDS:
        print(f"swebash: ai: unknown command '{name}' (try: ai help)")
        return 2
    if name == "explain":
        rest = line.split("explain", 1)[1].strip()
        if not rest:
            print("swebash: ai explain: give a command, e.g. ai explain tar -xzf x.tgz")
            return 2
        return frontend.explain(rest)
    service = frontend.service
    if name == "reset":
        service.reset()
        print("AI conversation forgotten.")
        return 0
    if name in ("status", "tools") or (name in ("model", "provider") and not args):
        status = frontend.run_sync(service.status(check_reachable=name == "status"), 10)
        if name == "status":
            print_status(status)
        elif name == "tools":
            print(f"tools: {', '.join(status.tools_enabled) or 'none (plain chat)'}")
        else:
            print(getattr(status, name) or "(not configured)")
        return 0
    if name == "stats":
        print_stats(service.stats())
        return 0
    if name == "context":
        describe = getattr(service, "describe_context", None)
        print(describe() if callable(describe) else "(no terminal context)")
        return 0
    getattr(service, f"set_{name}")(args[0])
    print(f"{name} set to {args[0]}")
    return 0


def print_status(status: Any) -> None:
    if not status.configured:
        print(f"AI: not configured. {status.message}")
        return
    reach = {True: "yes", False: "NO", None: "not checked"}[status.reachable]
    print(f"provider:  {status.provider}")
    print(f"model:     {status.model}")
    print(f"endpoint:  {status.endpoint}")
    print(f"reachable: {reach}")
    print(f"tools:     {', '.join(status.tools_enabled) or 'none (plain chat)'}")
    for key, value in status.limits.items():
        print(f"{key}: {value}")


def print_stats(stats: Any) -> None:
    print(f"turns: {stats.turns}  iterations: {stats.iterations}  "
          f"max depth: {stats.max_iteration_depth}")
    print(f"tokens: {stats.input_tokens} in / {stats.output_tokens} out")
    if not stats.tools:
        print("no tool calls yet")
    for name, tool in sorted(stats.tools.items()):
        mean = tool.total_ms / tool.calls if tool.calls else 0.0
        print(f"  {name:<16} {tool.calls} calls, {tool.successes} ok, {tool.failures} failed, "
              f"{mean:.0f} ms avg")
