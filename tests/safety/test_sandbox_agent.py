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
from swebash.render.confirm import build_confirm_prompt
from swebash.safety.sandbox import OsSandbox
from tests.ai.fakes import FakeTerminal, PatternRedactor, RuleGate, answering, registry
from tests.safety.sandbox_fixtures import (
    CANARY,
    WebServer,
    World,
    available,
    make_sandbox,
    wait_gone,
)


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
    assert not (world.outside / "a").exists()  # only a y runs it outside, never "always"
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
    assert svc.tool_context().sandbox is sandbox  # confines nothing, still supervises
    ask(svc, None)
    assert (world.outside / "x").exists()
    assert asyncio.run(svc.status()).sandbox.startswith("off")


def command_turn(command: str) -> Turn:
    return Turn(calls=(("execute_command", json.dumps({"command": command})),))


def test_printed_sandbox_errors_ask_nothing(world: World, backend: str) -> None:
    fake = "echo 'touch: cannot touch /etc/x: Read-only file system' >&2; exit 1"
    svc, provider = service(world, make_sandbox(world, backend), command_turn(fake),
                            Turn("ok"))
    asked: list[ConfirmRequest] = []
    ask(svc, answering(ConfirmAnswer.YES, asked))
    assert asked == []  # not stopped by the sandbox: no "run it again outside?"
    assert "sandbox_blocked" not in sent_result(provider)


def test_the_rerun_question_carries_the_whole_command(world: World, backend: str) -> None:
    long = "; ".join(f"echo step-{i}" for i in range(12)) + f"; touch {world.outside}/y"
    svc, _ = service(world, make_sandbox(world, backend), command_turn(long), Turn("ok"))
    asked: list[ConfirmRequest] = []
    ask(svc, answering(ConfirmAnswer.NO, asked))
    assert [r.kind for r in asked] == ["sandbox_retry"] and asked[0].command == long
    prompt = build_confirm_prompt(asked[0], width=60)
    shown = prompt.full or prompt.plain  # a long one is folded, with v for all of it
    assert long in shown and "outside/y" in prompt.plain  # its end is shown, not cut
    assert str(world.outside) in prompt.plain  # what was blocked: the real path


def test_a_rerun_outside_is_still_supervised(world: World, backend: str) -> None:
    marker = "4242.424242"
    command = f"(sleep {marker} &); touch {world.outside}/z"
    svc, _ = service(world, make_sandbox(world, backend), command_turn(command), Turn("ok"))
    ask(svc, answering(ConfirmAnswer.YES, []))
    assert (world.outside / "z").exists()
    assert wait_gone(marker) == []  # what the unconfined rerun left behind was reaped too


def test_a_new_domain_is_asked_through_the_confirmation(world: World, backend: str,
                                                        tmp_path: Path) -> None:
    web = WebServer({"/": CANARY.encode()})
    state = tmp_path / "state"
    try:
        url = f"http://new.localhost:{web.port}/"
        sandbox = make_sandbox(world, backend, network="proxy", state_dir=state)
        svc, provider = service(world, sandbox, command_turn(f"curl -sSf {url}"), Turn("ok"))
        asked: list[ConfirmRequest] = []

        async def hook(request: ConfirmRequest) -> ConfirmAnswer:
            asked.append(request)
            return ConfirmAnswer.PROJECT if request.kind == "network" else ConfirmAnswer.NO

        ask(svc, hook)
        assert [(r.kind, r.domain) for r in asked] == [("network", "new.localhost")]
        assert asked[0].command == f"curl -sSf {url}"
        assert CANARY in sent_result(provider)["stdout"]
        saved = json.loads((state / "sandbox-domains.json").read_text())
        assert saved["projects"] == {str(world.work.resolve()): ["new.localhost"]}
        # the next session in this project does not ask again
        again = make_sandbox(world, backend, network="proxy", state_dir=state)
        svc2, provider2 = service(world, again, command_turn(f"curl -sSf {url}"), Turn("ok"))
        asked.clear()
        ask(svc2, hook)
        assert asked == [] and CANARY in sent_result(provider2)["stdout"]
    finally:
        web.close()


def test_a_refused_domain_is_not_offered_outside(world: World, backend: str) -> None:
    web = WebServer({"/": CANARY.encode()})
    try:
        command = f"curl -sSf http://no.localhost:{web.port}/"
        svc, provider = service(world, make_sandbox(world, backend, network="proxy"),
                                command_turn(command), Turn("ok"))
        asked: list[ConfirmRequest] = []
        ask(svc, answering(ConfirmAnswer.NO, asked))
        assert [r.kind for r in asked] == ["network"]  # no "run it again outside?" after it
        result = sent_result(provider)
        assert "network access to no.localhost" in result["sandbox_blocked"]
        assert web.hits == []
    finally:
        web.close()
