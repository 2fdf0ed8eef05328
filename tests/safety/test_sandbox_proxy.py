"""Network by domain: the proxy outside the sandbox, the allow-list, asking once, and the whole
path from a sandboxed ``curl`` / ``pip install`` to local listeners.

Every listener is on 127.0.0.1. Names resolve to it either as ``*.localhost`` (RFC 6761, as the
proxy does) or through an injected resolver.
"""

from __future__ import annotations

import base64
import json
import socket
import sys
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from swebash.safety.sandbox_domains import DomainGate, DomainStore, matches
from swebash.safety.sandbox_proxy import DomainProxy
from tests.safety.sandbox_fixtures import (
    CANARY,
    WebServer,
    World,
    make_sandbox,
    run,
    tiny_wheel,
)


@pytest.fixture
def web() -> Iterator[WebServer]:
    name, wheel = tiny_wheel()
    index = f'<a href="/files/{name}">{name}</a>'.encode()
    server = WebServer({"/": CANARY.encode(), "/simple/canarypkg/": index,
                        f"/files/{name}": wheel})
    yield server
    server.close()


def gate(allowed: tuple[str, ...] = (), store: Path | None = None,
         project: str = "/proj") -> DomainGate:
    return DomainGate(allowed, DomainStore(store), lambda: project)


# ---------------------------------------------------------------------------- decisions


def test_names_match_exactly_or_as_subdomains() -> None:
    assert matches("pypi.org", "pypi.org") and matches("pypi.org", "PyPI.org.")
    assert not matches("evil-pypi.org", "pypi.org") and not matches("pypi.org.evil", "pypi.org")
    assert matches("raw.githubusercontent.com", "*.githubusercontent.com")
    assert not matches("githubusercontent.com", "*.githubusercontent.com")
    assert not matches("xgithubusercontent.com", "*.githubusercontent.com")


def test_a_new_domain_is_asked_once_and_the_answer_kept(tmp_path: Path) -> None:
    asked: list[str] = []
    answers = {"yes.example": "yes", "no.example": "no", "keep.example": "project"}
    g = gate(("pypi.org",), tmp_path / "domains.json")
    g.ask = lambda host: asked.append(host) or answers[host]  # type: ignore[func-returns-value]
    assert g.check("pypi.org").allowed and not asked
    for _ in range(3):
        assert g.check("yes.example").allowed
        assert not g.check("no.example").allowed
        assert g.check("keep.example").allowed
    assert asked == ["yes.example", "no.example", "keep.example"]
    # "always in this project": another session of the same project knows it, others do not
    again = gate((), tmp_path / "domains.json")
    assert again.check("keep.example").allowed and not again.check("yes.example").allowed
    elsewhere = gate((), tmp_path / "domains.json", project="/other")
    assert not elsewhere.check("keep.example").allowed


def test_nobody_to_ask_refuses_with_a_reason() -> None:
    decision = gate().check("new.example")
    assert not decision.allowed and "nobody could be asked" in decision.why


def test_concurrent_connections_to_a_new_name_share_one_question() -> None:
    release = threading.Event()
    asked: list[str] = []

    def ask(host: str) -> str:
        asked.append(host)
        release.wait(5)
        return "yes"

    g = gate()
    g.ask = ask  # type: ignore[assignment]
    results: list[bool] = []
    threads = [threading.Thread(target=lambda: results.append(g.check("a.example").allowed))
               for _ in range(4)]
    for t in threads:
        t.start()
    release.set()
    for t in threads:
        t.join(5)
    assert asked == ["a.example"] and results == [True] * 4


# ---------------------------------------------------------------------------- the proxy itself


def auth(proxy: DomainProxy) -> str:
    token = base64.b64encode(f"swebash:{proxy.token}".encode()).decode()
    return f"Proxy-Authorization: Basic {token}\r\n"


def fetch(port: int, request: bytes) -> bytes:
    with socket.create_connection(("127.0.0.1", port), timeout=5) as conn:
        conn.sendall(request)
        chunks = []
        while chunk := conn.recv(65536):
            chunks.append(chunk)
    return b"".join(chunks)


