"""DefaultGate: the one safety gate every tool call passes (implements ``SafetyGate``).

Commands: the parse-based classifier, then the user's ``[policy]`` rules from config.toml —
command prefixes matched on each sub-command's normalised argv. ``deny`` wins anywhere; ``ask``
anywhere forces a question; ``allow`` applies only when EVERY sub-command matches an allow rule,
and never turns a dangerous verdict into ``allow``. Paths: the path guard.
"""

from __future__ import annotations

import shlex

from swebash.api import Verdict
from swebash.config import PolicyConfig
from swebash.safety.commands import classify
from swebash.safety.paths import check_path


def parse_rules(rules: tuple[str, ...]) -> list[list[str]]:
    parsed = []
    for rule in rules:
        try:
            words = shlex.split(rule)
        except ValueError:
            words = rule.split()
        if words:
            parsed.append(words)
    return parsed


def matching(argv: list[str], rules: list[list[str]]) -> list[str] | None:
    return next((rule for rule in rules if argv[: len(rule)] == rule), None)


class DefaultGate:
    def __init__(self, policy: PolicyConfig | None = None, *, home: str) -> None:
        policy = policy or PolicyConfig()
        self.home = home
        self.allow = parse_rules(policy.allow)
        self.ask = parse_rules(policy.ask)
        self.deny = parse_rules(policy.deny)

    def check_command(self, command: str, cwd: str) -> Verdict:
        found = classify(command, cwd, self.home)
        reasons = list(found.reasons)
        for argv in found.commands:
            rule = matching(argv, self.deny)
            if rule:
                return Verdict("deny", True, (f"denied by your policy rule '{' '.join(rule)}'",
                                              *reasons))
        decision = found.decision
        asked = False
        for argv in found.commands:
            rule = matching(argv, self.ask)
            if rule:
                asked = True
                reasons.append(f"your policy asks before '{' '.join(rule)}'")
                if decision == "allow":
                    decision = "ask"
        if (decision == "ask" and not asked and not found.dangerous and found.commands
                and all(matching(argv, self.allow) for argv in found.commands)):
            return Verdict("allow", False, ("allowed by your policy rules",))
        return Verdict(decision, found.dangerous, tuple(reasons))

    def check_path(self, path: str, cwd: str, *, write: bool) -> Verdict:
        return check_path(path, cwd, self.home, write=write)
