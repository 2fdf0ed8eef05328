"""Hooks of the programs that change files: every target found by the grammar goes through
the write policy (``checks.write_target``): outside the working tree, over an existing file,
into a startup file or ``.git`` is dangerous; deleting and destroying content always is."""

from __future__ import annotations

import re
from collections.abc import Callable

from swebash.safety.classify import roles
from swebash.safety.classify.checks import read_path, write_target
from swebash.safety.classify.model import Findings
from swebash.safety.classify.parser import Arg, Parsed

OVERWRITES = frozenset({"cp", "gcp", "mv", "gmv", "install", "ginstall"})


def target(f: Findings, name: str, arg: Arg | str, *, overwrite: bool) -> None:
    text, dynamic = (arg, False) if isinstance(arg, str) else (arg.text, arg.dynamic)
    if dynamic:
        f.ask(f"{name}: changes a file named only at run time", True)
    else:
        write_target(f, text, name, overwrite_is_dangerous=overwrite)


def rm(f: Findings, p: Parsed, depth: int) -> None:
    recursive = p.has("-r", "-R", "--recursive")
    f.ask(f"{p.name}: deletes files recursively" if recursive else f"{p.name}: deletes files",
          True)
    for arg in p.operands:
        target(f, p.name, arg, overwrite=False)


def destroy(f: Findings, p: Parsed, depth: int) -> None:
    f.ask(f"{p.name}: destroys file contents", True)
    for arg in p.operands:
        target(f, p.name, arg, overwrite=False)


CREATES = {"mkdir": "creates directories", "touch": "creates files or changes their times",
           "rmdir": "removes directories", "mkfifo": "creates a named pipe"}


def create(f: Findings, p: Parsed, depth: int) -> None:
    f.ask(f"{p.name}: {CREATES.get(p.name, 'changes files')}")
    for arg in p.operands:
        target(f, p.name, arg, overwrite=False)


def copy(f: Findings, p: Parsed, depth: int) -> None:
    """cp/mv/ln/install: the destination is the last operand or the -t directory."""
    name = p.name
    f.ask(f"{name}: changes files")
    operands = list(p.operands)
    directories = p.values("-t", "--target-directory")
    if directories:
        destinations: list[Arg | str] = list(directories)
        sources = operands
    elif name in ("install", "ginstall") and p.has("-d", "--directory"):
        destinations, sources = list(operands), []
    elif name in ("ln", "gln") and len(operands) == 1:
        destinations, sources = ["."], operands
    else:
        destinations, sources = list(operands[-1:]), operands[:-1]
    overwrite = name in OVERWRITES or p.has("-f", "--force")
    for destination in destinations:
        target(f, name, destination, overwrite=overwrite)
        if not isinstance(destination, str) and destination.text == "/dev/null" and \
                name in ("mv", "gmv"):
            f.ask("mv: moves files into /dev/null (destroys them)", True)
    recursive = p.has("-r", "-R", "-a", "--recursive", "--archive")
    for source in sources:
        if name in ("mv", "gmv"):
            target(f, name, source, overwrite=False)
        if name not in ("ln", "gln"):
            roles.check(f, name, "t" if recursive else "r", source.text, source.dynamic, depth)


SETUID = re.compile(r"^([0-7]?[4-7][0-7]{3}|.*[ug]?\+[rwxXt]*s.*)$")
NO_ACCESS = re.compile(r"^0*$|^[ugoa]*[-=]$|^a?-r")
PERM_OPTIONS = re.compile(r"^-[cfvRHLPh]+$|^--(changes|silent|quiet|verbose|recursive|"
                          r"dereference|no-dereference|no-preserve-root|preserve-root|"
                          r"reference=.+|from=.+)$")


def own_owner(name: str, spec: str) -> bool:
    """``chown me:mygroup`` / ``chgrp mygroup``: the owner and group are this user's own
    (by name or number); anything else gives the files away."""
    import grp
    import os
    import pwd

    sep = ":" if ":" in spec or "." not in spec else "."  # `user.group`, the old spelling
    user, _, group = spec.partition(sep) if name == "chown" else ("", "", spec)
    try:
        me = pwd.getpwuid(os.getuid())
        groups = {g.gr_name for g in grp.getgrall() if me.pw_name in g.gr_mem}
        gids = {str(g) for g in (me.pw_gid, *os.getgroups())}
        groups |= {grp.getgrgid(int(gid)).gr_name for gid in gids}
    except (KeyError, OSError):
        return False
    return user in ("", me.pw_name, str(me.pw_uid)) and group in ("", *groups, *gids)


