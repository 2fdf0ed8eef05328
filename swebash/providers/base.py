"""Provider SPI: stream one model turn from messages and tool schemas.

A provider knows its wire protocol and nothing about tools beyond their schemas. The agent loop
owns the conversation in the neutral message types below; each provider translates them to its
own format, streams the turn, assembles tool calls from deltas, and yields ``TurnEvent`` values:
``TextDelta`` as text arrives, ``Retrying`` before a retry, and exactly one ``TurnEnd`` last.
Failures raise ``swebash.errors.ProviderError`` (``StreamInterrupted`` when a stream breaks
mid-way), translated from SDK exceptions with ``raise ... from exc``.
"""

from __future__ import annotations

from collections.abc import AsyncGenerator, Sequence
from dataclasses import dataclass, field
from typing import Protocol, runtime_checkable

from swebash.api import Retrying
from swebash.api import ToolSchema as ToolSchema  # re-exported for the provider modules

# ------------------------------------------------------------------ neutral conversation model


@dataclass(frozen=True)
class ToolCall:
    id: str
    name: str
    arguments: str  # raw JSON text as the model produced it (may be invalid JSON)


@dataclass(frozen=True)
class UserMessage:
    text: str


@dataclass(frozen=True)
class AssistantMessage:
    text: str
    tool_calls: tuple[ToolCall, ...] = ()


@dataclass(frozen=True)
class ToolResultMessage:
    call_id: str
    name: str
    content: str
    is_error: bool = False


Message = UserMessage | AssistantMessage | ToolResultMessage


# ------------------------------------------------------------------ what a turn streams


@dataclass(frozen=True)
class TextDelta:
    text: str


@dataclass(frozen=True)
class TurnEnd:
    text: str
    tool_calls: tuple[ToolCall, ...] = ()
    stop_reason: str = ""
    input_tokens: int = 0
    output_tokens: int = 0


@dataclass(frozen=True)
class ToolArgsProgress:
    """How much of this turn's tool-call arguments has arrived, so a long write shows motion."""

    name: str  # the call being written, "" until the provider has named it
    size: int  # characters of arguments so far, all calls of the turn together


TurnEvent = TextDelta | Retrying | ToolArgsProgress | TurnEnd


@dataclass(frozen=True)
class ProviderInfo:
    name: str  # openai | anthropic | gemini | ollama | openai-compatible
    model: str
    endpoint: str
    extra: dict[str, str] = field(default_factory=dict)


class Provider(Protocol):
    """One required method: stream a turn. ``info`` is plain data."""

    info: ProviderInfo

    def stream(self, system: str, messages: Sequence[Message], tools: Sequence[ToolSchema],
               *, max_tokens: int | None = None) -> AsyncGenerator[TurnEvent, None]:
        """Stream one model turn. Closing (``aclose``) or cancelling it closes the HTTP
        request at once."""
        ...


@runtime_checkable
class Warmable(Protocol):
    """Optional: a provider that can import its SDK and build its client ahead of time."""

    def warm(self) -> None: ...
