"""The classifier's data: a word as bash would pass it, and the findings of one classification.

Every other safety module imports from here and nothing here imports them, so the walker
(``commands.py``), the dispatcher (``rules.py``), the wrapper table (``wrappers.py``) and the
per-program rules form a tree, not a cycle. The two places where a rule must classify more
text — a ``bash -c`` string, the command ``xargs`` or ``find -exec`` runs — go through the
callbacks the walker stores in ``Findings`` (``nested`` and ``judge``).
"""

from __future__ import annotations

import functools
import os
import re
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from swebash.api import Verdict
from swebash.safety.paths import expand, working_tree

MAX_DEPTH = 8  # nested `bash -c` / eval strings
BUDGET_SECONDS = 0.5
MAX_REASON = 100  # a classification that takes longer fails closed


class OverBudget(Exception):
    """The input is too big, too deep or too slow to classify: the caller fails closed."""


@dataclass(frozen=True)
class Word:
    text: str  # the static value (the source text when dynamic)
    dynamic: bool  # contains an expansion bash would substitute at run time
    source: str  # as written


def _never_nested(code: str, f: Findings, depth: int) -> None:
    f.ask("runs a nested command string")


def _never_judge(f: Findings, argv: list[str], dynamic: list[bool], depth: int) -> None:
    f.ask("runs another command")


@dataclass
class Findings:
    """What the walk found: the judgement so far, each simple command's argv and the state a
    later part of the command depends on (working directories, tainted variables)."""

    cwd: str
    home: str
    decision: Literal["allow", "ask", "deny"] = "allow"
    dangerous: bool = False
    # dangerous for what the classifier knows a part does, not merely because it does not know
    # a program, option or sub-command; a user's rule may teach the unknown, never lift this
    known_dangerous: bool = False
    reasons: list[str] = field(default_factory=list)
    commands: list[list[str]] = field(default_factory=list)
    # `cd x && cat y`: every directory a later path may be relative to; None once unknowable
    cwds: list[str] | None = None
    # a variable got a value the classifier cannot vouch for (read, mapfile, $(…) …)
    tainted: bool = False
    # arithmetic or indirection that runs code hidden in a tainted variable's value
    evaluates: list[str] = field(default_factory=list)
    functions: set[str] = field(default_factory=set)
    calls: dict[str, set[str]] = field(default_factory=dict)  # function → commands it runs
    verdicts: dict[tuple[str, str], Verdict] = field(default_factory=dict)  # read_path memo
    # where each read lands (``read_place``), per (path, cwd): the files do not change while
    # one line is judged, and a long pipeline reads the same ones again
    places: dict[tuple[str, str], tuple[str, bool] | None] = field(default_factory=dict)
    # loop variables over static words (`for f in src/*.py`): the values they take
    bound: dict[str, list[str]] = field(default_factory=dict)
    # facts one command leaves for later ones (`git remote add evil …; git push evil`)
    notes: dict[str, set[str]] = field(default_factory=dict)
    lead: int = 0  # how many reasons at the front are dangerous ones
    known_lead: int = 0  # how many of those, at the very front, are known to be dangerous
    # for rules.toml: how many asks each command's own rule raised, and asks raised outside
    # any command (a redirect, an assignment, a wrapper's option), which no rule can lift
    command_asks: list[int] = field(default_factory=list)
    window: int = 0
    loose: int = 0
    asks: int = 0
    deadline: float = field(default_factory=lambda: time.monotonic() + BUDGET_SECONDS)
    tree: str = ""  # the working tree (git root of cwd), found on first use
    # variables given a secret variable's value in this command (`x=$GITHUB_TOKEN`)
    secret_vars: set[str] = field(default_factory=set)
    # variables holding the PID of a job this command started (`p=$!`)
    own_pids: set[str] = field(default_factory=set)
    # streams: inside how many `$( )` the walk is (their output is held in memory), whether
    # some stage writes endlessly to stdout, and whether stdout goes to a file around a group,
    # a function or `exec` (the two together fill the disk)
    capturing: int = 0
    endless_stdout: bool = False
    stdout_to_file: bool = False
    # the argv of the pipeline stage feeding this one (`find … | xargs grep`), when known
    feed: list[str] | None = None
    # real paths outside the working tree that the command is asked about writing
    writes_outside: list[str] = field(default_factory=list)
    # how many of ``commands`` the per-line families (``lines.py``) have looked at
    flowed: int = 0
    feed_kind: Callable[[Findings, list[str]], str] = lambda f, argv: "unknown"
    nested: Callable[[str, Findings, int], None] = _never_nested
    judge: Callable[[Findings, list[str], list[bool], int], None] = _never_judge

    def __post_init__(self) -> None:
        if self.cwds is None:
            self.cwds = [self.cwd]

    def ask(self, reason: str, dangerous: bool = False) -> None:
        if self.decision == "allow":
            self.decision = "ask"
        self.note(reason, dangerous)

    def ask_unknown(self, reason: str) -> None:
        """A part the classifier does not model: what it does is unknown, so ``--yes`` must not
        run it (dangerous), but a rule the user writes may vouch for it."""
        if self.decision == "allow":
            self.decision = "ask"
        self.note(reason, True, unknown=True)

    def deny(self, reason: str) -> None:
        self.decision = "deny"
        self.note(reason, True)

    def record(self, argv: list[str]) -> int:
        self.commands.append(argv)
        self.command_asks.append(0)
        return len(self.commands) - 1

    def note(self, reason: str, dangerous: bool, *, unknown: bool = False) -> None:
        """Dangerous reasons lead, so the first reason shown is the one that matters; a reason
        is one short line whatever path or word it quotes."""
        if len(reason) > MAX_REASON:
            reason = reason[: MAX_REASON - 1] + "…"
        self.asks += 1
        if self.window == 0:
            self.loose += 1
        if dangerous and not unknown:
            self.known_dangerous = True
        if reason in self.reasons:
            at = self.reasons.index(reason)
            if not dangerous or at < (self.lead if unknown else self.known_lead):
                return
            self.reasons.remove(reason)
            self.lead -= at < self.lead
        if dangerous:
            self.dangerous = True
            # what is known to be dangerous leads; what is merely unknown comes next
            self.reasons.insert(self.lead if unknown else self.known_lead, reason)
            self.lead += 1
            self.known_lead += not unknown
        else:
            self.reasons.append(reason)

    def bound_values(self, source: str) -> list[str] | None:
        """The values of ``$f`` / ``"${f}"`` when ``f`` is a loop variable over static
        words; None for any other run-time word."""
        match = BOUND_WORD.fullmatch(source)
        return self.bound.get(match.group(1)) if match else None

    def work_tree(self) -> str:
        if not self.tree:
            self.tree = working_tree(self.cwd)
        return self.tree

    def tick(self) -> None:
        if time.monotonic() > self.deadline:
            raise OverBudget("the command is too complex to check in time")

    def change_dir(self, target: str | None) -> None:
        """A ``cd``: later relative paths may be relative to ``target`` (None: unknown)."""
        if target is None or self.cwds is None:
            self.cwds = None
            return
        self.cwds.append(expand(target, self.cwds[-1], self.home))


