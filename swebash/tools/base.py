"""Tool SPI: a tool is a ToolExecutor with one required method, ``execute``.

A tool has one required method, ``execute``; ``definition``, ``requires_confirmation`` and
``describe_call`` are plain data about it. Tools never prompt the user and never decide whether
they may run: the agent loop asks the safety gate (``gate_subject``) and, if the gate says
``ask``, the UI. A tool signals failure by raising ``swebash.errors.ToolError`` subclasses; the
loop turns every failure into a tool result the model sees
(``{"error": true, "type": …, "message": …}``).
"""

from __future__ import annotations

import abc
import asyncio
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Literal, Protocol

from swebash.api import JsonObject, ToolSchema
from swebash.config import ToolConfig

if TYPE_CHECKING:
    from swebash.safety.boundary import FileBoundary
    from swebash.safety.sandbox import Sandbox

Category = Literal["fs", "exec", "web", "meta", "mcp"]


@dataclass(frozen=True)
class ToolContext:
    """What a tool may know about the world it runs in."""

    cwd: str
    env: Mapping[str, str]
    config: ToolConfig
    cancel: asyncio.Event = field(default_factory=asyncio.Event)
    sandbox: Sandbox | None = None  # confines the processes a tool starts; None: unconfined
    # what a file tool may open, list or write (the gate's own); None: one from ``env``
    files: FileBoundary | None = None


@dataclass(frozen=True)
class GateSubject:
    """What the safety gate must judge before a call runs."""

    kind: Literal["command", "read_path", "write_path", "none"]
    value: str = ""  # the command line or the path as the model gave it


@dataclass(frozen=True)
class ToolOutput:
    """A successful result: ``content`` is what the model sees (JSON text)."""

    content: str
    summary: str = ""  # one human line for panels ("exit 0 · 12 lines")
    exit_code: int | None = None
    truncated: bool = False
    sandbox_blocked: str | None = None  # what the sandbox stopped, when that made it fail
    # the paths of the writes the sandbox refused, when those are all it stopped
    sandbox_writes: tuple[str, ...] | None = None


class ToolExecutor(abc.ABC):
    name: str
    category: Category

    @abc.abstractmethod
    def definition(self) -> ToolSchema: ...

    @abc.abstractmethod
    async def execute(self, args: JsonObject, ctx: ToolContext) -> ToolOutput:
        """Run the call. ``args`` is already parsed and checked against the schema."""

    def requires_confirmation(self, args: JsonObject) -> bool:
        return False

    def describe_call(self, args: JsonObject) -> str:
        return f"{self.name} {args}"

    def gate_subject(self, args: JsonObject) -> GateSubject:
        return GateSubject("none")

    def preview(self, args: JsonObject, ctx: ToolContext) -> str | None:
        """Optional text shown in the confirmation (a diff, a file head)."""
        return None


class ToolSource(Protocol):
    """Tools that appear at run time (MCP servers): all callable by name, some offered."""

    def tools(self) -> Sequence[ToolExecutor]:
        """Every tool the model may call by name."""
        ...

    def offered(self) -> Sequence[ToolExecutor]:
        """The tools whose schemas go into requests (a subset when there are many)."""
        ...
