"""Wrapper peeling and the read-only allowlist: each simple command's words → findings.

Wrappers (sudo, env, timeout, xargs, ``bash -c``, eval …) are peeled repeatedly until the real
command; its rule (``rules_commands.py``) or the allowlist decides. Unknown commands ask.
"""

from __future__ import annotations

import os
import re
from collections.abc import Sequence
from typing import Any

from swebash.safety.commands import Findings, Word, classify_into, text

SHELLS = frozenset({"sh", "bash", "zsh", "dash", "ksh", "ash", "fish", "mksh", "csh", "tcsh"})
INTERPRETERS = frozenset({"python", "python2", "python3", "node", "nodejs", "perl", "ruby",
                          "php", "lua", "deno", "bun", "Rscript", "tclsh", "pwsh", "osascript",
                          "ipython", "irb", "jshell", "groovy", "julia"})
INLINE_FLAGS = {"python": ("-c",), "node": ("-e", "--eval", "-p", "--print"),
                "perl": ("-e", "-E"), "ruby": ("-e",), "php": ("-r",), "lua": ("-e",),
                "bun": ("-e", "--eval"), "Rscript": ("-e",), "pwsh": ("-c", "-Command"),
                "osascript": ("-e",), "julia": ("-e",), "deno": ("eval",)}
READ_ONLY = frozenset({
    "ls", "cat", "head", "tail", "less", "more", "wc", "grep", "egrep", "fgrep", "zgrep", "ag",
    "tree", "pwd", "echo", "printf", "true", "false", "date", "whoami", "id", "groups",
    "uname", "hostname", "uptime", "df", "du", "free", "ps", "pgrep", "stat", "file", "which",
    "type", "whereis", "realpath", "readlink", "basename", "dirname", "printenv", "env",
    "cut", "tr", "nl", "column", "cmp", "comm", "md5sum", "sha1sum", "sha256sum",
    "sha512sum", "cksum", "b2sum", "jq", "xxd", "hexdump", "od", "strings", "test", "[", "[[",
    "seq", "sleep", "locale", "getconf", "lsof", "ss", "netstat", "lscpu", "lsblk", "lsusb",
    "lspci", "nproc", "arch", "tty", "cal", "factor", "expr", "rev", "tac", "fold", "fmt",
    "paste", "join", "expand", "unexpand", "zcat", "bzcat", "xzcat", "base64", "base32",
    "diff", "sdiff", "man", "help", "whatis", "apropos", "cd", "pushd", "popd", "dirs",
    "alias", "history", "jobs", "exit", "return", "shift", "wait", "hash", "umask", "set",
    "shopt", "declare", "typeset", "local", "readonly", "export", "unset", "getopts", "read",
    "mapfile", "readarray", "let", "times", "ulimit", "compgen", "complete", "top", "htop",
    "vmstat", "iostat", "dmesg", "journalctl", "w", "who", "last", "ping", "dig", "nslookup",
    "host", "tput", "clear", "yes", ":", "tldr", "bat", "batcat", "exa", "eza", "tokei",
    "cloc", "uniq", "sort", "sed", "awk", "find", "rg", "git", "curl",
})
READERS = frozenset({"cat", "head", "tail", "less", "more", "grep", "egrep", "fgrep", "zgrep",
                     "rg", "ag", "sort", "uniq", "wc", "cut", "diff", "cmp", "comm", "strings",
                     "xxd", "hexdump", "od", "base64", "base32", "md5sum", "sha1sum",
                     "sha256sum", "sha512sum", "jq", "awk", "gawk", "mawk", "sed", "file", "nl",
                     "tac", "bat", "batcat", "zcat", "paste", "join", "cp", "scp", "rsync",
                     "tar", "zip", "gzip", "xz", "bzip2", "column", "fold", "fmt", "rev",
                     "sqlite3", "openssl", "gpg", "source", ".", "tee", "dd", "install"})
NETWORK_SENDERS = frozenset({"curl", "wget", "scp", "rsync", "nc", "ncat", "netcat", "socat",
                             "sftp", "ftp", "ssh", "telnet", "http", "https", "xh"})
VALUE_OPTIONS = frozenset({"-e", "--regexp", "-g", "--glob", "-t", "--type", "-m",
                           "--max-count", "-A", "-B", "-C", "-n", "-c", "-k", "-d"})
