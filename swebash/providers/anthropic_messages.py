"""Anthropic Messages streaming with tool_use blocks, through the official SDK.

Wire rules that shape the translation: every assistant turn with tool_use blocks must be
followed by ONE user message holding all its tool_result blocks (first in the content), and
roles must alternate — so consecutive results are merged, and a user question that follows
results joins the same user message after them. Tool input arrives as input_json_delta
fragments (the first is usually empty) concatenated per block and parsed by the agent loop.
"""

from __future__ import annotations

from collections.abc import AsyncGenerator, Sequence
from dataclasses import dataclass, field
from typing import Any

from swebash.api import JsonObject, JsonValue
from swebash.providers.base import (
    AssistantMessage,
    Message,
    ProviderInfo,
    TextDelta,
    ToolCall,
    ToolResultMessage,
    ToolSchema,
    TurnEnd,
    TurnEvent,
    UserMessage,
)
from swebash.providers.boundary import (
    Narrow,
    TurnBudget,
    describe,
    stream_content_type,
    undecodable,
)
from swebash.providers.connection import (
    check_endpoint,
    check_stream_reply,
    ended_early,
)
from swebash.providers.guard import line_limit_hook
from swebash.providers.hygiene import encodable, redirect_hook
from swebash.providers.openai_chat import parse_arguments_object
from swebash.providers.retry import RetryPolicy, stream_with_retries, translate_error

ANTHROPIC_URL = "https://api.anthropic.com"
DEFAULT_MAX_TOKENS = 4096


def to_wire(messages: Sequence[Message]) -> list[JsonObject]:
    wire: list[JsonObject] = []

    def user_blocks() -> list[JsonValue]:
        if wire and wire[-1]["role"] == "user":
            content = wire[-1]["content"]
            if isinstance(content, list):
                return content
            blocks: list[JsonValue] = [{"type": "text", "text": content}]
            wire[-1]["content"] = blocks
            return blocks
        blocks = []
        wire.append({"role": "user", "content": blocks})
        return blocks

    for message in messages:
        if isinstance(message, UserMessage):
            user_blocks().append({"type": "text", "text": message.text})
        elif isinstance(message, ToolResultMessage):
            user_blocks().append({"type": "tool_result", "tool_use_id": message.call_id,
                                  "content": message.content, "is_error": message.is_error})
        elif isinstance(message, AssistantMessage):
            content: list[JsonValue] = []
            if message.text:
                content.append({"type": "text", "text": message.text})
            content.extend({"type": "tool_use", "id": c.id, "name": c.name,
                            "input": parse_arguments_object(c.arguments)}
                           for c in message.tool_calls)
            if not content:
                content.append({"type": "text", "text": "(no answer)"})
            wire.append({"role": "assistant", "content": content})
    return wire


