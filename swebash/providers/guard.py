"""A bound on one event's size, enforced while the bytes arrive.

The problem: the SDKs' SSE decoders (and httpx's ``aiter_lines``) buffer a line until its end
"without imposing a line or event size limit", so a server that sends one endless line, or one
10 MB event, makes the process hold all of it (and several copies while it is decoded and
parsed) before any cap in ``boundary.py`` can count it. Counting after decoding is too late.

The approach: every client gets a response hook that wraps the response's byte stream. The
wrapper counts the bytes since the last line break and stops the stream with
``ResponseTooLarge`` once one line passes ``MAX_EVENT_BYTES`` (4 MB: a whole tool call at the
1 MB argument cap fits, escapes included). Every SSE event and NDJSON object is one line, so
this bounds what any decoder buffers. It works on the bytes as received: a compressed stream
is bounded by the decoders' own chunking, not by this check.
"""

from __future__ import annotations

from collections.abc import AsyncIterable, AsyncIterator, Callable, Coroutine
from typing import Protocol

from swebash.errors import ResponseTooLarge
from swebash.providers.boundary import MAX_EVENT_BYTES, size_label


class HasStream(Protocol):
    """What the hook touches of an httpx/httpx2 ``Response``."""

    stream: object


ResponseHook = Callable[[HasStream], Coroutine[None, None, None]]


class _LineLimit:
    """Mixed in front of the HTTP library's ``AsyncByteStream`` (httpx or httpx2)."""

    def __init__(self, inner: AsyncIterable[object], provider: str, limit: int) -> None:
        self._inner = inner
        self._provider = provider
        self._limit = limit

    async def __aiter__(self) -> AsyncIterator[bytes]:
        run = 0  # bytes since the last line break
        async for chunk in self._inner:
            if not isinstance(chunk, bytes):
                raise TypeError(f"a byte stream yielded {type(chunk).__name__}")
            first = _first_break(chunk)
            if run + (len(chunk) if first < 0 else first) > self._limit:
                raise ResponseTooLarge(
                    f"{self._provider}: one event of the reply passed "
                    f"{size_label(self._limit)} (answers and tool-call arguments are capped at "
                    "1 MB); stopped reading it")
            last = max(chunk.rfind(b"\n"), chunk.rfind(b"\r"))
            run = run + len(chunk) if last < 0 else len(chunk) - last - 1
            yield chunk

    async def aclose(self) -> None:
        close = getattr(self._inner, "aclose", None)
        if close is not None:
            await close()


def _first_break(chunk: bytes) -> int:
    found = [i for i in (chunk.find(b"\n"), chunk.find(b"\r")) if i >= 0]
    return min(found) if found else -1


def line_limit_hook(byte_stream_base: type, provider: str,
                    limit: int = MAX_EVENT_BYTES) -> ResponseHook:
    """A response event hook for an httpx/httpx2 client that bounds every line it reads.

    ``byte_stream_base`` is the library's ``AsyncByteStream``: its responses only iterate a
    stream that is an instance of it."""
    guarded = type("LineLimitedStream", (_LineLimit, byte_stream_base), {})

    async def hook(response: HasStream) -> None:
        if isinstance(response.stream, AsyncIterable):  # replaced before the body is read
            response.stream = guarded(response.stream, provider, limit)

    return hook
