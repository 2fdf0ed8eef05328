"""Configuration: the only module that reads the environment and config.toml.

Precedence: environment variables win over ``$XDG_CONFIG_HOME/swebash/config.toml``, which wins
over the defaults here. ``load()`` is cheap (no third-party imports; the TOML file is parsed only
if it exists) because it runs before the first prompt.

config.toml layout::

    [ai]
    provider = "openai"          # openai | anthropic | gemini | ollama | openai-compatible
    model = "gpt-4o-mini"
    base_url = "http://localhost:8000/v1"
    autocomplete = false
    context_commands = 10

    [tools]
    fs = true
    exec = true
    web = true
    confirm = true
    max_iter = 10
    fs_max_size = 1048576
    exec_timeout = 30
    web_provider = "duckduckgo"

    [policy]
    allow = ["make test"]
    ask = []
    deny = ["terraform destroy"]

    [prompt]
    show_git = true
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from swebash.errors import ConfigError

TRUE_WORDS = frozenset({"1", "true", "yes", "on"})
FALSE_WORDS = frozenset({"0", "false", "no", "off", ""})

# Names of environment variables whose values are secrets (redaction also looks at name shapes).
API_KEY_VARS = ("OPENAI_API_KEY", "ANTHROPIC_API_KEY", "GEMINI_API_KEY", "BRAVE_API_KEY")


@dataclass(frozen=True)
class Paths:
    home: Path
    config_dir: Path
    state_dir: Path

    @property
    def config_file(self) -> Path:
        return self.config_dir / "config.toml"

    @property
    def history_file(self) -> Path:
        return self.state_dir / "history"

    @property
    def audit_file(self) -> Path:
        return self.state_dir / "audit.jsonl"

    @property
    def rc_file(self) -> Path:
        return self.home / ".swebashrc"


@dataclass(frozen=True)
class ToolConfig:
    """Seed 000's ToolConfig plus the per-tool settings."""

    enable_fs: bool = True
    enable_exec: bool = True
    enable_web: bool = True
    require_confirmation: bool = True
    max_iterations: int = 10
    max_tool_calls_per_turn: int = 10
    fs_max_size: int = 1_048_576
    exec_timeout: int = 30
    exec_max_timeout: int = 300
    web_provider: str = "duckduckgo"
    web_base_url: str | None = None  # SWEBASH_AI_WEB_BASE_URL: tests point it at 127.0.0.1
    brave_api_key: str | None = None

    @property
    def any_enabled(self) -> bool:
        return self.enable_fs or self.enable_exec or self.enable_web


@dataclass(frozen=True)
class AiConfig:
    provider: str | None = None  # explicit choice; None means auto-detect
    model: str | None = None
    base_url: str | None = None  # SWEBASH_AI_BASE_URL (openai-compatible / any provider override)
    openai_api_key: str | None = None
    anthropic_api_key: str | None = None
    gemini_api_key: str | None = None
    openai_base_url: str | None = None
    anthropic_base_url: str | None = None
    ollama_host: str | None = None
    request_timeout: float = 60.0
    max_retries: int = 3
    autocomplete: bool = False
    context_commands: int = 10
    tools: ToolConfig = field(default_factory=ToolConfig)

    def secret_values(self) -> tuple[str, ...]:
        keys = (self.openai_api_key, self.anthropic_api_key, self.gemini_api_key,
                self.tools.brave_api_key)
        return tuple(k for k in keys if k)


@dataclass(frozen=True)
class PolicyConfig:
    allow: tuple[str, ...] = ()
    ask: tuple[str, ...] = ()
    deny: tuple[str, ...] = ()


@dataclass(frozen=True)
class PromptConfig:
    show_git: bool = True
    show_user_host: bool = True


@dataclass(frozen=True)
class Config:
    paths: Paths
    ai: AiConfig = field(default_factory=AiConfig)
    policy: PolicyConfig = field(default_factory=PolicyConfig)
    prompt: PromptConfig = field(default_factory=PromptConfig)
    no_color: bool = False
    dumb_term: bool = False
    environ: Mapping[str, str] = field(default_factory=dict)


def parse_bool(value: Any, name: str) -> bool:
    if isinstance(value, bool):
        return value
    text = str(value).strip().lower()
    if text in TRUE_WORDS:
        return True
    if text in FALSE_WORDS:
        return False
    raise ConfigError(f"{name}: expected true or false, got {value!r}")


def parse_int(value: Any, name: str, *, minimum: int = 0) -> int:
    try:
        number = int(str(value).strip())
    except ValueError:
        raise ConfigError(f"{name}: expected a whole number, got {value!r}") from None
    if number < minimum:
        raise ConfigError(f"{name}: must be at least {minimum}, got {number}")
    return number


def parse_float(value: Any, name: str) -> float:
    try:
        number = float(str(value).strip())
    except ValueError:
        raise ConfigError(f"{name}: expected a number, got {value!r}") from None
    if number <= 0:
        raise ConfigError(f"{name}: must be positive, got {number}")
    return number


def resolve_paths(env: Mapping[str, str]) -> Paths:
    home = Path(env.get("HOME") or os.path.expanduser("~"))
    config_home = Path(env.get("XDG_CONFIG_HOME") or home / ".config")
    state_home = Path(env.get("XDG_STATE_HOME") or home / ".local" / "state")
    return Paths(home=home, config_dir=config_home / "swebash", state_dir=state_home / "swebash")


