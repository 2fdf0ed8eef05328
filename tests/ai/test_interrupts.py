"""Honest interrupts in the agent loop: Ctrl-C / Esc at a y/N ends the turn (nothing else runs,
no further request, the model is told with the next question), `n` declines and the model goes
on, a tool cut by Ctrl-C stays in the conversation as interrupted, an answer cut by a broken
stream keeps the text seen, and a write the user approved is not asked about again when the
sandbox stops it."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from swebash.ai.agent import STOP_NOTE
from swebash.ai.conversation import is_consistent
from swebash.ai.service import DefaultAiService
from swebash.api import (
    ChatRequest,
    ConfirmAnswer,
    ConfirmHook,
    ConfirmRequest,
    Done,
    Error,
    ToolCallEnd,
    Verdict,
)
from swebash.config import AiConfig
from swebash.errors import StreamInterrupted
from swebash.providers.base import AssistantMessage, ToolResultMessage, UserMessage
from swebash.providers.fake import ScriptedProvider, Turn
from swebash.safety.gate import DefaultGate
from tests.ai.fakes import FakeTerminal, PatternRedactor, RuleGate, registry
from tests.ai.test_agent import events_of, service
from tests.safety.sandbox_fixtures import World, available, make_sandbox, make_world


def answers(*given: ConfirmAnswer, asked: list[ConfirmRequest]) -> ConfirmHook:
    left: Iterator[ConfirmAnswer] = iter(given)

    async def hook(request: ConfirmRequest) -> ConfirmAnswer:
        asked.append(request)
        return next(left)

    return hook


def gate() -> RuleGate:
    return RuleGate({"touch": Verdict("ask", False, ("writes files",)),
                     "rm": Verdict("ask", True, ("deletes files",))})


def two_calls(tmp_path: Path) -> Turn:
    return Turn(text="I will do two things.", calls=(
        ("execute_command", json.dumps({"command": f"touch {tmp_path}/first"})),
        ("execute_command", json.dumps({"command": f"rm -rf {tmp_path}/keep"}))))


def test_stop_at_a_question_ends_the_turn_without_another_request(tmp_path: Path) -> None:
    (tmp_path / "keep").mkdir()
    provider = ScriptedProvider([two_calls(tmp_path), Turn("should never be asked for")])
    svc = service(provider, tmp_path, gate=gate())
    asked: list[ConfirmRequest] = []
    events = events_of(svc, "do it", answers(ConfirmAnswer.YES, ConfirmAnswer.STOP,
                                             asked=asked))
    assert len(provider.sent) == 1  # no further request after the stop
    assert len(asked) == 2 and isinstance(events[-1], Done)
    # the first call was approved before the stop: it does not run either
    assert not (tmp_path / "first").exists() and (tmp_path / "keep").exists()
    ends = [e for e in events if isinstance(e, ToolCallEnd)]
    assert [json.loads(e.result)["type"] for e in ends] == ["UserStopped", "UserStopped"]
    exchange = svc.conversation.exchanges[-1]
    assert isinstance(exchange[-1], AssistantMessage) and exchange[-1].text == STOP_NOTE
    # the model reads it all with the next question, in a valid shape
    events_of(svc, "what happened?")
    sent = provider.sent[-1].messages
    assert is_consistent(sent) and isinstance(sent[-1], UserMessage)
    results = [json.loads(m.content) for m in sent if isinstance(m, ToolResultMessage)]
    assert "stopped the turn at this confirmation" in results[1]["message"]
    assert any(isinstance(m, AssistantMessage) and m.text == STOP_NOTE for m in sent)


def test_stop_at_the_first_question_asks_nothing_more(tmp_path: Path) -> None:
    (tmp_path / "keep").mkdir()
    provider = ScriptedProvider([Turn(calls=(
        ("execute_command", json.dumps({"command": f"rm -rf {tmp_path}/keep"})),
        ("execute_command", json.dumps({"command": f"touch {tmp_path}/later"}))))])
    asked: list[ConfirmRequest] = []
    events_of(service(provider, tmp_path, gate=gate()), "x",
              answers(ConfirmAnswer.STOP, asked=asked))
    assert len(asked) == 1 and len(provider.sent) == 1
    assert not (tmp_path / "later").exists()


def test_no_declines_and_the_model_goes_on(tmp_path: Path) -> None:
    (tmp_path / "keep").mkdir()
    provider = ScriptedProvider([two_calls(tmp_path), Turn("Done without deleting.")])
    asked: list[ConfirmRequest] = []
    events = events_of(service(provider, tmp_path, gate=gate()), "x",
                       answers(ConfirmAnswer.YES, ConfirmAnswer.NO, asked=asked))
    assert len(provider.sent) == 2 and events[-1] == Done("Done without deleting.")
    assert (tmp_path / "first").exists() and (tmp_path / "keep").exists()


def test_a_tool_cut_by_ctrl_c_is_recorded_as_interrupted(tmp_path: Path) -> None:
    marker = tmp_path / "started"
    command = f"touch {marker}; sleep 100"
    provider = ScriptedProvider([Turn(text="Running it.", calls=(
        ("execute_command", json.dumps({"command": command})),))])
    svc = service(provider, tmp_path)

    async def go() -> None:
        async def consume() -> None:
            async for _ in svc.chat_stream(ChatRequest("x")):
                pass
        task = asyncio.ensure_future(consume())
        while not marker.exists():
            await asyncio.sleep(0.05)
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task

    asyncio.run(go())
    messages = svc.conversation.messages()
    assert is_consistent(messages)
    call_turn = next(m for m in messages if isinstance(m, AssistantMessage) and m.tool_calls)
    assert call_turn.text == "Running it." and command in call_turn.tool_calls[0].arguments
    result = json.loads(next(m for m in messages if isinstance(m, ToolResultMessage)).content)
    assert result["type"] == "Interrupted" and "interrupted by the user" in result["message"]
    assert "Running it." not in messages[-1].text  # said once, not repeated in the note


def test_a_cut_stream_keeps_the_text_seen(tmp_path: Path) -> None:
    provider = ScriptedProvider([Turn("The first half of the answer",
                                      fail_after_text=StreamInterrupted("stream broke off"))])
    svc = service(provider, tmp_path)
    events = events_of(svc, "x")
    assert isinstance(events[-1], Error)
    last = svc.conversation.messages()[-1]
    assert isinstance(last, AssistantMessage)
    assert last.text.startswith("The first half of the answer")
    assert "cut off" in last.text and "stream broke off" in last.text


# --------------------------------------------------------------------------- one question


@pytest.fixture
def world(tmp_path: Path) -> World:
    return make_world(tmp_path)


def sandboxed(world: World, backend: str, *turns: Turn) -> tuple[DefaultAiService,
                                                                   ScriptedProvider]:
    provider = ScriptedProvider(list(turns))
    cfg = AiConfig()
    svc = DefaultAiService(config=cfg, provider_factory=lambda _: provider,
                           registry=registry(cfg.tools),
                           gate=DefaultGate(home=str(world.home)),
                           redactor=PatternRedactor(),
                           terminal=FakeTerminal(where=str(world.work), env=world.env),
                           sandbox=make_sandbox(world, backend))
    return svc, provider


def test_an_approved_write_outside_is_not_asked_again(world: World) -> None:
    # bubblewrap names the block a write outside the tree ("Read-only file system"); Landlock's
    # "Permission denied" is not told apart from a protected read yet, so it is still asked.
    backend = "bwrap"
    if available(backend) is not None:
        pytest.skip(f"{backend}: {available(backend)}")
    target = world.outside / "approved"
    svc, _ = sandboxed(world, backend, Turn(calls=(("execute_command", json.dumps(
        {"command": f"touch {target}"})),)), Turn("ok"))
    asked: list[ConfirmRequest] = []

    async def go() -> list[Any]:
        hook = answers(ConfirmAnswer.YES, ConfirmAnswer.NO, asked=asked)
        return [e async for e in svc.chat_stream(ChatRequest("go"), hook)]

    try:
        asyncio.run(go())
    finally:
        assert svc.sandbox is not None
        svc.sandbox.close()
    assert [r.kind for r in asked] == ["run", "sandbox_retry"]
    assert any(r.startswith("writes outside the working directory")
               for r in asked[0].verdict.reasons)  # the gate's words, which approval covers
    assert asked[1].approved  # the UI reruns it without a second question


@pytest.mark.parametrize(("approved_by", "writes", "covered"), [
    ("user", ("/elsewhere/out.txt",), True),
    ("user", ("/elsewhere/dir/deep/file",), True),  # below an approved directory
    ("user", ("/elsewhere/out.txt", "/work/tree/.git/config"), False),  # a protected place too
    ("user", ("/elsewhere/out.txt", "/home/u/.bashrc"), False),  # a write nobody was asked about
    ("user", ("/elsewhere/out.txt.bak",), False),  # a sibling with the same prefix
    ("user", ("/elsewhere/dir/.bashrc",), False),  # a hidden name below an approved directory
    ("user", ("/elsewhere/dir/sub/.git/config",), False),
    ("user", None, False),  # a socket, a connection or a domain was stopped as well
    ("session-rule", ("/elsewhere/out.txt",), False),
    ("auto", ("/elsewhere/out.txt",), False),
])
def test_what_an_approval_covers(approved_by: str, writes: tuple[str, ...] | None,
                                 covered: bool) -> None:
    from swebash.ai.calls import PreparedCall, approval_covers
    from swebash.providers.base import ToolCall

    p = PreparedCall(ToolCall("c1", "execute_command", "{}"), approved_by=approved_by,
                  blocked="a write outside the working tree or to a protected path (…)",
                  refused_writes=writes, verdict=Verdict("ask", True, (
                      "writes outside the working directory: /elsewhere/out.txt",
                      "writes outside the working directory: /elsewhere/dir"),
                      writes_outside=("/elsewhere/out.txt", "/elsewhere/dir")))
    assert approval_covers(p, ("/work/tree",)) is covered
    # the same words without the paths the gate named: nothing was approved to be written
    p.verdict = Verdict("ask", True, p.verdict.reasons)
    assert approval_covers(p, ("/work/tree",)) is False


def test_the_gate_names_the_paths_outside_the_tree_it_asks_about(tmp_path: Path) -> None:
    from swebash.safety.gate import DefaultGate

    tree, out = tmp_path / "tree", tmp_path / "out"
    tree.mkdir()
    out.mkdir()
    gate = DefaultGate(home=str(tmp_path / "home"))
    verdict = gate.check_command(f"echo hi > {out}/a.txt && cp x {out}/b.txt", str(tree))
    assert verdict.decision == "ask"
    assert set(verdict.writes_outside) == {str(out / "a.txt"), str(out / "b.txt")}
    # an output option of a program without a grammar is named as well
    assert gate.check_command(f"zzexport --output={out}/c.json", str(tree)).writes_outside == (
        str(out / "c.json"),)
    # a script's writes are not visible to the gate: nothing outside is named for them
    assert gate.check_command("sh ./write.sh", str(tree)).writes_outside == ()
