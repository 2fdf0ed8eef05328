"""Hooks of system administration tools and database clients: their listing forms (which
differ per tool: ``iptables -L``, ``zfs list``, ``crontab -l``, ``ps aux`` without ``e``),
the debugger and tracer commands that attach to processes or run shell commands, terminal
multiplexers that would type or run commands outside the sandbox, and the queries database
clients are given (read by ``sql.py``)."""

from __future__ import annotations

import re
from collections.abc import Callable

from swebash.safety.checks import read_path
from swebash.safety.classify import roles, sql
from swebash.safety.classify.parser import Parsed
from swebash.safety.model import Findings

SYSTEM_DIRS = ("/usr/", "/bin/", "/sbin/", "/lib/", "/lib64/", "/lib32/", "/opt/")


def words_of(p: Parsed) -> list[str]:
    return p.argv[1:]


def flags_of(words: list[str]) -> str:
    return "".join(w[1:] for w in words if re.fullmatch(r"-[a-zA-Z]+", w))


def systemctl_path(f: Findings, p: Parsed, depth: int) -> None:
    if any("/" in a.text for a in p.operands):
        f.ask("systemctl: enables or links a unit file outside the system's units", True)
    if p.verbs[-1:] in (["enable"], ["reenable"], ["preset"]) and p.has("--user", "--global"):
        f.ask("systemctl: makes a user service start at every login", True)


def service(f: Findings, p: Parsed, depth: int) -> None:
    words = words_of(p)
    if words in (["--status-all"], ["--help"], ["--version"]) or (
            len(words) == 2 and words[1] == "status"):
        return
    verb = words[1] if len(words) > 1 else ""
    f.ask(f"service {verb[:12]}: changes system services",
          verb in ("stop", "kill", "disable", "mask", "uninstall", "force-stop") or
          any("/" in w for w in words[:1]))


def crontab(f: Findings, p: Parsed, depth: int) -> None:
    words = words_of(p)
    if [w for w in words if w not in ("-u",) and not (words.index(w) > 0 and
                                                      words[words.index(w) - 1] == "-u")] \
            == ["-l"]:
        return
    f.ask("crontab: changes scheduled jobs", "-e" not in words or "-r" in words)


def at(f: Findings, p: Parsed, depth: int) -> None:
    words = words_of(p)
    if (words and set(words) <= {"-l", "-V", "-q"}) or words[:1] == ["-c"]:
        return
    f.ask(f"{p.name}: schedules a command to run later", True)


def renice(f: Findings, p: Parsed, depth: int) -> None:
    negative = any(re.fullmatch(r"-\d+", w) for w in words_of(p))
    f.ask("renice: changes process priorities", negative)


def ps(f: Findings, p: Parsed, depth: int) -> None:
    """BSD-style letters without a dash: ``e`` shows every process's environment."""
    for word in words_of(p):
        if not word.startswith("-") and re.fullmatch(r"[a-zA-Z]+", word) and "e" in word:
            f.ask("ps e: shows every process's environment, secrets included", True)
            return


def sysctl(f: Findings, p: Parsed, depth: int) -> None:
    words = words_of(p)
    if any("=" in w or w in ("-w", "--write", "-p", "--load", "--system") or
           w.startswith(("-p", "--load")) for w in words):
        f.ask("sysctl: changes kernel settings", True)


IPT_READ = re.compile(r"^-[a-zA-Z]*[LS][a-zA-Z]*$|^--list(-rules)?$")


def iptables(f: Findings, p: Parsed, depth: int) -> None:
    words = words_of(p)
    modifies = [w for w in words if re.fullmatch(r"-[ADIRFZNXPE]\w*|--(append|delete|insert|"
                                                 r"replace|flush|zero|new-chain|delete-chain|"
                                                 r"policy|rename-chain)", w)]
    if modifies or not any(IPT_READ.match(w) for w in words):
        f.ask(f"{p.name}: changes the firewall", True)


def nft(f: Findings, p: Parsed, depth: int) -> None:
    words = [w for w in words_of(p) if not w.startswith("-")]
    if words[:1] not in (["list"], ["describe"], ["monitor"]) and words:
        f.ask("nft: changes the firewall", True)


def ufw(f: Findings, p: Parsed, depth: int) -> None:
    words = words_of(p)
    if words[:1] in (["status"], ["show"], ["version"], ["--version"], ["app"]) and \
            "update" not in words:
        return
    f.ask("ufw: changes the firewall", True)