def read_toml(path: Path) -> dict[str, Any]:
    try:
        raw = path.read_bytes()
    except FileNotFoundError:
        return {}
    except OSError as exc:
        raise ConfigError(f"cannot read {path}: {exc.strerror}") from exc
    import tomllib  # only paid for when a config file exists

    try:
        data = tomllib.loads(raw.decode("utf-8", errors="replace"))
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"{path}: {exc}") from exc
    return data


class _Layer:
    """Looks a setting up in the environment first, then in one table of config.toml."""

    def __init__(self, env: Mapping[str, str], table: Any, table_name: str) -> None:
        self.env = env
        self.table: dict[str, Any] = table if isinstance(table, dict) else {}
        self.table_name = table_name

    def get(self, env_name: str | None, key: str) -> tuple[Any, str] | None:
        if env_name is not None:
            value = self.env.get(env_name)
            if value is not None and value != "":
                return value, env_name
        if key in self.table:
            return self.table[key], f"config.toml [{self.table_name}] {key}"
        return None

    def string(self, env_name: str | None, key: str) -> str | None:
        found = self.get(env_name, key)
        return None if found is None else str(found[0])

    def boolean(self, env_name: str | None, key: str, default: bool) -> bool:
        found = self.get(env_name, key)
        return default if found is None else parse_bool(found[0], found[1])

    def integer(self, env_name: str | None, key: str, default: int, minimum: int = 0) -> int:
        found = self.get(env_name, key)
        return default if found is None else parse_int(found[0], found[1], minimum=minimum)

    def number(self, env_name: str | None, key: str, default: float) -> float:
        found = self.get(env_name, key)
        return default if found is None else parse_float(found[0], found[1])

    def strings(self, key: str) -> tuple[str, ...]:
        value = self.table.get(key, [])
        if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
            raise ConfigError(f"config.toml [{self.table_name}] {key}: expected a list of strings")
        return tuple(value)


def load(environ: Mapping[str, str] | None = None) -> Config:
    """Build the configuration from ``environ`` (default: ``os.environ``) and config.toml."""
    env: Mapping[str, str] = dict(os.environ if environ is None else environ)
    paths = resolve_paths(env)
    data = read_toml(paths.config_file)
    ai = _Layer(env, data.get("ai"), "ai")
    tl = _Layer(env, data.get("tools"), "tools")
    pol = _Layer(env, data.get("policy"), "policy")
    pr = _Layer(env, data.get("prompt"), "prompt")

    tools = ToolConfig(
        enable_fs=tl.boolean("SWEBASH_AI_TOOLS_FS", "fs", True),
        enable_exec=tl.boolean("SWEBASH_AI_TOOLS_EXEC", "exec", True),
        enable_web=tl.boolean("SWEBASH_AI_TOOLS_WEB", "web", True),
        require_confirmation=tl.boolean("SWEBASH_AI_TOOLS_CONFIRM", "confirm", True),
        max_iterations=tl.integer("SWEBASH_AI_TOOLS_MAX_ITER", "max_iter", 10, minimum=1),
        max_tool_calls_per_turn=tl.integer(
            "SWEBASH_AI_TOOLS_MAX_CALLS", "max_calls_per_turn", 10, minimum=1),
        fs_max_size=tl.integer("SWEBASH_AI_FS_MAX_SIZE", "fs_max_size", 1_048_576, minimum=1),
        exec_timeout=tl.integer("SWEBASH_AI_EXEC_TIMEOUT", "exec_timeout", 30, minimum=1),
        web_provider=(tl.string("SWEBASH_AI_WEB_PROVIDER", "web_provider") or "duckduckgo"),
        web_base_url=tl.string("SWEBASH_AI_WEB_BASE_URL", "web_base_url"),
        brave_api_key=env.get("BRAVE_API_KEY") or None,
    )
    provider = ai.string("SWEBASH_AI_PROVIDER", "provider")
    if provider is not None:
        provider = provider.strip().lower()
    ai_config = AiConfig(
        provider=provider or None,
        model=ai.string("SWEBASH_AI_MODEL", "model"),
        base_url=ai.string("SWEBASH_AI_BASE_URL", "base_url"),
        openai_api_key=env.get("OPENAI_API_KEY") or None,
        anthropic_api_key=env.get("ANTHROPIC_API_KEY") or None,
        gemini_api_key=env.get("GEMINI_API_KEY") or None,
        openai_base_url=env.get("OPENAI_BASE_URL") or None,
        anthropic_base_url=env.get("ANTHROPIC_BASE_URL") or None,
        ollama_host=env.get("OLLAMA_HOST") or None,
        request_timeout=ai.number("SWEBASH_AI_TIMEOUT", "timeout", 60.0),
        max_retries=ai.integer("SWEBASH_AI_MAX_RETRIES", "max_retries", 3),
        autocomplete=ai.boolean("SWEBASH_AI_AUTOCOMPLETE", "autocomplete", False),
        context_commands=ai.integer("SWEBASH_AI_CONTEXT_COMMANDS", "context_commands", 10),
        tools=tools,
    )
    policy = PolicyConfig(allow=pol.strings("allow"), ask=pol.strings("ask"),
                          deny=pol.strings("deny"))
    prompt = PromptConfig(show_git=pr.boolean(None, "show_git", True),
                          show_user_host=pr.boolean(None, "show_user_host", True))
    return Config(
        paths=paths,
        ai=ai_config,
        policy=policy,
        prompt=prompt,
        no_color="NO_COLOR" in env and env.get("NO_COLOR", "") != "",
        dumb_term=env.get("TERM", "") == "dumb",
        environ=env,
    )
