"""Parallel tool calls: each result is sent (and drawn) as its call finishes, not when the
slowest one does; the model still gets every result in call order."""

from __future__ import annotations

import asyncio
import io
import json
from pathlib import Path
from typing import Any

from rich.console import Console

from swebash.ai.service import DefaultAiService
from swebash.api import ChatRequest, ToolCallEnd, ToolCallStart, ToolExecuting
from swebash.config import AiConfig
from swebash.providers.base import ToolResultMessage
from swebash.providers.fake import ScriptedProvider, Turn
from swebash.render.events import TerminalRenderer
from swebash.render.terminal import LiveTerminal
from tests.ai.fakes import FakeTerminal, PatternRedactor, RuleGate, SleepTool, registry
from tests.render.screen import replay

CALLS = (("sleep", '{"seconds": 0.6}'), ("sleep", '{"seconds": 0.05}'),
         ("sleep", '{"seconds": 0.3}'))


def service(provider: ScriptedProvider, tmp_path: Path, sleeper: SleepTool) -> DefaultAiService:
    cfg = AiConfig()
    return DefaultAiService(config=cfg, provider_factory=lambda _: provider,
                            registry=registry(cfg.tools, sleeper), gate=RuleGate(),
                            redactor=PatternRedactor(), terminal=FakeTerminal(where=str(tmp_path)))


def test_results_arrive_in_the_order_the_calls_finish(tmp_path: Path) -> None:
    sleeper = SleepTool()
    provider = ScriptedProvider([Turn(calls=CALLS), Turn("done")])
    svc = service(provider, tmp_path, sleeper)
    finished_before: list[int] = []  # calls finished when each result arrived

    async def go() -> list[Any]:
        events = []
        async for event in svc.chat_stream(ChatRequest("go")):
            if isinstance(event, ToolCallEnd):
                finished_before.append(len(sleeper.spans))
            events.append(event)
        return events

    events = asyncio.run(go())
    ends = [e for e in events if isinstance(e, ToolCallEnd)]
    slept = [json.loads(e.result)["slept"] for e in ends]
    assert slept == [0.05, 0.3, 0.6]  # completion order, not call order
    assert finished_before == [1, 2, 3]  # the fast one was sent while two still ran
    kinds = [type(e) for e in events if isinstance(e, (ToolCallStart, ToolExecuting,
                                                       ToolCallEnd))]
    assert kinds == [ToolCallStart] * 3 + [ToolExecuting] * 3 + [ToolCallEnd] * 3
    sent = [json.loads(m.content)["slept"] for m in provider.sent[1].messages
            if isinstance(m, ToolResultMessage)]
    assert sent == [0.6, 0.05, 0.3]  # the model reads them in call order


def test_a_fast_result_is_on_screen_while_a_slow_call_still_runs(tmp_path: Path) -> None:
    sleeper = SleepTool()
    provider = ScriptedProvider([Turn(calls=CALLS), Turn("done")])
    svc = service(provider, tmp_path, sleeper)
    console = Console(file=io.StringIO(), width=80, height=30, force_terminal=True,
                      color_system=None)
    renderer = TerminalRenderer(console, terminal=LiveTerminal(console, tick_seconds=3600))
    screens: list[list[str]] = []

    async def go() -> None:
        renderer.begin_turn()
        async for event in svc.chat_stream(ChatRequest("go")):
            renderer.handle(event)
            if isinstance(event, ToolCallEnd) and not screens:
                screens.append(replay(console.file.getvalue(), 80, 30))  # type: ignore[attr-defined]
        renderer.end_turn()

    asyncio.run(go())
    first = screens[0]
    assert any(row.startswith("✓ sleep") for row in first)  # the 0.05 s call, drawn
    assert sum(row.startswith("✓") for row in first) == 1
    assert "running 2 calls" in first[-1]  # the two slow ones, still running, below it
    final = replay(console.file.getvalue(), 80, 30)  # type: ignore[attr-defined]
    assert sum(row.startswith("✓") for row in final) == 3
    assert not any("running" in row for row in final)
