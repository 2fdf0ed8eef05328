"""Configuration: the only module that reads the environment and config.toml.

Precedence: environment variables win over ``$XDG_CONFIG_HOME/swebash/config.toml``, which wins
over the defaults here. ``load()`` is cheap (no third-party imports; the TOML file is parsed only
if it exists) because it runs before the first prompt.

Validation never fails the whole load. Every key is checked once; a bad value (wrong type, NaN,
negative, out of range, unknown choice), an unknown table or an unknown key becomes one warning
line naming the file, table and key (or the variable), and that one setting falls back to its
default — a typo in ``[prompt]`` must never switch the AI off, and a misspelled ``[polcy]`` must
be reported rather than silently drop a deny rule. The warnings are in ``Config.warnings``; the
CLI prints them once on stderr.

config.toml layout::

    [ai]
    provider = "openai"          # openai | anthropic | gemini | ollama | openai-compatible
    model = "gpt-4o-mini"
    base_url = "http://localhost:8000/v1"
    timeout = 60                 # seconds a request may go without a useful byte
    deadline = 600               # seconds for a whole request, retries included
    max_retries = 3
    autocomplete = false
    context_commands = 10
    instructions_budget = 32768  # bytes of AGENTS.md text in the system prompt

    [tools]
    fs = true
    exec = true
    web = true
    confirm = true
    max_iter = 10
    max_calls_per_turn = 10
    fs_max_size = 1048576
    exec_timeout = 30
    web_provider = "duckduckgo"  # duckduckgo | brave
    web_base_url = "http://127.0.0.1:8080"

    [policy]
    allow = ["make test"]
    ask = []
    deny = ["terraform destroy"]

    [prompt]
    show_git = true
    show_user_host = true
    rprompt = "%(date)s"         # right-hand prompt (see README)
    transient = false            # collapse previous prompts to a short form

    [sandbox]
    mode = "auto"                # auto | off
    backend = "auto"             # auto | landlock | bwrap
    network = "proxy"            # proxy (by domain) | off | on
    allow_domains = ["pypi.org", "files.pythonhosted.org"]  # others ask once

    [ui]
    tools = "compact"            # compact | boxed: how tool calls are drawn

    [sessions]
    enabled = true
    max_bytes = 4000000          # per conversation file
    keep = 50                    # conversations kept
    compact_after_bytes = 200000

    [mcp_servers.NAME]
    command = "npx"              # stdio ...
    args = ["-y", "some-server"]
    env = { TOKEN = "..." }
    cwd = "/path"
    url = "http://127.0.0.1:8765/mcp"   # ... or Streamable HTTP
    headers = { Authorization = "Bearer ..." }
    enabled = true
    enabled_tools = ["a", "b"]
    disabled_tools = []
    trust = false
    startup_timeout = 10
    tool_timeout = 60
"""

from __future__ import annotations

import dataclasses
import math
import os
import sys
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TextIO, TypeVar

TRUE_WORDS = frozenset({"1", "true", "yes", "on"})
FALSE_WORDS = frozenset({"0", "false", "no", "off", ""})

PROVIDERS = ("openai", "anthropic", "gemini", "ollama", "openai-compatible")
T = TypeVar("T")
TomlValue = object  # what tomllib hands back: str, int, float, bool, list, dict, dates


