"""Bash builtins that evaluate text or change how later text is read.

Bash runs code in places that look like data: an array subscript in a variable NAME is
arithmetic, and arithmetic expands ``$(…)`` (``printf -v 'a[$(id)]'``, ``read``, ``unset``,
``test -v``, ``declare``); a variable's VALUE is evaluated the same way in ``(( ))``,
``$(( ))``, ``[[ -eq ]]``, ``let``, ``${!x}`` and ``${x@P}``; ``mapfile -C``, ``compgen -C/-W``,
``jobs -x``, ``trap`` and ``alias`` take code; ``hash -p`` and ``enable -f`` change which
program a name runs. So: a name with a subscript that expands anything is dangerous; a value
the classifier cannot vouch for (from ``read``, ``mapfile``, ``$(…)``, a glob) marks the
findings tainted, and any arithmetic or indirection in a tainted command is dangerous; an
option these builtins have that the classifier does not model asks.
"""

from __future__ import annotations

import re

from swebash.safety.classify import envflow, lines, terminal
from swebash.safety.classify.model import Findings, Rule, positional
from swebash.safety.classify.tables import HIJACK_VARS, SAFE_VALUE

EXPANDS = re.compile(r"[$`]")
NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")
# Hiding tracks: the variables that decide what bash records in its history and where, and
# the hook that records each command (swebash's history sync rides on PROMPT_COMMAND). Any
# change to them — assigned, exported, unset, in a prefix — is dangerous, whatever the value.
HISTORY_VARS = frozenset({"HISTFILE", "HISTSIZE", "HISTFILESIZE", "HISTCONTROL", "HISTIGNORE",
                          "PROMPT_COMMAND"})
HIDES = "hides or clears shell history"


def history_variable(f: Findings, name: str) -> None:
    """``HISTFILE=/dev/null``, ``export HISTSIZE=0``, ``unset HISTFILE`` (``name`` bare)."""
    if name.split("[", 1)[0] in HISTORY_VARS:
        f.ask(f"{HIDES} ({name.split('[', 1)[0]})", True)


def assigned_name(f: Findings, who: str, name: str, dynamic: bool,
                  value: str | None = None) -> None:
    """A builtin is about to assign the variable ``name`` (printf -v, read, mapfile, …)."""
    if dynamic:
        f.ask(f"{who}: assigns a variable whose name is known only at run time", True)
        return
    bare = name.split("[", 1)[0].split("=", 1)[0].strip("+-")
    f.bound.pop(bare, None)
    history_variable(f, bare)
    if "[" in name.split("=", 1)[0]:
        subscript = name.split("=", 1)[0]
        if EXPANDS.search(subscript) or not re.fullmatch(r"[\w]+\[[\w@*]*\]", subscript):
            f.ask(f"{who}: a subscript in a variable name runs as arithmetic", True)
    if HIJACK_VARS.match(bare) and not (value is not None
                                        and SAFE_VALUE.fullmatch(f"{bare}={value}")):
        f.ask(f"{who}: sets {bare}, which changes how programs run", True)


def names_after_options(argv: list[str], dyn: list[bool], with_value: str
                        ) -> tuple[dict[str, str], list[tuple[str, bool]]]:
    """getopt for a builtin: options (with their values) and the remaining operands."""
    options: dict[str, str] = {}
    i = 1
    while i < len(argv):
        arg = argv[i]
        if arg == "--":
            i += 1
            break
        if not arg.startswith("-") or arg == "-" or dyn[i]:
            break
        for j, ch in enumerate(arg[1:], 2):
            if ch in with_value:
                value = arg[j:]
                if not value and i + 1 < len(argv):
                    i += 1
                    value = argv[i]
                options["-" + ch] = value
                break
            options["-" + ch] = ""
        i += 1
    return options, list(zip(argv[i:], dyn[i:], strict=True))


def read(f: Findings, name: str, argv: list[str], dyn: list[bool], depth: int) -> None:
    options, operands = names_after_options(argv, dyn, "adinNptu")
    f.tainted = True
    if "-a" in options:
        assigned_name(f, name, options["-a"], False)
    for word, d in operands:
        assigned_name(f, name, word, d)


