"""Terminals as they are: code that copies clean, links that show where OSC 8 is not known to
work, no padding under TERM=dumb, settings read from the configuration."""

from __future__ import annotations

import io
import re
from pathlib import Path

import pytest
from rich.console import Console

from swebash.config import load
from swebash.render.stream import MarkdownStream
from swebash.render.terminal import LiveTerminal
from swebash.render.theme import hyperlinks_supported, make_console, settings_for
from tests.render.scenarios import CODE_HEAVY
from tests.render.screen import copied, replay, replay_screen, row_texts, terminal_console


def stream(text: str, console: Console, *, hyperlinks: bool = False, size: int = 7) -> str:
    terminal = LiveTerminal(console)
    markdown = MarkdownStream(console, terminal=terminal, hyperlinks=hyperlinks,
                              clock=iter(range(10**6)).__next__)
    for i in range(0, len(text), size):
        markdown.feed(text[i:i + size])
    markdown.finish()
    terminal.clear()
    output: str = console.file.getvalue()  # type: ignore[attr-defined]
    return output


def code_of(source: str, language: str) -> str:
    start = source.index(f"```{language}\n") + len(language) + 4
    return source[start:source.index("\n```", start)]


@pytest.mark.parametrize("width", [50, 80, 120])
def test_a_selected_code_block_is_exactly_its_source(width: int) -> None:
    # Every row of the block selected and copied, as a terminal joins the rows it wrapped
    # itself: the code as the model wrote it — no leading space, no padding, lines longer
    # than the window whole.
    screen = replay_screen(stream(CODE_HEAVY, terminal_console(width, 30)), width, 30)
    rows = row_texts(screen)
    for language in ("python", "ini", "bash"):
        label = rows.index(f"── {language}")
        end = next(i for i in range(label + 1, len(rows)) if rows[i] == "──")
        assert copied(screen, label + 1, end - 1) == code_of(CODE_HEAVY, language)
    assert any(len(line) > 50 for line in code_of(CODE_HEAVY, "python").splitlines())


def test_a_triple_clicked_command_has_no_leading_space() -> None:
    text = "Run this:\n\n```bash\nls /nope\n```\n\nThen look.\n"
    rows = replay(stream(text, terminal_console(80)), 80)
    assert "ls /nope" in rows and "── bash" in rows
    assert rows[rows.index("ls /nope") + 1] == "──"


def backgrounds(output: str) -> list[str]:
    """Every background colour an SGR sequence in ``output`` sets."""
    found: list[str] = []
    for match in re.finditer(r"\x1b\[([0-9;]*)m", output):
        params = [int(p) for p in match.group(1).split(";") if p]
        index = 0
        while index < len(params):
            param = params[index]
            if param in (38, 48):  # extended colour: 5;n or 2;r;g;b follows
                step = 3 if params[index + 1:index + 2] == [5] else 5
                if param == 48:
                    found.append(match.group(0))
                index += step
                continue
            if 40 <= param <= 47 or 100 <= param <= 107:
                found.append(match.group(0))
            index += 1
    return found


def test_code_blocks_carry_no_background() -> None:
    output = stream(CODE_HEAVY, Console(file=io.StringIO(), width=80, force_terminal=True,
                                        color_system="truecolor"))
    assert backgrounds(output) == []


LINKED = ("See the [packaging guide](https://packaging.python.org/guide) for more, or "
          "<https://pypi.org>.\n")


def test_links_show_their_url_where_osc8_is_not_known() -> None:
    output = stream(LINKED, terminal_console(100))
    text = "\n".join(replay(output, 100))
    assert "packaging guide (https://packaging.python.org/guide) for more" in text
    assert text.count("https://pypi.org") == 1  # an autolink is written once
    assert "\x1b]8;" not in output


def test_links_are_osc8_where_the_terminal_shows_them() -> None:
    output = stream(LINKED, terminal_console(100), hyperlinks=True)
    assert "\x1b]8;" in output and "https://packaging.python.org/guide" in output
    assert "(https://packaging" not in "\n".join(replay(output, 100))


