"""DefaultAiService: the one implementation of ``swebash.api.AiService``.

Built from injected parts (provider factory, tool registry, safety gate, redactor, terminal
context, audit log). The provider — and so its SDK — is created on first use, or ahead of time
by ``warm()`` from a background thread. With every tool category disabled this is a plain chat
engine: requests carry no tools, so the model answers in plain text.

Each question's system prompt is the base prompt, the MCP note or tool index, and the project
instructions (AGENTS.md, read afresh). Before the first question that needs them the MCP
servers are started (their spawn overlaps the provider SDK import); a conversation grown past
its compaction threshold is summarised first. The conversation given in may be a
``RecordedConversation``, which stores every exchange as it commits.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import socket
import threading
from collections.abc import AsyncGenerator, Callable
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING
from urllib.parse import urlsplit

from swebash.ai.agent import Agent, Turn
from swebash.ai.context import terminal_context_text
from swebash.ai.conversation import Conversation
from swebash.ai.metrics import Metrics
from swebash.ai.prompts import (
    autocomplete_system_prompt,
    chat_system_prompt,
    explain_system_prompt,
    parse_completions,
    parse_translation,
    translate_system_prompt,
)
from swebash.api import (
    AiEvent,
    AiStats,
    AiStatus,
    AutocompleteResponse,
    ChatRequest,
    ChatResponse,
    ConfirmHook,
    Done,
    Error,
    ExplainResponse,
    Notice,
    TerminalContext,
    TranslateResponse,
)
from swebash.config import AiConfig
from swebash.errors import AiError, AiNotConfigured, SwebashError
from swebash.providers.base import Provider, TextDelta, TurnEnd, UserMessage, Warmable
from swebash.safety.audit import AuditLog
from swebash.safety.base import LearnsSecrets, Redactor, RuleWriter, SafetyGate
from swebash.safety.boundary import HasFileBoundary
from swebash.safety.sandbox import ManagedSandbox
from swebash.tools.base import ToolContext
from swebash.tools.registry import ToolRegistry

if TYPE_CHECKING:
    from swebash.ai.instructions import Instructions
    from swebash.tools.mcp import McpManager

STDIN_LIMIT = 64 * 1024


class DefaultAiService:
    def __init__(self, *, config: AiConfig, provider_factory: Callable[[AiConfig], Provider],
                 registry: ToolRegistry, gate: SafetyGate, redactor: Redactor,
                 terminal: TerminalContext | None = None, audit: AuditLog | None = None,
                 conversation: Conversation | None = None, mcp: McpManager | None = None,
                 user_instructions: Path | None = None,
                 compact_after_bytes: int = 200_000,
                 sandbox: ManagedSandbox | None = None) -> None:
        self.config = config
        self._factory = provider_factory
        self._provider: Provider | None = None
        self._lock = threading.Lock()
        self.registry = registry
        self.gate = gate
        self.redactor = redactor
        self.terminal = terminal
        self.audit = audit
        self.conversation = conversation or Conversation()
        self.metrics = Metrics()
        self.session_rules: set[str] = set()
        self.mcp = mcp  # MCP servers: a tool source of the registry, started on the first ?
        self.user_instructions = user_instructions
        self.compact_after_bytes = compact_after_bytes
        self.sandbox = sandbox  # confines the commands the model runs; None: unconfined
        self._cut_said = ""  # the instructions-budget notice last given

    # ------------------------------------------------------------------ provider

    def provider(self) -> Provider:
        with self._lock:
            if self._provider is None:
                self._provider = self._factory(self.config)
            return self._provider

    def warm(self) -> None:
        """Create the provider and its SDK client now (call from a background thread)."""
        if self.mcp is not None:
            self.mcp.warm()  # the MCP SDK import (~0.5 s) off the first question's path
        if self.sandbox is not None:
            self.sandbox.warm()  # probe bubblewrap / Landlock, start the supervisor
        try:
            provider = self.provider()
        except SwebashError:
            return
        if isinstance(provider, Warmable):
            provider.warm()

    def set_model(self, name: str) -> None:
        self.config = replace(self.config, model=name)
        self._provider = None

    def set_provider(self, name: str) -> None:
        from swebash.providers.select import PROVIDERS

        if name not in PROVIDERS:
            raise AiError(f"unknown provider '{name}' (choose one of: {', '.join(PROVIDERS)})")
        self.config = replace(self.config, provider=name, model=None)
        self._provider = None

    # ------------------------------------------------------------------ context

    def cwd(self) -> str:
        return self.terminal.cwd() if self.terminal is not None else os.getcwd()

    def tool_context(self) -> ToolContext:
        env = dict(self.terminal.exported_env()) if self.terminal is not None else dict(
            os.environ)
        if isinstance(self.redactor, LearnsSecrets):  # what the command sees, it may print
            self.redactor.learn(env)
        files = self.gate.files if isinstance(self.gate, HasFileBoundary) else None
        # the sandbox also when it confines nothing: its supervisor still ends every command
        return ToolContext(cwd=self.cwd(), env=env, config=self.config.tools,
                           sandbox=self.sandbox, files=files)

    def sandbox_line(self) -> str:
        """``ai status``'s line: the backend and policy, or why commands run unconfined."""
        if self.sandbox is None:
            return "off: AI commands run unconfined"
        return self.sandbox.describe(self.cwd())

    def describe_context(self) -> str:
        """Exactly what the model would see of the terminal, after redaction."""
        text = terminal_context_text(self.terminal, self.redactor, self.config.context_commands)
        instructions = self.instructions()
        return (instructions.describe() + "\n\n"
                + self.system_prompt(text, instructions))

    def instructions(self) -> Instructions:
        """AGENTS.md files, read afresh for every question (edits apply at once)."""
        from swebash.ai.instructions import load_instructions

        return load_instructions(self.cwd(), self.user_instructions,
                                 self.config.instructions_budget, self.redactor)

    def system_prompt(self, context: str, instructions: Instructions | None = None) -> str:
        parts = [chat_system_prompt(self.registry.names(), self.cwd(), context)]
        if self.mcp is not None:
            parts.append(self.mcp.prompt_section())
        parts.append((instructions or self.instructions()).text)
        return "\n\n".join(p for p in parts if p)

    async def _prepare_platform(self, provider: Provider) -> None:
        """Before a question: MCP servers up (first time only), a long history compacted."""
        if self.mcp is not None:
            await self.mcp.ensure_started()
        from swebash.ai.sessions import RecordedConversation

        conversation = self.conversation
        if isinstance(conversation, RecordedConversation):
            from swebash.ai.compaction import compact, needs_compaction

            if needs_compaction(conversation, self.compact_after_bytes):
                with contextlib.suppress(SwebashError):  # trimming remains the fallback
                    await compact(provider, conversation)

    def _prepare_sandbox(self) -> None:
        """The model's first command will likely run here: have its sandbox built while the
        model thinks (bubblewrap; in the background, it costs the question nothing)."""
        if self.sandbox is None or "execute_command" not in self.registry.names():
            return
        env = dict(self.terminal.exported_env()) if self.terminal is not None else dict(
            os.environ)
        threading.Thread(target=self.sandbox.prepare, args=(self.cwd(), env),
                         name="swebash-sandbox-prepare", daemon=True).start()

    async def aclose(self) -> None:
        """Stop every MCP server process (on the loop they run on)."""
        if self.mcp is not None:
            await self.mcp.aclose()

    def close(self) -> None:
        """Stop every MCP server process; call from any thread but the AI loop's own."""
        if self.mcp is not None:
            self.mcp.close()

    def _agent(self, provider: Provider) -> Agent:
        return Agent(provider=provider, registry=self.registry, gate=self.gate,
                     redactor=self.redactor, config=self.config.tools, metrics=self.metrics,
                     audit=self.audit, session_rules=self.session_rules)

    # ------------------------------------------------------------------ AiService

    async def chat_stream(self, request: ChatRequest, confirm: ConfirmHook | None = None
                          ) -> AsyncGenerator[AiEvent, None]:
        try:
            if self.mcp is not None and self.mcp.start_idle():
                # servers spawn now; the provider's SDK import runs off the loop meanwhile
                provider = await asyncio.to_thread(self.provider)
            else:
                provider = self.provider()
        except SwebashError as exc:
            yield Error(str(exc), exit_status=exc.exit_status)
            return
        text = request.message
        if request.stdin_context:
            piped = request.stdin_context[-STDIN_LIMIT:]
            text = f"{text}\n\nInput piped to this question:\n```\n{piped}\n```"
        if self.terminal is not None and isinstance(self.redactor, LearnsSecrets):
            self.redactor.learn(self.terminal.exported_env())  # exported since the last turn
        user = UserMessage(self.redactor.redact(text))
        context = (terminal_context_text(self.terminal, self.redactor,
                                         self.config.context_commands)
                   if request.include_terminal_context else "")
        await self._prepare_platform(provider)
        self._prepare_sandbox()
        notice = (self.sandbox.notice() if self.sandbox is not None
                  and "execute_command" in self.registry.names() else None)
        if notice:  # said once per session, where the sandbox should be but cannot
            yield Notice(notice)
        if self.sandbox is not None:  # the proxy asks about new domains the same way
            self.sandbox.set_confirm(confirm, asyncio.get_running_loop())
        instructions = self.instructions()
        cut = instructions.cut_notice()
        if cut and cut != self._cut_said:  # once, not at every question, until it changes
            yield Notice(cut)
        self._cut_said = cut
        system = self.system_prompt(context, instructions)
        turn = Turn(self._agent(provider), self.conversation, user, system,
                    self.tool_context, confirm).run()
        async with contextlib.aclosing(turn):
            async for event in turn:
                yield event

    async def chat(self, request: ChatRequest, confirm: ConfirmHook | None = None
                   ) -> ChatResponse:
        events: list[AiEvent] = []
        reply = ""
        async for event in self.chat_stream(request, confirm):
            events.append(event)
            if isinstance(event, Error):
                raise AiError(event.message)
            if isinstance(event, Done):
                reply = event.reply
        return ChatResponse(reply=reply, events=tuple(events))

    async def _complete(self, system: str, prompt: str, max_tokens: int) -> str:
        """One tool-less turn outside the conversation memory."""
        provider = self.provider()
        text: list[str] = []
        stream = provider.stream(system, [UserMessage(self.redactor.redact(prompt))], [],
                                 max_tokens=max_tokens)
        async with contextlib.aclosing(stream):
            async for event in stream:
                if isinstance(event, TextDelta):
                    text.append(event.text)
                elif isinstance(event, TurnEnd):
                    self.metrics.input_tokens += event.input_tokens
                    self.metrics.output_tokens += event.output_tokens
        return "".join(text)

    async def translate(self, request: str) -> TranslateResponse:
        reply = await self._complete(translate_system_prompt(self.cwd()), request, 1024)
        command, explanation = parse_translation(reply)
        return TranslateResponse(command=command, explanation=explanation)

    async def explain(self, command: str) -> ExplainResponse:
        reply = await self._complete(explain_system_prompt(), f"Explain: {command}", 800)
        if not reply.strip():
            raise AiError("the model returned an empty explanation")
        return ExplainResponse(explanation=reply.strip())

    async def autocomplete(self, partial: str, limit: int = 3) -> AutocompleteResponse:
        reply = await self._complete(autocomplete_system_prompt(self.cwd(), limit), partial, 120)
        return AutocompleteResponse(suggestions=parse_completions(reply, partial, limit))

    async def is_available(self) -> bool:
        try:
            self.provider()
        except SwebashError:
            return False
        return True

    async def status(self, check_reachable: bool = False) -> AiStatus:
        tools = tuple(self.registry.names())
        limits = {"max_iterations": self.config.tools.max_iterations,
                  "max_tool_calls_per_turn": self.config.tools.max_tool_calls_per_turn,
                  "exec_timeout_s": self.config.tools.exec_timeout,
                  "fs_max_size": self.config.tools.fs_max_size}
        try:
            provider = self.provider()
        except AiNotConfigured as exc:
            return AiStatus(False, None, None, None, None, tools, limits, message=str(exc),
                            sandbox=self.sandbox_line(), notes=self.status_notes())
        except SwebashError as exc:
            return AiStatus(False, self.config.provider, self.config.model, None, None, tools,
                            limits, message=str(exc), sandbox=self.sandbox_line(),
                            notes=self.status_notes())
        reachable = None
        if check_reachable:
            reachable = await asyncio.to_thread(endpoint_reachable, provider.info.endpoint)
        return AiStatus(True, provider.info.name, provider.info.model, provider.info.endpoint,
                        reachable, tools, limits, sandbox=self.sandbox_line(),
                        notes=self.status_notes())

    def status_notes(self) -> tuple[str, ...]:
        """Refused or broken rules.toml rules, then the MCP servers' states."""
        rules = self.gate.notes() if isinstance(self.gate, RuleWriter) else ()
        return (*rules, *(self.mcp.notes() if self.mcp is not None else ()))

    def stats(self) -> AiStats:
        return self.metrics.snapshot()

    def reset(self) -> None:
        self.conversation.reset()
        self.session_rules.clear()


def endpoint_reachable(url: str, timeout: float = 2.0) -> bool:
    try:
        parts = urlsplit(url)
        port = parts.port or (443 if parts.scheme == "https" else 80)  # ValueError: bad port
        with socket.create_connection((parts.hostname or "localhost", port), timeout=timeout):
            return True
    except (OSError, ValueError, OverflowError):
        return False
