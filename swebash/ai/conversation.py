"""Conversation memory for one shell session, with a size budget.

Memory is a list of exchanges; each starts with the user's message and holds every assistant
turn, tool call and tool result that followed it. Trimming drops whole exchanges, oldest first,
so a tool call is never separated from its result (providers reject orphans) and roles keep
alternating. The newest exchange is always kept, however large.
"""

from __future__ import annotations

from swebash.providers.base import AssistantMessage, Message, ToolResultMessage, UserMessage

DEFAULT_BUDGET = 60_000  # characters ≈ 15k tokens of history


def message_size(message: Message) -> int:
    if isinstance(message, UserMessage):
        return len(message.text)
    if isinstance(message, AssistantMessage):
        return len(message.text) + sum(len(c.arguments) + len(c.name) for c in message.tool_calls)
    return len(message.content)


class Conversation:
    def __init__(self, budget: int = DEFAULT_BUDGET) -> None:
        self.budget = budget
        self.exchanges: list[list[Message]] = []

    def messages(self) -> list[Message]:
        return [m for exchange in self.exchanges for m in exchange]

    def add_exchange(self, messages: list[Message]) -> None:
        if not messages or not isinstance(messages[0], UserMessage):
            raise ValueError("an exchange starts with the user's message")
        self.exchanges.append(list(messages))
        self.trim()

    def size(self) -> int:
        return sum(message_size(m) for m in self.messages())

    def trim(self) -> None:
        while len(self.exchanges) > 1 and self.size() > self.budget:
            self.exchanges.pop(0)

    def reset(self) -> None:
        self.exchanges.clear()


def is_consistent(messages: list[Message]) -> bool:
    """Every tool call answered by exactly one result right after its assistant turn."""
    pending: list[str] = []
    for message in messages:
        if isinstance(message, ToolResultMessage):
            if message.call_id not in pending:
                return False
            pending.remove(message.call_id)
            continue
        if pending:
            return False
        if isinstance(message, AssistantMessage):
            pending = [c.id for c in message.tool_calls]
    return not pending
