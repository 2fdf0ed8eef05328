"""The rich Console the AI renderers draw on, built to honour NO_COLOR and TERM=dumb.

Only ``swebash.config`` reads the environment; it hands the two facts over as ``no_color`` and
``dumb_term`` (``Config.no_color`` / ``Config.dumb_term``). This module turns them into Console
settings, and holds the styles every renderer shares so the look is defined in one place
(as literal styles, so they also work on a Console built elsewhere).

* NO_COLOR: no colour, but bold/underline and the live region stay (a colourless terminal
  is still a terminal).
* TERM=dumb: plain output — no colour, no styles, no cursor movement, so no live region and
  no spinners; rich's own dumb-terminal detection agrees with this.

``settings_for`` reads what the renderers need to know about the terminal from the
configuration's copy of the environment, admitting only what is known to be there:

* hyperlinks (OSC 8): a link's URL is written as text unless the terminal is one known to
  show OSC 8 links — tmux 3.3 and screen drop them, Terminal.app ignores them, and there the
  URL simply vanished ("See the packaging guide for more."). Never under NO_COLOR/TERM=dumb.
  ``FORCE_HYPERLINK=1`` / ``0`` (the convention of supports-hyperlinks) overrides.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
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

# Inline `code` like code blocks: its own colour (bold under NO_COLOR), no background fill
# (rich's default is "bold cyan on black").
INLINE_CODE = "bold cyan"

STYLES = {
    "markdown.code": INLINE_CODE,
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


@dataclass(frozen=True)
class RenderSettings:
    """What the renderers need to know besides the Console: see the module docstring."""

    hyperlinks: bool = False
    tools: str = "compact"  # compact | boxed


def settings_for(config: Config) -> RenderSettings:
    env = config.environ
    plain = config.no_color or config.dumb_term
    return RenderSettings(hyperlinks=not plain and hyperlinks_supported(env),
                          tools=config.ui.tools)


def _version(text: str | None) -> tuple[int, ...]:
    parts: list[int] = []
    for part in (text or "").split("."):
        digits = "".join(ch for ch in part if ch.isdigit())
        if not digits:
            break
        parts.append(int(digits))
    return tuple(parts)


def hyperlinks_supported(env: Mapping[str, str]) -> bool:
    """Whether the terminal is one known to show OSC 8 hyperlinks."""
    force = env.get("FORCE_HYPERLINK", "")
    if force:
        return force != "0"
    term = env.get("TERM", "")
    if env.get("TMUX") or env.get("STY") or term.startswith(("screen", "tmux")):
        return False  # a multiplexer in between: what reaches the outer terminal is unknown
    program = env.get("TERM_PROGRAM", "")
    version = _version(env.get("TERM_PROGRAM_VERSION"))
    if program == "iTerm.app":
        return version >= (3, 1)
    if program == "vscode":
        return version >= (1, 72)
    if program in ("WezTerm", "ghostty"):
        return True
    if env.get("WT_SESSION"):  # Windows Terminal
        return True
    if _version(env.get("VTE_VERSION")) >= (5000,):  # GNOME Terminal, Tilix, … (VTE 0.50+)
        return True
    return term in ("xterm-kitty", "xterm-ghostty") or term.startswith("foot")

