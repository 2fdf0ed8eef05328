"""config.load(): every key validated once; a bad value warns and falls back, nothing else moves."""

from __future__ import annotations

from pathlib import Path

import pytest

from swebash import config as config_mod


def write_config(home: Path, text: str, *, bom: bool = False) -> Path:
    path = home / ".config" / "swebash" / "config.toml"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes((b"\xef\xbb\xbf" if bom else b"") + text.encode())
    return path


def load(home: Path, **env: str) -> config_mod.Config:
    return config_mod.load({"HOME": str(home), **env})


def test_defaults_without_a_file_give_no_warnings(tmp_path: Path) -> None:
    cfg = load(tmp_path)
    assert cfg.warnings == ()
    assert cfg.ai.request_timeout == 60.0 and cfg.sandbox.enabled and cfg.paths.persistent


def test_one_bad_value_keeps_every_other_setting(tmp_path: Path) -> None:
    write_config(tmp_path, '[prompt]\nshow_git = "sometimes"\n[ai]\nmodel = "m-from-file"\n')
    cfg = load(tmp_path, SWEBASH_AI_PROVIDER="ollama", OLLAMA_HOST="http://127.0.0.1:9")
    assert cfg.ai.provider == "ollama" and cfg.ai.ollama_host == "http://127.0.0.1:9"
    assert cfg.ai.model == "m-from-file"
    assert cfg.prompt.show_git is True
    (warning,) = cfg.warnings
    assert "[prompt] show_git" in warning and "config.toml" in warning
    assert "'sometimes'" in warning and "\n" not in warning


def test_a_byte_order_mark_is_accepted(tmp_path: Path) -> None:
    write_config(tmp_path, '[ai]\nmodel = "bom-model"\n', bom=True)
    cfg = load(tmp_path)
    assert cfg.ai.model == "bom-model" and cfg.warnings == ()


@pytest.mark.parametrize("value", ["nan", "-1", "0", "inf", "abc", "1e9"])
def test_timeouts_that_make_no_sense_are_rejected(tmp_path: Path, value: str) -> None:
    cfg = load(tmp_path, SWEBASH_AI_TIMEOUT=value)
    assert cfg.ai.request_timeout == 60.0
    (warning,) = cfg.warnings
    assert warning.startswith("swebash: SWEBASH_AI_TIMEOUT:") and "default" in warning


@pytest.mark.parametrize("text,where", [
    ("[polcy]\ndeny = ['terraform destroy']\n", "[polcy]"),
    ("[policy]\ndenny = ['x']\n", "[policy] denny"),
    ("[tools]\nmax_iter = 0\n", "[tools] max_iter"),
    ("[tools]\nmax_iter = 2.5\n", "[tools] max_iter"),
    ("[tools]\nweb_provider = 'bing'\n", "[tools] web_provider"),
    ("[ai]\nbase_url = 'localhost:8000'\n", "[ai] base_url"),
    ("[ai]\nprovider = 'skynet'\n", "[ai] provider"),
    ("[sandbox]\nnetwork = 'maybe'\n", "[sandbox] network"),
    ("ai = 3\n", "[ai]"),
])
def test_each_problem_is_one_line_naming_file_table_and_key(tmp_path: Path, text: str,
                                                            where: str) -> None:
    write_config(tmp_path, text)
    cfg = load(tmp_path, SWEBASH_AI_MODEL="still-here")
    assert cfg.ai.model == "still-here"
    assert len(cfg.warnings) == 1, cfg.warnings
    assert where in cfg.warnings[0] and "config.toml" in cfg.warnings[0]


def test_a_broken_file_warns_once_and_the_environment_still_counts(tmp_path: Path) -> None:
    write_config(tmp_path, "[ai\nmodel = \n")
    cfg = load(tmp_path, SWEBASH_AI_MODEL="env-model")
    assert cfg.ai.model == "env-model"
    assert len(cfg.warnings) == 1 and "using the defaults" in cfg.warnings[0]


def test_unusable_state_dir_means_no_persistence_and_one_warning(tmp_path: Path) -> None:
    not_a_dir = tmp_path / "state-file"
    not_a_dir.write_text("x")
    cfg = load(tmp_path, XDG_STATE_HOME=str(not_a_dir))
    assert cfg.paths.persistent is False
    (warning,) = cfg.warnings
    assert "not saved" in warning


def test_sandbox_variable_sets_mode_and_backend(tmp_path: Path) -> None:
    assert load(tmp_path, SWEBASH_AI_SANDBOX="off").sandbox.enabled is False
    cfg = load(tmp_path, SWEBASH_AI_SANDBOX="bwrap")
    assert cfg.sandbox.enabled and cfg.sandbox.backend == "bwrap"
    write_config(tmp_path, "[sandbox]\nmode = 'off'\nnetwork = true\n")
    cfg = load(tmp_path)
    assert not cfg.sandbox.enabled and cfg.sandbox.network


def test_mcp_servers_are_read_and_checked(tmp_path: Path) -> None:
    write_config(tmp_path, """
[mcp_servers.files]
command = "python3"
args = ["-m", "srv"]
env = { TOKEN = "t" }
trust = true
enabled_tools = ["read"]
tool_timeout = 5

[mcp_servers.remote]
url = "http://127.0.0.1:8765/mcp"
headers = { Authorization = "Bearer x" }
colour = "blue"

[mcp_servers.broken]
args = ["x"]
""")
    cfg = load(tmp_path)
    files, remote = cfg.mcp_servers
    assert files.name == "files" and files.command == "python3" and files.args == ("-m", "srv")
    assert files.trust and files.enabled_tools == ("read",) and files.tool_timeout == 5.0
    assert dict(files.env) == {"TOKEN": "t"}
    assert remote.url == "http://127.0.0.1:8765/mcp" and remote.enabled_tools is None
    assert len(cfg.warnings) == 2
    assert any("[mcp_servers.remote] colour" in w for w in cfg.warnings)
    assert any("[mcp_servers.broken]" in w and "command" in w for w in cfg.warnings)
