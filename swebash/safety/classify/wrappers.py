"""Wrappers as a table: programs that run another program (sudo, env, timeout, xargs, …).

Each entry says which options take a value, which options mean something (a shell string to
check, a file written, a directory changed to), how many operands come before the command
(``timeout DURATION``), and whether the wrapper is itself a reason to ask (privilege). ``peel``
reads argv the way the wrapper's own getopt would — clustered short options, attached values,
abbreviated long options — and returns the inner command. An option the table does not know
makes the command ask: a wrapper's unknown option may take a value that hides the command.
Adding a wrapper is one entry in ``WRAPPERS``.
"""

from __future__ import annotations

import shlex
from collections.abc import Mapping
from dataclasses import dataclass, field

from swebash.safety.classify import processes
from swebash.safety.classify.checks import read_path, write_target
from swebash.safety.classify.model import Findings, show
from swebash.safety.classify.tables import HIJACK_LIKE, HIJACK_VARS, SAFE_ENV, SAFE_VALUE, SHELLS

Argv = tuple[list[str], list[bool]]
DONE: Argv = ([], [])


@dataclass(frozen=True)
class Wrapper:
    short_values: str = ""  # short options that take a value (`-u root`, `-uroot`)
    short_flags: str = ""  # short options without one
    short_optional: str = ""  # short options whose value is only ever attached (`xargs -l5`)
    long_values: tuple[str, ...] = ()
    long_flags: tuple[str, ...] = ()
    # what an option means: shell (its value is shell code), split (env -S), chdir, write
    # (its value is a file written), stop (`command -v`: nothing runs), ask, danger
    actions: Mapping[str, str] = field(default_factory=dict)
    operands: int = 0  # words consumed before the command (`timeout 5`, `flock FILE`)
    reason: str = ""  # always a reason to ask (privilege)
    dangerous: bool = False
    assignments: bool = False  # `env A=1 cmd`
    numeric: bool = False  # `nice -10 cmd`
    bare_ok: bool = True  # with no command the wrapper alone is harmless (`env`, `exec 3>&-`)
    stdin_args: bool = False  # xargs: the command's arguments arrive on stdin
    joined: bool = False  # watch: the rest is joined into one `sh -c` string


