"""Approval rules in ``$XDG_CONFIG_HOME/swebash/rules.toml``: parse-based prefix rules.

    [[rule]]
    prefix = ["make", "test"]          # the start of one simple command's argv
    decision = "allow"                 # "allow" | "ask" | "deny"
    project = "/home/me/src/app"       # optional: only under this directory
    match = ["make test", "make test -k unit"]      # optional examples, checked at load
    not_match = ["make install"]

A rule applies to ONE simple command, after wrappers are peeled (``timeout 60 make test`` is
``make test``); a chain or pipeline is allowed only when every part is allowed on its own (by
the classifier or a rule); the strictest decision wins and "deny" beats everything; "allow"
never lifts a verdict the classifier knows to be dangerous — it vouches only for programs,
options and sub-commands the classifier does not know (``Verdict.unknown``). A rule whose
prefix is only a shell, interpreter or wrapper (``bash``, ``python3 -c``, ``env``, ``sudo``)
would allow any program: it is refused at load, as is a rule whose examples fail; each
refusal is one line in ``RuleSet.notes``.

``add_approval`` writes the narrowest rule covering a command (the program and its leading
sub-command words, never a bare interpreter), atomically.
"""

from __future__ import annotations

import os
import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from swebash.durable import rewrite_atomic
from swebash.safety.classify.model import base
from swebash.safety.classify.tables import RUNS_ANYTHING
from swebash.safety.commands import classify
from swebash.workspace import git_root

Decision = Literal["allow", "ask", "deny"]
DECISIONS: tuple[Decision, ...] = ("allow", "ask", "deny")
KEYS = frozenset({"prefix", "decision", "project", "match", "not_match", "comment"})
MAX_PREFIX_WORDS = 3
SYSTEM_BIN = frozenset({"/bin", "/usr/bin", "/usr/local/bin", "/sbin", "/usr/sbin",
                        "/usr/local/sbin"})


@dataclass(frozen=True)
class Rule:
    number: int  # 1-based position in the file (what `ai rules rm N` takes)
    prefix: tuple[str, ...]
    decision: Decision
    project: str | None = None

    def applies(self, argv: list[str], cwd: str) -> bool:
        if self.project is not None and not under(cwd, self.project):
            return False
        if len(argv) < len(self.prefix) or not argv:
            return False
        return self.program_matches(argv[0], cwd) and \
            list(argv[1:len(self.prefix)]) == list(self.prefix[1:])

    def program_matches(self, program: str, cwd: str) -> bool:
        """deny/ask match the program however it is spelled (`/bin/rm` is `rm`); allow is
        strict: `make` allows the `make` on PATH, not `./make`, and `./run.sh` allows only
        that file."""
        want = self.prefix[0]
        if self.decision != "allow":
            return base(program) == base(want)
        if "/" in want:
            here = os.path.normpath(os.path.join(cwd, os.path.expanduser(program)))
            there = os.path.normpath(os.path.join(self.project or cwd,
                                                  os.path.expanduser(want)))
            return here == there
        return program == want or (os.path.dirname(program) in SYSTEM_BIN
                                   and os.path.basename(program) == want)

    def describe(self) -> str:
        scope = f" (project {self.project})" if self.project else ""
        return f"{self.number}. {self.decision} {' '.join(self.prefix)}{scope}"


@dataclass(frozen=True)
class RuleSet:
    rules: tuple[Rule, ...] = ()
    notes: tuple[str, ...] = ()


def under(path: str, root: str) -> bool:
    path, root = os.path.realpath(path), os.path.realpath(os.path.expanduser(root))
    return path == root or path.startswith(root.rstrip("/") + "/")


def only_runs_anything(prefix: tuple[str, ...]) -> bool:
    """``bash``, ``python3 -c``, ``env FOO=1``: nothing in the prefix names what will run."""
    return base(prefix[0]) in RUNS_ANYTHING and all(
        w.startswith("-") or "=" in w for w in prefix[1:])


