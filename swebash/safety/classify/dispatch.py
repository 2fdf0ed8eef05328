"""Each simple command's words → findings.

Wrappers are peeled (``wrappers.py``) until the real command; a function defined in the same
command line was judged as its body; a builtin with its own rule applies it; every other
program is parsed with its grammar (``registry.lookup``) and judged from the parsed command
(``judge_program``). A program with no grammar asks — "allow" is earned only by a command
whose every option, operand and verb the grammar knows as read-only.
"""

from __future__ import annotations

import fnmatch
import os
import re
import shlex

from swebash.safety.classify import carriers, hosts, roles, suspicion
from swebash.safety.classify.checks import bounded_glob, in_tree
from swebash.safety.classify.grammar import Effect, Spec
from swebash.safety.classify.hooks import HOOKS, PREPS
from swebash.safety.classify.model import Findings, Word, base
from swebash.safety.classify.parser import Parsed, parse
from swebash.safety.classify.registry import lookup
from swebash.safety.classify.wrappers import peel
from swebash.safety.paths import expand

MAX_WRAPPERS = 16
# parse problems that come from words known only at run time (a loop variable, `$(…)`): the
# grammar knows the program, only not the value — an ask, not an unknown
RUN_TIME_PROBLEMS = frozenset({"an option computed at run time",
                               "a sub-command known only at run time",
                               "an argument known only at run time may be an option"})
RESERVED = frozenset({"{", "}", "!", "(", "((", "[[", "do", "done", "then", "fi", "esac",
                      "function", "select", "elif", "else", "case", "if", "while", "until"})


# scheme://user:password@host — a password written into any word of any command
URL_PASSWORD = re.compile(r"^[a-zA-Z][a-zA-Z0-9+.-]*://[^/?#@\s]*:[^/?#@\s]+@")


# `--http-passwd=p`, `--api-key=…`: an option named for a credential, given one (not a file,
# a variable name or a helper that holds it)
CREDENTIAL_OPTION = re.compile(r"^--?[\w.-]*(passw(or)?d|passwd|secret|token|api[-_]?key|"
                               r"apikey|credential)s?(?<!-file)(?<!-path)(?<!-env)=.",
                               re.IGNORECASE)

COUNTED = re.compile(r"max|min|num|count|limit|length|size|budget", re.IGNORECASE)


def hidden_characters(word: Word, printer: bool) -> bool:
    """A word spelled with escapes (``$'index\\u200d.php'``) whose value holds a character
    that shows as nothing or as something else: only printable characters, tab and newline
    are known to show as what they are. (Raw ones in the line are refused before parsing;
    ESC in what echo/printf print is judged by terminal.py.)"""
    if word.dynamic or "\\" not in word.source:  # only an escape spells one
        return False
    return any(not (ch.isprintable() or ch in "\t\n" or (printer and ch == "\x1b"))
               for ch in word.text)


def check_argv(f: Findings, words: list[Word], depth: int) -> None:
    if any("\\" in word.source for word in words):
        printer = base(words[0].text) in ("echo", "printf")
        if any(hidden_characters(word, printer) for word in words):
            f.ask(f"{base(words[0].text)[:20]}: an escaped word holds invisible or control "
                  "characters", True)
    for word in words[1:]:
        text = word.text
        if text.startswith("-") and "=" in text and CREDENTIAL_OPTION.match(text) and \
                not COUNTED.search(text.split("=", 1)[0]):
            f.ask(f"{base(words[0].text)[:20]}: passes a credential on the command line "
                  f"({text.split('=', 1)[0][:24]})", True)
        if "@" in text and "://" in text and URL_PASSWORD.search(text.split("=", 1)[-1]):
            f.ask(f"{base(words[0].text)[:20]}: sends a password written in a URL", True)
        if ("*" in text or "?" in text or "[" in text) and not word.dynamic and \
                word.source == text:
            injected = option_named_file(f, word.text)
            if injected and not injected.startswith("-"):
                f.ask(f"the glob {word.text[:20]} is too large to check for files named "
                      "like options", True)
            elif injected:
                f.ask(f"the glob {word.text[:20]} matches a file named like an option "
                      f"({injected[:20]}): it would be read as one", True)
    judge(f, [w.text for w in words], [w.dynamic for w in words], depth)


