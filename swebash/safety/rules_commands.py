"""Argument rules for programs that change things (rm, cp, git, kill…) or run code (shells,
interpreters, editors, ssh's remote command); tools read-only in some modes live in
``listings.py``.

Each rule receives the findings, the normalised name, argv (words as bash would pass them;
dynamic words keep their source text), which words are dynamic, and the nesting depth. A rule
that records nothing allows the command. Reasons name the program and what it does, never the
whole command line.
"""

from __future__ import annotations

import re

from swebash.safety.checks import read_path, write_target
from swebash.safety.model import Findings, flags, long_option, positional
from swebash.safety.tables import INLINE_FLAGS

GIT_READ = frozenset({"status", "log", "diff", "show", "blame", "rev-parse", "ls-files",
                      "describe", "shortlog", "grep", "rev-list", "cat-file", "ls-tree",
                      "whatchanged", "name-rev", "merge-base", "count-objects", "version",
                      "help", "check-ignore", "ls-remote", "diff-tree", "diff-files",
                      "diff-index", "for-each-ref", "show-ref", "show-branch", "var",
                      "check-attr", "verify-commit", "verify-tag", "cherry", "range-diff",
                      "annotate", "symbolic-ref", "fsck"})
GIT_LISTING = {"remote": ([], ["-v"], ["show"], ["get-url"], ["--verbose"]),
               "stash": (["list"], ["show"]), "worktree": (["list"],),
               "submodule": ([], ["status"])}
# sub-commands that list unless given one of these options (or, for tag/branch, a name)
GIT_WRITES = {"tag": {"-d", "--delete", "-a", "--annotate", "-s", "--sign", "-u", "-f",
                      "--force", "-m", "--message", "-F", "--file", "-e", "--edit"},
              "branch": {"-D", "--delete", "-d", "-m", "-M", "--move", "-c", "-C", "--copy",
                         "-f", "--force", "--set-upstream-to", "-u", "--edit-description",
                         "--unset-upstream", "-t", "--track"},
              "config": {"--unset", "--unset-all", "--add", "--replace-all", "--rename-section",
                         "--remove-section", "-e", "--edit"},
              "reflog": {"expire", "delete", "drop"}}
GIT_CODE_KEYS = re.compile(
    r"(?i)^(core\.(pager|hookspath|sshcommand|editor|fsmonitor|askpass|gitproxy)|alias\..*|"
    r"diff\..*|merge\..*\.driver|filter\..*|.*\.(command|cmd|program|path|helper|tool)|"
    r"credential\..*|include\..*|includeif\..*|sequence\.editor|gpg\.program|"
    r"uploadpack\..*|receivepack\..*|remote\..*\.(uploadpack|receivepack|proxy)|"
    r"http\..*proxy.*|url\..*)$")
GIT_NAMED_LISTS = {"-l", "--list", "--contains", "--no-contains", "--merged", "--no-merged",
                   "--points-at", "--sort", "--format", "-a", "--all", "-r", "--remotes",
                   "--get", "--get-all", "--get-regexp", "--show-current", "-n"}
# options that run a program, open a pager/editor or write a file, for any git subcommand
GIT_RUNS = ("--output", "--ext-diff", "--textconv", "--exec", "--upload-pack",
            "--receive-pack", "--open-files-in-pager", "--tool", "--extcmd", "--web",
            "--config-env", "--exec-path", "--run", "--filters", "--paginate")
GIT_VALUE_TOP = ("-C", "--git-dir", "--work-tree", "--namespace", "--super-prefix")


