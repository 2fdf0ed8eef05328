"""Searches that are slow or that hunt for secrets: deep globs and credential-file searches.

Design note. Two kinds of command look harmless word by word. A glob such as
``*/*/*/*/*/*/*/*`` or ``**/**/**`` is one word, but bash expands it by walking every
directory to that depth: on a real disk it can take minutes, long past a tool's timeout.
The classifier's own expansion is bounded, and in a small tree it finishes — so the word's
shape, not what it matched here, decides: a run of wildcard-only path components or several
``**`` asks. And ``find / -name id_rsa``, ``fd .netrc ~``, ``locate '*.pem'`` only list names,
but they are how a credential is found before it is read. What decides is the path guard's
own list of secret files (``paths.secret_reason``): a name, path or regex pattern that, with
its wildcards filled in, names a secret file, or a search root inside a secret directory
wherever it is (``find //.aws``) — the command asks "looks for credential files".
"""

from __future__ import annotations

import fnmatch
import functools
import itertools
import os
import posixpath
import re

from swebash.safety.classify.model import Findings, base
from swebash.safety.classify.parser import split_words
from swebash.safety.paths import SECRET_DIR_RE, SECRET_HOME_FILES, secret_reason

# -------------------------------------------------------------------------- deep globs

MAX_WILD_RUN = 4  # `*/*/*/*` still expands quickly; a fifth level multiplies again
MAX_GLOBSTARS = 2
WILD_COMPONENT = re.compile(r"^[*?]+$|^\[[^/\]]*\][*?]*$")
SLOW_GLOB = "a glob this deep can take very long to expand"


def outside_quotes(source: str) -> str:
    """The parts of a word bash expands as a glob (quoted parts are literal)."""
    return re.sub(r"'[^']*'|\"(\\.|[^\"\\])*\"", "_", source)


def deep_glob(source: str) -> bool:
    """Many consecutive wildcard-only path components, or many ``**``."""
    if "*" not in source and "?" not in source:
        return False
    bare = outside_quotes(source)
    if bare.count("**") > MAX_GLOBSTARS:
        return True
    run = 0
    for part in bare.split("/"):
        run = run + 1 if WILD_COMPONENT.match(part) else 0
        if run > MAX_WILD_RUN:
            return True
    return False


def check_glob(f: Findings, source: str) -> None:
    if deep_glob(source):
        f.ask(SLOW_GLOB)


# -------------------------------------------------------------------- credential hunts

HUNTING = "looks for credential files"
FOUND = "credential-search"  # a note: a later read of a run-time path reads what it found
READ_FOUND = "reads what a search for credential files found"


def hunted(f: Findings) -> None:
    """A credential search; with a read of a path known only at run time in the same line
    (``for f in $(find / -name .netrc); do cat $f; done``), it reads the secrets it found.
    Whichever of the two the walk meets first leaves a note for the other."""
    f.ask(HUNTING)
    f.notes.setdefault(FOUND, set()).add(HUNTING)
    if f.notes.get("run-time-read"):
        f.ask(READ_FOUND, True)


FIND_PATTERNS = frozenset({"-name", "-iname", "-path", "-ipath", "-wholename", "-iwholename",
                           "-lname", "-ilname"})
FIND_REGEX = frozenset({"-regex", "-iregex"})
FINDERS = frozenset({"find", "fd", "fdfind", "locate", "plocate", "mlocate", "slocate"})
# short options of fd/locate whose next word is a value, not the pattern
FD_VALUES = frozenset({"-e", "--extension", "-t", "--type", "-E", "--exclude", "-d",
                       "--max-depth", "--min-depth", "--exact-depth", "-x", "--exec",
                       "-X", "--exec-batch", "-S", "--size", "-j", "--threads", "-c",
                       "--color", "--changed-within", "--changed-before", "-o", "--owner",
                       "--base-directory", "--search-path", "--max-results", "--format",
                       "--ignore-file", "-l", "--limit", "--database", "-n"})


def filled(pattern: str, regex: bool = False, letter: str = "x") -> str:
    """A pattern with its wildcards filled in (``*.pem`` → ``x.pem``, ``.*id_rsa`` →
    ``id_rsa``): a sample of the names it matches."""
    if regex:
        pattern = pattern.strip("^$")
        pattern = re.sub(r"\.[*+?]|\\w[*+]?", letter, pattern)
        # a lone `.` matches itself too: `.netrc` as a regex still names .netrc
        pattern = re.sub(r"\[[^\]]*\][*+?]?", "x", pattern)
        pattern = pattern.replace("\\.", ".").replace("\\/", "/").replace("\\", "")
        return re.sub(r"[|*+?()]", "", pattern)
    pattern = re.sub(r"\[[^\]]*\]", "x", pattern)
    return pattern.replace("*", letter).replace("?", "x")


# Names of the shapes the path guard's SECRET_NAME pattern describes, beside its list of secret
# files: what a pattern such as `id_*` or `*credential*` is after. Each is kept only if the
# guard itself calls it secret, so the guard stays the one list.
SHAPES = ("id_rsa", "id_ed25519", "id_ecdsa", "id_dsa", "credentials", "credentials.json",
          "token", "token.json", ".env", ".env.local", "server.key", "key.pem", "cert.p12",
          "store.pfx", "release.jks", "app.keystore", "putty.ppk", "vault.kdbx",
          "terraform.tfstate", "prod.tfvars", "master.key", "secrets.yaml", "secret.json",
          "service-account.json", "backup.gpg", "deploy_rsa", "vpn.ovpn", "prod.env",
          "app.secret", ".htpasswd")
