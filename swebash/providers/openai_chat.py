"""OpenAI Chat Completions streaming through the official SDK.

Also serves Gemini (its OpenAI-compatible endpoint) and any OpenAI-compatible server (vLLM,
LM Studio, llama.cpp, OpenRouter, Ollama's /v1). Tool calls are assembled from deltas keyed by
``index`` with the quirks real servers show: Gemini sends whole calls without ``index`` and may
say ``finish_reason: "stop"``; Ollama's /v1 gives every parallel call index 0 (a new ``id`` at a
used index starts a new call). Whether tools run is decided by the presence of calls, never by
``finish_reason``. The SDK is imported only when the first client is built.
"""

from __future__ import annotations

import json
from collections.abc import AsyncGenerator, Sequence
from dataclasses import dataclass, field
from typing import Any

from swebash.api import JsonObject
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
from swebash.providers.retry import RetryPolicy, stream_with_retries, translate_error

OPENAI_URL = "https://api.openai.com/v1"
GEMINI_URL = "https://generativelanguage.googleapis.com/v1beta/openai/"


def to_wire(system: str, messages: Sequence[Message]) -> list[JsonObject]:
    wire: list[JsonObject] = [{"role": "system", "content": system}] if system else []
    for message in messages:
        if isinstance(message, UserMessage):
            wire.append({"role": "user", "content": message.text})
        elif isinstance(message, AssistantMessage):
            entry: JsonObject = {"role": "assistant", "content": message.text or None}
            if message.tool_calls:
                entry["tool_calls"] = [
                    {"id": c.id, "type": "function",
                     "function": {"name": c.name, "arguments": c.arguments or "{}"}}
                    for c in message.tool_calls]
            wire.append(entry)
        elif isinstance(message, ToolResultMessage):
            wire.append({"role": "tool", "tool_call_id": message.call_id,
                         "content": message.content})
    return wire


def tools_to_wire(tools: Sequence[ToolSchema]) -> list[JsonObject]:
    return [{"type": "function", "function": {"name": t.name, "description": t.description,
                                              "parameters": t.parameters}} for t in tools]


@dataclass
class _PartialCall:
    id: str = ""
    name: str = ""
    arguments: list[str] = field(default_factory=list)


class ToolCallAssembler:
    """Concatenates tool-call fragments per call; tolerant of missing/duplicated indices.

    Every fragment is counted against the turn's argument cap before it is kept, so huge
    arguments stop at the cap instead of piling up."""

    def __init__(self, budget: TurnBudget | None = None) -> None:
        self.calls: list[_PartialCall] = []
        self.slot_of_index: dict[int, int] = {}
        self.budget = budget or TurnBudget("provider")

    def add(self, position: int, index: int | None, call_id: str | None, name: str | None,
            arguments: str | None) -> None:
        key = position if index is None else index
        slot = self.slot_of_index.get(key)
        if slot is not None and call_id and self.calls[slot].id and self.calls[slot].id != call_id:
            slot = None  # same index, new id: Ollama /v1 numbers every parallel call 0
        if slot is None:
            self.calls.append(_PartialCall())
            slot = len(self.calls) - 1
            self.slot_of_index[key] = slot
        call = self.calls[slot]
        if call_id:
            call.id = call_id
        if name and not call.name:
            call.name = name
        if arguments:
            self.budget.arguments_name = call.name or self.budget.arguments_name
            self.budget.add_arguments(arguments)
            call.arguments.append(arguments)

    def finish(self) -> tuple[ToolCall, ...]:
        done = []
        for n, call in enumerate(self.calls):
            if not call.name:
                continue
            done.append(ToolCall(id=call.id or f"call_{n}", name=call.name,
                                 arguments="".join(call.arguments) or "{}"))
        return tuple(done)


@dataclass(frozen=True)
class CallFragment:
    index: int | None
    id: str | None
    name: str | None
    arguments: str


@dataclass(frozen=True)
class ChoiceView:
    content: str | None
    calls: tuple[CallFragment, ...]
    finish_reason: str | None


@dataclass(frozen=True)
class ChunkView:
    """One streamed chunk, narrowed from the SDK object to exactly what the turn needs."""

    choices: tuple[ChoiceView, ...]
    usage: tuple[int, int] | None


