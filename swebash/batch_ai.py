"""The AI half for `-c` and piped input: `? …`, `?? …` and `ai …` lines, in plain text.

One ``PlainAiHost`` per swebash process, so the AI lines of a piped script share one
conversation (stored like the shell's, so ``--continue`` finds it) and one set of MCP servers,
started once by the first line that needs them. Coroutines run on one persistent loop thread
(the interactive shell's ``AiLoop``): MCP sessions are bound to the loop that opened them.
``close()`` stops every MCP server process before swebash exits; SIGTERM and SIGHUP while the
host is open end the run through that same path (no orphaned server), exit status 128+N.
"""

from __future__ import annotations

import os
import signal
import sys
from collections.abc import Coroutine
from typing import TYPE_CHECKING, Any, TextIO

from swebash import lifecycle
from swebash.api import AiService, ChatRequest, Error
from swebash.config import Config
from swebash.errors import SwebashError

if TYPE_CHECKING:
    from swebash.host.loop import AiLoop
    from swebash.host.runtime import AiPlatform, AiRuntime, RuntimeFactory


class PlainAiHost:
    def __init__(self, config: Config | None = None, *, yes: bool = False,
                 yes_dangerous: bool = False, continue_last: bool = False,
                 out: TextIO | None = None, err: TextIO | None = None,
                 runtime_factory: RuntimeFactory | None = None) -> None:
        self._config = config
        self.yes = yes
        self.yes_dangerous = yes_dangerous
        self.continue_last = continue_last
        self.out = out or sys.stdout
        self.err = err or sys.stderr
        self._factory = runtime_factory
        self._runtime: AiRuntime | None = None
        self._loop: AiLoop | None = None
        self._saved: lifecycle.Saved = {}

    # ------------------------------------------------------------------ lazy parts

    @property
    def config(self) -> Config:
        if self._config is None:
            from swebash import config as config_mod

            self._config = config_mod.load()
            config_mod.print_warnings(self._config, self.err)
        return self._config

    @property
    def runtime(self) -> AiRuntime:
        """The AI half, built once by the composition root (``app.build_runtime``)."""
        if self._runtime is None:
            factory = self._factory
            if factory is None:
                from swebash.app import build_runtime

                factory = build_runtime

            def report(line: str) -> None:
                print(f"swebash: {line}", file=self.err, flush=True)

            self._runtime = factory(self.config, None, report)
            if self.continue_last:
                message = self._runtime.platform.continue_last(os.getcwd())
                if message:
                    print(f"swebash: {message}", file=self.err, flush=True)
        return self._runtime

    @property
    def platform(self) -> AiPlatform:
        return self.runtime.platform

    @property
    def service(self) -> AiService:
        return self.runtime.service

    @property
    def loop(self) -> AiLoop:
        if self._loop is None:
            from swebash.host.loop import AiLoop

            self._loop = AiLoop()
            self._trap_signals()
        return self._loop

    def run_sync(self, coro: Coroutine[Any, Any, Any], timeout: float | None = None) -> Any:
        return self.loop.run(coro, timeout)

    # ------------------------------------------------------------------ lines

    def ask(self, line: str, stdin_text: str | None = None) -> int:
        """Answer a `?`/`??` line: the answer on stdout, tool events on stderr."""
        from swebash.app import noninteractive_confirm
        from swebash.render.plain import PlainPrinter
        from swebash.router import Ask, Translate, route

        routed = route(line)
        if not isinstance(routed, Ask | Translate) or not routed.text:
            print("swebash: usage: ? QUESTION  or  ?? TASK", file=self.err)
            return 2
        try:
            service = self.service
            if isinstance(routed, Translate):
                result = self.run_sync(service.translate(routed.text))
                print(result.command, file=self.out)
                for line in result.explanation.splitlines():
                    print(f"# {line}", file=self.err)
                return 0
            printer = PlainPrinter(self.out, self.err)
            request = ChatRequest(routed.text, stdin_context=stdin_text)
            hook = noninteractive_confirm(self.yes, self.yes_dangerous)

            async def turn() -> int:
                import contextlib

                status = 0
                stream = service.chat_stream(request, confirm=hook)
                async with contextlib.aclosing(stream):  # a closed stdout closes the request
                    async for event in stream:
                        printer.handle(event)
                        if isinstance(event, Error):
                            status = event.exit_status
                return status

            status: int = self.run_sync(turn())
            self.out.flush()
            return status
        except SwebashError as exc:
            print(f"swebash: {exc}", file=self.err)
            return exc.exit_status
        except KeyboardInterrupt:
            print("swebash: interrupted", file=self.err)
            return 130

    def builtin(self, line: str) -> int:
        """An `ai …` line, printed as plain text."""
        from swebash.host import builtins as ai_builtins

        try:
            status = ai_builtins.run(self, line)
        except SwebashError as exc:
            print(f"swebash: {exc}", file=self.err)
            return exc.exit_status
        except KeyboardInterrupt:
            print("swebash: interrupted", file=self.err)
            return 130
        sys.stdout.flush()
        return status

    def explain(self, command: str) -> int:
        try:
            result = self.run_sync(self.service.explain(command))
        except SwebashError as exc:
            print(f"swebash: {exc}", file=self.err)
            return exc.exit_status
        print(result.explanation.rstrip(), file=self.out)
        return 0

    # ------------------------------------------------------------------ shutdown

    def _trap_signals(self) -> None:
        """SIGTERM/SIGHUP become SystemExit in the main thread, so ``close()`` still runs."""
        self._saved = lifecycle.exit_on_signals((signal.SIGTERM, signal.SIGHUP))

    def close(self) -> None:
        """Stop MCP servers and the loop thread; restore signal handlers. Idempotent."""
        if self._runtime is not None:
            self._runtime.close()
        if self._loop is not None:
            self._loop.close()
            self._loop = None
        lifecycle.restore_signals(self._saved)

    def __enter__(self) -> PlainAiHost:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
