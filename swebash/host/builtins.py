"""`ai …`: swebash's builtin for AI commands, the same in the shell, in `-c` and in piped input.

It talks to the engine only through the ``AiService`` Protocol, and to what outlives a question
(stored conversations, MCP servers) through the ``AiPlatform``; the host — the interactive
``AiFrontend`` or the plain ``-c``/piped host — runs coroutines on its AI loop. Output is plain
text on stdout (errors one line on stdout, as before), so it reads the same in a pipe.
"""

from __future__ import annotations

import shlex
from collections.abc import Coroutine
from typing import TYPE_CHECKING, Any, Protocol

from swebash.api import AiService, AiStats, AiStatus
from swebash.errors import SwebashError
from swebash.visible import one_line
from swebash.wording import counted

if TYPE_CHECKING:
    from swebash.host.runtime import AiPlatform, AiRuntime

HELP = """\
AI commands
  ? QUESTION         ask the AI; it may read files, run commands (asking y/N first) and search
  ?? TASK            turn TASK into a shell command (a loop or script stays whole) placed in
                     your prompt for editing, not run until Enter
  ?fix [HINT]        after a failed command: the corrected command placed in your prompt
                     (also Ctrl-X Ctrl-F)
  ai explain CMD     explain a command (Alt-E explains the line you are typing)
  ai status          provider, model, endpoint, reachability, tools, limits, MCP servers
  ai reset           forget this conversation; the next ? starts a new one
  ai sessions        stored conversations: date, directory, turns, first question
  ai resume [N|last] continue stored conversation N of `ai sessions` (default, last: the
                     newest one before the current conversation)
  ai model [NAME]    show or switch the model
  ai provider [NAME] show or switch the provider (openai, anthropic, gemini, ollama,
                     openai-compatible)
  ai tools           which tools are enabled
  ai mcp             MCP servers: state and tools;  ai mcp restart NAME
  ai rules           approval rules from rules.toml;  ai rules rm N removes rule N
  ai stats           tool calls, durations, iterations and tokens of this session
  ai context         exactly what the model sees: instruction files (AGENTS.md), the recent
                     commands and their output, the working directory and the tools
  ai help            this text"""

SUBCOMMANDS = ("status", "reset", "model", "provider", "tools", "stats", "context", "explain",
               "help", "mcp", "sessions", "resume", "rules")
MCP_WAIT = 660.0  # ensure_started is bounded by each server's startup_timeout (≤ 600 s)


class BuiltinHost(Protocol):
    """What the builtins need of their host (``AiFrontend`` or the plain batch host)."""

    @property
    def service(self) -> AiService: ...

    @property
    def platform(self) -> AiPlatform: ...

    @property
    def runtime(self) -> AiRuntime: ...

    def run_sync(self, coro: Coroutine[Any, Any, Any], timeout: float | None = None) -> Any: ...

    def explain(self, command: str) -> int: ...


OPERATOR_CHARS = frozenset("();<>|&")


def parse(line: str) -> list[str]:
    """`ai model gpt-4o` → ["model", "gpt-4o"]; raises SwebashError on bad quoting, and on a
    pipe, list or redirection: `ai …` is swebash's, bash never sees it, so `ai sessions | grep x;
    echo y` would silently drop everything after `ai sessions` (`ai explain` takes a whole
    command line, operators included)."""
    try:
        words = shlex.split(line)
        lexer = shlex.shlex(line, posix=True, punctuation_chars=True)
        lexer.whitespace_split = True
        tokens = list(lexer)
    except ValueError as exc:
        raise SwebashError(f"ai: {exc}") from None
    words = words[1:] if words[:1] == ["ai"] else words
    operator = next((t for t in tokens if t and set(t) <= OPERATOR_CHARS), None)
    if operator is not None and words[:1] != ["explain"]:
        raise SwebashError(f"ai: `ai …` stands alone on its line, it cannot take part in "
                           f"'{operator}' (for a pipe: swebash -c 'ai {' '.join(words[:1])}' "
                           f"| …)")
    return words