@dataclass(frozen=True)
class Paths:
    home: Path
    config_dir: Path
    state_dir: Path
    persistent: bool = True  # False when the state dir is unusable: nothing is saved
    # where /etc/profile, /etc/bash.bashrc and /etc/shells live; SWEBASH_SYSTEM_DIR moves it,
    # for tests only (they cannot write the real files)
    system_dir: Path = Path("/etc")

    @property
    def config_file(self) -> Path:
        return self.config_dir / "config.toml"

    @property
    def rules_file(self) -> Path:
        return self.config_dir / "rules.toml"

    @property
    def user_instructions(self) -> Path:
        return self.config_dir / "AGENTS.md"

    @property
    def history_file(self) -> Path:
        return self.state_dir / "history"

    @property
    def audit_file(self) -> Path:
        return self.state_dir / "audit.jsonl"

    @property
    def sessions_dir(self) -> Path:
        return self.state_dir / "sessions"

    @property
    def log_dir(self) -> Path:
        return self.state_dir / "logs"

    @property
    def rc_file(self) -> Path:
        return self.home / ".swebashrc"

    @property
    def system_profile(self) -> Path:
        return self.system_dir / "profile"

    @property
    def system_bashrc(self) -> Path:
        return self.system_dir / "bash.bashrc"

    @property
    def shells_file(self) -> Path:
        return self.system_dir / "shells"


@dataclass(frozen=True)
class ToolConfig:
    """Which tools the agent has and their limits."""

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
    request_deadline: float = 600.0
    max_retries: int = 3
    autocomplete: bool = False
    context_commands: int = 10
    instructions_budget: int = 32_768
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
    rprompt: str | None = None
    transient: bool = False


@dataclass(frozen=True)
class UiConfig:
    tools: str = "compact"  # compact | boxed


@dataclass(frozen=True)
class SandboxConfig:
    mode: str = "auto"  # auto | off
    backend: str = "auto"  # auto | landlock | bwrap
    network: str = "proxy"  # proxy (by domain, through swebash's proxy) | off | on
    allow_domains: tuple[str, ...] = ()  # reachable through the proxy without asking

    @property
    def enabled(self) -> bool:
        return self.mode != "off"


@dataclass(frozen=True)
class SessionsConfig:
    enabled: bool = True
    max_bytes: int = 4_000_000
    keep: int = 50
    compact_after_bytes: int = 200_000


@dataclass(frozen=True)
class McpServerConfig:
    name: str
    command: str | None = None
    args: tuple[str, ...] = ()
    env: Mapping[str, str] = field(default_factory=dict)
    cwd: str | None = None
    url: str | None = None
    headers: Mapping[str, str] = field(default_factory=dict)
    enabled: bool = True
    enabled_tools: tuple[str, ...] | None = None
    disabled_tools: tuple[str, ...] = ()
    trust: bool = False
    startup_timeout: float = 10.0
    tool_timeout: float = 60.0


@dataclass(frozen=True)
class Config:
    paths: Paths
    ai: AiConfig = field(default_factory=AiConfig)
    policy: PolicyConfig = field(default_factory=PolicyConfig)
    prompt: PromptConfig = field(default_factory=PromptConfig)
    sandbox: SandboxConfig = field(default_factory=SandboxConfig)
    sessions: SessionsConfig = field(default_factory=SessionsConfig)
    ui: UiConfig = field(default_factory=UiConfig)
    mcp_servers: tuple[McpServerConfig, ...] = ()
    no_color: bool = False
    dumb_term: bool = False
    environ: Mapping[str, str] = field(default_factory=dict)
    warnings: tuple[str, ...] = ()


# --------------------------------------------------------------------------- value parsers
# Each returns the parsed value or raises ValueError with the "expected …" half of a warning.


def parse_bool(value: TomlValue) -> bool:
    if isinstance(value, bool):
        return value
    text = str(value).strip().lower()
    if text in TRUE_WORDS:
        return True
    if text in FALSE_WORDS:
        return False
    raise ValueError("expected true or false")


def int_parser(minimum: int = 0, maximum: int = 2**53) -> Callable[[TomlValue], int]:
    def parse(value: TomlValue) -> int:
        if isinstance(value, bool | float):
            raise ValueError("expected a whole number")
        try:
            number = int(str(value).strip())
        except ValueError:
            raise ValueError("expected a whole number") from None
        if not minimum <= number <= maximum:
            raise ValueError(f"expected a whole number from {minimum} to {maximum}")
        return number
    return parse


