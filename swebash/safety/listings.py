"""Tools that are read-only only in some modes — ``kubectl get``, ``docker ps``, ``npm ls``,
``ruff check``, ``iptables -L`` — as data (``LISTINGS``, ``LINTERS``…), the destructive
sub-commands and queries of any tool (``delete``, ``prune``, ``DROP TABLE``), and the rule for
programs on no list: they ask, unless only asked their version.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from swebash.safety.model import Findings, positional
from swebash.safety.tables import SHELLS

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
                       ("secret", "secrets", "--raw", "token", "--kubeconfig", "--token",
                        "--exec")),
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
    "docker-compose": Listing(one("ps", "logs", "images", "ls", "version", "top")),
    "helm": Listing((*one("list", "ls", "status", "history", "version", "search", "show",
                          "env"), ("repo", "list")),
                    frozenset({"-n", "--namespace", "--kube-context"})),
    "npm": Listing((*one("ls", "list", "view", "info", "outdated", "help", "root", "prefix",
                         "why", "explain", "search", "ll", "la", "fund", "doctor"),
                    ("config", "list"), ("audit",)), secret_words=("fix", "--fix")),
    "yarn": Listing(one("list", "info", "why", "outdated", "licenses")),
    "pnpm": Listing(one("ls", "list", "why", "outdated", "licenses")),
    "pip": Listing((*one("list", "show", "freeze", "check", "help", "inspect", "debug"),
                    ("index", "versions"), ("config", "list"))),
    "go": Listing((*one("version", "list", "doc", "help"), ("env",)),
                  secret_words=("-w", "-u", "-export", "-compiled", "-toolexec", "-exec",
                                "-json=false")),
    "cargo": Listing(one("version", "search", "help", "--list")),
    "rustc": Listing((("--print",),)),
    "conda": Listing((("list",), ("info",), ("env", "list"), ("search",))),
    "brew": Listing(one("list", "ls", "info", "search", "outdated", "config",
                                         "deps", "leaves", "--prefix", "--cellar", "desc",
                                         "uses", "doctor")),
    "apt": Listing((("list",), ("show",), ("search",), ("policy",), ("depends",),
                    ("rdepends",)), secret_words=("-o", "-c", "--option", "--config-file")),
    "apt-cache": Listing(one("policy", "show", "search", "depends",
                                              "rdepends", "madison", "showpkg", "stats")),
    "dpkg": Listing(one("-l", "--list", "-L", "--listfiles", "-s", "--status",
                                         "-S", "--search", "--print-architecture",
                                         "--get-selections")),
    "dpkg-query": Listing(one("-l", "-L", "-s", "-S", "-W", "--show")),
    "rpm": Listing(one("-q", "-qa", "-qi", "-ql", "-qf", "-qR", "--query"),
                   secret_words=("--eval", "-E", "--define", "-D", "--pipe", "--macros",
                                 "--load", "--rcfile", "--predefine", "--dbpath", "--root")),
    "snap": Listing((("list",), ("info",), ("version",))),
    "flatpak": Listing((("list",), ("info",))),
    "gh": Listing((("pr", "list"), ("pr", "view"), ("pr", "status"), ("pr", "diff"),
                   ("pr", "checks"), ("issue", "list"), ("issue", "view"), ("repo", "view"),
                   ("run", "list"), ("run", "view"), ("release", "list"), ("release", "view"),
                   ("auth", "status")), frozenset({"-R", "--repo"}),
                  ("--show-token", "-t", "--web", "-w")),
    "terraform": Listing((("version",), ("validate",), ("providers",), ("fmt", "-check"),
                          ("graph",))),
    "aws": Listing((("--version",), ("sts", "get-caller-identity"), ("s3", "ls")),
                   frozenset({"--region", "--profile", "--output"})),
    "gcloud": Listing((("config", "list"), ("version",), ("info",)),
                      frozenset({"--project", "--format"})),
    "openssl": Listing(one("version", "x509", "rand", "dgst", "verify", "ciphers", "list", "crl",
                           "asn1parse"), secret_words=("-out", "-keyout", "-engine", "-provider",
                                                       "-provider-path", "-passin")),
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
    "uv": Listing((("pip", "list"), ("pip", "show"), ("pip", "freeze"),
                   ("python", "list"), ("version",))),
}


# sub-command words that destroy something whatever tool they belong to
DESTROY_WORDS = frozenset({"delete", "del", "rm", "rmi", "remove", "destroy", "prune",
                           "uninstall", "purge", "drop", "flushall", "flushdb", "unpublish",
                           "terminate", "kill", "wipe", "erase", "truncate", "deregister",
                           "revoke", "reset", "deprovision", "decommission", "nuke",
                           "dropdb", "teardown", "down", "deluser", "userdel", "rb", "yank",
                           "deprecate", "autoremove", "flush", "evict"})
# tools that act on live infrastructure: anything but their read-only forms is irreversible
LIVE = frozenset({"kubectl", "helm", "terraform", "tofu", "pulumi", "aws", "gcloud", "az",
                  "gsutil", "doctl", "flyctl", "heroku", "vercel", "netlify", "eksctl", "oc",
                  "nomad", "consul", "vault", "ansible-playbook", "ansible", "docker",
                  "podman", "systemctl", "service", "gh", "glab", "firebase", "supabase"})
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
    if any(a in spec.secret_words or a.split("=", 1)[0] in spec.secret_words
           for a in argv[1:]):
        f.ask(f"{name}: may print secrets or change state")
        return
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
    if name in LIVE and name not in ("docker", "podman", "gh"):
        f.ask(f"{name}: changes live infrastructure", True)
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
    if destroys(f, name, argv):
        return
    if name in LIVE:
        f.ask(f"{name}: changes live infrastructure", True)
    else:
        f.ask(f"{name}: not known to be read-only")