PRIVILEGE = "runs with elevated privileges"
WRAPPERS: dict[str, Wrapper] = {
    "sudo": Wrapper("ughpCDrtUTR", "AbEeHiKklnPSsVv", "", (
        "--user", "--group", "--host", "--prompt", "--close-from", "--chdir", "--role",
        "--type", "--other-user", "--command-timeout", "--chroot"), (
        "--askpass", "--background", "--preserve-env", "--set-home", "--login", "--non-interactive",
        "--shell", "--stdin", "--reset-timestamp", "--remove-timestamp", "--validate"),
        {"-e": "ask", "--edit": "ask", "-l": "stop", "--list": "stop", "-v": "stop",
         "-k": "stop", "-K": "stop", "-V": "stop"}, reason=PRIVILEGE, dangerous=True),
    "doas": Wrapper("uC", "ns", reason=PRIVILEGE, dangerous=True),
    "run0": Wrapper("uglD", "", long_values=("--user", "--group", "--chdir", "--machine",
                                               "--unit", "--description", "--nice",
                                               "--property", "--setenv", "--slice"),
                    reason=PRIVILEGE, dangerous=True),
    "pkexec": Wrapper("", "", long_values=("--user",), long_flags=("--disable-internal-agent",),
                      reason=PRIVILEGE, dangerous=True),
    "su": Wrapper("cgGsw", "flmp", "", ("--command", "--group", "--supp-group", "--shell",
                                        "--session-command", "--whitelist-environment"),
                  ("--login", "--preserve-environment", "--pty", "--fast"),
                  {"-c": "shell", "--command": "shell", "--session-command": "shell"},
                  reason="switches user", dangerous=True, bare_ok=False),
    "env": Wrapper("uCSP", "i0v", "", ("--unset", "--chdir", "--split-string"), (
        "--ignore-environment", "--null", "--debug", "--default-signal", "--ignore-signal",
        "--block-signal", "--list-signal-handling"),
        {"-C": "chdir", "--chdir": "chdir", "-S": "split", "--split-string": "split",
         "-P": "ask"}, assignments=True),
    "command": Wrapper("", "pvV", actions={"-v": "stop", "-V": "stop"}),
    "builtin": Wrapper(),
    "exec": Wrapper("a", "cl"),
    "nohup": Wrapper(),
    "setsid": Wrapper("", "cfw", long_flags=("--ctty", "--fork", "--wait")),
    "chronic": Wrapper("", "ev"),
    # readline around a command: its log and history files are written, a filter runs
    "rlwrap": Wrapper("bCDefgHlLMOPqsStwz", "AciInNrRvW", "amp", (
        "--logfile", "--history-filename", "--file", "--command-name"), (
        "--ansi-colour-aware", "--complete-filenames", "--case-insensitive", "--no-children",
        "--no-warnings", "--remember", "--renice", "--version"), {
        "-l": "write", "--logfile": "write", "-H": "write", "--history-filename": "write",
        "-f": "read", "--file": "read", "-z": "danger", "--filter": "danger"},
        bare_ok=False),
    "unbuffer": Wrapper("", "p"),
    "time": Wrapper("of", "apqv", "", ("--output", "--format"),
                    ("--append", "--portability", "--verbose", "--quiet"),
                    {"-o": "write", "--output": "write"}),
    "nice": Wrapper("n", "", "", ("--adjustment",), numeric=True),
    "ionice": Wrapper("cnpPu", "t", "", ("--class", "--classdata", "--pid", "--pgid", "--uid"),
                      ("--ignore",), {"-p": "process", "--pid": "process",
                                      "-P": "process", "--pgid": "process", "-u": "process",
                                      "--uid": "process", "--help": "stop",
                                      "--version": "stop"}),
    "stdbuf": Wrapper("ioe", "", "", ("--input", "--output", "--error")),
    "timeout": Wrapper("sk", "v", "", ("--signal", "--kill-after"),
                       ("--preserve-status", "--foreground", "--verbose"), operands=1),
    "flock": Wrapper("wEc", "sexnuoF", "", ("--timeout", "--conflict-exit-code", "--command"),
                     ("--shared", "--exclusive", "--nonblock", "--close", "--unlock",
                      "--no-fork", "--verbose"), {"-c": "shell", "--command": "shell"},
                     operands=1),
    "watch": Wrapper("nq", "dtbegcxprw", "", ("--interval", "--equexit", "--differences"), (
        "--no-title", "--beep", "--errexit", "--chgexit", "--color", "--exec", "--precise",
        "--no-wrap", "--no-linewrap"), {"-x": "exec", "--exec": "exec"}, joined=True),
    "coproc": Wrapper(),
    "parallel": Wrapper("jSaIdE", "kvqu0", "", ("--jobs", "--arg-file", "--delimiter"),
                        ("--keep-order", "--verbose", "--null"), stdin_args=True),
    "chroot": Wrapper("", "", "", ("--userspec", "--groups"), ("--skip-chdir",),
                      operands=1, reason="runs in another root (privilege)", dangerous=True),
    "runuser": Wrapper("ugGs", "lmp", "", ("--user", "--group", "--shell", "--command"),
                       ("--login",), {"-c": "shell", "--command": "shell"},
                       reason=PRIVILEGE, dangerous=True),
    "taskset": Wrapper("", "ac", "", (), ("--all-tasks", "--cpu-list"), {
        "-p": "process", "--pid": "process", "--help": "stop", "-h": "stop",
        "--version": "stop", "-V": "stop"}, operands=1),
    "xargs": Wrapper("aEdILnPs", "0ortpxX", "eil", (
        "--arg-file", "--delimiter", "--max-args", "--max-procs", "--max-chars",
        "--process-slot-var", "--max-lines", "--replace", "--eof"), (
        "--null", "--no-run-if-empty", "--interactive", "--verbose", "--exit", "--open-tty",
        "--show-limits"), {"-I": "replace", "-i": "replace", "--replace": "replace",
                           "-a": "read", "--arg-file": "read"}, stdin_args=True),
}


