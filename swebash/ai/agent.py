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
import dataclasses
import json
import time
from collections.abc import AsyncGenerator, Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Literal

from swebash.ai.conversation import Conversation
from swebash.ai.metrics import Metrics
from swebash.api import (
    AiEvent,
    ConfirmAnswer,
    ConfirmHook,
    ConfirmRequest,
    Delta,
    Done,
    Error,
    JsonObject,
    JsonValue,
    Notice,
    Retrying,
    ToolArgsStreaming,
    ToolCallEnd,
    ToolCallStart,
    ToolExecuting,
    Usage,
    Verdict,
)
from swebash.config import ToolConfig
from swebash.errors import InvalidArguments, SwebashError, ToolError, ToolNotFound
from swebash.providers.base import (
    AssistantMessage,
    Message,
    Provider,
    TextDelta,
    ToolArgsProgress,
    ToolCall,
    ToolResultMessage,
    TurnEnd,
    UserMessage,
)
from swebash.safety.audit import AuditLog
from swebash.safety.base import Redactor, RuleWriter, SafetyGate
from swebash.safety.boundary import PERSON_ONLY
from swebash.safety.paths import within
from swebash.tools.base import ToolContext, ToolExecutor
from swebash.tools.registry import ToolRegistry
from swebash.tools.schema import parse_arguments, validate

NO_HOOK = ("this call needs the user's confirmation, which is not available in non-interactive "
           "mode (the user can rerun with --yes)")
# Ctrl-C or Esc at a y/N: nothing more runs and no further request is made; the model reads
# these notes with the next question.
STOPPED_HERE = ("the user stopped the turn at this confirmation (Ctrl-C or Esc): not run, and "
                "nothing after it was run")
STOPPED_BEFORE = "not run: the user stopped the turn at an earlier confirmation"
STOP_NOTE = "[the user stopped this turn at a confirmation; nothing further was run]"
INTERRUPTED = "interrupted by the user (Ctrl-C) while it ran; the command was killed"


def error_result(kind: str, message: str) -> str:
    return json.dumps({"error": True, "type": kind, "message": message})


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


@dataclass
class _Prepared:
    call: ToolCall
    tool: ToolExecutor | None = None
    args: JsonObject = field(default_factory=dict)
    verdict: Verdict = field(default_factory=lambda: Verdict("allow"))
    approved_by: str = "auto"
    result: str | None = None  # set when the call will not run
    ok: bool = False
    summary: str = ""
    duration_ms: float = 0.0
    exit_code: int | None = None
    truncated: bool = False
    blocked: str | None = None  # what the sandbox stopped, when that made the call fail
    refused_writes: tuple[str, ...] | None = None  # ... when refused writes are all of it
    notice: str | None = None  # a line for the user, e.g. the rule the `a` key saved
    stopped: bool = False  # Ctrl-C / Esc at this call's question: the turn ends


def call_key(name: str, args: Mapping[str, JsonValue]) -> str:
    return name + "\x00" + json.dumps(args, sort_keys=True)