def git(f: Findings, name: str, argv: list[str], dyn: list[bool], depth: int) -> None:
    i = 1
    while i < len(argv) and argv[i].startswith("-"):
        arg = argv[i]
        if arg in ("--version", "-v", "--help", "-h", "--exec-path", "--html-path",
                   "--man-path", "--info-path"):
            return
        if arg.startswith("-c") or long_option(arg, "--config-env", "--exec-path") or \
                arg in ("-p", "--paginate"):
            f.ask(f"git: option {arg.split('=', 1)[0][:14]} can run commands", True)
            return
        i += 2 if arg in GIT_VALUE_TOP else 1
    sub = argv[i] if i < len(argv) else ""
    rest = argv[i + 1:]
    for arg in rest:  # `git show HEAD:.env` prints a file from history
        if ":" in arg and not arg.startswith("-") and "://" not in arg:
            read_path(f, arg.split(":", 1)[1] or ".")
    opts = flags(rest)
    if any(a.startswith(("ext::", "fd::")) or "::" in a.split("/", 1)[0] for a in rest):
        f.ask(f"git {sub}: a remote helper address runs a command (ext::)", True)
        return
    if any(long_option(a, *GIT_RUNS) or re.fullmatch(r"-O.*", a) for a in rest):
        f.ask(f"git {sub}: option can run commands or write files", True)
        return
    if sub == "help" and opts & {"-w", "--web", "-i", "--info"}:
        f.ask("git help: opens a browser or viewer")
    elif sub == "reset" and "--hard" in rest:
        f.ask("git reset --hard: discards uncommitted work", True)
    elif sub == "push" and any("://" in a or re.match(r"^[\w.-]+@[\w.-]+:", a)
                               for a in positional(rest)):
        f.ask("git push: sends the repository to an address given inline", True)
    elif sub == "push" and ({"--force", "-f", "--force-with-lease", "--mirror", "--delete",
                             "-d", "--prune"} & opts or any(a.startswith(("+", ":"))
                                                            for a in positional(rest))):
        f.ask("git push: rewrites or deletes remote history", True)
    elif sub == "clean" and opts & {"-f", "--force"}:
        f.ask("git clean: deletes untracked files", True)
    elif sub in ("checkout", "restore", "switch") and (
            "." in rest or {"-f", "--force", "--discard-changes"} & opts
            or ("--" in rest and rest.index("--") < len(rest) - 1)
            or (sub == "restore" and positional(rest))):
        f.ask(f"git {sub}: discards changes in the working tree", True)
    elif sub == "worktree" and rest[:1] in (["remove"], ["prune"]):
        f.ask("git worktree: deletes a working tree", True)
    elif sub == "stash" and rest[:1] in (["drop"], ["clear"], ["pop"]):
        f.ask("git stash: deletes stashed work", True)
    elif sub == "rebase" or (sub == "commit" and "--amend" in rest) or (
            sub == "remote" and rest[:1] in (["remove"], ["rm"], ["set-url"], ["rename"])):
        f.ask(f"git {sub}: rewrites history or where it is sent", True)
    elif sub in ("filter-branch", "filter-repo", "update-ref", "gc", "prune", "rm") or (
            sub == "reflog" and rest[:1] in (["expire"], ["delete"])):
        f.ask(f"git {sub}: rewrites, prunes or deletes", True)
    elif sub == "config" and any(GIT_CODE_KEYS.match(a) for a in positional(rest)):
        f.ask("git config: sets a key that runs a program", True)
    elif sub in GIT_WRITES:
        words = {a.split("=", 1)[0] for a in rest}
        named = positional(rest)
        reads = not (GIT_WRITES[sub] & (opts | words)) and (
            not named or bool(GIT_NAMED_LISTS & {o for o in words if o.startswith("-")})
            or (sub == "config" and len(named) == 1) or sub == "reflog")
        if not reads:
            dangerous = bool({"-D", "-f", "--force", "-M", "-C", "-d", "--delete"} & opts)
            f.ask(f"git {sub}: changes repository state", dangerous and sub != "config")
    elif sub in GIT_LISTING:
        if rest[:1] not in GIT_LISTING[sub]:
            f.ask(f"git {sub}: changes repository state")
    elif sub not in GIT_READ:
        f.ask(f"git {sub or '(no subcommand)'}: not read-only")


def tee(f: Findings, name: str, argv: list[str], dyn: list[bool], depth: int) -> None:
    targets = [t for t in positional(argv[1:]) if t != "/dev/null"]
    if targets:
        f.ask("tee: writes files")
        for target in targets:
            write_target(f, target, "tee", overwrite_is_dangerous="-a" not in argv)


def rm(f: Findings, name: str, argv: list[str], dyn: list[bool], depth: int) -> None:
    opts = flags(argv[1:])
    if {"-r", "-R", "--recursive"} & opts:
        f.ask(f"{name}: deletes files recursively", True)
    else:
        f.ask(f"{name}: deletes files", True)
    for target in positional(argv[1:]):
        write_target(f, target, name, overwrite_is_dangerous=False)