def peel(f: Findings, name: str, argv: list[str], dynamic: list[bool], depth: int
         ) -> Argv | None:
    """The command a wrapper runs (DONE when it runs none), or None when ``name`` is not one."""
    if name == "busybox":
        return (argv[1:], dynamic[1:]) if len(argv) > 1 else DONE
    if name == "eval":
        shell_string(f, " ".join(argv[1:]), any(dynamic[1:]), depth, show(argv))
        return DONE
    if name in SHELLS:
        return peel_shell(f, name, argv, dynamic, depth)
    spec = WRAPPERS.get(name)
    if spec is None:
        return None
    if spec.reason:
        f.ask(f"{name}: {spec.reason}", spec.dangerous)
    if name == "su":  # getopt permutes: `su root -c CMD`
        for i, arg in enumerate(argv[1:-1], 1):
            if arg in ("-c", "--command", "--session-command"):
                shell_string(f, argv[i + 1], dynamic[i + 1], depth, show(argv))
                return DONE
    return Peeler(f, spec, name, argv, dynamic, depth).run()


class Peeler:
    def __init__(self, f: Findings, spec: Wrapper, name: str, argv: list[str],
                 dynamic: list[bool], depth: int) -> None:
        self.f, self.spec, self.name, self.depth = f, spec, name, depth
        self.argv, self.dynamic = argv, dynamic
        self.joined = spec.joined
        self.replace: str | None = None
        self.stopped = False
        self.next_index = 1

    def run(self) -> Argv:
        argv, dyn, spec = self.argv, self.dynamic, self.spec
        i = 1
        while i < len(argv) and not self.stopped:
            arg = argv[i]
            if dyn[i] and arg.startswith("-"):
                self.f.ask(f"{self.name}: an option computed at run time")
                return DONE
            if arg == "--":
                i += 1
                break
            if arg == "-" and self.name == "env":  # `env -` is `env -i`
                i += 1
                continue
            if arg.startswith("--"):
                i = self.long(i)
            elif arg.startswith("-") and len(arg) > 1:
                if spec.numeric and arg[1:].lstrip("-").isdigit():
                    i += 1
                    continue
                i = self.short(i)
            elif spec.assignments and "=" in arg and not dyn[i]:
                check_env_name(self.f, *arg.split("=", 1))
                i += 1
            else:
                break
            if i < 0:
                return DONE
        if self.stopped:
            return DONE
        rest, rest_dyn = argv[i:], dyn[i:]
        if spec.operands:
            if len(rest) < spec.operands:
                return DONE
            rest, rest_dyn = rest[spec.operands:], rest_dyn[spec.operands:]
            if self.name == "flock" and rest[:1] in (["-c"], ["--command"]) and len(rest) > 1:
                shell_string(self.f, rest[1], rest_dyn[1], self.depth, show(argv))
                return DONE
        if self.name == "parallel":
            return self.parallel(rest, rest_dyn)
        if not rest:
            if not spec.bare_ok:
                self.f.ask(f"{self.name}: starts an interactive shell", spec.dangerous)
            return DONE
        if self.joined:
            shell_string(self.f, " ".join(rest), any(rest_dyn), self.depth, show(argv))
            return DONE
        if self.replace is not None:
            rest_dyn = [d or self.replace in a for a, d in zip(rest, rest_dyn, strict=True)]
        elif spec.stdin_args:
            kind = self.f.feed_kind(self.f, self.f.feed) if self.f.feed else "unknown"
            if kind == "secret":
                self.f.ask(f"{self.name}: runs a command on files listed from your secrets",
                           True)
            fed = kind == "harmless"
            rest, rest_dyn = [*rest, "./found-file" if fed else "{stdin}"], [*rest_dyn, not fed]
        return rest, rest_dyn

    def parallel(self, rest: list[str], rest_dyn: list[bool]) -> Argv:
        """``parallel CMD ::: ARGS``; with no CMD every argument (or input line) is a
        command line of its own."""
        marks = (":::", "::::", ":::+", "::::+")
        cut = next((k for k, w in enumerate(rest) if w in marks), len(rest))
        command, command_dyn = rest[:cut], rest_dyn[:cut]
        if command:
            return [*command, "{stdin}"], [*command_dyn, True]
        lines = [(w, d) for w, d in zip(rest[cut:], rest_dyn[cut:], strict=True)
                 if w not in marks]
        if not lines:
            self.f.ask("parallel: runs the command lines it reads from its input", True)
        for word, dyn in lines:
            shell_string(self.f, word, dyn, self.depth, show(self.argv))
        return DONE

    def long(self, i: int) -> int:
        arg = self.argv[i]
        head, eq, value = arg.partition("=")
        spec = self.spec
        name = match_long(head, spec.long_values + spec.long_flags + tuple(spec.actions))
        if name is None:
            self.f.ask(f"{self.name}: unfamiliar option {head}")
            return -1
        if name in spec.long_values and not eq:
            if i + 1 >= len(self.argv):
                return i + 1
            value, i = self.argv[i + 1], i + 1
            self.next_index = i + 1
            self.act(name, value, self.dynamic[i])
        else:
            self.next_index = i + 1
            self.act(name, value if eq else None, self.dynamic[i])
        return i + 1

    def short(self, i: int) -> int:
        arg, spec = self.argv[i], self.spec
        for j, ch in enumerate(arg[1:], 2):
            opt = "-" + ch
            if ch in spec.short_values:
                value, dyn = arg[j:], self.dynamic[i]
                if not value and i + 1 < len(self.argv):
                    i += 1
                    value, dyn = self.argv[i], self.dynamic[i]
                self.next_index = i + 1
                self.act(opt, value, dyn)
                return i + 1
            if ch in spec.short_optional:
                self.act(opt, arg[j:] or None, self.dynamic[i])
                return i + 1
            if ch not in spec.short_flags and opt not in spec.actions:
                self.f.ask(f"{self.name}: unfamiliar option {opt}")
                return -1
            self.act(opt, None, False)
        return i + 1

    def act(self, option: str, value: str | None, dyn: bool) -> None:
        action = self.spec.actions.get(option, "")
        if action == "shell" and value is not None:
            shell_string(self.f, value, dyn, self.depth, show(self.argv))
            self.stopped = True
        elif action == "split" and value is not None:
            self.split(value, dyn)
        elif action == "chdir":
            self.f.change_dir(None if dyn or value is None else value)
        elif action == "write" and value is not None:
            self.f.ask(f"{self.name}: writes a file ({option})")
            if dyn:
                self.f.ask(f"{self.name}: writes a file named only at run time", True)
            else:
                write_target(self.f, value, self.name)
        elif action == "read" and value is not None and not dyn:
            read_path(self.f, value)
        elif action == "replace":
            self.replace = value or "{}"
        elif action == "exec":
            self.joined = False
        elif action == "stop":
            self.stopped = True
        elif action == "process":  # `ionice -c3 -p PID`: another process, not a command
            processes.scheduling(self.f, self.name, option, value, self.argv)
            self.stopped = True
        elif action in ("ask", "danger"):
            self.f.ask(f"{self.name}: unfamiliar option {option}", action == "danger")

    def split(self, value: str, dyn: bool) -> None:
        """``env -S 'A=1 cmd args'``: the string is split into more of env's own arguments."""
        if dyn or "$" in value or "\\" in value:
            self.f.ask(f"{self.name}: splits a string built at run time", True)
            self.stopped = True
            return
        try:
            words = shlex.split(value)
        except ValueError:
            self.f.ask(f"{self.name}: splits a string it cannot read", True)
            self.stopped = True
            return
        tail, tail_dyn = self.argv[self.next_index:], self.dynamic[self.next_index:]
        self.f.judge(self.f, [self.name, *words, *tail], [False] * (len(words) + 1) + tail_dyn,
                     self.depth)
        self.stopped = True


