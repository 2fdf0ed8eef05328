"""What a server sends is checked at the provider boundary, through the real SDKs: wrong JSON
types are one MalformedEvent line, answers and tool-call arguments stop at their caps with
bounded memory, and deep nesting is an error rather than a RecursionError."""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys
import tracemalloc
from collections.abc import Iterator
from pathlib import Path

import pytest

from swebash.config import AiConfig
from swebash.errors import InvalidArguments, MalformedEvent, ProviderError, ResponseTooLarge
from swebash.providers.base import Provider, TextDelta, TurnEnd, TurnEvent, UserMessage
from swebash.providers.boundary import MAX_ANSWER_CHARS, MAX_ARGUMENTS_CHARS
from swebash.providers.select import create_provider
from swebash.tools.schema import parse_arguments
from tests.fakes.server import FakeServer
from tests.providers.test_providers import TOOLS, config_for, end_of, run_turn

BASE = {"id": "chatcmpl-x", "object": "chat.completion.chunk", "created": 1, "model": "m"}


def openai_delta(delta: object, finish: object = None) -> dict[str, object]:
    return {**BASE, "choices": [{"index": 0, "delta": delta, "finish_reason": finish}]}


def anthropic_start() -> dict[str, object]:
    return {"type": "message_start", "message": {
        "id": "msg_x", "type": "message", "role": "assistant", "model": "m", "content": [],
        "stop_reason": None, "stop_sequence": None,
        "usage": {"input_tokens": 1, "output_tokens": 1}}}


def ollama_line(message: object, **extra: object) -> dict[str, object]:
    return {"model": "m", "created_at": "2026-11-22T00:00:00Z", "message": message,
            "done": False, **extra}


MALFORMED: list[tuple[str, list[object], str]] = [
    ("openai", [openai_delta({"content": 123})], "delta.content is a number, expected text"),
    ("openai", [openai_delta({"tool_calls": "abc"})], "delta.tool_calls is text, expected a list"),
    ("openai", [openai_delta({"tool_calls": [{"index": 0, "id": "c", "function": {
        "name": "execute_command", "arguments": 5}}]})], "function.arguments is a number"),
    ("openai", [openai_delta({"tool_calls": [{"index": 0, "id": 5, "function": {"name": "x"}}]})],
     "tool_call.id is a number, expected text"),
    ("openai", [{**BASE, "choices": "nope"}], "choices is text, expected a list"),
    ("openai", [openai_delta(123)], "choice.delta is a number, expected an object"),
    ("openai", [openai_delta({}, finish=7)], "choice.finish_reason is a number"),
    ("openai", ["data: {not json\n\n"], "an event is not JSON"),
    ("openai", ["data: 123\n\n"], "an event is a number, expected an object"),
    ("anthropic", ["event: message_start\ndata: [1]\n\n"], "an event is a list"),
    ("anthropic", ["event: content_block_delta\ndata: {bad\n\n"], "an event is not JSON"),
    ("anthropic", [anthropic_start(), {"type": "content_block_delta", "index": 0,
                                       "delta": {"type": "text_delta", "text": 123}}],
     "text_delta.text is a number, expected text"),
    ("anthropic", [anthropic_start(),
                   {"type": "content_block_start", "index": 0, "content_block": {
                       "type": "tool_use", "id": "t", "name": "x", "input": {}}},
                   {"type": "content_block_delta", "index": 0,
                    "delta": {"type": "input_json_delta", "partial_json": [1]}}],
     "input_json_delta.partial_json is a list"),
    ("anthropic", [anthropic_start(), {"type": "content_block_start", "index": 0,
                                       "content_block": 5}], "content_block is a number"),
    ("anthropic", [anthropic_start(), {"type": "content_block_delta"}],
     "content_block_delta.index is missing"),
    ("anthropic", [anthropic_start(), {"type": "message_delta", "delta": {"stop_reason": 5}}],
     "delta.stop_reason is a number"),
    ("ollama", [ollama_line({"role": "assistant", "content": 123})],
     "message.content is a number, expected text"),
    ("ollama", [ollama_line({"role": "assistant", "tool_calls": "abc"})],
     "message.tool_calls is text, expected a list"),
    ("ollama", [ollama_line({"role": "assistant", "tool_calls": [
        {"function": {"name": "x", "arguments": 5}}]})], "function.arguments is a number"),
    ("ollama", [ollama_line("hello")], "message is text, expected an object"),
    ("ollama", [ollama_line({"content": "hi"}, done="yes")], "done is text"),
    ("ollama", ["[1, 2]\n"], "a line is a list, expected an object"),
    ("ollama", [json.dumps(ollama_line({"content": "hi"})) + "\n", "{oops\n"],
     "a line is not JSON"),
]


