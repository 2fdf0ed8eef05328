"""Connection failures that say what to do: invalid endpoints, refused connections, wrong replies.

What went wrong before: a port of 99999 surfaced as "unhandled errors in a TaskGroup" (anyio's
happy-eyeballs group around an OverflowError), an ``ftp://`` URL and a typo'd host were retried
for seconds, "server down" on 127.0.0.1 took ~4 s of retries and gave no hint, and a 200 reply
holding an HTML page read as "stream ended before the model finished".

So: the endpoint is checked before the first request (scheme, host, port) and a bad one is one
line, never retried; the SDK's exception chain is searched for the real cause (refused, name not
resolved); a refused connection to this machine is not retried (nothing will start listening in
the next two seconds), elsewhere it is; and a reply whose content type is plainly not a stream is
named as such.
"""

from __future__ import annotations

import errno
import ipaddress
import socket
from collections.abc import Iterator
from urllib.parse import urlsplit

from swebash.errors import ProviderError, StreamInterrupted

# Replies that are never an event stream: a web page, a whole JSON document, XML.
NOT_A_STREAM = frozenset({"text/html", "application/xhtml+xml", "application/json", "text/xml",
                          "application/xml"})


def setting_hint(provider: str) -> str:
    """Where the endpoint of this provider is configured."""
    if provider == "ollama":
        return "OLLAMA_HOST"
    if provider == "anthropic":
        return "ANTHROPIC_BASE_URL / SWEBASH_AI_BASE_URL"
    return "OPENAI_BASE_URL / SWEBASH_AI_BASE_URL"


def check_endpoint(provider: str, endpoint: str) -> None:
    """Raise a one-line, non-retryable ProviderError when the URL cannot work at all."""
    problem = ""
    try:
        parts = urlsplit(endpoint)
        port = parts.port  # raises ValueError when out of range or not a number
    except ValueError as exc:
        problem = str(exc) or "it cannot be parsed"
    else:
        if parts.scheme.lower() not in ("http", "https"):
            problem = f"the scheme must be http or https, not '{parts.scheme or 'none'}'"
        elif not parts.hostname:
            problem = "it names no host"
        elif port == 0:
            problem = "port 0 cannot be connected to"
    if problem:
        raise ProviderError(f"{provider}: invalid endpoint URL '{endpoint}': {problem} — check "
                            f"{setting_hint(provider)}")


def is_loopback(endpoint: str) -> bool:
    try:
        host = urlsplit(endpoint).hostname or ""
    except ValueError:
        return False
    if host == "localhost" or host.endswith(".localhost"):
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def causes(exc: BaseException, limit: int = 32) -> Iterator[BaseException]:
    """The exception, its causes/contexts and the members of exception groups, breadth first."""
    queue: list[BaseException] = [exc]
    seen: set[int] = set()
    while queue and len(seen) < limit:
        current = queue.pop(0)
        if id(current) in seen:
            continue
        seen.add(id(current))
        yield current
        if isinstance(current, BaseExceptionGroup):
            queue.extend(current.exceptions)
        for nxt in (current.__cause__, current.__context__):
            if nxt is not None:
                queue.append(nxt)


def innermost_detail(exc: BaseException) -> str:
    """The message of the deepest cause that has one (not a wrapper's "Connection error.")."""
    detail = ""
    for cause in causes(exc):
        text = str(cause).strip()
        if text and not isinstance(cause, BaseExceptionGroup):
            detail = text
    return detail or type(exc).__name__


def connection_error(exc: BaseException, provider: str, endpoint: str) -> ProviderError | None:
    """A clear error for a refused connection or an unknown host; None when it is neither."""
    hint = setting_hint(provider)
    for cause in causes(exc):
        if isinstance(cause, ConnectionRefusedError) or (
                isinstance(cause, OSError) and cause.errno == errno.ECONNREFUSED):
            if provider == "ollama":
                advice = f"is Ollama running (`ollama serve`)? check {hint}"
            else:
                advice = f"is the server running? check {hint}"
            return ProviderError(f"{provider}: connection refused by {endpoint} — {advice}",
                                 retryable=not is_loopback(endpoint))
        if isinstance(cause, socket.gaierror):
            host = urlsplit(endpoint).hostname or endpoint
            return ProviderError(f"{provider}: cannot resolve the host '{host}' of {endpoint} — "
                                 f"check {hint}", retryable=cause.errno == socket.EAI_AGAIN)
        if isinstance(cause, OverflowError | ValueError) and "port" in str(cause):
            return ProviderError(f"{provider}: invalid endpoint URL '{endpoint}': {cause} — "
                                 f"check {hint}")
    return None


def media_type(content_type: str | None) -> str:
    return (content_type or "").split(";", 1)[0].strip().lower()


def not_a_stream(provider: str, endpoint: str, content_type: str | None) -> ProviderError:
    shown = media_type(content_type) or "no content type"
    return ProviderError(f"{provider}: the server at {endpoint} replied with {shown}, not an "
                         f"event stream — is the base URL right? (check "
                         f"{setting_hint(provider)})")


def check_stream_reply(provider: str, endpoint: str, content_type: str | None) -> None:
    """Raise when a 200 reply is plainly something else than a stream (an HTML page…)."""
    if media_type(content_type) in NOT_A_STREAM:
        raise not_a_stream(provider, endpoint, content_type)


def ended_early(provider: str, endpoint: str, content_type: str | None, events: int,
                expected: str, what: str) -> ProviderError:
    """The error for a stream that closed before its last event: named as no stream at all
    when nothing arrived, so a wrong base URL is not mistaken for a broken answer."""
    if events == 0 and media_type(content_type) != expected:
        return not_a_stream(provider, endpoint, content_type)
    if events == 0:
        return StreamInterrupted(f"{provider}: the server at {endpoint} replied with an empty "
                                 f"stream — is the base URL right? (check "
                                 f"{setting_hint(provider)})")
    return StreamInterrupted(f"{provider}: the response stream ended before {what}")
