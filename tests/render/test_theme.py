"""Console settings: NO_COLOR keeps styles but no colour; TERM=dumb is plain text."""

from __future__ import annotations

import io
import os
import subprocess
import sys
from pathlib import Path

from swebash.config import Config, Paths
from swebash.render.stream import MarkdownStream
from swebash.render.theme import console_for, is_plain, make_console

DOC = "# Title\n\nSome **bold** and `code`.\n\n```python\nx = 1\n```\n"


def render(no_color: bool = False, dumb_term: bool = False) -> str:
    console = make_console(io.StringIO(), no_color=no_color, dumb_term=dumb_term,
                           force_terminal=None if dumb_term else True, width=60)
    stream = MarkdownStream(console)
    stream.feed(DOC)
    stream.finish()
    return console.file.getvalue()  # type: ignore[attr-defined]


def test_colour_by_default_on_a_terminal() -> None:
    text = render()
    import re

    assert re.search(r"\x1b\[[0-9;]*(3[0-7]|9[0-7]|38;)[0-9;]*m", text)  # a foreground colour


def test_no_color_drops_colour_codes() -> None:
    text = render(no_color=True)
    assert "Title" in text
    for colour in ("\x1b[3", "\x1b[9", "38;", "48;"):
        assert colour not in text


def test_dumb_terminal_is_plain_and_never_live() -> None:
    text = render(dumb_term=True)
    assert "\x1b" not in text and "Title" in text
    assert is_plain(make_console(io.StringIO(), dumb_term=True))


def test_console_for_config(tmp_path: Path) -> None:
    paths = Paths(tmp_path, tmp_path, tmp_path)
    console = console_for(Config(paths=paths, dumb_term=True), io.StringIO())
    assert not console.is_interactive and console.color_system is None


def test_importing_the_render_package_does_not_import_rich() -> None:
    code = "import sys, swebash.render; print('rich' in sys.modules)"
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                            env=dict(os.environ), timeout=60, check=True)
    assert result.stdout.strip() == "False"
