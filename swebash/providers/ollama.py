"""Ollama's native /api/chat over httpx (NDJSON, one JSON object per line).

Tool calls arrive whole (never fragmented) in ``done: false`` chunks; their ``arguments`` are
an object, or — from older servers and some proxies — a JSON string: both are
accepted. Going back, Ollama insists on an object, so arguments are re-parsed for the wire.
A stream that closes without a ``done: true`` line, or carries an ``{"error": …}`` line, ends
the turn with a clear error.
"""

from __future__ import annotations

import json
from collections.abc import AsyncGenerator, Sequence
from typing import Any

from swebash.errors import ProviderError, StreamInterrupted
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
from swebash.providers.openai_chat import parse_arguments_object, tools_to_wire
from swebash.providers.retry import (
    RetryPolicy,
    body_message,
    parse_retry_after,
    status_error,
    stream_with_retries,
    translate_error,
)

OLLAMA_URL = "http://localhost:11434"


def normalise_host(host: str | None) -> str:
    if not host:
        return OLLAMA_URL
    host = host.strip().rstrip("/")
    if "://" not in host:
        host = "http://" + host
    if host.count(":") == 1:  # scheme only, no port
        host += ":11434"
    return host


def to_wire(system: str, messages: Sequence[Message]) -> list[dict[str, Any]]:
    wire: list[dict[str, Any]] = [{"role": "system", "content": system}] if system else []
    for message in messages:
        if isinstance(message, UserMessage):
            wire.append({"role": "user", "content": message.text})
        elif isinstance(message, AssistantMessage):
            entry: dict[str, Any] = {"role": "assistant", "content": message.text}
            if message.tool_calls:
                entry["tool_calls"] = [
                    {"id": c.id, "function": {"name": c.name,
                                              "arguments": parse_arguments_object(c.arguments)}}
                    for c in message.tool_calls]
            wire.append(entry)
        elif isinstance(message, ToolResultMessage):
            wire.append({"role": "tool", "content": message.content, "tool_name": message.name,
                         "tool_call_id": message.call_id})
    return wire


def arguments_text(arguments: Any) -> str:
    if isinstance(arguments, str):
        return arguments or "{}"
    if arguments is None:
        return "{}"
    return json.dumps(arguments)


class OllamaProvider:
    def __init__(self, *, model: str, host: str | None, timeout: float,
                 policy: RetryPolicy) -> None:
        self.info = ProviderInfo(name="ollama", model=model, endpoint=normalise_host(host))
        self._timeout = timeout
        self._policy = policy
        self._client: Any = None

    def client(self) -> Any:
        if self._client is None:
            import httpx

            self._client = httpx.AsyncClient(base_url=self.info.endpoint,
                                             timeout=httpx.Timeout(self._timeout, connect=10.0))
        return self._client

    def warm(self) -> None:
        self.client()

    def stream(self, system: str, messages: Sequence[Message], tools: Sequence[ToolSchema],
               *, max_tokens: int | None = None) -> AsyncGenerator[TurnEvent, None]:
        body: dict[str, Any] = {"model": self.info.model, "messages": to_wire(system, messages),
                                "stream": True}
        if tools:
            body["tools"] = tools_to_wire(tools)
        if max_tokens:
            body["options"] = {"num_predict": max_tokens}
        return stream_with_retries(lambda: self._attempt(body), self._policy)

    def _error(self, exc: BaseException, mid_stream: bool = False) -> ProviderError:
        return translate_error(exc, "ollama", self.info.endpoint, None, mid_stream=mid_stream)

    async def _attempt(self, body: dict[str, Any]) -> AsyncGenerator[TurnEvent, None]:
        text: list[str] = []
        calls: list[ToolCall] = []
        done: dict[str, Any] | None = None
        started = False
        try:
            async with self.client().stream("POST", "/api/chat", json=body) as response:
                if response.status_code != 200:
                    raw = await response.aread()
                    try:
                        message = body_message(json.loads(raw))
                    except ValueError:
                        message = raw.decode("utf-8", "replace")
                    raise status_error("ollama", response.status_code, message, None,
                                       parse_retry_after(response.headers))
                started = True
                async for line in response.aiter_lines():
                    if not line.strip():
                        continue
                    try:
                        chunk = json.loads(line)
                    except ValueError:
                        raise StreamInterrupted("ollama: the server sent a line that is not "
                                                "JSON") from None
                    if "error" in chunk:
                        raise StreamInterrupted(f"ollama: {body_message(chunk)}")
                    reply: dict[str, Any] = chunk.get("message") or {}
                    content = reply.get("content") or ""
                    if content:
                        text.append(content)
                        yield TextDelta(content)
                    for call in reply.get("tool_calls") or ():
                        function = call.get("function") or {}
                        calls.append(ToolCall(
                            id=call.get("id") or f"call_{len(calls)}",
                            name=str(function.get("name", "")),
                            arguments=arguments_text(function.get("arguments"))))
                    if chunk.get("done"):
                        done = chunk
                        break
        except ProviderError:
            raise
        except Exception as exc:
            raise self._error(exc, mid_stream=started) from exc
        if done is None:
            raise StreamInterrupted("ollama: the response stream ended before done")
        yield TurnEnd(text="".join(text), tool_calls=tuple(calls),
                      stop_reason=str(done.get("done_reason", "stop")),
                      input_tokens=int(done.get("prompt_eval_count") or 0),
                      output_tokens=int(done.get("eval_count") or 0))