def narrow_chunk(chunk: object, narrow: Narrow) -> ChunkView:
    if chunk is None or isinstance(chunk, str | int | float | list):
        raise narrow.malformed(f"an event is {describe(chunk)}, expected an object")
    usage = narrow.record(chunk, "usage", "usage")
    tokens = None
    if usage is not None:
        tokens = (narrow.integer(usage, "prompt_tokens", "usage.prompt_tokens") or 0,
                  narrow.integer(usage, "completion_tokens", "usage.completion_tokens") or 0)
    choices = []
    for choice in narrow.items(chunk, "choices", "choices"):
        if choice is None or isinstance(choice, str | int | float | list):
            raise narrow.malformed(f"a choice is {describe(choice)}, expected an object")
        delta = narrow.record(choice, "delta", "choice.delta")
        fragments = []
        for frag in narrow.items(delta, "tool_calls", "delta.tool_calls"):
            if frag is None or isinstance(frag, str | int | float | list):
                raise narrow.malformed(f"a tool call is {describe(frag)}, expected an object")
            function = narrow.record(frag, "function", "tool_call.function")
            fragments.append(CallFragment(
                narrow.integer(frag, "index", "tool_call.index"),
                narrow.text(frag, "id", "tool_call.id"),
                narrow.text(function, "name", "function.name"),
                narrow.arguments(function, "arguments", "function.arguments")))
        choices.append(ChoiceView(narrow.text(delta, "content", "delta.content"),
                                  tuple(fragments),
                                  narrow.text(choice, "finish_reason", "choice.finish_reason")))
    return ChunkView(tuple(choices), tokens)


class OpenAIChatProvider:
    def __init__(self, *, name: str, model: str, api_key: str | None, base_url: str | None,
                 timeout: float, policy: RetryPolicy, key_var: str | None) -> None:
        endpoint = base_url or (GEMINI_URL if name == "gemini" else OPENAI_URL)
        self.info = ProviderInfo(name=name, model=model, endpoint=endpoint)
        self._api_key = api_key or "not-needed"
        self._timeout = timeout
        self._policy = policy
        self._key_var = key_var
        self._client: Any = None

    def client(self) -> Any:
        if self._client is None:
            import httpx2
            import openai  # the SDK costs ~1 s to import: only now, or in warm()

            hook = line_limit_hook(httpx2.AsyncByteStream, self.info.name)
            http = openai.DefaultAsyncHttpxClient(event_hooks={"response": [
                hook, redirect_hook(self.info.name, self.info.endpoint)]})
            self._client = openai.AsyncOpenAI(api_key=self._api_key, base_url=self.info.endpoint,
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
        body: dict[str, object] = {"model": self.info.model, "messages": to_wire(system, messages),
                                   "stream": True, "stream_options": {"include_usage": True}}
        if tools:
            body["tools"] = tools_to_wire(tools)
        if max_tokens:
            body["max_tokens"] = max_tokens
        body = encodable(body)
        return stream_with_retries(lambda: self._attempt(body), self._policy,
                                   f"{self.info.name}: {self.info.endpoint}",
                                   prepare=self._ready)

    def _error(self, exc: BaseException, mid_stream: bool = False) -> Exception:
        return translate_error(exc, self.info.name, self.info.endpoint, self._key_var,
                               mid_stream=mid_stream)

    async def _attempt(self, body: dict[str, object]) -> AsyncGenerator[TurnEvent, None]:
        name, endpoint = self.info.name, self.info.endpoint
        check_endpoint(name, endpoint)
        try:
            stream = await self.client().chat.completions.create(**body)
        except Exception as exc:
            raise self._error(exc) from exc
        narrow = Narrow(name)
        budget = TurnBudget(name)
        calls = ToolCallAssembler(budget)
        finish_reason: str | None = None
        usage = (0, 0)
        events = 0
        try:
            async with stream:
                check_stream_reply(name, endpoint, stream_content_type(stream))
                async for chunk in stream:
                    events += 1
                    view = narrow_chunk(chunk, narrow)
                    usage = view.usage or usage
                    for choice in view.choices:
                        if choice.content:
                            budget.add_text(choice.content)
                            yield TextDelta(choice.content)
                        for pos, frag in enumerate(choice.calls):
                            calls.add(pos, frag.index, frag.id, frag.name, frag.arguments)
                        progress = budget.progress()
                        if progress is not None:
                            yield progress
                        finish_reason = choice.finish_reason or finish_reason
        except Exception as exc:
            raise (undecodable(narrow, exc) or self._error(exc, mid_stream=True)) from exc
        if finish_reason is None:
            raise ended_early(name, endpoint, stream_content_type(stream), events,
                              "text/event-stream", "the model finished")
        yield TurnEnd(text=budget.text, tool_calls=calls.finish(), stop_reason=finish_reason,
                      input_tokens=usage[0], output_tokens=usage[1])


def parse_arguments_object(raw: str) -> JsonObject:
    """Raw argument JSON → object for wire formats that need one ({} when it is not)."""
    try:
        value = json.loads(raw or "{}")
    except (ValueError, RecursionError):  # invalid, or nested too deep for the decoder
        return {}
    return value if isinstance(value, dict) else {}
