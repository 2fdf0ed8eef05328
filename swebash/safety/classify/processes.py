"""Acting on other processes: signals, attaching, taking over.

Design note. The problem: ``kill``, ``gdb -p``, ``strace -p``, ``reptyr`` or ``criu dump`` do
nothing to files, so the file and network checks see nothing — yet they stop the user's
editor, read another program's memory (its keys, its tokens) or take over its terminal. A
list of "bad PIDs" cannot exist. The approach is positive: a process this command line
started itself — its PID read from ``$!``, directly or through a variable assigned from it
in the same line (``sleep 9 & p=$!; kill $p``) — may be signalled after a question. Every
other target (a number, ``-1``, a job ``%1`` the user may own, ``$(pgrep …)``, a name or a
pattern) is a process the command did not start: signalling or attaching to it is
dangerous. Signal 0 only tests that a process exists: a question. Changing another
process's priority or CPU set (``renice``, ``ionice -p``, ``taskset -p``) asks.
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


# strace/ltrace/gdb short options that take a value: the letters after one are its value
TRACER_VALUES = frozenset("abeEIoOpPsSuUXnFjAlL")


def attaches(words: list[str], debugger: bool = False) -> bool:
    """A tracer's or debugger's words attach to a running process: ``-p N``, ``-fpN``,
    ``--pid=N``, ``--attach``, ``-pid N``, ``attach N``; for a debugger also
    ``gdb PROGRAM PID``."""
    plain = []
    for word in words:
        if word in ("--", "--args", "-args"):
            break
        if word.startswith(("--pid", "--attach", "-pid", "-attach", "attach ")) or \
                word in ("-p", "attach"):
            return True
        if word.startswith("-") and not word.startswith("--"):
            for letter in word[1:]:
                if letter == "p":
                    return True
                if letter in TRACER_VALUES:
                    break
        elif not word.startswith("-"):
            plain.append(word)
    return debugger and any(w.isdigit() for w in plain[1:])


HOOKS: dict[str, Callable[[Findings, Parsed, int], None]] = {"kill": kill}
