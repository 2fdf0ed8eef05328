"""The rich Console the AI renderers draw on, built to honour NO_COLOR and TERM=dumb.

Only ``swebash.config`` reads the environment; it hands the two facts over as ``no_color`` and
``dumb_term`` (``Config.no_color`` / ``Config.dumb_term``). This module turns them into Console
settings, and holds the styles every renderer shares so the look is defined in one place.

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

STYLES = {
    "swebash.tool": "bold cyan",
    "swebash.tool.border": "cyan",
    "swebash.ok": "green",
    "swebash.error": "bold red",
    "swebash.error.border": "red",
    "swebash.dim": "dim",
    "swebash.notice": "yellow",
    "swebash.warn": "bold yellow",
    "swebash.danger": "bold red",
    "swebash.diff.add": "green",
    "swebash.diff.remove": "red",
    "swebash.diff.hunk": "cyan",
    "swebash.diff.header": "bold",
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
