"""Hooks of shells run with a script, secret stores, small readers with a write mode,
version managers, rclone, glab, consul/nomad, schedulers and launchd."""

from __future__ import annotations

import re
from collections.abc import Callable

from swebash.safety.classify import processes, roles
from swebash.safety.classify.checks import code_from, read_path
from swebash.safety.classify.model import Findings
from swebash.safety.classify.parser import Parsed


def shell(f: Findings, p: Parsed, depth: int) -> None:
    """``bash script.sh`` runs a script; ``bash <(curl …)`` runs what another command
    prints; bare ``sh`` runs its input (``-c`` was peeled before: see wrappers.py)."""
    words = p.argv[1:]
    if any(d and w.startswith(("<(", "$(", "`")) for w, d in zip(words, p.dynamic[1:],
                                                                 strict=True)):
        f.ask(f"{p.name}: runs code produced by another command", True)
    elif any(d for d in p.dynamic[1:2]):
        f.ask(f"{p.name}: runs a script named only at run time", True)
    elif [w for w in words if not w.startswith(("-", "+"))]:
        f.ask(f"{p.name}: runs a script")
        code_from(f, p.name, next(w for w in words if not w.startswith(("-", "+"))))
    else:
        f.ask(f"{p.name}: starts a shell (it runs whatever it reads)", True)


SAFE_STATUS = frozenset({"status", "version", "--version", "-v", "help", "--help", "-h"})


def secret_store(f: Findings, p: Parsed, depth: int) -> None:
    if p.argv[1:2] and p.argv[1] in SAFE_STATUS and len(p.argv) == 2:
        return
    f.ask(f"{p.name}: reads a password store, a secret or a key agent", True)


# the words each system-information tool is known to read with: anything else may name a
# file to write (`inxi --output-file`), a configuration that is code (neofetch's is a bash
# script it sources) or an image backend to run
SYSINFO_WORDS = {
    "sw_vers": frozenset({"-productName", "-productVersion", "-buildVersion",
                          "-productVersionExtra", "--productName", "--productVersion",
                          "--buildVersion"}),
    "neofetch": frozenset({"--off", "--stdout", "--ascii_distro", "--disable", "--color_blocks",
                           "--bold", "--underline", "--cpu_temp", "--memory_percent"}),
    "fastfetch": frozenset({"--logo", "none", "--pipe", "--structure", "--list-modules",
                            "--list-logos", "--print-logos", "--format", "json", "-l",
                            "--stdout"}),
    "screenfetch": frozenset({"-n", "-N", "-t", "-v", "-E", "-V", "-h", "-d", "-D"}),
    "inxi": frozenset({"-b", "-F", "-Fx", "-Fxx", "-Fxxx", "-Fz", "-Fxz", "-C", "-G", "-A",
                       "-N", "-n", "-D", "-P", "-S", "-I", "-M", "-B", "-m", "-s", "-z", "-x",
                       "-xx", "-xxx", "-c0", "--basic", "--full", "--cpu", "--graphics",
                       "--audio", "--disk", "--system", "--machine", "--memory", "--filter",
                       "--no-host", "--output", "json", "--output-type"}),
    "system_profiler": frozenset({"-listDataTypes", "-json", "-detailLevel", "mini", "basic",
                                  "full", "-xml"}),
}


def sysinfo(f: Findings, p: Parsed, depth: int) -> None:
    known = SYSINFO_WORDS.get(p.name, frozenset())
    for word in p.argv[1:]:
        if word in known or (p.name == "system_profiler" and re.fullmatch(r"SP\w+DataType",
                                                                          word)):
            continue
        if p.name == "neofetch" and word.split("=", 1)[0] in ("--config", "--source"):
            f.ask("neofetch: sources a configuration (a bash script)", True)
        f.ask_unknown(f"{p.name}: unknown option {word[:20]} (not known to the classifier)")
        return


WRITE_WORDS = frozenset({"split", "partition", "put", "delete", "write", "-o", "--output",
                         "--report-file", "--out", "--sql", "--write-lang-def", "--to",
                         "-O", "--output-file", "-w", "--format-multi"})
