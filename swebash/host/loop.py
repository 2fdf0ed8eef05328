"""A persistent event loop thread for the AI half.

Problem: the REPL is synchronous (prompt-toolkit's ``prompt()`` runs and closes an event loop per
line, and the shell session pumps a pty with blocking reads), while the AI engine is async and
its HTTP clients are bound to the loop that created them. Running each `?` with ``asyncio.run``
would throw the clients (and their warm connections) away every time, and awaiting on
prompt-toolkit's loop would tie them to a loop that dies after the line is read.

Approach: one daemon thread owns one asyncio loop for the life of the process. The UI submits
coroutines with ``submit`` and gets a ``concurrent.futures.Future`` back; cancelling that future
cancels the task in the loop (closing the HTTP stream, killing tool process groups).

Shutdown (``exit``, Ctrl-D, SIGHUP/SIGTERM/SIGQUIT) must leave no process behind: ``close``
cancels every task still on the loop and waits (bounded) for them to unwind — that is where
tool process groups are killed — and only then stops the loop (MCP servers are stopped before,
by the runtime's ``close``).

Unwinding starts new tasks: a turn cancelled mid-answer drops the SDK's stream generators,
and Python closes each one in a task of its own (``aclose`` from the loop's async-generator
finaliser), whose ``finally`` awaits the connection's close. Waiting only for the tasks that
existed when ``close`` began left those pending when the loop stopped — "Task was destroyed
but it is pending!" at exit, and a connection never closed. So ``close`` waits until no task
is left (all within the same bound), closes the generators still suspended
(``shutdown_asyncgens``, as ``asyncio.run`` does), and waits once more. A task already
cancelled (Ctrl-C just before the exit) is not cancelled again: a second cancel would cut its
cleanup short (the conversation's note, the stream's close).
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import threading
from collections.abc import Coroutine
from typing import Any, TypeVar

T = TypeVar("T")


class AiLoop:
    """Owns the background event loop; started lazily on first use."""

    def __init__(self) -> None:
        self._loop: asyncio.AbstractEventLoop | None = None
        self._lock = threading.Lock()

    @property
    def loop(self) -> asyncio.AbstractEventLoop:
        with self._lock:
            if self._loop is None:
                ready = threading.Event()
                loop = asyncio.new_event_loop()

                def main() -> None:
                    asyncio.set_event_loop(loop)
                    ready.set()
                    loop.run_forever()

                threading.Thread(target=main, name="swebash-ai", daemon=True).start()
                ready.wait()
                self._loop = loop
            return self._loop

    def submit(self, coro: Coroutine[Any, Any, T]) -> concurrent.futures.Future[T]:
        return asyncio.run_coroutine_threadsafe(coro, self.loop)

    def run(self, coro: Coroutine[Any, Any, T], timeout: float | None = None) -> T:
        """Run ``coro`` on the loop and wait; Ctrl-C in the caller cancels it."""
        future = self.submit(coro)
        try:
            return future.result(timeout)
        except BaseException:
            future.cancel()
            raise

    def close(self, timeout: float = 3.0) -> None:
        """Cancel what still runs, let it unwind, stop the loop; never raises."""
        with self._lock:
            loop, self._loop = self._loop, None
        if loop is None or loop.is_closed():
            return

        async def shutdown() -> None:
            me = asyncio.current_task()
            for task in asyncio.all_tasks():
                if task is not me and not task.cancelling():  # a second cancel would cut
                    task.cancel()  # the cleanup of one already cancelled (Ctrl-C, then exit)
            await settle(me, loop.time() + timeout / 2)
            with contextlib.suppress(Exception):
                await asyncio.wait_for(loop.shutdown_asyncgens(), timeout / 4)
            await settle(me, loop.time() + timeout / 4)

        try:
            asyncio.run_coroutine_threadsafe(shutdown(), loop).result(timeout + 0.5)
        except BaseException:  # a timeout or a second signal: stop anyway
            pass
        loop.call_soon_threadsafe(loop.stop)


async def settle(me: asyncio.Task[Any] | None, until: float) -> None:
    """Wait until every other task is done, also those started meanwhile (the cleanup the
    cancelled ones start), but not past ``until``; what is left then is cancelled."""
    loop = asyncio.get_running_loop()
    while True:
        tasks = [t for t in asyncio.all_tasks() if t is not me and not t.done()]
        left = until - loop.time()
        if not tasks:
            return
        if left <= 0:
            for task in tasks:
                task.cancel()
            await asyncio.sleep(0)  # one step each to take the cancellation
            return
        await asyncio.wait(tasks, timeout=left)