def float_parser(maximum: float = 86_400.0) -> Callable[[TomlValue], float]:
    def parse(value: TomlValue) -> float:
        if isinstance(value, bool):
            raise ValueError("expected a number")
        try:
            number = float(str(value).strip())
        except ValueError:
            raise ValueError("expected a number") from None
        if math.isnan(number) or not 0 < number <= maximum:
            raise ValueError(f"expected a number above 0 and at most {maximum:g}")
        return number
    return parse


def choice_parser(*choices: str) -> Callable[[TomlValue], str]:
    def parse(value: TomlValue) -> str:
        text = str(value).strip().lower() if isinstance(value, str) else None
        if text not in choices:
            raise ValueError("expected one of " + ", ".join(choices))
        return text
    return parse


def parse_string(value: TomlValue) -> str:
    if not isinstance(value, str):
        raise ValueError("expected a string")
    return value


def parse_url(value: TomlValue) -> str:
    text = parse_string(value).strip()
    scheme, sep, rest = text.partition("://")
    if not sep or scheme.lower() not in ("http", "https") or not rest.strip("/"):
        raise ValueError("expected an http:// or https:// URL")
    return text


def parse_strings(value: TomlValue) -> tuple[str, ...]:
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise ValueError("expected a list of strings")
    return tuple(value)


def parse_string_table(value: TomlValue) -> Mapping[str, str]:
    if not isinstance(value, dict) or not all(isinstance(v, str) for v in value.values()):
        raise ValueError("expected a table of strings")
    return {str(k): v for k, v in value.items()}


# --------------------------------------------------------------------------- layered lookup


class Settings:
    """Looks settings up in the environment, then config.toml, collecting warnings."""

    def __init__(self, env: Mapping[str, str], data: dict[str, TomlValue], file: Path) -> None:
        self.env = env
        self.data = data
        self.file = file
        self.warnings: list[str] = []
        self.known: dict[str, set[str]] = {}

    def warn(self, where: str, problem: str) -> None:
        self.warnings.append(f"swebash: {where}: {problem}")

    def table(self, name: str) -> dict[str, TomlValue]:
        self.known.setdefault(name, set())
        value = self.data.get(name, {})
        if isinstance(value, dict):
            return value
        self.data[name] = {}  # warned once; later lookups see an empty table
        self.warn(f"{self.file} [{name}]", "expected a table — ignored")
        return {}

    def get(self, table: str, key: str | None, env_name: str | None,
            parse: Callable[[TomlValue], T], default: T, show_default: str | None = None) -> T:
        """One setting: the variable if set, else the key, else the default; bad → warn."""
        shown = show_default if show_default is not None else repr(default)
        if env_name is not None:
            raw = self.env.get(env_name)
            if raw is not None and raw != "":
                try:
                    return parse(raw)
                except ValueError as exc:
                    self.warn(env_name, f"{exc}, got {raw!r} — using the default ({shown})")
                    return default
        if key is None:
            return default
        self.known.setdefault(table, set()).add(key)
        values = self.table(table)
        if key not in values:
            return default
        try:
            return parse(values[key])
        except ValueError as exc:
            self.warn(f"{self.file} [{table}] {key}",
                      f"{exc}, got {values[key]!r} — using the default ({shown})")
            return default

    def report_unknown(self) -> None:
        for name, value in self.data.items():
            if name == "mcp_servers":
                continue
            if name not in self.known:
                self.warn(f"{self.file} [{name}]", "unknown table — ignored (a typo?)")
            elif isinstance(value, dict):
                for key in value:
                    if key not in self.known[name]:
                        self.warn(f"{self.file} [{name}] {key}", "unknown key — ignored (a typo?)")


