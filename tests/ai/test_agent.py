"""The agent loop and DefaultAiService, with the ScriptedProvider, real tools and a fake gate."""

from __future__ import annotations

import asyncio
import json
import time
from pathlib import Path
from typing import Any

import pytest

from swebash.ai.conversation import is_consistent
from swebash.ai.service import DefaultAiService
from swebash.api import (
    ChatRequest,
    CommandRecord,
    ConfirmAnswer,
    ConfirmRequest,
    Delta,
    Done,
    Error,
    ToolCallEnd,
    ToolCallStart,
    ToolExecuting,
    Verdict,
)
from swebash.config import AiConfig, ToolConfig
from swebash.errors import ProviderError, StreamInterrupted
from swebash.providers.base import ToolResultMessage
from swebash.providers.fake import ScriptedProvider, Turn
from swebash.safety.audit import AuditLog
from tests.ai.fakes import (
    BrokenTool,
    FakeTerminal,
    PatternRedactor,
    RuleGate,
    SleepTool,
    answering,
    registry,
)


def service(provider: ScriptedProvider, tmp_path: Path, *, gate: RuleGate | None = None,
            tools: ToolConfig | None = None, extra: tuple[Any, ...] = (),
            terminal: FakeTerminal | None = None, audit: AuditLog | None = None
            ) -> DefaultAiService:
    cfg = AiConfig(tools=tools or ToolConfig())
    return DefaultAiService(config=cfg, provider_factory=lambda _: provider,
                            registry=registry(cfg.tools, *extra), gate=gate or RuleGate(),
                            redactor=PatternRedactor("hunter2"),
                            terminal=terminal or FakeTerminal(where=str(tmp_path)),
                            audit=audit)


def events_of(svc: DefaultAiService, question: str, confirm: Any = None) -> list[Any]:
    async def go() -> list[Any]:
        return [e async for e in svc.chat_stream(ChatRequest(question), confirm)]
    return asyncio.run(go())


def results_sent(provider: ScriptedProvider, turn: int) -> list[dict[str, Any]]:
    return [json.loads(m.content) for m in provider.sent[turn].messages
            if isinstance(m, ToolResultMessage)]


def test_plain_answer_streams_and_is_remembered(tmp_path: Path) -> None:
    provider = ScriptedProvider([Turn("Hello world", chunks=2), Turn("again")])
    svc = service(provider, tmp_path)
    events = events_of(svc, "hi")
    assert [e.text for e in events if isinstance(e, Delta)] == ["Hello ", "world"]
    assert isinstance(events[-1], Done) and events[-1].reply == "Hello world"
    events_of(svc, "second")
    assert len(provider.sent[1].messages) == 3  # memory: q1, a1, q2
    svc.reset()
    events_of(svc, "third")
    assert len(provider.sent[2].messages) == 1


def test_tool_call_then_answer_with_real_command(tmp_path: Path) -> None:
    tmp_path = tmp_path / "work"
    tmp_path.mkdir()
    (tmp_path / "a.txt").write_text("x")
    provider = ScriptedProvider([Turn(calls=(("execute_command", '{"command": "ls"}'),)),
                                 Turn("There is a.txt")])
    events = events_of(service(provider, tmp_path), "what files?")
    kinds = [type(e).__name__ for e in events]
    assert kinds.index("ToolCallStart") < kinds.index("ToolExecuting") < kinds.index(
        "ToolCallEnd") < kinds.index("Done")
    start = next(e for e in events if isinstance(e, ToolCallStart))
    assert start.description == "$ ls" and start.arguments == {"command": "ls"}
    end = next(e for e in events if isinstance(e, ToolCallEnd))
    assert end.ok and json.loads(end.result)["stdout"] == "a.txt\n"
    assert results_sent(provider, 1)[0]["exit_code"] == 0


def test_parallel_calls_run_concurrently_and_return_in_order(tmp_path: Path) -> None:
    sleeper = SleepTool()
    calls = (("sleep", '{"seconds": 0.6}'), ("sleep", '{"seconds": 0.3}'),
             ("sleep", '{"seconds": 0.1}'))
    provider = ScriptedProvider([Turn(calls=calls), Turn("done")])
    started = time.monotonic()
    events = events_of(service(provider, tmp_path, extra=(sleeper,)), "go")
    assert time.monotonic() - started < 1.5
    assert max(s for s, _ in sleeper.spans) < min(e for _, e in sleeper.spans)  # overlapped
    assert [r["slept"] for r in results_sent(provider, 1)] == [0.6, 0.3, 0.1]
    assert len([e for e in events if isinstance(e, ToolExecuting)]) == 3