WRITE_VERBS = frozenset({"split", "partition", "tee"})


def writes_files(f: Findings, p: Parsed, depth: int) -> None:
    words = {w.split("=", 1)[0] for w in p.argv[1:]}
    if words & WRITE_WORDS:
        f.ask(f"{p.name}: writes files")
    for target, dynamic in written_paths(p):
        roles.check(f, p.name, "a", target, dynamic, depth, quiet=True)
    for arg in p.operands:
        if not arg.text.startswith("-") and not arg.dynamic and "/" in arg.text:
            roles.check(f, p.name, "r", arg.text, False, depth)


def written_paths(p: Parsed) -> list[tuple[str, bool]]:
    """The paths a tool's write options and verbs name (`-o F`, `--out=F`, `split DIR`,
    scc's `--format-multi json:F,csv:G`): judged as writes, so outside the tree is
    dangerous."""
    words, dyn = p.argv[1:], p.dynamic[1:]
    out: list[tuple[str, bool]] = []
    for k, word in enumerate(words):
        name, equals, value = word.partition("=")
        if name not in WRITE_WORDS | WRITE_VERBS:
            continue
        at = k if equals else k + 1
        if not equals:
            value = words[at] if at < len(words) else ""
        parts = [part.split(":", 1)[-1] for part in value.split(",")] \
            if name == "--format-multi" else [value]
        out += [(part, dyn[at] if at < len(dyn) else False) for part in parts
                if part and not part.startswith("-") and
                ("/" in part or part.startswith(("~", "..")))]
    return out


MANAGER_READ = frozenset({"versions", "version", "which", "root", "prefix", "commands",
                          "whence", "--version", "ls", "list", "current", "ls-remote",
                          "list-remote", "help", "doctor", "--help", "-v", "latest"})


def version_manager(f: Findings, p: Parsed, depth: int) -> None:
    verb = next((w for w in p.argv[1:] if not w.startswith("-")), "")
    if verb in MANAGER_READ or (not verb and p.argv[1:] in ([], ["-v"], ["--version"])):
        return
    f.ask(f"{p.name} {verb[:12]}: installs, switches or runs toolchains",
          verb in ("uninstall", "remove", "rm", "unalias", "install", "global", "default",
                   "alias", "update", "upgrade", "selfupdate", "self-update", "setup"))


RCLONE_READ = frozenset({"ls", "lsd", "lsl", "lsf", "lsjson", "size", "about", "listremotes",
                         "version", "tree", "check", "md5sum", "sha1sum", "hashsum", "cat",
                         "ncdu", "help", "cryptcheck", "checksum", "backend"})


def rclone(f: Findings, p: Parsed, depth: int) -> None:
    words = [w for w in p.argv[1:] if not w.startswith("-")]
    verb = words[0] if words else ""
    if verb in RCLONE_READ and verb != "backend":
        return
    if verb == "config" and words[1:2] in ([], ["show"], ["dump"], ["file"], ["paths"]):
        f.ask("rclone config: prints remotes with their credentials",
              words[1:2] != ["file"] and words[1:2] != ["paths"])
        return
    destroys = verb in ("delete", "purge", "rmdir", "rmdirs", "deletefile", "dedupe",
                        "cleanup", "move", "moveto", "sync", "bisync")
    uploads = verb in ("copy", "copyto", "sync", "move", "moveto", "copyurl", "rcat") and \
        words[2:3] and ":" in words[-1]
    serves = verb in ("serve", "mount", "rcd", "nfsmount")
    f.ask(f"rclone {verb[:12]}: changes, deletes, uploads or serves files",
          destroys or bool(uploads) or serves)


GLAB_READ = re.compile(r"^(list|ls|view|diff|status|checks|show|get|trace|lint)$")


