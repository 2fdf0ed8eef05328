"""The consumer-facing API: value types and Protocols, no behaviour.

Everything that crosses a layer boundary is defined here, so the REPL, the renderer, the agent
loop and the tools agree on shapes without importing one another:

* ``CommandRecord`` / ``TerminalContext``: what the shell session remembers of each command,
  read by the AI to answer ``? why did that fail``.
* ``Verdict``: the safety gate's decision about one tool call.
* ``ConfirmRequest`` / ``ConfirmAnswer`` / ``ConfirmHook``: how the engine asks the UI for y/N.
* ``AiEvent``: the streamed events of one AI turn (text deltas, tool start/run/end, done,
  error, retrying, usage).
* ``AiService``: the one interface the UI uses to talk to the AI half.
"""

from __future__ import annotations

import enum
import json
from collections.abc import AsyncGenerator, Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Literal, Protocol

# --------------------------------------------------------------------------- terminal context


@dataclass(frozen=True)
class CommandRecord:
    """One command the user ran in the shell session."""

    command: str
    cwd: str
    exit_status: int
    started_at: float  # time.time() when the command was sent to bash
    duration_ms: float
    output_tail: str  # ANSI stripped, bounded (lines and bytes); "" for full-screen programs
    truncated: bool = False  # True when output_tail lost lines from its head
    fullscreen: bool = False  # the program used the alternate screen


class TerminalContext(Protocol):
    """Read-only view of the shell session, for the AI."""

    def recent_commands(self, limit: int) -> Sequence[CommandRecord]:
        """The last ``limit`` recorded commands, oldest first."""
        ...

    def cwd(self) -> str:
        """The session's current working directory."""
        ...

    def exported_env(self) -> Mapping[str, str]:
        """The session's exported environment (for tools that run commands)."""
        ...


# --------------------------------------------------------------------------- safety

Decision = Literal["allow", "ask", "deny"]


@dataclass(frozen=True)
class Verdict:
    """The safety gate's judgement of one command or path."""

    decision: Decision
    dangerous: bool = False
    reasons: tuple[str, ...] = ()
    # only a person at the terminal may approve it (a file-tool write past the sandbox's write
    # boundary): --yes / --yes-dangerous never do, nor tools.confirm = false or a session rule
    needs_person: bool = False
    # the real paths outside the working tree this verdict asks to write: a person's y covers
    # writing exactly these (and below them) when the sandbox then stops the command there
    writes_outside: tuple[str, ...] = ()
    # dangerous only because the classifier does not know a program, option or sub-command in
    # it: --yes never runs it, but a person may approve it for good (a rule vouches for it)
    unknown: bool = False

    def to_json(self) -> dict[str, object]:
        found: dict[str, object] = {"decision": self.decision, "dangerous": self.dangerous,
                                    "reasons": list(self.reasons)}
        if self.needs_person:
            found["needs_person"] = True
        if self.unknown:
            found["unknown"] = True
        return found


# --------------------------------------------------------------------------- tools

# What JSON can hold: tool arguments, schemas and results are JSON values; narrowing them to
# str/int/... happens once, where a tool reads an argument (tools/schema.py's getters).
JsonValue = str | int | float | bool | None | list["JsonValue"] | dict[str, "JsonValue"]
JsonObject = dict[str, JsonValue]


@dataclass(frozen=True)
class ToolSchema:
    """A tool as the model sees it: providers turn it into their wire format, nothing more."""

    name: str
    description: str
    parameters: JsonObject  # JSON Schema of the arguments object


# --------------------------------------------------------------------------- confirmation


class ConfirmAnswer(enum.Enum):
    YES = "yes"  # run this once
    NO = "no"  # decline; the model is told "user declined"
    ALWAYS = "always"  # allow this exact call for the rest of the session (never if dangerous)
    PROJECT = "project"  # allow it from now on in this project (writes a rule to rules.toml)
    FOREVER = "forever"  # allow it from now on everywhere (writes a rule to rules.toml)
    STOP = "stop"  # Ctrl-C / Esc: not run, and the turn ends here (no further request)
    # --yes without --yes-dangerous met a dangerous call: not run; the model and the user are
    # told why (no person declined anything)
    NOT_DANGEROUS = "not-dangerous"


@dataclass(frozen=True)
class ConfirmRequest:
    tool: str
    description: str  # describe_call(): "$ rm -rf build/", "write src/app.py (12 lines)"
    verdict: Verdict
    command: str | None = None  # the shell command, for execute_command
    preview: str | None = None  # a unified diff or the new file's head, for write/edit tools
    path: str | None = None
    # "run": may this call run? "sandbox_retry": the sandbox stopped it — run it again outside?
    # "network": a sandboxed command wants a domain the allow-list does not name
    kind: Literal["run", "sandbox_retry", "network"] = "run"
    blocked: str | None = None  # for sandbox_retry: what the sandbox stopped, one line
    # for sandbox_retry: the user already approved what was blocked (a write outside the
    # tree they said y to) — one question per action, so the UI reruns without asking
    approved: bool = False
    domain: str | None = None  # for network: the host name asked about


