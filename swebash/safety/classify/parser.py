"""The one argument parser: (spec, argv) → the parsed command every rule reads.

It reads argv the way the program's own getopt would: clustered short flags (``-rf``),
attached and separate values (``-n5``, ``-n 5``, ``--max=5``, ``--max 5``), optional values
that only attach (``--color=auto``), GNU long-option abbreviations (``--comp`` for
``--compress-program``, ambiguous prefixes refused), ``--`` ending the options, options after
operands (GNU) or not (POSIX, wrappers), numeric options (``head -5``), prefix options
(``-Dx=1``), single-dash long options (``find -name``, ``java -version``), and a sub-command
table with global options before the verb — ``systemctl -p status stop x`` reads ``status``
as the value of ``-p`` and ``stop`` as the verb.

Nothing here judges: the parser only records what each word is. Whatever it cannot place — an
unknown option, an unknown verb, an operand the grammar has no room for, an option computed
at run time — is a problem, and a problem makes the command ask.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field

from swebash.safety.classify.grammar import Opt, Spec

# the word an optional value (``:?``) may take from the next word: a boot or similar offset
OFFSET = re.compile(r"^([+-]?\d+|all|[0-9a-f]{32}([+-]\d+)?)$")


@dataclass(frozen=True)
class Used:
    """One option as given: the spec's option, how it was spelled, its value."""

    opt: Opt
    spelled: str
    value: str | None = None
    dynamic: bool = False


@dataclass(frozen=True)
class Arg:
    text: str
    dynamic: bool
    role: str
    index: int  # position in argv


@dataclass
class Parsed:
    name: str
    argv: list[str]
    dynamic: list[bool]
    spec: Spec  # the deepest spec reached (the verb's)
    verbs: list[str] = field(default_factory=list)
    options: list[Used] = field(default_factory=list)
    operands: list[Arg] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)
    unknown_verb: str | None = None
    command: int | None = None  # argv index where an inner command starts (role x)
    ranges: list[tuple[int, int]] = field(default_factory=list)  # commands options carry
    marks: list[int] = field(default_factory=list)  # len(options) when each verb was read

    def has(self, *names: str) -> bool:
        return any(u.opt.name in names for u in self.options)

    def values(self, *names: str) -> list[str]:
        return [u.value for u in self.options if u.opt.name in names and u.value is not None]

    def before_verb(self) -> list[Used]:
        """The global options: those given before the first verb."""
        return self.options[:self.marks[0]] if self.marks else self.options

    def words(self, role: str) -> list[Arg]:
        return [a for a in self.operands if a.role == role]

    def after_verb(self) -> int:
        """The index in ``argv`` of the first word after the last verb (1 with none)."""
        verb = self.verbs[-1] if self.verbs else None
        return self.argv.index(verb) + 1 if verb is not None and verb in self.argv else 1


def split_words(words: list[str], takes_value: frozenset[str]) -> tuple[list[str], list[str]]:
    """(option names, operands) of words a grammar leaves raw: an option spelled as one of
    ``takes_value`` takes the next word as its value, which is neither."""
    options: list[str] = []
    operands: list[str] = []
    skip = False
    for word in words:
        if skip:
            skip = False
        elif word.startswith("-"):
            options.append(word.split("=", 1)[0])
            skip = word in takes_value
        else:
            operands.append(word)
    return options, operands