async def run_turn(agent: Agent, conversation: Conversation, user: UserMessage, system: str,
                   make_context: Callable[[], ToolContext], confirm: ConfirmHook | None
                   ) -> AsyncGenerator[AiEvent, None]:
    """Answer one user message, yielding events; commits the exchange to ``conversation``."""
    exchange: list[Message] = [user]
    agent.metrics.turns += 1
    closing_note = ""
    shown: list[str] = []
    try:
        for iteration in range(1, agent.config.max_iterations + 1):
            agent.metrics.iterations += 1
            agent.metrics.depth(iteration)
            end: TurnEnd | None = None
            shown = []  # this iteration's text as the user saw it, kept if they interrupt
            tools = agent.registry.definitions()  # per request: MCP schemas may be loaded
            stream = agent.provider.stream(system, conversation.messages() + exchange, tools)
            async with contextlib.aclosing(stream):  # closed now, even if our consumer stops
                async for turn_event in stream:
                    if isinstance(turn_event, TextDelta):
                        shown.append(turn_event.text)
                        yield Delta(turn_event.text)
                    elif isinstance(turn_event, Retrying):
                        yield turn_event
                    elif isinstance(turn_event, ToolArgsProgress):
                        yield ToolArgsStreaming(turn_event.name, turn_event.size)
                    elif isinstance(turn_event, TurnEnd):
                        end = turn_event
            if end is None:
                raise SwebashError("the provider ended the turn without a result")
            agent.metrics.input_tokens += end.input_tokens
            agent.metrics.output_tokens += end.output_tokens
            yield Usage(end.input_tokens, end.output_tokens)
            if not end.tool_calls:
                exchange.append(AssistantMessage(end.text))
                conversation.add_exchange(exchange)
                yield Done(end.text)
                return
            if iteration == agent.config.max_iterations:
                note = (f"Stopped after {iteration} tool iterations (SWEBASH_AI_TOOLS_MAX_ITER="
                        f"{agent.config.max_iterations}). Ask me to continue if needed.")
                exchange.append(AssistantMessage(end.text, end.tool_calls))
                exchange.extend(ToolResultMessage(c.id, c.name, error_result(
                    "LimitReached", "not run: the tool iteration limit was reached"), True)
                    for c in end.tool_calls)
                exchange.append(AssistantMessage(note))
                conversation.add_exchange(exchange)
                yield Delta(("\n\n" if end.text else "") + note)
                yield Done((end.text + "\n\n" if end.text else "") + note)
                return
            prepared: list[_Prepared] = []
            ctx = make_context()  # one snapshot of cwd and environment per iteration
            async for event in _prepare_calls(agent, end.tool_calls, ctx, confirm, prepared):
                yield event
            runnable = [p for p in prepared if p.result is None]
            announced: set[int] = set()  # calls whose ToolCallEnd was sent as soon as known
            for p in prepared:
                if p.result is not None:  # refused, declined, invalid: final already
                    announced.add(id(p))
                    yield _end_event(p)
            for p in runnable:
                yield ToolExecuting(p.call.name, p.call.id)
            started = time.monotonic()
            try:
                # Each result is shown as its call finishes: a slow one holds back no other.
                async with contextlib.aclosing(_as_completed(agent, runnable, ctx)) as done:
                    async for p in done:
                        if p.blocked is None:  # a blocked one may run again outside
                            announced.add(id(p))
                            yield _end_event(p)
            except asyncio.CancelledError:
                ctx.cancel.set()
                for p in runnable:  # interrupted runs are audited too, with their outcome
                    if p.result is None:
                        p.duration_ms = (time.monotonic() - started) * 1000
                        _audit(agent, p, outcome="interrupted")
                        p.result = error_result("Interrupted", INTERRUPTED)
                # the conversation keeps the calls and which were cut, not just "interrupted"
                exchange.append(AssistantMessage(end.text, end.tool_calls))
                exchange.extend(_result_message(p) for p in prepared)
                shown = []
                raise
            async for event in _offer_rerun(agent, runnable, ctx, confirm):
                yield event
            results: list[Message] = []
            for p in prepared:
                result = _result_message(p)
                results.append(result)
                agent.metrics.tool_call(p.call.name, p.ok, p.duration_ms)
                _audit(agent, p)
                if id(p) not in announced:
                    yield _end_event(p)
            exchange.append(AssistantMessage(end.text, end.tool_calls))
            exchange.extend(results)
            if any(p.stopped for p in prepared):  # Ctrl-C / Esc at a y/N: the turn ends here
                exchange.append(AssistantMessage(STOP_NOTE))
                conversation.add_exchange(exchange)
                yield Done("")
                return
            finished = next((p for p in prepared if p.call.name == "task_complete" and p.ok),
                            None)
            if finished is not None:
                summary = str(finished.args.get("summary", ""))
                exchange.append(AssistantMessage(summary))
                conversation.add_exchange(exchange)
                if summary:
                    yield Delta(("\n\n" if end.text else "") + summary)
                yield Done(summary)
                return
    except asyncio.CancelledError:
        # The model learns what the user already read, not just that something was cut.
        partial = "".join(shown).rstrip()
        closing_note = (f"{partial}\n\n[interrupted by the user at this point]" if partial
                        else "[the user interrupted this answer]")
        raise
    except SwebashError as exc:
        # A cut stream keeps what the user already read, as Ctrl-C does, marked as cut.
        partial = "".join(shown).rstrip()
        closing_note = (f"{partial}\n\n[this answer was cut off here: {exc}]" if partial
                        else f"[this answer failed: {exc}]")
        yield Error(str(exc), exit_status=exc.exit_status)
    finally:
        if closing_note:
            _close_early(conversation, exchange, closing_note)