def glab_api(f: Findings, words: list[str]) -> None:
    """``glab api PATH`` is a GET; another method, fields or a body change GitLab."""
    method = ""
    for k, word in enumerate(words):
        head, equals, value = word.partition("=")
        if head in ("-X", "--method"):
            value = value if equals else (words[k + 1] if k + 1 < len(words) else "")
            if value.upper() not in ("GET", "HEAD", "OPTIONS"):
                method = method or value.upper()[:10]
        elif head in ("-f", "-F", "--field", "--raw-field", "--input"):
            method = method or "POST"
        elif word.startswith("-") and head not in ("--paginate", "-i", "--include",
                                                   "--silent", "-H", "--header"):
            f.ask(f"glab api: an option not known to be read-only ({head[:16]})")
    if method:
        f.ask(f"glab api: changes something on GitLab ({method})", True)


def glab(f: Findings, p: Parsed, depth: int) -> None:
    words = [w for w in p.argv[1:] if not w.startswith("-")]
    if words[:2] == ["auth", "status"] and "--show-token" not in p.argv and \
            "-t" not in p.argv:
        return
    if words[:1] == ["auth"] and ("--show-token" in p.argv or "-t" in p.argv):
        f.ask("glab auth: prints your GitLab token", True)
        return
    if len(words) > 1 and GLAB_READ.match(words[1]) and "--web" not in p.argv and \
            "-w" not in p.argv:
        return
    if words[:1] == ["version"]:
        return
    if words[:1] == ["api"]:
        glab_api(f, p.argv[p.argv.index("api") + 1:])
        return
    f.ask(f"glab {' '.join(words[:2])[:24]}: changes GitLab or local settings",
          any(w in ("delete", "token") for w in words[:3]))


HASHICORP_READ = frozenset({"members", "info", "version", "status", "catalog", "services",
                            "nodes", "list-peers", "monitor", "inspect", "plan-only"})


def hashicorp(f: Findings, p: Parsed, depth: int) -> None:
    words = [w for w in p.argv[1:] if not w.startswith("-")]
    if words and (words[0] in HASHICORP_READ or (len(words) > 1 and words[1] in (
            "status", "list", "ls", "info", "members", "services", "nodes", "inspect",
            "history", "list-peers"))) and "kv" not in words[:1]:
        return
    f.ask(f"{p.name}: changes live infrastructure or reads its secrets", True)


def scheduler(f: Findings, p: Parsed, depth: int) -> None:
    """chrt PRIO CMD, numactl OPTS CMD, cgexec -g CTRL:PATH CMD: the command is judged."""
    words = p.argv[1:]
    k = 0
    while k < len(words) and words[k].startswith("-"):
        if p.name == "chrt" and (words[k] == "--pid" or
                                 re.fullmatch(r"-[a-z]*p[a-z]*", words[k])):
            operands = [w for w in words[k + 1:] if not w.startswith("-")]
            if p.name == "chrt" and len(operands) == 1:
                f.ask("chrt: shows a running process's scheduling")
            else:
                processes.act_on(f, p.name, "changes the scheduling of", operands[-1:])
            return
        k += 2 if words[k] in ("-g", "--sticky", "-C", "--cpunodebind", "-N", "-m",
                               "--membind", "-i", "--interleave", "-p", "-P", "--preferred",
                               "-T", "-R", "-D", "--physcpubind") else 1
    if p.name == "chrt" and k < len(words) and words[k].isdigit():
        k += 1
    if k < len(words):
        f.judge(f, words[k:], p.dynamic[k + 1:], depth)


def launchctl(f: Findings, p: Parsed, depth: int) -> None:
    words = p.argv[1:]
    if words[:1] in (["list"], ["print"], ["blame"], ["version"], ["help"], ["/query"],
                     ["/Query"]):
        return
    f.ask(f"{p.name}: schedules or changes system services", True)


def db_generic(f: Findings, p: Parsed, depth: int) -> None:
    if p.name == "bq" and p.argv[1:2] in (["ls"], ["show"], ["head"], ["version"]):
        return
    f.ask(f"{p.name}: runs queries against a database")


