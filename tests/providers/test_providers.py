"""Each provider through its real SDK (httpx for Ollama) against the local wire-protocol server."""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys
from collections.abc import Iterator
from typing import Any

import pytest

from swebash.api import Retrying
from swebash.config import AiConfig
from swebash.errors import ProviderError, StreamInterrupted
from swebash.providers.base import (
    AssistantMessage,
    Provider,
    TextDelta,
    ToolCall,
    ToolResultMessage,
    ToolSchema,
    TurnEnd,
    TurnEvent,
    UserMessage,
)
from swebash.providers.select import create_provider
from tests.fakes.server import FakeServer

PROVIDERS = ["openai", "anthropic", "ollama"]
TOOLS = [ToolSchema("execute_command", "Run a command",
                    {"type": "object", "properties": {"command": {"type": "string"}},
                     "required": ["command"]})]


@pytest.fixture
def server() -> Iterator[FakeServer]:
    fake = FakeServer().start()
    yield fake
    fake.stop()


def config_for(name: str, server: FakeServer, **extra: Any) -> AiConfig:
    if name == "openai":
        return AiConfig(provider="openai", openai_api_key="sk-test",
                        openai_base_url=server.url + "/v1", **extra)
    if name == "anthropic":
        return AiConfig(provider="anthropic", anthropic_api_key="sk-ant-test",
                        anthropic_base_url=server.url, **extra)
    return AiConfig(provider="ollama", ollama_host=server.url, **extra)


def run_turn(provider: Provider, messages: list[Any] | None = None,
             tools: list[ToolSchema] | None = None) -> list[TurnEvent]:
    async def go() -> list[TurnEvent]:
        return [e async for e in provider.stream("be brief", messages or [UserMessage("hi")],
                                                 tools if tools is not None else TOOLS)]
    return asyncio.run(go())


def end_of(events: list[TurnEvent]) -> TurnEnd:
    last = events[-1]
    assert isinstance(last, TurnEnd)
    return last


@pytest.mark.parametrize("name", PROVIDERS)
def test_plain_streamed_text(name: str, server: FakeServer) -> None:
    server.script({"text": "Hello there, world", "chunks": 3})
    events = run_turn(create_provider(config_for(name, server)))
    deltas = [e.text for e in events if isinstance(e, TextDelta)]
    assert len(deltas) == 3 and "".join(deltas) == "Hello there, world"
    end = end_of(events)
    assert end.text == "Hello there, world" and end.tool_calls == ()
    assert end.input_tokens > 0 and end.output_tokens > 0
    sent = server.requests[-1].body
    assert sent["stream"] is True and sent["tools"]


@pytest.mark.parametrize("name", PROVIDERS)
def test_two_parallel_tool_calls(name: str, server: FakeServer) -> None:
    server.script({"tools": [["execute_command", '{"command": "ls -la"}'],
                             ["execute_command", '{"command": "pwd"}']]})
    end = end_of(run_turn(create_provider(config_for(name, server))))
    assert [json.loads(c.arguments) for c in end.tool_calls] == [
        {"command": "ls -la"}, {"command": "pwd"}]
    assert len({c.id for c in end.tool_calls}) == 2


@pytest.mark.parametrize("name", PROVIDERS)
def test_three_turn_conversation_is_sent_in_wire_format(name: str, server: FakeServer) -> None:
    provider = create_provider(config_for(name, server))
    call = ToolCall("call_0", "execute_command", '{"command": "ls"}')
    history = [UserMessage("list files"), AssistantMessage("", (call,)),
               ToolResultMessage("call_0", "execute_command", '{"exit_code": 0}'),
               AssistantMessage("There are 2 files."), UserMessage("and now?")]
    server.script({"text": "ok"})
    assert end_of(run_turn(provider, history)).text == "ok"
    body = server.requests[-1].body
    text = json.dumps(body)
    assert "call_0" in text and "list files" in text and "and now?" in text
    if name == "anthropic":
        roles = [m["role"] for m in body["messages"]]
        assert roles == ["user", "assistant", "user", "assistant", "user"]
        assert body["messages"][2]["content"][0]["type"] == "tool_result"
    if name == "ollama":
        assistant = body["messages"][2]
        assert assistant["tool_calls"][0]["function"]["arguments"] == {"command": "ls"}


@pytest.mark.parametrize("name", PROVIDERS)
def test_429_then_success_retries_with_retry_after(name: str, server: FakeServer) -> None:
    server.script({"status": 429, "retry_after": 0.01}, {"text": "after retry"})
    events = run_turn(create_provider(config_for(name, server)))
    retries = [e for e in events if isinstance(e, Retrying)]
    assert len(retries) == 1 and retries[0].delay == pytest.approx(0.01)
    assert "429" in retries[0].reason
    assert end_of(events).text == "after retry"


