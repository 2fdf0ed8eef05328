"""The tree-sitter bash parser, loaded once on first use (≈15 ms) by whoever needs it first:
the safety classifier or the shell's continuation check. Never loaded at startup."""

from __future__ import annotations

import threading
from typing import Any

_parser: Any = None
_lock = threading.Lock()


def parse(text: str) -> Any:
    """Parse ``text`` (any string, even with lone surrogates) and return the tree."""
    global _parser
    with _lock:
        if _parser is None:
            import tree_sitter_bash
            from tree_sitter import Language, Parser

            _parser = Parser(Language(tree_sitter_bash.language()))
        return _parser.parse(text.encode("utf-8", "surrogateescape"))
