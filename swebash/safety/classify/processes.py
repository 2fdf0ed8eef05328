"""Acting on other processes: signals, attaching, taking over.

Design note. The problem: ``kill``, ``gdb -p``, ``strace -p``, ``reptyr`` or ``criu dump`` do
nothing to files, so the file and network checks see nothing — yet they stop the user's
editor, read another program's memory (its keys, its tokens) or take over its terminal. A
list of "bad PIDs" cannot exist. The approach is positive: a process this command line
started itself — its PID read from ``$!``, directly or through a variable assigned from it
in the same line (``sleep 9 & p=$!; kill $p``) — may be signalled after a question. Every
other target (a number, ``-1``, a job ``%1`` the user may own, ``$(pgrep …)``, a name or a
pattern) is a process the command did not start: signalling or attaching to it is
dangerous. Signal 0 only tests that a process exists: a question. The same rule holds for
every way of acting on a running process — its priority or CPU set (``renice``, ``ionice
-p``, ``taskset -p``, ``chrt -p``), its limits (``prlimit --pid``), tracing or debugging it
(``strace -p``, ``gdb -p``): a target this line started asks, any other PID is dangerous, and
a user or a process group (``renice -u``, ``ionice -P``) always is.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from swebash.safety.classify.model import Findings
from swebash.safety.classify.parser import Parsed

OWN = re.compile(r'^"?\$(!|\{!\})"?$')
VARIABLE = re.compile(r'^"?\$\{?([A-Za-z_]\w*)\}?"?$')
# kill's options that take a value (the signal): `-s HUP`, `-n 9`
SIGNAL_VALUE = frozenset({"-s", "-n", "--signal"})
ZERO = frozenset({"0", "-0", "SIG0", "-SIG0"})


def assigned(f: Findings, name: str, source: str) -> None:
    """``p=$!``: ``p`` holds the PID of a job this command started; any other value forgets
    it."""
    if started_here(f, source):
        f.own_pids.add(name)
    else:
        f.own_pids.discard(name)


def started_here(f: Findings, source: str) -> bool:
    """The word names a process this command line started (``$!`` or a copy of it)."""
    source = source.strip()
    if OWN.match(source):
        return True
    match = VARIABLE.match(source)
    return match is not None and match.group(1) in f.own_pids


def kill(f: Findings, p: Parsed, depth: int) -> None:
    """``kill [-s SIG | -SIG] TARGET…``: targets this command started ask; any other is
    dangerous."""
    words = p.argv[1:]  # a run-time word is its source text: `$!`, `"$pid"`
    if words[:1] in (["-l"], ["-L"], ["--list"], ["--help"]):
        return
    signal = "TERM"
    targets: list[str] = []
    k = 0
    while k < len(words):
        word = words[k]
        if word == "--":
            targets.extend(words[k + 1:])
            break
        if not targets and word in SIGNAL_VALUE and k + 1 < len(words):
            signal = words[k + 1]
            k += 2
            continue
        if k == 0 and word.startswith("-") and len(word) > 1:
            signal = word
        else:
            targets.append(word)
        k += 1
    if signal in ZERO:
        f.ask("kill -0: tests whether a process exists")
        return
    others = [t for t in targets if not started_here(f, t)]
    if not targets:
        f.ask("kill: no process named")
    elif others:
        f.ask(f"kill: signals a process this command did not start ({others[0][:20]})", True)
    else:
        f.ask("kill: signals a process this command started")


def act_on(f: Findings, label: str, action: str, targets: list[str]) -> None:
    """``action`` (e.g. "changes the priority of") applied to the PIDs ``targets``."""
    others = [t for t in targets if not started_here(f, t)]
    if not targets:
        f.ask(f"{label}: {action} a process it is not told")
    elif others:
        f.ask(f"{label}: {action} a process this command did not start ({others[0][:20]})",
              True)
    else:
        f.ask(f"{label}: {action} a process this command started")


def act_on_group(f: Findings, label: str, action: str, option: str) -> None:
    """A user's or a process group's processes (``renice -u``, ``ionice -P``): never only
    what this line started."""
    f.ask(f"{label}: {action} every process of a user or group ({option})", True)


GROUP_OPTIONS = frozenset({"-P", "--pgid", "-u", "--uid"})


def scheduling(f: Findings, name: str, option: str, value: str | None,
               argv: list[str]) -> None:
    """``ionice -p PID…`` / ``taskset -p [MASK] PID``: the PIDs are the words that are not
    options (for taskset, only the last: the one before is the CPU mask)."""
    if option in GROUP_OPTIONS:
        act_on_group(f, name, "changes the scheduling of", option)
        return
    operands = [w for w in argv[1:] if not w.startswith("-")]
    if name == "taskset":
        targets = operands[-1:] if len(operands) > 1 else []
        if len(operands) == 1:
            f.ask("taskset: shows a running process's CPU affinity")
            return
    elif not any(w.startswith(("-c", "-n", "--class")) for w in argv[1:]):
        f.ask("ionice: shows a running process's I/O class")
        return
    else:
        targets = [value] if value else []
        start = argv.index(value) + 1 if value in argv else len(argv)
        targets += [w for w in argv[start:] if not w.startswith("-")]
    act_on(f, name, "changes the scheduling of", targets)


# strace/ltrace/gdb short options that take a value: the letters after one are its value
TRACER_VALUES = frozenset("abeEIoOpPsSuUXnFjAlL")


def attaches(words: list[str], debugger: bool = False) -> list[str] | None:
    """The PIDs a tracer's or debugger's words attach to (None: it attaches to none):
    ``-p N``, ``-fpN``, ``--pid=N``, ``--attach``, ``-pid N``, ``attach N``; for a debugger
    also ``gdb PROGRAM PID``. An attachment whose target is not read is ``[]``."""
    plain: list[str] = []
    found: list[str] | None = None
    k = 0
    while k < len(words):
        word = words[k]
        following = words[k + 1] if k + 1 < len(words) else ""
        k += 1
        if word in ("--", "--args", "-args"):
            break
        head, equals, value = word.partition("=")
        if head in ("--pid", "-pid", "--attach", "-attach", "attach", "-p") or \
                word.startswith(("--pid", "--attach", "-pid", "-attach", "attach ")):
            found = found or []
            if equals:
                found.append(value)
            elif word.startswith("attach "):
                found.append(word[7:])
            elif following and not following.startswith("-"):
                found.append(following)
                k += 1
            continue
        if word.startswith("-") and not word.startswith("--"):
            for at, letter in enumerate(word[1:], 2):
                if letter == "p":
                    found = found or []
                    if word[at:]:
                        found.append(word[at:])
                    elif following:
                        found.append(following)
                        k += 1
                    break
                if letter in TRACER_VALUES:
                    break
        elif not word.startswith("-"):
            plain.append(word)
    if found is None and debugger and any(w.isdigit() for w in plain[1:]):
        found = [w for w in plain[1:] if w.isdigit()]
    return found


RENICE_GROUPS = frozenset({"-g", "--pgrp", "-u", "--user"})


def renice(f: Findings, p: Parsed, depth: int) -> None:
    """``renice [-n] PRIO [-p] PID… [-g PGRP…] [-u USER…]``: the py rule."""
    words = p.argv[1:]
    if words[:1] in (["-V"], ["--version"], ["-h"], ["--help"]):
        return
    if any(re.fullmatch(r"-\d+", w) for w in words[:2]):
        f.ask("renice: raises a process's priority (privilege)", True)
    k = 2 if words[:1] in (["-n"], ["--priority"], ["--relative"]) else 1
    targets: list[str] = []
    for word in words[k:]:
        if word in RENICE_GROUPS:
            act_on_group(f, "renice", "changes the priority of", word)
            return
        if word not in ("-p", "--pid"):
            targets.append(word)
    act_on(f, "renice", "changes the priority of", targets)


PRLIMIT_FLAGS = frozenset({"--noheadings", "--raw", "--verbose", "--help", "--version",
                           "-h", "-V"})
PRLIMIT_RESOURCE = re.compile(r"^(-[cdefilmnqrstuvxy](=\S*)?|--(as|core|cpu|data|fsize|locks|"
                              r"memlock|msgqueue|nice|nofile|nproc|rss|rtprio|rttime|"
                              r"sigpending|stack)(=\S*)?)$")


def prlimit(f: Findings, p: Parsed, depth: int) -> None:
    """``prlimit [--pid PID] [--RESOURCE[=LIMITS]…] [COMMAND…]``: without a PID or a command
    it shows its own limits; a PID is the py rule; a command is judged."""
    words = p.argv[1:]
    k = 0
    while k < len(words) and words[k].startswith("-"):
        word = words[k]
        head, equals, value = word.partition("=")
        if head in ("-p", "--pid"):
            pid = value if equals else (words[k + 1] if k + 1 < len(words) else "")
            act_on(f, "prlimit", "changes the limits of", [pid] if pid else [])
            return
        if head in ("-o", "--output"):
            k += 1 if equals else 2
            continue
        if word not in PRLIMIT_FLAGS and not PRLIMIT_RESOURCE.match(word):
            f.ask(f"prlimit: unknown option {head[:20]}")
            return
        k += 1
    if k < len(words):
        f.judge(f, words[k:], list(p.dynamic[k + 1:]), depth)


HOOKS: dict[str, Callable[[Findings, Parsed, int], None]] = {
    "kill": kill, "renice": renice, "prlimit": prlimit,
}