def mapfile(f: Findings, name: str, argv: list[str], dyn: list[bool], depth: int) -> None:
    options, operands = names_after_options(argv, dyn, "CcdnOsu")
    f.tainted = True
    if "-C" in options:
        f.ask(f"{name}: -C runs a callback for every line", True)
    for word, d in operands[:1]:
        assigned_name(f, name, word, d)


# printf conversions that print a string as it is: `%s` without flags, width or precision
PLAIN_FORMAT = re.compile(r"(%%|%s|[^%])*")


def printf(f: Findings, name: str, argv: list[str], dyn: list[bool], depth: int) -> None:
    terminal.printed(f, name, argv[1:])
    rest = argv[3:] if argv[1:2] == ["-v"] else argv[2:] if argv[1:2] and \
        argv[1].startswith("-v") else argv[1:]
    if rest[:1] == ["--"]:
        rest = rest[1:]
    if len(rest) > 1 and not PLAIN_FORMAT.fullmatch(rest[0]) and any(
            envflow.secret_reference(word, f) for word in rest[1:]):
        f.ask(f"{name}: reshapes a secret variable with {rest[0][:12]} (redaction only catches "
              "it verbatim)", True)
    if argv[1:2] == ["-v"] and len(argv) > 2:
        f.tainted = True
        assigned_name(f, name, argv[2], dyn[2])
        envflow.assigned(f, argv[2], " ".join(argv[3:]))
    elif argv[1:2] and argv[1].startswith("-v") and len(argv[1]) > 2:
        f.tainted = True
        assigned_name(f, name, argv[1][2:], dyn[1])


def getopts(f: Findings, name: str, argv: list[str], dyn: list[bool], depth: int) -> None:
    f.tainted = True
    if len(argv) > 2:
        assigned_name(f, name, argv[2], dyn[2])


def wait(f: Findings, name: str, argv: list[str], dyn: list[bool], depth: int) -> None:
    options, _ = names_after_options(argv, dyn, "p")
    if "-p" in options:
        assigned_name(f, name, options["-p"], False)


def unset(f: Findings, name: str, argv: list[str], dyn: list[bool], depth: int) -> None:
    options, operands = names_after_options(argv, dyn, "")
    for word, d in operands:
        if d or ("[" in word and not re.fullmatch(r"\w+\[[\w@*]*\]", word)):
            f.ask(f"{name}: a subscript in a variable name runs as arithmetic", True)
        elif "-f" not in options:
            history_variable(f, word)


def declare(f: Findings, name: str, argv: list[str], dyn: list[bool], depth: int) -> None:
    options, operands = names_after_options(argv, dyn, "")
    if "-n" in options:
        f.ask(f"{name} -n: a name reference makes later assignments land elsewhere", True)
    if "-i" in options:
        f.evaluates.append(f"{name} -i")
    exported = name == "export" or "-x" in options
    if "-f" in options and (exported or "-x" in options) and operands:
        f.ask(f"{name} -f: exports a function to child shells (it replaces a command there)",
              True)
    for word, d in operands:
        target, eq, value = word.partition("=")
        if not NAME.match(target.split("[", 1)[0].rstrip("+")):
            # `export {LD_PRELOAD,x}=…`: brace expansion (or worse) makes the names
            f.ask(f"{name}: assigns variables whose names bash builds ({target[:20]})", True)
            continue
        if d and (not eq or EXPANDS.search(target)):
            f.ask(f"{name}: a variable name known only at run time", True)
            continue
        if eq or "[" in target:  # `export PATH` alone changes nothing
            assigned_name(f, name, target, False, None if d else value)
        if eq and (d or EXPANDS.search(value)):
            f.tainted = True
        if "-i" in options and eq and not re.fullmatch(r"[\w+\-*/ ]*", value):
            f.ask(f"{name} -i: the value is evaluated as arithmetic", True)
        if exported and eq and not d and not HIJACK_VARS.match(target):
            # exported, it reaches every later program like a prefix assignment would
            from swebash.safety.classify.wrappers import check_env_name

            check_env_name(f, target, value, prefix=True)


