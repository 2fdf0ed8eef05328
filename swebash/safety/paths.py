"""The path guard: where a file tool (or a command's file argument) would land, and whether
that place is secret, sensitive or outside the working tree.

Paths are judged by where they really land: ``~`` expanded, resolved against the shell's cwd,
symlinks followed (for a file that does not exist yet, through its deepest existing ancestor —
``os.path.realpath`` does exactly that). Both the lexical and the resolved path are checked,
case-insensitively, so neither a symlink nor ``/proc/"self"/environ`` spelling gets past.
"""

from __future__ import annotations

import os
import re
import stat

from swebash.api import Verdict

SECRET_HOME_DIRS = (".ssh", ".aws", ".gnupg", ".config/gh", ".kube", ".password-store",
                    ".config/gcloud", ".azure")
SECRET_HOME_FILES = (".docker/config.json", ".netrc", ".git-credentials", ".npmrc", ".pypirc",
                     ".pgpass", ".my.cnf")
SECRET_NAME = re.compile(
    r"(^|/)(\.env(\..+)?|[^/]*\.pem|[^/]*\.key|id_(rsa|dsa|ecdsa|ed25519)[^/]*|[^/]*\.p12|"
    r"[^/]*\.pfx|credentials\.json)$", re.I)
PUBLIC_KEY = re.compile(r"(^|/)id_[a-z0-9]+\.pub$", re.I)
SECRET_SYSTEM = re.compile(r"^(/etc/(shadow|gshadow|sudoers)(\.d(/.*)?|-)?|"
                           r"/proc/[^/]+/(environ|mem|cmdline|auxv)|/etc/ssh/ssh_host_.*_key)$",
                           re.I)
RC_FILES = frozenset({".bashrc", ".bash_profile", ".bash_login", ".bash_logout", ".profile",
                      ".zshrc", ".zprofile", ".zshenv", ".zlogin", ".swebashrc", ".inputrc",
                      ".kshrc", ".cshrc", ".tcshrc", "config.fish"})
SYSTEM_DIRS = ("/etc", "/usr", "/boot", "/dev", "/bin", "/sbin", "/lib", "/lib64", "/var/spool",
               "/sys", "/proc")


def expand(path: str, cwd: str, home: str) -> str:
    if path == "~" or path.startswith("~/"):
        path = home + path[1:]
    if not os.path.isabs(path):
        path = os.path.join(cwd, path)
    return os.path.normpath(path)


def within(path: str, root: str) -> bool:
    root = root.rstrip("/") or "/"
    return root == "/" or path == root or path.startswith(root + "/")


def secret_reason(path: str, home: str) -> str | None:
    low = path.lower()
    home_low = home.rstrip("/").lower()
    for rel in SECRET_HOME_DIRS:
        if within(low, f"{home_low}/{rel}"):
            return f"secret material under ~/{rel}/"
    for rel in SECRET_HOME_FILES:
        if low == f"{home_low}/{rel}":
            return f"secret file ~/{rel}"
    if SECRET_SYSTEM.match(low):
        return f"secret system file {path}"
    if low.startswith("/dev/") and low != "/dev/null":
        return f"device file {path}"
    if SECRET_NAME.search(low) and not PUBLIC_KEY.search(low):
        return f"secret-looking file {os.path.basename(path)}"
    return None


def check_path(path: str, cwd: str, home: str, *, write: bool) -> Verdict:
    """Judge reading (or writing) ``path``; never raises."""
    if not path or "\x00" in path:
        return Verdict("deny", False, ("not a usable path",))
    lexical = expand(path, cwd, home)
    real = os.path.realpath(lexical)
    shown = path if real == lexical else f"{path} (→ {real})"
    for candidate in (lexical, real):
        reason = secret_reason(candidate, home)
        if reason:
            verb = "writes" if write else "reads"
            return Verdict("deny", True, (f"{verb} {reason}: {shown}",))
    if real == "/dev/null":
        return Verdict("allow")
    try:
        mode = os.stat(real).st_mode
        if not (stat.S_ISREG(mode) or stat.S_ISDIR(mode)):
            return Verdict("deny", False, (f"not a regular file: {shown}",))
    except OSError:
        pass
    if not write:
        return Verdict("allow")
    reasons: list[str] = []
    dangerous = False
    if os.path.basename(real) in RC_FILES:
        reasons.append(f"writes a shell startup file: {shown}")
        dangerous = True
    if "/.git/hooks/" in real + "/" or real.endswith("/.git/config"):
        reasons.append(f"writes git configuration or hooks (they run code): {shown}")
        dangerous = True
    if any(within(real, d) for d in SYSTEM_DIRS if d != "/"):
        reasons.append(f"writes a system location: {shown}")
        dangerous = True
    if not within(real, os.path.realpath(cwd)):
        reasons.append(f"writes outside the working directory: {shown}")
        dangerous = True
    if not reasons:
        reasons.append(f"writes {shown}")
    return Verdict("ask", dangerous, tuple(reasons))


def looks_binary(head: bytes) -> bool:
    """NUL, or more than 30 % control bytes in the first 8 KB (shared with the tools)."""
    from swebash.tools.files import looks_binary as check

    return check(head)
