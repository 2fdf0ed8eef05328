"""rich's Markdown, drawn so that what a person selects and pastes is what the model wrote.

Differences from ``rich.markdown.Markdown``, each for a reason seen in a terminal:

* Code blocks carry syntax colour only — no background, no padding. rich pads every code row
  with a space on the left and fills it with a background to the right margin, so a
  triple-clicked ``ls /nope`` pasted as `` ls /nope`` (which the shell then keeps out of its
  history) and pasted Python arrived indented. A block is delimited by a dim rule above
  (naming the language) and one below, each a row of its own that a selection of the code
  leaves out. A top-level code row is never wrapped or cut by us: a line longer than the
  window is written whole and the terminal wraps it, so copying it gives one line.
* The colours are the terminal's own 16 (rich's ANSI theme without a whitespace colour): they
  follow the user's palette on light and dark backgrounds alike, and a code row costs a few
  bytes of escape codes instead of a 24-bit colour per token.
* Tables have no edge: rich draws a blank row above and below a table and a blank column to
  its left (the edges of a borderless box), so a table sat between two blank rows on each side
  and every row copied with a leading space.
* Headings are left-aligned: a centred heading is mostly leading spaces, which a narrower
  window rewraps into a blank row and a stray word.
* Links: where the terminal is not known to show OSC 8 hyperlinks (``hyperlinks=False``) the
  URL is written after the text, "guide (https://…)", and an autolink whose text is its URL
  is written once.
* ``paragraph_skip``: a top-level paragraph can be drawn from a given character of its text
  on, so a long paragraph whose first rows are already in scrollback can be finished — or
  redrawn at a new width — without repeating them (``stream.OpenBlockView``).
"""

from __future__ import annotations

import copy
import functools
from typing import ClassVar

from markdown_it import MarkdownIt
from markdown_it.token import Token
from pygments.lexer import Lexer  # type: ignore[import-untyped]
from pygments.lexers import get_lexer_by_name  # type: ignore[import-untyped]
from pygments.token import Whitespace  # type: ignore[import-untyped]
from pygments.util import ClassNotFound  # type: ignore[import-untyped]
from rich.console import Console, ConsoleOptions, RenderResult
from rich.markdown import (
    CodeBlock,
    Heading,
    Markdown,
    MarkdownElement,
    Paragraph,
    TableElement,
)
from rich.style import Style
from rich.syntax import ANSI_DARK, ANSISyntaxTheme, Syntax
from rich.table import Table
from rich.text import Text

# The 16-colour theme, with whitespace left uncoloured (it has no background to show on).
CODE_THEME = ANSISyntaxTheme({**ANSI_DARK, Whitespace: Style()})
RULE = "──"
RULE_STYLE = "dim"


class CleanCodeBlock(CodeBlock):
    """A code block: a dim "── lang" row, the highlighted code as is, a dim "──" row."""

    @classmethod
    def create(cls, markdown: Markdown, token: Token) -> CleanCodeBlock:
        block = cls(token.info.partition(" ")[0] if token.info else "text", markdown.code_theme)
        block.top_level = token.level == 0
        return block

    top_level = True

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        code = str(self.text).rstrip()
        label = f"{RULE} {self.lexer_name}" if self.lexer_name != "text" else RULE
        yield Text(label, style=RULE_STYLE)
        theme = CODE_THEME if self.theme in ("ansi", "ansi_dark") else self.theme
        highlighted = Syntax(code, _lexer(self.lexer_name) or self.lexer_name,
                             theme=theme).highlight(code)
        highlighted.rstrip()
        for line in highlighted.split("\n", allow_blank=True) if code else []:
            line.style = ""  # the theme's base style carries a background colour
            line.spans = [span._replace(style=_without_background(span.style))
                          for span in line.spans]
            if self.top_level:  # whole, even past the right margin: the terminal wraps it
                line.no_wrap, line.overflow = True, "ignore"
            else:  # inside a list or a quote the prefix is drawn on every row: fold
                line.overflow = "fold"
            yield line
        yield Text(RULE, style=RULE_STYLE)


