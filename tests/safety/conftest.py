"""Fixtures of the safety tests: the gate with a temporary HOME; for the sandbox tests each
backend that works on this machine, and a world (a HOME with canary secrets, a working tree, a
place outside it) per test."""

from __future__ import annotations

from pathlib import Path

import pytest

from swebash.safety.gate import DefaultGate
from tests.safety.sandbox_fixtures import World, available, make_world


@pytest.fixture(params=("bwrap", "landlock"))
def backend(request: pytest.FixtureRequest) -> str:
    name: str = request.param
    why = available(name)
    if why is not None:
        pytest.skip(f"{name} does not work here: {why}")
    return name


@pytest.fixture
def world(tmp_path: Path) -> World:
    return make_world(tmp_path)


@pytest.fixture
def gate(hermetic_env: Path) -> DefaultGate:
    return DefaultGate(home=str(hermetic_env))
