"""Composition root: the only module that names concrete classes.

Everything here is imported lazily (after the first prompt, on the first `?`, or for an AI line
in ``-c`` / piped mode), so nothing provider-related is paid for at startup.
"""

from __future__ import annotations

import os

from swebash.api import (
    ConfirmAnswer,
    ConfirmHook,
    ConfirmRequest,
    TerminalContext,
)
from swebash.config import Config
from swebash.host.runtime import AiRuntime, Report


def build_runtime(config: Config, context: TerminalContext | None = None,
                  report: Report | None = None) -> AiRuntime:
    """Wire the AI half once: the platform (stored conversation, sessions, MCP servers), one
    redactor, one file boundary, one safety gate, one sandbox (also for MCP servers), the tool
    registry and the engine with its provider factory. ``report`` prints a one-line platform
    notice (an MCP server that failed); the hosts give theirs."""
    from swebash.ai.platform import build_platform, report_to_stderr
    from swebash.ai.service import DefaultAiService
    from swebash.providers.select import create_provider
    from swebash.safety.audit import AuditLog
    from swebash.safety.boundary import FileBoundary
    from swebash.safety.gate import DefaultGate
    from swebash.safety.redact import SecretRedactor
    from swebash.safety.sandbox import OsSandbox
    from swebash.tools.registry import default_registry

    cwd = context.cwd if context is not None else os.getcwd
    platform = build_platform(config, cwd, report or report_to_stderr)
    redactor = SecretRedactor(config.environ, config.ai.secret_values())
    # one file policy for the gate and the file tools (the service hands the gate's to them)
    files = FileBoundary(str(config.paths.home), redactor=redactor,
                         protected=(str(config.paths.config_dir), str(config.paths.state_dir)))
    gate = DefaultGate(config.policy, home=str(config.paths.home),
                       rules_file=config.paths.rules_file, files=files)
    registry = default_registry(config.ai.tools)
    sandbox = OsSandbox(config.sandbox, home=str(config.paths.home), environ=config.environ,
                        protect=(config.paths.config_dir, config.paths.state_dir),
                        state_dir=config.paths.state_dir if config.paths.persistent else None)
    if platform.mcp is not None:
        registry.add_source(platform.mcp)
        platform.mcp.use_sandbox(sandbox)  # one policy for commands and MCP servers
    service = DefaultAiService(
        config=config.ai,
        provider_factory=create_provider,
        registry=registry,
        gate=gate,
        redactor=redactor,
        terminal=context,
        audit=AuditLog(config.paths.audit_file, redactor) if config.paths.persistent else None,
        conversation=platform.conversation,
        mcp=platform.mcp,
        user_instructions=config.paths.user_instructions,
        compact_after_bytes=config.sessions.compact_after_bytes,
        sandbox=sandbox,
    )
    return AiRuntime(config, service, gate, platform, sandbox)


def noninteractive_confirm(yes: bool, yes_dangerous: bool) -> ConfirmHook | None:
    """`--yes` approves `ask` verdicts; dangerous ones — including those with a program,
    option or sub-command the classifier does not know — need `--yes-dangerous`; a write past
    the sandbox's write boundary (``needs_person``) is never approved here."""
    if not (yes or yes_dangerous):
        return None

    async def hook(request: ConfirmRequest) -> ConfirmAnswer:
        if request.kind != "run" or request.verdict.needs_person:
            # --yes never lifts the sandbox, opens a new domain or writes past the tree
            return ConfirmAnswer.NO
        if request.verdict.dangerous and not yes_dangerous:
            return ConfirmAnswer.NOT_DANGEROUS
        return ConfirmAnswer.YES

    return hook