@pytest.fixture
def server() -> Iterator[FakeServer]:
    fake = FakeServer().start()
    yield fake
    fake.stop()


@pytest.mark.parametrize(("name", "events", "expected"), MALFORMED,
                         ids=[f"{n}-{i}" for i, (n, _, _) in enumerate(MALFORMED)])
def test_wrong_types_are_one_malformed_event_line(name: str, events: list[object],
                                                  expected: str, server: FakeServer) -> None:
    server.script({"events": events})
    with pytest.raises(MalformedEvent) as info:
        run_turn(create_provider(config_for(name, server)))
    message = str(info.value)
    assert message.startswith(f"{name}: the provider sent a malformed event: ")
    assert expected in message and "\n" not in message
    assert len(server.requests) == 1  # the same server would send the same: never retried


def test_openai_arguments_sent_as_an_object_are_accepted(server: FakeServer) -> None:
    server.script({"events": [
        openai_delta({"tool_calls": [{"index": 0, "id": "c1", "function": {
            "name": "execute_command", "arguments": {"command": "ls"}}}]}),
        openai_delta({}, finish="tool_calls"), "data: [DONE]\n\n"]})
    end = end_of(run_turn(create_provider(config_for("openai", server))))
    assert json.loads(end.tool_calls[0].arguments) == {"command": "ls"}


# ------------------------------------------------------------------ size caps


def stream_until_error(provider: Provider) -> tuple[int, BaseException | None]:
    """Text size seen before the stream ended, and the error that ended it."""
    seen = 0

    async def go() -> None:
        nonlocal seen
        async for event in provider.stream("", [UserMessage("hi")], TOOLS):
            if isinstance(event, TextDelta):
                seen += len(event.text)

    try:
        asyncio.run(go())
    except ProviderError as exc:
        return seen, exc
    return seen, None


@pytest.mark.parametrize("name", ["openai", "anthropic", "ollama"])
def test_an_endless_answer_stops_at_the_cap_with_bounded_memory(name: str,
                                                                server: FakeServer) -> None:
    server.script({"endless": "All work and no play makes Jack a dull boy. " * 20})
    provider = create_provider(config_for(name, server))
    provider_warm(provider)
    tracemalloc.start()
    try:
        seen, error = stream_until_error(provider)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert isinstance(error, ResponseTooLarge)
    assert "the cap on one answer" in str(error) and "\n" not in str(error)
    assert MAX_ANSWER_CHARS - 2000 < seen <= MAX_ANSWER_CHARS
    # the answer itself is kept once (~1 MB); generous bound, far from unbounded growth
    assert peak < 12 * MAX_ANSWER_CHARS, f"peak {peak / 1e6:.1f} MB"


def provider_warm(provider: Provider) -> None:
    warm = getattr(provider, "warm", None)
    if callable(warm):
        warm()  # import the SDK before measuring: its import is not the stream's memory


@pytest.fixture
def server_process(tmp_path: Path) -> Iterator[tuple[Path, list[subprocess.Popen[str]]]]:
    """The fake server in its own process, so its memory is not counted as the client's."""
    procs: list[subprocess.Popen[str]] = []
    yield tmp_path, procs
    for proc in procs:
        proc.kill()
        proc.wait()


def start_server_process(where: Path, procs: list[subprocess.Popen[str]],
                         replies: list[object]) -> str:
    script = where / "replies.json"
    script.write_text(json.dumps(replies))
    proc = subprocess.Popen([sys.executable, "-m", "tests.fakes.server", "--script", str(script)],
                            stdout=subprocess.PIPE, text=True,
                            cwd=Path(__file__).resolve().parents[2])
    procs.append(proc)
    assert proc.stdout is not None
    return f"http://127.0.0.1:{int(proc.stdout.readline().split()[1])}"


def config_for_url(name: str, url: str) -> AiConfig:
    if name == "openai":
        return AiConfig(provider="openai", openai_api_key="sk-test", openai_base_url=url + "/v1")
    if name == "anthropic":
        return AiConfig(provider="anthropic", anthropic_api_key="sk-ant-test",
                        anthropic_base_url=url)
    return AiConfig(provider="ollama", ollama_host=url)


