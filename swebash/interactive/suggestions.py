"""AI ghost-text suggestions for the line being typed (opt-in: SWEBASH_AI_AUTOCOMPLETE=true).

prompt-toolkit asks ``get_suggestion_async`` after each edit and runs one request at a time,
retrying when the text changed meanwhile. We wait out a typing pause (≥ 400 ms) before asking
the model, drop the answer if a key was pressed meanwhile and cache answers per prefix. It is
only asked when history has nothing (``history_suggest.HistoryAutoSuggest`` wraps it). The
model call runs on the AI loop thread, so prompt-toolkit's own loop only ever sleeps: typing
never waits for the network. Any failure is silent. Accept with → or Ctrl-F.
"""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING

from prompt_toolkit.auto_suggest import AutoSuggest, Suggestion
from prompt_toolkit.buffer import Buffer
from prompt_toolkit.document import Document

if TYPE_CHECKING:
    from swebash.interactive.ai_session import AiFrontend

DEBOUNCE = 0.45
REQUEST_TIMEOUT = 8.0
CACHE_SIZE = 256


def worth_asking(text: str) -> bool:
    stripped = text.strip()
    return (len(stripped) >= 2 and "\n" not in text and not stripped.startswith("?")
            and not text.startswith(" "))


class AiAutoSuggest(AutoSuggest):
    def __init__(self, frontend: AiFrontend, *, debounce: float = DEBOUNCE) -> None:
        self.frontend = frontend
        self.debounce = debounce
        self.cache: dict[str, str] = {}  # typed text → full suggested line ("" = none)

    def get_suggestion(self, buffer: Buffer, document: Document) -> Suggestion | None:
        return self.cached(document.text)  # the model is only asked asynchronously

    def cached(self, text: str) -> Suggestion | None:
        """A cached full line extending ``text`` (also one cached for a shorter prefix)."""
        for typed, full in self.cache.items():
            if text.startswith(typed) and full.startswith(text) and len(full) > len(text):
                return Suggestion(full[len(text):])
        return None

    async def get_suggestion_async(self, buffer: Buffer, document: Document
                                   ) -> Suggestion | None:
        text = document.text
        if not worth_asking(text):
            return None
        hit = self.cached(text)
        if hit is not None or text in self.cache:
            return hit
        await asyncio.sleep(self.debounce)
        if buffer.document != document:
            return None  # a key was pressed: prompt-toolkit asks again with the new text
        future = self.frontend.submit(self.frontend.service.autocomplete(text, 1))
        try:
            response = await asyncio.wait_for(asyncio.wrap_future(future), REQUEST_TIMEOUT)
        except Exception:
            future.cancel()
            self.remember(text, "")
            return None
        self.remember(text, next((s for s in response.suggestions if s.startswith(text)), ""))
        if buffer.document != document:
            return None
        return self.cached(text)

    def remember(self, text: str, full: str) -> None:
        if len(self.cache) >= CACHE_SIZE:
            self.cache.pop(next(iter(self.cache)))
        self.cache[text] = full
