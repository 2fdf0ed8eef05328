"""Engine benchmarks (issue 3): overhead per iteration without model and tool time (≤ 5 ms),
and three independent 1 s tool calls in one turn (≤ 1.3 s, i.e. they run concurrently)."""

from __future__ import annotations

import asyncio
import json
import os
import sys
import time
from typing import Any

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from swebash.ai.service import DefaultAiService
from swebash.api import ChatRequest, ToolSchema, Verdict
from swebash.config import AiConfig, ToolConfig
from swebash.providers.fake import ScriptedProvider, Turn
from swebash.safety.gate import DefaultGate
from swebash.safety.redact import SecretRedactor
from swebash.tools.base import Category, ToolContext, ToolExecutor, ToolOutput
from swebash.tools.registry import ToolRegistry


class Sleep(ToolExecutor):
    name = "sleep"
    category: Category = "exec"

    def definition(self) -> ToolSchema:
        return ToolSchema("sleep", "sleep", {"type": "object", "properties": {
            "seconds": {"type": "number"}}, "required": ["seconds"]})

    async def execute(self, args: dict[str, Any], ctx: ToolContext) -> ToolOutput:
        await asyncio.sleep(args["seconds"])
        return ToolOutput(json.dumps({"slept": args["seconds"]}))


class AllowAll(DefaultGate):
    def check_command(self, command: str, cwd: str) -> Verdict:
        return Verdict("allow")


def service(turns: list[Turn | BaseException]) -> tuple[DefaultAiService, ScriptedProvider]:
    provider = ScriptedProvider(turns=list(turns))
    tools = ToolConfig(enable_fs=False, enable_web=False, max_iterations=1000)
    registry = ToolRegistry(tools)
    registry.register(Sleep())
    svc = DefaultAiService(config=AiConfig(tools=tools), provider_factory=lambda _: provider,
                           registry=registry, gate=AllowAll(home="/nonexistent"),
                           redactor=SecretRedactor(os.environ))
    return svc, provider


async def drain(svc: DefaultAiService) -> None:
    async for _ in svc.chat_stream(ChatRequest("go")):
        pass


def main() -> int:
    iterations = 200
    call = Turn(calls=(("sleep", '{"seconds": 0}'),))
    svc, _ = service([call] * iterations + [Turn("done")])
    started = time.perf_counter()
    asyncio.run(drain(svc))
    per_iteration = (time.perf_counter() - started) / (iterations + 1) * 1000
    print(f"engine overhead per iteration (zero-latency model and tool): "
          f"{per_iteration:.2f} ms   [target <= 5 ms]")
    three = Turn(calls=tuple(("sleep", '{"seconds": 1}') for _ in range(3)))
    svc, _ = service([three, Turn("done")])
    started = time.perf_counter()
    asyncio.run(drain(svc))
    wall = time.perf_counter() - started
    print(f"three independent 1 s tool calls: {wall:.2f} s wall (sequential would be 3.0 s, "
          f"ratio {wall / 3.0:.2f}x)   [target <= 1.3 s]")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
