"""Argument rules for programs that change things (rm, cp, git, kill…), run code (shells,
interpreters) or are read-only only in some modes (``kubectl get``, ``docker ps``, ``npm ls``).

Each rule receives the findings, the normalised name, argv (words as bash would pass them;
dynamic words keep their source text), which words are dynamic, and the nesting depth. A rule
that records nothing allows the command. Reasons name the program and what it does, never the
whole command line.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from swebash.safety.checks import write_target
from swebash.safety.model import Findings, flags, long_option, positional
from swebash.safety.tables import INLINE_FLAGS, SHELLS

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
                         "--remove-section", "-e", "--edit", "--global", "--system"},
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
    from swebash.safety.checks import read_path

    for arg in rest:  # `git show HEAD:.env` prints a file from history
        if ":" in arg and not arg.startswith("-") and "://" not in arg:
            read_path(f, arg.split(":", 1)[1] or ".")
    opts = flags(rest)
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
    if (name == "mount" and not argv[1:]) or (argv[1:] in (["--show"], ["-s"], ["-l"]) and \
            name in ("swapon", "fdisk", "mount")):
        return  # listing mounts, swaps or partitions
    f.ask(f"{name}: changes disks or filesystems", True)


ADMIN = frozenset({"iptables", "ip6tables", "nft", "ufw", "firewall-cmd", "userdel", "useradd",
                   "usermod", "passwd", "chpasswd", "groupdel", "groupadd", "visudo",
                   "modprobe", "rmmod", "insmod", "setenforce", "chsh", "update-alternatives",
                   "ldconfig", "grub-install", "update-grub", "efibootmgr", "at", "batch",
                   "systemd-run", "launchctl", "schtasks"})
ADMIN_READS = frozenset({"-L", "-S", "--list", "--list-rules", "status", "list", "-l",
                         "--state", "--display", "--query"})


def admin(f: Findings, name: str, argv: list[str], dyn: list[bool], depth: int) -> None:
    if argv[1:] and set(argv[1:]) <= ADMIN_READS | {"-n", "-v", "--numeric", "verbose"}:
        return
    f.ask(f"{name}: changes system configuration or schedules commands", True)


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


def ssh(f: Findings, name: str, argv: list[str], dyn: list[bool], depth: int) -> None:
    """The words after the host are a command the remote shell runs: judged like local ones."""
    f.ask(f"{name}: connects to another machine", bool({"-R", "-L", "-D", "-w"} & set(argv)))
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


# linters that only read the files they are given (none of them loads project code)
LINTERS = frozenset({"shellcheck", "yamllint", "hadolint", "actionlint", "flake8",
                     "pycodestyle", "pydocstyle", "vulture", "cppcheck", "jsonlint"})
# formatters: read-only only when asked to check or show a diff
FORMATTERS = frozenset({"black", "isort", "gofmt", "rustfmt", "autopep8", "yapf", "shfmt",
                        "clang-format", "ruff"})
CHECK_FLAGS = frozenset({"--check", "--diff", "-l", "-d", "--dry-run", "-n", "--list"})
FIX_FLAGS = frozenset({"-w", "--write", "-i", "--in-place", "--fix", "--unsafe-fixes",
                       "--add-noqa", "--watch", "-a", "--aggressive", "-o", "--output-file",
                       "--output", "--cache-dir", "--tee", "--write-changes"})


def linter(f: Findings, name: str, argv: list[str], dyn: list[bool], depth: int) -> None:
    words = {a.split("=", 1)[0] for a in argv[1:]}
    if name == "ruff":
        sub = next(iter(positional(argv[1:])), "check")
        reads = (sub == "check" or (sub == "format" and words & CHECK_FLAGS)
                 or sub in ("version", "rule", "linter", "config"))
        if reads and not words & FIX_FLAGS:
            return
    elif not words & FIX_FLAGS and (name in LINTERS or words & CHECK_FLAGS):
        return
    f.ask(f"{name}: may rewrite files")


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
    sub = next(iter(positional(argv[1:])), "status")
    if sub in ("poweroff", "reboot", "halt", "kexec", "suspend", "hibernate"):
        power(f, name, argv, dyn, depth)
    elif not (sub in ("status", "show", "cat", "is-active", "is-enabled", "is-failed",
                      "is-system-running", "get-default", "show-environment")
              or sub.startswith("list-")):
        f.ask(f"systemctl {sub}: changes system services",
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
    from swebash.safety.checks import read_path

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


@dataclass(frozen=True)
class Listing:
    """A tool whose listed subcommands only read; everything else asks."""

    reads: tuple[tuple[str, ...], ...]
    values: frozenset[str] = frozenset()  # global options taking a value
    secret_words: tuple[str, ...] = ()  # any of these words makes it ask (prints secrets)


VERSION_FLAGS = frozenset({"--version", "-V", "-v", "--help", "-h", "-version", "version"})


def one(*words: str) -> tuple[tuple[str, ...], ...]:
    """Sub-commands of one word each."""
    return tuple((w,) for w in words)


KUBE_READ = one("get", "describe", "logs", "version", "api-resources", "api-versions",
                "cluster-info", "top", "explain", "events")
LISTINGS: dict[str, Listing] = {
    "kubectl": Listing((*KUBE_READ, ("config", "view"), ("config", "get-contexts"),
                        ("config", "current-context"), ("auth", "can-i"),
                        ("rollout", "status"), ("rollout", "history")),
                       frozenset({"-n", "--namespace", "--context", "--kubeconfig", "-l",
                                  "--selector", "-o", "--output", "-c", "--container",
                                  "--cluster", "--user", "--tail", "--since"}),
                       ("secret", "secrets", "--raw", "token")),
    "docker": Listing((*one("ps", "images", "version", "info", "inspect", "logs", "top", "port",
                            "history", "search"),
                       ("stats", "--no-stream"), ("network", "ls"), ("network", "inspect"),
                       ("volume", "ls"), ("volume", "inspect"), ("image", "ls"),
                       ("image", "inspect"), ("container", "ls"), ("container", "inspect"),
                       ("system", "df"), ("context", "ls"), ("context", "show"),
                       ("compose", "ps"), ("compose", "ls"), ("compose", "logs"),
                       ("compose", "images"), ("compose", "version")),
                      frozenset({"-H", "--host", "--context", "--config", "-f", "--format",
                                 "--filter"})),
    "docker-compose": Listing(one("ps", "logs", "config", "images", "ls", "version", "top")),
    "helm": Listing((*one("list", "ls", "status", "history", "version", "search", "show",
                          "env"), ("repo", "list")),
                    frozenset({"-n", "--namespace", "--kube-context"})),
    "npm": Listing((*one("ls", "list", "view", "info", "outdated", "help", "root", "prefix",
                         "why", "explain", "search", "ll", "la", "fund", "doctor"),
                    ("config", "list"), ("config", "get"), ("audit",))),
    "yarn": Listing(one("list", "info", "why", "outdated", "licenses")),
    "pnpm": Listing(one("ls", "list", "why", "outdated", "licenses")),
    "pip": Listing((*one("list", "show", "freeze", "check", "help", "inspect", "debug"),
                    ("index", "versions"), ("config", "list"))),
    "go": Listing((*one("version", "list", "doc", "help"), ("env",))),
    "cargo": Listing(one("version", "search", "help", "--list")),
    "rustc": Listing((("--print",),)),
    "conda": Listing((("list",), ("info",), ("env", "list"), ("search",))),
    "brew": Listing(one("list", "ls", "info", "search", "outdated", "config",
                                         "deps", "leaves", "--prefix", "--cellar", "desc",
                                         "uses", "doctor")),
    "apt": Listing((("list",), ("show",), ("search",), ("policy",), ("depends",),
                    ("rdepends",))),
    "apt-cache": Listing(one("policy", "show", "search", "depends",
                                              "rdepends", "madison", "showpkg", "stats")),
    "dpkg": Listing(one("-l", "--list", "-L", "--listfiles", "-s", "--status",
                                         "-S", "--search", "--print-architecture",
                                         "--get-selections")),
    "dpkg-query": Listing(one("-l", "-L", "-s", "-S", "-W", "--show")),
    "rpm": Listing(one("-q", "-qa", "-qi", "-ql", "-qf", "-qR", "--query")),
    "snap": Listing((("list",), ("info",), ("version",))),
    "flatpak": Listing((("list",), ("info",))),
    "gh": Listing((("pr", "list"), ("pr", "view"), ("pr", "status"), ("pr", "diff"),
                   ("pr", "checks"), ("issue", "list"), ("issue", "view"), ("repo", "view"),
                   ("run", "list"), ("run", "view"), ("release", "list"), ("release", "view"),
                   ("auth", "status")), frozenset({"-R", "--repo"}),
                  ("--show-token", "-t")),
    "terraform": Listing((("version",), ("validate",), ("providers",), ("fmt", "-check"),
                          ("graph",))),
    "aws": Listing((("--version",), ("sts", "get-caller-identity"), ("s3", "ls")),
                   frozenset({"--region", "--profile", "--output"})),
    "gcloud": Listing((("config", "list"), ("version",), ("info",)),
                      frozenset({"--project", "--format"})),
    "openssl": Listing(one("version", "x509", "rand", "dgst", "verify", "ciphers", "list", "crl",
                           "asn1parse"), secret_words=("-out", "-keyout")),
    "hostnamectl": Listing(((), ("status",))),
    "timedatectl": Listing(((), ("status",), ("show",), ("list-timezones",))),
    "localectl": Listing(((), ("status",), ("list-locales",), ("list-keymaps",))),
    "loginctl": Listing((("list-sessions",), ("list-users",), ("show-session",),
                         ("session-status",), ("user-status",))),
    "nmcli": Listing((("general",), ("device",), ("device", "status"), ("connection", "show"),
                      ("radio",), ("networking",)), secret_words=("--show-secrets", "-s",
                                                                  "modify", "up", "down",
                                                                  "delete", "add", "on",
                                                                  "off", "connect")),
    "resolvectl": Listing(((), ("status",), ("query",), ("dns",), ("domain",),
                           ("statistics",))),
    "ip": Listing(((), ("a",), ("addr",), ("address",), ("r",), ("route",), ("link",),
                   ("l",), ("neigh",), ("n",), ("-br",), ("-c",), ("-j",), ("rule",),
                   ("netns", "list"), ("maddr",), ("monitor",)),
                  secret_words=("add", "del", "delete", "set", "change", "replace", "flush",
                                "up", "down", "append", "prepend")),
    "ifconfig": Listing(((),), secret_words=("up", "down", "add", "del", "netmask", "mtu",
                                             "hw", "promisc")),
    "pyenv": Listing((("versions",), ("version",), ("which",))),
    "poetry": Listing((("show",), ("check",), ("env", "info"), ("env", "list"), ("version",))),
    "uv": Listing((("pip", "list"), ("pip", "show"), ("pip", "freeze"), ("tree",),
                   ("python", "list"), ("version",))),
}


# sub-command words that destroy something whatever tool they belong to
DESTROY_WORDS = frozenset({"delete", "del", "rm", "rmi", "remove", "destroy", "prune",
                           "uninstall", "purge", "drop", "flushall", "flushdb", "unpublish",
                           "terminate", "kill", "wipe", "erase", "truncate", "deregister",
                           "revoke", "reset", "deprovision", "decommission", "nuke",
                           "dropdb", "teardown", "down", "deluser", "userdel"})
SQL_DESTROY = re.compile(r"(drop|delete|truncate|alter|update|grant|revoke|remove|flush)",
                         re.I)
DB_CLIENTS = frozenset({"psql", "mysql", "mariadb", "sqlite3", "mongo", "mongosh", "redis-cli",
                        "cqlsh", "clickhouse-client", "sqlcmd", "duckdb", "influx"})
DASHED_DESTROY = frozenset({"destroy", "delete", "purge", "prune", "drop"})


def destroys(f: Findings, name: str, argv: list[str]) -> bool:
    words: list[str] = []
    for word in argv[1:]:
        low = word.lower()
        if low.startswith("-"):
            if low.lstrip("-").split("=", 1)[0] in DASHED_DESTROY:
                words.append(low.lstrip("-"))
            continue
        words.append(low)
        words.extend(low.split("-"))
    hit = next((w for w in words if w in DESTROY_WORDS), None)
    if hit is None and any(SQL_DESTROY.search(w) for w in argv[1:]
                           if " " in w or "(" in w or name in DB_CLIENTS):
        hit = "a destructive query"
    if hit is not None:
        f.ask(f"{name}: destroys or removes resources ({hit})", True)
        return True
    return False


def listing(f: Findings, name: str, argv: list[str], dyn: list[bool], depth: int) -> None:
    if destroys(f, name, argv):
        return
    if len(argv) == 2 and argv[1] in VERSION_FLAGS:
        return
    spec = LISTINGS[name]
    words: list[str] = []
    i = 1
    while i < len(argv):
        arg = argv[i]
        if arg in spec.values:
            i += 2
            continue
        if not (arg.startswith("-") and spec.values and "=" in arg
                and arg.split("=", 1)[0] in spec.values):
            words.append(arg)
        i += 1
    if any(w in spec.secret_words or w.split("=", 1)[0] in spec.secret_words for w in words):
        f.ask(f"{name}: may print secrets or change state")
        return
    for read in spec.reads:
        if tuple(w for w in words if not w.startswith("-") or w in read)[:len(read)] == read:
            return
    f.ask(f"{name}: not known to be read-only")


def unknown(f: Findings, name: str, argv: list[str], dyn: list[bool], depth: int) -> None:
    """A program the classifier does not know asks — unless it is only asked its version."""
    if "/" not in name and len(argv) == 2 and argv[1] in (
            "--version", "-V", "-v", "--help", "-h", "-version", "version") and not dyn[1]:
        if name in SHELLS:
            return
        if argv[1] != "version" or name in ("go", "kubectl", "docker", "helm", "terraform",
                                            "cargo", "rustup", "podman", "flutter", "dart",
                                            "deno", "bun", "poetry", "conda", "gcloud",
                                            "hugo", "buf", "istioctl", "kind", "minikube"):
            return
    if not destroys(f, name, argv):
        f.ask(f"{name}: not known to be read-only")