def test_three_iteration_loop(tmp_path: Path) -> None:
    provider = ScriptedProvider([
        Turn(calls=(("execute_command", '{"command": "echo 1"}'),)),
        Turn(calls=(("execute_command", '{"command": "echo 2"}'),)),
        Turn(calls=(("execute_command", '{"command": "echo 3"}'),)),
        Turn("final")])
    svc = service(provider, tmp_path)
    events = events_of(svc, "count")
    assert events[-1] == Done("final")
    assert svc.stats().max_iteration_depth == 4
    assert svc.stats().tools["execute_command"].calls == 3
    assert is_consistent(svc.conversation.messages())


@pytest.mark.parametrize("raw,kind", [('{"command": ', "InvalidArguments"),
                                      ('{"cmd": "ls"}', "InvalidArguments")])
def test_bad_arguments_become_error_results(raw: str, kind: str, tmp_path: Path) -> None:
    provider = ScriptedProvider([Turn(calls=(("execute_command", raw),)), Turn("sorry")])
    events_of(service(provider, tmp_path), "x")
    result = results_sent(provider, 1)[0]
    assert result["error"] is True and result["type"] == kind


def test_unknown_tool_and_failing_tool(tmp_path: Path) -> None:
    provider = ScriptedProvider([Turn(calls=(("teleport", "{}"), ("broken", "{}"))), Turn("ok")])
    events = events_of(service(provider, tmp_path, extra=(BrokenTool(),)), "x")
    unknown, broken = results_sent(provider, 1)
    assert unknown["type"] == "NotFound" and "teleport" in unknown["message"]
    assert broken["type"] == "ExecutionFailed" and "tool bug" in broken["message"]
    ends = [e for e in events if isinstance(e, ToolCallEnd)]
    assert [e.ok for e in ends] == [False, False]


def ask_rule() -> RuleGate:
    return RuleGate({"rm": Verdict("ask", True, ("deletes files recursively: rm -rf build/",)),
                     "touch": Verdict("ask", False, ("writes files: touch new",))})


@pytest.mark.parametrize("answer,exists", [(ConfirmAnswer.NO, True), (ConfirmAnswer.YES, False)])
def test_confirmation_yes_and_no(answer: ConfirmAnswer, exists: bool, tmp_path: Path) -> None:
    (tmp_path / "build").mkdir()
    provider = ScriptedProvider([Turn(calls=(("execute_command",
                                              '{"command": "rm -rf build/"}'),)), Turn("ok")])
    asked: list[ConfirmRequest] = []
    events_of(service(provider, tmp_path, gate=ask_rule()), "clean", answering(answer, asked))
    assert (tmp_path / "build").exists() is exists
    assert asked[0].command == "rm -rf build/" and asked[0].verdict.dangerous
    if answer is ConfirmAnswer.NO:
        assert results_sent(provider, 1)[0]["type"] == "UserDeclined"


def test_no_hook_refuses_and_tells_the_model(tmp_path: Path) -> None:
    (tmp_path / "build").mkdir()
    provider = ScriptedProvider([Turn(calls=(("execute_command",
                                              '{"command": "rm -rf build/"}'),)), Turn("ok")])
    events_of(service(provider, tmp_path, gate=ask_rule()), "clean")
    assert (tmp_path / "build").exists()
    assert "non-interactive" in results_sent(provider, 1)[0]["message"]


def test_always_remembers_only_non_dangerous_calls(tmp_path: Path) -> None:
    cmd_safe = '{"command": "touch new"}'
    cmd_danger = '{"command": "rm -rf x"}'
    provider = ScriptedProvider([Turn(calls=(("execute_command", cmd_safe),
                                             ("execute_command", cmd_danger))), Turn("a"),
                                 Turn(calls=(("execute_command", cmd_safe),
                                             ("execute_command", cmd_danger))), Turn("b")])
    asked: list[ConfirmRequest] = []
    svc = service(provider, tmp_path, gate=ask_rule())
    events_of(svc, "one", answering(ConfirmAnswer.ALWAYS, asked))
    assert [a.command for a in asked] == ["touch new", "rm -rf x"]  # in call order
    asked.clear()
    events_of(svc, "two", answering(ConfirmAnswer.NO, asked))
    assert [a.command for a in asked] == ["rm -rf x"]  # the safe one is remembered


