"""Keys wait while a key's work runs, as in readline.

Readline runs a key's function before it reads the next key: a Tab typed before Enter completes
first, a widget bound with ``bind -x`` ends before the keys after it are seen. Some of swebash's
key functions ask the session's bash and must not block prompt-toolkit's event loop (a slow
completion function shows a spinner and Ctrl-C cancels it; a widget hands the terminal over),
so they run as tasks. ``hold_keys`` starts such a task with the keys prompt-toolkit has already
read put aside and the terminal's input detached (new keys stay in the tty, or are read by the
task itself), and feeds the held keys back once the task is done.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from prompt_toolkit.application import Application
from prompt_toolkit.key_binding.key_processor import KeyPress


def hold_keys(app: Application[Any], work: Callable[[list[KeyPress]], Awaitable[None]]) -> None:
    """Run ``work(later)`` as a task; the keys already read, then those ``work`` appends to
    ``later``, are processed after it."""
    processor = app.key_processor
    held = list(processor.input_queue)
    processor.input_queue.clear()
    detached = app.input.detach()
    detached.__enter__()
    later: list[KeyPress] = []

    async def run() -> None:
        try:
            await work(later)
        finally:
            detached.__exit__(None, None, None)
            if held or later:
                processor.feed_multiple(held + later)
                processor.process_keys()
            app.invalidate()

    app.create_background_task(run())