def resolve_paths(env: Mapping[str, str]) -> Paths:
    home = Path(env.get("HOME") or os.path.expanduser("~"))
    config_home = Path(env.get("XDG_CONFIG_HOME") or home / ".config")
    state_home = Path(env.get("XDG_STATE_HOME") or home / ".local" / "state")
    return Paths(home=home, config_dir=config_home / "swebash", state_dir=state_home / "swebash",
                 system_dir=Path(env.get("SWEBASH_SYSTEM_DIR") or "/etc"))


def usable_dir(path: Path) -> str | None:
    """Create ``path`` (0700) if needed; None when it can be written, else why not."""
    try:
        path.mkdir(mode=0o700, parents=True, exist_ok=True)
    except OSError as exc:
        return exc.strerror or type(exc).__name__
    if not path.is_dir():
        return "not a directory"
    if not os.access(path, os.W_OK | os.X_OK):
        return "not writable"
    return None


def read_toml(path: Path, warnings: list[str]) -> dict[str, TomlValue]:
    try:
        raw = path.read_bytes()
    except FileNotFoundError:
        return {}
    except OSError as exc:
        warnings.append(f"swebash: cannot read {path}: {exc.strerror} — using the defaults")
        return {}
    import tomllib  # only paid for when a config file exists

    try:
        # utf-8-sig: editors on Windows save a BOM; it is not an error.
        return tomllib.loads(raw.decode("utf-8-sig", errors="replace"))
    except tomllib.TOMLDecodeError as exc:
        warnings.append(f"swebash: {path}: {exc} — using the defaults")
        return {}


def load(environ: Mapping[str, str] | None = None) -> Config:
    """Build the configuration from ``environ`` (default: ``os.environ``) and config.toml."""
    env: Mapping[str, str] = dict(os.environ if environ is None else environ)
    paths = resolve_paths(env)
    early: list[str] = []
    data = read_toml(paths.config_file, early)
    s = Settings(env, data, paths.config_file)
    s.warnings.extend(early)
    why = usable_dir(paths.state_dir)
    if why is not None:
        s.warn(str(paths.state_dir), f"cannot be used ({why}) — history, audit log and "
               "conversations are not saved this session")
        paths = dataclasses.replace(paths, persistent=False)

    config = Config(
        paths=paths,
        ai=load_ai(s, env),
        policy=PolicyConfig(
            allow=s.get("policy", "allow", None, parse_strings, ()),
            ask=s.get("policy", "ask", None, parse_strings, ()),
            deny=s.get("policy", "deny", None, parse_strings, ()),
        ),
        prompt=PromptConfig(
            show_git=s.get("prompt", "show_git", None, parse_bool, True),
            show_user_host=s.get("prompt", "show_user_host", None, parse_bool, True),
            rprompt=s.get("prompt", "rprompt", None, parse_string, None),
            transient=s.get("prompt", "transient", "SWEBASH_PROMPT_TRANSIENT", parse_bool,
                            False),
        ),
        sandbox=load_sandbox(s),
        sessions=SessionsConfig(
            enabled=s.get("sessions", "enabled", "SWEBASH_AI_SESSIONS", parse_bool, True),
            max_bytes=s.get("sessions", "max_bytes", None, int_parser(10_000), 4_000_000),
            keep=s.get("sessions", "keep", None, int_parser(1, 100_000), 50),
            compact_after_bytes=s.get("sessions", "compact_after_bytes", None,
                                      int_parser(1_000), 200_000),
        ),
        ui=UiConfig(tools=s.get("ui", "tools", None, choice_parser("compact", "boxed"),
                                "compact")),
        mcp_servers=load_mcp_servers(s),
        no_color="NO_COLOR" in env and env.get("NO_COLOR", "") != "",
        dumb_term=env.get("TERM", "") == "dumb",
        environ=env,
    )
    s.report_unknown()
    return dataclasses.replace(config, warnings=tuple(s.warnings))


