"""Colouring of the typed line: classes from the tree-sitter parse, command words looked up
as bash would (builtins, session functions/aliases, PATH), prose for `?` lines."""

from __future__ import annotations

import os
from pathlib import Path

from prompt_toolkit.document import Document

from swebash.interactive.highlight import CommandNames, ShellLexer, classify


def styles_of(text: str, known: set[str]) -> dict[str, str]:
    styles = classify(text, lambda word: word in known)
    return {word: styles[text.index(word)] for word in text.split() if word in text}


def test_known_and_unknown_command_words() -> None:
    got = styles_of("ls -la | gti status && cd /", {"ls", "cd"})
    assert got["ls"] == "class:sh.command"
    assert got["gti"] == "class:sh.unknown"
    assert got["cd"] == "class:sh.command"
    assert got["-la"] == "" and got["|"] == "class:sh.op" and got["&&"] == "class:sh.op"


def test_strings_variables_redirections_comments() -> None:
    text = "echo 'raw' \"$HOME/x\" > out 2>&1 # note"
    styles = classify(text, lambda word: True)
    assert styles[text.index("'raw'")] == "class:sh.string"
    assert styles[text.index("$HOME")] == "class:sh.var"
    assert styles[text.index("/x")] == "class:sh.string"
    assert styles[text.index("> out")] == "class:sh.redirect"
    assert styles[text.index("# note")] == "class:sh.comment"


def test_question_lines_are_prose() -> None:
    for text in ("? why did gti fail", "?? list big files", "?fix"):
        assert set(classify(text, lambda word: False)) == {"class:sh.prose"}


def test_unicode_and_multiline_offsets() -> None:
    text = "echo héllo $x\nnosuch"
    styles = classify(text, lambda word: word == "echo")
    assert styles[text.index("$x")] == "class:sh.var"
    assert styles[text.index("nosuch")] == "class:sh.unknown"


def test_lexer_splits_lines_and_caches(tmp_path: Path) -> None:
    calls: list[int] = []

    def source() -> tuple[frozenset[str], str | None, str]:
        calls.append(1)
        return frozenset({"myfunc"}), str(tmp_path), str(tmp_path)

    lexer = ShellLexer(source)
    get_line = lexer.lex_document(Document("myfunc a\nother"))
    assert get_line(0)[0] == ("class:sh.command", "myfunc")
    assert get_line(1)[0] == ("class:sh.unknown", "other")
    lexer.lex_document(Document("myfunc a\nother"))
    assert len(calls) == 1  # same text: parsed once


def test_path_lookup_follows_path_changes(tmp_path: Path) -> None:
    tool = tmp_path / "bin" / "mytool"
    tool.parent.mkdir()
    tool.write_text("#!/bin/sh\n")
    tool.chmod(0o755)
    names = CommandNames()
    assert not names.exists("mytool", frozenset(), "/nonexistent", str(tmp_path))
    assert names.exists("mytool", frozenset(), str(tool.parent), str(tmp_path))
    assert names.exists("./bin/mytool", frozenset(), "", str(tmp_path))
    assert names.exists("cd", frozenset(), "", str(tmp_path))
    assert os.access(tool, os.X_OK)


def test_prompt_state_file_is_cut_at_the_nonce() -> None:
    from swebash.shell.userprompt import parse_prompt_state

    data = b"himBH\x001\x00my> \x00> \x00/bin\x00f\nll\n\x00abc\x00stale tail from before"
    state = parse_prompt_state(data, "abc")
    assert state.histexpand and state.prompt_commands == 1 and state.ps1 == "my> "
    assert state.path == "/bin" and state.names == {"f", "ll"}
    assert not parse_prompt_state(b"himB\x000\x00\x00\x00/bin\x00\x00abc\x00", "abc").histexpand
    assert parse_prompt_state(b"", "abc").ps1 == ""
