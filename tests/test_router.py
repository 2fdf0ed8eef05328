from __future__ import annotations

import pytest

from swebash.router import Ask, Builtin, Empty, ShellLine, Translate, route


@pytest.mark.parametrize("line,expected", [
    ("? why did that fail", Ask("why did that fail")),
    ("?", Ask("")),
    ("  ?  spaced  ", Ask("spaced")),
    ("?? find big files", Translate("find big files")),
    ("??", Translate("")),
    ("?.txt", ShellLine("?.txt")),
    ("ls ?.txt", ShellLine("ls ?.txt")),
    ("??x", ShellLine("??x")),
    ("ai status", Builtin("ai status")),
    ("ai", Builtin("ai")),
    ("aix", ShellLine("aix")),
    ("echo ? hi", ShellLine("echo ? hi")),
    (" ls -la", ShellLine(" ls -la")),
    ("", Empty("")),
    ("   ", Empty("   ")),
    ("?\tq", Ask("q")),
])
def test_route(line: str, expected: object) -> None:
    assert route(line) == expected
