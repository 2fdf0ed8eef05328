"""ScriptedProvider: a fake Provider shipped next to the real ones (DESIGN style rule 3).

It plays scripted turns and records what it was sent. A turn is a ``Turn`` (text in chunks,
tool calls, an optional delay per chunk) or an exception instance to raise — before or after
some text, to imitate a stream breaking mid-way.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncGenerator, Sequence
from dataclasses import dataclass, field

from swebash.providers.base import (
    Message,
    ProviderInfo,
    TextDelta,
    ToolCall,
    ToolSchema,
    TurnEnd,
    TurnEvent,
)


@dataclass(frozen=True)
class Turn:
    text: str = ""
    calls: tuple[tuple[str, str], ...] = ()  # (tool name, raw JSON arguments)
    chunks: int = 1
    delay: float = 0.0
    fail_after_text: BaseException | None = None  # raise after streaming the text


@dataclass
class Sent:
    system: str
    messages: list[Message]
    tools: list[ToolSchema]


@dataclass
class ScriptedProvider:
    turns: list[Turn | BaseException] = field(default_factory=list)
    info: ProviderInfo = field(default_factory=lambda: ProviderInfo("fake", "fake-model",
                                                                    "memory://fake"))
    sent: list[Sent] = field(default_factory=list)
    default: Turn = field(default_factory=lambda: Turn("(no more scripted turns)"))
    _calls: int = 0

    def stream(self, system: str, messages: Sequence[Message], tools: Sequence[ToolSchema],
               *, max_tokens: int | None = None) -> AsyncGenerator[TurnEvent, None]:
        self.sent.append(Sent(system, list(messages), list(tools)))
        step = self.turns.pop(0) if self.turns else self.default
        return self._play(step)

    async def _play(self, step: Turn | BaseException) -> AsyncGenerator[TurnEvent, None]:
        if isinstance(step, BaseException):
            raise step
        size = max(1, -(-len(step.text) // max(1, step.chunks)))
        for start in range(0, len(step.text), size):
            if step.delay:
                await asyncio.sleep(step.delay)
            yield TextDelta(step.text[start:start + size])
        if step.fail_after_text is not None:
            raise step.fail_after_text
        calls = []
        for name, args in step.calls:
            self._calls += 1
            calls.append(ToolCall(f"call_{self._calls}", name, args))
        yield TurnEnd(step.text, tuple(calls), "tool_calls" if calls else "stop", 10, 5)
