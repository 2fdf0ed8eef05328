"""What leaves for a model server, through the real SDKs: a redirect to another origin is refused
before anything is sent there; one within the origin is followed; text that cannot be encoded
is replaced instead of failing the request."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator

import pytest

from swebash.errors import ProviderError
from swebash.providers.base import TextDelta, UserMessage
from swebash.providers.hygiene import encodable
from swebash.providers.select import create_provider
from tests.fakes.server import FakeServer
from tests.providers.test_providers import PROVIDERS, config_for

PATHS = {"openai": "/v1/chat/completions", "anthropic": "/v1/messages", "ollama": "/api/chat"}


@pytest.fixture
def elsewhere() -> Iterator[FakeServer]:
    fake = FakeServer().start()
    yield fake
    fake.stop()


def ask(name: str, server: FakeServer, text: str = "hi") -> str:
    provider = create_provider(config_for(name, server))

    async def go() -> str:
        return "".join([e.text async for e in provider.stream("sys", [UserMessage(text)], [])
                        if isinstance(e, TextDelta)])

    return asyncio.run(go())


@pytest.mark.parametrize("status", [307, 308, 302])
@pytest.mark.parametrize("name", PROVIDERS)
def test_a_redirect_to_another_host_is_refused(name: str, status: int, server: FakeServer,
                                               elsewhere: FakeServer) -> None:
    elsewhere.script({"text": "stolen"})
    server.script({"redirect": elsewhere.url + PATHS[name], "redirect_status": status})
    with pytest.raises(ProviderError) as caught:
        ask(name, server, "my secret prompt")
    message = str(caught.value)
    assert "redirected the request to http://127.0.0.1:" in message
    assert "not followed" in message and "\n" not in message and not caught.value.retryable
    assert elsewhere.requests == []  # the prompt never left for the other server
    assert len(server.requests) == 1


@pytest.mark.parametrize("name", PROVIDERS)
def test_a_redirect_within_the_server_is_followed(name: str, server: FakeServer) -> None:
    server.script({"redirect": "/moved" + PATHS[name]}, {"text": "here it is"})
    assert ask(name, server) == "here it is"
    assert len(server.requests) == 2


@pytest.mark.parametrize("name", PROVIDERS)
def test_undecodable_bytes_are_replaced_not_fatal(name: str, server: FakeServer) -> None:
    server.script({"text": "fine"})
    question = b"caf\xe9 \xff ok".decode("utf-8", "surrogateescape") + " \ud800 end"
    assert ask(name, server, question) == "fine"
    sent = str(server.requests[-1].body)
    assert "caf\ufffd \ufffd ok" in sent and "end" in sent


def test_encodable_keeps_good_text_and_structure() -> None:
    body = {"a": ["é", ("x", 1)], "b": None, "c": "\udce9"}
    assert encodable(body) == {"a": ["é", ("x", 1)], "b": None, "c": "\ufffd"}
