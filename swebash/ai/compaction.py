"""Compaction: a long conversation's older exchanges become one summary written by the model.

When the history grows past a threshold (``[sessions] compact_after_bytes``, and never later
than 70 % of the conversation's budget, so trimming does not drop turns first), everything but
the last ``KEEP`` exchanges is rendered as plain text and summarised in one tool-less request.
``RecordedConversation.compact`` then swaps the summary in and writes a ``compaction`` line to
the session file, so a resumed conversation sees the same history. A failed summary changes
nothing: the conversation goes on and trimming remains the fallback.
"""

from __future__ import annotations

import contextlib

from swebash.ai.sessions import SUMMARY_QUESTION, RecordedConversation
from swebash.providers.base import (
    AssistantMessage,
    Message,
    Provider,
    TextDelta,
    ToolResultMessage,
    UserMessage,
)

KEEP = 2
SOURCE_LIMIT = 120_000  # characters of history given to the summariser
RESULT_LIMIT = 600  # characters of each tool result in that text

SYSTEM = ("You summarise the earlier part of a conversation between a terminal user and an "
          "AI assistant working in their shell, so the conversation can continue without it. "
          "Keep: the user's goals and preferences, decisions made, facts found (paths, "
          "commands, errors, versions), what was changed on disk, and open questions. Drop "
          "chit-chat. Write at most 300 words of plain Markdown bullet points.")


def threshold(conversation: RecordedConversation, compact_after_bytes: int) -> int:
    return min(compact_after_bytes, int(conversation.budget * 0.7))


def needs_compaction(conversation: RecordedConversation, compact_after_bytes: int) -> bool:
    return (len(conversation.exchanges) > KEEP
            and conversation.size() > threshold(conversation, compact_after_bytes))


def render(messages: list[Message]) -> str:
    lines: list[str] = []
    for message in messages:
        if isinstance(message, UserMessage):
            if message.text != SUMMARY_QUESTION:  # the summary itself follows as the answer
                lines.append(f"User: {message.text}")
        elif isinstance(message, AssistantMessage):
            if message.text:
                lines.append(f"Assistant: {message.text}")
            lines.extend(f"Assistant called {c.name}({c.arguments[:300]})"
                         for c in message.tool_calls)
        elif isinstance(message, ToolResultMessage):
            lines.append(f"Result of {message.name}: {message.content[:RESULT_LIMIT]}")
    text = "\n".join(lines)
    return text[-SOURCE_LIMIT:]


async def compact(provider: Provider, conversation: RecordedConversation) -> bool:
    """Summarise all but the last ``KEEP`` exchanges; True when the history was replaced."""
    older = [m for exchange in conversation.exchanges[:-KEEP] for m in exchange]
    if not older:
        return False
    chunks: list[str] = []
    stream = provider.stream(SYSTEM, [UserMessage("Summarise this conversation:\n\n"
                                                  + render(older))], [], max_tokens=800)
    async with contextlib.aclosing(stream):
        async for event in stream:
            if isinstance(event, TextDelta):
                chunks.append(event.text)
    summary = "".join(chunks).strip()
    if not summary:
        return False
    conversation.compact(summary, KEEP)
    return True
