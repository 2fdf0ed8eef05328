"""A long tool call's arguments show motion: the providers report how much has arrived (through
the real SDKs), the agent passes it on, and the renderer's spinner shows the size."""

from __future__ import annotations

import io
import json

import pytest
from rich.console import Console

from swebash.api import ToolArgsStreaming, ToolCallStart
from swebash.providers.base import ToolArgsProgress, ToolSchema
from swebash.providers.select import create_provider
from swebash.render.events import TerminalRenderer
from tests.fakes.server import FakeServer
from tests.providers.test_providers import config_for, end_of, run_turn

WRITE = [ToolSchema("write_file", "Write a file",
                    {"type": "object", "properties": {"path": {"type": "string"},
                                                      "content": {"type": "string"}}})]


@pytest.mark.parametrize("name", ["openai", "anthropic"])
def test_streamed_arguments_report_progress_per_kilobyte(name: str, server: FakeServer) -> None:
    server.script({"tools": [["write_file", {"fill": 9000}]], "arg_chunks": 40})
    events = run_turn(create_provider(config_for(name, server)), tools=WRITE)
    progress = [e for e in events if isinstance(e, ToolArgsProgress)]
    assert 7 <= len(progress) <= 10, progress
    sizes = [p.size for p in progress]
    assert sizes == sorted(sizes) and sizes[-1] <= len(end_of(events).tool_calls[0].arguments)
    assert {p.name for p in progress} == {"write_file"}


@pytest.mark.parametrize("name", ["openai", "anthropic", "ollama"])
def test_small_arguments_report_nothing(name: str, server: FakeServer) -> None:
    server.script({"tools": [["write_file", json.dumps({"path": "a", "content": "b"})]]})
    events = run_turn(create_provider(config_for(name, server)), tools=WRITE)
    assert not [e for e in events if isinstance(e, ToolArgsProgress)]


def test_the_spinner_names_the_call_and_its_size() -> None:
    out = io.StringIO()
    console = Console(file=out, force_terminal=True, width=80, color_system=None)
    renderer = TerminalRenderer(console)
    renderer.begin_turn()
    renderer.handle(ToolArgsStreaming("write_file", 9 * 1024))
    assert "writing the write_file call · 9.0 KB" in renderer.spinner.line()
    renderer.handle(ToolCallStart("write_file", {"path": "a"}, "write a (1 line)", "c1"))
    renderer.end_turn()
