"""The tree-sitter bash parser, loaded once on first use (≈15 ms) by whoever needs it first:
the safety classifier, the shell's continuation check or the line colouring. Never loaded at
startup: the import happens inside ``parse``."""

from __future__ import annotations

import threading
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # tree-sitter ships its own types; users type nodes as tree_sitter.Node
    from tree_sitter import Parser, Tree

_parser: Parser | None = None
_lock = threading.Lock()


def parse(text: str) -> Tree:
    """Parse ``text`` (any string, even with lone surrogates) and return the tree."""
    global _parser
    with _lock:
        if _parser is None:
            import tree_sitter_bash
            from tree_sitter import Language, Parser

            _parser = Parser(Language(tree_sitter_bash.language()))
        return _parser.parse(text.encode("utf-8", "surrogateescape"))
