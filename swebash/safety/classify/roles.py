"""What a word's role means: the checks applied to an operand or an option's value.

The grammar says what each word IS (a file read, a file written, a URL, shell code…); this
module says what that implies — the path guard for reads, the write policy for writes, the
URL policy for fetches, classification for code. Roles are listed in ``grammar.py``.
"""

from __future__ import annotations

import os
import re
from urllib.parse import parse_qsl

from swebash.safety.classify import hosts
from swebash.safety.classify.checks import read_path, write_target
from swebash.safety.classify.model import Findings
from swebash.safety.paths import expand, read_place, secret_reason, within

STD_STREAMS = frozenset({"-", "/dev/null", "/dev/stdout", "/dev/stderr", "/dev/stdin",
                         "/dev/fd/1", "/dev/fd/2"})
SKIP_DIRS = frozenset({".git", "node_modules", ".venv", "venv", "__pycache__", "target",
                       ".tox", ".mypy_cache", ".cache", ".ruff_cache", ".pytest_cache"})
MAX_WALK = 3000


def check(f: Findings, name: str, role: str, text: str, dynamic: bool, depth: int, *,
          quiet: bool = False) -> None:
    """Apply ``role`` to one word of ``name``'s command. ``quiet``: the option that carries
    the word already gave the reason to ask, so a write adds only what makes it worse."""
    if role == "n" and not dynamic:
        names(f, name, text)
        return
    if role in "pnx":
        return
    if role in "rmt":
        read(f, name, role, text, dynamic)
    elif role in "wa":
        write(f, name, text, dynamic, overwrite=role == "w", quiet=quiet)
    elif role == "d":
        f.ask(f"{name}: deletes files", True)
        if not dynamic:
            write_target(f, text, name, overwrite_is_dangerous=False)
    elif role == "c":
        if dynamic:
            f.ask(f"{name}: runs a command string built at run time", True)
        else:
            f.nested(text, f, depth + 1)
    elif role == "u":
        url(f, name, text, dynamic)
    elif role == "h":
        host(f, name, text, dynamic)
    elif role == "e":
        from swebash.safety.classify.wrappers import check_env_name

        variable, eq, value = text.partition("=")
        if dynamic and "$" in variable:
            f.ask(f"{name}: sets a variable named at run time", True)
        elif eq:
            check_env_name(f, variable, None if dynamic else value)


EXPANSION = re.compile(r"\$\{[^}]*\}|\$\(\([^)]*\)\)|\$\([^)]*\)|`[^`]*`|\$(\w+|[$#?!@*-])")


def skeleton_secret(f: Findings, text: str) -> str | None:
    """A path computed at run time whose fixed parts already name a secret
    (``/proc/$$/environ``, ``"$HOME/.ssh/id_rsa"``)."""
    shape = EXPANSION.sub("x", text.replace('"', "").replace("'", ""))
    shape = shape.replace("x/.", f"{f.home}/.") if shape.startswith("x/.") else shape
    return secret_reason(expand(shape, f.cwd, f.home), f.home) if "/" in shape else None


def skeleton_place(f: Findings, text: str) -> tuple[str, bool] | None:
    """Where a path built from the home (``"$HOME/.config/x"``, ``~/$d/x``) lands, when its
    fixed parts already say."""
    shape = EXPANSION.sub("x", text.replace('"', "").replace("'", ""))
    if not shape.startswith(("x/", "~/")):
        return None
    return read_place(f.home + shape[1:], f.cwd, f.home, f.work_tree())


def names(f: Findings, name: str, text: str) -> None:
    """A name only (``ls``, ``stat``): no content is read, so nothing is denied — but the
    names in a secret place or a hidden place of the home (which keys, accounts and tools
    you have: ``ls ~/.ssh``, ``ls -la ~/.config``) are not known good to show."""
    if text in STD_STREAMS or not text or text.startswith("-"):
        return
    for cwd in f.cwds or [f.cwd]:
        full = expand(text, cwd, f.home)
        where = read_place(full, cwd, f.home, f.work_tree())
        if secret_reason(full, f.home):
            f.ask(f"{name}: lists a secret place ({text[:40]}): names only")
            return
        if where is not None and "/." in "/" + os.path.relpath(full, f.home) and \
                within(full, f.home):
            f.ask(f"{name}: lists {text[:40]}, a hidden place of your home (names only)")
            return


def read(f: Findings, name: str, role: str, text: str, dynamic: bool) -> None:
    if dynamic:
        if text.startswith(("<(", ">(")):
            return  # /dev/fd/N of a process substitution: its command is judged itself
        values = f.bound_values(text)
        if values is not None:
            for value in values:
                read(f, name, role, value, False)
            return
        secret = skeleton_secret(f, text)
        where = skeleton_place(f, text) if role in "rt" and not secret else None
        if secret:
            f.ask(f"{name}: reads {secret} through a path built at run time", True)
        elif where is not None and where[1]:
            f.ask(f"{name}: {where[0]} (a path built at run time)", True)
        elif role in "rt" and f.notes.get("credential-search"):
            f.ask("reads what a search for credential files found", True)
        elif role in "rt":
            f.ask(f"{name}: reads a path known only at run time")
            f.notes.setdefault("run-time-read", set()).add(name)
        return
    if text in STD_STREAMS or not text:
        return
    read_path(f, text, place=role != "m")
    if role == "t":
        tree(f, name, text, hidden=True)