@functools.lru_cache(maxsize=64)
def _lexer(name: str) -> Lexer | None:
    """The pygments lexer for a fence's language: looking one up by name scans every lexer
    pygments knows (milliseconds), and an answer has a code block every few lines."""
    try:
        return get_lexer_by_name(name)
    except ClassNotFound:
        return None


def _without_background(style: str | Style) -> str | Style:
    if isinstance(style, Style) and style.bgcolor is not None:
        return Style(color=style.color, bold=style.bold, dim=style.dim, italic=style.italic,
                     underline=style.underline, strike=style.strike)
    return style


class EdgelessTable(TableElement):
    """rich's table without its edge rows and column (see the module docstring)."""

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        for part in super().__rich_console__(console, options):
            if isinstance(part, Table):
                part.show_edge = False
            yield part


class LeftHeading(Heading):
    LEVEL_ALIGN: ClassVar[dict[str, str]] = dict.fromkeys(  # type: ignore[assignment]
        ("h1", "h2", "h3", "h4", "h5", "h6"), "left")


class SkippingParagraph(Paragraph):
    """A paragraph; at the top level drawn from ``markdown.paragraph_skip`` characters on."""

    skip = 0
    owner: AnswerMarkdown | None = None

    @classmethod
    def create(cls, markdown: Markdown, token: Token) -> SkippingParagraph:
        paragraph = cls(justify=markdown.justify or "left")
        if token.level == 0 and isinstance(markdown, AnswerMarkdown):
            paragraph.skip = markdown.paragraph_skip
            paragraph.owner = markdown
        return paragraph

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        text = self.text
        if self.owner is not None:
            self.owner.paragraph_text = text
        if self.skip:
            text = text[self.skip:]
        text.justify = self.justify
        yield text


class AnswerMarkdown(Markdown):
    """rich Markdown with the changes above; built by ``MarkdownMaker``."""

    elements: ClassVar[dict[str, type[MarkdownElement]]] = {
        **Markdown.elements, "fence": CleanCodeBlock, "code_block": CleanCodeBlock,
        "heading_open": LeftHeading, "paragraph_open": SkippingParagraph,
        "table_open": EdgelessTable}
    paragraph_skip = 0
    paragraph_text: Text | None = None  # the top-level paragraph's text, once rendered


class MarkdownMaker:
    """Builds ``AnswerMarkdown`` objects cheaply: one parser, one template copied per text
    (rich builds a parser per instance, most of the cost of a small render)."""

    def __init__(self, *, hyperlinks: bool = False, code_theme: str = "ansi",
                 parser: MarkdownIt | None = None) -> None:
        from swebash.render.blocks import make_parser

        self.parser = parser or make_parser()
        self.hyperlinks = hyperlinks
        self._template = AnswerMarkdown("", code_theme=code_theme, hyperlinks=hyperlinks)

    def parse(self, text: str) -> list[Token]:
        tokens = self.parser.parse(text)
        if not self.hyperlinks:
            _unlink_autolinks(tokens)
        return tokens

    def make(self, text: str, *, paragraph_skip: int = 0,
             tokens: list[Token] | None = None) -> AnswerMarkdown:
        markdown = copy.copy(self._template)
        markdown.markup = text
        markdown.parsed = tokens if tokens is not None else self.parse(text)
        markdown.paragraph_skip = paragraph_skip
        markdown.paragraph_text = None
        return markdown


def _unlink_autolinks(tokens: list[Token]) -> None:
    """A link whose text is its own URL keeps only the text (the URL is not written twice)."""
    for token in tokens:
        children = token.children
        if not children:
            continue
        keep: list[Token] = []
        index = 0
        while index < len(children):
            child = children[index]
            if (child.type == "link_open" and index + 2 < len(children)
                    and children[index + 1].type == "text"
                    and children[index + 2].type == "link_close"
                    and _same_target(children[index + 1].content,
                                     str(child.attrs.get("href", "")))):
                keep.append(children[index + 1])
                index += 3
                continue
            keep.append(child)
            index += 1
        token.children = keep


def _same_target(text: str, href: str) -> bool:
    return href in (text, "mailto:" + text, "http://" + text, "https://" + text)

