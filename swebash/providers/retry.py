"""One retry policy for every provider, and the translation of SDK/httpx errors.

The SDKs' own retries are switched off (``max_retries=0``) so that retrying is ours and visible:
before each retry the stream yields ``Retrying(attempt, delay, reason)``. A turn is retried only
before it has yielded any output — after that a failure ends the turn, because replaying text
the user already saw would duplicate it.
"""

from __future__ import annotations

import contextlib
import email.utils
import random
import time
from collections.abc import AsyncGenerator, Callable, Mapping
from dataclasses import dataclass

from swebash.api import Retrying
from swebash.errors import ProviderError, QuotaExceeded, RateLimited, StreamInterrupted
from swebash.providers.base import TurnEvent
from swebash.providers.connection import causes, connection_error, innermost_detail
from swebash.providers.error_codes import classify, error_fields
from swebash.providers.pacing import Clock, paced

RETRYABLE_STATUS = frozenset({408, 409, 429, 500, 502, 503, 504, 529})
MAX_SERVER_DELAY = 60.0


@dataclass(frozen=True)
class RetryPolicy:
    max_retries: int = 3
    base_delay: float = 0.5
    max_delay: float = 8.0
    idle: float | None = None  # seconds between useful events (pacing.py)
    deadline: float | None = None  # seconds for the whole request, retries included

    def delay(self, attempt: int, retry_after: float | None) -> float:
        """Delay before retry number ``attempt`` (0-based): the server's word when sane."""
        if retry_after is not None and 0 <= retry_after <= MAX_SERVER_DELAY:
            return float(retry_after)
        backoff: float = min(self.max_delay, self.base_delay * (2 ** attempt))
        return backoff * (0.75 + random.random() * 0.5)


async def stream_with_retries(attempt: Callable[[], AsyncGenerator[TurnEvent, None]],
                              policy: RetryPolicy, label: str = "the provider",
                              prepare: Callable[[], object] | None = None
                              ) -> AsyncGenerator[TurnEvent, None]:
    """``label`` names the server in a deadline error (``openai: http://…/v1``); ``prepare``
    (the SDK's import and client, ~1 s the first time) runs before the clock starts: the
    timeouts measure the server, not this process."""
    if prepare is not None:
        try:
            prepare()
        except ProviderError:
            raise
        except Exception as exc:  # an SDK that cannot be imported or set up: one line
            raise ProviderError(f"{label}: cannot set up the client: {exc}") from exc
    clock = Clock(policy.idle, policy.deadline, label)
    tries = 0
    while True:
        produced = False
        try:
            async with contextlib.aclosing(attempt()) as events, \
                    contextlib.aclosing(paced(events, clock)) as timed:
                async for event in timed:
                    produced = True
                    yield event
            return
        except ProviderError as exc:
            if produced or not exc.retryable or tries >= policy.max_retries:
                raise
            delay = policy.delay(tries, exc.retry_after)
            tries += 1
            yield Retrying(tries, delay, str(exc))
            await clock.sleep(delay)


def parse_retry_after(headers: object) -> float | None:
    """``retry-after-ms``, then ``retry-after`` as seconds or as an HTTP date."""
    if not isinstance(headers, Mapping):
        return None
    try:
        ms = headers.get("retry-after-ms")
        if ms:
            return float(ms) / 1000.0
        value = headers.get("retry-after")
    except (TypeError, ValueError):
        return None
    if not value or not isinstance(value, str):
        return None
    try:
        return max(0.0, float(value))
    except ValueError:
        pass
    try:
        when = email.utils.parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    return max(0.0, when.timestamp() - time.time())


def body_message(body: object) -> str:
    """The human message inside an error body (OpenAI, Anthropic, Gemini array, Ollama)."""
    if isinstance(body, list) and body:
        body = body[0]
    if isinstance(body, dict):
        inner = body.get("error", body)
        if isinstance(inner, dict):
            message = inner.get("message")
            if isinstance(message, str):
                return message
        elif isinstance(inner, str):
            return inner
        message = body.get("message")
        if isinstance(message, str):
            return message
    if isinstance(body, str):
        return body
    return ""


def one_line(text: str, limit: int = 300) -> str:
    line = " ".join(text.split())
    return line if len(line) <= limit else line[: limit - 1] + "…"


def status_error(provider: str, status: int, message: str, key_var: str | None,
                 retry_after: float | None = None, body: object = None) -> ProviderError:
    """One line for an HTTP error; quota and rate limit told apart by the body's error code
    (``error_codes``), so only what waiting can fix is retried."""
    detail = one_line(message) or "no details"
    fields = error_fields(body)
    kind = classify(status, fields)
    code = f" {fields.label}" if fields.label else ""
    if kind == "quota":
        return QuotaExceeded(f"{provider}: out of quota or credit ({status}{code}) — check the "
                             f"plan and billing of this API key: {detail}", status_code=status)
    if retry_after is None:
        retry_after = fields.retry_delay
    retryable = status in RETRYABLE_STATUS
    if kind == "rate_limit":
        return RateLimited(f"{provider}: rate limited ({status}{code}): {detail}",
                           retryable=True, retry_after=retry_after, status_code=status)
    if status == 401:
        hint = f" — check {key_var}" if key_var else ""
        text = f"{provider}: the API key was rejected (401){hint}: {detail}"
    elif status == 403:
        text = f"{provider}: access denied (403): {detail}"
    elif status == 404:
        text = f"{provider}: not found (404) — check the model name and base URL: {detail}"
    elif kind == "overloaded":
        text = f"{provider}: the service is overloaded ({status}{code}): {detail}"
    elif status >= 500:
        text = f"{provider}: server error ({status}): {detail}"
    else:
        text = f"{provider}: request rejected ({status}): {detail}"
    return ProviderError(text, retryable=retryable, retry_after=retry_after,
                         status_code=status)


def translate_error(exc: BaseException, provider: str, endpoint: str, key_var: str | None,
                    *, mid_stream: bool = False) -> ProviderError:
    """Map an SDK or httpx exception to a one-line ProviderError (retryable when it is)."""
    for cause in causes(exc):  # raised by one of our hooks inside the SDK (a refused redirect)
        if isinstance(cause, ProviderError):
            return cause
    name = type(exc).__name__
    status = getattr(exc, "status_code", None)
    if isinstance(status, int):
        response = getattr(exc, "response", None)
        headers = getattr(response, "headers", None)
        body = getattr(exc, "body", None)
        message = body_message(body) or str(exc)
        if status < 400:  # an error event inside a 200 stream (Anthropic overloaded, etc.)
            return StreamInterrupted(f"{provider}: the stream reported an error: "
                                     f"{one_line(message)}")
        error = status_error(provider, status, message, key_var, parse_retry_after(headers),
                             body)
        if mid_stream:
            return StreamInterrupted(str(error))
        return error
    if "Timeout" in name:
        err_cls = StreamInterrupted if mid_stream else ProviderError
        return err_cls(f"{provider}: the request to {endpoint} timed out", retryable=False)
    if mid_stream:
        return StreamInterrupted(
            f"{provider}: the response stream broke off mid-way ({one_line(str(exc)) or name})")
    known = connection_error(exc, provider, endpoint)
    if known is not None:
        return known
    detail = one_line(innermost_detail(exc))
    return ProviderError(f"{provider}: cannot reach {endpoint}: {detail}", retryable=True)
