"""Counts in words people read: "1 line", "2 matches", "1 turn" — one rule for every part of
swebash that says how many of something there are."""

from __future__ import annotations

IRREGULAR = {"match": "matches", "entry": "entries", "process": "processes", "index": "indexes"}


def plural(count: int, word: str) -> str:
    """``word`` in the form ``count`` asks for."""
    return word if count == 1 else IRREGULAR.get(word, word + "s")


def counted(count: int, word: str) -> str:
    """"1 turn", "2 turns": a number with its noun in the right form."""
    return f"{count} {plural(count, word)}"
