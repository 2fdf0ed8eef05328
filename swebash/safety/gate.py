"""DefaultGate: the one safety gate every tool call passes (implements ``SafetyGate``).

Commands: the parse-based classifier, then the user's rules — ``rules.toml`` (``rulesfile.py``)
and the older ``[policy]`` prefixes from config.toml, both matched on each simple command's
argv after wrappers are peeled. "deny" wins anywhere; "ask" anywhere forces a question;
"allow" lifts a question only when EVERY simple command is either read-only on its own or
matched by an allow rule, nothing outside a command asked (a redirect, an assignment), and
the verdict is not dangerous. Paths: the file boundary (``boundary.py``), the one policy the
file tools are handed too: the path guard for reads, the sandbox's write policy for writes.

rules.toml is re-read when its modification time changes, so a rule written by the ``a`` key
applies to the next call.
"""

from __future__ import annotations

import shlex
from pathlib import Path
from typing import Literal

from swebash.api import Verdict
from swebash.config import PolicyConfig
from swebash.safety.boundary import FileBoundary
from swebash.safety.commands import classify
from swebash.safety.rulesfile import Decision, NotText, Rule, RuleSet, add_approval, load_rules


def policy_rules(policy: PolicyConfig) -> list[Rule]:
    rules: list[Rule] = []
    for decision, lines in (("deny", policy.deny), ("ask", policy.ask),
                            ("allow", policy.allow)):
        for line in lines:
            try:
                words = shlex.split(line)
            except ValueError:
                words = line.split()
            if words:
                rules.append(Rule(0, tuple(words), decision_of(decision)))
    return rules


def decision_of(value: str) -> Decision:
    return "deny" if value == "deny" else "ask" if value == "ask" else "allow"


class DefaultGate:
    def __init__(self, policy: PolicyConfig | None = None, *, home: str,
                 rules_file: Path | None = None, files: FileBoundary | None = None) -> None:
        self.home = home
        self.files = files or FileBoundary(
            home, protected=(str(rules_file.parent),) if rules_file is not None else ())
        self.policy = policy_rules(policy or PolicyConfig())
        self.rules_file = rules_file
        self._stamp: tuple[float, int] | None = None
        self._loaded = RuleSet()

    # ------------------------------------------------------------------ rules.toml

    def rule_set(self) -> RuleSet:
        if self.rules_file is None:
            return RuleSet()
        try:
            st = self.rules_file.stat()
            stamp: tuple[float, int] | None = (st.st_mtime, st.st_size)
        except OSError:
            stamp = None
        if stamp != self._stamp:
            self._stamp = stamp
            self._loaded = load_rules(self.rules_file, home=self.home) if stamp else RuleSet()
        return self._loaded

    def notes(self) -> tuple[str, ...]:
        """One line per refused or broken rule (for `ai status` and `policy check`)."""
        return self.rule_set().notes

    def approve(self, command: str, scope: Literal["project", "always"], cwd: str) -> str:
        if self.rules_file is None:
            return "not saved: there is no rules file"
        try:
            return add_approval(command, scope, cwd, self.rules_file, home=self.home)
        except NotText as exc:
            return f"not saved: {exc}"
        except OSError as exc:
            return f"not saved: cannot write {self.rules_file}: {exc.strerror or exc}"

    # ------------------------------------------------------------------ SafetyGate

    def check_command(self, command: str, cwd: str) -> Verdict:
        found = classify(command, cwd, self.home)
        reasons = list(found.reasons)
        rules = [*self.policy, *self.rule_set().rules]
        matched = [[r for r in rules if r.applies(argv, cwd)] for argv in found.commands]
        for hits in matched:
            deny = next((r for r in hits if r.decision == "deny"), None)
            if deny is not None:
                return Verdict("deny", True, (f"denied by your rule: {label(deny)}", *reasons))
        if found.decision == "deny":
            return Verdict("deny", found.dangerous, tuple(reasons))
        decision = found.decision
        asked = [r for hits in matched for r in hits if r.decision == "ask"]
        if asked:
            reasons.append(f"your rule asks: {label(asked[0])}")
            return Verdict("ask", found.dangerous, tuple(reasons),
                           writes_outside=tuple(found.writes_outside),
                           unknown=found.dangerous and not found.known_dangerous)
        # a rule vouches for what the classifier does not know, never for what it knows
        if (decision == "ask" and not found.known_dangerous and not found.loose and found.commands
                and all(asks == 0 or any(r.decision == "allow" for r in hits)
                        for asks, hits in zip(found.command_asks, matched, strict=True))):
            used = next(r for hits in matched for r in hits if r.decision == "allow")
            return Verdict("allow", False, (f"allowed by your rule: {label(used)}",))
        return Verdict(decision, found.dangerous, tuple(reasons),
                       writes_outside=tuple(found.writes_outside) if decision == "ask" else (),
                       unknown=found.dangerous and not found.known_dangerous)

    def check_path(self, path: str, cwd: str, *, write: bool) -> Verdict:
        return self.files.check(path, cwd, write=write)


def label(rule: Rule) -> str:
    where = f"rules.toml #{rule.number}" if rule.number else "config [policy]"
    return f"{' '.join(rule.prefix)} ({where})"
