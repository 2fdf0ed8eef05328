"""What makes a command that already asks dangerous, when its grammar cannot say.

A program with no grammar, an unknown option or an unknown verb asks — but asking without the
dangerous flag lets ``--yes`` run it. These checks look at the words such a command carries
and flag it dangerous when they name something no ordinary command should touch: a secret
file, a startup file that runs code, a shell or a shared library to load, a cloud metadata
address, or a verb that destroys (``delete``, ``prune``, ``DROP TABLE``). They never allow
anything: they only run on commands that ask anyway.
"""

from __future__ import annotations

import os
import re

from swebash.safety.classify.model import Findings
from swebash.safety.classify.parser import Parsed
from swebash.safety.classify.roles import (
    internal_host,
    names_secret,
    skeleton_secret,
    url_host,
)
from swebash.safety.paths import RC_FILES, check_path, expand

# sub-command words that destroy something whatever tool they belong to
DESTROY_WORDS = frozenset({
    "delete", "del", "rm", "rmi", "remove", "destroy", "prune", "uninstall", "purge", "drop",
    "flushall", "flushdb", "unpublish", "terminate", "kill", "wipe", "erase", "truncate",
    "deregister", "revoke", "reset", "deprovision", "decommission", "nuke", "dropdb",
    "teardown", "down", "deluser", "userdel", "rb", "yank", "deprecate", "autoremove", "flush",
    "evict", "stop", "disable", "mask", "format", "zap", "discard", "shred", "clear", "clean",
    "rmdir", "unlink", "shutdown", "poweroff", "reboot", "halt", "abandon", "cancel",
    "detach", "scrub", "obliterate", "expunge", "unregister", "disconnect", "vacuum",
    "overwrite", "force-delete", "remove-all", "delete-all", "restore", "rollback", "wipefs"})
DESTROY_NAME = re.compile(r"^(rm|del|drop|kill|wipe|purge|erase|shred|destroy|nuke|zap|"
                          r"mkfs|format|unlink|truncate)|(remove|del|kill|discard|erase|wipe|"
                          r"destroy|purge|drop|rm)$")
SQL_DESTROY = re.compile(r"\b(drop|delete|truncate|alter|update|grant|revoke|flush|"
                         r"shutdown|kill)\b", re.I)
# tools that act on live infrastructure: anything but their read-only forms is irreversible
LIVE = frozenset({"kubectl", "helm", "terraform", "tofu", "pulumi", "aws", "gcloud", "az",
                  "gsutil", "doctl", "flyctl", "heroku", "vercel", "netlify", "eksctl", "oc",
                  "nomad", "consul", "vault", "ansible-playbook", "ansible", "systemctl",
                  "service", "firebase", "supabase", "linode-cli", "hcloud", "scw",
                  "ibmcloud", "oci", "aliyun", "kubeadm", "k3s", "minikube", "kind"})
# how programs that administer the machine are named: `*ctl` control tools, `*adm`, the
# `update-*`/`dpkg-*`/`grub-*` families, account and disk tools
ADMIN_NAME = re.compile(r"(ctl|adm|-reconfigure|-config-manager)$|^(update-|dpkg-|grub-|"
                        r"mkfs|mkswap|swap|fsck|e2fsck|tune2fs|parted|fdisk|gdisk|sgdisk|"
                        r"cryptsetup|lvcreate|lvremove|vgcreate|pvcreate|mdadm|zpool|zfs|"
                        r"btrfs|setenforce|semanage|setsebool|aa-|apparmor|(user|group)"
                        r"(add|mod|del)|chage|vipw|visudo|pam-|authconfig|firewall|ufw|"
                        r"netplan|ifup|ifdown|modprobe|insmod|rmmod|kexec|sysctl)")
# sub-commands that open an interactive shell or console, whatever tool they belong to
SHELL_VERBS = frozenset({"shell", "sh", "bash", "console", "repl", "run-shell", "subshell"})
RUNNERS = re.compile(r"^(/[\w./-]*/)?(sh|bash|zsh|dash|ksh|fish|python[\d.]*|perl|ruby|node|"
                     r"php|lua|nc|ncat|socat|busybox)$")
LIBRARY = re.compile(r"\.(so(\.\d+)*|dylib|dll|ko)$")
CODE = re.compile(r"\$\(|`|\|\s*\w|;\s*\w|&&|\bsh\s+-c\b|\bsystem\s*\(|\bexec\s*\(|"
                  r"\beval\b|\bos\.system\b|\bsubprocess\b|\bchild_process\b")
