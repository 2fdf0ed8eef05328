"""Anthropic Messages streaming with tool_use blocks, through the official SDK.

Wire rules that shape the translation: every assistant turn with tool_use blocks must be
followed by ONE user message holding all its tool_result blocks (first in the content), and
roles must alternate — so consecutive results are merged, and a user question that follows
results joins the same user message after them. Tool input arrives as input_json_delta
fragments (the first is usually empty) concatenated per block and parsed by the agent loop.
"""

from __future__ import annotations

from collections.abc import AsyncGenerator, Sequence
from typing import Any

from swebash.errors import StreamInterrupted
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
from swebash.providers.openai_chat import parse_arguments_object
from swebash.providers.retry import RetryPolicy, stream_with_retries, translate_error

ANTHROPIC_URL = "https://api.anthropic.com"
DEFAULT_MAX_TOKENS = 4096


def to_wire(messages: Sequence[Message]) -> list[dict[str, Any]]:
    wire: list[dict[str, Any]] = []

    def user_blocks() -> list[dict[str, Any]]:
        if wire and wire[-1]["role"] == "user":
            content = wire[-1]["content"]
            if isinstance(content, str):
                content = [{"type": "text", "text": content}]
                wire[-1]["content"] = content
            blocks: list[dict[str, Any]] = content
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
            content: list[dict[str, Any]] = []
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

            self._client = anthropic.AsyncAnthropic(api_key=self._api_key,
                                                    base_url=self.info.endpoint,
                                                    timeout=self._timeout, max_retries=0)
        return self._client

    def warm(self) -> None:
        self.client()

    def stream(self, system: str, messages: Sequence[Message], tools: Sequence[ToolSchema],
               *, max_tokens: int | None = None) -> AsyncGenerator[TurnEvent, None]:
        body: dict[str, Any] = {"model": self.info.model, "messages": to_wire(messages),
                                "max_tokens": max_tokens or DEFAULT_MAX_TOKENS, "stream": True}
        if system:
            body["system"] = system
        if tools:
            body["tools"] = [{"name": t.name, "description": t.description,
                              "input_schema": t.parameters} for t in tools]
        return stream_with_retries(lambda: self._attempt(body), self._policy)

    def _error(self, exc: BaseException, mid_stream: bool = False) -> Exception:
        return translate_error(exc, "anthropic", self.info.endpoint, "ANTHROPIC_API_KEY",
                               mid_stream=mid_stream)

    async def _attempt(self, body: dict[str, Any]) -> AsyncGenerator[TurnEvent, None]:
        try:
            stream = await self.client().messages.create(**body)
        except Exception as exc:
            raise self._error(exc) from exc
        text: list[str] = []
        blocks: dict[int, dict[str, Any]] = {}
        stop_reason = ""
        finished = False
        tokens_in = tokens_out = 0
        try:
            async with stream:
                async for event in stream:
                    kind = getattr(event, "type", "")
                    if kind == "message_start":
                        usage = getattr(event.message, "usage", None)
                        tokens_in = getattr(usage, "input_tokens", 0) or 0
                        tokens_out = getattr(usage, "output_tokens", 0) or 0
                    elif kind == "content_block_start":
                        block = event.content_block
                        if getattr(block, "type", "") == "tool_use":
                            blocks[event.index] = {"id": block.id, "name": block.name,
                                                   "json": []}
                    elif kind == "content_block_delta":
                        delta = event.delta
                        dtype = getattr(delta, "type", "")
                        if dtype == "text_delta" and delta.text:
                            text.append(delta.text)
                            yield TextDelta(delta.text)
                        elif dtype == "input_json_delta" and event.index in blocks:
                            blocks[event.index]["json"].append(delta.partial_json or "")
                    elif kind == "message_delta":
                        stop_reason = getattr(event.delta, "stop_reason", "") or stop_reason
                        usage = getattr(event, "usage", None)
                        tokens_out = getattr(usage, "output_tokens", tokens_out) or tokens_out
                    elif kind == "message_stop":
                        finished = True
        except Exception as exc:
            raise self._error(exc, mid_stream=True) from exc
        if not finished:
            raise StreamInterrupted("anthropic: the response stream ended before message_stop")
        calls = tuple(ToolCall(id=b["id"], name=b["name"], arguments="".join(b["json"]) or "{}")
                      for _, b in sorted(blocks.items()))
        yield TurnEnd(text="".join(text), tool_calls=calls, stop_reason=stop_reason,
                      input_tokens=tokens_in, output_tokens=tokens_out)