def run_rules(host: BuiltinHost, args: list[str]) -> int:
    """`ai rules` lists rules.toml (and the rules it refused) as the session's gate has loaded
    them; `ai rules rm N` removes one (the gate reloads the file when it changes)."""
    from swebash.safety.rulesfile import remove_rule

    runtime = host.runtime
    rules_file = runtime.config.paths.rules_file
    if args in ([], ["list"]):
        loaded = runtime.gate.rule_set()
        for rule in loaded.rules:
            print(rule.describe())
        for note in loaded.notes:
            print(f"refused: {one_line(note)}")
        if not loaded.rules and not loaded.notes:
            print(f"no rules in {rules_file}")
        return 0
    if len(args) == 2 and args[0] in ("rm", "remove") and args[1].isdigit():
        message = remove_rule(rules_file, int(args[1]))
        print(message)
        return 0 if message.startswith("removed") else 1
    print("swebash: ai rules: use `ai rules` or `ai rules rm N`")
    return 2


def run(host: BuiltinHost, line: str) -> int:
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
        return host.explain(rest)
    if name == "mcp":
        return run_mcp(host, args)
    if name == "rules":
        return run_rules(host, args)
    if name in ("sessions", "resume", "reset"):
        return run_sessions(host, name, args)
    service = host.service
    if name in ("status", "tools") or (name in ("model", "provider") and not args):
        status: AiStatus = host.run_sync(service.status(check_reachable=name == "status"), 10)
        if name == "status":
            print_status(status)
        elif name == "tools":
            print(f"tools: {', '.join(status.tools_enabled) or 'none (plain chat)'}")
        else:
            print((status.model if name == "model" else status.provider) or "(not configured)")
        return 0
    if name == "stats":
        print_stats(service.stats())
        return 0
    if name == "context":
        print(service.describe_context())
        return 0
    if name == "model":
        service.set_model(args[0])
    else:
        service.set_provider(args[0])
    print(f"{name} set to {args[0]}")
    return 0


def run_sessions(host: BuiltinHost, name: str, args: list[str]) -> int:
    platform = host.platform
    if name == "reset":
        host.service.reset()
        print("AI conversation forgotten; the next ? starts a new one.")
        return 0
    if name == "sessions":
        print("\n".join(platform.list_sessions()))
        return 0
    print(platform.resume(args[0] if args else "last"))
    return 0


def run_mcp(host: BuiltinHost, args: list[str]) -> int:
    mcp = host.platform.mcp
    if mcp is None:
        print("no MCP servers configured (add [mcp_servers.NAME] to config.toml)")
        return 0
    if args[:1] == ["restart"]:
        if len(args) != 2:
            print("swebash: ai mcp restart: give a server name")
            return 2
        print(host.run_sync(mcp.restart(args[1]), MCP_WAIT))
        return 0
    if args:
        print("swebash: ai mcp: usage: ai mcp  or  ai mcp restart NAME")
        return 2
    host.run_sync(mcp.check(), MCP_WAIT)  # listing tools needs running servers; dead ones
    # are found (a ping) and shown as exited
    print("\n".join(mcp.describe()))
    return 0


def wrapped(text: str, indent: str = "") -> str:
    """``text`` wrapped at the terminal's width between words (never inside one)."""
    import shutil
    import textwrap

    width = max(40, shutil.get_terminal_size().columns - 1)
    return "\n".join(textwrap.fill(para, width, initial_indent=indent, subsequent_indent=indent,
                                   break_long_words=False, break_on_hyphens=False)
                     for para in text.splitlines() if para.strip())


def print_status(status: AiStatus) -> None:
    if not status.configured:
        message = status.message.strip()
        # The message names the problem itself ("AI is not configured: …"); no second heading.
        print(wrapped(message) if message else "AI: not configured")
    else:
        reach = {True: "yes", False: "NO", None: "not checked"}[status.reachable]
        print(f"provider:  {status.provider}")
        print(f"model:     {status.model}")
        print(f"endpoint:  {status.endpoint}")
        print(f"reachable: {reach}")
        print(f"tools:     {', '.join(status.tools_enabled) or 'none (plain chat)'}")
        for key, value in status.limits.items():
            print(f"{key}: {value}")
    if status.sandbox:
        print(wrapped(f"sandbox:   {status.sandbox}"))
    for note in status.notes:
        print(wrapped(one_line(note)))


def print_stats(stats: AiStats) -> None:

    print(f"turns: {stats.turns}  iterations: {stats.iterations}  "
          f"max depth: {stats.max_iteration_depth}")
    print(f"tokens: {stats.input_tokens} in / {stats.output_tokens} out")
    if not stats.tools:
        print("no tool calls yet")
    for name, tool in sorted(stats.tools.items()):
        mean = tool.total_ms / tool.calls if tool.calls else 0.0
        print(f"  {one_line(name):<16} {counted(tool.calls, 'call')}, {tool.successes} ok, "
              f"{tool.failures} failed, {mean:.0f} ms avg")
