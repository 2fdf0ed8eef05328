"""web_search against a local server serving DuckDuckGo-shaped HTML and Brave-shaped JSON."""

from __future__ import annotations

import asyncio
import json
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any, ClassVar
from urllib.parse import parse_qs

import pytest

from swebash.config import ToolConfig
from swebash.errors import ExecutionFailed, InvalidArguments
from swebash.tools import web
from swebash.tools.base import ToolContext
from swebash.tools.web import WebSearchTool, decode_link

DDG_PAGE = """<html><body><div class="serp__results"><div id="links" class="results">
<div class="result results_links results_links_deep result--ad"><div class="links_main">
<h2 class="result__title"><a rel="nofollow" class="result__a"
 href="https://duckduckgo.com/y.js?ad_domain=spam.example">Buy things</a></h2>
<a class="result__snippet" href="x">An advert</a></div></div>
<div class="result results_links results_links_deep web-result "><div class="links_main">
<h2 class="result__title"><a rel="nofollow" class="result__a"
 href="//duckduckgo.com/l/?uddg=https%3A%2F%2Fwww.example.com%2Fsse%2Dguide&amp;rut=abc">SSE
 <b>guide</b></a></h2>
<a class="result__url" href="x"> www.example.com/sse-guide </a>
<a class="result__snippet" href="x">How <b>server-sent</b> events work &amp; why.</a>
</div></div>
<div class="result results_links web-result "><div class="links_main">
<h2 class="result__title"><a class="result__a" href="https://direct.example.org/page">Direct
</a></h2><div class="result__snippet">A direct link.</div></div></div>
</div></div></body></html>"""


class Handler(BaseHTTPRequestHandler):
    mode = "ok"
    seen: ClassVar[list[dict[str, Any]]] = []

    def log_message(self, *args: Any) -> None:
        pass

    def reply(self, status: int, body: str, ctype: str) -> None:
        data = body.encode()
        self.send_response(status)
        self.send_header("content-type", ctype)
        self.send_header("content-length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def do_POST(self) -> None:
        length = int(self.headers.get("content-length") or 0)
        form = parse_qs(self.rfile.read(length).decode())
        Handler.seen.append({"path": self.path, "form": form})
        if Handler.mode == "blocked":
            self.reply(202, '<div class="anomaly-modal__title">Unfortunately, bots use '
                       'DuckDuckGo too.</div><form id="challenge-form"></form>', "text/html")
        else:
            self.reply(200, DDG_PAGE, "text/html; charset=UTF-8")

    def do_GET(self) -> None:
        Handler.seen.append({"path": self.path, "token": self.headers.get("x-subscription-token")})
        body = {"web": {"results": [{"title": "Brave hit", "url": "https://b.example/",
                                     "description": "from &amp; brave"}]}}
        self.reply(200, json.dumps(body), "application/json")


@pytest.fixture
def site(monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    monkeypatch.setattr(web, "MIN_INTERVAL", 0.0)
    Handler.mode, Handler.seen = "ok", []
    httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{httpd.server_address[1]}"
    httpd.shutdown()
    httpd.server_close()


def search(base: str, args: dict[str, Any], **config: Any) -> Any:
    ctx = ToolContext(cwd=str(Path.cwd()), env={},
                      config=ToolConfig(web_base_url=base, **config))
    out = asyncio.run(WebSearchTool().execute(args, ctx))
    return json.loads(out.content)


def test_duckduckgo_results_parsed_ads_dropped_links_decoded(site: str) -> None:
    results = search(site, {"query": "python sse", "num_results": 5})
    assert results == [
        {"title": "SSE guide", "url": "https://www.example.com/sse-guide",
         "snippet": "How server-sent events work & why."},
        {"title": "Direct", "url": "https://direct.example.org/page",
         "snippet": "A direct link."}]
    assert Handler.seen[-1]["path"] == "/html/" and Handler.seen[-1]["form"]["q"] == ["python sse"]


def test_num_results_caps_the_list(site: str) -> None:
    assert len(search(site, {"query": "x", "num_results": 1})) == 1


def test_throttled_page_is_an_error_not_no_results(site: str) -> None:
    Handler.mode = "blocked"
    with pytest.raises(ExecutionFailed, match="rate-limiting"):
        search(site, {"query": "x"})


def test_brave_when_chosen_and_key_is_set(site: str) -> None:
    results = search(site, {"query": "x", "num_results": 3}, brave_api_key="bk",
                     web_provider="brave")
    assert results == [{"title": "Brave hit", "url": "https://b.example/",
                        "snippet": "from & brave"}]
    assert Handler.seen[-1]["token"] == "bk"


def test_a_brave_key_alone_does_not_override_duckduckgo(site: str) -> None:
    results = search(site, {"query": "python sse", "num_results": 1}, brave_api_key="bk",
                     web_provider="duckduckgo")
    assert results[0]["title"] == "SSE guide"
    assert "token" not in Handler.seen[-1]


def test_network_failure_is_a_tool_error() -> None:
    with pytest.raises(ExecutionFailed, match="web search failed"):
        search("http://127.0.0.1:9", {"query": "x"})


def test_query_limits() -> None:
    with pytest.raises(InvalidArguments, match="longer than 500"):
        search("http://127.0.0.1:9", {"query": "q" * 501})


def test_decode_link_forms() -> None:
    assert decode_link("/l/?uddg=https%3A%2F%2Fa.b%2Fc&amp;rut=x") == "https://a.b/c"
    assert decode_link("https://plain.example/") == "https://plain.example/"


def test_provider_setting() -> None:
    with pytest.raises(ExecutionFailed, match="needs BRAVE_API_KEY"):
        search("http://127.0.0.1:9", {"query": "x"}, web_provider="brave")
    with pytest.raises(ExecutionFailed, match="unknown web search provider"):
        search("http://127.0.0.1:9", {"query": "x"}, web_provider="bing")
