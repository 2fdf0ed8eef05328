"""The tool loop (ask the model, gate and run its tool calls, feed results back) as an async
generator of events.

One turn: stream the model's answer; if it asked for tools, prepare each call in order (parse
and check the arguments, find the tool, ask the safety gate, ask the user when the gate says so
— one question at a time, in call order), run the approved calls concurrently, hand every
result back in the original order, and loop until a turn has no tool calls, ``task_complete``
is called, or the iteration limit is reached. Every failure becomes a tool result the model
reads (``{"error": true, "type": …, "message": …}``), never an exception.

Memory stays consistent whatever happens: the turn's messages are committed to the
conversation only as whole units (an assistant turn with ALL its results), and a turn that ends
early — provider error, Ctrl-C — is closed with a short assistant note, so the next question
is sent in a valid shape; what the user already read is kept in that note (a cut stream as an
interrupted one), and tool calls cut while running stay, with an "interrupted" result. Ctrl-C
or Esc at a y/N (``ConfirmAnswer.STOP``) ends the turn after that batch: nothing of it runs,
no further request is made, and the exchange ends with a note the model reads next time.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import AsyncGenerator, Callable
from dataclasses import dataclass, field

from swebash.ai.calls import (
    PreparedCall,
    audit_call,
    end_event,
    offer_rerun,
    prepare_calls,
    result_message,
    run_concurrently,
)
from swebash.ai.conversation import Conversation
from swebash.ai.metrics import Metrics
from swebash.api import (
    INTERRUPTED,
    AiEvent,
    ConfirmHook,
    Delta,
    Done,
    Error,
    Retrying,
    ToolArgsStreaming,
    ToolExecuting,
    Usage,
    error_result,
)
from swebash.config import ToolConfig
from swebash.errors import SwebashError
from swebash.providers.base import (
    AssistantMessage,
    Message,
    Provider,
    TextDelta,
    ToolArgsProgress,
    ToolResultMessage,
    TurnEnd,
    UserMessage,
)
from swebash.safety.audit import AuditLog
from swebash.safety.base import Redactor, SafetyGate
from swebash.tools.base import ToolContext
from swebash.tools.registry import ToolRegistry

STOP_NOTE = "[the user stopped this turn at a confirmation; nothing further was run]"


@dataclass
class Agent:
    provider: Provider
    registry: ToolRegistry
    gate: SafetyGate
    redactor: Redactor
    config: ToolConfig
    metrics: Metrics = field(default_factory=Metrics)
    audit: AuditLog | None = None
    session_rules: set[str] = field(default_factory=set)


class Turn:
    """Answer one user message: ``run()`` yields the events and commits the exchange to the
    conversation — whole, or closed early with a note."""

    def __init__(self, agent: Agent, conversation: Conversation, user: UserMessage,
                 system: str, make_context: Callable[[], ToolContext],
                 confirm: ConfirmHook | None) -> None:
        self.agent = agent
        self.conversation = conversation
        self.system = system
        self.make_context = make_context
        self.confirm = confirm
        self.exchange: list[Message] = [user]
        self.shown: list[str] = []  # this iteration's text as the user saw it
        self.end: TurnEnd | None = None

    async def run(self) -> AsyncGenerator[AiEvent, None]:
        agent = self.agent
        agent.metrics.turns += 1
        closing_note = ""
        try:
            for iteration in range(1, agent.config.max_iterations + 1):
                agent.metrics.iterations += 1
                agent.metrics.depth(iteration)
                async for event in self._model():
                    yield event
                end = self.end
                assert end is not None
                if not end.tool_calls:
                    self._commit(AssistantMessage(end.text))
                    yield Done(end.text)
                    return
                if iteration == agent.config.max_iterations:
                    async for event in self._limit_reached(end, iteration):
                        yield event
                    return
                prepared: list[PreparedCall] = []
                async for event in self._calls(end, prepared):
                    yield event
                if any(p.stopped for p in prepared):  # Ctrl-C / Esc at a y/N: ends here
                    self._commit(AssistantMessage(STOP_NOTE))
                    yield Done("")
                    return
                finished = next((p for p in prepared
                                 if p.call.name == "task_complete" and p.ok), None)
                if finished is not None:
                    summary = str(finished.args.get("summary", ""))
                    self._commit(AssistantMessage(summary))
                    if summary:
                        yield Delta(("\n\n" if end.text else "") + summary)
                    yield Done(summary)
                    return
        except asyncio.CancelledError:
            # The model learns what the user already read, not just that something was cut.
            partial = "".join(self.shown).rstrip()
            closing_note = (f"{partial}\n\n[interrupted by the user at this point]" if partial
                            else "[the user interrupted this answer]")
            raise
        except SwebashError as exc:
            # A cut stream keeps what the user already read, as Ctrl-C does, marked as cut.
            partial = "".join(self.shown).rstrip()
            closing_note = (f"{partial}\n\n[this answer was cut off here: {exc}]" if partial
                            else f"[this answer failed: {exc}]")
            yield Error(str(exc), exit_status=exc.exit_status)
        finally:
            if closing_note:
                self._close_early(closing_note)

    async def _model(self) -> AsyncGenerator[AiEvent, None]:
        """Stream one model request; ``self.end`` is its end."""
        agent = self.agent
        self.end, self.shown = None, []
        tools = agent.registry.definitions()  # per request: MCP schemas may have been loaded
        stream = agent.provider.stream(self.system,
                                       self.conversation.messages() + self.exchange, tools)
        async with contextlib.aclosing(stream):  # closed now, even if our consumer stops
            async for turn_event in stream:
                if isinstance(turn_event, TextDelta):
                    self.shown.append(turn_event.text)
                    yield Delta(turn_event.text)
                elif isinstance(turn_event, Retrying):
                    yield turn_event
                elif isinstance(turn_event, ToolArgsProgress):
                    yield ToolArgsStreaming(turn_event.name, turn_event.size)
                elif isinstance(turn_event, TurnEnd):
                    self.end = turn_event
        if self.end is None:
            raise SwebashError("the provider ended the turn without a result")
        agent.metrics.input_tokens += self.end.input_tokens
        agent.metrics.output_tokens += self.end.output_tokens
        yield Usage(self.end.input_tokens, self.end.output_tokens)

    async def _limit_reached(self, end: TurnEnd, iteration: int
                             ) -> AsyncGenerator[AiEvent, None]:
        limit = self.agent.config.max_iterations
        note = (f"Stopped after {iteration} tool iterations (SWEBASH_AI_TOOLS_MAX_ITER="
                f"{limit}). Ask me to continue if needed.")
        self.exchange.append(AssistantMessage(end.text, end.tool_calls))
        self.exchange.extend(ToolResultMessage(c.id, c.name, error_result(
            "LimitReached", "not run: the tool iteration limit was reached"), True)
            for c in end.tool_calls)
        self._commit(AssistantMessage(note))
        yield Delta(("\n\n" if end.text else "") + note)
        yield Done((end.text + "\n\n" if end.text else "") + note)

    async def _calls(self, end: TurnEnd, prepared: list[PreparedCall]
                     ) -> AsyncGenerator[AiEvent, None]:
        """Prepare, gate, ask about and run the calls of ``end``; each result reaches the UI
        as its call finishes; the exchange gets the assistant turn with ALL its results."""
        agent, confirm = self.agent, self.confirm
        ctx = self.make_context()  # one snapshot of cwd and environment per iteration
        async for event in prepare_calls(agent, end.tool_calls, ctx, confirm, prepared):
            yield event
        runnable = [p for p in prepared if p.result is None]
        announced: set[int] = set()  # calls whose ToolCallEnd was sent as soon as known
        for p in prepared:
            if p.result is not None:  # refused, declined, invalid: final already
                announced.add(id(p))
                yield end_event(p)
        for p in runnable:
            yield ToolExecuting(p.call.name, p.call.id)
        started = time.monotonic()
        try:
            # Each result is shown as its call finishes: a slow one holds back no other.
            async with contextlib.aclosing(run_concurrently(agent, runnable, ctx)) as done:
                async for p in done:
                    if p.blocked is None:  # a blocked one may run again outside
                        announced.add(id(p))
                        yield end_event(p)
        except asyncio.CancelledError:
            ctx.cancel.set()
            for p in runnable:  # interrupted runs are audited too, with their outcome
                if p.result is None:
                    p.duration_ms = (time.monotonic() - started) * 1000
                    audit_call(agent, p, outcome="interrupted")
                    p.result = error_result("Interrupted", INTERRUPTED)
            # the conversation keeps the calls and which were cut, not just "interrupted"
            self.exchange.append(AssistantMessage(end.text, end.tool_calls))
            self.exchange.extend(result_message(p) for p in prepared)
            self.shown = []
            raise
        async for event in offer_rerun(agent, runnable, ctx, confirm):
            yield event
        results: list[Message] = []
        for p in prepared:
            results.append(result_message(p))
            agent.metrics.tool_call(p.call.name, p.ok, p.duration_ms)
            audit_call(agent, p)
            if id(p) not in announced:
                yield end_event(p)
        self.exchange.append(AssistantMessage(end.text, end.tool_calls))
        self.exchange.extend(results)

    def _commit(self, last: AssistantMessage) -> None:
        self.exchange.append(last)
        self.conversation.add_exchange(self.exchange)

    def _close_early(self, note: str) -> None:
        """Keep what completed (whole call/result units) and end with a note."""
        exchange = self.exchange
        while exchange and isinstance(exchange[-1], AssistantMessage) and \
                exchange[-1].tool_calls:
            exchange.pop()  # an assistant turn whose results never came
        self._commit(AssistantMessage(note))
