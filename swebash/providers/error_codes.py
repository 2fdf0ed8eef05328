"""What kind of failure an HTTP error is, read from the provider's own error code — never from
its wording.

A 429 means two different things: "slow down" (a rate limit: wait and retry) and "you have no
quota or credit left" (retrying cannot help; the user has to look at their plan or billing).
The providers say which in a field of the error body (see WIRE_FORMATS.md):

* OpenAI (and compatible servers): ``{"error": {"type": …, "code": …}}`` — ``code`` (or
  ``type``) ``insufficient_quota`` is the quota; ``rate_limit_exceeded`` the rate limit.
* Anthropic: ``{"type": "error", "error": {"type": …}}`` — ``billing_error`` (402) is the
  quota, ``rate_limit_error`` (429) the rate limit, ``overloaded_error`` (529) a busy server.
* Gemini (Google RPC, a JSON array): ``"status": "RESOURCE_EXHAUSTED"`` for both; a
  ``QuotaFailure`` detail whose ``quotaId`` is per day means the day's quota is used up, while
  per-minute quotas are rate limits (with a ``RetryInfo`` ``retryDelay`` such as ``"26s"``).
  Gemini's per-minute message says "You exceeded your current quota" — which is why the words
  are not what decides.
* HTTP 402 Payment Required, from any server, is a quota or credit problem.

The SDKs hand the body over in different shapes (OpenAI's ``exc.body`` is the inner ``error``
object, Anthropic's the whole body, Gemini's the array); ``error_fields`` reads all of them.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal

Kind = Literal["quota", "rate_limit", "overloaded", "other"]
QUOTA_CODES = frozenset({"insufficient_quota", "billing_error"})
RATE_CODES = frozenset({"rate_limit_exceeded", "rate_limit_error"})
OVERLOADED_CODES = frozenset({"overloaded_error"})
GOOGLE_QUOTA_FAILURE = "type.googleapis.com/google.rpc.QuotaFailure"
GOOGLE_RETRY_INFO = "type.googleapis.com/google.rpc.RetryInfo"
DURATION = re.compile(r"^(\d+(?:\.\d+)?)s$")


@dataclass(frozen=True)
class ErrorFields:
    codes: frozenset[str] = frozenset()  # the body's type/code values, as sent
    rpc_status: str | None = None  # Google's "status" (RESOURCE_EXHAUSTED, …)
    quota_ids: tuple[str, ...] = ()  # Google QuotaFailure violations' quotaId
    retry_delay: float | None = None  # Google RetryInfo, in seconds

    @property
    def label(self) -> str:
        """The code to show the user: "insufficient_quota", "RESOURCE_EXHAUSTED"…"""
        named = sorted(c for c in self.codes if c in QUOTA_CODES | RATE_CODES | OVERLOADED_CODES)
        return named[0] if named else (self.rpc_status or "")


def error_fields(body: object) -> ErrorFields:
    """The machine-readable parts of an error body, whichever shape the SDK handed over."""
    if isinstance(body, list) and body:
        body = body[0]
    if not isinstance(body, dict):
        return ErrorFields()
    inner = body.get("error", body)
    if not isinstance(inner, dict):
        return ErrorFields()
    codes = frozenset(str(inner[k]) for k in ("type", "code")
                      if isinstance(inner.get(k), str) and inner[k])
    status = inner.get("status")
    quota_ids: list[str] = []
    delay = None
    details = inner.get("details")
    for detail in details if isinstance(details, list) else []:
        if not isinstance(detail, dict):
            continue
        kind = detail.get("@type")
        if kind == GOOGLE_QUOTA_FAILURE and isinstance(detail.get("violations"), list):
            quota_ids.extend(str(v["quotaId"]) for v in detail["violations"]
                             if isinstance(v, dict) and isinstance(v.get("quotaId"), str))
        elif kind == GOOGLE_RETRY_INFO and isinstance(detail.get("retryDelay"), str):
            match = DURATION.match(detail["retryDelay"])
            delay = float(match.group(1)) if match else None
    return ErrorFields(codes, status if isinstance(status, str) else None, tuple(quota_ids),
                       delay)


def classify(status: int, fields: ErrorFields) -> Kind:
    if fields.codes & QUOTA_CODES or status == 402:
        return "quota"
    if fields.rpc_status == "RESOURCE_EXHAUSTED":
        per_day = [q for q in fields.quota_ids if "PerDay" in q]
        return "quota" if per_day and len(per_day) == len(fields.quota_ids) else "rate_limit"
    if fields.codes & RATE_CODES:
        return "rate_limit"
    if fields.codes & OVERLOADED_CODES or status == 529:
        return "overloaded"
    if status == 429:
        return "rate_limit"
    return "other"
