"""What leaves for a model server: only to the server configured, and only text that encodes.

Redirects. The SDKs' HTTP clients follow redirects. httpx drops the API key when a redirect
leaves the origin, but it sends the body again — the whole prompt, with the terminal context
and files the agent read — to wherever the ``Location`` header points. A model endpoint has no
reason to send a client to another host, so a redirect is followed only within the same origin
(scheme, host and port); any other ends the request with one line, before anything is sent.

Text. A question piped in with invalid UTF-8 reaches Python as lone surrogates
(``surrogateescape``), which no JSON encoder can send ("surrogates not allowed"). Every string
of a request body is made encodable — undecodable bytes become U+FFFD — so odd input changes a
character, never the request.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Coroutine
from typing import Protocol, TypeVar
from urllib.parse import urlsplit

from swebash.errors import ProviderError
from swebash.providers.connection import setting_hint

SURROGATE = re.compile("[\ud800-\udfff]")
REDIRECTS = frozenset({301, 302, 303, 307, 308})
T = TypeVar("T")


class HasRedirect(Protocol):
    """What the hook reads of an httpx/httpx2 ``Response``."""

    status_code: int
    headers: object

    @property
    def url(self) -> object: ...


def origin(url: str) -> tuple[str, str, int | None]:
    parts = urlsplit(url)
    scheme = parts.scheme.lower()
    try:
        port = parts.port or {"http": 80, "https": 443}.get(scheme)
    except ValueError:
        port = None
    return scheme, (parts.hostname or "").lower(), port


def redirect_hook(provider: str, endpoint: str
                  ) -> Callable[[HasRedirect], Coroutine[None, None, None]]:
    """A response hook that refuses a redirect to another origin (``ProviderError``)."""

    async def hook(response: HasRedirect) -> None:
        if response.status_code not in REDIRECTS:
            return
        get = getattr(response.headers, "get", None)
        location = get("location") if callable(get) else None
        if not isinstance(location, str) or not location:
            return
        here = str(response.url)
        join = getattr(response.url, "join", None)
        target = str(join(location)) if callable(join) else location
        if origin(target) == origin(here):
            return
        scheme, host, port = origin(target)
        raise ProviderError(
            f"{provider}: the server at {endpoint} redirected the request to "
            f"{scheme}://{host}:{port}; not followed, so nothing was sent there — check "
            f"{setting_hint(provider)}")

    return hook


def encodable(value: T) -> T:
    """``value`` (JSON-like) with every string made encodable as UTF-8."""
    if isinstance(value, str):
        return _text(value)  # type: ignore[return-value]
    if isinstance(value, dict):
        return {_text(k) if isinstance(k, str) else k: encodable(v)  # type: ignore[return-value]
                for k, v in value.items()}
    if isinstance(value, list):
        return [encodable(v) for v in value]  # type: ignore[return-value]
    if isinstance(value, tuple):
        return tuple(encodable(v) for v in value)  # type: ignore[return-value]
    return value


def _text(text: str) -> str:
    if text.isascii():
        return text
    try:
        text.encode("utf-8")
        return text
    except UnicodeEncodeError:  # a byte smuggled in by surrogateescape, or a lone surrogate
        return SURROGATE.sub("\ufffd", text)