def load_ai(s: Settings, env: Mapping[str, str]) -> AiConfig:
    def secret(name: str) -> str | None:
        return env.get(name) or None

    tools = ToolConfig(
        enable_fs=s.get("tools", "fs", "SWEBASH_AI_TOOLS_FS", parse_bool, True),
        enable_exec=s.get("tools", "exec", "SWEBASH_AI_TOOLS_EXEC", parse_bool, True),
        enable_web=s.get("tools", "web", "SWEBASH_AI_TOOLS_WEB", parse_bool, True),
        require_confirmation=s.get("tools", "confirm", "SWEBASH_AI_TOOLS_CONFIRM", parse_bool,
                                   True),
        max_iterations=s.get("tools", "max_iter", "SWEBASH_AI_TOOLS_MAX_ITER",
                             int_parser(1, 1000), 10),
        max_tool_calls_per_turn=s.get("tools", "max_calls_per_turn", "SWEBASH_AI_TOOLS_MAX_CALLS",
                                      int_parser(1, 1000), 10),
        fs_max_size=s.get("tools", "fs_max_size", "SWEBASH_AI_FS_MAX_SIZE",
                          int_parser(1, 1 << 30), 1_048_576),
        exec_timeout=s.get("tools", "exec_timeout", "SWEBASH_AI_EXEC_TIMEOUT",
                           int_parser(1, 86_400), 30),
        web_provider=s.get("tools", "web_provider", "SWEBASH_AI_WEB_PROVIDER",
                           choice_parser("duckduckgo", "brave"), "duckduckgo"),
        web_base_url=s.get("tools", "web_base_url", "SWEBASH_AI_WEB_BASE_URL", parse_url, None),
        brave_api_key=secret("BRAVE_API_KEY"),
    )
    return AiConfig(
        provider=s.get("ai", "provider", "SWEBASH_AI_PROVIDER", choice_parser(*PROVIDERS), None,
                       "auto-detect"),
        model=s.get("ai", "model", "SWEBASH_AI_MODEL", parse_string, None, "the provider's"),
        base_url=s.get("ai", "base_url", "SWEBASH_AI_BASE_URL", parse_url, None, "none"),
        openai_api_key=secret("OPENAI_API_KEY"),
        anthropic_api_key=secret("ANTHROPIC_API_KEY"),
        gemini_api_key=secret("GEMINI_API_KEY"),
        openai_base_url=s.get("", None, "OPENAI_BASE_URL", parse_url, None, "none"),
        anthropic_base_url=s.get("", None, "ANTHROPIC_BASE_URL", parse_url, None, "none"),
        ollama_host=secret("OLLAMA_HOST"),
        request_timeout=s.get("ai", "timeout", "SWEBASH_AI_TIMEOUT", float_parser(), 60.0),
        request_deadline=s.get("ai", "deadline", "SWEBASH_AI_DEADLINE", float_parser(), 600.0),
        max_retries=s.get("ai", "max_retries", "SWEBASH_AI_MAX_RETRIES", int_parser(0, 20), 3),
        autocomplete=s.get("ai", "autocomplete", "SWEBASH_AI_AUTOCOMPLETE", parse_bool, False),
        context_commands=s.get("ai", "context_commands", "SWEBASH_AI_CONTEXT_COMMANDS",
                               int_parser(0, 1000), 10),
        instructions_budget=s.get("ai", "instructions_budget", "SWEBASH_AI_INSTRUCTIONS_BUDGET",
                                  int_parser(0, 1 << 24), 32_768),
        tools=tools,
    )


def load_sandbox(s: Settings) -> SandboxConfig:
    # SWEBASH_AI_SANDBOX takes off | auto | landlock | bwrap: one variable for mode and backend.
    raw = s.get("", None, "SWEBASH_AI_SANDBOX",
                choice_parser("off", "auto", "on", "landlock", "bwrap"), "")
    mode = s.get("sandbox", "mode", None, choice_parser("auto", "off"), "auto")
    backend = s.get("sandbox", "backend", None, choice_parser("auto", "landlock", "bwrap"), "auto")
    if raw == "off":
        mode = "off"
    elif raw in ("auto", "on"):
        mode = "auto"
    elif raw in ("landlock", "bwrap"):
        mode, backend = "auto", raw
    network = s.get("sandbox", "network", "SWEBASH_AI_SANDBOX_NETWORK", parse_network,
                    "proxy")
    no_domains: tuple[str, ...] = ()
    domains = s.get("sandbox", "allow_domains", None, parse_domains, no_domains)
    return SandboxConfig(mode=mode, backend=backend, network=network, allow_domains=domains)