SHELL_FLAGS = set("ilrsvxeunfhkmptabBCEHPT")
SHELL_SAFE_SETTINGS = frozenset({"pipefail", "errexit", "nounset", "xtrace", "verbose",
                                 "noclobber", "noglob", "posix"})


def peel_shell(f: Findings, name: str, argv: list[str], dynamic: list[bool], depth: int
               ) -> Argv | None:
    """``bash -c CODE [NAME [ARGS]]``: CODE is classified; without -c the shell rule decides."""
    i, command_mode = 1, False
    while i < len(argv) and argv[i].startswith(("-", "+")) and argv[i] not in ("-", "--"):
        arg = argv[i]
        if dynamic[i]:
            f.ask(f"{name}: an option computed at run time", True)
            return DONE
        if arg.startswith("--"):
            if arg in ("--rcfile", "--init-file"):
                f.ask(f"{name}: runs a startup file ({arg})")
                i += 2
                continue
            if arg not in ("--login", "--norc", "--noprofile", "--posix", "--restricted",
                           "--verbose", "--noediting", "--version", "--help"):
                f.ask(f"{name}: unfamiliar option {arg.split('=', 1)[0]}")
            i += 1
            continue
        letters = arg[1:]
        if "o" in letters or "O" in letters:
            value = argv[i + 1] if i + 1 < len(argv) else ""
            if value not in SHELL_SAFE_SETTINGS:
                f.ask(f"{name}: changes a shell setting ({arg} {value[:20]})",
                      value in ("expand_aliases", "extdebug"))
            i += 2
            continue
        for ch in letters:
            if ch == "c":
                command_mode = True
            elif ch not in SHELL_FLAGS:
                f.ask(f"{name}: unfamiliar option -{ch}")
        i += 1
    if not command_mode:
        return None
    if i >= len(argv):
        f.ask(f"{name}: -c without a command")
        return DONE
    if len(argv) > i + 2:
        f.tainted = True  # $1… hold the extra arguments
    shell_string(f, argv[i], dynamic[i], depth, show(argv))
    return DONE


def match_long(head: str, names: tuple[str, ...]) -> str | None:
    """getopt_long's rule: an exact name, or a prefix of exactly one name."""
    if head in names:
        return head
    hits = {n for n in names if n.startswith(head) and len(head) > 2}
    return hits.pop() if len(hits) == 1 else None


def check_env_name(f: Findings, name: str, value: str | None, *, prefix: bool = True) -> None:
    """``NAME=value`` in front of a program (``prefix``) or as a statement. A variable that
    changes which program runs is dangerous unless set to a harmless value (``PAGER=cat``);
    in front of a program any variable not known to be harmless asks."""
    if SAFE_ENV.match(name) or (value is not None and SAFE_VALUE.fullmatch(f"{name}={value}")):
        return
    if HIJACK_VARS.match(name) or (prefix and HIJACK_LIKE.search(name)):
        f.ask(f"sets {name}, which changes how programs run", dangerous=True)
    elif prefix:
        f.ask(f"sets {name} for a program (its effect is not modelled)")


def shell_string(f: Findings, code: str, is_dynamic: bool, depth: int, via: str) -> None:
    if is_dynamic:
        f.ask("runs a command string built at run time", dangerous=True)
        return
    f.nested(code, f, depth + 1)