def compiler_cache(f: Findings, p: Parsed, depth: int) -> None:
    """ccache/sccache: statistics read; ``ccache gcc …`` runs the compiler (judged)."""
    words = p.argv[1:]
    if not words:
        f.ask(f"{p.name}: nothing to run")
        return
    if words[0].startswith("-"):
        if words[0] in ("-s", "--show-stats", "-p", "--print-config", "-k", "--get-config",
                        "--show-compression", "-x", "--show-log-stats", "--dist-status"):
            return
        f.ask(f"{p.name}: changes or clears its cache")
        return
    f.judge(f, words, p.dynamic[1:], depth)


def profiler(f: Findings, p: Parsed, depth: int) -> None:
    words = p.argv[1:]
    if any(w in ("--pid", "-p", "--attach") or w.startswith("--pid=") for w in words):
        f.ask(f"{p.name}: attaches to a running process (it can read its memory)", True)
    verb = next((w for w in words if not w.startswith("-")), "")
    if verb in ("ps", "ls", "help", "version", "completions"):
        return
    if "--" in words:
        rest = words[words.index("--") + 1:]
        if rest:
            f.judge(f, rest, [False] * len(rest), depth)
    elif p.name == "rr" and verb == "record":
        rest = words[words.index("record") + 1:]
        while rest and rest[0].startswith("-"):
            rest = rest[1:]
        if rest:
            f.judge(f, rest, [False] * len(rest), depth)
    f.ask(f"{p.name} {verb[:12]}: runs, records or replays a program")


ARCHIVE_LISTS = {"unrar": ("l", "lb", "lt", "lta", "v", "vb", "vt", "vta", "t", "p"),
                 "rar": ("l", "lb", "lt", "v", "vb", "vt", "t", "p"),
                 "lha": ("l", "v", "t", "-l", "-v", "-t"), "lzh": ("l", "v"),
                 "cabextract": ("-l", "--list", "-t", "--test"), "lsar": (),
                 "dpkg-deb": ("-c", "--contents", "-I", "--info", "-f", "--field", "-W",
                              "--show"),
                 "jar": ("t", "tf", "tvf", "-t", "--list"), "unar": ()}


def archive_generic(f: Findings, p: Parsed, depth: int) -> None:
    words = p.argv[1:]
    lists = ARCHIVE_LISTS.get(p.name)
    if p.name == "lsar":
        return
    if p.name == "pax":
        if not {"-r", "-w"} & {w[:2] for w in words if w.startswith("-")}:
            return
    elif lists and words and (words[0] in lists or (p.name == "jar" and "t" in words[0]
                                                    and "x" not in words[0]
                                                    and "c" not in words[0]
                                                    and "u" not in words[0])):
        for word in words[1:]:
            if not word.startswith("-"):
                read_path(f, word)
                break
        return
    first = words[0] if words else ""
    creates = (p.name in ("rar", "lha", "lzh") and first[:1] in ("a", "m", "u", "d", "f")) or \
        (p.name == "jar" and set(first.lstrip("-")) & set("cu") and "x" not in first) or \
        (p.name == "pax" and any(w.startswith("-w") for w in words)) or \
        (p.name == "dpkg-deb" and first in ("-b", "--build", "--root-owner-group"))
    if creates:
        f.ask(f"{p.name}: creates or changes an archive")
    else:
        f.ask(f"{p.name}: extracts files (they may overwrite existing ones)", True)


def unsquashfs(f: Findings, p: Parsed, depth: int) -> None:
    if not p.has("-l", "-ll", "-lln", "-lls", "-s", "-stat", "-lc"):
        f.ask("unsquashfs: extracts files (they may overwrite existing ones)", True)
    for arg in p.operands[:1]:
        read_path(f, arg.text)


def atool(f: Findings, p: Parsed, depth: int) -> None:
    """atool's names say the mode (``als`` lists, ``aunpack`` extracts); ``atool -l``."""
    words = p.argv[1:]
    mode = {"als": "l", "acat": "c", "adiff": "d", "aunpack": "x", "apack": "a",
            "arepack": "r"}.get(p.name, "")
    for word in words:
        if word in ("-l", "--list", "list"):
            mode = mode or "l"
        elif word in ("-x", "-X", "--extract", "--extract-to", "extract"):
            mode = "x"
        elif word in ("-c", "--cat"):
            mode = mode or "c"
    if mode in ("l", "c", "d"):
        return
    if mode == "x" or not mode:
        f.ask(f"{p.name}: extracts files (they may overwrite existing ones)", True)
    else:
        f.ask(f"{p.name}: creates or changes an archive")


