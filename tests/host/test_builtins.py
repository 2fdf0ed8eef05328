"""`ai …` builtins through the real frontend and service (scripted provider)."""

from __future__ import annotations

import io
import os
from pathlib import Path

import pytest

from swebash import config as config_mod
from swebash.ai.platform import build_platform
from swebash.ai.service import DefaultAiService
from swebash.api import TerminalContext
from swebash.config import AiConfig, Config
from swebash.errors import AiError
from swebash.host import builtins as ai_builtins
from swebash.host.runtime import AiRuntime, Report, RuntimeFactory
from swebash.interactive.ai_session import AiFrontend
from swebash.providers.fake import ScriptedProvider, Turn
from swebash.safety.gate import DefaultGate
from tests.ai.fakes import PatternRedactor, RuleGate, registry


def runtime_of(svc: DefaultAiService) -> RuntimeFactory:
    """A runtime around a test engine: the real gate and platform of the configuration."""

    def build(config: Config, context: TerminalContext | None, report: Report) -> AiRuntime:
        gate = DefaultGate(config.policy, home=str(config.paths.home),
                           rules_file=config.paths.rules_file)
        return AiRuntime(config, svc, gate, build_platform(config, os.getcwd, report))

    return build


@pytest.fixture
def frontend(hermetic_env: Path) -> AiFrontend:
    provider = ScriptedProvider([Turn("It lists files, long format.")])
    svc = DefaultAiService(config=AiConfig(provider="openai", model="m1"),
                           provider_factory=lambda _: provider, registry=registry(),
                           gate=RuleGate(), redactor=PatternRedactor())
    cfg = config_mod.load({"HOME": str(hermetic_env), "NO_COLOR": "1"})
    return AiFrontend(cfg, None, runtime_of(svc), out=io.StringIO(), tty_fd=0)


def test_model_and_provider_switch(hermetic_env: Path,
                                   capsys: pytest.CaptureFixture[str]) -> None:
    built: list[AiConfig] = []  # what the service asks its provider factory for

    def factory(config: AiConfig) -> ScriptedProvider:
        built.append(config)
        return ScriptedProvider([])

    svc = DefaultAiService(config=AiConfig(provider="openai", model="m1"),
                           provider_factory=factory, registry=registry(), gate=RuleGate(),
                           redactor=PatternRedactor())
    cfg = config_mod.load({"HOME": str(hermetic_env), "NO_COLOR": "1"})
    frontend = AiFrontend(cfg, None, runtime_of(svc), out=io.StringIO(), tty_fd=0)
    assert ai_builtins.run(frontend, "ai model gpt-new") == 0
    assert ai_builtins.run(frontend, "ai status") == 0
    assert built[-1].model == "gpt-new"
    assert ai_builtins.run(frontend, "ai provider anthropic") == 0
    assert ai_builtins.run(frontend, "ai status") == 0
    assert built[-1].provider == "anthropic"
    with pytest.raises(AiError, match="unknown provider 'bogus'"):
        ai_builtins.run(frontend, "ai provider bogus")
    assert "set to anthropic" in capsys.readouterr().out


def test_status_stats_tools_context_help(frontend: AiFrontend,
                                         capsys: pytest.CaptureFixture[str]) -> None:
    for line in ("ai status", "ai stats", "ai tools", "ai context", "ai", "ai reset"):
        assert ai_builtins.run(frontend, line) == 0
    out = capsys.readouterr().out
    assert "provider:  fake" in out and "turns: 0" in out and "tools: filesystem" in out
    assert "You are a helpful AI assistant" in out and "ai explain CMD" in out
    assert "forgotten" in out
    assert ai_builtins.run(frontend, "ai nope") == 2


def test_explain_renders_markdown(frontend: AiFrontend) -> None:
    assert ai_builtins.run(frontend, "ai explain ls -la") == 0
    assert "It lists files, long format." in frontend.out.getvalue()  # type: ignore[attr-defined]
    assert ai_builtins.run(frontend, "ai explain") == 2