class NotText(ValueError):
    """rules.toml holds bytes that are not UTF-8: it is never rewritten then (a rewrite would
    have to guess what they meant)."""


def rules_text(path: Path) -> str:
    """The file's text; FileNotFoundError, OSError or NotText (with a one-line message)."""
    data = path.read_bytes()
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise NotText(f"{path} is not UTF-8 text (byte 0x{data[exc.start]:02x} at offset "
                      f"{exc.start}); it was left as it is — fix it by hand") from None


def load_rules(path: Path, *, home: str) -> RuleSet:
    """Read and check the rules file; a missing file is an empty rule set. Never raises."""
    try:
        data = tomllib.loads(rules_text(path).removeprefix("\ufeff"))
    except FileNotFoundError:
        return RuleSet()
    except NotText as exc:
        return RuleSet((), (f"{exc}; no rules loaded",))
    except (OSError, tomllib.TOMLDecodeError) as exc:
        return RuleSet((), (f"{path}: {exc}; no rules loaded",))
    tables = data.get("rule", [])
    if not isinstance(tables, list):
        return RuleSet((), (f"{path}: 'rule' must be an array of tables ([[rule]])",))
    rules: list[Rule] = []
    notes: list[str] = []
    for number, table in enumerate(tables, 1):
        rule, problem = build_rule(number, table)
        if rule is not None and problem is None:
            problem = check_examples(rule, table, home)
        if problem:
            notes.append(f"{path.name} rule {number} ({show_prefix(table)}): {problem}; ignored")
        elif rule is not None:
            rules.append(rule)
    return RuleSet(tuple(rules), tuple(notes))


def show_prefix(table: object) -> str:
    prefix = table.get("prefix") if isinstance(table, dict) else None
    if isinstance(prefix, list):
        return "prefix " + " ".join(str(w) for w in prefix)[:40]
    return "no prefix"


def build_rule(number: int, table: object) -> tuple[Rule | None, str | None]:
    if not isinstance(table, dict):
        return None, "not a table"
    unknown = set(table) - KEYS
    if unknown:
        return None, f"unknown key {sorted(unknown)[0]}"
    prefix = table.get("prefix")
    if not (isinstance(prefix, list) and prefix and all(isinstance(w, str) and w
                                                        for w in prefix)):
        return None, "prefix must be a non-empty list of words"
    decision = table.get("decision")
    if decision not in DECISIONS:
        return None, 'decision must be "allow", "ask" or "deny"'
    project = table.get("project")
    if project is not None and not isinstance(project, str):
        return None, "project must be a path"
    words = tuple(prefix)
    if decision == "allow" and only_runs_anything(words):
        return None, f"'{words[0]}' alone runs anything, so it cannot be allowed"
    return Rule(number, words, decision, project), None


def check_examples(rule: Rule, table: dict[str, object], home: str) -> str | None:
    for key, want in (("match", True), ("not_match", False)):
        examples = table.get(key, [])
        if not isinstance(examples, list) or not all(isinstance(e, str) for e in examples):
            return f"{key} must be a list of commands"
        for example in examples:
            assert isinstance(example, str)
            commands = classify(example, rule.project or os.getcwd(), home).commands
            cwd = rule.project or os.getcwd()
            hits = [rule.applies(argv, cwd) for argv in commands]
            if want and not (hits and all(hits)):
                return f"example '{example[:40]}' does not match"
            if not want and any(hits):
                return f"example '{example[:40]}' matches but should not"
    return None


# --------------------------------------------------------------------------- writing


def narrowest_prefix(argv: list[str]) -> list[str] | None:
    """The program and its leading sub-command words (``npm run build``); None when that would
    only name an interpreter or wrapper (``python3 -c …``)."""
    prefix = [argv[0]]
    for word in argv[1:]:
        if word.startswith("-") or len(prefix) >= MAX_PREFIX_WORDS or "{stdin}" in word:
            break
        prefix.append(word)
    if only_runs_anything(tuple(prefix)):
        return None
    return prefix