def acl_grantee(specs: list[str]) -> str | None:
    """The first named user or group an ACL entry (``u:nobody:rwx``, ``d:g:staff:r``) gives
    access to, other than this user and their groups."""
    for spec in specs:
        for entry in spec.split(","):
            parts = entry.split(":")
            if parts[0] in ("d", "default"):
                parts = parts[1:]
            if len(parts) >= 2 and parts[1] and parts[0] in ("u", "user", "g", "group"):
                kind = "chown" if parts[0] in ("u", "user") else "chgrp"
                if not own_owner(kind, parts[1]):
                    return entry
    return None


def perms(f: Findings, p: Parsed, depth: int) -> None:
    """chmod/chown/chgrp/chattr/setfacl: modes can look like options (``chmod -x f``), so the
    words are read here: options from a known list, then the mode, then the targets."""
    words = [(a.text, a.dynamic) for a in p.operands]
    options = [w for w, d in words if not d and PERM_OPTIONS.match(w)]
    recursive = p.has("-R", "--recursive") or any(
        w == "--recursive" or (not w.startswith("--") and "R" in w) for w in options)
    if p.name in ("chmod", "chown", "chgrp", "chattr"):
        words = [(w, d) for w, d in words if d or not PERM_OPTIONS.match(w)]
        if not any(w.startswith("--reference") for w in options):
            mode, words = (words[0] if words else ("", False)), words[1:]
        if p.name == "chmod" and SETUID.match(mode[0]):
            f.ask("chmod: makes a program run with its owner's privileges (setuid)", True)
        if p.name == "chmod" and NO_ACCESS.match(mode[0]):
            f.ask("chmod: removes all access to files", True)
        if p.name in ("chown", "chgrp") and not mode[1] and not own_owner(p.name, mode[0]):
            f.ask(f"{p.name}: gives files to another user or group ({mode[0][:20]})", True)
        elif p.name in ("chown", "chgrp") and mode[1]:
            f.ask(f"{p.name}: gives files to an owner known only at run time", True)
        if p.name == "chattr" and re.match(r"^[+=].*[ia]", mode[0]):
            f.ask("chattr: makes files immutable or append-only (only root can undo it)", True)
    if p.name == "setfacl":
        granted = acl_grantee(p.values("-m", "--modify", "--set"))
        if granted:
            f.ask(f"setfacl: grants access to another user or group ({granted[:20]})", True)
    f.ask(f"{p.name}: changes permissions or ownership", recursive)
    for text, dynamic in words:
        target(f, p.name, text if not dynamic else Arg(text, True, "p", 0), overwrite=False)


def dd(f: Findings, p: Parsed, depth: int) -> None:
    writes = False
    for arg in p.operands:
        key, _, value = arg.text.partition("=")
        if key == "if" and not arg.dynamic:
            read_path(f, value)
        elif key == "of":
            writes = True
            target(f, "dd", Arg(value, arg.dynamic, "w", arg.index), overwrite=False)
    if writes:
        f.ask("dd: writes raw data", True)
    else:
        f.ask("dd: copies raw data")


def rewrite(f: Findings, p: Parsed, depth: int) -> None:
    """strip FILE… / objcopy IN [OUT]: the files are rewritten (or OUT written)."""
    f.ask(f"{p.name}: rewrites binaries")
    outputs = p.operands[1:] if p.name == "objcopy" and len(p.operands) > 1 else p.operands
    for arg in outputs:
        target(f, p.name, arg, overwrite=True)


HOOKS: dict[str, Callable[[Findings, Parsed, int], None]] = {
    "rm": rm, "destroy": destroy, "create": create, "copy": copy, "perms": perms, "dd": dd,
    "rewrite": rewrite,
}