def _result_message(p: _Prepared) -> ToolResultMessage:
    content = p.result if p.result is not None else error_result("ExecutionFailed", "no result")
    return ToolResultMessage(p.call.id, p.call.name, content, not p.ok)


def _close_early(conversation: Conversation, exchange: list[Message], note: str) -> None:
    """Keep what completed (whole call/result units) and end with a note."""
    while exchange and isinstance(exchange[-1], AssistantMessage) and exchange[-1].tool_calls:
        exchange.pop()  # an assistant turn whose results never came
    exchange.append(AssistantMessage(note))
    conversation.add_exchange(exchange)


async def _prepare_calls(agent: Agent, calls: tuple[ToolCall, ...],
                         ctx: ToolContext, confirm: ConfirmHook | None,
                         prepared: list[_Prepared]) -> AsyncGenerator[AiEvent, None]:
    limit = agent.config.max_tool_calls_per_turn
    for index, call in enumerate(calls):
        p = _Prepared(call)
        prepared.append(p)
        tool = agent.registry.get(call.name)
        try:
            raw = parse_arguments(call.arguments)
        except InvalidArguments as exc:
            raw = {}
            p.result = error_result(exc.kind, str(exc))
        yield ToolCallStart(call.name, raw, tool.describe_call(raw) if tool else call.name,
                            call.id)
        if p.result is not None:
            continue
        if any(q.stopped for q in prepared):  # stopped at an earlier question: not asked
            p.result, p.approved_by = error_result("UserStopped", STOPPED_BEFORE), "stopped"
            continue
        if index >= limit:
            p.result = error_result("LimitReached", f"not run: at most {limit} tool calls per "
                                    "turn (SWEBASH_AI_TOOLS_MAX_CALLS)")
            continue
        if tool is None:
            known = ", ".join(agent.registry.names()) or "none"
            p.result = error_result(ToolNotFound.kind,
                                    f"unknown tool '{call.name}' (available: {known})")
            continue
        p.tool = tool
        try:
            p.args = validate(tool.definition().parameters, raw)
        except InvalidArguments as exc:
            p.result = error_result(exc.kind, str(exc))
            continue
        await _decide(agent, p, ctx, confirm)
        if p.notice:
            yield Notice(p.notice)
    if any(p.stopped for p in prepared):  # calls approved before the stop do not run either
        for p in prepared:
            if p.result is None:
                p.result, p.approved_by = error_result("UserStopped", STOPPED_BEFORE), "stopped"


