"""Hooks of shells run with a script, secret stores, small readers with a write mode,
version managers, rclone, glab, consul/nomad, schedulers and launchd."""

from __future__ import annotations

import re
from collections.abc import Callable

from swebash.safety.classify import roles
from swebash.safety.classify.parser import Parsed
from swebash.safety.model import Findings


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
    else:
        f.ask(f"{p.name}: starts a shell (it runs whatever it reads)", True)


SAFE_STATUS = frozenset({"status", "version", "--version", "-v", "help", "--help", "-h"})


def secret_store(f: Findings, p: Parsed, depth: int) -> None:
    if p.argv[1:2] and p.argv[1] in SAFE_STATUS and len(p.argv) == 2:
        return
    f.ask(f"{p.name}: reads a password store, a secret or a key agent", True)


def sysinfo(f: Findings, p: Parsed, depth: int) -> None:
    if any(w.startswith(("-o", "--output", "-xml", "-outputfile")) for w in p.argv[1:]):
        f.ask(f"{p.name}: writes a report file")


WRITE_WORDS = frozenset({"split", "partition", "put", "delete", "write", "-o", "--output",
                         "--report-file", "--out", "--sql", "--write-lang-def", "--to",
                         "-O", "--output-file", "-w"})


def writes_files(f: Findings, p: Parsed, depth: int) -> None:
    words = {w.split("=", 1)[0] for w in p.argv[1:]}
    if words & WRITE_WORDS:
        f.ask(f"{p.name}: writes files")
    for arg in p.operands:
        if not arg.text.startswith("-") and not arg.dynamic and "/" in arg.text:
            roles.check(f, p.name, "r", arg.text, False, depth)


MANAGER_READ = frozenset({"versions", "version", "which", "root", "prefix", "commands",
                          "whence", "--version", "ls", "list", "current", "ls-remote",
                          "list-remote", "help", "doctor", "--help", "-v", "latest"})


def version_manager(f: Findings, p: Parsed, depth: int) -> None:
    verb = next((w for w in p.argv[1:] if not w.startswith("-")), "")
    if verb in MANAGER_READ or (not verb and p.argv[1:] in ([], ["-v"], ["--version"])):
        return
    f.ask(f"{p.name} {verb[:12]}: installs, switches or runs toolchains",
          verb in ("uninstall", "remove", "rm", "unalias"))


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


def glab(f: Findings, p: Parsed, depth: int) -> None:
    words = [w for w in p.argv[1:] if not w.startswith("-")]
    if words[:2] == ["auth", "status"] and "--show-token" not in p.argv and \
            "-t" not in p.argv:
        return
    if len(words) > 1 and GLAB_READ.match(words[1]) and "--web" not in p.argv and \
            "-w" not in p.argv:
        return
    if words[:1] == ["version"]:
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
        if words[k] in ("-p", "--pid"):
            f.ask(f"{p.name}: changes a running process's scheduling")
            return
        k += 2 if words[k] in ("-g", "--sticky", "-C", "--cpunodebind", "-N", "-m",
                               "--membind", "-i", "--interleave", "-P", "--preferred",
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


def run_parts(f: Findings, p: Parsed, depth: int) -> None:
    if not {"--test", "--list"} & set(p.argv[1:]):
        f.ask("run-parts: runs every program in a directory", True)


HOOKS: dict[str, Callable[[Findings, Parsed, int], None]] = {
    "run_parts": run_parts,
    "shell": shell, "secret_store": secret_store, "sysinfo": sysinfo,
    "table_tool": writes_files, "dasel": writes_files, "counter": writes_files,
    "version_manager": version_manager, "rclone": rclone, "glab": glab,
    "hashicorp": hashicorp, "scheduler": scheduler, "launchctl": launchctl,
    "db_generic": db_generic,
}
