"""Provider selection rules and the not-configured message."""

from __future__ import annotations

import pytest

from swebash import config
from swebash.config import AiConfig
from swebash.errors import AiNotConfigured, ConfigError
from swebash.providers.select import HOW_TO_CONFIGURE, create_provider, resolve
from tests.fakes.server import FakeServer


def test_explicit_provider_and_model() -> None:
    sel = resolve(AiConfig(provider="anthropic", model="m1", anthropic_api_key="k"))
    assert (sel.provider, sel.model, sel.api_key) == ("anthropic", "m1", "k")


def test_key_present_picks_its_provider_with_default_model() -> None:
    assert resolve(AiConfig(gemini_api_key="g"), probe=False).provider == "gemini"
    sel = resolve(AiConfig(anthropic_api_key="a"), probe=False)
    assert sel.provider == "anthropic" and sel.model.startswith("claude-")
    assert resolve(AiConfig(openai_api_key="o", anthropic_api_key="a")).provider == "openai"


def test_ollama_found_by_host_or_probe() -> None:
    assert resolve(AiConfig(ollama_host="http://127.0.0.1:9")).provider == "ollama"


def test_nothing_set_is_not_configured_with_how_to() -> None:
    with pytest.raises(AiNotConfigured) as info:
        resolve(AiConfig(), probe=False)
    assert str(info.value) == HOW_TO_CONFIGURE
    assert "OPENAI_API_KEY" in str(info.value) and "config.toml" in str(info.value)


def test_missing_key_for_explicit_provider() -> None:
    with pytest.raises(AiNotConfigured, match="ANTHROPIC_API_KEY"):
        resolve(AiConfig(provider="anthropic"))
    with pytest.raises(AiNotConfigured, match="SWEBASH_AI_BASE_URL"):
        resolve(AiConfig(provider="openai-compatible"))


def test_unknown_provider_is_a_config_error() -> None:
    with pytest.raises(ConfigError, match="unknown AI provider 'foo'"):
        resolve(AiConfig(provider="foo"))


def test_environment_wins_over_config_toml(hermetic_env) -> None:  # type: ignore[no-untyped-def]
    cfg_dir = hermetic_env / ".config" / "swebash"
    cfg_dir.mkdir(parents=True)
    (cfg_dir / "config.toml").write_text('[ai]\nprovider = "ollama"\nmodel = "from-file"\n')
    loaded = config.load({"HOME": str(hermetic_env), "SWEBASH_AI_MODEL": "from-env"})
    assert loaded.ai.provider == "ollama" and loaded.ai.model == "from-env"


def test_probe_finds_a_local_ollama() -> None:
    server = FakeServer().start()
    try:
        from swebash.providers.select import ollama_answers

        assert ollama_answers(server.url)
        assert not ollama_answers("http://127.0.0.1:9")
    finally:
        server.stop()


def test_create_provider_reports_endpoint() -> None:
    provider = create_provider(AiConfig(provider="openai-compatible",
                                        base_url="http://127.0.0.1:1/v1", model="x"))
    assert provider.info.endpoint == "http://127.0.0.1:1/v1" and provider.info.model == "x"