PATTERN_FIRST = frozenset({"grep", "egrep", "fgrep", "zgrep", "rg", "ag", "sed", "awk", "gawk",
                           "mawk", "jq"})
HIJACK_VARS = re.compile(
    r"^(LD_PRELOAD|LD_LIBRARY_PATH|LD_AUDIT|DYLD_\w+|PATH|BASH_ENV|ENV|PROMPT_COMMAND|"
    r"SHELLOPTS|BASHOPTS|PS4|IFS|GIT_\w+|PYTHONSTARTUP|PYTHONPATH|PYTHONHOME|NODE_OPTIONS|"
    r"PERL5OPT|PERL5LIB|RUBYOPT|LESSOPEN|LESSCLOSE|PAGER|MANPAGER|EDITOR|VISUAL|"
    r"BROWSER|SSH_ASKPASS|SUDO_ASKPASS|HISTFILE)$")
DISK_TOOLS = frozenset({"mkfs", "fdisk", "sfdisk", "gdisk", "parted", "mount", "umount",
                        "swapon", "swapoff", "losetup", "wipefs", "mkswap", "cryptsetup",
                        "blkdiscard", "hdparm", "format", "diskutil"})
POWER = frozenset({"shutdown", "reboot", "halt", "poweroff", "init", "telinit"})
GIT_READ = frozenset({"status", "log", "diff", "show", "blame", "rev-parse", "ls-files",
                      "describe", "shortlog", "grep", "rev-list", "cat-file", "ls-tree",
                      "whatchanged", "name-rev", "merge-base", "count-objects", "version",
                      "help", "check-ignore"})
GIT_FORBIDDEN = re.compile(r"^(--output(=.*)?|--ext-diff|--textconv|--exec-path=.*|"
                           r"--upload-pack.*|--receive-pack.*|--config-env.*|-c.*|-o)$")
FORK_BOMB = re.compile(r"(?<![\w:])(\w+|:)\s*\(\)\s*\{[^}]*?\1\s*\|\s*\1")

Peeled = tuple[list[str], list[bool]] | None
DONE: tuple[list[str], list[bool]] = ([], [])


def show(argv: Sequence[str], limit: int = 90) -> str:
    line = " ".join(argv)
    return line if len(line) <= limit else line[: limit - 1] + "…"


def base(name: str) -> str:
    name = os.path.basename(name.rstrip("/")) or name
    if re.match(r"^python\d+(\.\d+)*$", name):
        return "python"
    if re.match(r"^pip\d+(\.\d+)*$", name):
        return "pip"
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


def check_assignment(f: Findings, node: Any) -> None:
    name_node = node.child_by_field_name("name")
    name = text(name_node) if name_node is not None else text(node).split("=", 1)[0]
    if HIJACK_VARS.match(name):
        f.ask(f"changes how programs run (environment hijack): {text(node)[:80]}",
              dangerous=True)


def runs_stdin_as_code(argv: Sequence[str]) -> bool:
    if not argv:
        return False
    name = base(argv[0])
    rest = positional(argv[1:])
    if name in SHELLS:
        return not rest or rest[0] == "-" or "-s" in argv
    return name in INTERPRETERS and (not rest or rest[0] == "-")


def sends_data(argv: Sequence[str]) -> bool:
    name = base(argv[0]) if argv else ""
    if name in ("curl", "wget", "fetch", "nc", "ncat", "socat", "xxd", "openssl", "gpg"):
        return True
    return name in ("base64", "base32") and bool({"-d", "--decode", "-D"} & set(argv[1:]))


def check_argv(f: Findings, words: list[Word], depth: int) -> None:
    judge(f, [w.text for w in words], [w.dynamic for w in words], depth)


def judge(f: Findings, argv: list[str], dynamic: list[bool], depth: int) -> None:
    """Peel wrappers until the real command, then apply its rules."""
    while argv:
        if dynamic[0]:
            f.ask(f"the command name comes from an expansion: {argv[0]}")
            f.commands.append(list(argv))
            return
        name = base(argv[0])
        peeled = peel(f, name, argv, dynamic, depth)
        if peeled is None:
            f.commands.append([name, *argv[1:]])
            apply_rules(f, name, argv, dynamic, depth)
            return
        argv, dynamic = peeled


