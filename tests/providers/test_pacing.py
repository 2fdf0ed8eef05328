"""Deadlines through the real SDKs: the time between useful events and the whole request.

A silent server, one that only sends keep-alives, one that trickles a byte at a time and one
that streams forever each end the request with a one-line error naming the setting — and none
of them is retried (waiting the same again would only double the wait)."""

from __future__ import annotations

import asyncio

import pytest

from swebash.errors import ProviderError, StreamInterrupted
from swebash.providers.base import TextDelta, TurnEvent, UserMessage, Warmable
from swebash.providers.select import create_provider
from tests.fakes.server import FakeServer
from tests.providers.test_providers import PROVIDERS, config_for


def collect(name: str, server: FakeServer, **extra: float) -> tuple[list[TurnEvent],
                                                                       BaseException | None]:
    provider = create_provider(config_for(name, server, **extra))
    if isinstance(provider, Warmable):
        provider.warm()  # the SDK's import is not the server's silence
    seen: list[TurnEvent] = []

    async def go() -> None:
        async for event in provider.stream("be brief", [UserMessage("hi")], []):
            seen.append(event)

    try:
        asyncio.run(go())
    except ProviderError as exc:
        return seen, exc
    return seen, None


@pytest.mark.parametrize("name", PROVIDERS)
@pytest.mark.parametrize("reply", [{"silent": True}, {"silent": True, "headers": True},
                                   {"keepalive": 0.05}],
                         ids=["silent", "silent-after-headers", "keepalives"])
def test_nothing_useful_ends_the_request_once(name: str, reply: dict[str, object],
                                             server: FakeServer) -> None:
    server.script(reply, reply, reply, reply)
    seen, error = collect(name, server, request_timeout=0.6, max_retries=3)
    assert error is not None and not isinstance(error, StreamInterrupted)
    assert "sent nothing useful for 0.6 s (SWEBASH_AI_TIMEOUT)" in str(error)
    assert "\n" not in str(error) and not error.retryable
    assert len(server.requests) == 1 and seen == []


@pytest.mark.parametrize("name", PROVIDERS)
def test_a_trickle_is_not_progress(name: str, server: FakeServer) -> None:
    server.script({"text": "Hello", "trickle": 0.05})
    _seen, error = collect(name, server, request_timeout=0.5)
    assert error is not None and "sent nothing useful" in str(error)
    assert len(server.requests) == 1


@pytest.mark.parametrize("name", PROVIDERS)
def test_an_endless_answer_meets_the_deadline(name: str, server: FakeServer) -> None:
    server.script({"endless": "more text ", "delay": 0.01})
    seen, error = collect(name, server, request_timeout=0.5, request_deadline=0.8)
    assert isinstance(error, StreamInterrupted)
    assert "gave no answer within 0.8 s (SWEBASH_AI_DEADLINE)" in str(error)
    assert any(isinstance(e, TextDelta) for e in seen)  # what was seen came through first


def test_retries_never_outlast_the_deadline(server: FakeServer) -> None:
    server.script(*[{"status": 503, "retry_after": 5}] * 4)
    _seen, error = collect("openai", server, request_timeout=0.4, request_deadline=0.5,
                          max_retries=3)
    assert error is not None and "gave no answer within 0.5 s" in str(error)
    assert len(server.requests) == 1  # the 5 s back-off was cut, not slept


def test_a_slow_but_steady_answer_is_fine(server: FakeServer) -> None:
    # 6 events 0.4 s apart: longer in all than the timeout, never that long between events
    server.script({"text": "one two three four five six", "chunks": 6, "delay": 0.4})
    seen, error = collect("openai", server, request_timeout=1.5)
    assert error is None
    assert "".join(e.text for e in seen if isinstance(e, TextDelta)) == \
        "one two three four five six"
