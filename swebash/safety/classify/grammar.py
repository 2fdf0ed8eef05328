"""The argument grammar of a program, as data: which options exist, how each takes a value,
what each does, what the operands are, and the sub-command table.

A spec is written with ``prog``, whose option strings are compact so that a program's whole
option list fits in a few lines and can be checked against its man page::

    prog("-abc -n: -o:w --all --name: --color:: -D*", args="r*",
         ask={"-o:w --output:w": "writes its output to a file"},
         danger={"--compress-program:": "runs the program it is given"})

Option tokens (whitespace separated):

- ``-abc``: the short flags ``-a``, ``-b``, ``-c`` (they may be clustered: ``-ab``);
- a trailing ``:`` makes the last letter take a value (``-n:`` — ``-n 5``, ``-n5``);
  ``::`` makes the value optional and attached only (``-l5``, ``--color=auto``);
  ``:+`` takes two words, the second being the value judged (``--rawfile NAME FILE``);
  ``:?`` makes the value optional, attached or the next word when that is a signed number,
  ``all`` or a 32-digit id with an optional offset (``journalctl -b -1``, ``--boot all``);
- ``--name``, ``--name:``, ``--name::`` are long options (``--name=v`` or ``--name v``);
- ``-D*`` is a prefix option: any word starting with ``-D`` carries its value (``-Dx=1``);
- ``-N`` accepts a bare number as an option (``head -5``, ``nice -10``);
- in a single-dash spec (``single=True``: ``find``, ``java``, Go's flag package) ``-name`` is
  one option, spelled with one or two dashes, never clustered;
- after the ``:`` a letter names the value's role (below): ``-o:w`` writes its value;
- a trailing ``!`` ends the options: every later word is an operand (``python -m mod …``).

Options in the first string are read-only. Options under ``ask`` or ``danger`` exist but make
the command ask, with the given reason (``danger``: and flag it dangerous). An option not in
the spec is unknown: the command asks.

``args`` lists the operand roles in order, each with an optional ``?`` (one, optional), ``*``
(any number) or ``+`` (at least one); operands beyond the list are unexpected and ask.

Roles (of operands and of option values):

====  ==============================================================================
r     a file whose content is shown: the path guard applies, a run-time path asks
m     a file summarised (hash, count, type): the path guard applies to static paths
n     a name only (``ls``, ``stat``): nothing read from the file
t     a tree read recursively: the path guard, and a walk looking for secrets in it
w     a file written (an existing one is overwritten: dangerous)
a     a file created or appended to
d     a file deleted
c     shell code (``watch 'cmd'``): classified as a command line
x     a command: as an operand, this word and every word after it; as an option's value,
      the words after the option up to ``;`` (``fd -x cmd {} ;``, ``find -exec … +``)
u     a URL fetched
h     a host name reached (a run-time value can carry data out)
e     an environment assignment NAME=value
p     plain text (a pattern, a number, a name)
====  ==============================================================================

``admin=True`` marks a program that administers the machine or the account (services,
network, clock, users, firewall, keyrings, desktop settings): only its read-only uses are
allowed, and anything else it does — a known write, an unknown verb or option — is
dangerous, since it changes something outside the working tree that no undo reaches.

``subs`` maps a verb (several aliases separated by spaces) to the sub-command's spec; the
parent's options are global options before the verb (and after it too when the sub-spec
``inherits``). An unknown verb asks.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

ROLES = frozenset("rmntwadcxuhep")


@dataclass(frozen=True)
class Effect:
    """What makes an option (or a whole program) not read-only, in one short line."""

    reason: str
    dangerous: bool = False


@dataclass(frozen=True)
class Opt:
    name: str  # as spelled in the spec: "-o", "--output", "-name"
    # 0: no value, 1: a value, 2: an optional attached value, 3: two words, 4: an optional
    # value, attached or the next word when that is a boot offset (``journalctl -b -1``)
    takes: int = 0
    role: str = "p"
    effect: Effect | None = None
    last: bool = False  # everything after its value is an operand (`python -m mod args`)


@dataclass(frozen=True)
class Operand:
    role: str
    many: bool  # `*` or `+`
    optional: bool  # `?` or `*`


@dataclass
class Spec:
    """A compiled program grammar (build one with ``prog``)."""

    shorts: dict[str, Opt] = field(default_factory=dict)
    longs: dict[str, Opt] = field(default_factory=dict)  # without the leading dashes
    prefixes: dict[str, Opt] = field(default_factory=dict)  # "-D" → Opt
    operands: tuple[Operand, ...] = ()
    subs: dict[str, Spec] | None = None
    inherits: bool = False  # the parent's options are also accepted after this verb
    effect: Effect | None = None  # the program itself is not read-only
    hook: str = ""  # program-specific check, by name (see rules in dispatch.py)
    single: bool = False  # single-dash long options, no clustering
    numeric: bool = False  # `-5` is an option
    permute: bool = True  # GNU: options may follow operands
    abbrev: bool = True  # GNU getopt_long: a unique prefix of a long option is that option
    info: frozenset[str] = frozenset({"--version", "--help"})
    verb_optional: bool = False  # with subs: no verb at all is fine (`git remote`)
    raw: bool = False  # no options at all: every word is an operand (`echo -x`, `test -f`)
    prep: str = ""  # rewrite argv before parsing (tar's old-style `tar tvf a.tar`)
    own_commands: bool = False  # the hook judges the commands options carry (find -exec)
    risky: bool = False  # some option writes, runs or reaches out (computed)
    # the program administers the machine or the account (services, network, clock, users,
    # keyrings, desktop settings): whatever it does that is not read-only is dangerous
    admin: bool = False

    def role(self, index: int) -> Operand | None:
        """The operand at position ``index`` (0-based), or None when there is none."""
        for position, operand in enumerate(self.operands):
            if operand.many:
                return operand
            if position == index:
                return operand
        return None

    def mandatory_after(self, index: int) -> int:
        return sum(1 for o in self.operands[index + 1:] if not o.optional)


def split_tokens(text: str) -> list[str]:
    return text.split()


def parse_token(token: str, single: bool) -> list[tuple[str, int, str, bool]]:
    """One spec token → (name, takes, role, prefix) for every option it declares."""
    token = token.rstrip("!")
    head, colon, tail = token.partition(":")
    takes = 0
    role = "p"
    if colon:
        takes = 1
        if tail.startswith(":"):
            takes, tail = 2, tail[1:]
        elif tail.startswith("?"):
            takes, tail = 4, tail[1:]
        elif tail.startswith("+"):
            takes, tail = 3, tail[1:]
        if tail:
            if tail not in ROLES:
                raise ValueError(f"unknown role {tail!r} in {token!r}")
            role = tail
    if head.endswith("*"):
        return [(head[:-1], 1, role, True)]
    if head.startswith("--") or single or len(head) == 2:
        return [(head, takes, role, False)]
    if not head.startswith("-") or len(head) < 2:
        raise ValueError(f"not an option token: {token!r}")
    letters = head[1:]
    out = [(f"-{ch}", 0, "p", False) for ch in letters[:-1]]
    out.append((f"-{letters[-1]}", takes, role, False))
    return out


def add_options(spec: Spec, text: str, effect: Effect | None) -> None:
    for token in split_tokens(text):
        if token == "-N":
            spec.numeric = True
            continue
        for name, takes, role, prefix in parse_token(token, spec.single):
            opt = Opt(name, takes, role, effect, token.endswith("!"))
            if prefix:
                spec.prefixes[name] = opt
            elif spec.single or name.startswith("--"):
                spec.longs[name.lstrip("-")] = opt
            else:
                spec.shorts[name[1]] = opt


def parse_operands(text: str) -> tuple[Operand, ...]:
    out = []
    for token in text.split():
        role, mark = token[0], token[1:]
        if role not in ROLES or mark not in ("", "?", "*", "+"):
            raise ValueError(f"bad operand {token!r}")
        out.append(Operand(role, mark in ("*", "+"), mark in ("?", "*")))
    return tuple(out)


def prog(options: str = "", *, args: str = "", ask: Mapping[str, str] | None = None,
         danger: Mapping[str, str] | None = None, subs: Mapping[str, Spec] | None = None,
         effect: str = "", dangerous: bool = False, hook: str = "", single: bool = False,
         permute: bool = True, abbrev: bool = True, inherits: bool = False,
         info: str = "--version --help", verb_optional: bool = False,
         raw: bool = False, prep: str = "", own_commands: bool = False,
         admin: bool = False) -> Spec:
    """Build a spec (see the module docstring for the option and operand notation)."""
    spec = Spec(single=single, permute=permute, abbrev=abbrev and not single, hook=hook,
                inherits=inherits, info=frozenset(info.split()), verb_optional=verb_optional,
                raw=raw, prep=prep, own_commands=own_commands, admin=admin)
    add_options(spec, options, None)
    for table, is_danger in ((ask or {}, False), (danger or {}, True)):
        for text, reason in table.items():
            add_options(spec, text, Effect(reason, is_danger))
    spec.operands = parse_operands(args)
    if effect:
        spec.effect = Effect(effect, dangerous)
    if subs is not None:
        spec.subs = {}
        for names, sub in subs.items():
            for verb in names.split():
                spec.subs[verb] = sub
    spec.risky = any(o.effect is not None or o.role in "wadcx"
                     for o in (*spec.shorts.values(), *spec.longs.values(),
                               *spec.prefixes.values()))
    return spec


Builder = Callable[[], Spec]
Table = dict[str, Builder]


def definer(table: Table) -> Callable[[str, Builder], None]:
    """``define("gzip gunzip", lambda: prog(...))``: one builder under several names."""
    def define(names: str, build: Builder) -> None:
        for name in names.split():
            table[name] = build
    return define
