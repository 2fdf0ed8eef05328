"""Deadlines for a model request: the time between useful events, and the request as a whole.

Problem: the SDKs' ``timeout`` is httpx's per-read timeout, so any byte resets it. A server that
trickles one byte a second, or sends nothing but SSE keep-alive comments (``: ping``) or
Anthropic ``ping`` events, kept a ``swebash -c '? …'`` waiting forever; a silent server cost
the read timeout once per retry (247 s with the defaults).

Approach: the clock runs on what the provider *yields* — text, tool-call progress, the turn's
end — which is what a person is waiting for; keep-alives and partial lines never reach that
level. Each wait for the next event is bounded by ``idle`` seconds, and the whole request
(retries and their back-off included) by ``deadline``. Either one ends the request with a
one-line, non-retryable ProviderError: waiting the same again would only double the wait.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import AsyncGenerator, AsyncIterator

from swebash.errors import ProviderError, StreamInterrupted
from swebash.providers.base import TurnEvent


def seconds(value: float) -> str:
    return f"{value:.3g} s"


class Clock:
    """The deadline of one request, shared by its attempts."""

    def __init__(self, idle: float | None, deadline: float | None, label: str) -> None:
        self.idle = idle if idle and idle > 0 else None
        self.deadline = deadline if deadline and deadline > 0 else None
        self.ends = time.monotonic() + self.deadline if self.deadline else None
        self.label = label

    def remaining(self) -> float | None:
        return None if self.ends is None else self.ends - time.monotonic()

    def wait_limit(self) -> tuple[float | None, bool]:
        """How long the next wait may take, and whether the overall deadline is what limits
        it."""
        left = self.remaining()
        if left is not None and (self.idle is None or left < self.idle):
            return max(0.0, left), True
        return self.idle, False

    def expired(self, overall: bool, produced: bool) -> ProviderError:
        what = (f"gave no answer within {seconds(self.deadline or 0)} (SWEBASH_AI_DEADLINE)"
                if overall else
                f"sent nothing useful for {seconds(self.idle or 0)} (SWEBASH_AI_TIMEOUT)")
        cls = StreamInterrupted if produced else ProviderError
        return cls(f"{self.label} {what}", retryable=False)

    async def sleep(self, delay: float) -> None:
        """A back-off sleep that never outlasts the request's deadline."""
        left = self.remaining()
        if left is not None and delay >= left:
            await asyncio.sleep(max(0.0, left))
            raise self.expired(True, False)
        await asyncio.sleep(delay)


async def paced(events: AsyncIterator[TurnEvent], clock: Clock
                ) -> AsyncGenerator[TurnEvent, None]:
    """Yield ``events``, failing when the next one takes longer than the clock allows."""
    produced = False
    while True:
        limit, overall = clock.wait_limit()
        window = asyncio.timeout(limit)
        try:
            async with window:
                event = await anext(events)
        except StopAsyncIteration:
            return
        except TimeoutError:
            if not window.expired():
                raise
            with contextlib.suppress(Exception):
                aclose = getattr(events, "aclose", None)
                if aclose is not None:
                    await aclose()
            raise clock.expired(overall, produced) from None
        produced = True
        yield event