def destroy(f: Findings, name: str, argv: list[str], dyn: list[bool], depth: int) -> None:
    f.ask(f"{name}: destroys file contents", True)


def simple_write(f: Findings, name: str, argv: list[str], dyn: list[bool], depth: int) -> None:
    targets = positional(argv[1:])
    f.ask(f"{name}: changes files")
    if name in ("cp", "mv", "ln", "install") and ({"-t", "--target-directory"} & flags(argv)):
        return
    overwrite = name in ("cp", "mv", "install") or (name == "ln" and bool(
        {"-f", "--force"} & flags(argv[1:])))
    for target in (targets[-1:] if name in ("cp", "mv", "ln", "install") else targets):
        write_target(f, target, name, overwrite_is_dangerous=overwrite)
    if name == "mv" and targets[-1:] == ["/dev/null"]:
        f.ask("mv: moves files into /dev/null (destroys them)", True)
    if name == "mv":
        for source in targets[:-1]:
            write_target(f, source, name, overwrite_is_dangerous=False)


def perms(f: Findings, name: str, argv: list[str], dyn: list[bool], depth: int) -> None:
    targets = positional(argv[1:])[1:]
    recursive = bool({"-R", "--recursive"} & flags(argv[1:]))
    home_like = [t for t in targets if t in ("/", "~", "~/", "/*", f.home, f.home + "/", "*")]
    system = [t for t in targets if t.startswith(("/etc", "/usr", "/boot", "/bin", "/sbin"))]
    f.ask(f"{name}: changes permissions or ownership",
          dangerous=bool((recursive and home_like) or system or recursive))


def dd(f: Findings, name: str, argv: list[str], dyn: list[bool], depth: int) -> None:
    if any(a.startswith("of=") for a in argv):
        f.ask("dd: writes raw data", True)
    else:
        f.ask("dd: copies raw data")


def disk(f: Findings, name: str, argv: list[str], dyn: list[bool], depth: int) -> None:
    listing: dict[str, list[list[str]]] = {"mount": [[]], "swapon": [["--show"], ["-s"]],
                                           "fdisk": [["-l"]],
                                           "diskutil": [["list"], ["apfs", "list"]]}
    if argv[1:] in listing.get(name, []) or (name == "diskutil" and argv[1:2] == ["info"]):
        return  # listing mounts, swaps, partitions or disks
    f.ask(f"{name}: changes disks or filesystems", True)


def sysctl(f: Findings, name: str, argv: list[str], dyn: list[bool], depth: int) -> None:
    if any("=" in a or a in ("-w", "--write", "-p", "--load", "--system") for a in argv[1:]):
        f.ask("sysctl: changes kernel settings", True)


def crontab(f: Findings, name: str, argv: list[str], dyn: list[bool], depth: int) -> None:
    if argv[1:] != ["-l"]:
        f.ask("crontab: changes scheduled jobs", True)


def kill(f: Findings, name: str, argv: list[str], dyn: list[bool], depth: int) -> None:
    if name == "kill" and argv[1:2] in (["-l"], ["-L"]):
        return
    f.ask(f"{name}: stops processes", True)


def power(f: Findings, name: str, argv: list[str], dyn: list[bool], depth: int) -> None:
    f.ask(f"{name}: shuts down or restarts the machine", True)


def systemctl(f: Findings, name: str, argv: list[str], dyn: list[bool], depth: int) -> None:
    words = positional(argv[1:])
    sub = (words[1:2] or ["status"])[0] if name == "service" else next(iter(words), "status")
    if sub in ("poweroff", "reboot", "halt", "kexec", "suspend", "hibernate"):
        power(f, name, argv, dyn, depth)
    elif not (sub in ("status", "show", "cat", "is-active", "is-enabled", "is-failed",
                      "is-system-running", "get-default", "show-environment")
              or sub.startswith("list-")):
        f.ask(f"{name} {sub}: changes system services",
              sub in ("stop", "disable", "mask", "kill", "isolate", "rescue", "emergency"))


