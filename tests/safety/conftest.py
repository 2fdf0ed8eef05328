"""Fixtures of the safety tests: the gate with a temporary HOME; for the sandbox tests each
backend that works on this machine, and a world (a HOME with canary secrets, a working tree, a
place outside it) per test."""

from __future__ import annotations

from pathlib import Path

import pytest

from swebash.safety.gate import DefaultGate
from tests.safety import sandbox_fixtures
from tests.safety.sandbox_fixtures import World, available, make_world


@pytest.fixture(params=("bwrap", "bwrap-prepared", "landlock"))
def backend(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> str:
    """"bwrap-prepared": bubblewrap, each command ``run`` gives it running in the sandbox the
    previous one left prepared (``sandbox_command.Prepared``) — the escapes again, that way."""
    name: str = request.param.removesuffix("-prepared")
    why = available(name)
    if why is not None:
        pytest.skip(f"{name} does not work here: {why}")
    monkeypatch.setattr(sandbox_fixtures, "PREPARED", request.param.endswith("-prepared"))
    return name


@pytest.fixture
def world(tmp_path: Path) -> World:
    return make_world(tmp_path)


@pytest.fixture
def gate(hermetic_env: Path) -> DefaultGate:
    return DefaultGate(home=str(hermetic_env))
