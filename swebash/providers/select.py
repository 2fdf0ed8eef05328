"""Choosing a provider from the configuration.

Explicit choice first (SWEBASH_AI_PROVIDER or config.toml [ai] provider). With none: whichever
API key is present (OpenAI, Anthropic, Gemini, in that order); else Ollama if OLLAMA_HOST is set
or something answers on localhost:11434 (a ≤ 300 ms probe); else an OpenAI-compatible server if
SWEBASH_AI_BASE_URL is set; else AI is not configured and the error says how to configure it.
Importing this module imports no SDK: the providers build their clients on first use.
"""

from __future__ import annotations

import http.client
from dataclasses import dataclass
from urllib.parse import urlsplit

from swebash.config import AiConfig
from swebash.errors import AiNotConfigured, ConfigError
from swebash.providers.base import Provider
from swebash.providers.retry import RetryPolicy

PROVIDERS = ("openai", "anthropic", "gemini", "ollama", "openai-compatible")
DEFAULT_MODELS = {
    "openai": "gpt-5.4-mini",
    "anthropic": "claude-sonnet-5-5",
    "gemini": "gemini-2.5-flash",
    "ollama": "llama3.2",
    "openai-compatible": "default",
}
PROBE_TIMEOUT = 0.3

HOW_TO_CONFIGURE = (
    "AI is not configured: set OPENAI_API_KEY, ANTHROPIC_API_KEY or GEMINI_API_KEY, or start "
    "Ollama on localhost:11434 (or set OLLAMA_HOST), or point SWEBASH_AI_PROVIDER="
    "openai-compatible and SWEBASH_AI_BASE_URL at your server; the same settings go in "
    "~/.config/swebash/config.toml under [ai] (provider, model, base_url)")


@dataclass(frozen=True)
class Selection:
    provider: str
    model: str
    base_url: str | None
    api_key: str | None
    key_var: str | None


def ollama_answers(host: str | None, timeout: float = PROBE_TIMEOUT) -> bool:
    from swebash.providers.ollama import normalise_host

    parts = urlsplit(normalise_host(host))
    try:
        conn = http.client.HTTPConnection(parts.hostname or "localhost", parts.port or 11434,
                                          timeout=timeout)
        conn.request("GET", "/api/version")
        ok = conn.getresponse().status == 200
        conn.close()
        return ok
    except (OSError, http.client.HTTPException):
        return False


def _explicit(ai: AiConfig, name: str) -> Selection:
    model = ai.model or DEFAULT_MODELS[name]
    if name == "openai":
        base = ai.base_url or ai.openai_base_url
        if not ai.openai_api_key and not base:
            raise AiNotConfigured("AI provider openai needs OPENAI_API_KEY (or a base URL in "
                                  "SWEBASH_AI_BASE_URL / OPENAI_BASE_URL)")
        return Selection(name, model, base, ai.openai_api_key, "OPENAI_API_KEY")
    if name == "anthropic":
        if not ai.anthropic_api_key:
            raise AiNotConfigured("AI provider anthropic needs ANTHROPIC_API_KEY")
        return Selection(name, model, ai.base_url or ai.anthropic_base_url, ai.anthropic_api_key,
                         "ANTHROPIC_API_KEY")
    if name == "gemini":
        if not ai.gemini_api_key:
            raise AiNotConfigured("AI provider gemini needs GEMINI_API_KEY")
        return Selection(name, model, ai.base_url, ai.gemini_api_key, "GEMINI_API_KEY")
    if name == "ollama":
        return Selection(name, model, ai.base_url or ai.ollama_host, None, None)
    base = ai.base_url or ai.openai_base_url
    if not base:
        raise AiNotConfigured("AI provider openai-compatible needs SWEBASH_AI_BASE_URL "
                              "(e.g. http://localhost:8000/v1)")
    return Selection(name, model, base, ai.openai_api_key, "OPENAI_API_KEY")


def resolve(ai: AiConfig, *, probe: bool = True) -> Selection:
    """Decide provider, model, endpoint and key; raises AiNotConfigured or ConfigError."""
    if ai.provider:
        if ai.provider not in PROVIDERS:
            raise ConfigError(f"unknown AI provider '{ai.provider}' (choose one of: "
                              f"{', '.join(PROVIDERS)})")
        return _explicit(ai, ai.provider)
    for name, key in (("openai", ai.openai_api_key), ("anthropic", ai.anthropic_api_key),
                      ("gemini", ai.gemini_api_key)):
        if key:
            return _explicit(ai, name)
    if ai.ollama_host or (probe and ollama_answers(None)):
        return _explicit(ai, "ollama")
    if ai.base_url:
        return _explicit(ai, "openai-compatible")
    raise AiNotConfigured(HOW_TO_CONFIGURE)


def create_provider(ai: AiConfig) -> Provider:
    selection = resolve(ai)
    policy = RetryPolicy(max_retries=ai.max_retries, idle=ai.request_timeout,
                         deadline=max(ai.request_deadline, ai.request_timeout))
    # httpx's per-read timeout is only a backstop: the pacing clock (same setting, counted on
    # useful events) ends a stalled request first, with the message that names the setting
    sdk_timeout = ai.request_timeout + 5.0
    if selection.provider == "anthropic":
        from swebash.providers.anthropic_messages import AnthropicProvider

        return AnthropicProvider(model=selection.model, api_key=selection.api_key,
                                 base_url=selection.base_url, timeout=sdk_timeout,
                                 policy=policy)
    if selection.provider == "ollama":
        from swebash.providers.ollama import OllamaProvider

        return OllamaProvider(model=selection.model, host=selection.base_url,
                              timeout=sdk_timeout, policy=policy)
    from swebash.providers.openai_chat import OpenAIChatProvider

    return OpenAIChatProvider(name=selection.provider, model=selection.model,
                              api_key=selection.api_key, base_url=selection.base_url,
                              timeout=sdk_timeout, policy=policy,
                              key_var=selection.key_var)