class Parser:
    def __init__(self, spec: Spec, argv: list[str], dynamic: list[bool], name: str,
                 shaped: Callable[[str], bool] = lambda word: False) -> None:
        self.shaped = shaped
        self.p = Parsed(name, argv, dynamic, spec)
        self.chain = [spec]  # specs whose options are accepted here (inheritance)
        self.argv, self.dynamic = argv, dynamic

    def run(self) -> Parsed:
        argv, dyn, p = self.argv, self.dynamic, self.p
        cur = p.spec
        ended = False
        seen_operand = False
        pending: list[tuple[str, bool, int]] = []
        i = 1
        while i < len(argv):
            word, is_dyn = argv[i], dyn[i]
            if cur.raw:
                pending.append((word, is_dyn, i))
                i += 1
                continue
            if not ended and not is_dyn and word == "--":
                ended = True
                i += 1
                continue
            if not ended and (cur.permute or not seen_operand) and looks_like_option(
                    word, is_dyn):
                if is_dyn and not static_head(word):
                    p.problems.append("an option computed at run time")
                    i += 1
                    continue
                i = self.option(cur, i)
                if p.options and p.options[-1].opt.last:
                    ended = True
                continue
            if cur.subs is not None:
                if is_dyn:
                    p.problems.append("a sub-command known only at run time")
                    return p
                sub = cur.subs.get(word)
                if sub is None:
                    p.unknown_verb = word
                    p.problems.append(f"unknown sub-command {word[:30]}")
                    return p
                p.verbs.append(word)
                p.marks.append(len(p.options))
                self.chain = [sub, *self.chain] if sub.inherits else [sub]
                cur = p.spec = sub
                ended, seen_operand, pending = False, False, []
                i += 1
                continue
            operand = cur.role(len(pending))
            if operand is not None and operand.role == "x":
                p.command = i
                break
            if is_dyn and cur.risky and not ended and not known_shape(word) and \
                    not self.shaped(word):
                p.problems.append("an argument known only at run time may be an option")
            pending.append((word, is_dyn, i))
            seen_operand = True
            i += 1
        if cur.subs is not None and not cur.verb_optional:
            p.problems.append("no sub-command")
        self.assign(cur, pending)
        return p

    def assign(self, cur: Spec, pending: list[tuple[str, bool, int]]) -> None:
        """Operand roles in order; a `*`/`+` role takes what the roles after it leave."""
        roles = cur.operands
        many = next((k for k, o in enumerate(roles) if o.many), None)
        tail = roles[many + 1:] if many is not None else ()
        keep = len(pending) - len(tail) if many is not None else len(pending)
        for k, (word, is_dyn, index) in enumerate(pending):
            if many is not None and k >= max(keep, many):
                role = tail[k - max(keep, many)].role
            elif many is not None and k >= many:
                role = roles[many].role
            elif k < len(roles):
                role = roles[k].role
            else:
                self.p.problems.append(f"unexpected argument {word[:30]}")
                continue
            self.p.operands.append(Arg(word, is_dyn, role, index))

    # ------------------------------------------------------------------ options

    def option(self, cur: Spec, i: int) -> int:
        word = self.argv[i]
        if cur.single or word.startswith("--"):
            return self.long(cur, i)
        if cur.numeric and word[1:].isdigit():
            return i + 1
        hit = self.prefix(word)
        if hit is not None:
            return self.take(hit, word[:len(hit.name)], word[len(hit.name):] or None, i,
                             attached=bool(word[len(hit.name):]))
        for j in range(1, len(word)):
            opt = self.find_short(word[j])
            if opt is None:
                self.p.problems.append(f"unknown option -{word[j]}")
                return i + 1
            rest = word[j + 1:]
            if opt.takes == 1:
                return self.take(opt, opt.name, rest or None, i, attached=bool(rest))
            if opt.takes == 2:
                self.p.options.append(Used(opt, opt.name, rest or None, self.dynamic[i]))
                return i + 1
            if opt.takes == 4:
                return self.maybe_next(opt, opt.name, rest or None, i)
            self.p.options.append(Used(opt, opt.name))
        return i + 1

    def long(self, cur: Spec, i: int) -> int:
        word = self.argv[i]
        body = word[2:] if word.startswith("--") else word[1:]
        head, eq, value = body.partition("=")
        opt, problem = self.find_long(head)
        if opt is None:
            hit = self.prefix(word)
            if hit is not None:
                rest = word[len(hit.name):]
                return self.take(hit, hit.name, rest or None, i, attached=bool(rest))
            self.p.problems.append(problem)
            return i + 1
        if opt.takes == 0:
            # a flag spelled `--all-containers=true` (Go and Python CLIs): the flag, counted as
            # given even when `=false` (its effect is judged either way)
            if eq and not (word.startswith("--") and value.lower() in ("true", "false")):
                self.p.problems.append(f"{word.split('=', 1)[0][:30]} given a value")
            self.p.options.append(Used(opt, word.split("=", 1)[0]))
            return i + 1
        spelled = word.split("=", 1)[0]
        if opt.takes == 2:
            self.p.options.append(Used(opt, spelled, value if eq else None, self.dynamic[i]))
            return i + 1
        if opt.takes == 4:
            return self.maybe_next(opt, spelled, value if eq else None, i)
        return self.take(opt, spelled, value if eq else None, i, attached=bool(eq))

    def maybe_next(self, opt: Opt, spelled: str, value: str | None, i: int) -> int:
        """An optional value (``:?``): attached, else the next word if it is an offset."""
        if value is None and i + 1 < len(self.argv) and not self.dynamic[i + 1] and \
                OFFSET.match(self.argv[i + 1]):
            self.p.options.append(Used(opt, spelled, self.argv[i + 1], False))
            return i + 2
        self.p.options.append(Used(opt, spelled, value, self.dynamic[i]))
        return i + 1

    def take(self, opt: Opt, spelled: str, value: str | None, i: int, *,
             attached: bool) -> int:
        """An option that requires a value: attached, or the next word."""
        if opt.role == "x":
            return self.command_range(opt, spelled, i, value if attached else None)
        if opt.takes == 3:  # `--rawfile NAME FILE`: the second word is the value judged
            if i + 2 < len(self.argv):
                self.p.options.append(Used(opt, spelled, self.argv[i + 2],
                                           self.dynamic[i + 2]))
                return i + 3
            self.p.options.append(Used(opt, spelled, None))
            return len(self.argv)
        if attached:
            self.p.options.append(Used(opt, spelled, value, self.dynamic[i]))
            return i + 1
        if i + 1 < len(self.argv):
            self.p.options.append(Used(opt, spelled, self.argv[i + 1], self.dynamic[i + 1]))
            return i + 2
        self.p.options.append(Used(opt, spelled, None))
        return i + 1

    def command_range(self, opt: Opt, spelled: str, i: int, first: str | None) -> int:
        """``-exec cmd args ;``: the command runs up to ``;`` (or ``+`` right after ``{}``);
        an attached value (``--exec=cmd``) is its first word."""
        start = end = i + 1
        while end < len(self.argv):
            word = self.argv[end]
            if not self.dynamic[end] and (word == ";" or (
                    word == "+" and end > start and self.argv[end - 1] == "{}")):
                break
            end += 1
        self.p.options.append(Used(opt, spelled, first, self.dynamic[i]))
        self.p.ranges.append((start, end))
        return end + 1

    def prefix(self, word: str) -> Opt | None:
        for spec in self.chain:
            for name, opt in spec.prefixes.items():
                if word.startswith(name):
                    return opt
        return None

    def find_short(self, letter: str) -> Opt | None:
        for spec in self.chain:
            opt = spec.shorts.get(letter)
            if opt is not None:
                return opt
        return None

    def find_long(self, head: str) -> tuple[Opt | None, str]:
        """Exact name, else (getopt_long) the one option a prefix abbreviates; with the
        problem to report when there is none."""
        for spec in self.chain:
            opt = spec.longs.get(head)
            if opt is not None:
                return opt, ""
        if not head or not any(spec.abbrev for spec in self.chain):
            return None, f"unknown option {dashes(self.chain[0], head)}"
        hits = {id(o): o for spec in self.chain if spec.abbrev
                for name, o in spec.longs.items() if name.startswith(head)}
        if len(hits) == 1:
            return next(iter(hits.values())), ""
        reason = "ambiguous" if hits else "unknown"
        return None, f"{reason} option {dashes(self.chain[0], head)}"