def test(f: Findings, name: str, argv: list[str], dyn: list[bool], depth: int) -> None:
    args = argv[1:]
    for i, arg in enumerate(args[:-1]):
        if arg == "-v":
            operand = args[i + 1]
            if dyn[i + 2] or "[" in operand:
                f.ask(f"{name} -v: a subscript is evaluated as arithmetic", True)


def let(f: Findings, name: str, argv: list[str], dyn: list[bool], depth: int) -> None:
    f.evaluates.append("let")
    for word, d in zip(argv[1:], dyn[1:], strict=True):
        if d or EXPANDS.search(word) or "[" in word:
            f.ask("let: evaluates text as arithmetic, which can run code", True)
            return
        target = re.split(r"[-+*/%&|^<>]?=", word, maxsplit=1)
        if len(target) == 2:
            assigned_name(f, name, target[0], False)


def compgen(f: Findings, name: str, argv: list[str], dyn: list[bool], depth: int) -> None:
    if any(dyn[1:]):
        f.ask(f"{name}: a word list or option known only at run time is expanded again", True)
        return
    options, _ = names_after_options(argv, dyn, "ACFGWXPSo")
    if "-C" in options or "-F" in options:
        f.ask(f"{name}: runs a command or function to complete", True)
    if "-W" in options and EXPANDS.search(options["-W"]):
        f.ask(f"{name} -W: expands the word list, which can run code", True)
    if name == "complete" and (set(options) - {"-p"} or positional(argv[1:])):
        f.ask("complete: defines a completion")


def jobs(f: Findings, name: str, argv: list[str], dyn: list[bool], depth: int) -> None:
    if argv[1:2] and argv[1].startswith("-") and "x" in argv[1]:
        f.ask("jobs -x: runs a command", True)
        f.judge(f, argv[2:], dyn[2:], depth)


def hash_(f: Findings, name: str, argv: list[str], dyn: list[bool], depth: int) -> None:
    options, _ = names_after_options(argv, dyn, "pd")
    if "-p" in options:
        f.ask("hash -p: makes a command name run another program", True)


# shell options that change nothing the classifier relies on (globs still expand the way
# they are judged, nothing is evaluated); dotglob, extglob, expand_aliases… ask
HARMLESS_SHOPT = frozenset({"globstar", "nullglob", "failglob", "nocaseglob", "nocasematch",
                            "lastpipe", "checkwinsize", "histappend", "inherit_errexit",
                            "interactive_comments", "cmdhist", "lithist", "checkjobs"})


def shopt(f: Findings, name: str, argv: list[str], dyn: list[bool], depth: int) -> None:
    options, operands = names_after_options(argv, dyn, "")
    if {"-o", "-u"} <= set(options) and any(w == "history" for w, _ in operands):
        f.ask(f"shopt -u -o history: {HIDES}", True)
        return
    if ("-s" in options or "-u" in options) and operands and not all(
            w in HARMLESS_SHOPT and not d for w, d in operands):
        dangerous = any(w in ("expand_aliases", "extdebug", "xpg_echo") for w, _ in operands)
        f.ask("shopt: changes how the shell reads later commands", dangerous)


SET_FLAGS = re.compile(r"[-+][euxvCfnhBHPbo]+")
SET_NAMES = frozenset({"pipefail", "errexit", "nounset", "xtrace", "verbose", "noclobber",
                       "noglob", "noexec", "posix", "errtrace", "functrace", "history"})


def set_(f: Findings, name: str, argv: list[str], dyn: list[bool], depth: int) -> None:
    expect_name = turning_off = False
    for arg in argv[1:]:
        if expect_name:
            expect_name = False
            if arg == "history" and turning_off:
                f.ask(f"set +o history: {HIDES}", True)
                return
            if arg not in SET_NAMES:
                f.ask(f"set -o {arg[:12]}: a shell option the classifier does not model")
                return
            continue
        if arg == "--" or not arg.startswith(("-", "+")):
            return  # the rest are positional parameters
        if not SET_FLAGS.fullmatch(arg):
            f.ask(f"set {arg[:12]}: changes shell behaviour the classifier does not model")
            return
        expect_name = arg.endswith("o")
        turning_off = arg.startswith("+")


