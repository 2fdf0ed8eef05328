"""Quota vs rate limit, told apart by the provider's error code through the real SDKs: a quota
is said plainly and never retried; a rate limit is retried after the provider's delay."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from swebash.api import Retrying
from swebash.config import AiConfig
from swebash.errors import ProviderError, QuotaExceeded, RateLimited
from swebash.providers.base import TurnEnd, UserMessage
from swebash.providers.error_codes import classify, error_fields
from swebash.providers.select import create_provider
from tests.fakes.server import FakeServer

OPENAI_QUOTA = ("You exceeded your current quota, please check your plan and billing details.")
PER_MINUTE = [{"@type": "type.googleapis.com/google.rpc.QuotaFailure", "violations": [
    {"quotaMetric": "generativelanguage.googleapis.com/generate_content_free_tier_requests",
     "quotaId": "GenerateRequestsPerMinutePerProjectPerModel-FreeTier"}]},
    {"@type": "type.googleapis.com/google.rpc.RetryInfo", "retryDelay": "0.02s"}]
PER_DAY = [{"@type": "type.googleapis.com/google.rpc.QuotaFailure", "violations": [
    {"quotaId": "GenerateRequestsPerDayPerProjectPerModel-FreeTier"}]}]


def config_for(name: str, server: FakeServer) -> AiConfig:
    if name == "anthropic":
        return AiConfig(provider="anthropic", anthropic_api_key="sk-ant-test",
                        anthropic_base_url=server.url, max_retries=2)
    return AiConfig(provider="openai", openai_api_key="sk-test",
                    openai_base_url=server.url + "/v1", max_retries=2)


def run(name: str, server: FakeServer) -> tuple[list[Any], BaseException | None]:
    provider = create_provider(config_for(name, server))
    events: list[Any] = []

    async def go() -> None:
        async for event in provider.stream("be brief", [UserMessage("hi")], []):
            events.append(event)

    try:
        asyncio.run(go())
    except ProviderError as exc:
        return events, exc
    return events, None


@pytest.mark.parametrize(("name", "reply"), [
    ("openai", {"status": 429, "error_type": "insufficient_quota",
                "error_code": "insufficient_quota", "message": OPENAI_QUOTA}),
    ("anthropic", {"status": 402, "error_type": "billing_error",
                   "message": "Your credit balance is too low."}),
    ("openai", {"status": 429, "google_status": "RESOURCE_EXHAUSTED",
                "google_details": PER_DAY, "message": OPENAI_QUOTA}),
])
def test_quota_is_said_plainly_and_not_retried(name: str, reply: dict[str, Any],
                                               server: FakeServer) -> None:
    server.script(reply, {"text": "never reached"})
    events, error = run(name, server)
    assert isinstance(error, QuotaExceeded) and not error.retryable
    assert "out of quota or credit" in str(error) and "rate limited" not in str(error)
    assert "check the plan and billing" in str(error)
    assert len(server.requests) == 1 and not any(isinstance(e, Retrying) for e in events)


@pytest.mark.parametrize(("name", "reply"), [
    ("openai", {"status": 429, "error_type": "requests", "error_code": "rate_limit_exceeded",
                "message": "Rate limit reached for gpt-4o", "retry_after": 0.01}),
    ("anthropic", {"status": 429, "error_type": "rate_limit_error",
                   "message": "This request would exceed your rate limit", "retry_after": 0.01}),
    # Gemini's per-minute limit says "exceeded your current quota": the code decides, not that
    ("openai", {"status": 429, "google_status": "RESOURCE_EXHAUSTED",
                "google_details": PER_MINUTE, "message": OPENAI_QUOTA}),
])
def test_rate_limit_is_retried_after_the_providers_delay(name: str, reply: dict[str, Any],
                                                         server: FakeServer) -> None:
    server.script(reply, {"text": "after the wait"})
    events, error = run(name, server)
    assert error is None and isinstance(events[-1], TurnEnd)
    (retry,) = [e for e in events if isinstance(e, Retrying)]
    assert "rate limited (429" in retry.reason
    assert retry.delay == pytest.approx(0.01 if "retry_after" in reply else 0.02)


def test_overloaded_is_named_and_retried(server: FakeServer) -> None:
    server.script({"status": 529, "error_type": "overloaded_error", "message": "Overloaded",
                   "retry_after": 0.01}, {"text": "fine"})
    events, error = run("anthropic", server)
    assert error is None
    (retry,) = [e for e in events if isinstance(e, Retrying)]
    assert "overloaded (529 overloaded_error)" in retry.reason


def test_a_plain_429_is_a_rate_limit() -> None:
    assert classify(429, error_fields({"error": "slow down"})) == "rate_limit"
    assert classify(429, error_fields(None)) == "rate_limit"
    assert classify(402, error_fields({"error": {"message": "Insufficient credits"}})) == "quota"
    assert classify(500, error_fields({"type": "server_error"})) == "other"


def test_rate_limited_is_its_own_kind() -> None:
    assert RateLimited("x").kind == "RateLimit" and QuotaExceeded("x").kind == "Quota"