async def _decide(agent: Agent, p: _Prepared, ctx: ToolContext,
                  confirm: ConfirmHook | None) -> None:
    assert p.tool is not None
    subject = p.tool.gate_subject(p.args)
    if subject.kind == "command":
        p.verdict = agent.gate.check_command(subject.value, ctx.cwd)
    elif subject.kind in ("read_path", "write_path"):
        p.verdict = agent.gate.check_path(subject.value, ctx.cwd,
                                          write=subject.kind == "write_path")
    if p.verdict.decision == "deny":
        reasons = "; ".join(p.verdict.reasons) or "denied by the safety policy"
        p.result = error_result("PermissionDenied", reasons)
        p.approved_by = "refused"
        return
    must_ask = (p.verdict.decision == "ask" or subject.kind == "write_path"
                # an untrusted MCP server's tools ask for every call (built-ins ask per verdict)
                or (p.tool.category == "mcp" and p.tool.requires_confirmation(p.args)))
    if not must_ask:
        return
    # a dangerous call, or one only a person may approve, is asked every time
    liftable = not (p.verdict.dangerous or p.verdict.needs_person)
    if not agent.config.require_confirmation and liftable:
        p.approved_by = "config"
        return
    key = call_key(p.call.name, p.args)
    if key in agent.session_rules and liftable:
        p.approved_by = "session-rule"
        return
    try:
        preview = p.tool.preview(p.args, ctx)
    except ToolError as exc:  # the call cannot succeed (edit_file's old_text does not match):
        p.result = error_result(exc.kind, str(exc))  # say so instead of asking y/N first
        p.approved_by = "refused"
        return
    why = "; ".join(dict.fromkeys(p.verdict.reasons))
    if confirm is None:  # say why the gate asks, so a refusal in a pipe is understood
        hint = PERSON_ONLY if p.verdict.needs_person else NO_HOOK
        p.result = error_result("ConfirmationRequired", f"{why} — {hint}" if why else hint)
        p.approved_by = "refused"
        return
    request = ConfirmRequest(
        tool=p.call.name, description=p.tool.describe_call(p.args), verdict=p.verdict,
        command=subject.value if subject.kind == "command" else None,
        preview=preview, path=subject.value if "path" in subject.kind else None)
    answer = await confirm(request)
    if answer is ConfirmAnswer.STOP:
        p.result, p.approved_by, p.stopped = error_result("UserStopped", STOPPED_HERE), \
            "stopped", True
        return
    if answer is ConfirmAnswer.NO:
        p.result = error_result("UserDeclined", f"not approved: {why} — {PERSON_ONLY}"
                                if p.verdict.needs_person else "the user declined to run this")
        p.approved_by = "declined"
        return
    if answer is ConfirmAnswer.ALWAYS and liftable:
        agent.session_rules.add(key)
    if answer in (ConfirmAnswer.PROJECT, ConfirmAnswer.FOREVER) and liftable:
        agent.session_rules.add(key)
        if subject.kind == "command" and isinstance(agent.gate, RuleWriter):
            scope: Literal["project", "always"] = (
                "project" if answer is ConfirmAnswer.PROJECT else "always")
            p.notice = agent.gate.approve(subject.value, scope, ctx.cwd)
            p.approved_by = f"user; {p.notice}"
            return
    p.approved_by = "user"


async def _execute(agent: Agent, p: _Prepared, ctx: ToolContext) -> None:
    assert p.tool is not None
    started = time.monotonic()
    try:
        output = await p.tool.execute(p.args, ctx)
        p.result = agent.redactor.redact(output.content)
        p.ok = True  # a command that exits non-zero still worked as a tool: exit_code says it
        p.summary = output.summary
        p.exit_code = output.exit_code
        p.truncated = output.truncated
        p.blocked = output.sandbox_blocked
        p.refused_writes = output.sandbox_writes
    except ToolError as exc:
        p.result = error_result(exc.kind, agent.redactor.redact(str(exc)))
        p.summary = str(exc)
    except Exception as exc:  # a tool bug must not end the turn
        p.result = error_result("ExecutionFailed", f"{type(exc).__name__}: {exc}")
        p.summary = f"internal error: {type(exc).__name__}"
    p.duration_ms = (time.monotonic() - started) * 1000


def _end_event(p: _Prepared) -> ToolCallEnd:
    return ToolCallEnd(p.call.name, _result_message(p).content, p.ok, p.duration_ms, p.call.id,
                       p.summary)


async def _as_completed(agent: Agent, runnable: list[_Prepared], ctx: ToolContext
                        ) -> AsyncGenerator[_Prepared, None]:
    """Run the calls concurrently and yield each as it finishes (in call order when several
    finish together). Cancelled or closed early, it cancels the calls and waits for them."""
    tasks = {asyncio.ensure_future(_execute(agent, p, ctx)): p for p in runnable}
    try:
        pending = set(tasks)
        while pending:
            finished, pending = await asyncio.wait(pending, return_when=asyncio.FIRST_COMPLETED)
            for task in sorted(finished, key=lambda t: runnable.index(tasks[t])):
                task.result()
                yield tasks[task]
    finally:
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)