def firewall_cmd(f: Findings, p: Parsed, depth: int) -> None:
    words = words_of(p)
    if words and all(w.startswith(("--list", "--get", "--query", "--state", "--zone",
                                   "--info", "--permanent")) or w == "--version"
                     for w in words):
        return
    f.ask("firewall-cmd: changes the firewall", True)


DISK_READS = {"fdisk": ("-l", "--list"), "sfdisk": ("-l", "--list", "-d", "--dump", "-s",
                                                    "--show-size", "-V", "--verify", "-J",
                                                    "--json"),
              "gdisk": ("-l",), "parted": ("-l", "--list", "print"), "losetup": (
                  "-a", "-l", "--list", "--all", "-j", "--associated"),
              "tune2fs": ("-l",), "cryptsetup": ("status", "luksDump", "isLuks",
                                                 "luksUUID", "--version"),
              "dmsetup": ("ls", "info", "table", "status", "deps", "version"),
              "mdadm": ("--detail", "-D", "--examine", "-E", "--query", "-Q"),
              "hdparm": ("-I", "-i", "-g", "-C"), "diskutil": ("list", "info"),
              "lvm": ("lvs", "vgs", "pvs", "version", "fullreport"),
              "wipefs": ("--no-act", "-n"), "e2fsck": ("-n",), "fsck": ("-N",),
              "smartctl": ("-a", "-i", "-H", "-A", "-x", "--all", "--info", "--health")}


def disk(f: Findings, p: Parsed, depth: int) -> None:
    words = words_of(p)
    reads = DISK_READS.get(p.name, ())
    if words and any(w in reads for w in words) and not (
            p.name == "parted" and set(words) & {"rm", "mklabel", "mkpart", "resizepart"}):
        return
    if p.name == "wipefs" and words and not any(w.startswith("-") for w in words):
        return
    f.ask(f"{p.name}: changes disks or filesystems", True)


ZFS_READ = frozenset({"list", "get", "status", "iostat", "history", "version", "help",
                      "events", "holds", "userspace", "groupspace", "projectspace",
                      "diff", "wait"})
ZFS_DESTROY = frozenset({"destroy", "labelclear", "rollback", "rename", "export",
                         "offline", "detach", "remove", "clear", "split", "reguid"})


def zfs(f: Findings, p: Parsed, depth: int) -> None:
    verb = next((w for w in words_of(p) if not w.startswith("-")), "")
    if verb in ZFS_READ:
        return
    f.ask(f"{p.name} {verb[:12]}: changes pools or datasets", verb in ZFS_DESTROY)


def btrfs(f: Findings, p: Parsed, depth: int) -> None:
    words = [w for w in words_of(p) if not w.startswith("-")]
    if words[1:2] in (["show"], ["df"], ["usage"], ["list"], ["stats"], ["get"],
                      ["find-new"]) or words[:1] in (["version"], ["help"]):
        return
    f.ask("btrfs: changes filesystems", True)


def passwd(f: Findings, p: Parsed, depth: int) -> None:
    words = words_of(p)
    if (words[:1] in (["-S"], ["--status"]) and "-a" not in words) or words == ["-S", "-a"]:
        return
    f.ask("passwd: changes passwords", True)


def modprobe(f: Findings, p: Parsed, depth: int) -> None:
    words = words_of(p)
    if p.name == "modprobe" and any(w in ("-c", "--showconfig", "--show-depends", "-D",
                                          "-n", "--dry-run", "--version", "-V")
                                    for w in words):
        return
    f.ask(f"{p.name}: loads or unloads kernel modules", True)


def alternatives(f: Findings, p: Parsed, depth: int) -> None:
    if not any(w in ("--display", "--query", "--list", "--get-selections", "--help",
                     "--version") for w in words_of(p)):
        f.ask("update-alternatives: changes which program a name runs", True)


def ldconfig(f: Findings, p: Parsed, depth: int) -> None:
    if not set(words_of(p)) & {"-p", "--print-cache", "-V", "--version"}:
        f.ask("ldconfig: changes which libraries programs load", True)


def boot(f: Findings, p: Parsed, depth: int) -> None:
    words = words_of(p)
    if (p.name == "efibootmgr" and set(words) <= {"-v", "--verbose"}) or (
            p.name == "bootctl" and words[:1] in ([], ["status"], ["list"])):
        return
    f.ask(f"{p.name}: changes how the machine boots", True)


