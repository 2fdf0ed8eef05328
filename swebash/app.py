"""Composition root: the only module that names concrete classes.

Everything here is imported lazily (after the first prompt, on the first `?`, or for an AI line
in ``-c`` / piped mode), so nothing provider-related is paid for at startup.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import sys
from typing import TYPE_CHECKING, TextIO

from swebash.api import (
    AiService,
    ChatRequest,
    ConfirmAnswer,
    ConfirmHook,
    ConfirmRequest,
    Error,
    TerminalContext,
)
from swebash.config import Config
from swebash.errors import SwebashError

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
    from swebash.safety.gate import DefaultGate
    from swebash.safety.redact import SecretRedactor
    from swebash.tools.registry import default_registry

    redactor = SecretRedactor(config.environ, config.ai.secret_values())
    if platform is None:
        platform = build_platform(config, context.cwd if context is not None else os.getcwd)
    registry = default_registry(config.ai.tools)
    if platform.mcp is not None:
        registry.add_source(platform.mcp)
    return DefaultAiService(
        config=config.ai,
        provider_factory=create_provider,
        registry=registry,
        gate=DefaultGate(config.policy, home=str(config.paths.home)),
        redactor=redactor,
        terminal=context,
        audit=AuditLog(config.paths.audit_file, redactor) if config.paths.persistent else None,
        conversation=platform.conversation,
        mcp=platform.mcp,
        user_instructions=config.paths.user_instructions,
        compact_after_bytes=config.sessions.compact_after_bytes,
    )


def noninteractive_confirm(yes: bool, yes_dangerous: bool) -> ConfirmHook | None:
    """`--yes` approves `ask` verdicts; dangerous ones need `--yes-dangerous`."""
    if not (yes or yes_dangerous):
        return None

    async def hook(request: ConfirmRequest) -> ConfirmAnswer:
        if request.verdict.dangerous and not yes_dangerous:
            return ConfirmAnswer.NO
        return ConfirmAnswer.YES

    return hook


def run_ai_line(line: str, *, stdin_text: str | None = None, yes: bool = False,
                yes_dangerous: bool = False, config: Config | None = None,
                out: TextIO | None = None, err: TextIO | None = None) -> int:
    """Answer one `? …` / `?? …` line in plain text; return the exit status.

    The answer goes to stdout, tool events one line each to stderr. 0 on success; 1 when the
    provider or the engine failed; 2 when AI is not configured or the line is empty.
    """
    from swebash import config as config_mod
    from swebash.render.plain import PlainPrinter
    from swebash.router import Ask, Translate, route

    out = out or sys.stdout
    err = err or sys.stderr
    routed = route(line)
    if not isinstance(routed, Ask | Translate) or not routed.text:
        print("swebash: usage: ? QUESTION  or  ?? TASK", file=err)
        return 2
    try:
        cfg = config
        if cfg is None:
            cfg = config_mod.load()
            config_mod.print_warnings(cfg, err)
        service = build_ai_service(cfg)
        if isinstance(routed, Translate):
            result = asyncio.run(service.translate(routed.text))
            print(result.command, file=out)
            if result.explanation:
                print(f"# {result.explanation}", file=err)
            return 0
        printer = PlainPrinter(out, err)
        request = ChatRequest(routed.text, stdin_context=stdin_text)
        hook = noninteractive_confirm(yes, yes_dangerous)

        async def turn() -> int:
            status = 0
            stream = service.chat_stream(request, confirm=hook)
            async with contextlib.aclosing(stream):  # a closed stdout closes the request too
                async for event in stream:
                    printer.handle(event)
                    if isinstance(event, Error):
                        status = event.exit_status
            return status

        status = asyncio.run(turn())
        out.flush()
        return status
    except SwebashError as exc:
        print(f"swebash: {exc}", file=err)
        return exc.exit_status
    except KeyboardInterrupt:
        print("swebash: interrupted", file=err)
        return 130
