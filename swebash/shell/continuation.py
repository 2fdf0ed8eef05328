"""Would bash ask for another line? (unclosed quote, trailing ``\\``, ``if`` without ``fi``,
open function body, here-doc without its terminator, trailing ``|``/``&&``…)

Most lines are plainly complete, so a character scan answers first. Only lines with quotes,
brackets, keywords or operators go to tree-sitter-bash (loaded on first need); if it reports an
error, ``bash -n`` decides between "incomplete" (bash would show PS2) and "a syntax error"
(submit it, and bash prints its own message). Nothing is ever executed.
"""

from __future__ import annotations

import re
import subprocess

SPECIAL = re.compile(r"""['"\\`$(){}|&<]|(^|[\s;])(if|then|else|elif|for|while|until|do|case|
                         |select|function|coproc)(\s|$)""", re.X)


def _tree_has_error(text: str) -> bool:
    from swebash.bashparse import parse

    return bool(parse(text).root_node.has_error)


def trailing_backslash(text: str) -> bool:
    stripped = text.rstrip("\n")
    count = len(stripped) - len(stripped.rstrip("\\"))
    return count % 2 == 1


def bash_says_incomplete(text: str) -> bool:
    try:
        result = subprocess.run(["bash", "-n"], input=text + "\n", capture_output=True,
                                text=True, timeout=2, check=False)
    except (OSError, subprocess.TimeoutExpired):
        return False
    err = result.stderr
    return ("unexpected end of file" in err or "unexpected EOF" in err
            or "here-document at line" in err)


def needs_more_input(text: str) -> bool:
    if not text.strip():
        return False
    from swebash.router import is_ai_line

    if is_ai_line(text.split("\n", 1)[0]):
        # A `?`/`??` line is prose: quotes, `#` and `<<` are text. Only a trailing `\`
        # continues a long question (the same key bash users already know).
        return trailing_backslash(text)
    if trailing_backslash(text):
        return True
    if not SPECIAL.search(text):
        return False
    if not _tree_has_error(text):
        return False
    return bash_says_incomplete(text)