def tracer(f: Findings, p: Parsed, depth: int) -> None:
    """strace/ltrace: attaching reads another process's data; -o writes a file; the
    command traced is judged itself."""
    words = words_of(p)
    k = 0
    while k < len(words):
        word = words[k]
        if word == "--":
            k += 1
            break
        if not word.startswith("-"):
            break
        if word.startswith(("-p", "--attach")):
            f.ask(f"{p.name}: attaches to a running process (it can read its memory)", True)
        if word in ("-o", "--output") and k + 1 < len(words):
            roles.check(f, p.name, "w", words[k + 1], p.dynamic[k + 2], depth)
            k += 2
            continue
        if word.startswith("-o") and len(word) > 2:
            roles.check(f, p.name, "w", word[2:], False, depth)
        elif word in ("-e", "-s", "-E", "-u", "-S", "-P", "-I", "-a", "-b", "-X", "-U",
                      "-O", "-n", "-F", "-x", "-j", "-A", "-l", "-L", "-w") and \
                k + 1 < len(words):
            if word in ("-E", "-u"):
                f.ask(f"{p.name}: sets the environment or user the program runs as")
            k += 2
            continue
        k += 1
    rest = words[k:]
    if rest:
        f.judge(f, rest, list(p.dynamic[k + 1:]), depth)


DEBUG_RUNS = re.compile(r"(^\s*(shell|!|python|pi|call|print\s+.*\(|dump|restore|source|"
                        r"script|platform\s+shell|command\s+script|expression|expr|pipe|"
                        r"\|)|system\s*\()", re.I)


def debugger(f: Findings, p: Parsed, depth: int) -> None:
    words = words_of(p)
    if any(w in ("-p", "--pid", "-pid", "--attach-pid", "-attach") or (w.startswith(
            ("--pid=", "-p")) and w[2:].isdigit()) for w in words):
        f.ask(f"{p.name}: attaches to a running process (it can read its memory)", True)
    commands = [words[k + 1] for k, w in enumerate(words[:-1])
                if w in ("-ex", "--ex", "-iex", "-eval-command", "--eval-command", "-o",
                         "--one-line", "-O", "--one-line-before-file", "-k",
                         "--source-quietly")]
    scripts = [words[k + 1] for k, w in enumerate(words[:-1])
               if w in ("-x", "-ix", "--command", "-command", "-s", "--source", "-S")]
    if any(DEBUG_RUNS.search(c) for c in commands) or scripts:
        f.ask(f"{p.name}: runs debugger commands that reach the shell or files", True)
    f.ask(f"{p.name}: runs a program under a debugger")


def perf(f: Findings, p: Parsed, depth: int) -> None:
    words = words_of(p)
    verb = next((w for w in words if not w.startswith("-")), "")
    if verb in ("list", "version", "help", "--version", "") or (
            verb in ("report", "annotate", "script", "evlist", "buildid-list") and
            "-s" not in words and "--script" not in words):
        for k, word in enumerate(words[:-1]):
            if word in ("-i", "--input"):
                read_path(f, words[k + 1])
        if verb == "script" and any(w.startswith(("-s", "--script", "-g", "--gen-script"))
                                    for w in words):
            f.ask("perf script: runs a script", True)
        return
    if any(w in ("-p", "--pid", "-a", "--all-cpus") or w.startswith("--pid=") for w in words):
        f.ask("perf: attaches to running processes", True)
    for k, word in enumerate(words[:-1]):
        if word in ("-o", "--output"):
            roles.check(f, "perf", "w", words[k + 1], p.dynamic[k + 2], depth)
    f.ask(f"perf {verb[:12]}: runs or records a program")
    if verb in ("stat", "record", "trace", "c2c", "mem", "sched", "kvm", "lock"):
        start = words.index(verb) + 1
        rest = words[start:]
        while rest and rest[0].startswith("-"):
            rest = rest[1:] if rest[0] not in ("-e", "-o", "-c", "-F", "-g", "-C", "-t",
                                               "-r", "-I") else rest[2:]
        if rest[:1] == ["--"]:
            rest = rest[1:]
        if rest:
            f.judge(f, rest, [False] * len(rest), depth)