def kube_switch(f: Findings, p: Parsed, depth: int) -> None:
    if p.operands:
        f.ask(f"{p.name}: switches the current context or namespace")


def etcd(f: Findings, p: Parsed, depth: int) -> None:
    words = [w for w in p.argv[1:] if not w.startswith("-")]
    verb = " ".join(words[:2])
    if words[:1] == ["get"]:
        if any("secret" in w for w in words[1:]) or ("--prefix" in p.argv and not words[1:]):
            f.ask("etcdctl get: reads stored secrets", True)
        return
    if verb in ("member list", "endpoint status", "endpoint health", "alarm list",
                "version", "check perf", "user list", "role list") or words[:1] == [
            "version"]:
        return
    f.ask(f"etcdctl {verb[:20]}: changes or deletes the cluster's data",
          bool(words[:1]) and words[0] in ("del", "put", "compaction", "defrag", "snapshot",
                                           "txn", "move-leader", "lease", "auth"))


def browser(f: Findings, p: Parsed, depth: int) -> None:
    words = p.argv[1:]
    if any(w in ("-dump", "--dump", "-source", "-dump_source") for w in words):
        for word in words:
            if "://" in word:
                roles.url(f, p.name, word, False)
            elif not word.startswith("-"):
                read_path(f, word)
        return
    f.ask(f"{p.name}: an interactive browser")


def remote_shell(f: Findings, p: Parsed, depth: int) -> None:
    words = p.argv[1:]
    f.ask(f"{p.name}: connects to another machine")
    if "--" in words and words.index("--") + 1 < len(words):
        f.nested(" ".join(words[words.index("--") + 1:]), f, depth + 1)


VCS_READ = frozenset({"status", "log", "diff", "info", "timeline", "annotate", "blame",
                      "cat", "ls", "whatsnew", "changes", "version", "help", "manifest",
                      "list", "branches", "tags", "show", "heads", "forall-status"})


def vcs_generic(f: Findings, p: Parsed, depth: int) -> None:
    verb = next((w for w in p.argv[1:] if not w.startswith("-")), "")
    if verb in VCS_READ:
        return
    f.ask(f"{p.name} {verb[:12]}: changes the repository or the working tree")


def run_parts(f: Findings, p: Parsed, depth: int) -> None:
    if not {"--test", "--list"} & set(p.argv[1:]):
        f.ask("run-parts: runs every program in a directory", True)


def cargo_resolve(f: Findings, p: Parsed, depth: int) -> None:
    """``cargo tree`` / ``cargo metadata`` run no build script, but they resolve the
    dependencies: that may write Cargo.lock and fetch the registry index — unless the lock file
    is frozen and the network off."""
    if not (p.has("--frozen") or (p.has("--locked") and p.has("--offline"))):
        f.ask(f"cargo {p.verbs[-1] if p.verbs else ''}: may update Cargo.lock and fetch the "
              "registry index (not with --frozen)")


HOOKS: dict[str, Callable[[Findings, Parsed, int], None]] = {
    "unsquashfs": unsquashfs, "atool": atool, "cargo_resolve": cargo_resolve,
    "run_parts": run_parts, "compiler_cache": compiler_cache, "profiler": profiler,
    "archive_generic": archive_generic, "kube_switch": kube_switch, "etcd": etcd,
    "browser": browser, "remote_shell": remote_shell, "vcs_generic": vcs_generic,
    "shell": shell, "secret_store": secret_store, "sysinfo": sysinfo,
    "table_tool": writes_files, "dasel": writes_files, "counter": writes_files,
    "version_manager": version_manager, "rclone": rclone, "glab": glab,
    "hashicorp": hashicorp, "scheduler": scheduler, "launchctl": launchctl,
    "db_generic": db_generic,
}
