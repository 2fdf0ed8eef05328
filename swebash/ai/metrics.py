"""Engine metrics: turns, iterations, tokens and per-tool calls, durations and failures."""

from __future__ import annotations

from dataclasses import dataclass, field

from swebash.api import AiStats, ToolStats


@dataclass
class _Tool:
    calls: int = 0
    successes: int = 0
    failures: int = 0
    total_ms: float = 0.0


@dataclass
class Metrics:
    turns: int = 0
    iterations: int = 0
    max_depth: int = 0
    input_tokens: int = 0
    output_tokens: int = 0
    tools: dict[str, _Tool] = field(default_factory=dict)

    def tool_call(self, name: str, ok: bool, duration_ms: float) -> None:
        entry = self.tools.setdefault(name, _Tool())
        entry.calls += 1
        entry.successes += ok
        entry.failures += not ok
        entry.total_ms += duration_ms

    def depth(self, iterations: int) -> None:
        self.max_depth = max(self.max_depth, iterations)

    def snapshot(self) -> AiStats:
        return AiStats(turns=self.turns, iterations=self.iterations,
                       max_iteration_depth=self.max_depth, input_tokens=self.input_tokens,
                       output_tokens=self.output_tokens,
                       tools={n: ToolStats(t.calls, t.successes, t.failures, t.total_ms)
                              for n, t in self.tools.items()})
