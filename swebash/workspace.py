"""Which project a directory belongs to: the nearest ancestor holding ``.git``.

One answer for everyone who asks — the sandbox (the tree it lets a command write), the approval
rules (what "this project" means) and the project instructions (where AGENTS.md files start).
A ``.git`` file (worktrees, submodules) counts like a directory. The path is taken as given;
callers that need symlinks resolved pass ``os.path.realpath(...)``.
"""

from __future__ import annotations

import os


def git_root(path: str) -> str | None:
    """The nearest directory at or above ``path`` that holds ``.git``, else None."""
    probe = path
    while True:
        if os.path.lexists(os.path.join(probe, ".git")):
            return probe
        parent = os.path.dirname(probe)
        if parent == probe:
            return None
        probe = parent
