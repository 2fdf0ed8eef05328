"""One model turn's tool calls, from the model's request to the result it reads.

Each call is prepared in order — arguments parsed and checked against the tool's schema, the
tool found, the safety gate asked, the user asked when the gate says so (one question at a
time, in call order) — then the approved calls run concurrently, each result reaching the UI as
its call finishes; a call the sandbox stopped may be offered once to run again outside it.
Every failure becomes a result the model reads (``{"error": true, "type": …, "message": …}``).
Who approved a call is one of ``Approver``'s words, for the audit log and for the one-question
rule (``approval_covers``).
"""

from __future__ import annotations

import asyncio
import dataclasses
import json
import time
from collections.abc import AsyncGenerator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Literal

from swebash.api import (
    AiEvent,
    ConfirmAnswer,
    ConfirmHook,
    ConfirmRequest,
    JsonObject,
    JsonValue,
    Notice,
    ToolCallEnd,
    ToolCallStart,
    ToolExecuting,
    Verdict,
    error_result,
)
from swebash.errors import InvalidArguments, ToolError, ToolNotFound
from swebash.providers.base import ToolCall, ToolResultMessage
from swebash.safety.base import RuleWriter
from swebash.safety.boundary import PERSON_ONLY
from swebash.safety.paths import within
from swebash.tools.base import ToolContext, ToolExecutor
from swebash.tools.schema import parse_arguments, validate

if TYPE_CHECKING:
    from swebash.ai.agent import Agent

ONLY_YES = ("--yes runs only what the safety gate does not mark dangerous; a program, option "
            "or sub-command it does not know counts as dangerous (the user can rerun with "
            "--yes-dangerous, or vouch for a program with a rule in rules.toml)")
NO_HOOK = ("this call needs the user's confirmation, which is not available in non-interactive "
           "mode (the user can rerun with --yes)")
# Ctrl-C or Esc at a y/N: nothing more runs and no further request is made; the model reads
# these notes with the next question.
STOPPED_HERE = ("the user stopped the turn at this confirmation (Ctrl-C or Esc): not run, and "
                "nothing after it was run")
STOPPED_BEFORE = "not run: the user stopped the turn at an earlier confirmation"

# Who let a call run, or why it did not: the gate allowed it (auto), the configuration
# (tools.confirm = false), an `a` earlier this session, the user at the y/N, the user again
# for a rerun outside the sandbox; or nobody: declined at the y/N, refused (the gate denied,
# the call could not succeed, nobody could be asked), stopped (Ctrl-C / Esc at a y/N).
Approver = Literal["auto", "config", "session-rule", "user", "user-unsandboxed", "declined",
                   "refused", "stopped"]
NOT_RUN: frozenset[Approver] = frozenset({"declined", "refused", "stopped"})


@dataclass
class PreparedCall:
    call: ToolCall
    tool: ToolExecutor | None = None
    args: JsonObject = field(default_factory=dict)
    verdict: Verdict = field(default_factory=lambda: Verdict("allow"))
    approved_by: Approver = "auto"
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


def result_message(p: PreparedCall) -> ToolResultMessage:
    content = p.result if p.result is not None else error_result("ExecutionFailed", "no result")
    return ToolResultMessage(p.call.id, p.call.name, content, not p.ok)


async def prepare_calls(agent: Agent, calls: tuple[ToolCall, ...],
                         ctx: ToolContext, confirm: ConfirmHook | None,
                         prepared: list[PreparedCall]) -> AsyncGenerator[AiEvent, None]:
    limit = agent.config.max_tool_calls_per_turn
    for index, call in enumerate(calls):
        p = PreparedCall(call)
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
        await decide(agent, p, ctx, confirm)
        if p.notice:
            yield Notice(p.notice)
    if any(p.stopped for p in prepared):  # calls approved before the stop do not run either
        for p in prepared:
            if p.result is None:
                p.result, p.approved_by = error_result("UserStopped", STOPPED_BEFORE), "stopped"


