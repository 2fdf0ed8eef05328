"""Connection failures through the real SDKs say what to do: a bad endpoint is one line and not
retried, a refused connection names the URL and the fix (and is not retried on this machine),
and a 200 reply that is not a stream is named as such."""

from __future__ import annotations

import asyncio
import errno
import socket
from collections.abc import Iterator

import pytest

from swebash.api import Retrying
from swebash.config import AiConfig
from swebash.errors import ProviderError
from swebash.providers.base import TurnEvent, UserMessage
from swebash.providers.connection import connection_error, is_loopback
from swebash.providers.select import create_provider
from tests.fakes.server import FakeServer
from tests.providers.test_providers import config_for

PROVIDERS = ["openai", "anthropic", "ollama"]


@pytest.fixture
def server() -> Iterator[FakeServer]:
    fake = FakeServer().start()
    yield fake
    fake.stop()


def config_at(name: str, url: str) -> AiConfig:
    if name == "openai":
        return AiConfig(provider="openai", openai_api_key="sk-test", openai_base_url=url,
                        max_retries=3)
    if name == "anthropic":
        return AiConfig(provider="anthropic", anthropic_api_key="sk-ant-test",
                        anthropic_base_url=url, max_retries=3)
    return AiConfig(provider="ollama", ollama_host=url, max_retries=3)


def failed_turn(cfg: AiConfig) -> tuple[list[TurnEvent], ProviderError]:
    """The events before the failure (Retrying among them) and the failure."""
    events: list[TurnEvent] = []

    async def go() -> None:
        async for event in create_provider(cfg).stream("", [UserMessage("hi")], []):
            events.append(event)

    with pytest.raises(ProviderError) as info:
        asyncio.run(go())
    assert "\n" not in str(info.value) and "TaskGroup" not in str(info.value)
    return events, info.value


def free_port() -> int:
    """A port on 127.0.0.1 that nothing listens on (bound, then released)."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
    return port


@pytest.mark.parametrize("name", PROVIDERS)
@pytest.mark.parametrize(("url", "problem"), [
    ("http://127.0.0.1:99999", "Port out of range"),
    ("ftp://127.0.0.1:8000", "the scheme must be http or https, not 'ftp'"),
    ("http://[::1", "Invalid IPv6 URL"),
])
def test_an_invalid_endpoint_is_one_line_and_never_retried(name: str, url: str,
                                                           problem: str) -> None:
    events, error = failed_turn(config_at(name, url))
    assert f"invalid endpoint URL '{url}'" in str(error) and problem in str(error)
    assert "check " in str(error)
    assert not [e for e in events if isinstance(e, Retrying)]


@pytest.mark.parametrize("name", PROVIDERS)
def test_refused_on_loopback_names_the_url_and_fix_without_retrying(name: str) -> None:
    url = f"http://127.0.0.1:{free_port()}"
    events, error = failed_turn(config_at(name, url))
    assert f"connection refused by {url}" in str(error)
    if name == "ollama":
        assert "`ollama serve`" in str(error) and "OLLAMA_HOST" in str(error)
    else:
        assert "is the server running?" in str(error) and "BASE_URL" in str(error)
    assert not [e for e in events if isinstance(e, Retrying)]


def test_refused_elsewhere_stays_retryable() -> None:
    refused = ConnectionRefusedError(errno.ECONNREFUSED, "Connection refused")
    wrapped = OSError("All connection attempts failed")
    wrapped.__cause__ = refused
    remote = connection_error(wrapped, "openai", "http://10.20.30.40:8000/v1")
    local = connection_error(wrapped, "openai", "http://localhost:8000/v1")
    assert remote is not None and remote.retryable
    assert local is not None and not local.retryable


def test_loopback_hosts() -> None:
    assert is_loopback("http://127.0.0.1:1") and is_loopback("http://[::1]:8000/v1")
    assert is_loopback("http://localhost:11434") and is_loopback("http://127.1.2.3")
    assert not is_loopback("https://api.openai.com/v1") and not is_loopback("http://10.0.0.1")


@pytest.mark.parametrize("name", PROVIDERS)
def test_an_html_page_is_named_not_an_event_stream(name: str, server: FakeServer) -> None:
    server.script({"body": "<!doctype html><html><body>Welcome to nginx!</body></html>",
                   "content_type": "text/html; charset=utf-8"})
    events, error = failed_turn(config_for(name, server, max_retries=3))
    assert "replied with text/html, not an event stream — is the base URL right?" in str(error)
    assert server.url in str(error)
    assert not [e for e in events if isinstance(e, Retrying)] and len(server.requests) == 1


@pytest.mark.parametrize("name", PROVIDERS)
def test_plain_text_without_events_is_named_not_an_event_stream(name: str,
                                                                server: FakeServer) -> None:
    server.script({"body": "hello, this is not a stream\n", "content_type": "text/plain"})
    _, error = failed_turn(config_for(name, server))
    assert "replied with text/plain, not an event stream" in str(error)


@pytest.mark.parametrize("name", PROVIDERS)
def test_an_empty_stream_is_named_as_such(name: str, server: FakeServer) -> None:
    kind = "application/x-ndjson" if name == "ollama" else "text/event-stream"
    server.script({"body": "", "content_type": kind})
    _, error = failed_turn(config_for(name, server))
    assert f"the server at {server.url}" in str(error) and "replied with an empty stream" in \
        str(error)


@pytest.mark.parametrize("name", PROVIDERS)
def test_a_stream_cut_after_some_events_is_still_interrupted(name: str,
                                                             server: FakeServer) -> None:
    server.script({"text": "partial answer", "chunks": 3, "cut_after": 2})
    _, error = failed_turn(config_for(name, server))
    assert "not an event stream" not in str(error) and "empty" not in str(error)
