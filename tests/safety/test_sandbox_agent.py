"""The sandbox in the agent loop and the service: the rerun-outside question (y/N once, never
remembered, never answered by --yes), what the model is told, ``ai status``, the one-time
notice where no backend works, and ``SWEBASH_AI_SANDBOX=off``.

Real sandboxed processes; the payload touches a canary path outside the working tree.
"""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import pytest

from swebash import config as config_mod
from swebash.ai.service import DefaultAiService
from swebash.api import ChatRequest, ConfirmAnswer, ConfirmRequest, Delta, Notice
from swebash.app import noninteractive_confirm
from swebash.config import AiConfig
from swebash.providers.base import ToolResultMessage
from swebash.providers.fake import ScriptedProvider, Turn
from swebash.safety.sandbox import OsSandbox
from tests.ai.fakes import FakeTerminal, PatternRedactor, RuleGate, answering, registry
from tests.safety.sandbox_fixtures import World, available, make_sandbox, make_world


@pytest.fixture
def world(tmp_path: Path) -> World:
    return make_world(tmp_path)


@pytest.fixture
def backend() -> str:
    for name in ("bwrap", "landlock"):
        if available(name) is None:
            return name
    pytest.skip("no sandbox backend works here")


def service(world: World, sandbox: OsSandbox | None, *turns: Turn
            ) -> tuple[DefaultAiService, ScriptedProvider]:
    provider = ScriptedProvider(list(turns))
    cfg = AiConfig()
    svc = DefaultAiService(config=cfg, provider_factory=lambda _: provider,
                           registry=registry(cfg.tools), gate=RuleGate(),
                           redactor=PatternRedactor(),
                           terminal=FakeTerminal(where=str(world.work), env=world.env),
                           sandbox=sandbox)
    return svc, provider


def write_outside(world: World, name: str = "x") -> Turn:
    command = json.dumps({"command": f"touch {world.outside}/{name}"})
    return Turn(calls=(("execute_command", command),))


def ask(svc: DefaultAiService, hook: Any) -> list[Any]:
    async def go() -> list[Any]:
        return [e async for e in svc.chat_stream(ChatRequest("go"), hook)]
    try:
        return asyncio.run(go())
    finally:
        if svc.sandbox is not None:
            svc.sandbox.close()


def sent_result(provider: ScriptedProvider) -> dict[str, Any]:
    results = [m for m in provider.sent[-1].messages if isinstance(m, ToolResultMessage)]
    data: dict[str, Any] = json.loads(results[-1].content)
    return data


def test_yes_reruns_outside_the_sandbox_and_the_model_is_told(world: World,
                                                               backend: str) -> None:
    svc, provider = service(world, make_sandbox(world, backend), write_outside(world),
                            Turn("ok"))
    asked: list[ConfirmRequest] = []
    ask(svc, answering(ConfirmAnswer.YES, asked))
    assert [r.kind for r in asked] == ["sandbox_retry"]
    assert asked[0].blocked is not None and "write outside" in asked[0].blocked
    assert asked[0].command == f"touch {world.outside}/x"
    assert (world.outside / "x").exists()
    result = sent_result(provider)
    assert result["exit_code"] == 0 and "outside the sandbox" in result["sandbox_note"]


def test_no_keeps_it_blocked_and_the_model_is_told(world: World, backend: str) -> None:
    svc, provider = service(world, make_sandbox(world, backend), write_outside(world),
                            Turn("ok"))
    asked: list[ConfirmRequest] = []
    ask(svc, answering(ConfirmAnswer.NO, asked))
    assert len(asked) == 1 and not (world.outside / "x").exists()
    result = sent_result(provider)
    assert result["exit_code"] != 0 and "write outside" in result["sandbox_blocked"]
    assert "not run again" in result["sandbox_note"]


def test_always_never_covers_the_question(world: World, backend: str) -> None:
    svc, _ = service(world, make_sandbox(world, backend), write_outside(world, "a"),
                     write_outside(world, "a"), Turn("ok"))
    asked: list[ConfirmRequest] = []
    hook = answering(ConfirmAnswer.ALWAYS, asked)
    ask(svc, hook)
    (world.outside / "a").unlink()
    assert [r.kind for r in asked] == ["sandbox_retry", "sandbox_retry"]  # asked every time
    assert not svc.session_rules


def test_non_interactive_runs_only_report_it(world: World, backend: str) -> None:
    for hook in (None, noninteractive_confirm(yes=True, yes_dangerous=True)):
        svc, provider = service(world, make_sandbox(world, backend), write_outside(world),
                                Turn("ok"))
        ask(svc, hook)
        assert not (world.outside / "x").exists()
        assert "not run again" in sent_result(provider)["sandbox_note"]


def test_status_names_the_sandbox(world: World, backend: str) -> None:
    svc, _ = service(world, make_sandbox(world, backend))
    status = asyncio.run(svc.status())
    assert ("bubblewrap" if backend == "bwrap" else "landlock") in status.sandbox
    assert "network: off" in status.sandbox
    assert svc.tool_context().sandbox is svc.sandbox


def test_no_backend_is_said_once_and_commands_run_unconfined(world: World) -> None:
    sandbox = make_sandbox(world, "bwrap")
    sandbox._probed, sandbox._backend, sandbox._why_none = True, None, "user namespaces blocked"
    svc, _ = service(world, sandbox, write_outside(world), Turn("ok"), Turn("again"))
    first = ask(svc, None)
    notes = [e.text for e in first if isinstance(e, Notice)]
    assert any("sandbox unavailable (user namespaces blocked)" in t for t in notes)
    assert not any("sandbox" in e.text for e in first if isinstance(e, Delta))  # not the answer
    assert (world.outside / "x").exists()  # today's behaviour: unconfined
    second = ask(svc, None)
    assert not [e for e in second if isinstance(e, Notice)]
    assert "unavailable" in asyncio.run(svc.status()).sandbox


def test_env_off_lifts_it(world: World, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SWEBASH_AI_SANDBOX", "off")
    cfg = config_mod.load()
    assert cfg.sandbox.mode == "off"
    sandbox = OsSandbox(cfg.sandbox, home=str(world.home))
    svc, _ = service(world, sandbox, write_outside(world), Turn("ok"))
    assert svc.tool_context().sandbox is None
    ask(svc, None)
    assert (world.outside / "x").exists()
    assert asyncio.run(svc.status()).sandbox.startswith("off")
