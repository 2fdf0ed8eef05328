"""One exception tree for swebash.

Errors meant for the user carry a one-line message (``str(exc)``); the REPL and the CLI print
that line and never a traceback. SDK and OS exceptions are translated at the boundary with
``raise SwebashError(...) from exc``.
"""

from __future__ import annotations


class SwebashError(Exception):
    """Base of every error swebash raises on purpose; ``str()`` is a one-line user message.

    ``kind`` names the family for logs and tool results; ``exit_status`` is what a
    non-interactive run exits with when this error ends it.
    """

    kind = "Error"
    exit_status = 1


class ConfigError(SwebashError):
    """The configuration (environment or config.toml) is invalid."""

    kind = "Config"
    exit_status = 2


class ShellError(SwebashError):
    """The bash session could not be started or talked to."""


class ShellDied(ShellError):
    """The bash child exited; ``status`` is its exit status (or 128+signal)."""

    def __init__(self, message: str, status: int) -> None:
        super().__init__(message)
        self.status = status


class AiError(SwebashError):
    """Anything that went wrong in the AI half."""


class AiNotConfigured(AiError):
    """No provider could be selected; the message says how to configure one."""

    kind = "NotConfigured"
    exit_status = 2


class ProviderError(AiError):
    """A provider request failed (after retries, if any)."""

    def __init__(self, message: str, *, retryable: bool = False, retry_after: float | None = None,
                 status_code: int | None = None) -> None:
        super().__init__(message)
        self.retryable = retryable
        self.retry_after = retry_after
        self.status_code = status_code


class QuotaExceeded(ProviderError):
    """The account has no quota or credit left (the provider's error code says so, e.g.
    OpenAI ``insufficient_quota``); retrying cannot help."""

    kind = "Quota"


class RateLimited(ProviderError):
    """The provider asked to slow down (a rate limit); worth retrying after its delay."""

    kind = "RateLimit"


class StreamInterrupted(ProviderError):
    """The provider's stream broke off mid-way."""


class MalformedEvent(ProviderError):
    """The provider sent an event swebash cannot read: not JSON, wrong JSON types, a missing
    field, or nesting too deep. Not retried: the same server would send the same."""

    kind = "MalformedEvent"


class ResponseTooLarge(ProviderError):
    """An answer or its tool-call arguments passed the size cap; the stream was stopped there."""

    kind = "TooLarge"


class ToolError(AiError):
    """A tool call failed; ``kind`` is the error type the model sees (InvalidArguments,
    ExecutionFailed, PermissionDenied, NotFound, UserDeclined)."""

    kind = "ExecutionFailed"

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


class InvalidArguments(ToolError):
    kind = "InvalidArguments"


class ExecutionFailed(ToolError):
    kind = "ExecutionFailed"


class PermissionDenied(ToolError):
    kind = "PermissionDenied"


class ToolNotFound(ToolError):
    kind = "NotFound"


class UserDeclined(ToolError):
    kind = "UserDeclined"