async def _offer_rerun(agent: Agent, runnable: list[_Prepared], ctx: ToolContext,
                       confirm: ConfirmHook | None) -> AsyncGenerator[AiEvent, None]:
    """A call the sandbox stopped: ask once, in call order, whether to run it again outside
    (y/N only — never remembered, whatever the answer); the model reads what happened."""
    for p in runnable:
        if p.blocked is None or p.tool is None or ctx.sandbox is None or \
                _result_field(p.result, "sandbox_rerun") is False:
            continue  # (not when a person already refused what the command needed)
        subject = p.tool.gate_subject(p.args)
        answer = ConfirmAnswer.NO
        if confirm is not None:
            answer = await confirm(ConfirmRequest(
                tool=p.call.name, description=p.tool.describe_call(p.args), verdict=p.verdict,
                command=subject.value if subject.kind == "command" else None,
                kind="sandbox_retry", blocked=p.blocked,
                approved=approval_covers(p, ctx.sandbox.writable_roots(ctx.cwd))))
        if answer is ConfirmAnswer.STOP:  # Ctrl-C / Esc: nothing more, the turn ends
            p.stopped = True
            p.result = _with_note(p.result, "the sandbox stopped this, and the user then "
                                  "stopped the turn (Ctrl-C or Esc); it was not run again")
            return
        if answer is ConfirmAnswer.NO:
            p.result = _with_note(p.result, "the sandbox stopped this; it was not run again "
                                  "outside the sandbox (the user declined, or nobody could be "
                                  "asked). Do not try to work around the sandbox.")
            continue
        yield ToolExecuting(p.call.name, p.call.id)
        await _execute(agent, p, dataclasses.replace(ctx, sandbox=ctx.sandbox.outside()))
        p.approved_by = "user-unsandboxed"
        p.summary += " · rerun outside the sandbox"
        p.result = _with_note(p.result, "the sandbox stopped the first run; the user approved "
                              "running it again outside the sandbox, and this is that result")


# The sandbox's side of the match is structured (Sandbox.refused_writes: paths); the gate's is
# still its words, as Verdict carries no structured "writes outside" (safety/paths.py would give
# it one, e.g. the paths asked about, and this prefix test would go).
WRITE_OUTSIDE_ASKED = "writes outside the working directory"  # the gate's reason (paths.py)


def approval_covers(p: _Prepared, writable: Sequence[str]) -> bool:
    """One question per action: the user said y to exactly this call when the gate named its
    write outside the tree, and what the sandbox stopped is only writes outside the tree
    (``writable``: its roots) — not a protected place inside it, a socket or a domain."""
    return (p.approved_by == "user" and bool(p.refused_writes)
            and all(not any(within(path, root) for root in writable)
                    for path in p.refused_writes or ())
            and any(r.startswith(WRITE_OUTSIDE_ASKED) for r in p.verdict.reasons))


def _result_field(content: str | None, name: str) -> object:
    try:
        data = json.loads(content or "")
    except ValueError:
        return None
    return data.get(name) if isinstance(data, dict) else None


def _with_note(content: str | None, note: str) -> str:
    try:
        data = json.loads(content or "")
    except ValueError:
        data = None
    if isinstance(data, dict):
        data["sandbox_note"] = note
        return json.dumps(data)
    return f"{content or ''}\n[{note}]"


def _audit(agent: Agent, p: _Prepared, outcome: str | None = None) -> None:
    if agent.audit is None:
        return
    if outcome is None:
        outcome = "ok" if p.ok else ("not run" if p.approved_by in ("refused", "declined",
                                                                    "stopped") else "failed")
    agent.audit.record(tool=p.call.name, arguments=p.args or p.call.arguments,
                       decision=p.verdict.decision, dangerous=p.verdict.dangerous,
                       approved_by=p.approved_by, ok=p.ok and outcome == "ok",
                       outcome=outcome, exit_code=p.exit_code,
                       duration_ms=round(p.duration_ms), truncated=p.truncated)
