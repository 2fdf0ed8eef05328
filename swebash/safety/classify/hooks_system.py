"""Hooks of system administration tools and database clients: their listing forms (which
differ per tool: ``iptables -L``, ``zfs list``, ``crontab -l``, ``ps aux`` without ``e``),
the debugger and tracer commands that attach to processes or run shell commands, terminal
multiplexers that would type or run commands outside the sandbox, and the queries database
clients are given (read by ``sql.py``)."""

from __future__ import annotations

import re
from collections.abc import Callable

from swebash.safety.classify import processes, roles
from swebash.safety.classify.checks import read_path
from swebash.safety.classify.model import Findings
from swebash.safety.classify.parser import Parsed

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
    targets = processes.attaches(words)
    if targets is not None:
        processes.act_on(f, p.name, "attaches to (reads the memory of)", targets)
        if "--" not in words:
            return
    k = 0
    while k < len(words):
        word = words[k]
        if word == "--":
            k += 1
            break
        if not word.startswith("-"):
            break
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
    targets = processes.attaches(words, debugger=True)
    if p.name == "lldb" and any(w == "-n" or w.startswith("--attach-name") for w in words):
        targets = ["by name"]  # a process found by name: never one this command started
    if targets is not None:
        processes.act_on(f, p.name, "attaches to (reads the memory of)", targets)
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


# what other panes show and what was copied in them: outside this command, often secret
TMUX_SCREEN = frozenset({"capture-pane", "capturep", "show-buffer", "showb", "save-buffer",
                         "saveb", "list-buffers", "lsb", "choose-buffer"})


def tmux(f: Findings, p: Parsed, depth: int) -> None:
    """A tmux or screen server runs outside the sandbox: anything that starts a process
    or types into a pane escapes it."""
    verbs = [a.text for a in p.operands if a.text not in (";", "\\;")][:1]
    if verbs and verbs[0] in TMUX_SCREEN:
        f.ask("tmux: reads what another pane shows or holds (it may hold secrets)", True)
        return
    if not verbs:
        f.ask("tmux: starts a session whose shell runs outside the sandbox", True)
        return
    if verbs[0] in TMUX_READ:
        if verbs[:1] == ["display-message"] and "-p" not in p.argv:
            f.ask("tmux: shows a message on another client")
        return
    if verbs[0] in TMUX_ATTACH:
        f.ask("tmux: attaches to or switches sessions")
        return
    f.ask("tmux: runs, types or changes things in a terminal outside the sandbox", True)


SCREEN_VALUES = frozenset("SctThpe")  # letters whose option takes the next word
# `-L` is a flag, but some versions take the log file as its next word: that word is judged
# both as the file written and as the command run


def screen(f: Findings, p: Parsed, depth: int) -> None:
    """``screen [options] [cmd args]``: a detached session (-d -m) or a command sent to a
    running one (-X) runs outside the sandbox; the command it starts is judged itself."""
    words, dyn = words_of(p), list(p.dynamic[1:])
    if words and set(words) <= {"-ls", "-list", "-v", "--version", "-q"}:
        return
    outside = not words
    k = 0
    while k < len(words) and words[k].startswith("-") and len(words[k]) > 1:
        letters = words[k][1:]
        if letters.startswith(("X", "Logfile")) or set(letters) & set("dDm"):
            outside = True
        if letters.startswith("X"):
            f.ask("screen -X: types or runs commands in a running session", True)
            return
        if letters in ("Logfile", "L") and k + 1 < len(words) and \
                not words[k + 1].startswith("-"):
            roles.check(f, "screen", "a", words[k + 1], dyn[k + 1], depth, quiet=True)
        k += 2 if letters[-1] in SCREEN_VALUES or letters == "Logfile" else 1
    f.ask("screen: runs or types commands in a terminal outside the sandbox", outside)
    if k < len(words):
        f.judge(f, words[k:], dyn[k:], depth)


def typist(f: Findings, p: Parsed, depth: int) -> None:
    words = words_of(p)
    if p.name in ("kitty", "wezterm") and not any(w in ("@", "cli") for w in words):
        f.ask(f"{p.name}: opens a terminal")
        return
    if words and all(w.startswith(("get", "search", "--version", "-v", "version", "help"))
                     for w in words[:1]):
        return
    f.ask(f"{p.name}: types into or controls other windows", True)


def settings(f: Findings, p: Parsed, depth: int) -> None:
    verb = next((w for w in words_of(p) if not w.startswith("-")), "")
    if verb in ("get", "list-keys", "list-schemas", "list-recursively", "list-children",
                "range", "describe", "writable", "read", "list", "dump", "help", "monitor",
                "watch"):
        return
    f.ask(f"{p.name}: changes desktop settings")


HOOKS: dict[str, Callable[[Findings, Parsed, int], None]] = {
    "systemctl_path": systemctl_path, "service": service, "crontab": crontab, "at": at,
    "ps": ps, "sysctl": sysctl, "iptables": iptables, "nft": nft,
    "ufw": ufw, "firewall_cmd": firewall_cmd, "disk": disk, "zfs": zfs, "btrfs": btrfs,
    "passwd": passwd, "modprobe": modprobe, "alternatives": alternatives,
    "ldconfig": ldconfig, "boot": boot, "tracer": tracer, "debugger": debugger,
    "perf": perf, "ldd": ldd, "tmux": tmux, "screen": screen, "typist": typist,
    "settings": settings,
}