def option_named_file(f: Findings, pattern: str) -> str | None:
    """Wildcard injection: ``tar cf x.tar *`` in a directory holding a file named
    ``--checkpoint-action=exec=sh``."""
    for cwd in f.cwds or [f.cwd]:
        full = expand(pattern, cwd, f.home)
        matches = bounded_glob(f, full)
        if matches is None:
            return too_large(f, full)
        for match in matches:
            name = os.path.basename(match)
            if name.startswith("-"):
                return name
    return None


MAX_LISTING = 20_000


def too_large(f: Findings, full: str) -> str | None:
    """A glob with too many matches to expand: its directory is listed once (bounded) for
    names that start with ``-``; past the bound, or with wildcards in the directory part,
    nothing is known and the glob may hold one."""
    directory, last = os.path.split(full)
    if set("*?[") & set(directory):
        return "a glob too large to check"
    try:
        with os.scandir(directory or "/") as entries:
            for count, entry in enumerate(entries):
                if count > MAX_LISTING:
                    return "a glob too large to check"
                if count % 512 == 0:
                    f.tick()
                if entry.name.startswith("-") and fnmatch.fnmatchcase(entry.name, last):
                    return entry.name
    except OSError:
        return None
    return None


def judge(f: Findings, argv: list[str], dynamic: list[bool], depth: int) -> None:
    """Peel wrappers until the real command, then judge it."""
    for _ in range(MAX_WRAPPERS):
        if not argv:
            return
        f.tick()
        if dynamic[0] or "*" in argv[0] or "?" in argv[0] or "[" in argv[0]:
            f.record(list(argv))
            f.ask("the command name is known only at run time", True)
            return
        name = base(argv[0])
        if name in RESERVED:  # `time { rm x; }`: a misparse; judge the words as shell text
            f.ask(f"'{name}' where a command is expected")
            f.nested(shlex.join(argv[1:]) if name in ("{", "!", "(") else
                     shlex.join(argv), f, depth + 1)
            return
        if argv[0] in f.functions:
            f.record(list(argv))
            return  # a function defined in this command: its body was judged
        # a wrapper or builtin is found by its name; a program named by a path of one's own
        # (`/path/to/command`, `./nohup`) is that file, whatever its name
        peeled = None if own_program(argv[0]) else peel(f, name, argv, dynamic, depth)
        if peeled is None:
            index = f.record(list(argv))  # as written: an allow rule for `make` is not `./make`
            before = f.asks
            f.window += 1
            try:
                judge_command(f, name, argv, dynamic, depth)
            finally:
                f.window -= 1
            f.command_asks[index] = f.asks - before
            return
        argv, dynamic = peeled
    if argv:
        f.ask(f"more than {MAX_WRAPPERS} wrappers around one command")


# Where installed programs live: a name found there is judged by its grammar. A program named
# by any other path (./gradlew, bin/rails, scripts/x.sh, /tmp/x) is the project's or
# someone's own code, whatever its name — even `--version` runs it.
SYSTEM_PROGRAMS = ("/usr/", "/bin/", "/sbin/", "/lib/", "/lib64/", "/opt/", "/snap/",
                   "/nix/store/", "/run/current-system/", "/usr/local/")
INSTALLED_BIN = re.compile(r"(^|/)(\.?venv|\.tox/[^/]+|\.nox/[^/]+|node_modules/\.bin)/"
                           r"(bin/|Scripts/)?[^/]+$")


def own_program(path: str) -> bool:
    # normalised first: `/usr/../home/u/x` is not under /usr
    return "/" in path and not os.path.normpath(path).startswith(SYSTEM_PROGRAMS) and \
        not INSTALLED_BIN.search(path)