@pytest.mark.parametrize("env,expected", [
    ({"TERM": "xterm-256color"}, False),  # xterm itself, or anything unknown
    ({"TERM": "tmux-256color", "TMUX": "/tmp/tmux-0/default,1,0",
      "TERM_PROGRAM": "tmux"}, False),
    ({"TERM": "xterm-256color", "TMUX": "x", "VTE_VERSION": "7200"}, False),  # tmux in VTE
    ({"TERM": "screen", "STY": "1.pts"}, False),
    ({"TERM_PROGRAM": "Apple_Terminal", "TERM": "xterm-256color"}, False),
    ({"TERM_PROGRAM": "iTerm.app", "TERM_PROGRAM_VERSION": "3.4.19"}, True),
    ({"TERM_PROGRAM": "iTerm.app", "TERM_PROGRAM_VERSION": "3.0.15"}, False),
    ({"TERM_PROGRAM": "vscode", "TERM_PROGRAM_VERSION": "1.90.0"}, True),
    ({"TERM": "xterm-256color", "VTE_VERSION": "7200"}, True),
    ({"TERM": "xterm-256color", "VTE_VERSION": "4601"}, False),
    ({"TERM": "xterm-kitty"}, True),
    ({"WT_SESSION": "abc"}, True),
    ({"TERM": "xterm-256color", "FORCE_HYPERLINK": "1"}, True),
    ({"TERM": "xterm-kitty", "FORCE_HYPERLINK": "0"}, False),
])
def test_osc8_is_admitted_only_for_known_terminals(env: dict[str, str], expected: bool) -> None:
    assert hyperlinks_supported(env) is expected


def test_settings_come_from_the_configuration(tmp_path: Path) -> None:
    env = {"HOME": str(tmp_path), "TERM": "xterm-kitty"}
    assert settings_for(load(env)).hyperlinks
    assert not settings_for(load({**env, "NO_COLOR": "1"})).hyperlinks
    assert not settings_for(load({**env, "TERM": "dumb"})).hyperlinks
    assert settings_for(load(env)).tools == "compact"
    config_dir = tmp_path / ".config" / "swebash"
    config_dir.mkdir(parents=True)
    (config_dir / "config.toml").write_text('[ui]\ntools = "boxed"\n')
    assert settings_for(load(env)).tools == "boxed"
    (config_dir / "config.toml").write_text('[ui]\ntools = "tiny"\n')
    config = load(env)
    assert config.ui.tools == "compact"
    assert any("[ui] tools" in warning for warning in config.warnings)


def test_no_padding_under_term_dumb() -> None:
    console = make_console(io.StringIO(), dumb_term=True, width=80)
    output = stream("A short line.\n\n- an item\n\n" + CODE_HEAVY, console)
    assert "\x1b" not in output
    assert not any(line.endswith(" ") for line in output.splitlines())
    assert "A short line.\n" in output


@pytest.mark.parametrize("no_color", [False, True])
def test_inline_code_carries_no_background(no_color: bool) -> None:
    # Like code blocks: a colour of its own (bold under NO_COLOR), never a background fill.
    console = make_console(io.StringIO(), force_terminal=True, no_color=no_color, width=60)
    output = stream("Run `ls /nope` and `git status` now.\n", console)
    assert backgrounds(output) == []
    assert "ls /nope" in "\n".join(replay(output, 60))
    shown = re.search(r"\x1b\[([0-9;]*)m(?=ls /nope)", output)
    assert shown is not None and "1" in shown.group(1).split(";")  # bold marks it


def test_a_table_has_no_blank_edges() -> None:
    # rich drew a blank row above and below a table and a blank column to its left: a table
    # sat between two blank rows each side, and each of its rows copied with a leading space.
    console = terminal_console(60)
    rows = replay(stream("Before.\n\n| a | b |\n|---|---|\n| 1 | `x` |\n\nAfter.\n", console),
                  60)
    assert rows == ["Before.", "", "a  b", "────", "1  x", "", "After."]
