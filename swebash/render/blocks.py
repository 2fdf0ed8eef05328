"""Where a streamed markdown document can be cut: finished top-level blocks vs the open one.

Design note. A streamed answer is drawn incrementally: every top-level block that can no longer
change is rendered once and printed into scrollback; only the last (open) block stays live.
Guessing block ends from blank lines does not work — a blank line inside a fenced code block
does not end it, lists and quotes continue over blank lines and lazy continuation lines, a
paragraph turns into a setext heading when the next line is `===`, and a line "|---|" turns the
paragraph above into a table. So the cut is made by the same parser rich's Markdown uses
(markdown-it-py with tables and strikethrough) on the complete lines of the uncommitted text:
when it reports two or more top-level blocks, everything before the start line of the last one
is final, because a later line can only extend or change the block it follows. A partial last
line is never parsed for cutting ("``" may become a fence once the third backtick arrives).

Rich separates blocks by a blank line drawn before a block when the last element it closed
asks for one (`new_line`; false for rules and images). For a block with nested elements (lists,
quotes, tables) that flag comes from its own insides; for a flat one (paragraph, heading, code)
it comes from the block before. So printing a later part alone drops exactly one blank line
exactly when its first block is flat and the previous part ended with a `new_line` element;
``inherits_gap`` and ``gap_after`` tell the stream when to add it, and the parts printed one
after the other then match rendering the whole text at once.
"""

from __future__ import annotations

from dataclasses import dataclass

from markdown_it import MarkdownIt
from markdown_it.token import Token
from rich.markdown import Markdown, UnknownElement


def make_parser() -> MarkdownIt:
    """The parser configuration rich's ``Markdown`` uses, so cuts agree with its rendering."""
    return MarkdownIt().enable("strikethrough").enable("table")


@dataclass(frozen=True)
class Cut:
    """The result of cutting the uncommitted text."""

    finished: str  # complete blocks, rendered once and printed; "" when nothing is final yet
    rest: str  # the open block (and any partial line) that stays live


def _top_level_starts(tokens: list[Token]) -> list[tuple[int, Token]]:
    """(start line, opening token) of every top-level block, in order."""
    starts: list[tuple[int, Token]] = []
    for token in tokens:
        if token.level == 0 and token.nesting >= 0 and token.map is not None:
            starts.append((token.map[0], token))
    return starts


def cut_finished(text: str, parser: MarkdownIt | None = None) -> Cut:
    """Split ``text`` (which starts at a line boundary) into finished blocks and the open rest."""
    last_newline = text.rfind("\n")
    if last_newline < 0:
        return Cut("", text)
    complete = text[: last_newline + 1]
    tokens = (parser or make_parser()).parse(complete)
    starts = _top_level_starts(tokens)
    if len(starts) == 1:
        end = _closed_end(starts[0][1], complete.count("\n"))
        if end is None:
            return Cut("", text)
        offset = _line_offset(complete, end)
        return Cut(text[:offset], text[offset:])
    if len(starts) < 2:
        return Cut("", text)
    cut_line = starts[-1][0]
    if cut_line == 0:
        return Cut("", text)
    offset = _line_offset(complete, cut_line)
    return Cut(text[:offset], text[offset:])


def _closed_end(token: Token, lines: int) -> int | None:
    """The line after a lone block that nothing later can change, or None.

    An ATX heading is one line; a paragraph or a rule followed by a blank line is over (a
    setext underline or a table delimiter must follow without one). A list, a quote or a fence
    may go on after a blank line, so they wait for the next block as before. Printing these
    early keeps the live region to the block being written.
    """
    if token.map is None:
        return None
    end = token.map[1]
    if token.type == "heading_open" and token.markup.startswith("#"):
        return end
    if token.type in ("paragraph_open", "hr") and lines > end:
        return lines
    return None


def _line_offset(text: str, line: int) -> int:
    """Character offset of the start of ``line`` (0-based) in ``text``."""
    offset = 0
    for _ in range(line):
        offset = text.index("\n", offset) + 1
    return offset



def gap_after(tokens: list[Token]) -> bool:
    """Whether rich's ``new_line`` flag is set after rendering these parsed tokens."""
    starts = _top_level_starts(tokens)
    if not starts:
        return False
    element = Markdown.elements.get(starts[-1][1].type) or UnknownElement
    return bool(element.new_line)


def inherits_gap(tokens: list[Token]) -> bool:
    """Whether the blank line before the first block depends on the block printed before it.

    Mirrors rich's render loop, where the first element it finishes decides. A top-level block
    finished before anything inside it (a paragraph or heading holding only text and styles, a
    fence, a rule) and an image (drawn as soon as it is read) look at the flag the previous
    block left. Anything else nested (a list item's paragraph, a table cell) sets the flag
    itself first, so the block draws the same blank line alone as after any other block.
    """
    for token, nested in _flatten(tokens, nested=False):
        if token.type in _NOT_ELEMENTS or token.nesting == 1:
            continue
        if token.tag in Markdown.inlines and token.type not in ("fence", "code_block"):
            continue
        return not nested or (token.nesting == 0 and token.tag == "img")
    return True


# Tokens rich handles as text or styles, never as elements that set its new_line flag.
_NOT_ELEMENTS = frozenset({"text", "hardbreak", "softbreak", "link_open", "link_close",
                           "html_inline"})


def _flatten(tokens: list[Token], *, nested: bool) -> list[tuple[Token, bool]]:
    """Tokens in rich's flattened order, each with whether it lies below the top level."""
    flat: list[tuple[Token, bool]] = []
    for token in tokens:
        below = nested or token.level > 0
        if token.children and token.type != "fence" and token.tag != "img":
            flat.extend(_flatten(token.children, nested=True))
        else:
            flat.append((token, below))
    return flat
