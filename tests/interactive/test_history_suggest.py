"""History suggestions: the index agrees with a plain scan; the session's runs are preferred in
the documented order; prompt-toolkit's hook falls back to AI ghost text only when empty."""

from __future__ import annotations

import asyncio
import random

from prompt_toolkit.auto_suggest import AutoSuggest, Suggestion
from prompt_toolkit.buffer import Buffer
from prompt_toolkit.document import Document

from swebash.interactive.history_suggest import (
    HistoryAutoSuggest,
    HistoryIndex,
    HistorySuggester,
)


def brute_force(lines: list[str], prefix: str, failed: set[str]) -> str | None:
    best: tuple[bool, int] | None = None
    found = None
    for rank, line in enumerate(lines):
        if line.startswith(prefix) and len(line) > len(prefix) and "\n" not in line:
            key = (line not in failed, rank)
            if best is None or key >= best:
                best, found = key, line
    return found


def test_index_agrees_with_a_scan() -> None:
    rng = random.Random(7)
    alphabet = "abc d/"
    lines = ["".join(rng.choice(alphabet) for _ in range(rng.randint(1, 9)))
             for _ in range(5000)]
    failed = set(rng.sample(lines, 300))
    index = HistoryIndex(lines)
    for line in failed:
        index.demote(line)
    for _ in range(500):
        prefix = "".join(rng.choice(alphabet) for _ in range(rng.randint(1, 4)))
        assert index.best(prefix) == brute_force(lines, prefix, failed), prefix


def test_most_recent_match_wins() -> None:
    index = HistoryIndex(["git status", "git stash", "ls", "git stash pop"])
    assert index.best("git st") == "git stash pop"
    assert index.best("git stat") == "git status"
    assert index.best("git status") is None  # nothing to add
    assert index.best("zz") is None


def make(lines: list[str]) -> HistorySuggester:
    suggester = HistorySuggester(lambda: lines)
    suggester.build()
    return suggester


def test_session_prefers_same_directory_and_success() -> None:
    suggester = make(["make test-all"])
    suggester.record("make build", "/a", 0)
    suggester.record("make bench", "/b", 0)
    suggester.record("make broken", "/a", 2)
    assert suggester.suggest("make b", "/a") == "make build"  # same dir, succeeded
    assert suggester.suggest("make b", "/c") == "make bench"  # most recent success
    assert suggester.suggest("make t", "/a") == "make test-all"  # from the stored history
    assert suggester.suggest("make br", "/a") == "make broken"  # only a failed one matches


def test_a_failed_stored_line_ranks_last() -> None:
    suggester = make(["cargo build", "cargo bulid"])
    suggester.record("cargo bulid", "/x", 101)
    suggester.runs.clear()  # as if the failure were known from an earlier run
    assert suggester.suggest("cargo bu", "/x") == "cargo build"


def test_no_suggestion_for_blank_or_multiline_text() -> None:
    suggester = make(["echo hi"])
    assert suggester.suggest("", "/") is None
    assert suggester.suggest("   ", "/") is None
    assert suggester.suggest("echo\n", "/") is None


class Fallback(AutoSuggest):
    def __init__(self) -> None:
        self.asked = 0

    def get_suggestion(self, buffer: Buffer, document: Document) -> Suggestion | None:
        self.asked += 1
        return Suggestion("-from-ai")


def test_ai_fallback_only_when_history_has_nothing() -> None:
    fallback = Fallback()
    auto = HistoryAutoSuggest(make(["ls -la"]), lambda: "/", fallback)
    buffer = Buffer()
    hit = asyncio.run(auto.get_suggestion_async(buffer, Document("ls")))
    assert hit is not None and hit.text == " -la" and fallback.asked == 0
    miss = asyncio.run(auto.get_suggestion_async(buffer, Document("pwd")))
    assert miss is not None and miss.text == "-from-ai" and fallback.asked == 1
    # cursor not at the end: no history suggestion
    assert auto.get_suggestion(buffer, Document("ls", cursor_position=1)) is not None
    assert fallback.asked == 2
