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
from typing import TYPE_CHECKING

from swebash.api import JsonObject
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
from swebash.providers.boundary import Narrow, TurnBudget, describe, field
from swebash.providers.connection import (
    check_endpoint,
    check_stream_reply,
    ended_early,
    media_type,
    not_a_stream,
)
from swebash.providers.guard import line_limit_hook
from swebash.providers.hygiene import encodable, redirect_hook
from swebash.providers.openai_chat import parse_arguments_object, tools_to_wire
from swebash.providers.retry import (
    RetryPolicy,
    body_message,
    one_line,
    parse_retry_after,
    status_error,
    stream_with_retries,
    translate_error,
)

if TYPE_CHECKING:
    import httpx

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


def to_wire(system: str, messages: Sequence[Message]) -> list[JsonObject]:
    wire: list[JsonObject] = [{"role": "system", "content": system}] if system else []
    for message in messages:
        if isinstance(message, UserMessage):
            wire.append({"role": "user", "content": message.text})
        elif isinstance(message, AssistantMessage):
            entry: JsonObject = {"role": "assistant", "content": message.text}
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


class OllamaProvider:
    def __init__(self, *, model: str, host: str | None, timeout: float,
                 policy: RetryPolicy) -> None:
        self.info = ProviderInfo(name="ollama", model=model, endpoint=normalise_host(host))
        self._timeout = timeout
        self._policy = policy
        self._client: httpx.AsyncClient | None = None

    def client(self) -> httpx.AsyncClient:
        if self._client is None:
            import httpx

            hook = line_limit_hook(httpx.AsyncByteStream, "ollama")
            refuse = redirect_hook("ollama", self.info.endpoint)
            self._client = httpx.AsyncClient(base_url=self.info.endpoint, follow_redirects=True,
                                             timeout=httpx.Timeout(self._timeout, connect=10.0),
                                             event_hooks={"response": [hook, refuse]})
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
        body: dict[str, object] = {"model": self.info.model, "messages": to_wire(system, messages),
                                "stream": True}
        if tools:
            body["tools"] = tools_to_wire(tools)
        if max_tokens:
            body["options"] = {"num_predict": max_tokens}
        body = encodable(body)
        return stream_with_retries(lambda: self._attempt(body), self._policy,
                                   f"{self.info.name}: {self.info.endpoint}",
                                   prepare=self._ready)

    def _error(self, exc: BaseException, mid_stream: bool = False) -> ProviderError:
        return translate_error(exc, "ollama", self.info.endpoint, None, mid_stream=mid_stream)

    async def _attempt(self, body: dict[str, object]) -> AsyncGenerator[TurnEvent, None]:
        endpoint = self.info.endpoint
        check_endpoint("ollama", endpoint)
        narrow = Narrow("ollama")
        budget = TurnBudget("ollama")
        calls: list[ToolCall] = []
        done: object = None
        started = False
        lines = 0
        content_type: str | None = None
        try:
            async with self.client().stream("POST", "/api/chat", json=body) as response:
                if response.status_code != 200:
                    raw = await response.aread()
                    try:
                        message = body_message(json.loads(raw))
                    except (ValueError, RecursionError):
                        message = raw.decode("utf-8", "replace")
                    raise status_error("ollama", response.status_code, message, None,
                                       parse_retry_after(response.headers))
                content_type = response.headers.get("content-type")
                check_stream_reply("ollama", endpoint, content_type)
                started = True
                async for line in response.aiter_lines():
                    if not line.strip():
                        continue
                    lines += 1
                    chunk = self._decode(line, narrow, lines, content_type)
                    content = self._read(chunk, narrow, budget, calls)
                    if content:
                        yield TextDelta(content)
                    if narrow.flag(chunk, "done", "done"):
                        done = chunk
                        break
        except ProviderError:
            raise
        except Exception as exc:
            raise self._error(exc, mid_stream=started) from exc
        if done is None:
            raise ended_early("ollama", endpoint, content_type, lines, "application/x-ndjson",
                              "done")
        yield TurnEnd(text=budget.text, tool_calls=tuple(calls),
                      stop_reason=narrow.text(done, "done_reason", "done_reason") or "stop",
                      input_tokens=narrow.integer(done, "prompt_eval_count",
                                                  "prompt_eval_count") or 0,
                      output_tokens=narrow.integer(done, "eval_count", "eval_count") or 0)

    def _decode(self, line: str, narrow: Narrow, number: int, content_type: str | None) -> object:
        """One NDJSON line → its object; the line was already bounded by the size guard."""
        try:
            chunk: object = json.loads(line)
        except RecursionError:
            raise narrow.malformed("a line is nested too deeply to read") from None
        except ValueError:
            if number == 1 and media_type(content_type) != "application/x-ndjson":
                raise not_a_stream("ollama", self.info.endpoint, content_type) from None
            raise narrow.malformed("a line is not JSON") from None
        if not isinstance(chunk, dict):
            raise narrow.malformed(f"a line is {describe(chunk)}, expected an object")
        error = field(chunk, "error")
        if error is not None:
            raise StreamInterrupted(f"ollama: {one_line(body_message(chunk))}")
        return chunk

    @staticmethod
    def _read(chunk: object, narrow: Narrow, budget: TurnBudget, calls: list[ToolCall]) -> str:
        """Apply one line: returns its text and appends its (whole) tool calls."""
        reply = narrow.record(chunk, "message", "message")
        content = narrow.text(reply, "content", "message.content") or ""
        if content:
            budget.add_text(content)
        for call in narrow.items(reply, "tool_calls", "message.tool_calls"):
            if call is None or isinstance(call, str | int | float | list):
                raise narrow.malformed(f"a tool call is {describe(call)}, expected an object")
            function = narrow.record(call, "function", "tool_call.function", required=True)
            arguments = narrow.arguments(function, "arguments", "function.arguments")
            budget.add_arguments(arguments)
            calls.append(ToolCall(
                id=narrow.text(call, "id", "tool_call.id") or f"call_{len(calls)}",
                name=narrow.text(function, "name", "function.name") or "",
                arguments=arguments or "{}"))
        return content