def skip_options(argv: list[str], dynamic: list[bool], with_value: Sequence[str]
                 ) -> tuple[list[str], list[bool]]:
    i = 1
    while i < len(argv):
        arg = argv[i]
        if arg == "--":
            i += 1
            break
        if not arg.startswith("-") or arg == "-":
            break
        i += 2 if arg in with_value else 1
    return argv[i:], dynamic[i:]


def shell_string(f: Findings, code: str, is_dynamic: bool, depth: int, via: str) -> None:
    if is_dynamic:
        f.ask(f"runs a command string built at run time: {via}")
        return
    classify_into(code, f, depth + 1)


def peel(f: Findings, name: str, argv: list[str], dynamic: list[bool], depth: int) -> Peeled:
    if name in ("sudo", "doas", "run0", "pkexec"):
        f.ask(f"runs with elevated privileges: {show(argv)}", dangerous=True)
        return skip_options(argv, dynamic, ("-u", "-g", "-h", "-p", "-C", "-D", "-r", "-t",
                                            "-U", "-T"))
    if name == "su":
        f.ask(f"switches user (privilege): {show(argv)}", dangerous=True)
        if "-c" in argv[:-1]:
            i = argv.index("-c") + 1
            shell_string(f, argv[i], dynamic[i], depth, show(argv))
        return DONE
    if name == "env":
        return peel_env(f, argv, dynamic, depth)
    if name == "command":
        if {"-v", "-V"} & set(argv[1:]):
            f.commands.append(list(argv))
            return DONE
        return skip_options(argv, dynamic, ())
    if name in ("builtin", "nohup", "exec", "setsid", "time", "chronic", "unbuffer"):
        inner = skip_options(argv, dynamic, ("-a",))
        return inner if inner[0] else DONE
    if name == "nice":
        return skip_options(argv, dynamic, ("-n", "--adjustment"))
    if name == "ionice":
        return skip_options(argv, dynamic, ("-c", "-n", "-p", "-P", "-u", "--class",
                                            "--classdata"))
    if name == "stdbuf":
        return skip_options(argv, dynamic, ("-i", "-o", "-e"))
    if name == "timeout":
        rest, dyn = skip_options(argv, dynamic, ("-s", "-k", "--signal", "--kill-after"))
        return (rest[1:], dyn[1:]) if rest else DONE
    if name == "flock":
        if "-c" in argv[:-1]:
            i = argv.index("-c") + 1
            shell_string(f, argv[i], dynamic[i], depth, show(argv))
            return DONE
        rest, dyn = skip_options(argv, dynamic, ("-w", "-E", "--timeout",
                                                 "--conflict-exit-code"))
        return (rest[1:], dyn[1:]) if rest else DONE
    if name == "watch":
        rest, dyn = skip_options(argv, dynamic, ("-n", "--interval", "-q", "--equexit"))
        if {"-x", "--exec"} & set(argv[1:]) or len(rest) > 1:
            return rest, dyn
        if rest:
            shell_string(f, rest[0], dyn[0], depth, show(argv))
        return DONE
    if name == "xargs":
        with_value = ("-a", "--arg-file", "-d", "--delimiter", "-E", "-I", "-L", "-n",
                      "--max-args", "-P", "--max-procs", "-s", "--max-chars",
                      "--process-slot-var", "-e", "-i", "-l")
        rest, dyn = skip_options(argv, dynamic, with_value)
        if rest:
            batch(f, rest, dyn, depth, show(argv))
        return DONE
    if name == "busybox":
        return (argv[1:], dynamic[1:]) if len(argv) > 1 else DONE
    if name in SHELLS:
        for i, arg in enumerate(argv[1:-1], 1):
            if re.fullmatch(r"-[a-zA-Z]*c[a-zA-Z]*", arg):
                shell_string(f, argv[i + 1], dynamic[i + 1], depth, show(argv))
                return DONE
        return None
    if name == "eval":
        shell_string(f, " ".join(argv[1:]), any(dynamic[1:]), depth, show(argv))
        return DONE
    return None


def batch(f: Findings, inner: list[str], dynamic: list[bool], depth: int, via: str) -> None:
    """A command run once per input line or found file: anything beyond reading is dangerous."""
    before = len(f.reasons)
    judge(f, inner, dynamic, depth)
    if len(f.reasons) > before:
        f.ask(f"runs a changing command for every item: {via}", dangerous=True)