def ldd(f: Findings, p: Parsed, depth: int) -> None:
    """ldd runs the program's own loader: fine for system programs, not for unknown ones."""
    for arg in p.operands:
        if arg.dynamic or not arg.text.startswith(SYSTEM_DIRS):
            f.ask("ldd: runs the program's loader (an untrusted binary can run code)")
            return


TMUX_READ = frozenset({"ls", "list-sessions", "list-windows", "lsw", "list-panes", "lsp",
                       "list-clients", "lsc", "list-commands", "lscm", "list-keys", "lsk",
                       "list-buffers", "lsb", "show-options", "show", "show-window-options",
                       "showw", "display-message", "display", "info", "server-info",
                       "has-session", "has", "show-environment", "showenv", "capture-pane",
                       "capturep", "show-messages", "showmsgs", "start-server", "start",
                       "-V"})
TMUX_ATTACH = frozenset({"attach", "attach-session", "a", "at", "switch-client", "switchc",
                         "select-window", "selectw", "select-pane", "selectp",
                         "detach-client", "detach"})


def tmux(f: Findings, p: Parsed, depth: int) -> None:
    """A tmux or screen server runs outside the sandbox: anything that starts a process
    or types into a pane escapes it."""
    verbs = [a.text for a in p.operands if a.text not in (";", "\\;")][:1]
    if not verbs or verbs[0] in TMUX_READ:
        if verbs[:1] == ["display-message"] and "-p" not in p.argv:
            f.ask("tmux: shows a message on another client")
        return
    if verbs[0] in TMUX_ATTACH:
        f.ask("tmux: attaches to or switches sessions")
        return
    f.ask("tmux: runs, types or changes things in a terminal outside the sandbox", True)


def screen(f: Findings, p: Parsed, depth: int) -> None:
    words = words_of(p)
    if words and set(words) <= {"-ls", "-list", "-v", "--version", "-q"}:
        return
    f.ask("screen: runs or types commands in a terminal outside the sandbox",
          any(w in ("-X", "-dm", "-Dm", "-d", "-m", "-c") or w.startswith("-X")
              for w in words) or not words)


def typist(f: Findings, p: Parsed, depth: int) -> None:
    words = words_of(p)
    if p.name in ("kitty", "wezterm") and not any(w in ("@", "cli") for w in words):
        f.ask(f"{p.name}: opens a terminal")
        return
    if words and all(w.startswith(("get", "search", "--version", "-v", "version", "help"))
                     for w in words[:1]):
        return
    f.ask(f"{p.name}: types into or controls other windows", True)


def clipboard(f: Findings, p: Parsed, depth: int) -> None:
    words = words_of(p)
    if any(w in ("-o", "--output", "-out") for w in words):
        return
    f.ask(f"{p.name}: copies data to the clipboard")


def settings(f: Findings, p: Parsed, depth: int) -> None:
    verb = next((w for w in words_of(p) if not w.startswith("-")), "")
    if verb in ("get", "list-keys", "list-schemas", "list-recursively", "list-children",
                "range", "describe", "writable", "read", "list", "dump", "help", "monitor",
                "watch"):
        return
    f.ask(f"{p.name}: changes desktop settings")


RUNNABLE = re.compile(r"\.(desktop|command|sh|app|exe|bat|tool|jar|py|pl|rb|js)$", re.I)


def opener(f: Findings, p: Parsed, depth: int) -> None:
    words = words_of(p)
    if any(RUNNABLE.search(w) or w in ("-a", "--args") for w in words):
        f.ask(f"{p.name}: runs a program or script", True)
        return
    f.ask(f"{p.name}: opens a file or URL in another program")


# --------------------------------------------------------------------------- databases


def queries(f: Findings, name: str, texts: list[tuple[str, bool]]) -> None:
    for text, dynamic in texts:
        if dynamic:
            f.ask(f"{name}: runs a query built at run time", True)
            continue
        for path in sql.paths(text):
            read_path(f, path)
        found = sql.problem(text)
        if found:
            f.ask(f"{name}: {found[0]}", found[1])


def sqlite(f: Findings, p: Parsed, depth: int) -> None:
    """``sqlite3 DB [SQL…]``: without SQL it reads statements from its input."""
    commands = [(v, False) for v in p.values("-cmd", "-c", "-s")]
    statements = [(a.text, a.dynamic) for a in p.operands[1:]]
    if not statements and not p.values("-c", "-s"):
        f.ask(f"{p.name}: runs SQL from its input")
    queries(f, p.name, commands + statements)