def shell(f: Findings, name: str, argv: list[str], dyn: list[bool], depth: int) -> None:
    rest = positional(argv[1:])
    if any(d and a.startswith(("<(", "$(", "`")) for a, d in zip(argv[1:], dyn[1:],
                                                                 strict=False)):
        f.ask(f"{name}: runs code produced by another command", True)
    elif rest:
        f.ask(f"{name}: runs a script")
    elif not (argv[1:] and set(argv[1:]) <= {"--version", "--help"}):
        f.ask(f"{name}: runs shell code from its input")


def source(f: Findings, name: str, argv: list[str], dyn: list[bool], depth: int) -> None:
    dangerous = any(d and a.startswith(("<(", "$(")) for a, d in zip(argv[1:], dyn[1:],
                                                                     strict=False))
    f.ask(f"{name}: runs a script in the shell", dangerous)
    for arg in argv[1:2]:
        read_path(f, arg)


def interpreter(f: Findings, name: str, argv: list[str], dyn: list[bool], depth: int) -> None:
    key = next((k for k in INLINE_FLAGS if name.startswith(k)), name)
    inline = INLINE_FLAGS.get(key, ("-c", "-e"))
    short = [fl[1] for fl in inline if len(fl) == 2]
    for arg in options_before_script(argv[1:]):
        if arg in inline or (re.fullmatch(r"-[a-zA-Z]+", arg) and arg[-1] in short) or \
                arg.startswith(("--eval=", "--print=")):
            f.ask(f"{name}: runs inline code", True)
            return
    if argv[1:] and set(argv[1:]) <= {"--version", "-V", "-v", "--help", "-h", "-version"}:
        return
    if not positional(argv[1:]) or "-" in argv[1:]:
        f.ask(f"{name}: runs code from its input")
        return
    f.ask(f"{name}: runs a program")


def options_before_script(args: list[str]) -> list[str]:
    """Options before the script name (after it, flags belong to the script)."""
    out = []
    for arg in args:
        if not arg.startswith("-"):
            break
        out.append(arg)
    return out


EDITORS = frozenset({"vim", "vi", "nvim", "ex", "view", "gvim", "emacs", "nano", "ed", "kak",
                     "hx", "micro"})


def editor(f: Findings, name: str, argv: list[str], dyn: list[bool], depth: int) -> None:
    runs = [a for i, a in enumerate(argv[1:], 1)
            if a.startswith("+") or argv[i - 1] in ("-c", "--cmd", "--eval", "-S", "-u",
                                                     "--init-file", "-l", "--load")]
    if any("!" in a or "system" in a or "shell" in a or "call" in a for a in runs) or \
            ("-s" in argv and name in ("vim", "vi", "nvim", "ex")):
        f.ask(f"{name}: runs commands from its arguments", True)
    f.ask(f"{name}: opens an editor")


SSH_VALUES = frozenset({"-i", "-p", "-l", "-o", "-F", "-J", "-L", "-R", "-D", "-b", "-c", "-E",
                        "-e", "-m", "-O", "-Q", "-S", "-W", "-w", "-B", "-I"})


LOCAL_COMMAND = re.compile(r"(?i)(proxycommand|localcommand|permitlocalcommand|"
                           r"knownhostscommand|remotecommand|proxyusefdpass|match\s+exec)")


def local_command(argv: list[str]) -> bool:
    """ssh/scp/sftp ``-o ProxyCommand=…``, ``-F config`` (which may hold one), rsync ``-e``."""
    return any(LOCAL_COMMAND.search(a) for a in argv[1:]) or any(
        a in ("-F", "-e", "--rsh", "-S") or a.startswith(("--rsh=", "-F", "--rsync-path"))
        for a in argv[1:])


def ssh(f: Findings, name: str, argv: list[str], dyn: list[bool], depth: int) -> None:
    """The words after the host are a command the remote shell runs: judged like local ones."""
    f.ask(f"{name}: connects to another machine", bool({"-R", "-L", "-D", "-w"} & set(argv)))
    if local_command(argv):
        f.ask(f"{name}: an option runs a local command (ProxyCommand…)", True)
    i, host = 1, None
    while i < len(argv):
        if argv[i] in SSH_VALUES:
            i += 2
            continue
        if not argv[i].startswith("-"):
            host = i
            break
        i += 1
    if host is not None and host + 1 < len(argv):
        if any(dyn[host + 1:]):
            f.ask(f"{name}: runs a remote command built at run time", True)
        else:
            f.nested(" ".join(argv[host + 1:]), f, depth + 1)
