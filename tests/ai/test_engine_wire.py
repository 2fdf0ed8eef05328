"""The whole engine through each real SDK against the local wire-protocol server, with the
real gate, tools, redactor and audit log — and conversation trimming."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from swebash.ai.conversation import Conversation, is_consistent
from swebash.ai.service import DefaultAiService
from swebash.api import ChatRequest, CommandRecord, Done, ToolCallEnd
from swebash.config import AiConfig
from swebash.providers.base import AssistantMessage, ToolCall, ToolResultMessage, UserMessage
from swebash.providers.select import create_provider
from swebash.safety.audit import AuditLog
from swebash.safety.gate import DefaultGate
from swebash.safety.redact import SecretRedactor
from swebash.tools.registry import default_registry
from tests.ai.fakes import FakeTerminal
from tests.fakes.server import FakeServer

TOKEN = "ghp_abcdefghijklmnopqrstuvwxyz0123456789"


@pytest.fixture
def server() -> Iterator[FakeServer]:
    fake = FakeServer().start()
    yield fake
    fake.stop()


def config(name: str, server: FakeServer) -> AiConfig:
    return {"openai": AiConfig(provider="openai", openai_api_key="sk-test-key-000000000000",
                               openai_base_url=server.url + "/v1"),
            "anthropic": AiConfig(provider="anthropic", anthropic_api_key="sk-ant-test-000000",
                                  anthropic_base_url=server.url),
            "ollama": AiConfig(provider="ollama", ollama_host=server.url)}[name]


def engine(cfg: AiConfig, home: Path, work: Path, terminal: FakeTerminal | None = None
           ) -> DefaultAiService:
    redactor = SecretRedactor({"MY_TOKEN": "s3cr3t-value-123"}, cfg.secret_values())
    return DefaultAiService(config=cfg, provider_factory=create_provider,
                            registry=default_registry(cfg.tools),
                            gate=DefaultGate(home=str(home)), redactor=redactor,
                            terminal=terminal or FakeTerminal(where=str(work)),
                            audit=AuditLog(home / "audit.jsonl", redactor))


def events(svc: DefaultAiService, question: str) -> list[Any]:
    async def go() -> list[Any]:
        return [e async for e in svc.chat_stream(ChatRequest(question))]
    return asyncio.run(go())


@pytest.mark.parametrize("name", ["openai", "anthropic", "ollama"])
def test_tool_call_result_answer_through_each_sdk(name: str, server: FakeServer,
                                                  hermetic_env: Path, tmp_path: Path) -> None:
    work = tmp_path / "work"
    work.mkdir()
    (work / "notes.txt").write_text(f"token {TOKEN}\n")
    server.script({"tools": [["filesystem", '{"operation": "read", "path": "notes.txt"}'],
                             ["execute_command", '{"command": "echo s3cr3t-value-123"}']]},
                  {"tools": [["list_files", "{}"]]},
                  {"text": "All read."})
    svc = engine(config(name, server), hermetic_env, work)
    got = events(svc, "read my notes")
    assert got[-1] == Done("All read.")
    assert [e.ok for e in got if isinstance(e, ToolCallEnd)] == [True, True, True]
    wire = json.dumps([r.body for r in server.requests])
    assert TOKEN not in wire and "s3cr3t-value-123" not in wire.replace(
        "echo s3cr3t-value-123", "")  # the model's own call text is its own
    assert "[REDACTED:github-token]" in wire and "[REDACTED:MY_TOKEN]" in wire
    audit = (hermetic_env / "audit.jsonl").read_text()
    assert len(audit.splitlines()) == 3 and "s3cr3t-value-123" not in audit
    assert is_consistent(svc.conversation.messages())


def test_command_context_is_redacted_before_it_leaves(server: FakeServer, hermetic_env: Path,
                                                      tmp_path: Path) -> None:
    record = CommandRecord("curl -H 'Authorization: Bearer x'", str(tmp_path), 22, 0.0, 3.0,
                           f"error using {TOKEN} and AKIAIOSFODNN7EXAMPLE\n")
    server.script({"text": "The token was rejected."})
    svc = engine(config("openai", server), hermetic_env, tmp_path,
                 FakeTerminal([record], str(tmp_path)))
    events(svc, "why did that fail")
    system = server.requests[-1].body["messages"][0]["content"]
    assert "exit 22" in system and "curl -H" in system
    assert TOKEN not in system and "AKIAIOSFODNN7EXAMPLE" not in system
    assert "[REDACTED:github-token]" in system and "[REDACTED:aws-access-key]" in system


def test_trimming_drops_whole_exchanges_oldest_first() -> None:
    memory = Conversation(budget=300)
    for n in range(6):
        call = ToolCall(f"c{n}", "execute_command", '{"command": "ls"}')
        memory.add_exchange([UserMessage(f"question {n} " + "x" * 40),
                             AssistantMessage("", (call,)),
                             ToolResultMessage(f"c{n}", "execute_command", "y" * 60),
                             AssistantMessage(f"answer {n}")])
    kept = memory.messages()
    assert is_consistent(kept) and memory.size() <= 300
    assert isinstance(kept[0], UserMessage) and "question 5" in kept[-4].text  # type: ignore[union-attr]
    assert not any("question 0" in getattr(m, "text", "") for m in kept)
    big = Conversation(budget=10)
    big.add_exchange([UserMessage("a very long question that alone exceeds the budget")])
    assert len(big.messages()) == 1  # the newest exchange is always kept
