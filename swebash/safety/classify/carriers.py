"""Commands carried inside the arguments of a program that asks.

Design note. The problem: a program the classifier does not know (``nodemon``,
``watchexec``, ``hyperfine``, ``screen``, any new task runner) — or a known one used in a way
its grammar does not model — asks, but without the dangerous flag, so ``--yes`` runs it, and
with it whatever command it was handed: ``watchexec -- rm -rf x``, ``hyperfine 'rm -rf x'``,
``frob --on-success='git reset --hard'``. What does not work: a list of such runners (there
is always another one). The approach: the arguments themselves are read. An argv tail that
starts with a program the classifier knows, or a word that reads as a command line (its
first word a known program, a shell keyword or a builtin), is judged as the command it would
be; whatever that judgement finds — dangerous, denied — applies to the carrier. Nothing here
ever allows: it runs only for commands that already ask.

For a program with a grammar that parsed cleanly, only the places where a command is
expected are read (after ``--``, after a verb or option that runs something): a commit
message that quotes ``rm -rf`` is not a command.
"""

from __future__ import annotations

import shlex

from swebash.safety.classify.builtins import BUILTIN_RULES
from swebash.safety.classify.model import Findings, base
from swebash.safety.classify.registry import known
from swebash.safety.classify.tables import SHELLS
from swebash.safety.classify.wrappers import WRAPPERS

# words that name a program but are far more often a verb of the tool that carries them
VERB_LIKE = frozenset({"install", "test", "[", "time", "file", "link", "help", "info",
                       "join", "split", "expand", "true", "false", "yes", "which", "whatis",
                       "w", "id", "groups", "users", "more", "look", "last", "top", "column",
                       "paste", "cal", "date", "clear", "reset", "arch", "pr", "fmt", "nl",
                       "tty", "at", "batch", "host", "dir", "env", "command", "builtin", ":"})
# verbs and options after which the next words are a command to run
RUN_MARKERS = frozenset({"--", "run", "exec", "x", "spawn", "launch", "shell", "enter",
                         "-c", "-e", "--exec", "--command", "--cmd", "--run", "new", "new-session",
                         "new-window", "neww", "split-window", "splitw", "respawn-pane",
                         "respawn-window", "--shell-command", "--on-success",
                         "--on-failure", "--on-change", "--prepare", "--setup",
                         "--cleanup", "--conclude"})
SHELL_WORDS = frozenset({"if", "for", "while", "until", "case", "{", "(", "!", "function",
                         "eval", "exec", "source", "."})
MAX_STRINGS = 16


def is_program(word: str) -> bool:
    """A word that names a program the classifier knows (``rm``, ``/bin/rm``, ``bash``)."""
    if not word or word.startswith("-") or "=" in word or " " in word:
        return False
    name = base(word)
    if (name in VERB_LIKE or name in (".", "source")) and "/" not in word:
        return False
    return known(name) or name in WRAPPERS or name in SHELLS or name in BUILTIN_RULES \
        or name == "eval"


def reads_as_command(text: str) -> bool:
    """A string argument that reads as a command line (``'rm -rf x'``, ``'cd a && make'``)."""
    if not text.strip() or ("\n" in text[:200] and not any(c in text for c in ";&|")):
        return False
    try:
        words = shlex.split(text, comments=False)
    except ValueError:
        return False
    if not words:
        return False
    first = words[0]
    if "=" in first and not first.startswith("="):  # `A=1 cmd`
        rest = [w for w in words if "=" not in w]
        first = rest[0] if rest else ""
    return (is_program(first) and (len(words) > 1 or "/" in first or first in SHELLS)) or \
        first in SHELL_WORDS


def check(f: Findings, argv: list[str], dynamic: list[bool], depth: int, *,
          anywhere: bool) -> None:
    """Judge the commands ``argv`` carries. ``anywhere``: the program is unknown or its
    grammar could not place every word — any word may be a command; else only words after
    a run marker are."""
    armed = anywhere
    strings = 0
    for i in range(1, len(argv)):
        word = argv[i]
        if dynamic[i]:
            continue
        if word == "--":
            if i + 1 < len(argv):
                f.judge(f, argv[i + 1:], dynamic[i + 1:], depth)
            return
        key, eq, value = word.partition("=") if word.startswith("-") else (word, "", word)
        if " " in value and (armed or key in RUN_MARKERS) and strings < MAX_STRINGS and \
                reads_as_command(value):
            strings += 1
            f.nested(value, f, depth + 1)
        elif armed and is_program(word):
            f.judge(f, argv[i:], dynamic[i:], depth)
            return
        if key in RUN_MARKERS and not eq:
            armed = True
