"""MCP calls go through the same agent loop as built-in tools: the y/N question (unless the
server is trusted) showing server, tool and arguments, redaction, the audit log, metrics — and
the server's answer reaches the model's next request."""

from __future__ import annotations

import asyncio
import json
import sys
from pathlib import Path

from swebash.ai.service import DefaultAiService
from swebash.api import ChatRequest, ConfirmAnswer, ConfirmRequest
from swebash.config import AiConfig
from swebash.providers.base import ToolResultMessage
from swebash.providers.fake import ScriptedProvider, Turn
from swebash.safety.audit import AuditLog
from swebash.tools.mcp import McpManager, McpTool
from tests.ai.fakes import PatternRedactor, RuleGate, answering, registry
from tests.tools.test_mcp import stdio

SECRET = "sk-ABCDEFGHIJKLMNOPQRST"


def service(tmp_path: Path, provider: ScriptedProvider, trust: bool) -> DefaultAiService:
    manager = McpManager([stdio("srv", trust=trust)], tmp_path / "logs")
    reg = registry()
    reg.add_source(manager)
    redactor = PatternRedactor()
    return DefaultAiService(config=AiConfig(provider="openai", model="m"),
                            provider_factory=lambda _: provider, registry=reg,
                            gate=RuleGate(), redactor=redactor, mcp=manager,
                            audit=AuditLog(tmp_path / "audit.jsonl", redactor))


def last_result(provider: ScriptedProvider) -> ToolResultMessage:
    message = provider.sent[-1].messages[-1]
    assert isinstance(message, ToolResultMessage)
    return message


def run(svc: DefaultAiService, hook: object = None) -> None:
    async def main() -> None:
        try:
            await svc.chat(ChatRequest("use the server"), confirm=hook)  # type: ignore[arg-type]
        finally:
            await svc.aclose()

    asyncio.run(main())


def test_trusted_server_runs_and_its_answer_reaches_the_next_request(tmp_path: Path) -> None:
    args = json.dumps({"text": f"token {SECRET}"})
    provider = ScriptedProvider([Turn(calls=(("mcp__srv__echo", args),)), Turn("done")])
    svc = service(tmp_path, provider, trust=True)
    run(svc)
    offered = [t.name for t in provider.sent[0].tools]
    assert "mcp__srv__echo" in offered and "execute_command" in offered
    schema = next(t for t in provider.sent[0].tools if t.name == "mcp__srv__echo")
    assert schema.parameters["properties"]["text"]["type"] == "string"
    assert "third-party MCP servers" in provider.sent[0].system
    result = last_result(provider)
    assert not result.is_error and "echo: token [REDACTED:openai-key]" in result.content
    assert SECRET not in result.content
    audit = [json.loads(line) for line in (tmp_path / "audit.jsonl").read_text().splitlines()]
    assert audit[-1]["tool"] == "mcp__srv__echo" and audit[-1]["ok"] is True
    assert SECRET not in (tmp_path / "audit.jsonl").read_text()
    assert svc.stats().tools["mcp__srv__echo"].calls == 1


def test_untrusted_server_asks_showing_server_tool_and_arguments(tmp_path: Path) -> None:
    provider = ScriptedProvider([Turn(calls=(("mcp__srv__echo", '{"text": "hi"}'),)),
                                 Turn("ok")])
    asked: list[ConfirmRequest] = []
    svc = service(tmp_path, provider, trust=False)
    run(svc, answering(ConfirmAnswer.NO, asked))
    assert len(asked) == 1 and asked[0].tool == "mcp__srv__echo"
    assert asked[0].description == 'MCP srv · echo {"text": "hi"}'
    result = last_result(provider)
    assert result.is_error and "UserDeclined" in result.content


def test_untrusted_server_without_a_way_to_ask_refuses(tmp_path: Path) -> None:
    provider = ScriptedProvider([Turn(calls=(("mcp__srv__echo", '{"text": "hi"}'),)),
                                 Turn("ok")])
    run(service(tmp_path, provider, trust=False))
    assert "ConfirmationRequired" in last_result(provider).content


def test_an_error_result_is_an_error_the_model_sees(tmp_path: Path) -> None:
    provider = ScriptedProvider([Turn(calls=(("mcp__srv__fail", '{"message": "no disk"}'),)),
                                 Turn("ok")])
    run(service(tmp_path, provider, trust=True))
    result = last_result(provider)
    assert result.is_error
    body = json.loads(result.content)
    assert body["type"] == "McpToolError" and "no disk" in body["message"]


def test_index_mode_loads_then_calls_and_colliding_names_each_reach_their_tool(
        tmp_path: Path) -> None:
    """Above the index threshold the model is offered ``mcp_load_tools`` — and can call it;
    ``a.b`` and ``a_b`` are two names, asked about under the server's own names."""
    from swebash.config import McpServerConfig
    from tests.fakes.mcp_stdlib_server import COLLIDING
    from tests.tools.test_mcp import ROOT

    manager = McpManager([McpServerConfig(
        name="big", command=sys.executable, cwd=ROOT, trust=False,
        args=("-m", "tests.fakes.mcp_stdlib_server", "--many", "45", "--collide"))])
    reg = registry()
    reg.add_source(manager)
    asked: list[ConfirmRequest] = []

    async def main() -> list[str]:
        await manager.ensure_started()
        names = {t.remote.name: t.name for t in manager.tools() if isinstance(t, McpTool)}
        wanted = [names[n] for n in COLLIDING]
        provider.turns.extend([
            Turn(calls=(("mcp_load_tools", json.dumps({"names": wanted})),)),
            Turn(calls=tuple((name, "{}") for name in wanted)), Turn("done")])
        try:
            await svc.chat(ChatRequest("use the server"), confirm=answering(
                ConfirmAnswer.YES, asked))
        finally:
            await svc.aclose()
        return wanted

    provider = ScriptedProvider([])
    svc = DefaultAiService(config=AiConfig(provider="openai", model="m"),
                           provider_factory=lambda _: provider, registry=reg,
                           gate=RuleGate(), redactor=PatternRedactor(), mcp=manager)
    wanted = asyncio.run(main())
    assert len(set(wanted)) == len(COLLIDING)
    first = [t.name for t in provider.sent[0].tools if t.name.startswith("mcp")]
    assert first == ["mcp_load_tools"]
    loaded = json.loads(provider.sent[1].messages[-1].content)  # type: ignore[union-attr]
    assert [t["name"] for t in loaded["loaded"]] == wanted
    assert set(wanted) <= {t.name for t in provider.sent[1].tools}
    results = [m for m in provider.sent[2].messages if isinstance(m, ToolResultMessage)][1:]
    assert [json.loads(r.content)["output"] for r in results] == [
        f"tool {own} answered" for own in COLLIDING]
    assert [a.description for a in asked] == [f"MCP big · {own} {{}}" for own in COLLIDING]
