"""Approval through the real gate and agent: the y/N prompt's `a` with scope project/always
writes a rule and the next identical call runs without a question; file-tool writes past the
sandbox's write boundary (outside the tree, .git, rc files, swebash's config) are asked of a
person every time and refused in non-interactive runs whatever --yes-dangerous says.
Payloads are harmless (`touch` and small files in a temp dir)."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import pytest

from swebash.ai.service import DefaultAiService
from swebash.api import AiEvent, ChatRequest, ConfirmAnswer, ConfirmRequest, Notice
from swebash.app import noninteractive_confirm
from swebash.config import AiConfig, ToolConfig
from swebash.providers.base import ToolResultMessage
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


# ------------------------------------------------------------------ the file tools' write policy


def write_service(work: Path, home: Path, calls: list[tuple[str, str]],
                  confirm_config: bool = True) -> tuple[DefaultAiService, ScriptedProvider]:
    turns = [t for c in calls for t in (Turn(calls=(c,)), Turn("ok"))]
    provider = ScriptedProvider(turns)
    cfg = AiConfig(tools=ToolConfig(require_confirmation=confirm_config))
    gate = DefaultGate(home=str(home), rules_file=home / ".config" / "swebash" / "rules.toml")
    svc = DefaultAiService(config=cfg, provider_factory=lambda _: provider,
                           registry=registry(cfg.tools), gate=gate,
                           redactor=PatternRedactor("hunter2"),
                           terminal=FakeTerminal(where=str(work)))
    return svc, provider


def sent_results(provider: ScriptedProvider) -> list[dict[str, Any]]:
    return [json.loads(m.content) for request in provider.sent for m in request.messages
            if isinstance(m, ToolResultMessage)]


@pytest.fixture
def tree(tmp_path: Path) -> Path:
    work = tmp_path / "work"
    (work / ".git/hooks").mkdir(parents=True)
    (work / ".git/config").write_text("[core]\n")
    (tmp_path / "outside").mkdir()
    return work


OUTSIDE_WRITES = [
    ("write_file", {"path": "../outside/planted.txt", "content": "x\n"}, "outside/planted.txt"),
    ("write_file", {"path": "~/.config/swebash/rules.toml",
                    "content": '[[rule]]\nprefix = ["rm"]\ndecision = "allow"\n'},
     "home/.config/swebash/rules.toml"),
    ("write_file", {"path": ".git/hooks/pre-commit", "content": "touch pwned\n"},
     "work/.git/hooks/pre-commit"),
    ("edit_file", {"path": ".git/config", "old_text": "[core]",
                   "new_text": "[core]\n\tfsmonitor = touch pwned"}, "work/.git/config"),
]


@pytest.mark.parametrize(("tool", "args", "target"), OUTSIDE_WRITES,
                         ids=[a[1]["path"] for a in OUTSIDE_WRITES])
def test_yes_dangerous_never_writes_past_the_boundary(tool: str, args: dict[str, Any],
                                                      target: str, tree: Path, tmp_path: Path,
                                                      hermetic_env: Path) -> None:
    before = (tmp_path / target).read_text() if (tmp_path / target).exists() else None
    svc, provider = write_service(tree, hermetic_env, [(tool, json.dumps(args))])
    run(svc, noninteractive_confirm(yes=True, yes_dangerous=True))
    after = (tmp_path / target).read_text() if (tmp_path / target).exists() else None
    assert after == before
    (result,) = sent_results(provider)
    assert result["error"] is True and "only a person" in result["message"]
    assert "--yes-dangerous" in result["message"]


@pytest.mark.parametrize(("tool", "args", "target"), OUTSIDE_WRITES,
                         ids=[a[1]["path"] for a in OUTSIDE_WRITES])
def test_a_person_is_asked_every_time(tool: str, args: dict[str, Any], target: str,
                                      tree: Path, tmp_path: Path, hermetic_env: Path) -> None:
    # tools.confirm = false lifts ordinary questions, and `a` remembers ordinary calls: neither
    # lifts these
    call = (tool, json.dumps(args))
    svc, _ = write_service(tree, hermetic_env, [call, call], confirm_config=False)
    asked: list[ConfirmRequest] = []
    run(svc, answering(ConfirmAnswer.ALWAYS, asked))
    assert len(asked) == 1 and asked[0].verdict.dangerous and asked[0].verdict.needs_person
    assert str(args.get("content") or args["new_text"]) in (tmp_path / target).read_text()
    run(svc, answering(ConfirmAnswer.NO, asked))
    assert len(asked) == 2  # asked again: nothing was remembered


def test_an_ordinary_write_in_the_tree_still_follows_yes(tree: Path, hermetic_env: Path
                                                         ) -> None:
    call = ("write_file", json.dumps({"path": "src/new.py", "content": "ok\n"}))
    svc, provider = write_service(tree, hermetic_env, [call])
    run(svc, noninteractive_confirm(yes=True, yes_dangerous=False))
    assert (tree / "src/new.py").read_text() == "ok\n"
    assert sent_results(provider)[0]["bytes_written"] == 3


def test_confirm_false_still_asks_about_what_the_classifier_does_not_know(
        tmp_path: Path, hermetic_env: Path) -> None:
    """tools.confirm = false lifts plain asks (`touch made` runs unasked) but not an unknown
    program: nothing says what it does. A person's `a` for this session then vouches for it."""
    work = tmp_path / "work"
    work.mkdir()
    gate = DefaultGate(home=str(hermetic_env))
    touch = ("execute_command", '{"command": "touch made"}')
    unknown = ("execute_command", '{"command": "frobnicate-tool --all"}')
    provider = ScriptedProvider([Turn(calls=(touch,)), Turn("ok"), Turn(calls=(unknown,)),
                                 Turn("ok"), Turn(calls=(unknown,)), Turn("again")])
    cfg = AiConfig(tools=ToolConfig(require_confirmation=False))
    svc = DefaultAiService(config=cfg, provider_factory=lambda _: provider,
                           registry=registry(cfg.tools), gate=gate,
                           redactor=PatternRedactor("hunter2"),
                           terminal=FakeTerminal(where=str(work)))
    asked: list[ConfirmRequest] = []
    run(svc, answering(ConfirmAnswer.NO, asked))
    assert asked == [] and (work / "made").exists()
    run(svc, answering(ConfirmAnswer.ALWAYS, asked))
    assert [r.command for r in asked] == ["frobnicate-tool --all"] and asked[0].verdict.unknown
    asked.clear()
    run(svc, answering(ConfirmAnswer.NO, asked))
    assert asked == []  # vouched for by the person, for this session