@pytest.mark.parametrize("name", ["openai", "anthropic", "ollama"])
@pytest.mark.parametrize("fragments", [40, 1])
def test_ten_megabyte_arguments_stop_at_the_cap_with_bounded_memory(
        name: str, fragments: int,
        server_process: tuple[Path, list[subprocess.Popen[str]]]) -> None:
    where, procs = server_process
    reply = {"tools": [["write_file", {"fill": 10_000_000}]], "arg_chunks": fragments}
    url = start_server_process(where, procs, [reply])
    peak, error = measured_turn(name, url)
    assert isinstance(error, ResponseTooLarge) and "1 MB" in str(error)
    if fragments > 1 and name != "ollama":  # Ollama always sends a whole call in one line
        assert "tool-call arguments passed 1 MB" in str(error)
    # 10 MB of arguments used to peak at ~1.25 GB RSS in the whole shell; now one event is
    # read up to 4 MB at most and fragments stop at the 1 MB cap.
    assert peak < 15 * MAX_ARGUMENTS_CHARS, f"peak {peak / 1e6:.1f} MB"


@pytest.mark.parametrize("name", ["openai", "anthropic", "ollama"])
def test_a_line_that_never_ends_is_stopped_with_bounded_memory(
        name: str, server_process: tuple[Path, list[subprocess.Popen[str]]]) -> None:
    where, procs = server_process
    url = start_server_process(where, procs, [{"endless_line": "x" * 4096}])
    peak, error = measured_turn(name, url)
    assert isinstance(error, ResponseTooLarge) and "one event of the reply passed 4 MB" in \
        str(error)
    assert peak < 15 * MAX_ARGUMENTS_CHARS, f"peak {peak / 1e6:.1f} MB"


def measured_turn(name: str, url: str) -> tuple[int, BaseException | None]:
    """Peak traced memory of one turn (the SDK imported beforehand) and its error."""
    provider = create_provider(config_for_url(name, url))
    provider_warm(provider)
    tracemalloc.start()
    try:
        _, error = stream_until_error(provider)
        return tracemalloc.get_traced_memory()[1], error
    finally:
        tracemalloc.stop()


@pytest.mark.parametrize("name", ["openai", "anthropic"])
def test_arguments_under_the_cap_arrive_whole(name: str, server: FakeServer) -> None:
    server.script({"tools": [["write_file", {"fill": 900_000}]], "arg_chunks": 9})
    end = end_of(run_turn(create_provider(config_for(name, server))))
    assert len(json.loads(end.tool_calls[0].arguments)["content"]) == 900_000


# ------------------------------------------------------------------ nesting


@pytest.mark.parametrize("name", ["openai", "anthropic"])
def test_deep_arguments_pass_through_then_are_invalid_arguments(name: str,
                                                               server: FakeServer) -> None:
    server.script({"tools": [["execute_command", {"depth": 100_000}]]})
    end = end_of(run_turn(create_provider(config_for(name, server))))
    with pytest.raises(InvalidArguments, match="nested deeper than 100 levels"):
        parse_arguments(end.tool_calls[0].arguments)


def test_ollama_deep_object_arguments_are_a_malformed_event(server: FakeServer) -> None:
    server.script({"tools": [["execute_command", {"depth": 100_000}]]})
    with pytest.raises(MalformedEvent, match="nested too deeply"):
        run_turn(create_provider(config_for("ollama", server)))


def test_deep_arguments_in_history_do_not_break_the_next_request(server: FakeServer) -> None:
    """Anthropic and Ollama re-parse arguments for the wire: a deep one becomes {}."""
    from swebash.providers.base import AssistantMessage, ToolCall, ToolResultMessage

    deep = '{"a": ' + "[" * 100_000 + "]" * 100_000 + "}"
    history = [UserMessage("go"), AssistantMessage("", (ToolCall("c1", "x", deep),)),
               ToolResultMessage("c1", "x", "error", is_error=True), UserMessage("again")]
    for name in ("anthropic", "ollama"):
        server.script({"text": "fine"})
        events: list[TurnEvent] = run_turn(create_provider(config_for(name, server)), history)
        assert isinstance(events[-1], TurnEnd) and events[-1].text == "fine"
