"""The safety gate's interface: every tool call passes one gate before it runs.

The gate judges a shell command or a path and returns a ``swebash.api.Verdict``
(allow | ask | deny, a ``dangerous`` flag, one-line reasons). It never prompts: ``ask`` goes to
the UI's confirmation hook, or is refused when there is none.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Literal, Protocol, runtime_checkable

from swebash.api import Verdict


class SafetyGate(Protocol):
    def check_command(self, command: str, cwd: str) -> Verdict:
        """Judge a bash command line that would run in ``cwd``."""
        ...

    def check_path(self, path: str, cwd: str, *, write: bool) -> Verdict:
        """Judge reading (or writing) ``path`` relative to ``cwd``."""
        ...


# how every redacted secret starts: ``[REDACTED:<name>]`` (the write tools look for it)
REDACTED = "[REDACTED:"


def placeholder(name: str) -> str:
    return f"{REDACTED}{name}]"


class Redactor(Protocol):
    def redact(self, text: str) -> str:
        """Replace secrets in ``text`` with ``placeholder(name)``."""
        ...


@runtime_checkable
class LearnsSecrets(Protocol):
    def learn(self, environ: Mapping[str, str]) -> None:
        """Redact the secret-named values of ``environ`` too, from now on."""
        ...


@runtime_checkable
class RuleWriter(Protocol):
    def approve(self, command: str, scope: Literal["project", "always"], cwd: str) -> str:
        """Save an allow rule covering ``command`` (the y/N prompt's ``a`` with scope project
        or always); returns one line saying what was saved, or why nothing was."""
        ...

    def notes(self) -> tuple[str, ...]:
        """One line per rules.toml rule refused or broken at load (for ``ai status``)."""
        ...