def peel_env(f: Findings, argv: list[str], dynamic: list[bool], depth: int) -> Peeled:
    i = 1
    while i < len(argv):
        arg = argv[i]
        if arg in ("-u", "-C", "--unset", "--chdir"):
            i += 2
        elif arg in ("-S", "--split-string") and i + 1 < len(argv):
            shell_string(f, argv[i + 1], dynamic[i + 1], depth, show(argv))
            return DONE
        elif arg.startswith("-"):
            i += 1
        elif "=" in arg:
            if HIJACK_VARS.match(arg.split("=", 1)[0]):
                f.ask(f"changes how programs run (environment hijack): {arg[:80]}",
                      dangerous=True)
            i += 1
        else:
            break
    if i >= len(argv):
        return None  # bare `env` prints the environment
    return argv[i:], dynamic[i:]


def read_args(f: Findings, name: str, args: Sequence[str], dynamic: Sequence[bool]) -> None:
    """Deny reading secret material named as a file argument (cat ~/.ssh/id_rsa, curl -d @…)."""
    from swebash.safety.paths import check_path

    skip_pattern = name in PATTERN_FIRST and not {"-e", "-f", "--regexp", "--file"} & set(args)
    skip_next = False
    for arg, dyn in zip(args, dynamic, strict=False):
        if skip_next:
            skip_next = False
            if not arg.startswith("@"):  # `-d @file` sends a file: still judged below
                continue
        if dyn or not arg:
            continue
        if arg in VALUE_OPTIONS:
            skip_next = True
            continue
        if arg.startswith("-"):
            if "=" not in arg:
                continue
            arg = arg.split("=", 1)[1]
        elif skip_pattern:
            skip_pattern = False
            continue
        arg = arg.split("=@", 1)[-1].lstrip("@")
        if arg.startswith(("if=", "of=")):
            arg = arg[3:]
        if not arg:
            continue
        verdict = check_path(arg, f.cwd, f.home, write=False)
        if verdict.decision == "deny" and verdict.dangerous:
            f.deny(verdict.reasons[0])


def write_target(f: Findings, path: str, verb: str) -> None:
    from swebash.safety.paths import check_path, expand

    verdict = check_path(path, f.cwd, f.home, write=True)
    if verdict.decision == "deny":
        f.deny(verdict.reasons[0])
        return
    if verb == "copies over" and os.path.isfile(expand(path, f.cwd, f.home)):
        f.ask(f"overwrites an existing file: {path}", dangerous=True)
    if verdict.dangerous:
        for reason in verdict.reasons:
            f.ask(reason, dangerous=True)


def apply_rules(f: Findings, name: str, argv: list[str], dynamic: list[bool],
                depth: int) -> None:
    from swebash.safety.rules_commands import RULES

    if name in READERS or name in NETWORK_SENDERS:
        read_args(f, name, argv[1:], dynamic[1:])
    rule = RULES.get(name)
    if rule is not None:
        rule(f, name, argv, dynamic, depth)
    elif name in INTERPRETERS or name.startswith(("python", "node", "ruby", "perl", "php")):
        interpreter(f, name, argv)
    elif name not in READ_ONLY:
        f.ask(f"not known to be read-only: {show(argv)}")


def interpreter(f: Findings, name: str, argv: list[str]) -> None:
    key = next((k for k in INLINE_FLAGS if name.startswith(k)), name)
    inline = INLINE_FLAGS.get(key, ("-c", "-e"))
    for arg in positional_prefix(argv[1:]):
        short = [fl[1] for fl in inline if len(fl) == 2]
        if arg in inline or (re.fullmatch(r"-[a-zA-Z]+", arg) and arg[-1] in short):
            f.ask(f"runs inline {name} code: {show(argv)}", dangerous=True)
            return
    if argv[1:] and set(argv[1:]) <= {"--version", "-V", "--help", "-h"}:
        return  # version / help only
    f.ask(f"runs a program: {show(argv)}")


def positional_prefix(args: Sequence[str]) -> list[str]:
    """Options before the script name (after it, flags belong to the script)."""
    out = []
    for arg in args:
        if not arg.startswith("-"):
            break
        out.append(arg)
    return out
