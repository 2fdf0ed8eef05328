"""``web_search``: DuckDuckGo's HTML endpoint without a key, or Brave Search with
BRAVE_API_KEY, over httpx.

DuckDuckGo: POST the form to ``/html/``; results are ``a.result__a`` (title, link) and
``.result__snippet``; links are ``//duckduckgo.com/l/?uddg=<target>`` redirects (decoded here) or
direct; ads (``result--ad``, ``y.js`` links) are dropped. A 202 / 403 / 429 or an "anomaly"
challenge page means we are being throttled — reported as such, never as "no results".
A per-process rate limit keeps the agent from hammering the service.
"""

from __future__ import annotations

import asyncio
import html
import json
import time
from html.parser import HTMLParser
from typing import TYPE_CHECKING, Any
from urllib.parse import parse_qs, urlsplit

if TYPE_CHECKING:
    import httpx

from swebash.api import JsonObject, ToolSchema
from swebash.errors import ExecutionFailed, InvalidArguments
from swebash.tools.base import Category, ToolContext, ToolExecutor, ToolOutput
from swebash.tools.schema import int_arg, str_arg

DDG_URL = "https://html.duckduckgo.com"
BRAVE_URL = "https://api.search.brave.com"
MAX_QUERY = 500
MIN_INTERVAL = 1.0
TIMEOUT = 15.0
THROTTLED = (202, 403, 418, 429)
_last_request = 0.0
_rate_lock: asyncio.Lock | None = None


def decode_link(href: str) -> str:
    href = html.unescape(href.strip())
    if href.startswith("//"):
        href = "https:" + href
    parts = urlsplit(href)
    if parts.path.endswith("/l/") or parts.path == "/l/":
        target = parse_qs(parts.query).get("uddg")
        if target:
            return target[0]
    return href


class DuckDuckGoParser(HTMLParser):
    """Collects (title, url, snippet) from the html endpoint's result cards."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.results: list[dict[str, str]] = []
        self._field: str | None = None
        self._depth = 0
        self._in_ad = 0
        self._div_depth = 0
        self._ad_div_depth: int | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        classes = (dict(attrs).get("class") or "").split()
        if tag == "div":
            self._div_depth += 1
            if "result--ad" in classes and self._ad_div_depth is None:
                self._ad_div_depth = self._div_depth
        if self._ad_div_depth is not None:
            return
        href = dict(attrs).get("href") or ""
        if tag == "a" and "result__a" in classes:
            if "y.js" in href:
                return
            self.results.append({"title": "", "url": decode_link(href), "snippet": ""})
            self._field, self._depth = "title", 0
        elif "result__snippet" in classes and self.results:
            self._field, self._depth = "snippet", 0
        if self._field is not None:
            self._depth += 1

    def handle_endtag(self, tag: str) -> None:
        if tag == "div":
            if self._ad_div_depth == self._div_depth:
                self._ad_div_depth = None
            self._div_depth -= 1
        if self._field is not None:
            self._depth -= 1
            if self._depth <= 0:
                self._field = None

    def handle_data(self, data: str) -> None:
        if self._field is not None and self.results:
            self.results[-1][self._field] += data

    def cleaned(self) -> list[dict[str, str]]:
        return [{k: " ".join(v.split()) for k, v in r.items()} for r in self.results
                if r["url"].startswith(("http://", "https://"))]


async def rate_limit() -> None:
    global _last_request, _rate_lock
    if _rate_lock is None:
        _rate_lock = asyncio.Lock()
    async with _rate_lock:
        wait = _last_request + MIN_INTERVAL - time.monotonic()
        if wait > 0:
            await asyncio.sleep(wait)
        _last_request = time.monotonic()


class WebSearchTool(ToolExecutor):
    name = "web_search"
    category: Category = "web"

    def definition(self) -> ToolSchema:
        return ToolSchema(self.name, "Search the web for information. Returns relevant results "
                          "with titles, URLs, and snippets.", {
                              "type": "object",
                              "properties": {
                                  "query": {"type": "string", "description": "The search query"},
                                  "num_results": {"type": "integer", "minimum": 1,
                                                  "maximum": 10, "default": 5,
                                                  "description": "Number of results (max 10)"},
                              },
                              "required": ["query"],
                          })

    def describe_call(self, args: JsonObject) -> str:
        return f"search the web: {args.get('query', '')}"

    async def execute(self, args: JsonObject, ctx: ToolContext) -> ToolOutput:
        query = str_arg(args, "query").strip()
        if not query:
            raise InvalidArguments("query is empty")
        if len(query) > MAX_QUERY:
            raise InvalidArguments(f"query is longer than {MAX_QUERY} characters")
        count = int_arg(args, "num_results", 5) or 5
        await rate_limit()
        provider = ctx.config.web_provider.lower()
        if provider not in ("duckduckgo", "brave"):
            raise ExecutionFailed(f"unknown web search provider '{provider}' "
                                  "(SWEBASH_AI_WEB_PROVIDER: duckduckgo or brave)")
        if provider == "brave" and not ctx.config.brave_api_key:
            raise ExecutionFailed("Brave Search needs BRAVE_API_KEY")
        if provider == "brave":  # a key alone does not switch providers: the setting does
            results = await self._brave(query, count, ctx)
        else:
            results = await self._duckduckgo(query, ctx)
        results = results[:count]
        return ToolOutput(json.dumps(results), summary=f"{len(results)} results")

    async def _get(self, ctx: ToolContext, method: str, url: str,
                   **kwargs: Any) -> httpx.Response:
        import httpx

        try:
            async with httpx.AsyncClient(timeout=TIMEOUT, follow_redirects=True) as client:
                return await client.request(method, url, **kwargs)
        except httpx.HTTPError as exc:
            raise ExecutionFailed(f"web search failed: {type(exc).__name__}: {exc}") from None

    async def _duckduckgo(self, query: str, ctx: ToolContext) -> list[dict[str, str]]:
        base = (ctx.config.web_base_url or DDG_URL).rstrip("/")
        response = await self._get(ctx, "POST", f"{base}/html/",
                                   data={"q": query, "b": "", "kl": ""},
                                   headers={"User-Agent": "Mozilla/5.0 (swebash)"})
        page = response.text
        if response.status_code in THROTTLED or "anomaly-modal" in page \
                or "challenge-form" in page:
            raise ExecutionFailed("DuckDuckGo is rate-limiting this machine (HTTP "
                                  f"{response.status_code}); try again later or set BRAVE_API_KEY")
        if response.status_code != 200:
            raise ExecutionFailed(f"DuckDuckGo answered HTTP {response.status_code}")
        parser = DuckDuckGoParser()
        parser.feed(page)
        return parser.cleaned()

    async def _brave(self, query: str, count: int, ctx: ToolContext) -> list[dict[str, str]]:
        base = (ctx.config.web_base_url or BRAVE_URL).rstrip("/")
        response = await self._get(
            ctx, "GET", f"{base}/res/v1/web/search", params={"q": query, "count": count},
            headers={"Accept": "application/json",
                     "X-Subscription-Token": ctx.config.brave_api_key or ""})
        if response.status_code != 200:
            raise ExecutionFailed(f"Brave Search answered HTTP {response.status_code}")
        try:
            items = response.json().get("web", {}).get("results", [])
        except ValueError:
            raise ExecutionFailed("Brave Search sent a response that is not JSON") from None
        return [{"title": str(i.get("title", "")), "url": str(i.get("url", "")),
                 "snippet": html.unescape(str(i.get("description", "")))} for i in items]
