"""`ai sessions`, `ai resume`, `ai reset`, `ai mcp`, `ai mcp restart`, `ai context`, `ai status`
through the builtin dispatcher, with a real platform (session store, MCP manager) and engine."""

from __future__ import annotations

import sys
from collections.abc import Coroutine, Iterator
from pathlib import Path
from typing import Any

import pytest

from swebash.ai.platform import AiPlatform
from swebash.ai.service import DefaultAiService
from swebash.ai.sessions import RecordedConversation, SessionStore
from swebash.api import AiService, ChatRequest
from swebash.config import AiConfig, McpServerConfig, SessionsConfig
from swebash.host import builtins as ai_builtins
from swebash.host.loop import AiLoop
from swebash.providers.fake import ScriptedProvider, Turn
from swebash.tools.mcp import McpManager
from tests.ai.fakes import PatternRedactor, RuleGate, registry

ROOT = str(Path(__file__).resolve().parents[2])


class Host:
    def __init__(self, tmp_path: Path, mcp: McpManager | None) -> None:
        store = SessionStore(tmp_path / "sessions", SessionsConfig())
        self.platform = AiPlatform(RecordedConversation(store, lambda: "/proj"), store, mcp)
        reg = registry()
        if mcp is not None:
            reg.add_source(mcp)
        self.provider = ScriptedProvider([Turn("first answer"), Turn("second answer")])
        self.engine = DefaultAiService(config=AiConfig(provider="openai", model="m"),
                                       provider_factory=lambda _: self.provider, registry=reg,
                                       gate=RuleGate(), redactor=PatternRedactor(), mcp=mcp,
                                       conversation=self.platform.conversation)
        self.loop = AiLoop()

    @property
    def service(self) -> AiService:
        return self.engine

    def run_sync(self, coro: Coroutine[Any, Any, Any], timeout: float | None = None) -> Any:
        return self.loop.run(coro, timeout)

    def explain(self, command: str) -> int:
        return 0


@pytest.fixture
def host(tmp_path: Path) -> Iterator[Host]:
    mcp = McpManager([McpServerConfig(name="srv", command=sys.executable, cwd=ROOT,
                                      args=("-m", "tests.fakes.mcp_server"))])
    made = Host(tmp_path, mcp)
    yield made
    made.platform.close()
    made.loop.close()


def test_sessions_reset_and_resume(host: Host, capsys: pytest.CaptureFixture[str]) -> None:
    assert ai_builtins.run(host, "ai sessions") == 0
    assert "no stored conversations yet" in capsys.readouterr().out
    host.run_sync(host.engine.chat(ChatRequest("remember TEAL")))
    assert ai_builtins.run(host, "ai reset") == 0
    assert host.engine.conversation.messages() == []
    host.run_sync(host.engine.chat(ChatRequest("another topic")))
    capsys.readouterr()
    assert ai_builtins.run(host, "ai sessions") == 0
    listing = capsys.readouterr().out.splitlines()
    assert listing[0].startswith("*  1") and "another topic" in listing[0]
    assert "remember TEAL" in listing[1]
    assert ai_builtins.run(host, "ai resume 2") == 0
    assert "resumed the conversation" in capsys.readouterr().out
    assert "remember TEAL" in str(host.engine.conversation.messages())


def test_mcp_listing_restart_status_and_context(host: Host,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    assert ai_builtins.run(host, "ai status") == 0
    assert "MCP srv: not started yet" in capsys.readouterr().out
    assert ai_builtins.run(host, "ai mcp") == 0
    out = capsys.readouterr().out
    assert "srv  ready, 7 tools" in out and "mcp__srv__sleep  Sleep, then answer." in out
    assert ai_builtins.run(host, "ai mcp restart srv") == 0
    assert "MCP server 'srv': ready" in capsys.readouterr().out
    assert ai_builtins.run(host, "ai mcp restart nope") == 0
    assert "no MCP server named 'nope' (servers: srv)" in capsys.readouterr().out
    assert ai_builtins.run(host, "ai mcp restart") == 2
    assert "give a server name" in capsys.readouterr().out
    assert ai_builtins.run(host, "ai context") == 0
    context = capsys.readouterr().out
    assert context.startswith("Project instructions") and "third-party MCP" in context


def test_no_mcp_servers(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    made = Host(tmp_path, None)
    try:
        assert ai_builtins.run(made, "ai mcp") == 0
        assert "no MCP servers configured" in capsys.readouterr().out
    finally:
        made.loop.close()