def test_write_tools_always_ask_with_a_preview(tmp_path: Path) -> None:
    (tmp_path / "f.txt").write_text("old\n")
    provider = ScriptedProvider([Turn(calls=(("write_file",
                                              '{"path": "f.txt", "content": "new\\n"}'),)),
                                 Turn("written")])
    asked: list[ConfirmRequest] = []
    events_of(service(provider, tmp_path), "write", answering(ConfirmAnswer.YES, asked))
    assert asked[0].path == "f.txt" and asked[0].preview and "+new" in asked[0].preview
    assert (tmp_path / "f.txt").read_text() == "new\n"


def test_deny_is_permission_denied(tmp_path: Path) -> None:
    provider = ScriptedProvider([Turn(calls=(("filesystem",
                                              '{"operation": "read", "path": "secret.pem"}'),)),
                                 Turn("no")])
    events_of(service(provider, tmp_path), "read it")
    assert results_sent(provider, 1)[0]["type"] == "PermissionDenied"


def test_max_iterations_ends_with_a_clear_message(tmp_path: Path) -> None:
    loop_turn = Turn(calls=(("execute_command", '{"command": "true"}'),))
    provider = ScriptedProvider([loop_turn] * 5)
    svc = service(provider, tmp_path, tools=ToolConfig(max_iterations=3))
    events = events_of(svc, "loop")
    assert isinstance(events[-1], Done) and "Stopped after 3 tool iterations" in events[-1].reply
    assert len(provider.sent) == 3 and is_consistent(svc.conversation.messages())


def test_max_calls_per_turn(tmp_path: Path) -> None:
    calls = tuple(("execute_command", '{"command": "true"}') for _ in range(3))
    provider = ScriptedProvider([Turn(calls=calls), Turn("ok")])
    events_of(service(provider, tmp_path, tools=ToolConfig(max_tool_calls_per_turn=2)), "x")
    assert [r.get("type") for r in results_sent(provider, 1)] == [None, None, "LimitReached"]


def test_provider_error_mid_stream_keeps_memory_consistent(tmp_path: Path) -> None:
    provider = ScriptedProvider([
        Turn(calls=(("execute_command", '{"command": "true"}'),)),
        Turn("partial", fail_after_text=StreamInterrupted("stream broke off")),
        ProviderError("server error (500)"),
        Turn("fine now")])
    svc = service(provider, tmp_path)
    events = events_of(svc, "first")
    assert isinstance(events[-1], Error) and "broke off" in events[-1].message
    assert isinstance(events_of(svc, "second")[-1], Error)
    assert events_of(svc, "third")[-1] == Done("fine now")
    assert is_consistent(provider.sent[-1].messages)


def test_redaction_of_question_context_and_results(tmp_path: Path) -> None:
    record = CommandRecord("export PW=hunter2", str(tmp_path), 1, 0.0, 5.0,
                           "token sk-abcdefghijklmnop")
    provider = ScriptedProvider([Turn(calls=(("execute_command",
                                              '{"command": "echo hunter2"}'),)), Turn("ok")])
    svc = service(provider, tmp_path, terminal=FakeTerminal([record], str(tmp_path)))
    events_of(svc, "my password is hunter2")
    ours = [m for m in provider.sent[1].messages if not hasattr(m, "tool_calls")]
    sent = json.dumps([repr(m) for m in ours]) + provider.sent[1].system
    assert "hunter2" not in sent and "sk-abcdefghijklmnop" not in sent
    assert "[REDACTED:test]" in sent and "[REDACTED:openai-key]" in sent
    assert "export PW=[REDACTED:test]" in provider.sent[0].system


def test_audit_log_lines_are_written_and_redacted(tmp_path: Path) -> None:
    log = tmp_path / "audit.jsonl"
    provider = ScriptedProvider([Turn(calls=(("execute_command",
                                              '{"command": "echo hunter2"}'),)), Turn("ok")])
    events_of(service(provider, tmp_path, audit=AuditLog(log, PatternRedactor("hunter2"))), "x")
    entry = json.loads(log.read_text().splitlines()[0])
    assert entry["tool"] == "execute_command" and entry["approved_by"] == "auto"
    assert entry["exit_code"] == 0 and "hunter2" not in log.read_text()