def judge_command(f: Findings, name: str, argv: list[str], dynamic: list[bool],
                  depth: int) -> None:
    suspicious = suspicion.non_ascii_name(argv[0])
    if suspicious:
        f.ask(suspicious, True)
        return
    own = own_program(argv[0])
    if own:
        # every directory the line may be in by now (`cd /tmp && ./x` is not the tree's)
        if f.cwds is not None and not dynamic[0] and \
                all(in_tree(f, expand(argv[0], cwd, f.home)) for cwd in f.cwds):
            f.ask(f"{name}: runs a program from the working tree ({argv[0][:40]})")
            remote = hosts.remote_in(argv[1:])
            if remote:  # `./xmrig -o pool.example:443`: what it sends there is not known
                f.ask(f"{name}: a program of the working tree given a remote address "
                      f"({remote})", True)
        else:
            f.ask_unknown(f"{name}: runs a program from {argv[0][:40]}, outside the working "
                          "tree and not an installed one")
    try:
        spec = lookup(name)
        if spec is not None:
            judge_program(f, name, spec, argv, dynamic, depth)
            return
    except (ValueError, TypeError, KeyError, IndexError, AttributeError) as exc:
        # a broken grammar or hook must never let a command through: fail closed
        f.ask(f"{name}: could not be checked ({type(exc).__name__})", True)
        return
    unknown(f, name, argv, dynamic, depth, own=own)


def judge_program(f: Findings, name: str, spec: Spec, argv: list[str], dynamic: list[bool],
                  depth: int) -> None:
    """Parse with the program's grammar and apply what each parsed word is."""
    if len(argv) == 2 and argv[1] in spec.info and not dynamic[1]:
        return  # `tool --version`
    if help_of_verbs(spec, argv, dynamic):
        return  # `docker top --help`
    before = f.asks
    known_reasons = set(f.reasons) if spec.admin else set()
    if spec.prep:
        argv, dynamic = PREPS[spec.prep](spec, argv, dynamic)
    parsed = parse_cached(spec, argv, dynamic, name, f)
    label = " ".join([name, *parsed.verbs])[:40]
    for problem in dict.fromkeys(parsed.problems):
        if problem in RUN_TIME_PROBLEMS:
            f.ask(f"{label}: {problem} (not known to be read-only)")
        else:  # an option, verb or argument the grammar does not know: it may do anything
            f.ask_unknown(f"{label}: {problem} (not known to the classifier)")
    if parsed.unknown_verb is not None:
        suspicion.unknown_verb(f, label, argv, parsed)
    effects = path_effects(spec, parsed) if parsed.verbs or spec.effect else []
    for effect in effects:
        f.ask(f"{label}: {effect.reason}", effect.dangerous)
    for used in parsed.options:
        if used.opt.effect is not None:
            f.ask(f"{label}: {used.opt.effect.reason}", used.opt.effect.dangerous)
        if used.value is not None:
            roles.check(f, label, used.opt.role, used.value, used.dynamic, depth,
                        quiet=used.opt.effect is not None)
    for arg in parsed.operands:
        roles.check(f, label, arg.role, arg.text, arg.dynamic, depth)
    for hook in hooks_of(spec, parsed) if parsed.verbs else [spec.hook] * bool(spec.hook):
        HOOKS[hook](f, parsed, depth)
    if parsed.command is not None:
        f.judge(f, argv[parsed.command:], dynamic[parsed.command:], depth)
    if not parsed.spec.own_commands:
        runners = [u for u in parsed.options if u.opt.role == "x"]
        for used, (start, end) in zip(runners, parsed.ranges, strict=False):
            first = [used.value] if used.value is not None else []
            per_file(f, label, first + argv[start:end],
                     [used.dynamic] * len(first) + dynamic[start:end], depth)
    if f.asks > before and spec.admin:
        # administering the machine or the account: its first own reason becomes dangerous
        fresh = [r for r in f.reasons if r not in known_reasons]
        if fresh:
            f.note(fresh[0], True)
        else:
            f.ask(f"{label}: changes how the machine or the account is set up", True)
    if f.asks > before and parsed.verbs and parsed.verbs[-1] in suspicion.SHELL_VERBS:
        f.ask(f"{label}: opens a shell or a console (it runs whatever it reads)", True)
    if f.asks > before:
        reads = frozenset(a.index for a in parsed.operands if a.role in "rmnt" and
                          not a.dynamic and not parsed.problems and not parsed.spec.raw)
        # code: words the grammar did not place (a raw grammar places none) may be code
        suspicion.words(f, label, argv, dynamic,
                        code=bool(parsed.problems or effects or parsed.spec.raw),
                        judged=reads)
        if not f.known_dangerous and parsed.command is None and not parsed.ranges:
            carriers.check(f, argv, dynamic, depth, anywhere=bool(parsed.problems))


