"""The y/N prompt's `a` with scope project/always writes a rule through the real gate; the
next identical call runs without a question. Payloads are harmless (`touch` in a temp dir)."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest

from swebash.ai.service import DefaultAiService
from swebash.api import AiEvent, ChatRequest, ConfirmAnswer, ConfirmRequest, Notice
from swebash.config import AiConfig
from swebash.providers.fake import ScriptedProvider, Turn
from swebash.safety.gate import DefaultGate
from swebash.safety.rulesfile import list_rules
from tests.ai.fakes import FakeTerminal, PatternRedactor, answering, registry


def run(svc: DefaultAiService, confirm: Any) -> list[AiEvent]:
    async def go() -> list[AiEvent]:
        return [e async for e in svc.chat_stream(ChatRequest("go"), confirm)]
    return asyncio.run(go())


@pytest.mark.parametrize(("answer", "project"), [(ConfirmAnswer.PROJECT, True),
                                                 (ConfirmAnswer.FOREVER, False)])
def test_scoped_approval_writes_a_rule(answer: ConfirmAnswer, project: bool, tmp_path: Path,
                                       hermetic_env: Path) -> None:
    work = tmp_path / "work"
    work.mkdir()
    rules_file = hermetic_env / ".config" / "swebash" / "rules.toml"
    gate = DefaultGate(home=str(hermetic_env), rules_file=rules_file)
    call = ("execute_command", '{"command": "touch made"}')
    provider = ScriptedProvider([Turn(calls=(call,)), Turn("done"),
                                 Turn(calls=(call,)), Turn("again")])
    cfg = AiConfig()
    svc = DefaultAiService(config=cfg, provider_factory=lambda _: provider,
                           registry=registry(cfg.tools), gate=gate,
                           redactor=PatternRedactor("hunter2"),
                           terminal=FakeTerminal(where=str(work)))
    asked: list[ConfirmRequest] = []
    events = run(svc, answering(answer, asked))
    assert len(asked) == 1 and (work / "made").exists()
    (notice,) = [e.text for e in events if isinstance(e, Notice)]  # the user is told, once
    assert "touch made" in notice
    rules = list_rules(rules_file, home=str(hermetic_env)).rules
    assert [r.prefix for r in rules] == [("touch", "made")]
    assert (rules[0].project is not None) == project
    assert gate.check_command("touch made", str(work)).decision == "allow"
    assert gate.check_command("touch other", str(work)).decision == "ask"
    asked.clear()
    run(svc, answering(ConfirmAnswer.NO, asked))
    assert asked == []


def test_dangerous_calls_get_no_rule(tmp_path: Path, hermetic_env: Path) -> None:
    rules_file = hermetic_env / ".config" / "swebash" / "rules.toml"
    gate = DefaultGate(home=str(hermetic_env), rules_file=rules_file)
    message = gate.approve("rm -rf build", "always", str(tmp_path))
    assert message.startswith("not saved") and not rules_file.exists()


def test_refused_rules_are_listed_by_ai_status(tmp_path: Path, hermetic_env: Path) -> None:
    rules_file = hermetic_env / ".config" / "swebash" / "rules.toml"
    rules_file.parent.mkdir(parents=True, exist_ok=True)
    rules_file.write_text('[[rule]]\nprefix = ["python3"]\ndecision = "allow"\n')
    gate = DefaultGate(home=str(hermetic_env), rules_file=rules_file)
    cfg = AiConfig()
    svc = DefaultAiService(config=cfg, provider_factory=lambda _: ScriptedProvider([]),
                           registry=registry(cfg.tools), gate=gate,
                           redactor=PatternRedactor("hunter2"),
                           terminal=FakeTerminal(where=str(tmp_path)))
    notes = asyncio.run(svc.status()).notes
    assert any("python3" in note for note in notes), notes