def psql(f: Findings, p: Parsed, depth: int) -> None:
    commands = [(u.value or "", u.dynamic) for u in p.options
                if u.opt.name in ("-c", "--command")]
    if not commands and not p.has("-l", "--list"):
        f.ask("psql: runs SQL from its input (or an interactive session)")
    queries(f, "psql", commands)


LOCAL = ("localhost", "127.0.0.1", "::1", "")


def mysql(f: Findings, p: Parsed, depth: int) -> None:
    """The client sends the password in ~/.my.cnf to any host: a host named here asks."""
    if any(h not in LOCAL for h in p.values("-h", "--host")):
        f.ask(f"{p.name}: connects to a host named here with your stored password")
    commands = [(u.value or "", u.dynamic) for u in p.options
                if u.opt.name in ("-e", "--execute", "--init-command")]
    if not any(u.opt.name in ("-e", "--execute") for u in p.options):
        f.ask(f"{p.name}: runs SQL from its input (or an interactive session)")
    queries(f, p.name, commands)


REDIS_READ = frozenset({
    "get", "mget", "strlen", "exists", "type", "ttl", "pttl", "keys", "scan", "sscan",
    "hscan", "zscan", "hget", "hmget", "hgetall", "hkeys", "hvals", "hlen", "hexists",
    "hstrlen", "lrange", "llen", "lindex", "lpos", "smembers", "scard", "sismember",
    "smismember", "srandmember", "sinter", "sunion", "sdiff", "zrange", "zrevrange",
    "zrangebyscore", "zrevrangebyscore", "zrangebylex", "zcard", "zscore", "zmscore",
    "zrank", "zrevrank", "zcount", "zlexcount", "info", "ping", "echo", "dbsize", "time",
    "lastsave", "memory", "object", "xrange", "xrevrange", "xlen", "xinfo", "xread",
    "getrange", "bitcount", "bitpos", "getbit", "pfcount", "slowlog", "role", "command",
    "cluster", "subscribe", "psubscribe", "pubsub", "geopos", "geodist", "geohash",
    "georadius_ro", "geosearch", "randomkey", "touch", "lolwut", "hello", "readonly",
    "json.get", "json.type", "ft.search", "ft.info", "ts.range", "ts.get", "ts.info"})
REDIS_DESTROY = frozenset({"del", "unlink", "flushall", "flushdb", "shutdown", "config",
                           "module", "slaveof", "replicaof", "migrate", "restore", "swapdb",
                           "rename", "renamenx", "eval", "evalsha", "evalsha_ro", "eval_ro",
                           "fcall", "function", "script", "debug", "acl", "client",
                           "monitor", "sync", "psync", "failover", "bgrewriteaof", "save",
                           "bgsave", "expire", "pexpire", "expireat", "getdel", "getex"})


def redis(f: Findings, p: Parsed, depth: int) -> None:
    words = [a for a in p.operands]
    if p.has("--scan", "--bigkeys", "--memkeys", "--hotkeys", "--keystats", "--stat",
             "--latency", "--latency-history", "--latency-dist") and not words:
        return
    if not words:
        f.ask(f"{p.name}: runs commands from its input (or an interactive session)")
        return
    if any(a.dynamic for a in words):
        f.ask(f"{p.name}: runs a command built at run time", True)
        return
    command = words[0].text.lower()
    if command in REDIS_READ:
        return
    if command == "config" and words[1:2] and words[1].text.lower() == "get" and not any(
            "pass" in a.text.lower() for a in words[2:]):
        return
    if command == "client" and words[1:2] and words[1].text.lower() in ("list", "info",
                                                                        "getname", "id"):
        return
    f.ask(f"{p.name} {command[:12]}: changes or deletes data", command in REDIS_DESTROY)


MONGO_READ = frozenset({"find", "findone", "count", "countdocuments", "estimateddocumentcount",
                        "distinct", "aggregate", "getcollectionnames", "getcollectioninfos",
                        "stats", "getindexes", "version", "serverstatus", "listcollections",
                        "getname", "getsiblingdb", "limit", "skip", "sort", "toarray",
                        "pretty", "itcount", "size", "hasnext", "next", "foreach", "map",
                        "explain", "hostinfo", "ismaster", "hello", "getmongo", "getdbnames",
                        "collection", "getcollection", "db", "printjson", "print", "json",
                        "stringify", "project", "batchsize", "comment", "hint", "max", "min",
                        "readpref", "returnkey", "showrecordid", "dbstats", "currentop",
                        "getusers", "getroles", "tojson", "keys", "length", "rs", "status",
                        "conf", "printreplicationinfo", "getlog", "ping", "buildinfo"})


