"""Hermetic test environment: temp HOME and XDG dirs, no API keys, no proxies.

Every test runs with a fresh HOME; nothing reaches the network beyond 127.0.0.1.
"""

from __future__ import annotations

import os
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.fakes.server import FakeServer

SECRET_VARS = ("OPENAI_API_KEY", "ANTHROPIC_API_KEY", "GEMINI_API_KEY", "BRAVE_API_KEY",
               "OPENAI_BASE_URL", "ANTHROPIC_BASE_URL", "OLLAMA_HOST", "HTTP_PROXY",
               "HTTPS_PROXY", "ALL_PROXY", "http_proxy", "https_proxy", "all_proxy")


@pytest.fixture(autouse=True)
def hermetic_env(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    home = tmp_path / "home"
    for sub in ("", ".config", ".local/state", ".cache", ".local/share"):
        (home / sub).mkdir(parents=True, exist_ok=True)
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(home / ".config"))
    monkeypatch.setenv("XDG_STATE_HOME", str(home / ".local/state"))
    monkeypatch.setenv("XDG_CACHE_HOME", str(home / ".cache"))
    monkeypatch.setenv("XDG_DATA_HOME", str(home / ".local/share"))
    monkeypatch.setenv("NO_PROXY", "127.0.0.1,localhost")
    # Temp files of swebash and of everything it starts land inside this test's tmp_path,
    # which pytest removes: a run leaves no /tmp/swebash-* behind.
    tmp = tmp_path / "tmp"
    tmp.mkdir(exist_ok=True)
    monkeypatch.setenv("TMPDIR", str(tmp))
    monkeypatch.setattr(tempfile, "tempdir", str(tmp))
    for name in SECRET_VARS:
        monkeypatch.delenv(name, raising=False)
    for name in list(os.environ):
        if name.startswith("SWEBASH_"):
            monkeypatch.delenv(name, raising=False)
    # the machine's /etc/profile and /etc/bash.bashrc (its PS1) stay out of the tests; a test
    # that wants them writes them here
    (tmp_path / "etc").mkdir(exist_ok=True)
    monkeypatch.setenv("SWEBASH_SYSTEM_DIR", str(tmp_path / "etc"))
    yield home


@pytest.fixture
def server() -> Iterator[FakeServer]:
    """The local OpenAI/Anthropic/Ollama wire-protocol server on 127.0.0.1 (tests/fakes)."""
    fake = FakeServer().start()
    yield fake
    fake.stop()