CALLS = re.compile(r"\b(system|exec|popen|spawn|execl|execve|os\.system|shell_exec|"
                   r"passthru|proc_open)\s*\(|proxycommand|localcommand|"
                   r"^/bin/(ba|da|z|k|c|tc)?sh$", re.I)
# a shell named inside a word where code would name it (`--address=unixexec:path=/bin/sh`,
# `'%(/bin/sh)'`, `execute(/bin/sh)`, `'x; /bin/sh #'`, `/bin/sh -i`): a value no read-only
# use of a program carries. Prose that mentions one (a commit message: "use /bin/sh in
# hooks") has a word on either side, and is not matched.
SHELL_PATH = r"(/usr)?(/local)?/bin/(ba|da|z|k|c|tc|fi|a|mk|ya)?sh(?![\w.-])"
SHELL_INSIDE = re.compile(r"(^|[=:(;{'\"`,|&])\s*" + SHELL_PATH + r"|(?<![\w.~-])" + SHELL_PATH +
                          r"(\s*($|[;)}'\"`,|&<>#])|\s+-)|\$\{?SHELL\b")
# an option whose name says its value is a command, script or program to run
# (`--password-command=…`, `--conf-script …`, `--exec-cmd`); `--no-exec` and the like carry none
RUNS_OPTION = re.compile(r"^--?(?!-)(?!no-|ignore-|skip-|disable-|without-)[\w-]*(command|cmd|"
                         r"exec|script|program|hook|shell|eval|interpreter)s?$", re.I)
# a setting given as KEY=VALUE (`-o editor=…`, `-c core.pager=…`, `--set shell=…`) whose key
# names a program the tool will start with that value
RUNS_SETTING = re.compile(r"^[\w.-]*(command|cmd|exec|script|program|hook|shell|interpreter|"
                          r"editor|pager|browser|viewer|askpass)s?=\S", re.I)
# an option whose name says its value is a file or directory the program writes
# (`-o`, `--output`, `--out-file`, `--log-file`, `--dump`, `--save`, `--report-path`)
OUTPUT_OPTION = re.compile(r"^--?(o|out|output|outfile|outdir|log|logfile|dump|save|report|"
                           r"export|dest|destination|target|prefix)([-_]?(file|dir|path|"
                           r"directory|name))?$", re.I)
PERSIST = ("/.git/hooks/", "/.config/autostart/", "/.config/systemd/", "/.local/bin/",
           "/etc/cron", "/var/spool/cron", "/etc/systemd/", "/etc/profile",
           "/library/launchagents/", "/.ssh/", "/.config/swebash/", "/.config/git/")
INVISIBLE = re.compile("[\u00a0\u00ad\u034f\u061c\u115f\u1160\u17b4\u17b5\u180e"
                       "\u200b-\u200f\u202a-\u202e\u2060-\u206f\u3000\u3164\ufe00-\ufe0f"
                       "\ufeff\uffa0]")


def non_ascii_name(name: str) -> str | None:
    """A command name with look-alike or invisible characters is never what it seems."""
    if name.isascii():
        return None
    if INVISIBLE.search(name):
        return "the command name holds invisible characters"
    return "the command name holds non-ASCII characters (a look-alike of another program?)"


def unknown_program(f: Findings, name: str, argv: list[str]) -> None:
    if DESTROY_NAME.search(name.lower()):
        f.ask(f"{name}: its name says it destroys or removes something", True)
        return
    verb = next((w for w in argv[1:] if not w.startswith("-")), "")
    if verb in SHELL_VERBS:
        f.ask(f"{name}: its verb opens a shell or a console ({verb})", True)
    destroys(f, name, argv[1:])
    if name in LIVE:
        f.ask(f"{name}: changes live infrastructure", True)
    elif ADMIN_NAME.search(name.lower()):
        f.ask(f"{name}: its name says it administers the machine", True)


def unknown_verb(f: Findings, label: str, argv: list[str], parsed: Parsed) -> None:
    verb = parsed.unknown_verb or ""
    if verb in SHELL_VERBS:
        f.ask(f"{label}: its verb opens a shell or a console ({verb})", True)
        return
    start = next((i for i, w in enumerate(argv) if w == verb), 1)
    if not destroys(f, label, argv[start:]) and parsed.name in LIVE:
        f.ask(f"{label}: changes live infrastructure", True)