def project_root(cwd: str) -> str:
    here = os.path.realpath(cwd)
    return git_root(here) or here


def add_approval(command: str, scope: Literal["project", "always"], cwd: str,
                 rules_file: Path, *, home: str | None = None) -> str:
    """Write allow rules covering every part of ``command`` the classifier asked about; returns
    one line for the user. Commands known to be dangerous and bare interpreters get no rule."""
    found = classify(command, cwd, home or os.path.expanduser("~"))
    if found.known_dangerous or found.decision == "deny":
        return "not saved: a dangerous command cannot be approved by a rule"
    if found.loose:
        return "not saved: part of this command (a redirect or assignment) needs a question"
    wanted: list[list[str]] = []
    for argv, asks in zip(found.commands, found.command_asks, strict=True):
        if not asks:
            continue
        prefix = narrowest_prefix(argv)
        if prefix is None:
            return f"not saved: '{base(argv[0])}' runs anything, so it is never approved " \
                   "for good"
        if prefix not in wanted:
            wanted.append(prefix)
    if not wanted:
        return "nothing to save: the command is already allowed"
    project = project_root(cwd) if scope == "project" else None
    blocks = [render_rule(prefix, project) for prefix in wanted]
    append_rules(rules_file, blocks)
    where = f" in {project}" if project else ""
    return "saved: allow " + "; ".join(" ".join(p) for p in wanted) + where


def toml_string(value: str) -> str:
    escaped = value.replace("\\", "\\\\").replace('"', '\\"')
    escaped = "".join(c if c.isprintable() else f"\\u{ord(c):04x}" for c in escaped)
    return f'"{escaped}"'


def render_rule(prefix: list[str], project: str | None) -> str:
    lines = ["[[rule]]", f"prefix = [{', '.join(toml_string(w) for w in prefix)}]",
             'decision = "allow"']
    if project:
        lines.append(f"project = {toml_string(project)}")
    return "\n".join(lines) + "\n"


def split_blocks(text: str) -> tuple[str, list[str]]:
    """The text before the first ``[[rule]]`` and each rule's block."""
    head: list[str] = []
    blocks: list[list[str]] = []
    for line in text.splitlines(keepends=True):
        if line.strip() == "[[rule]]":
            blocks.append([line])
        elif blocks:
            blocks[-1].append(line)
        else:
            head.append(line)
    return "".join(head), ["".join(b) for b in blocks]


def write_atomically(path: Path, text: str) -> None:
    """The new rules, whole or not at all; a symlinked rules.toml (stow, chezmoi) stays a link
    and its target gets the text (durable.rewrite_atomic)."""
    rewrite_atomic(path, text.encode("utf-8"))


def append_rules(path: Path, blocks: list[str]) -> None:
    try:
        text = rules_text(path)
    except FileNotFoundError:
        text = "# swebash approval rules (see README: rules.toml)\n"
    if text and not text.endswith("\n"):
        text += "\n"
    write_atomically(path, text + "".join("\n" + b for b in blocks))


def list_rules(path: Path, *, home: str) -> RuleSet:
    return load_rules(path, home=home)


def remove_rule(path: Path, number: int) -> str:
    try:
        text = rules_text(path)
    except FileNotFoundError:
        return "no rules file"
    except NotText as exc:
        return f"not removed: {exc}"
    except OSError as exc:
        return f"cannot read {path}: {exc.strerror}"
    head, blocks = split_blocks(text)
    if not 1 <= number <= len(blocks):
        return f"no rule {number} (there are {len(blocks)})"
    removed = blocks.pop(number - 1)
    try:
        write_atomically(path, head + "".join(blocks))
    except OSError as exc:
        return f"cannot write {path}: {exc.strerror or exc}"
    first = next((ln for ln in removed.splitlines() if ln.strip().startswith("prefix")), "")
    return f"removed rule {number}: {first.strip()}"