def text(node: Any) -> str:
    raw: bytes = node.text
    return raw.decode("utf-8", "replace")


def show(argv: Sequence[str], limit: int = 40) -> str:
    """A short label for a command in a reason: never the whole of a long command line."""
    line = " ".join(argv)
    return line if len(line) <= limit else line[: limit - 1] + "…"


BOUND_WORD = re.compile(r'"?\$\{?([A-Za-z_]\w*)\}?"?')
VERSIONED = re.compile(r"^(python|pip)\d+(\.\d+)*$")


@functools.lru_cache(maxsize=1024)
def base(name: str) -> str:
    """The program a command word names (``/usr/bin/python3.11`` → ``python``): a pure
    function of the word, called for every word of every command, so it is memoised."""
    if "/" in name:
        name = os.path.basename(name.rstrip("/")) or name
    if name[-1:].isdigit():
        match = VERSIONED.match(name)
        if match:
            return match.group(1)
    if name.startswith("mkfs."):
        return "mkfs"
    return name


def positional(argv: Sequence[str]) -> list[str]:
    out: list[str] = []
    ended = False
    for arg in argv:
        if ended or not arg.startswith("-") or arg == "-":
            out.append(arg)
        elif arg == "--":
            ended = True
    return out


def flags(argv: Sequence[str]) -> set[str]:
    """Short flag letters (from clusters like -rf) and long options."""
    found: set[str] = set()
    for arg in argv:
        if arg == "--":
            break
        if arg.startswith("--"):
            found.add(arg.split("=", 1)[0])
        elif arg.startswith("-") and len(arg) > 1:
            found.update("-" + ch for ch in arg[1:])
    return found


def long_option(arg: str, *names: str) -> bool:
    """``arg`` is one of the GNU long ``names``, maybe abbreviated (``--comp`` for
    ``--compress-program``) or with an ``=value``."""
    if not arg.startswith("--") or len(arg) < 3:
        return False
    head = arg.split("=", 1)[0]
    return any((len(head) >= 4 and name.startswith(head)) or head == name for name in names)


Rule = Callable[[Findings, str, list[str], list[bool], int], None]