def destroys(f: Findings, label: str, words: list[str]) -> bool:
    parts: list[str] = []
    for word in words:
        low = word.lower()
        if low.startswith("-"):
            head = low.lstrip("-").split("=", 1)[0]
            if head in ("destroy", "delete", "purge", "prune", "drop", "force-delete"):
                parts.append(head)
            continue
        parts.append(low)
        parts.extend(re.split(r"[-_:]", low))
    hit = next((w for w in parts if w in DESTROY_WORDS), None)
    if hit is None and any(SQL_DESTROY.search(w) for w in words if " " in w):
        hit = "a destructive query"
    if hit is not None:
        f.ask(f"{label}: destroys, stops or removes something ({hit[:20]})", True)
        return True
    return False


def words(f: Findings, label: str, argv: list[str], dynamic: list[bool], *,
          code: bool = True, judged: frozenset[int] = frozenset()) -> None:
    """The words of a command that asks: anything that makes it dangerous. ``code``: also
    words that look like programs or code to run (only for a command whose grammar could
    not place every word — a commit message may quote code). ``judged``: argv indices of
    files read that the path guard has judged already (their place, not their name,
    decides)."""
    for index, (word, is_dynamic) in enumerate(zip(argv[1:], dynamic[1:], strict=False), 1):
        if index in judged:
            continue
        if is_dynamic:
            secret = skeleton_secret(f, word.split("=")[-1])
            if secret:
                f.ask(f"{label}: is handed {secret} through a path built at run time", True)
                return
            if code and (SHELL_INSIDE.search(word) or CALLS.search(word)):
                f.ask(f"{label}: is handed a shell to run", True)
                return
            continue
        following = argv[index + 1] if index + 1 < len(argv) else None
        reason = word_reason(f, word, code) or output_reason(f, word, following)
        if not reason and code:
            reason = option_reason(word, following)
        if reason:
            f.ask(f"{label}: {reason}", True)
            return


def word_reason(f: Findings, word: str, code: bool = True) -> str | None:
    value = word.split("=", 1)[1] if word.startswith("-") and "=" in word else word
    secret = names_secret(f, value)
    if secret:
        return f"is handed {secret}"
    if "://" in value:
        reason = internal_host(url_host(value.split("://", 1)[1]))
        if reason:
            return reason
        if value.lower().startswith(("file://", "fileb://")):
            return "is handed a local file as a URL"
    if "/" in value or value.startswith((".", "~")):
        path = expand(value, f.cwd, f.home).lower() + ("/" if value.endswith("/") else "")
        if os.path.basename(path.rstrip("/")) in RC_FILES or any(p in path for p in PERSIST):
            return f"names a startup or credential file ({value[:40]})"
    if not code:
        return None
    if RUNNERS.match(value) or LIBRARY.search(value):
        return f"is handed a program or library to run ({value[:30]})"
    if (" " in value and CODE.search(value)) or CALLS.search(value):
        return "is handed code to run"
    if SHELL_INSIDE.search(value):
        return "is handed a shell to run"
    if RUNS_SETTING.match(value):
        return f"is handed a program to start ({value.split('=', 1)[0][:30]})"
    return None


def output_reason(f: Findings, word: str, following: str | None) -> str | None:
    """An option named for an output file, given a path the write policy calls dangerous
    (outside the working tree, a startup file, ``.git``): judged as the write it is."""
    if not word.startswith("-"):
        return None
    name, equals, value = word.partition("=")
    if not equals:
        value = following or ""
    if not value or value.startswith("-") or not OUTPUT_OPTION.match(name):
        return None
    verdict = check_path(value, f.cwd, f.home, write=True)
    # a grammar that placed the value as a write has judged it already, with these words
    if verdict.dangerous and verdict.reasons[0] not in f.reasons:
        f.writes_outside.extend(verdict.writes_outside)  # what a y to this question covers
        return f"{name} {verdict.reasons[0]}"
    return None


def option_reason(word: str, following: str | None) -> str | None:
    """An option named for a command to run, given one (attached or as the next word)."""
    if not word.startswith("-"):
        return None
    name, equals, value = word.partition("=")
    if not equals:
        value = following or ""
    if value and not value.startswith("-") and RUNS_OPTION.match(name):
        return f"is handed a command to run ({name[:30]})"
    if re.match(r"^--?listen(-[\w-]+)?$", name, re.I):
        return "listens for connections (whoever reaches the port drives it)"
    return None