class AnthropicProvider:
    def __init__(self, *, model: str, api_key: str | None, base_url: str | None,
                 timeout: float, policy: RetryPolicy) -> None:
        self.info = ProviderInfo(name="anthropic", model=model,
                                 endpoint=base_url or ANTHROPIC_URL)
        self._api_key = api_key
        self._timeout = timeout
        self._policy = policy
        self._client: Any = None

    def client(self) -> Any:
        if self._client is None:
            import anthropic  # ~1.8 s to import: only now, or in warm()
            import httpx2

            hook = line_limit_hook(httpx2.AsyncByteStream, "anthropic")
            http = anthropic.DefaultAsyncHttpxClient(event_hooks={"response": [
                hook, redirect_hook("anthropic", self.info.endpoint)]})
            self._client = anthropic.AsyncAnthropic(api_key=self._api_key,
                                                    base_url=self.info.endpoint,
                                                    timeout=self._timeout, max_retries=0,
                                                    http_client=http)
        return self._client

    def _ready(self) -> None:
        """Before the request's clock starts: a URL that cannot work is one line, and the
        SDK is imported (~1 s the first time)."""
        check_endpoint(self.info.name, self.info.endpoint)
        self.client()

    def warm(self) -> None:
        self.client()

    def stream(self, system: str, messages: Sequence[Message], tools: Sequence[ToolSchema],
               *, max_tokens: int | None = None) -> AsyncGenerator[TurnEvent, None]:
        body: dict[str, object] = {"model": self.info.model, "messages": to_wire(messages),
                                "max_tokens": max_tokens or DEFAULT_MAX_TOKENS, "stream": True}
        if system:
            body["system"] = system
        if tools:
            body["tools"] = [{"name": t.name, "description": t.description,
                              "input_schema": t.parameters} for t in tools]
        body = encodable(body)
        return stream_with_retries(lambda: self._attempt(body), self._policy,
                                   f"{self.info.name}: {self.info.endpoint}",
                                   prepare=self._ready)

    def _error(self, exc: BaseException, mid_stream: bool = False) -> Exception:
        return translate_error(exc, "anthropic", self.info.endpoint, "ANTHROPIC_API_KEY",
                               mid_stream=mid_stream)

    async def _attempt(self, body: dict[str, object]) -> AsyncGenerator[TurnEvent, None]:
        endpoint = self.info.endpoint
        check_endpoint("anthropic", endpoint)
        try:
            stream = await self.client().messages.create(**body)
        except Exception as exc:
            raise self._error(exc) from exc
        narrow = Narrow("anthropic")
        budget = TurnBudget("anthropic")
        state = _TurnState()
        try:
            async with stream:
                check_stream_reply("anthropic", endpoint, stream_content_type(stream))
                async for event in stream:
                    state.events += 1
                    piece = state.read(event, narrow, budget)
                    if piece:
                        yield TextDelta(piece)
                    progress = budget.progress()
                    if progress is not None:
                        yield progress
        except Exception as exc:
            raise (undecodable(narrow, exc) or self._error(exc, mid_stream=True)) from exc
        if not state.finished:
            raise ended_early("anthropic", endpoint, stream_content_type(stream), state.events,
                              "text/event-stream", "message_stop")
        calls = tuple(ToolCall(id=b.id, name=b.name, arguments="".join(b.json) or "{}")
                      for _, b in sorted(state.blocks.items()))
        yield TurnEnd(text=budget.text, tool_calls=calls, stop_reason=state.stop_reason,
                      input_tokens=state.tokens_in, output_tokens=state.tokens_out)


@dataclass
class _ToolBlock:
    id: str
    name: str
    json: list[str] = field(default_factory=list)


@dataclass
class _TurnState:
    """What one streamed message has said so far, read field by field through ``Narrow``."""

    blocks: dict[int, _ToolBlock] = field(default_factory=dict)
    stop_reason: str = ""
    finished: bool = False
    tokens_in: int = 0
    tokens_out: int = 0
    events: int = 0

    def read(self, event: object, narrow: Narrow, budget: TurnBudget) -> str:
        """Apply one event; returns the text it carries (empty when none)."""
        if event is None or isinstance(event, str | int | float | list):
            raise narrow.malformed(f"an event is {describe(event)}, expected an object")
        kind = narrow.text(event, "type", "event.type", required=True)
        if kind == "message_start":
            message = narrow.record(event, "message", "message_start.message", required=True)
            usage = narrow.record(message, "usage", "message.usage")
            self.tokens_in = narrow.integer(usage, "input_tokens", "usage.input_tokens") or 0
            self.tokens_out = narrow.integer(usage, "output_tokens", "usage.output_tokens") or 0
        elif kind == "content_block_start":
            index = narrow.integer(event, "index", "content_block_start.index", required=True)
            block = narrow.record(event, "content_block", "content_block", required=True)
            if narrow.text(block, "type", "content_block.type", required=True) == "tool_use":
                self.blocks[index or 0] = _ToolBlock(
                    narrow.text(block, "id", "tool_use.id", required=True) or "",
                    narrow.text(block, "name", "tool_use.name", required=True) or "")
        elif kind == "content_block_delta":
            index = narrow.integer(event, "index", "content_block_delta.index", required=True)
            delta = narrow.record(event, "delta", "content_block_delta.delta", required=True)
            dtype = narrow.text(delta, "type", "delta.type", required=True)
            if dtype == "text_delta":
                text = narrow.text(delta, "text", "text_delta.text", required=True) or ""
                budget.add_text(text)
                return text
            if dtype == "input_json_delta" and index in self.blocks:
                piece = narrow.text(delta, "partial_json", "input_json_delta.partial_json") or ""
                budget.arguments_name = self.blocks[index or 0].name
                budget.add_arguments(piece)
                self.blocks[index or 0].json.append(piece)
        elif kind == "message_delta":
            delta = narrow.record(event, "delta", "message_delta.delta", required=True)
            self.stop_reason = narrow.text(delta, "stop_reason", "delta.stop_reason") or \
                self.stop_reason
            usage = narrow.record(event, "usage", "message_delta.usage")
            self.tokens_out = narrow.integer(usage, "output_tokens", "usage.output_tokens") or \
                self.tokens_out
        elif kind == "message_stop":
            self.finished = True
        return ""