@pytest.mark.parametrize("name", PROVIDERS)
def test_500_is_retried_then_reported_in_one_line(name: str, server: FakeServer) -> None:
    server.script(*[{"status": 500, "retry_after": 0.01}] * 3)
    provider = create_provider(config_for(name, server, max_retries=2))
    with pytest.raises(ProviderError) as info:
        run_turn(provider)
    assert "server error (500)" in str(info.value) and "\n" not in str(info.value)
    assert len(server.requests) == 3


@pytest.mark.parametrize("name", PROVIDERS)
def test_stream_cut_midway_raises_stream_interrupted(name: str, server: FakeServer) -> None:
    server.script({"text": "a long answer that will break", "chunks": 6, "cut_after": 4})
    seen: list[str] = []

    async def go() -> None:
        provider = create_provider(config_for(name, server))
        async for event in provider.stream("", [UserMessage("hi")], TOOLS):
            if isinstance(event, TextDelta):
                seen.append(event.text)

    with pytest.raises(StreamInterrupted) as info:
        asyncio.run(go())
    assert "\n" not in str(info.value)
    assert len(server.requests) == 1  # output was shown: never retried


@pytest.mark.parametrize("name", PROVIDERS)
def test_error_event_inside_stream(name: str, server: FakeServer) -> None:
    server.script({"text": "partial", "stream_error": "Overloaded"})
    with pytest.raises(StreamInterrupted, match="Overloaded"):
        run_turn(create_provider(config_for(name, server)))


@pytest.mark.parametrize("name", PROVIDERS)
def test_invalid_json_arguments_pass_through_raw(name: str, server: FakeServer) -> None:
    raw = '{"command": "ls'
    if name == "ollama":
        server.script({"tools": [["execute_command", raw]], "string_args": True})
    else:
        server.script({"tools": [["execute_command", raw]]})
    end = end_of(run_turn(create_provider(config_for(name, server))))
    assert end.tool_calls[0].arguments == raw


def test_ollama_object_and_string_arguments(server: FakeServer) -> None:
    args = '{"command": "echo hi"}'
    server.script({"tools": [["execute_command", args]]},
                  {"tools": [["execute_command", args]], "string_args": True})
    provider = create_provider(config_for("ollama", server))
    for _ in range(2):
        end = end_of(run_turn(provider))
        assert json.loads(end.tool_calls[0].arguments) == {"command": "echo hi"}


@pytest.mark.parametrize("quirk", ["no_index", "all_index_0", "finish_stop"])
def test_openai_compatible_quirks(quirk: str, server: FakeServer) -> None:
    server.script({"tools": [["a_tool", '{"x": 1}'], ["b_tool", '{"y": 2}']], "quirk": quirk})
    cfg = AiConfig(provider="openai-compatible", base_url=server.url + "/v1")
    end = end_of(run_turn(create_provider(cfg)))
    assert [(c.name, json.loads(c.arguments)) for c in end.tool_calls] == [
        ("a_tool", {"x": 1}), ("b_tool", {"y": 2})]


def test_auth_failure_names_the_key(server: FakeServer) -> None:
    server.script({"status": 401, "message": "Incorrect API key provided"})
    with pytest.raises(ProviderError, match="rejected \\(401\\) — check OPENAI_API_KEY"):
        run_turn(create_provider(config_for("openai", server)))


def test_no_tools_means_no_tools_field(server: FakeServer) -> None:
    server.script({"text": "plain"})
    run_turn(create_provider(config_for("openai", server)), tools=[])
    assert "tools" not in server.requests[-1].body


def test_gemini_uses_its_key_and_endpoint(server: FakeServer) -> None:
    server.script({"text": "gem"})
    cfg = AiConfig(provider="gemini", gemini_api_key="gem-key", base_url=server.url + "/v1")
    assert end_of(run_turn(create_provider(cfg))).text == "gem"
    assert server.requests[-1].headers.get("authorization") == "Bearer gem-key"


def test_importing_providers_loads_no_sdk() -> None:
    code = ("import sys, swebash.providers.select, swebash.providers.openai_chat, "
            "swebash.providers.anthropic_messages, swebash.providers.ollama;"
            "print([m for m in ('openai', 'anthropic', 'httpx') if m in sys.modules])")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True).stdout
    assert out.strip() == "[]"