ConfirmHook = Callable[[ConfirmRequest], Awaitable[ConfirmAnswer]]


# --------------------------------------------------------------------------- events


@dataclass(frozen=True)
class Delta:
    text: str


@dataclass(frozen=True)
class ToolCallStart:
    name: str
    arguments: Mapping[str, object]
    description: str = ""  # describe_call(), for panels
    call_id: str = ""


@dataclass(frozen=True)
class ToolArgsStreaming:
    """A tool call's arguments are still arriving (a large write_file): ``size`` chars so far."""

    name: str
    size: int


@dataclass(frozen=True)
class ToolExecuting:
    name: str
    call_id: str = ""


@dataclass(frozen=True)
class ToolCallEnd:
    name: str
    result: str  # what the model sees (JSON text)
    ok: bool
    duration_ms: float
    call_id: str = ""
    summary: str = ""  # one line for people: "exit 0 · 12 lines", "declined by user"


# The result of a tool call cut by Ctrl-C while it ran: the engine records it, and the UI draws the
# same for the calls it saw running when the turn was cancelled.
INTERRUPTED = "interrupted by the user (Ctrl-C) while it ran; the command was killed"


def error_result(kind: str, message: str) -> str:
    """A tool result that is an error, as the model reads it and the panels show it."""
    return json.dumps({"error": True, "type": kind, "message": message})


@dataclass(frozen=True)
class Done:
    reply: str


@dataclass(frozen=True)
class Error:
    message: str
    exit_status: int = 1  # what a non-interactive run exits with: 2 when AI is not configured


@dataclass(frozen=True)
class Notice:
    """A one-line remark about the turn that is not part of the answer ("the sandbox is not
    available here", "saved an allow rule for `make test` in rules.toml")."""

    text: str


@dataclass(frozen=True)
class Retrying:
    attempt: int
    delay: float
    reason: str = ""


@dataclass(frozen=True)
class Usage:
    input_tokens: int
    output_tokens: int


AiEvent = (Delta | ToolCallStart | ToolArgsStreaming | ToolExecuting | ToolCallEnd | Done | Error
           | Retrying | Usage | Notice)


# --------------------------------------------------------------------------- service


@dataclass(frozen=True)
class ChatRequest:
    message: str
    stdin_context: str | None = None  # piped input given alongside `-c '? q'`
    include_terminal_context: bool = True


@dataclass(frozen=True)
class ChatResponse:
    reply: str
    events: tuple[AiEvent, ...] = ()


@dataclass(frozen=True)
class TranslateResponse:
    command: str
    explanation: str


@dataclass(frozen=True)
class ExplainResponse:
    explanation: str


@dataclass(frozen=True)
class AutocompleteResponse:
    suggestions: tuple[str, ...]


@dataclass(frozen=True)
class AiStatus:
    configured: bool
    provider: str | None
    model: str | None
    endpoint: str | None
    reachable: bool | None  # None: not checked
    tools_enabled: tuple[str, ...]
    limits: Mapping[str, int | float] = field(default_factory=dict)
    message: str = ""  # when not configured: exactly how to configure
    sandbox: str = ""  # one line: the sandbox backend and policy, or why there is none
    notes: tuple[str, ...] = ()  # one line each: refused rules, MCP server states, ...


@dataclass(frozen=True)
class ToolStats:
    calls: int = 0
    successes: int = 0
    failures: int = 0
    total_ms: float = 0.0


@dataclass(frozen=True)
class AiStats:
    turns: int
    iterations: int
    max_iteration_depth: int
    input_tokens: int
    output_tokens: int
    tools: Mapping[str, ToolStats]


class AiService(Protocol):
    """What the UI may ask of the AI half; nothing in the UI reaches around it."""

    async def chat(self, request: ChatRequest, confirm: ConfirmHook | None = None
                   ) -> ChatResponse: ...

    def chat_stream(self, request: ChatRequest, confirm: ConfirmHook | None = None
                    ) -> AsyncGenerator[AiEvent, None]: ...

    async def translate(self, request: str) -> TranslateResponse: ...

    async def explain(self, command: str) -> ExplainResponse: ...

    async def autocomplete(self, partial: str, limit: int = 3) -> AutocompleteResponse: ...

    async def is_available(self) -> bool: ...

    async def status(self, check_reachable: bool = False) -> AiStatus: ...

    def stats(self) -> AiStats: ...

    def reset(self) -> None: ...

    def set_model(self, name: str) -> None:
        """Switch the model for the rest of the session."""

    def set_provider(self, name: str) -> None:
        """Switch the provider; raises a SwebashError naming the choices when unknown."""

    def describe_context(self) -> str:
        """Exactly what the model sees of the terminal, after redaction."""

    def warm(self) -> None:
        """Import the heavy parts (SDKs, rich) ahead of the first request; never raises."""
