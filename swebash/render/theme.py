"""The rich Console the AI renderers draw on, built to honour NO_COLOR and TERM=dumb.

Only ``swebash.config`` reads the environment; it hands the two facts over as ``no_color`` and
``dumb_term`` (``Config.no_color`` / ``Config.dumb_term``). This module turns them into Console
settings, and holds the styles every renderer shares so the look is defined in one place
(as literal styles, so they also work on a Console built elsewhere).

* NO_COLOR: no colour, but bold/underline and the live region stay (a colourless terminal
  is still a terminal).
* TERM=dumb: plain output — no colour, no styles, no cursor movement, so no live region and
  no spinners; rich's own dumb-terminal detection agrees with this.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, TextIO

from rich.console import Console
from rich.theme import Theme

if TYPE_CHECKING:
    from swebash.config import Config

# Literal styles, so the renderers work on any Console (the caller's need not carry a theme).
TOOL = "bold cyan"
TOOL_BORDER = "cyan"
OK = "green"
ERROR = "bold red"
ERROR_BORDER = "red"
DIM = "dim"
NOTICE = "yellow"
WARN = "bold yellow"
DANGER = "bold red"
DIFF_ADD = "green"
DIFF_REMOVE = "red"
DIFF_HUNK = "cyan"
DIFF_HEADER = "bold"

STYLES = {
    "swebash.tool": TOOL, "swebash.tool.border": TOOL_BORDER, "swebash.ok": OK,
    "swebash.error": ERROR, "swebash.error.border": ERROR_BORDER, "swebash.dim": DIM,
    "swebash.notice": NOTICE, "swebash.warn": WARN, "swebash.danger": DANGER,
    "swebash.diff.add": DIFF_ADD, "swebash.diff.remove": DIFF_REMOVE,
    "swebash.diff.hunk": DIFF_HUNK, "swebash.diff.header": DIFF_HEADER,
}

THEME = Theme(STYLES)


def make_console(file: TextIO | None = None, *, no_color: bool = False, dumb_term: bool = False,
                 force_terminal: bool | None = None, width: int | None = None,
                 height: int | None = None) -> Console:
    """A Console writing to ``file`` (stdout when None) with swebash's theme and colour rules."""
    if dumb_term:
        return Console(file=file, theme=THEME, force_terminal=False, color_system=None,
                       no_color=True, emoji=False, highlight=False, width=width, height=height)
    return Console(file=file, theme=THEME, force_terminal=force_terminal, no_color=no_color,
                   highlight=False, width=width, height=height)


def console_for(config: Config, file: TextIO | None = None) -> Console:
    """The Console for a loaded configuration."""
    return make_console(file, no_color=config.no_color, dumb_term=config.dumb_term)


def is_plain(console: Console) -> bool:
    """True when nothing may move the cursor: not a terminal, or TERM=dumb."""
    return not console.is_interactive