def write(f: Findings, name: str, text: str, dynamic: bool, *, overwrite: bool,
          quiet: bool) -> None:
    if dynamic:
        f.ask(f"{name}: writes a file named only at run time", True)
        return
    if text in STD_STREAMS:
        return
    if not quiet:
        f.ask(f"{name}: writes {text[:50]}")
    write_target(f, text, name, overwrite_is_dangerous=overwrite)


def tree(f: Findings, name: str, directory: str, *, hidden: bool) -> None:
    """A recursive read of ``directory``: every file under it is read, so a tree that holds
    your home (or is it) is denied, and a secret file anywhere in it makes the command ask.
    ``hidden``: dot-files are read too (rg and fd skip them by default)."""
    if f.cwds is None:
        f.ask(f"{name}: searches a directory after a cd to a place known only at run time")
        return
    for cwd in dict.fromkeys(f.cwds):
        scope = tree_scope(f, directory, cwd)
        if scope == "home":
            f.deny(f"{name}: reads a whole tree that holds your secrets ({directory[:40]})")
            return
        if scope == "private":
            f.ask(f"{name}: reads a directory of your home outside the project "
                  f"({directory[:30]})", True)
            return
        found = secret_under(f, os.path.realpath(expand(directory, cwd, f.home)), hidden)
        if found:
            f.ask(f"{name}: reads a tree that holds a {found}", True)
            return


def tree_scope(f: Findings, directory: str, cwd: str) -> str:
    """"home": the tree holds the home directory (or is /); "private": it is inside the home
    but outside the working tree (where credentials and other projects live); else
    "open"."""
    root = os.path.realpath(expand(directory, cwd, f.home))
    home = os.path.realpath(f.home)
    if within(home, root) or root == "/":
        return "home"
    if within(root, home) and not within(root, os.path.realpath(cwd)):
        return "private"
    return "open"


def secret_under(f: Findings, root: str, hidden: bool) -> str | None:
    if not os.path.isdir(root):
        return None
    seen = 0
    for top, subdirs, files in os.walk(root):
        subdirs[:] = [s for s in subdirs if s not in SKIP_DIRS
                      and (hidden or not s.startswith("."))]
        for entry in files + subdirs:
            if not hidden and entry.startswith("."):
                continue
            seen += 1
            reason = secret_reason(os.path.join(top, entry), f.home)
            if reason:
                return reason
        f.tick()
        if seen > MAX_WALK:
            return None
    return None


# --------------------------------------------------------------------------- network

WEB_SCHEMES = frozenset({"http", "https"})


def url(f: Findings, name: str, text: str, dynamic: bool) -> None:
    """A URL fetched: only http(s) to a public host, with no credentials in it, is a plain
    download."""
    if dynamic:
        f.ask(f"{name}: sends a value known only at run time", True)
        return
    scheme, sep, rest = text.partition("://")
    if not sep:
        scheme, rest = "http", text
    scheme = scheme.lower()
    if scheme not in WEB_SCHEMES:
        f.ask(f"{name}: uses the {scheme[:10]} protocol", True)
        return
    reason = url_reason(rest)
    if reason:
        f.ask(f"{name}: {reason}", True)


def url_reason(rest: str) -> str | None:
    """Why a URL (the part after ``scheme://``) is not a plain public address."""
    if hosts.credentials_in(rest):
        return "sends credentials written in the URL"
    if "?" in rest and command_in_query(rest.split("?", 1)[1]):
        return "sends a shell command in the URL's query (a web shell runs it)"
    return hosts.judge(url_host(rest))


# a query parameter a web shell or an injectable page runs (`shell.php?cmd=id`), and a value
# written as shell syntax (`?q=x;id`, `?file=$(id)`)
COMMAND_PARAMETER = re.compile(r"(?i)^(cmd\w*|command|exec(ute)?|shell|system|eval|"
                               r"powershell|bash|sh)$")
SHELL_SYNTAX = re.compile(r"\$\(|`|\$\{IFS|[;|]\s*(id|whoami|uname|cat|wget|curl|nc|ncat|bash|"
                          r"sh|python3?|perl|php|ruby|rm|chmod|busybox)\b")


def command_in_query(query: str) -> bool:
    for name, value in parse_qsl(query.split("#", 1)[0], keep_blank_values=True):
        if value and (COMMAND_PARAMETER.match(name) or SHELL_SYNTAX.search(value)):
            return True
    return False


def url_host(rest: str) -> str:
    return hosts.host_of(rest)


def internal_host(where: str) -> str | None:
    """Why ``where`` is not a public host: the cloud metadata service (credentials), a
    service on this machine or a private network, or a spelling clients read differently."""
    return hosts.judge(where)


def host(f: Findings, name: str, text: str, dynamic: bool) -> None:
    """A host reached by a probe (ping, dig, traceroute): a run-time value can carry data
    out, and the metadata service is never probed; local addresses are fine to probe."""
    if dynamic:
        f.ask(f"{name}: sends a value known only at run time", True)
        return
    where = text.rsplit("@", 1)[-1]
    if where.count(":") == 1:
        where = where.split(":", 1)[0]
    if hosts.judge(where) == hosts.METADATA:
        f.ask(f"{name}: {hosts.METADATA}", True)


def names_secret(f: Findings, word: str) -> str | None:
    """Why a word given to a program that asks names a secret (None when it does not)."""
    if not word or ("/" not in word and not word.startswith((".", "~"))):
        return None
    path = word.split("=", 1)[-1].split("@", 1)[-1]
    if path.startswith("file://"):
        path = path[7:]
    return secret_reason(expand(path, f.cwd, f.home), f.home) if path else None