def help_of_verbs(spec: Spec, argv: list[str], dynamic: list[bool]) -> bool:
    """``--help`` after nothing but verbs of the grammar's sub-command tables (``kubectl
    explain --help``): the verb's help, printed instead of running it."""
    if len(argv) < 3 or argv[-1] != "--help" or any(dynamic):
        return False
    current = spec
    for word in argv[1:-1]:
        if current.subs is None or word not in current.subs:
            return False
        current = current.subs[word]
    return True


_parses: dict[tuple[int, tuple[str, ...]], Parsed] = {}


def parse_cached(spec: Spec, argv: list[str], dynamic: list[bool], name: str,
                 f: Findings) -> Parsed:
    """Parsing is a pure function of the grammar and static words: the last few hundred
    are kept (an agent repeats commands; a long pipeline repeats stages). Words computed at
    run time depend on the findings (loop variables), so those are parsed afresh."""
    if any(dynamic):
        return parse(spec, argv, dynamic, name, lambda word: not any(
            v.startswith("-") for v in f.bound_values(word) or ["-"]))
    key = (id(spec), tuple(argv))
    parsed = _parses.get(key)
    if parsed is None:
        if len(_parses) > 512:
            _parses.clear()
        parsed = _parses[key] = parse(spec, argv, dynamic, name)
    return parsed


def per_file(f: Findings, label: str, words: list[str], dynamic: list[bool],
             depth: int) -> None:
    """A command run for every file found (``fd -x``): ``{}`` is a path known only then."""
    if not words:
        f.ask(f"{label}: runs a command for every file")
        return
    dynamic = [d or "{" in w for w, d in zip(words, dynamic, strict=True)]
    if not any("{" in w for w in words):
        words, dynamic = [*words, "{}"], [*dynamic, True]
    f.judge(f, words, dynamic, depth)


def path_effects(spec: Spec, parsed: Parsed) -> list[Effect]:
    """The program's own effect and each verb's (``docker rm``: destroys)."""
    out: list[Effect] = []
    current: Spec | None = spec
    for verb in [None, *parsed.verbs]:
        if verb is not None and current is not None and current.subs is not None:
            current = current.subs.get(verb)
        if current is not None and current.effect is not None:
            out.append(current.effect)
    return out


def hooks_of(spec: Spec, parsed: Parsed) -> list[str]:
    out: list[str] = []
    current: Spec | None = spec
    for verb in [None, *parsed.verbs]:
        if verb is not None and current is not None and current.subs is not None:
            current = current.subs.get(verb)
        if current is not None and current.hook:
            out.append(current.hook)
    return out


def unknown(f: Findings, name: str, argv: list[str], dynamic: list[bool], depth: int, *,
            own: bool = False) -> None:
    """A program with no grammar asks as dangerous: nothing says what it does, so ``--yes``
    never runs it, though a user's rule may vouch for it. A program of the working tree (its
    own judgement made above) is the project's code, like a script given to an interpreter.
    What its words name, and any command it carries, may make it dangerous for good."""
    if not own:
        f.ask_unknown(f"{name}: not a program the classifier knows (what it does is unknown)")
    suspicion.unknown_program(f, name, argv)
    suspicion.words(f, name, argv, dynamic)
    if not f.known_dangerous:
        carriers.check(f, argv, dynamic, depth, anywhere=True)
