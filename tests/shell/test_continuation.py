"""needs_more_input: would bash show its continuation prompt? Nothing may be executed."""

from __future__ import annotations

from pathlib import Path

import pytest

from swebash.shell.continuation import needs_more_input


@pytest.mark.parametrize("text", [
    "(", "{", "echo hi ||", "case $x in", "while true; do", "until false; do echo",
    "echo $(", "echo `date", "cat <<-EOF\n\tbody", "function f {", "f() {\n  echo a",
    "if true; then\n  echo a\nelse", "echo \"a\nb", "arr=(a b",
])
def test_incomplete(text: str) -> None:
    assert needs_more_input(text) is True


@pytest.mark.parametrize("text", [
    "echo hi # it's a comment", "echo \\\\", "echo 'a;b' \"c|d\"", "case $x in a) ;; esac",
    "cat <<-EOF\n\tbody\n\tEOF", "echo $((1 + 2))", "fi", "echo done", "(echo sub)",
    "   ", "if then fi fi",
])
def test_complete_or_plain_syntax_error(text: str) -> None:
    assert needs_more_input(text) is False


def test_nothing_is_executed(tmp_path: Path) -> None:
    target = tmp_path / "created"
    assert needs_more_input(f"touch {target}; if true; then") is True
    assert needs_more_input(f"touch {target}; echo $(") is True
    assert not target.exists()