def dashes(spec: Spec, head: str) -> str:
    return ("-" if spec.single else "--") + head[:30]


def looks_like_option(word: str, dynamic: bool) -> bool:
    return len(word) > 1 and word.startswith("-")


# substitutions whose output is known not to start with "-": a path, a hash, a date
KNOWN_OUTPUT = re.compile(r'^"?\$\((which|command -v|type -P|pwd|realpath|readlink -f|'
                          r'git rev-parse|git merge-base|git describe|date \+|mktemp -d)'
                          r'[^()$`;|&<>]*\)"?$')


def known_shape(word: str) -> bool:
    """A run-time word that cannot be an option: a process substitution (/dev/fd/N) or the
    output of a command that prints a path or a hash."""
    return word.startswith(("<(", ">(")) or bool(KNOWN_OUTPUT.match(word))


def static_head(word: str) -> bool:
    """``--name="$x"``: the option is known, only its value is computed at run time."""
    head, eq, _ = word.partition("=")
    return bool(eq) and word.startswith("--") and not any(c in head for c in "$`\"'\\")


def parse(spec: Spec, argv: list[str], dynamic: list[bool], name: str,
          shaped: Callable[[str], bool] = lambda word: False) -> Parsed:
    """``shaped``: a run-time word known not to start with "-" (a loop variable over
    static words)."""
    return Parser(spec, argv, dynamic, name, shaped).run()