# ordinary names a pattern meant for anything would match too (`*`, `.*`, `*.*`, `*e*`)
ORDINARY = ("README.md", "main.py", "index.js", "Makefile", "notes.txt", ".gitignore",
            "config.yaml", "package.json", "environment.yml", ".venv", "x")


QUANTIFIED_GROUP = re.compile(r"\)[*+?{]")


@functools.lru_cache(maxsize=1)
def secret_samples() -> tuple[str, ...]:
    names = {posixpath.basename(p) for p in SECRET_HOME_FILES} | set(SHAPES)
    return tuple(sorted(n for n in names if secret_reason("/x/" + n, "/nonexistent")))


def targets_secrets(pattern: str, regex: bool) -> bool:
    """The pattern matches a secret file's name and no ordinary one."""
    if "/" in pattern:
        return False
    if regex:
        if QUANTIFIED_GROUP.search(pattern) or len(pattern) > 200:
            return False  # `(.*)*z` backtracks exponentially: never run such a pattern here
        try:
            compiled = re.compile(pattern, re.I)
        except re.error:
            return False

        def hit(name: str) -> bool:
            return compiled.search(name) is not None
    else:
        low = pattern.lower()

        def hit(name: str) -> bool:
            return fnmatch.fnmatchcase(name.lower(), low)
    return any(hit(n) for n in secret_samples()) and not any(hit(n) for n in ORDINARY)


def names_credential(f: Findings, pattern: str, *, regex: bool = False,
                     shapes: bool = True) -> bool:
    """The pattern, its wildcards filled with nothing or with a letter, names a secret; or
    it matches a secret file's name and no ordinary one (``id_*``, ``*credential*``)."""
    if not pattern:
        return False
    if shapes and targets_secrets(pattern, regex):
        return True
    for letter in ("", "x"):
        sample = filled(pattern, regex, letter)
        sample = sample[2:] if sample.startswith("./") else sample
        probe = sample if sample.startswith("/") else "/x/" + sample
        if secret_reason(probe, f.home) is not None:
            return True
    return False


def secret_root(f: Findings, root: str) -> bool:
    """A search root inside a secret directory, at home or not (``//.aws``, ``/root/.ssh``)."""
    full = os.path.normpath(root.replace("~", f.home, 1) if root.startswith("~") else root)
    return bool(SECRET_DIR_RE.search(full.lower() + "/"))


def patterns(name: str, args: list[str]) -> tuple[list[str], list[str], list[str]]:
    """(glob or literal patterns, regex patterns, search roots) of a finder's words."""
    globs: list[str] = []
    regexes: list[str] = []
    roots: list[str] = []
    if name == "find":
        expression = False
        for k, arg in enumerate(args):
            value = args[k + 1] if k + 1 < len(args) else ""
            if arg.startswith("-") or arg in ("(", "!", ")"):
                expression = expression or arg not in ("-H", "-L", "-P")
            if arg in FIND_PATTERNS:
                globs.append(value)
            elif arg in FIND_REGEX:
                regexes.append(value)
            elif not expression and not arg.startswith("-"):
                roots.append(arg)
        return globs, regexes, roots
    _options, operands = split_words(args, FD_VALUES)
    extensions = [args[k + 1] for k, a in enumerate(args[:-1]) if a in ("-e", "--extension")
                  and name in ("fd", "fdfind")]
    globs.extend("x." + e.lstrip(".") for e in extensions)
    regex_mode = name in ("fd", "fdfind") and not ({"-g", "--glob", "-F",
                                                    "--fixed-strings"} & set(args))
    if name in ("fd", "fdfind"):
        if operands:
            (regexes if regex_mode else globs).append(operands[0])
        roots.extend(operands[1:])
    elif {"-r", "--regexp", "--regex"} & set(args):
        regexes.extend(operands)
    else:  # a pattern without wildcards matches anywhere in the path
        globs.extend(p if set("*?[") & set(p) else f"*{p}*" for p in operands)
    return globs, regexes, roots


def hunts_credentials(f: Findings, argv: list[str]) -> bool:
    name = base(argv[0]) if argv else ""
    if name not in FINDERS:
        return False
    globs, regexes, roots = patterns(name, argv[1:])
    return any(names_credential(f, p) for p in globs) or \
        any(names_credential(f, p, regex=True) for p in regexes) or \
        any(secret_root(f, r) for r in roots)


# programs that list file names, and filters that pick names from a listing
LISTERS = FINDERS | {"ls", "tree", "du", "rg", "git", "fzf", "tar", "unzip", "zipinfo"}
FILTERS = frozenset({"grep", "egrep", "fgrep", "rg", "ag"})


def listing_filtered(f: Findings, stages: list[list[str]]) -> None:
    """``ls -R ~ | grep id_rsa``, ``rg --files / | grep -i credentials``: a listing of names
    filtered for a secret file's name is the same search as ``find -name``."""
    for listing, stage in itertools.pairwise(stages):
        if not listing or not stage or (stage[0] not in FILTERS and "/" not in stage[0]) or \
                base(stage[0]) not in FILTERS or base(listing[0]) not in LISTERS:
            continue
        pattern = next((w for w in stage[1:] if not w.startswith("-")), "")
        fixed = any(w in ("-F", "--fixed-strings") for w in stage[1:]) or \
            base(stage[0]) == "fgrep"
        # a name filtered out of a listing: only a pattern that names a secret file itself
        if pattern and names_credential(f, pattern, regex=not fixed, shapes=False):
            hunted(f)
            return


def line_command(f: Findings, argv: list[str]) -> None:
    if hunts_credentials(f, argv):
        hunted(f)
