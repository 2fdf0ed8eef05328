"""Small fakes for engine tests: a scripted gate, a redactor, a terminal context, slow tools."""

from __future__ import annotations

import asyncio
import json
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from swebash.api import (
    CommandRecord,
    ConfirmAnswer,
    ConfirmHook,
    ConfirmRequest,
    ToolSchema,
    Verdict,
)
from swebash.config import ToolConfig
from swebash.providers.fake import ScriptedProvider
from swebash.tools.base import Category, GateSubject, ToolContext, ToolExecutor, ToolOutput
from swebash.tools.registry import ToolRegistry, default_registry


@dataclass
class RuleGate:
    """Commands starting with a key get that verdict; everything else is allowed."""

    rules: dict[str, Verdict] = field(default_factory=dict)
    checked: list[str] = field(default_factory=list)

    def check_command(self, command: str, cwd: str) -> Verdict:
        self.checked.append(command)
        for prefix, verdict in self.rules.items():
            if command.startswith(prefix):
                return verdict
        return Verdict("allow")

    def check_path(self, path: str, cwd: str, *, write: bool) -> Verdict:
        self.checked.append(path)
        if "secret" in path:
            return Verdict("deny", False, ("reads secret material: " + path,))
        return Verdict("allow")


class PatternRedactor:
    def __init__(self, *secrets: str) -> None:
        self.secrets = secrets

    def redact(self, text: str) -> str:
        for secret in self.secrets:
            text = text.replace(secret, "[REDACTED:test]")
        return re.sub(r"sk-[A-Za-z0-9]{10,}", "[REDACTED:openai-key]", text)


@dataclass
class FakeTerminal:
    records: list[CommandRecord] = field(default_factory=list)
    where: str = "/"
    env: dict[str, str] = field(default_factory=dict)

    def recent_commands(self, limit: int) -> Sequence[CommandRecord]:
        return self.records[-limit:]

    def cwd(self) -> str:
        return self.where

    def exported_env(self) -> Mapping[str, str]:
        return self.env


class SleepTool(ToolExecutor):
    """Sleeps ``seconds`` and reports when it started and ended (concurrency checks)."""

    name = "sleep"
    category: Category = "exec"

    def __init__(self) -> None:
        self.spans: list[tuple[float, float]] = []

    def definition(self) -> ToolSchema:
        return ToolSchema("sleep", "sleep", {"type": "object", "properties": {
            "seconds": {"type": "number"}}, "required": ["seconds"]})

    async def execute(self, args: dict[str, Any], ctx: ToolContext) -> ToolOutput:
        loop = asyncio.get_running_loop()
        start = loop.time()
        await asyncio.sleep(args["seconds"])
        self.spans.append((start, loop.time()))
        return ToolOutput(json.dumps({"slept": args["seconds"]}), summary="slept")


class BrokenTool(ToolExecutor):
    name = "broken"
    category: Category = "exec"

    def definition(self) -> ToolSchema:
        return ToolSchema("broken", "always fails", {"type": "object", "properties": {}})

    def gate_subject(self, args: dict[str, Any]) -> GateSubject:
        return GateSubject("none")

    async def execute(self, args: dict[str, Any], ctx: ToolContext) -> ToolOutput:
        raise RuntimeError("tool bug")


def registry(config: ToolConfig | None = None, *extra: ToolExecutor) -> ToolRegistry:
    reg = default_registry(config or ToolConfig())
    for tool in extra:
        reg.register(tool)
    return reg


def answering(answer: ConfirmAnswer, asked: list[ConfirmRequest]) -> ConfirmHook:
    async def hook(request: ConfirmRequest) -> ConfirmAnswer:
        asked.append(request)
        return answer

    return hook


def make_provider(*turns: Any) -> ScriptedProvider:
    return ScriptedProvider(turns=list(turns))


Check = Callable[[Any], bool]
