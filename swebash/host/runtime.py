"""The AI runtime: everything of the AI half that one swebash process builds once.

Design note. The AI half used to be assembled in three places: the interactive handle built the
engine through ``app`` (the UI composing itself), the plain host built it again its own way, the
handle made a second safety gate to judge `??` proposals, and the `ai …` builtins re-read the
configuration and the rules file. One runtime now holds the parts that must be one — the
service (engine, provider, tools), the safety gate (commands, paths, rules.toml), the
platform (stored conversations, MCP servers) and the sandbox — built by the composition root
(``app.build_runtime``) and handed, as a factory, to whichever host runs: the interactive
``AiFrontend`` or the plain ``PlainAiHost``. Hosts never name a concrete class of the engine.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from swebash.api import AiService, TerminalContext
from swebash.config import Config

if TYPE_CHECKING:
    from swebash.ai.platform import AiPlatform as AiPlatform
    from swebash.safety.gate import DefaultGate
    from swebash.safety.sandbox import ManagedSandbox

Report = Callable[[str], None]  # one line for the user (an MCP server that failed to start)


@dataclass
class AiRuntime:
    config: Config
    service: AiService
    gate: DefaultGate  # the one gate: the engine's, the `??` warning's, `ai rules`
    platform: AiPlatform  # stored conversations, sessions, MCP servers
    sandbox: ManagedSandbox | None = None

    def close(self) -> None:
        """Stop MCP servers and the sandbox's processes (safe to call more than once, from
        any thread but the AI loop's)."""
        self.platform.close()
        if self.sandbox is not None:
            self.sandbox.close()


RuntimeFactory = Callable[[Config, TerminalContext | None, Report], AiRuntime]