def parse_network(value: TomlValue) -> str:
    """proxy | off | on; true and false (the older form) mean on and off."""
    if isinstance(value, str) and value.strip().lower() in ("proxy", "off", "on"):
        return value.strip().lower()
    try:
        return "on" if parse_bool(value) else "off"
    except ValueError:
        raise ValueError("expected proxy, off or on") from None


def parse_domains(value: TomlValue) -> tuple[str, ...]:
    """Host names, or ``*.`` and a name for its subdomains."""
    names = parse_strings(value)
    for name in names:
        bare = name.strip().removeprefix("*.")
        if not bare or any(c in bare for c in "/:@ *") or bare.startswith("."):
            raise ValueError(f"expected host names such as pypi.org or *.github.com, not "
                             f"{name!r}")
    return tuple(n.strip().lower() for n in names)


MCP_KEYS = frozenset({"command", "args", "env", "cwd", "url", "headers", "enabled",
                      "enabled_tools", "disabled_tools", "trust", "startup_timeout",
                      "tool_timeout"})


def load_mcp_servers(s: Settings) -> tuple[McpServerConfig, ...]:
    tables = s.data.get("mcp_servers", {})
    s.known.setdefault("mcp_servers", set())
    if not isinstance(tables, dict):
        s.warn(f"{s.file} [mcp_servers]", "expected a table of servers — ignored")
        return ()
    servers: list[McpServerConfig] = []
    for name, table in tables.items():
        where = f"mcp_servers.{name}"
        if not isinstance(table, dict):
            s.warn(f"{s.file} [{where}]", "expected a table — server ignored")
            continue
        s.data.setdefault(where, table)  # so get() reads it under its dotted name
        s.known[where] = set(MCP_KEYS)
        for key in table:
            if key not in MCP_KEYS:
                s.warn(f"{s.file} [{where}] {key}", "unknown key — ignored (a typo?)")
        command = s.get(where, "command", None, parse_string, None)
        url = s.get(where, "url", None, parse_url, None)
        if (command is None) == (url is None):
            s.warn(f"{s.file} [{where}]", "needs exactly one of command (stdio) or url (HTTP) "
                   "— server ignored")
            continue
        enabled_tools: tuple[str, ...] = s.get(where, "enabled_tools", None, parse_strings, ())
        servers.append(McpServerConfig(
            name=str(name),
            command=command,
            args=s.get(where, "args", None, parse_strings, ()),
            env=s.get(where, "env", None, parse_string_table, {}),
            cwd=s.get(where, "cwd", None, parse_string, None),
            url=url,
            headers=s.get(where, "headers", None, parse_string_table, {}),
            enabled=s.get(where, "enabled", None, parse_bool, True),
            enabled_tools=enabled_tools if "enabled_tools" in table else None,
            disabled_tools=s.get(where, "disabled_tools", None, parse_strings, ()),
            trust=s.get(where, "trust", None, parse_bool, False),
            startup_timeout=s.get(where, "startup_timeout", None, float_parser(600), 10.0),
            tool_timeout=s.get(where, "tool_timeout", None, float_parser(), 60.0),
        ))
        del s.data[where]
    return tuple(servers)


def print_warnings(config: Config, stream: TextIO | None = None) -> None:
    """Print each configuration warning once, one line each (stderr by default)."""
    out = stream if stream is not None else sys.stderr
    for line in config.warnings:
        print(line, file=out)