def mongo(f: Findings, p: Parsed, depth: int) -> None:
    code = p.values("--eval")
    if not code:
        f.ask(f"{p.name}: runs a script or an interactive session")
        return
    for text in code:
        called = {m.lower() for m in re.findall(r"\.?\b([A-Za-z_]\w*)\s*\(", text)}
        if re.search(r"\$(out|merge)\b|\b(process|require|load|child_process|fs|eval|"
                     r"Function|runProgram|_runMongoProgram|shutdownServer)\b", text):
            f.ask(f"{p.name}: the script runs programs, writes or shuts down", True)
        elif called - MONGO_READ:
            destroys = called & {"drop", "dropdatabase", "deletemany", "deleteone", "remove",
                                 "findoneanddelete", "dropindex", "dropindexes"}
            f.ask(f"{p.name}: the script changes or deletes data", bool(destroys))


def clickhouse(f: Findings, p: Parsed, depth: int) -> None:
    texts = [(u.value or "", u.dynamic) for u in p.options if u.opt.name in ("-q", "--query")]
    if not texts:
        f.ask(f"{p.name}: runs queries from its input (or an interactive session)")
    queries(f, p.name, texts)


def cqlsh(f: Findings, p: Parsed, depth: int) -> None:
    texts = [(u.value or "", u.dynamic) for u in p.options
             if u.opt.name in ("-e", "--execute")]
    if not texts:
        f.ask("cqlsh: runs queries from its input (or an interactive session)")
    queries(f, "cqlsh", texts)


HOOKS: dict[str, Callable[[Findings, Parsed, int], None]] = {
    "systemctl_path": systemctl_path, "service": service, "crontab": crontab, "at": at,
    "renice": renice, "ps": ps, "sysctl": sysctl, "iptables": iptables, "nft": nft,
    "ufw": ufw, "firewall_cmd": firewall_cmd, "disk": disk, "zfs": zfs, "btrfs": btrfs,
    "passwd": passwd, "modprobe": modprobe, "alternatives": alternatives,
    "ldconfig": ldconfig, "boot": boot, "tracer": tracer, "debugger": debugger,
    "perf": perf, "ldd": ldd, "tmux": tmux, "screen": screen, "typist": typist,
    "clipboard": clipboard, "settings": settings, "opener": opener, "sqlite": sqlite,
    "psql": psql, "mysql": mysql, "redis": redis, "mongo": mongo,
    "clickhouse": clickhouse, "cqlsh": cqlsh,
}


# --------------------------------------------------------------------------- launchers


def launcher(f: Findings, p: Parsed, depth: int) -> None:
    if p.command is None:
        f.ask(f"{p.name}: starts a shell or a long-running helper")


def sg(f: Findings, p: Parsed, depth: int) -> None:
    words = p.argv[1:]
    if "-c" in words and words.index("-c") + 1 < len(words):
        k = words.index("-c") + 1
        roles.check(f, p.name, "c", words[k], p.dynamic[k + 1], depth)
    elif len(words) > 1:
        f.judge(f, words[1:], p.dynamic[2:], depth)


def entr(f: Findings, p: Parsed, depth: int) -> None:
    if p.command is None:
        f.ask("entr: no command")
        return
    rest = p.argv[p.command:]
    if p.has("-s"):
        roles.check(f, "entr", "c", " ".join(rest), any(p.dynamic[p.command:]), depth)


def firejail(f: Findings, p: Parsed, depth: int) -> None:
    words = p.argv[1:]
    if p.name == "flatpak-spawn" and any(w.startswith("--host") for w in words):
        f.ask("flatpak-spawn --host: runs a command outside the sandbox", True)
    k = 0
    while k < len(words) and words[k].startswith("-"):
        k += 1
    if k < len(words):
        f.judge(f, words[k:], p.dynamic[k + 1:], depth)
    else:
        f.ask(f"{p.name}: starts a shell")


