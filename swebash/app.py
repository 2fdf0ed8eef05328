"""Composition root: the only module that names concrete classes.

The shell side calls ``run_ai_line`` for `?`/`??` lines in non-interactive modes; it is imported
lazily so that nothing provider-related loads before it is needed.
"""

from __future__ import annotations

import sys


def run_ai_line(line: str, *, stdin_text: str | None = None, yes: bool = False,
                yes_dangerous: bool = False) -> int:
    """Answer one `? …` / `?? …` line non-interactively; return the exit status."""
    # Wired to the AI engine by the AI-in-the-shell work; until then a clear one-line refusal.
    print("swebash: AI mode is not available yet", file=sys.stderr)
    return 2
