"""Fish-style suggestions from history: the rest of the most recent matching line, in grey.

Design note. The problem: a suggestion is looked up after every key, with up to 100,000 history
lines, and must cost well under 2 ms. A scan of the history per key costs ~5 ms at that size
when the prefix is rare (the scan finds nothing and reads everything). The chosen approach: the
history known at start is indexed once, in a background thread (~100 ms for 100k lines): its
distinct lines sorted, so the lines starting with a prefix are one ``bisect`` range, plus the
largest "score" (recency) of each block of 256 sorted lines, so the best line of a range costs
two partial blocks and one max per full block (a few hundred operations at most). Lines run in
this session live in a short list of their own, newest first, with their cwd and exit status:
they are the most recent anyway. The order of preference: a line that succeeded in this
directory, then one that succeeded anywhere (or whose outcome is unknown), then a failed one.
"""

from __future__ import annotations

import bisect
import re
import threading
from collections.abc import Callable, Iterable
from dataclasses import dataclass

from prompt_toolkit.application.current import get_app
from prompt_toolkit.auto_suggest import AutoSuggest, Suggestion
from prompt_toolkit.buffer import Buffer
from prompt_toolkit.document import Document
from prompt_toolkit.filters import Condition
from prompt_toolkit.key_binding import KeyBindings, KeyPressEvent

BLOCK = 256
FAILED_PENALTY = 1 << 40  # a failed line ranks below every line not known to have failed
SESSION_LIMIT = 5000


@dataclass(frozen=True)
class Run:
    line: str
    cwd: str
    status: int


class HistoryIndex:
    """Distinct history lines sorted, with the best score per block of sorted lines."""

    def __init__(self, lines_oldest_first: Iterable[str]) -> None:
        score: dict[str, int] = {}
        for rank, line in enumerate(lines_oldest_first):
            if line and "\n" not in line:
                score[line] = rank
        self.lines = sorted(score)
        self.scores = [score[line] for line in self.lines]
        self.block_max = [max(self.scores[i: i + BLOCK])
                          for i in range(0, len(self.scores), BLOCK)]

    def __len__(self) -> int:
        return len(self.lines)

    def demote(self, line: str) -> None:
        """``line`` failed when last run: rank it below lines that did not."""
        at = bisect.bisect_left(self.lines, line)
        if at < len(self.lines) and self.lines[at] == line and self.scores[at] >= 0:
            self.scores[at] -= FAILED_PENALTY
            block = at // BLOCK
            self.block_max[block] = max(self.scores[block * BLOCK: (block + 1) * BLOCK])

    def best(self, prefix: str) -> str | None:
        """The highest-scored line that starts with ``prefix`` and is longer than it."""
        lo = bisect.bisect_right(self.lines, prefix)  # skips the line equal to the prefix
        hi = bisect.bisect_left(self.lines, prefix + "\U0010ffff")
        if lo >= hi:
            return None
        best_at, best_score = -1, -(1 << 62)
        first_full = -(-lo // BLOCK)
        last_full = hi // BLOCK
        if first_full >= last_full:
            spans = [(lo, hi)]
        else:
            spans = [(lo, first_full * BLOCK), (last_full * BLOCK, hi)]
            top = max(range(first_full, last_full), key=self.block_max.__getitem__)
            spans.append((top * BLOCK, (top + 1) * BLOCK))
        for start, end in spans:
            for at in range(start, end):
                if self.scores[at] > best_score:
                    best_at, best_score = at, self.scores[at]
        return self.lines[best_at] if best_at >= 0 else None


class HistorySuggester:
    """Index + this session's runs; ``suggest(text, cwd)`` is the whole line or None."""

    def __init__(self, load: Callable[[], Iterable[str]]) -> None:
        self._load = load
        self.index: HistoryIndex | None = None
        self.runs: list[Run] = []  # newest last
        self._failed: set[str] = set()
        self._ready = threading.Event()

    def build(self) -> None:
        """Index the stored history (call from a background thread)."""
        try:
            index = HistoryIndex(self._load())
        except Exception:  # an unreadable history means no suggestions, never an error
            index = HistoryIndex(())
        for line in self._failed:
            index.demote(line)
        self.index = index
        self._ready.set()

    def build_in_background(self) -> None:
        threading.Thread(target=self.build, name="history-index", daemon=True).start()

    def wait_ready(self, timeout: float | None = None) -> bool:
        return self._ready.wait(timeout)

    def record(self, line: str, cwd: str, status: int) -> None:
        line = line.strip()
        if not line or "\n" in line:
            return
        self.runs.append(Run(line, cwd, status))
        if len(self.runs) > SESSION_LIMIT:
            del self.runs[: SESSION_LIMIT // 2]
        if status != 0:
            self._failed.add(line)
            if self.index is not None:
                self.index.demote(line)
        else:
            self._failed.discard(line)

    def suggest(self, text: str, cwd: str) -> str | None:
        if not text.strip() or "\n" in text:
            return None
        anywhere: str | None = None
        failed: str | None = None
        for run in reversed(self.runs):
            if len(run.line) > len(text) and run.line.startswith(text):
                if run.status == 0 and run.cwd == cwd:
                    return run.line
                if run.status == 0 and anywhere is None:
                    anywhere = run.line
                elif run.status != 0 and failed is None:
                    failed = run.line
        if anywhere is not None:
            return anywhere
        stored = self.index.best(text) if self.index is not None else None
        if stored is not None and (stored not in self._failed or failed is None):
            return stored
        return failed


class HistoryAutoSuggest(AutoSuggest):
    """prompt-toolkit's hook; ``fallback`` (AI ghost text) runs only when history has nothing."""

    def __init__(self, suggester: HistorySuggester, cwd: Callable[[], str],
                 fallback: AutoSuggest | None = None) -> None:
        self.suggester = suggester
        self.cwd = cwd
        self.fallback = fallback

    def _from_history(self, document: Document) -> Suggestion | None:
        text = document.text
        if not document.is_cursor_at_the_end:
            return None
        line = self.suggester.suggest(text, self.cwd())
        return Suggestion(line[len(text):]) if line else None

    def get_suggestion(self, buffer: Buffer, document: Document) -> Suggestion | None:
        found = self._from_history(document)
        if found is None and self.fallback is not None:
            return self.fallback.get_suggestion(buffer, document)
        return found

    async def get_suggestion_async(self, buffer: Buffer, document: Document
                                   ) -> Suggestion | None:
        found = self._from_history(document)
        if found is None and self.fallback is not None:
            return await self.fallback.get_suggestion_async(buffer, document)
        return found


WORD = re.compile(r"\s*[^\s/]*/?")


def suggestion_bindings() -> KeyBindings:
    """End accepts the whole suggestion and Alt-→ one word, besides prompt-toolkit's own
    →, Ctrl-F, Ctrl-E (all) and Alt-F (a word)."""
    kb = KeyBindings()

    @Condition
    def available() -> bool:
        buffer = get_app().current_buffer
        return bool(buffer.suggestion and buffer.suggestion.text
                    and buffer.document.is_cursor_at_the_end)

    @kb.add("end", filter=available)
    def _(event: KeyPressEvent) -> None:
        suggestion = event.current_buffer.suggestion
        if suggestion:
            event.current_buffer.insert_text(suggestion.text)

    @kb.add("escape", "right", filter=available)
    def _(event: KeyPressEvent) -> None:
        suggestion = event.current_buffer.suggestion
        if suggestion:
            match = WORD.match(suggestion.text)
            event.current_buffer.insert_text(match.group(0) if match and match.group(0)
                                             else suggestion.text[:1])

    return kb