def gnuplot(f: Findings, p: Parsed, depth: int) -> None:
    for script in p.values("-e", "-c"):
        if re.search(r"\bsystem\b|^\s*!|`|\bpipe\b|\|", script):
            f.ask("gnuplot: runs shell commands", True)
    if p.operands or p.has("-c"):
        f.ask("gnuplot: runs gnuplot scripts (they can run shell commands)")


def tex(f: Findings, p: Parsed, depth: int) -> None:
    words = p.argv[1:]
    if any(re.match(r"^--?(shell-escape|enable-write18|shell-restricted=false)", w)
           or "-shell-escape" in w for w in words):
        f.ask(f"{p.name}: lets the document run shell commands", True)
    if words and all(w in ("--version", "-v", "--help", "-h", "-version") for w in words):
        return
    f.ask(f"{p.name}: compiles a document (TeX reads and writes files)")


def ghostscript(f: Findings, p: Parsed, depth: int) -> None:
    words = p.argv[1:]
    if any(w.startswith(("-dNOSAFER", "-dDELAYSAFER", "-dNOSAFETY", "-dWRITESYSTEMDICT",
                         "-dNOPLATFONTS")) for w in words):
        f.ask(f"{p.name}: turns off the interpreter's safe mode", True)
    if words and all(w in ("--version", "-v", "-h", "--help", "-v") for w in words):
        return
    f.ask(f"{p.name}: interprets PostScript or PDF")


def ffmpeg(f: Findings, p: Parsed, depth: int) -> None:
    words = p.argv[1:]
    if words and all(w in ("-version", "--version", "-h", "-help", "--help", "-formats",
                           "-codecs", "-encoders", "-decoders", "-filters", "-hide_banner")
                     for w in words):
        return
    f.ask("ffmpeg: converts media and writes files")


GPG_READ = frozenset({"--list-keys", "-k", "--list-public-keys", "--list-secret-keys", "-K",
                      "--fingerprint", "--list-sigs", "--check-sigs", "--verify",
                      "--version", "--help", "-h", "--list-packets", "--with-colons",
                      "--with-fingerprint", "--keyid-format", "--list-options",
                      "--show-keys", "--import-options", "--export", "--armor", "-a",
                      "--batch", "--no-tty", "--quiet", "-q", "-v", "--verbose"})


def gpg(f: Findings, p: Parsed, depth: int) -> None:
    words = p.argv[1:]
    if any(w.startswith(("--export-secret", "--decrypt", "-d", "--export-ownertrust",
                         "--gen-revoke", "--generate-revocation")) and not w.startswith(
            "--default") for w in words):
        f.ask("gpg: exports or uses secret keys", True)
    for word in words:
        if not word.startswith("-"):
            read_path(f, word)
    if not all(w in GPG_READ or not w.startswith("-") for w in words):
        f.ask("gpg: changes the keyring or signs, encrypts or decrypts")
    elif not any(w.startswith("-") for w in words) and words:
        f.ask("gpg: processes a file (it may decrypt it)")


def logrotate(f: Findings, p: Parsed, depth: int) -> None:
    words = p.argv[1:]
    if words and any(w in ("-d", "--debug", "--version", "-?", "--help") for w in words):
        return
    f.ask("logrotate: rotates and deletes logs", True)


def script_cmd(f: Findings, p: Parsed, depth: int) -> None:
    if not p.values("-c", "--command"):
        f.ask("script: starts a shell that records the terminal")
    if not p.operands and not p.has("-c", "--command"):
        return
    if not p.operands:
        f.ask("script: writes a typescript file")


MOUNT_READ = re.compile(r"^(-[lhvV]+|--(show-labels|verbose|help|version)|-t|--types=?.*)$")


def mount(f: Findings, p: Parsed, depth: int) -> None:
    words = p.argv[1:]
    reads = all(MOUNT_READ.match(w) or (k and words[k - 1] in ("-t", "--types"))
                for k, w in enumerate(words))
    if not reads:
        f.ask("mount: mounts or remounts filesystems", True)


HOOKS.update({"launcher": launcher, "sg": sg, "entr": entr, "firejail": firejail,
              "gnuplot": gnuplot, "tex": tex, "ghostscript": ghostscript, "ffmpeg": ffmpeg,
              "gpg": gpg, "logrotate": logrotate, "script_cmd": script_cmd, "mount": mount})