def test_proxy_forwards_allowed_names_and_refuses_others(web: WebServer) -> None:
    resolved: list[str] = []

    def resolve(host: str, port: int) -> list[str]:
        resolved.append(host)
        return ["127.0.0.1"]

    proxy = DomainProxy(gate(("allowed.test",)), resolve, guard_addresses=False)
    port = proxy.listen()
    try:
        plain = fetch(port, f"GET http://allowed.test:{web.port}/ HTTP/1.1\r\n"
                            f"Host: allowed.test\r\nProxy-Connection: keep-alive\r\n"
                            f"{auth(proxy)}\r\n".encode())
        assert plain.startswith(b"HTTP/1.0 200") and plain.endswith(CANARY.encode())
        tunnel = fetch(port, f"CONNECT allowed.test:{web.port} HTTP/1.1\r\n{auth(proxy)}\r\n"
                             f"GET / HTTP/1.0\r\n\r\n".encode())
        assert b"200 Connection established" in tunnel and tunnel.endswith(CANARY.encode())
        refused = fetch(port, f"CONNECT refused.test:{web.port} HTTP/1.1\r\n{auth(proxy)}"
                              "\r\n".encode())
        assert refused.startswith(b"HTTP/1.1 403") and b"refused.test" in refused
        assert "refused.test" not in resolved  # never even looked up
        assert [r.host for r in proxy.refusals] == ["refused.test"]
        assert web.hits == ["/", "/"]
    finally:
        proxy.close()


def test_a_public_name_resolving_to_this_host_is_refused(web: WebServer) -> None:
    proxy = DomainProxy(gate(("rebind.example",)), lambda host, port: ["127.0.0.1"])
    port = proxy.listen()
    try:
        answer = fetch(port, f"CONNECT rebind.example:{web.port} HTTP/1.1\r\n{auth(proxy)}"
                             "\r\n".encode())
        assert answer.startswith(b"HTTP/1.1 403") and not web.hits
    finally:
        proxy.close()


def test_on_the_hosts_loopback_only_token_holders_are_served(web: WebServer) -> None:
    asked: list[str] = []
    g = gate(("allowed.test",))
    g.ask = lambda host: asked.append(host) or "yes"  # type: ignore[func-returns-value]
    proxy = DomainProxy(g, lambda host, port: ["127.0.0.1"], guard_addresses=False)
    port = proxy.listen()
    try:
        for request in (f"CONNECT allowed.test:{web.port} HTTP/1.1\r\n\r\n",
                        f"CONNECT new.test:{web.port} HTTP/1.1\r\nProxy-Authorization: "
                        "Basic c3dlYmFzaDp3cm9uZw==\r\n\r\n"):
            answer = fetch(port, request.encode())
            assert answer.startswith(b"HTTP/1.1 407") and b"Proxy-Authenticate: Basic" in answer
        assert asked == [] and web.hits == []  # another local process cannot even ask
        assert proxy.url().startswith(f"http://swebash:{proxy.token}@127.0.0.1:")
    finally:
        proxy.close()


# ---------------------------------------------------------------------------- end to end


def test_sandboxed_commands_reach_allowed_domains_only(world: World, backend: str,
                                                       web: WebServer) -> None:
    sandbox = make_sandbox(world, backend, network="proxy", allow=("allowed.localhost",))
    base = f"localhost:{web.port}/"
    try:
        ok = run(f"curl -sSf http://allowed.{base} && echo && curl -sSf -p "
                 f"http://allowed.{base}", world, sandbox, keep=True)
        assert ok["exit_code"] == 0, ok
        assert ok["stdout"].split() == [CANARY, CANARY]  # plain HTTP and a CONNECT tunnel
        refused = run(f"curl -sSf http://refused.{base}", world, sandbox, keep=True)
        assert refused["exit_code"] != 0 and CANARY not in refused["stdout"]
        assert "network access to refused.localhost" in (refused["blocked"] or "")
        direct = run(f"curl -sSf --noproxy '*' http://127.0.0.1:{web.port}/", world, sandbox,
                     keep=True)
        assert direct["exit_code"] != 0 and CANARY not in direct["stdout"]
        assert "only swebash's proxy is reachable" in (direct["blocked"] or "")
        assert len(web.hits) == 2
    finally:
        sandbox.close()


def test_pip_installs_from_an_allowed_index_inside_the_sandbox(world: World, backend: str,
                                                               web: WebServer) -> None:
    sandbox = make_sandbox(world, backend, network="proxy", allow=("pypi.localhost",))
    command = (f"{sys.executable} -m pip install --no-deps --no-cache-dir "
               "--disable-pip-version-check --target vendor --trusted-host pypi.localhost "
               f"--index-url http://pypi.localhost:{web.port}/simple/ canarypkg")
    result = run(command, world, sandbox)
    assert result["exit_code"] == 0, result["stderr"][-2000:]
    assert CANARY in (world.work / "vendor/canarypkg/__init__.py").read_text()
    assert any(hit.startswith("/files/") for hit in web.hits)


def test_status_names_the_proxy_and_the_allowed_domains(world: World, backend: str) -> None:
    line = make_sandbox(world, backend, network="proxy",
                        allow=("pypi.org",)).describe(str(world.work))
    assert "network: through swebash's proxy" in line and "pypi.org" in line
    assert "a new domain asks" in line
    json.dumps(line)  # plain text