def test_cancellation_kills_a_running_tool(tmp_path: Path) -> None:
    marker = tmp_path / "pid"
    log = tmp_path / "audit.jsonl"
    provider = ScriptedProvider([Turn(calls=(("execute_command", json.dumps(
        {"command": f"echo $$ > {marker}; sleep 100 & wait"})),))])
    svc = service(provider, tmp_path, audit=AuditLog(log, PatternRedactor("unused")))

    async def go() -> None:
        async def consume() -> None:
            async for _ in svc.chat_stream(ChatRequest("x")):
                pass
        task = asyncio.ensure_future(consume())
        while not marker.exists():
            await asyncio.sleep(0.05)
        await asyncio.sleep(0.2)
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task

    asyncio.run(go())
    import os
    pgid = int(marker.read_text())
    deadline = time.monotonic() + 5
    while time.monotonic() < deadline:
        try:
            os.killpg(pgid, 0)
        except ProcessLookupError:
            break
        time.sleep(0.05)
    else:
        pytest.fail("process group survived cancellation")
    assert is_consistent(svc.conversation.messages())
    (entry,) = [json.loads(line) for line in log.read_text().splitlines()]
    assert entry["tool"] == "execute_command" and entry["outcome"] == "interrupted"
    assert entry["ok"] is False


def test_plain_chat_mode_sends_no_tools(tmp_path: Path) -> None:
    provider = ScriptedProvider([Turn("plain")])
    off = ToolConfig(enable_fs=False, enable_exec=False, enable_web=False)
    events_of(service(provider, tmp_path, tools=off), "x")
    assert provider.sent[0].tools == [] and "no tools" in provider.sent[0].system


def test_task_complete_ends_the_run(tmp_path: Path) -> None:
    provider = ScriptedProvider([Turn(calls=(("task_complete", '{"summary": "All done."}'),))])
    events = events_of(service(provider, tmp_path), "x")
    assert events[-1] == Done("All done.") and len(provider.sent) == 1


@pytest.mark.parametrize("reply,command", [
    ("COMMAND: find . -name '*.py' -mtime -1\nEXPLANATION: python files changed today",
     "find . -name '*.py' -mtime -1"),
    ("Sure! Here you go:\n```bash\n$ ls -la\n```\nThis lists files.", "ls -la"),
    ("**COMMAND:** `du -sh *`\n**EXPLANATION:** sizes", "du -sh *"),
])
def test_translate_parses_messy_replies(reply: str, command: str, tmp_path: Path) -> None:
    svc = service(ScriptedProvider([Turn(reply)]), tmp_path)
    assert asyncio.run(svc.translate("x")).command == command


def test_translate_empty_reply_is_a_clear_error(tmp_path: Path) -> None:
    from swebash.errors import AiError
    with pytest.raises(AiError, match="did not return a command"):
        asyncio.run(service(ScriptedProvider([Turn("")]), tmp_path).translate("x"))


def test_autocomplete_and_explain(tmp_path: Path) -> None:
    svc = service(ScriptedProvider([Turn("1. git checkout main\n2. git cherry-pick\nnoise"),
                                    Turn("It lists files.")]), tmp_path)
    got = asyncio.run(svc.autocomplete("git ch", 3))
    assert got.suggestions == ("git checkout main", "git cherry-pick")
    assert asyncio.run(svc.explain("ls")).explanation == "It lists files."


def test_not_configured_status_and_error(tmp_path: Path) -> None:
    from swebash.errors import AiNotConfigured

    def factory(_: AiConfig) -> Any:
        raise AiNotConfigured("AI is not configured: set OPENAI_API_KEY")

    svc = DefaultAiService(config=AiConfig(), provider_factory=factory, registry=registry(),
                           gate=RuleGate(), redactor=PatternRedactor())
    status = asyncio.run(svc.status())
    assert not status.configured and "OPENAI_API_KEY" in status.message
    events = events_of(svc, "x")
    assert events == [Error("AI is not configured: set OPENAI_API_KEY", exit_status=2)]
