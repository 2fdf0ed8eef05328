"""Live colouring of the typed line, from the tree-sitter parse the safety gate uses.

Command words that exist (builtin, keyword, function, alias, executable on the session's PATH)
get one colour and unknown ones red; strings, variables, operators, redirections and comments
each their own; `?` lines are prose. The parse of a text is cached (prompt-toolkit asks for the
same text several times per key), so a key costs one parse and one walk of the tree: ~0.3 ms
for a 500-character line. Names on PATH are looked up once per word with ``shutil.which`` and
cached until the session's PATH changes; functions and aliases come from the session's bash
(``PromptState.names``). Unclosed quotes parse with ERROR nodes; what parsed is still coloured.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Callable

from prompt_toolkit.document import Document
from prompt_toolkit.formatted_text import StyleAndTextTuples
from prompt_toolkit.lexers import Lexer

from swebash.router import is_ai_line

STYLE = {
    "sh.command": "ansigreen",
    "sh.unknown": "ansired bold",
    "sh.keyword": "ansimagenta",
    "sh.string": "ansiyellow",
    "sh.var": "ansicyan",
    "sh.op": "ansiblue bold",
    "sh.redirect": "ansiblue",
    "sh.comment": "ansibrightblack italic",
    "sh.prose": "italic",
}

BUILTINS_TEXT = """
. : [ alias bg bind break builtin caller cd command compgen complete compopt continue declare
dirs disown echo enable eval exec exit export false fc fg getopts hash help history jobs kill
let local logout mapfile popd printf pushd pwd read readarray readonly return set shift shopt
source suspend test times trap true type typeset ulimit umask unalias unset wait ai
if then else elif fi case esac for select while until do done in function time coproc { } !
[[ ]]"""
BUILTINS = frozenset(BUILTINS_TEXT.split())

STRINGS = {"string": "sh.string", "raw_string": "sh.string", "ansi_c_string": "sh.string",
           "translated_string": "sh.string", "heredoc_body": "sh.string",
           "heredoc_start": "sh.string", "heredoc_end": "sh.string"}
VARIABLES = {"simple_expansion": "sh.var", "expansion": "sh.var", "variable_name": "sh.var",
             "special_variable_name": "sh.var"}
OPERATORS = frozenset({"|", "|&", "&&", "||", ";", ";;", "&", "$(", ")", "(", "`", "<(", ">(",
                       "{", "}", "!"})
REDIRECTS = frozenset({"file_redirect", "heredoc_redirect", "herestring_redirect"})

NamesSource = Callable[[], tuple[frozenset[str], str | None, str]]  # (names, PATH, cwd)


class CommandNames:
    """Does a command word name something bash would run?"""

    def __init__(self) -> None:
        self._path: str | None = None
        self._on_path: dict[str, bool] = {}

    def exists(self, word: str, names: frozenset[str], path: str | None, cwd: str) -> bool:
        if word in BUILTINS or word in names:
            return True
        if "/" in word:
            target = os.path.join(cwd, os.path.expanduser(word))
            return os.path.isfile(target) and os.access(target, os.X_OK)
        if path != self._path:
            self._path, self._on_path = path, {}
        known = self._on_path.get(word)
        if known is None:
            known = shutil.which(word, path=path) is not None
            if len(self._on_path) > 4096:
                self._on_path.clear()
            self._on_path[word] = known
        return known


def _char_offsets(text: str, data: bytes) -> list[int] | None:
    """byte offset → character offset (None when they are the same: ASCII)."""
    if len(data) == len(text):
        return None
    table = [0] * (len(data) + 1)
    at = 0
    for index, char in enumerate(text):
        size = len(char.encode("utf-8", "surrogateescape"))
        for k in range(size):
            table[at + k] = index
        at += size
    table[at] = len(text)
    return table


def classify(text: str, exists: Callable[[str], bool]) -> list[str]:
    """One style class per character of ``text`` ("" = default)."""
    styles = [""] * len(text)
    if is_ai_line(text.split("\n", 1)[0]):
        return ["class:sh.prose"] * len(text)
    from swebash.bashparse import parse

    data = text.encode("utf-8", "surrogateescape")
    table = _char_offsets(text, data)

    def paint(start: int, end: int, style: str) -> None:
        if table is not None:
            start, end = table[min(start, len(data))], table[min(end, len(data))]
        for i in range(start, min(end, len(styles))):
            styles[i] = "class:" + style

    stack = [parse(text).root_node]
    while stack:
        node = stack.pop()
        kind = node.type
        if kind == "command_name":
            word = (node.text or b"").decode("utf-8", "replace")
            plain_word = node.child_count == 1 and node.children[0].type == "word"
            if plain_word and not any(c in word for c in "\\'\"$`"):
                paint(node.start_byte, node.end_byte,
                      "sh.command" if exists(word) else "sh.unknown")
                continue
        elif kind == "comment":
            paint(node.start_byte, node.end_byte, "sh.comment")
            continue
        elif kind in STRINGS:
            paint(node.start_byte, node.end_byte, STRINGS[kind])
        elif kind in VARIABLES:
            paint(node.start_byte, node.end_byte, VARIABLES[kind])
        elif kind in REDIRECTS:
            for child in node.children:
                if not child.is_named or child.type == "file_descriptor":
                    paint(child.start_byte, child.end_byte, "sh.redirect")
        elif not node.is_named:
            if kind in OPERATORS:
                paint(node.start_byte, node.end_byte, "sh.op")
            elif kind.isalpha() or kind in ("[[", "]]"):
                paint(node.start_byte, node.end_byte, "sh.keyword")
            continue
        stack.extend(node.children)
    return styles


class ShellLexer(Lexer):
    def __init__(self, source: NamesSource) -> None:
        self.source = source
        self.names = CommandNames()
        self._text: str | None = None
        self._lines: list[StyleAndTextTuples] = []

    def fragments(self, text: str) -> list[StyleAndTextTuples]:
        if text != self._text:
            names, path, cwd = self.source()
            try:
                styles = classify(text, lambda w: self.names.exists(w, names, path, cwd))
            except Exception:  # colouring must never break typing
                styles = [""] * len(text)
            self._lines = _split(text, styles)
            self._text = text
        return self._lines

    def lex_document(self, document: Document) -> Callable[[int], StyleAndTextTuples]:
        lines = self.fragments(document.text)

        def get_line(number: int) -> StyleAndTextTuples:
            return lines[number] if 0 <= number < len(lines) else []

        return get_line


def _split(text: str, styles: list[str]) -> list[StyleAndTextTuples]:
    lines: list[StyleAndTextTuples] = [[]]
    start = 0
    for i in range(1, len(text) + 1):
        if i == len(text) or styles[i] != styles[start] or text[i] == "\n" or \
                text[i - 1] == "\n":
            chunk = text[start:i]
            if chunk == "\n":
                lines.append([])
            elif chunk:
                lines[-1].append((styles[start], chunk))
            start = i
    return lines