def alias(f: Findings, name: str, argv: list[str], dyn: list[bool], depth: int) -> None:
    for word, d in zip(argv[1:], dyn[1:], strict=True):
        if d:
            f.ask("alias: defines an alias built at run time", True)
        elif "=" in word and not word.startswith("-"):
            f.ask("alias: defines an alias")
            f.nested(word.split("=", 1)[1], f, depth + 1)


def trap(f: Findings, name: str, argv: list[str], dyn: list[bool], depth: int) -> None:
    rest = argv[1:]
    if len(rest) >= 2 and rest[0] in ("-", "") and "DEBUG" in rest[1:]:
        f.ask(f"trap: removes the DEBUG hook ({HIDES})", True)
        return
    if not rest or rest[0] in ("-l", "-p", "-", "--") or len(rest) < 2:
        return
    if dyn[1]:
        f.ask("trap: runs a command string built at run time", True)
    else:
        f.nested(rest[0], f, depth + 1)


def history(f: Findings, name: str, argv: list[str], dyn: list[bool], depth: int) -> None:
    """``-c``/``-d`` clear, ``-r`` replaces the list with a file's, ``-w FILE`` writes the
    record elsewhere: each hides what ran. (``-w`` alone writes HISTFILE, as bash does.)"""
    letters = {c for a in argv[1:] if a.startswith("-") and a != "-" for c in a[1:]}
    operands = [a for a in argv[1:] if not a.startswith("-")]
    if letters & set("cdr") or ("w" in letters and operands):
        f.ask(f"history: {HIDES}", True)
    elif argv[1:] and not (len(argv) == 2 and argv[1].isdigit()):
        f.ask("history: changes, writes or expands the history")


def fc(f: Findings, name: str, argv: list[str], dyn: list[bool], depth: int) -> None:
    if not any(a.startswith("-") and "l" in a for a in argv[1:]):
        f.ask("fc: runs commands from the history", True)


def enable(f: Findings, name: str, argv: list[str], dyn: list[bool], depth: int) -> None:
    options, operands = names_after_options(argv, dyn, "f")
    if "-f" in options:
        f.ask("enable -f: loads a shared library into the shell", True)
    elif operands or "-n" in options or "-d" in options:
        f.ask("enable: changes which builtins run")


def bind(f: Findings, name: str, argv: list[str], dyn: list[bool], depth: int) -> None:
    if any(a.startswith("-") and "x" in a for a in argv[1:]):
        f.ask("bind -x: binds a key to a command", True)
    elif argv[1:] and not set(argv[1:]) <= {"-p", "-P", "-v", "-V", "-s", "-S", "-l"}:
        f.ask("bind: changes key bindings")


def cd(f: Findings, name: str, argv: list[str], dyn: list[bool], depth: int) -> None:
    # the line families read each command where it ran: those before this one, from here
    lines.after(f)
    words = [(w, d) for w, d in zip(argv[1:], dyn[1:], strict=True)
             if not (w.startswith("-") and w != "-" and not d)]
    if not words:
        f.change_dir(f.home if name == "cd" else None)
    elif words[0][1] or words[0][0] == "-" or words[0][0].startswith("+"):
        f.change_dir(None)
    else:
        f.change_dir(words[0][0])


def ask_always(f: Findings, name: str, argv: list[str], dyn: list[bool], depth: int) -> None:
    f.ask(f"{name}: not known to be read-only")


BUILTIN_RULES: dict[str, Rule] = {
    "read": read, "mapfile": mapfile, "readarray": mapfile, "printf": printf,
    "getopts": getopts, "wait": wait, "unset": unset, "declare": declare, "typeset": declare,
    "local": declare, "readonly": declare, "export": declare, "test": test, "[": test,
    "let": let, "compgen": compgen, "complete": compgen, "jobs": jobs, "hash": hash_,
    "shopt": shopt, "set": set_, "alias": alias, "trap": trap, "history": history, "fc": fc,
    "enable": enable, "bind": bind, "cd": cd, "pushd": cd, "coproc": ask_always,
    "select": ask_always, "suspend": ask_always, "disown": ask_always, "logout": ask_always,
}
