"""Readline's state as bash lists it, read back: key notation, listings, what changed."""

from __future__ import annotations

import pytest
from prompt_toolkit.keys import Keys

from swebash.interactive.bindings import to_keys
from swebash.interactive.inputrc import (
    RlBinding,
    changes,
    parse_listing_line,
    translate_keyseq,
)


@pytest.mark.parametrize(("notation", "chars"), [
    (r"\C-t", "\x14"),
    (r"\C-?", "\x7f"),
    (r"\e[A", "\x1b[A"),
    (r"\ec", "\x1bc"),
    (r"\M-c", "\x1bc"),
    (r"\M-\C-e", "\x1b\x05"),
    (r"\C-\M-e", "\x1b\x05"),
    (r"\e\C-e", "\x1b\x05"),
    (r"\C-x\C-r", "\x18\x12"),
    (r"\033[5~", "\x1b[5~"),
    (r"\x41b", "Ab"),
    (r"a\"b\\c", 'a"b\\c'),
    (r"\t\n\r\a\d", "\t\n\r\a\x7f"),
])
def test_key_notation_is_what_the_terminal_sends(notation: str, chars: str) -> None:
    assert translate_keyseq(notation) == chars


def test_listing_lines_of_functions_macros_and_commands() -> None:
    assert parse_listing_line(r'"\e[A": history-search-backward') == (
        "\x1b[A", "history-search-backward", False)
    assert parse_listing_line(r'"\C-t": "echo \"a\\\"b\" \\\\ x"') == (
        "\x14", r'echo \"a\\\"b\" \\\\ x', True)
    assert parse_listing_line(r'"\"": self-insert') == ('"', "self-insert", False)
    assert parse_listing_line("# vi-undo (not bound)") is None


BASE = """#sb emacs p
"\\C-a": beginning-of-line
"\\e[A": previous-history
#sb emacs s
#sb emacs x
#sb vi-insert p
"\\C-t": transpose-chars
#sb vi-insert s
#sb vi-insert x
#sb vi-command p
#sb vi-command s
#sb vi-command x
#sb - v
set completion-ignore-case off
set editing-mode emacs
"""


def test_only_what_the_user_changed_is_applied() -> None:
    now = BASE.replace('"\\e[A": previous-history', '"\\e[A": history-search-backward')
    now = now.replace("#sb emacs x\n", '#sb emacs x\n"\\C-t": "fzf-file-widget \\"q\\""\n')
    now = now.replace("#sb vi-insert s\n", '#sb vi-insert s\n"\\ec": "\\C-z\\ec\\C-z"\n')
    now = now.replace("completion-ignore-case off", "completion-ignore-case on")
    bindings, variables = changes(BASE, now)
    assert sorted(bindings, key=lambda b: b.keys) == sorted([
        RlBinding("emacs", "\x1b[A", "function", "history-search-backward"),
        RlBinding("emacs", "\x14", "command", 'fzf-file-widget "q"'),
        RlBinding("vi-insert", "\x1bc", "macro", "\x1a\x1bc\x1a"),
    ], key=lambda b: b.keys)
    assert variables["completion-ignore-case"] == "on"
    assert variables["editing-mode"] == "emacs"
    assert changes(BASE, BASE) == ([], {"completion-ignore-case": "off",
                                         "editing-mode": "emacs"})


def test_key_sequences_become_prompt_toolkit_keys() -> None:
    assert [k.key for k in to_keys("\x1b[A")] == [Keys.Up]
    assert [k.key for k in to_keys("\x1bc")] == [Keys.Escape, "c"]
    assert [k.key for k in to_keys("\x18\x12")] == [Keys.ControlX, Keys.ControlR]
    assert [k.key for k in to_keys("\x14")] == [Keys.ControlT]
