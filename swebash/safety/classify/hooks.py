"""Program-specific checks the grammar cannot express, by the name a spec gives in ``hook``.

Each hook reads the parsed command (``parser.Parsed``) — options with their values, operands
with their roles — and adds findings. Larger families live in their own modules (sed and awk
scripts, find expressions, URLs, git, SQL, cloud verbs); this table joins them.
"""

from __future__ import annotations

from collections.abc import Callable

from swebash.safety.classify import (
    builtins,
    hooks_admin,
    hooks_cloud,
    hooks_core,
    hooks_db,
    hooks_dev,
    hooks_files,
    hooks_git,
    hooks_launch,
    hooks_misc,
    hooks_net,
    hooks_outside,
    hooks_sockets,
    hooks_system,
    hooks_text,
    processes,
)
from swebash.safety.classify.grammar import Spec
from swebash.safety.classify.model import Findings, Rule
from swebash.safety.classify.parser import Parsed

Hook = Callable[[Findings, Parsed, int], None]
Prep = Callable[[Spec, list[str], list[bool]], tuple[list[str], list[bool]]]


def legacy(rule: Rule) -> Hook:
    """A builtin's rule written against argv (``builtins.py``), run on the parsed command."""
    def hook(f: Findings, parsed: Parsed, depth: int) -> None:
        rule(f, parsed.name, parsed.argv, parsed.dynamic, depth)
    return hook


HOOKS: dict[str, Hook] = {
    **hooks_core.HOOKS, **hooks_text.HOOKS, **hooks_files.HOOKS, **hooks_git.HOOKS,
    **hooks_net.HOOKS, **hooks_dev.HOOKS, **hooks_cloud.HOOKS,
    **hooks_system.HOOKS, **hooks_misc.HOOKS,
    **hooks_db.HOOKS, **hooks_launch.HOOKS, **processes.HOOKS,
    **hooks_admin.HOOKS, **hooks_outside.HOOKS, **hooks_sockets.HOOKS,
    **{name: legacy(rule) for name, rule in builtins.BUILTIN_RULES.items()},
}
PREPS: dict[str, Prep] = {"tar": hooks_text.tar_prep}
