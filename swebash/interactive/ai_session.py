"""The REPL's handle on the AI: `? question`, `?? task`, `ai explain`, warm-up.

Design note. The REPL is synchronous; the engine is async and its HTTP clients live on one
persistent loop thread (``AiLoop``). A `?` turn runs there as one coroutine that feeds events
straight into the ``TerminalRenderer`` (rich writes from that thread; the REPL thread only
waits). While a turn runs the real tty is in cooked mode, so Ctrl-C arrives as SIGINT →
KeyboardInterrupt in the waiting REPL thread, which cancels the task: the provider stream is
closed and running tools have their process groups killed by the engine; a tool cut that way
stays on screen with its command, marked interrupted. Confirmation keys are read in raw mode
with signals off, so Ctrl-C there is a key: it stops the turn (the engine makes no further
request) and the question's status is 130, as for any Ctrl-C.

Nothing here imports rich, an SDK or the engine at module import: ``warm()`` does that in a
background thread after the first prompt is drawn, so the first `?` pays nothing.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import os
import sys
import threading
import time
from collections.abc import Coroutine
from typing import TYPE_CHECKING, Any, TextIO

from swebash.api import (
    INTERRUPTED,
    AiEvent,
    AiService,
    ChatRequest,
    ConfirmAnswer,
    ConfirmRequest,
    TerminalContext,
    ToolCallEnd,
    ToolCallStart,
    ToolExecuting,
    error_result,
)
from swebash.config import Config
from swebash.errors import SwebashError
from swebash.host.loop import AiLoop
from swebash.shell.pty import signal_keys

if TYPE_CHECKING:
    from rich.text import Text

    from swebash.host.runtime import AiPlatform, AiRuntime, RuntimeFactory
    from swebash.render.events import TerminalRenderer

CANCEL_GRACE = 0.45  # seconds a cancelled turn gets to clean up before the prompt returns


class AiFrontend:
    def __init__(self, config: Config, context: TerminalContext | None,
                 runtime_factory: RuntimeFactory, out: TextIO | None = None,
                 tty_fd: int | None = None) -> None:
        self.config = config
        self.context = context
        self.out = out or sys.stdout
        self.tty_fd = tty_fd if tty_fd is not None else sys.stdin.fileno()
        self._factory = runtime_factory
        self._loop = AiLoop()
        self._runtime: AiRuntime | None = None
        self._renderer: TerminalRenderer | None = None
        self._lock = threading.Lock()

    # ------------------------------------------------------------------ lazy parts

    @property
    def runtime(self) -> AiRuntime:
        """The AI half, built once on first use (by the composition root's factory)."""
        with self._lock:
            if self._runtime is None:
                self._runtime = self._factory(self.config, self.context, self._notice)
            return self._runtime

    @property
    def service(self) -> AiService:
        return self.runtime.service

    @property
    def platform(self) -> AiPlatform:
        """Stored conversations and MCP servers, shared with the service."""
        return self.runtime.platform

    def _notice(self, line: str) -> None:
        """A one-line platform notice (an MCP server that failed), printed above the spinner."""
        from rich.text import Text

        self.renderer.print(Text(f"swebash: {line}", style="yellow"))

    @property
    def renderer(self) -> TerminalRenderer:
        with self._lock:
            if self._renderer is None:
                from swebash.render.events import TerminalRenderer

                self._renderer = TerminalRenderer.for_config(self.config, self.out)
            return self._renderer

    def warm(self) -> None:
        """Import the renderer, the engine and the provider SDK (call off the main thread)."""
        try:
            _ = self.renderer
            _ = self._loop.loop
            self.service.warm()
        except Exception:  # warming is best effort; the real call reports errors
            pass

    # ------------------------------------------------------------------ running things

    def _wait(self, coro: Coroutine[Any, Any, Any], finished: threading.Event) -> Any:
        """Run ``coro`` on the AI loop; Ctrl-C cancels it and waits briefly for cleanup."""
        future = self._loop.submit(coro)
        try:
            # Between prompts the terminal is held with ISIG off (a Ctrl-C during startup is a
            # key); a turn needs Ctrl-C as SIGINT, or the answer could not be cancelled.
            with signal_keys(self.tty_fd, on=True):
                return future.result()
        except KeyboardInterrupt:
            future.cancel()
            try:
                finished.wait(CANCEL_GRACE)
            except KeyboardInterrupt:
                pass
            raise

    def ask(self, question: str) -> int:
        """Answer a `?` question with streaming markdown and tool panels; 0 ok, 1 error."""
        from swebash.api import Error

        renderer = self.renderer
        service = self.service
        finished = threading.Event()
        asked = renderer.confirm_hook(self.tty_fd)
        stopped = threading.Event()
        running = RunningCalls()
        turn_task: list[asyncio.Task[Any]] = []

        async def hook(request: ConfirmRequest) -> ConfirmAnswer:
            answer = await asked(request)
            if answer is ConfirmAnswer.STOP:
                stopped.set()
                if request.kind == "network" and turn_task:
                    # Asked by the sandbox's proxy, not the agent, which never sees the answer:
                    # the turn ends here as with Ctrl-C while the command runs (it is cut).
                    turn_task[0].cancel()
            return answer

        async def turn() -> int:
            task = asyncio.current_task()
            if task is not None:
                turn_task.append(task)
            status = 0
            renderer.begin_turn()
            try:
                stream = service.chat_stream(ChatRequest(question), confirm=hook)
                async with contextlib.aclosing(stream):
                    async for event in stream:
                        running.see(event)
                        renderer.handle(event)
                        if isinstance(event, Error):
                            status = 1
            finally:
                renderer.end_turn()
                finished.set()
            return 130 if stopped.is_set() else status

        try:
            result: int = self._wait(turn(), finished)
            return result
        except (KeyboardInterrupt, concurrent.futures.CancelledError) as exc:
            from rich.text import Text

            renderer.end_turn()
            for end in running.interrupted():  # each cut tool stays, with its command
                renderer.handle(end)
            renderer.end_turn()
            if isinstance(exc, KeyboardInterrupt):  # (a question already said "stopped")
                renderer.print(Text("^C — answer cancelled", style="dim"))
            return 130

    def _simple(self, coro: Coroutine[Any, Any, Any], spinner_text: str) -> Any:
        """Run a one-shot engine call with a spinner; errors print one line (None)."""
        finished = threading.Event()
        renderer = self.renderer

        async def work() -> Any:
            try:
                return await coro
            finally:
                finished.set()

        renderer.spinner.start(spinner_text)
        try:
            return self._wait(work(), finished)
        except KeyboardInterrupt:
            return None
        except SwebashError as exc:
            renderer.end_turn()
            self.error(str(exc))
            return None
        finally:
            renderer.end_turn()

    def translate(self, task: str) -> str | None:
        """`?? task` → a command for the next prompt's buffer (None on failure): the WHOLE
        proposal, however many lines (a loop stays a loop), with its explanation above.

        The proposal goes through the safety gate like any command the model wants to run: a
        dangerous one is announced in red with the gate's reasons. It still lands in the
        buffer — editable, unrun — since the user asked for it and Enter is theirs to press.
        """
        from rich.text import Text

        from swebash.visible import one_line

        result = self._simple(self.service.translate(task), "translating…")
        if result is None:
            return None
        command: str = result.command
        if result.explanation:  # every line of it: a fenced reply's prose is the explanation
            self.renderer.print(Text("\n".join(f"# {one_line(line)}" for line in
                                               result.explanation.splitlines()), style="dim"))
        warning = self.proposal_warning(command)
        if warning is not None:
            self.renderer.print(warning)
        return command

    def proposal_warning(self, command: str) -> Text | None:
        """A red line with the gate's reasons when ``command`` is dangerous or denied."""
        from rich.text import Text

        from swebash.render.confirm import short_reasons
        from swebash.render.theme import DANGER

        if not command.strip():
            return None
        cwd = self.context.cwd() if self.context is not None else os.getcwd()
        try:  # the engine's own gate (rules.toml and [policy] included)
            verdict = self.runtime.gate.check_command(command, cwd)
        except Exception:  # the gate fails closed: say so rather than stay silent
            return Text("⚠ could not check this command with the safety gate — read it "
                        "before pressing Enter", style=DANGER)
        if verdict.decision != "deny" and (not verdict.dangerous or verdict.unknown):
            return None  # a program the classifier does not know is not a warning of danger
        reasons = short_reasons(ConfirmRequest("execute_command", command, verdict, command))
        word = "denied by your policy" if verdict.decision == "deny" else "dangerous"
        return Text(f"⚠ {word}: " + ("; ".join(reasons) or "check it before pressing Enter"),
                    style=DANGER)

    def explain(self, command: str) -> int:
        result = self._simple(self.service.explain(command), "explaining…")
        if result is None:
            return 1
        self.renderer.stream.feed(result.explanation.rstrip() + "\n")
        self.renderer.end_turn()
        return 0

    def run_sync(self, coro: Coroutine[Any, Any, Any], timeout: float | None = None) -> Any:
        return self._loop.run(coro, timeout)

    def submit(self, coro: Coroutine[Any, Any, Any]) -> concurrent.futures.Future[Any]:
        return self._loop.submit(coro)

    def error(self, message: str) -> None:
        from swebash.visible import one_line

        print(f"swebash: {one_line(message)}", file=sys.stderr, flush=True)

    def close(self) -> None:
        if self._runtime is not None:
            self._runtime.close()  # MCP server processes stop before the loop does
        self._loop.close()


class RunningCalls:
    """The tool calls of a turn that started running and have not ended: what Ctrl-C cut."""

    def __init__(self) -> None:
        self._starts: dict[str, ToolCallStart] = {}
        self._running: dict[str, float] = {}  # call id → when it began to run

    def see(self, event: AiEvent) -> None:
        if isinstance(event, ToolCallStart):
            self._starts[event.call_id] = event
        elif isinstance(event, ToolExecuting):
            self._running.setdefault(event.call_id, time.monotonic())
        elif isinstance(event, ToolCallEnd):
            self._running.pop(event.call_id, None)

    def interrupted(self) -> list[ToolCallEnd]:
        """A ``ToolCallEnd`` for each call cut while it ran, as the engine recorded it."""
        now = time.monotonic()
        ends = [ToolCallEnd(self._starts[key].name if key in self._starts else "tool",
                            error_result("Interrupted", INTERRUPTED), False,
                            (now - began) * 1000, key, "interrupted")
                for key, began in self._running.items()]
        self._running.clear()
        return ends
