"""Composition root: the only module that names concrete classes.

Everything here is imported lazily (after the first prompt, on the first `?`, or for an AI line
in ``-c`` / piped mode), so nothing provider-related is paid for at startup.
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING, TextIO

from swebash.api import (
    AiService,
    ConfirmAnswer,
    ConfirmHook,
    ConfirmRequest,
    TerminalContext,
)
from swebash.config import Config

if TYPE_CHECKING:
    from swebash.ai.platform import AiPlatform


def build_ai_service(config: Config, context: TerminalContext | None = None,
                     platform: AiPlatform | None = None) -> AiService:
    """Wire the real engine: provider factory, tools, safety gate, redactor, audit log, and the
    platform (stored conversation, MCP servers as a tool source, AGENTS.md)."""
    from swebash.ai.platform import build_platform
    from swebash.ai.service import DefaultAiService
    from swebash.providers.select import create_provider
    from swebash.safety.audit import AuditLog
    from swebash.safety.boundary import FileBoundary
    from swebash.safety.gate import DefaultGate
    from swebash.safety.redact import SecretRedactor
    from swebash.safety.sandbox import OsSandbox
    from swebash.tools.registry import default_registry

    redactor = SecretRedactor(config.environ, config.ai.secret_values())
    # one file policy for the gate and the file tools (the service hands the gate's to them)
    files = FileBoundary(str(config.paths.home), redactor=redactor,
                         protected=(str(config.paths.config_dir), str(config.paths.state_dir)))
    if platform is None:
        platform = build_platform(config, context.cwd if context is not None else os.getcwd)
    registry = default_registry(config.ai.tools)
    sandbox = OsSandbox(config.sandbox, home=str(config.paths.home), environ=config.environ,
                        protect=(config.paths.config_dir, config.paths.state_dir),
                        state_dir=config.paths.state_dir if config.paths.persistent else None)
    if platform.mcp is not None:
        registry.add_source(platform.mcp)
        platform.mcp.use_sandbox(sandbox)  # one policy for commands and MCP servers
    return DefaultAiService(
        config=config.ai,
        provider_factory=create_provider,
        registry=registry,
        gate=DefaultGate(config.policy, home=str(config.paths.home),
                         rules_file=config.paths.rules_file, files=files),
        redactor=redactor,
        terminal=context,
        audit=AuditLog(config.paths.audit_file, redactor) if config.paths.persistent else None,
        conversation=platform.conversation,
        mcp=platform.mcp,
        user_instructions=config.paths.user_instructions,
        compact_after_bytes=config.sessions.compact_after_bytes,
        sandbox=sandbox,
    )


def noninteractive_confirm(yes: bool, yes_dangerous: bool) -> ConfirmHook | None:
    """`--yes` approves `ask` verdicts; dangerous ones need `--yes-dangerous`; a write past
    the sandbox's write boundary (``needs_person``) is never approved here."""
    if not (yes or yes_dangerous):
        return None

    async def hook(request: ConfirmRequest) -> ConfirmAnswer:
        if request.kind != "run" or request.verdict.needs_person:
            # --yes never lifts the sandbox, opens a new domain or writes past the tree
            return ConfirmAnswer.NO
        if request.verdict.dangerous and not yes_dangerous:
            return ConfirmAnswer.NO
        return ConfirmAnswer.YES

    return hook


def run_ai_line(line: str, *, stdin_text: str | None = None, yes: bool = False,
                yes_dangerous: bool = False, config: Config | None = None,
                out: TextIO | None = None, err: TextIO | None = None,
                continue_last: bool = False) -> int:
    """Answer one `? …` / `?? …` line in plain text; return the exit status.

    The answer goes to stdout, tool events one line each to stderr. 0 on success; 1 when the
    provider or the engine failed; 2 when AI is not configured or the line is empty. MCP
    servers the line started are stopped before this returns.
    """
    from swebash.batch_ai import PlainAiHost

    with PlainAiHost(config, yes=yes, yes_dangerous=yes_dangerous, out=out, err=err,
                     continue_last=continue_last) as host:
        return host.ask(line, stdin_text)
