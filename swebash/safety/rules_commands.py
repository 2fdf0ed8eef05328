"""Argument rules for commands whose safety depends on their arguments (find, sed, git, rm…).

Each rule receives the findings, the normalised name, argv (words as bash would pass them;
dynamic words keep their source text), which words are dynamic, and the nesting depth. A rule
that records nothing allows the command.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable

from swebash.safety.commands import Findings
from swebash.safety.rules import (
    DISK_TOOLS,
    GIT_FORBIDDEN,
    GIT_READ,
    POWER,
    SHELLS,
    batch,
    flags,
    positional,
    show,
    write_target,
)

Rule = Callable[[Findings, str, list[str], list[bool], int], None]
# sed commands that execute (`e`, the `e` flag of s///) or write files (`w`, `W`, the w flag)
SED_EXEC = re.compile(r"(^|[;{}\n]|[0-9$]|/)\s*e(\s|;|$)|s(.)(?:(?!\3).)*\3(?:(?!\3).)*\3"
                      r"[gpiImM0-9]*e")
SED_WRITE = re.compile(r"(^|[;{}\n]|[0-9$]|/)\s*[wW]\s+\S|s(.)(?:(?!\2).)*\2(?:(?!\2).)*\2"
                       r"[gpiImM0-9]*w")


def find(f: Findings, name: str, argv: list[str], dyn: list[bool], depth: int) -> None:
    i = 1
    while i < len(argv):
        arg = argv[i]
        if arg == "-delete":
            f.ask(f"deletes files: {show(argv)}", dangerous=True)
        elif arg in ("-exec", "-execdir", "-ok", "-okdir"):
            end = i + 1
            while end < len(argv) and argv[end] not in (";", "+"):
                end += 1
            inner = [a for a in argv[i + 1:end] if a != "{}"]
            if inner:
                batch(f, inner, [False] * len(inner), depth, show(argv))
            i = end
        elif arg in ("-fprint", "-fprint0", "-fprintf", "-fls"):
            f.ask(f"writes a file: {show(argv)}")
        i += 1


def fd(f: Findings, name: str, argv: list[str], dyn: list[bool], depth: int) -> None:
    for opt in ("-x", "--exec", "-X", "--exec-batch"):
        if opt in argv:
            inner = [a for a in argv[argv.index(opt) + 1:] if a not in ("{}", ";")]
            if inner:
                batch(f, inner, [False] * len(inner), depth, show(argv))


def sed(f: Findings, name: str, argv: list[str], dyn: list[bool], depth: int) -> None:
    if any(a.startswith("--in-place") or re.fullmatch(r"-[a-zA-Z]*i.*", a) for a in argv[1:]
           if not a.startswith("--") or a.startswith("--in-place")):
        f.ask(f"edits files in place: {show(argv)}")
    scripts = [argv[i + 1] for i, a in enumerate(argv[:-1]) if a in ("-e", "--expression")]
    if not scripts:
        scripts = positional(argv[1:])[:1]
    if "-f" in argv or any(a.startswith("--file") for a in argv):
        f.ask(f"runs a sed script file: {show(argv)}")
    for script in scripts:
        if SED_EXEC.search(script):
            f.ask(f"sed script executes commands: {show(argv)}", dangerous=True)
        elif SED_WRITE.search(script):
            f.ask(f"sed script writes files: {show(argv)}")


def sort(f: Findings, name: str, argv: list[str], dyn: list[bool], depth: int) -> None:
    if any(a.startswith(("--output", "-o")) or re.fullmatch(r"-[a-zA-Z]*o.*", a)
           for a in argv[1:] if a != "--"):
        f.ask(f"writes its output to a file: {show(argv)}")


def uniq(f: Findings, name: str, argv: list[str], dyn: list[bool], depth: int) -> None:
    if len(positional(argv[1:])) > 1:
        f.ask(f"writes its output to a file: {show(argv)}")


def awk(f: Findings, name: str, argv: list[str], dyn: list[bool], depth: int) -> None:
    if "-f" in argv or any(a.startswith("--file") for a in argv):
        f.ask(f"runs an awk program file: {show(argv)}")
    program = next(iter(positional(argv[1:])), "")
    if re.search(r"system\s*\(|\|\s*getline|\|&|print[^;}]*\|\s*\"|print[^;}]*>", program):
        f.ask(f"awk program runs commands or writes files: {show(argv)}", dangerous=True)


def rg(f: Findings, name: str, argv: list[str], dyn: list[bool], depth: int) -> None:
    if any(a.startswith("--pre") for a in argv):
        f.ask(f"runs a preprocessor command: {show(argv)}", dangerous=True)


GIT_LISTING = {"remote": ([], ["-v"], ["show"], ["get-url"]), "tag": ([], ["-l"], ["--list"]),
               "config": (["--get"], ["--list"], ["-l"], ["--get-all"]),
               "stash": (["list"], ["show"]), "worktree": (["list"],),
               "submodule": ([], ["status"]), "reflog": ([], ["show"])}
GIT_BRANCH_CHANGES = {"-D", "--delete", "-d", "-m", "-M", "-c", "-C", "-f", "--force",
                      "--set-upstream-to", "-u", "--edit-description", "--unset-upstream"}


def git(f: Findings, name: str, argv: list[str], dyn: list[bool], depth: int) -> None:
    i = 1
    while i < len(argv) and argv[i].startswith("-"):
        if GIT_FORBIDDEN.match(argv[i]):
            f.ask(f"git option can run commands: {show(argv)}", dangerous=True)
            return
        i += 2 if argv[i] in ("-C", "--git-dir", "--work-tree", "--namespace") else 1
    sub = argv[i] if i < len(argv) else ""
    rest = argv[i + 1:]
    opts = flags(rest)
    if any(re.match(r"^(--output(=.*)?|--ext-diff|--textconv|--exec=.*|--upload-pack.*)$", a)
           for a in rest):
        f.ask(f"git option can run commands or write files: {show(argv)}", dangerous=True)
        return
    if sub == "reset" and "--hard" in rest:
        f.ask(f"discards uncommitted work: {show(argv)}", dangerous=True)
    elif sub == "push" and ({"--force", "-f", "--force-with-lease", "--mirror", "--delete",
                             "-d", "--prune"} & opts or any(a.startswith(("+", ":"))
                                                            for a in positional(rest))):
        f.ask(f"rewrites remote history: {show(argv)}", dangerous=True)
    elif sub == "clean" and {"-f", "--force"} & opts:
        f.ask(f"deletes untracked files: {show(argv)}", dangerous=True)
    elif sub in ("checkout", "restore", "switch") and (
            "." in rest or {"-f", "--force", "--discard-changes"} & opts
            or ("--" in rest and rest.index("--") < len(rest) - 1)):
        f.ask(f"discards changes in the working tree: {show(argv)}", dangerous=True)
    elif sub == "branch":
        if GIT_BRANCH_CHANGES & opts or positional(rest):
            dangerous = bool({"-D", "-f", "--force", "-M", "-C"} & opts)
            f.ask(f"changes branches: {show(argv)}", dangerous=dangerous)
    elif sub == "stash" and rest[:1] in (["drop"], ["clear"]):
        f.ask(f"deletes stashed work: {show(argv)}", dangerous=True)
    elif sub in ("filter-branch", "filter-repo", "update-ref", "gc", "prune") or (
            sub == "reflog" and rest[:1] in (["expire"], ["delete"])):
        f.ask(f"rewrites or prunes repository history: {show(argv)}", dangerous=True)
    elif sub in GIT_LISTING:
        if rest[:1] not in GIT_LISTING[sub]:
            f.ask(f"changes repository state: {show(argv)}")
    elif sub not in GIT_READ:
        f.ask(f"git {sub or '(no subcommand)'} is not read-only: {show(argv)}")


def tee(f: Findings, name: str, argv: list[str], dyn: list[bool], depth: int) -> None:
    targets = [t for t in positional(argv[1:]) if t != "/dev/null"]
    if targets:
        overwrite = "-a" not in argv and any(os.path.exists(os.path.join(f.cwd, t))
                                             for t in targets)
        f.ask(f"writes files: {show(argv)}", dangerous=overwrite)
        for target in targets:
            write_target(f, target, "writes")


def curl(f: Findings, name: str, argv: list[str], dyn: list[bool], depth: int) -> None:
    sends = ("-d", "--data", "--data-binary", "--data-raw", "--data-urlencode", "-F", "--form",
             "-T", "--upload-file", "--json")
    if any(a in sends or a.startswith(("--data", "--form", "--upload-file", "--json"))
           for a in argv[1:]):
        f.ask(f"sends data over the network: {show(argv)}")
    if {"-X", "--request"} & set(argv) and not {"GET", "HEAD"} & set(argv):
        f.ask(f"makes a non-GET request: {show(argv)}")
    writes = ("-o", "--output", "-O", "--remote-name", "--remote-name-all", "-K", "--config",
              "-c", "--cookie-jar", "-D", "--dump-header")
    if any(a in writes or a.startswith(("--output=", "--config=")) or re.fullmatch(
            r"-[a-zA-Z]*[oOKcD].*", a) for a in argv[1:]):
        f.ask(f"writes files: {show(argv)}")


def wget(f: Findings, name: str, argv: list[str], dyn: list[bool], depth: int) -> None:
    if any(a.startswith(("--post-file", "--body-file", "--post-data", "--body-data"))
           for a in argv):
        f.ask(f"sends data over the network: {show(argv)}")
    i = argv.index("-O") if "-O" in argv else -1
    to_stdout = any(a in ("-O-", "-qO-", "--spider") for a in argv) or (
        i > 0 and argv[i + 1:i + 2] == ["-"])
    if not to_stdout:
        f.ask(f"downloads into a file: {show(argv)}")


def transfer(f: Findings, name: str, argv: list[str], dyn: list[bool], depth: int) -> None:
    f.ask(f"connects to another machine: {show(argv)}")


def rm(f: Findings, name: str, argv: list[str], dyn: list[bool], depth: int) -> None:
    opts = flags(argv[1:])
    targets = positional(argv[1:])
    if {"-r", "-R", "--recursive"} & opts:
        f.ask(f"deletes files recursively: {show(argv)}", dangerous=True)
    if {"-f", "--force"} & opts:
        f.ask(f"deletes files without asking: {show(argv)}", dangerous=True)
    broad = [t for t in targets if t in ("/", "~", "*", ".", "..", "/*", "~/")
             or t.startswith(("/etc", "/usr", "/boot", "/bin", "/lib", "/var", "/home"))]
    if broad or any(dyn[1:]):
        f.ask(f"deletes broad or computed targets: {show(argv)}", dangerous=True)
    f.ask(f"deletes files: {show(argv)}")


def destroy(f: Findings, name: str, argv: list[str], dyn: list[bool], depth: int) -> None:
    f.ask(f"destroys file contents: {show(argv)}", dangerous=True)


def simple_write(f: Findings, name: str, argv: list[str], dyn: list[bool], depth: int) -> None:
    targets = positional(argv[1:])
    verb = "copies over" if name in ("cp", "mv", "install") else "writes"
    f.ask(f"changes files: {show(argv)}")
    for target in (targets[-1:] if name in ("cp", "mv", "ln", "install") else targets):
        write_target(f, target, verb)


def perms(f: Findings, name: str, argv: list[str], dyn: list[bool], depth: int) -> None:
    targets = positional(argv[1:])[1:]
    recursive = bool({"-R", "--recursive"} & flags(argv[1:]))
    home_like = [t for t in targets if t in ("/", "~", "~/", "/*", f.home, f.home + "/")]
    system = [t for t in targets if t.startswith(("/etc", "/usr", "/boot", "/bin", "/sbin"))]
    f.ask(f"changes permissions or ownership: {show(argv)}",
          dangerous=bool((recursive and home_like) or system))


def dd(f: Findings, name: str, argv: list[str], dyn: list[bool], depth: int) -> None:
    if any(a.startswith("of=") for a in argv):
        f.ask(f"writes raw data: {show(argv)}", dangerous=True)
    else:
        f.ask(f"copies raw data: {show(argv)}")


def disk(f: Findings, name: str, argv: list[str], dyn: list[bool], depth: int) -> None:
    f.ask(f"changes disks or filesystems: {show(argv)}", dangerous=True)


def crontab(f: Findings, name: str, argv: list[str], dyn: list[bool], depth: int) -> None:
    if argv[1:] != ["-l"]:
        f.ask(f"changes scheduled jobs: {show(argv)}", dangerous=True)


def kill(f: Findings, name: str, argv: list[str], dyn: list[bool], depth: int) -> None:
    if name == "kill" and argv[1:2] in (["-l"], ["-L"]):
        return
    everything = "-1" in argv[2:] or (name in ("killall", "pkill") and "-u" in argv)
    f.ask(f"stops processes: {show(argv)}", dangerous=everything or name == "killall5")


def power(f: Findings, name: str, argv: list[str], dyn: list[bool], depth: int) -> None:
    f.ask(f"shuts down or restarts the machine: {show(argv)}", dangerous=True)


def systemctl(f: Findings, name: str, argv: list[str], dyn: list[bool], depth: int) -> None:
    sub = next(iter(positional(argv[1:])), "status")
    if sub in ("poweroff", "reboot", "halt", "kexec", "suspend", "hibernate"):
        power(f, name, argv, dyn, depth)
    elif not (sub in ("status", "show", "cat", "is-active", "is-enabled", "is-failed")
              or sub.startswith("list-")):
        f.ask(f"changes system services: {show(argv)}")


def shell(f: Findings, name: str, argv: list[str], dyn: list[bool], depth: int) -> None:
    rest = positional(argv[1:])
    if any(d and a.startswith(("<(", "$(", "`")) for a, d in zip(argv[1:], dyn[1:],
                                                                 strict=False)):
        f.ask(f"runs code produced by another command: {show(argv)}", dangerous=True)
    elif rest:
        f.ask(f"runs a script: {show(argv)}")
    elif not (argv[1:] and set(argv[1:]) <= {"--version", "--help"}):
        f.ask(f"runs shell code from its input: {show(argv)}")


def source(f: Findings, name: str, argv: list[str], dyn: list[bool], depth: int) -> None:
    dangerous = any(d and a.startswith(("<(", "$(")) for a, d in zip(argv[1:], dyn[1:],
                                                                     strict=False))
    f.ask(f"runs a script in the shell: {show(argv)}", dangerous=dangerous)


TOOL_LISTING = {"pip": ("list", "show", "freeze", "--version", "check", "index"),
                "npm": ("ls", "list", "view", "info", "--version", "-v", "outdated", "help",
                        "root", "bin", "prefix"),
                "go": ("version", "env", "list", "doc", "help", "vet"),
                "cargo": ("--version", "tree", "metadata", "search", "help", "-V"),
                "rustc": ("--version", "-V", "--print"), "java": ("-version", "--version"),
                "docker": ("ps", "images", "version", "info", "inspect", "logs")}


def tool_listing(f: Findings, name: str, argv: list[str], dyn: list[bool], depth: int) -> None:
    if argv[1:2] and argv[1] in TOOL_LISTING[name]:
        return
    f.ask(f"not known to be read-only: {show(argv)}")


def ip(f: Findings, name: str, argv: list[str], dyn: list[bool], depth: int) -> None:
    changes = ("add", "del", "delete", "set", "change", "replace", "flush", "up", "down")
    if any(w in changes for w in positional(argv[1:])):
        f.ask(f"changes network configuration: {show(argv)}")


RULES: dict[str, Rule] = {
    "find": find, "fd": fd, "fdfind": fd, "sed": sed, "sort": sort, "uniq": uniq, "awk": awk,
    "gawk": awk, "mawk": awk, "rg": rg, "git": git, "tee": tee, "curl": curl, "wget": wget,
    "rm": rm, "rmdir": simple_write, "unlink": simple_write, "shred": destroy,
    "truncate": destroy, "cp": simple_write, "mv": simple_write, "ln": simple_write,
    "install": simple_write, "mkdir": simple_write, "touch": simple_write, "chmod": perms,
    "chown": perms, "chgrp": perms, "dd": dd, "crontab": crontab, "kill": kill,
    "pkill": kill, "killall": kill, "killall5": kill, "systemctl": systemctl,
    "source": source, ".": source, "ip": ip, "ifconfig": ip,
}
RULES.update({tool: transfer for tool in ("scp", "rsync", "nc", "ncat", "netcat", "socat",
                                          "sftp", "ftp", "ssh", "telnet")})
RULES.update({tool: tool_listing for tool in TOOL_LISTING})
RULES.update({tool: disk for tool in DISK_TOOLS})
RULES.update({tool: power for tool in POWER})
RULES.update({sh: shell for sh in SHELLS})