async def decide(agent: Agent, p: PreparedCall, ctx: ToolContext,
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
    # a dangerous call, or one only a person may approve, is asked every time; a person's
    # "allow for this session" may vouch for one that is dangerous only as unknown
    liftable = not (p.verdict.dangerous or p.verdict.needs_person)
    vouched = not p.verdict.needs_person and (liftable or p.verdict.unknown)
    if not agent.config.require_confirmation and liftable:
        p.approved_by = "config"
        return
    key = call_key(p.call.name, p.args)
    if key in agent.session_rules and vouched:
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
    if answer is ConfirmAnswer.NOT_DANGEROUS:
        p.result = error_result("ConfirmationRequired", f"{why} — {ONLY_YES}" if why else ONLY_YES)
        p.approved_by = "refused"
        return
    if answer is ConfirmAnswer.NO:
        p.result = error_result("UserDeclined", f"not approved: {why} — {PERSON_ONLY}"
                                if p.verdict.needs_person else "the user declined to run this")
        p.approved_by = "declined"
        return
    if answer is ConfirmAnswer.ALWAYS and vouched:
        agent.session_rules.add(key)
    if answer in (ConfirmAnswer.PROJECT, ConfirmAnswer.FOREVER) and vouched:
        agent.session_rules.add(key)
        if subject.kind == "command" and isinstance(agent.gate, RuleWriter):
            scope: Literal["project", "always"] = (
                "project" if answer is ConfirmAnswer.PROJECT else "always")
            p.notice = agent.gate.approve(subject.value, scope, ctx.cwd)
    p.approved_by = "user"


async def execute(agent: Agent, p: PreparedCall, ctx: ToolContext) -> None:
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


def end_event(p: PreparedCall) -> ToolCallEnd:
    return ToolCallEnd(p.call.name, result_message(p).content, p.ok, p.duration_ms, p.call.id,
                       p.summary)


async def run_concurrently(agent: Agent, runnable: list[PreparedCall], ctx: ToolContext
                        ) -> AsyncGenerator[PreparedCall, None]:
    """Run the calls concurrently and yield each as it finishes (in call order when several
    finish together). Cancelled or closed early, it cancels the calls and waits for them."""
    tasks = {asyncio.ensure_future(execute(agent, p, ctx)): p for p in runnable}
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


async def offer_rerun(agent: Agent, runnable: list[PreparedCall], ctx: ToolContext,
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
        if answer is not ConfirmAnswer.YES:  # only a y runs it outside
            p.result = _with_note(p.result, "the sandbox stopped this; it was not run again "
                                  "outside the sandbox (the user declined, or nobody could be "
                                  "asked). Do not try to work around the sandbox.")
            continue
        yield ToolExecuting(p.call.name, p.call.id)
        await execute(agent, p, dataclasses.replace(ctx, sandbox=ctx.sandbox.outside()))
        p.approved_by = "user-unsandboxed"
        p.summary += " · rerun outside the sandbox"
        p.result = _with_note(p.result, "the sandbox stopped the first run; the user approved "
                              "running it again outside the sandbox, and this is that result")


def approval_covers(p: PreparedCall, writable: Sequence[str]) -> bool:
    """One question per action: the user said y to exactly this call, and every write the
    sandbox stopped is outside the tree (``writable``: its roots — not a protected place inside
    it, a socket or a domain) at a path the gate named when it asked (or below it). A write the
    gate could not see (a script's, a variable's) was never approved: it is asked again."""
    approved = p.verdict.writes_outside
    return (p.approved_by == "user" and bool(p.refused_writes) and bool(approved)
            and all(not any(within(path, root) for root in writable)
                    and any(named(path, target) for target in approved)
                    for path in p.refused_writes or ()))


def named(path: str, target: str) -> bool:
    """``path`` is what the question named: that path, or a place below it reached without a
    hidden name on the way — a y to "writes ~" is not a y to ~/.bashrc or ~/.config/…"""
    if path == target:
        return True
    if not within(path, target):
        return False
    below = path[len(target.rstrip("/")):].strip("/").split("/")
    return not any(part.startswith(".") for part in below)


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


def audit_call(agent: Agent, p: PreparedCall, outcome: str | None = None) -> None:
    if agent.audit is None:
        return
    if outcome is None:
        outcome = "ok" if p.ok else ("not run" if p.approved_by in NOT_RUN else "failed")
    agent.audit.record(tool=p.call.name, arguments=p.args or p.call.arguments,
                       decision=p.verdict.decision, dangerous=p.verdict.dangerous,
                       approved_by=p.approved_by, ok=p.ok and outcome == "ok",
                       outcome=outcome, exit_code=p.exit_code,
                       duration_ms=round(p.duration_ms), truncated=p.truncated,
                       **({"rule_saved": p.notice} if p.notice else {}))
