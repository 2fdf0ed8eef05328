"""Hooks of the search and text tools: recursive searches judged as trees, find's commands,
jq/yq filters, mlr's DSL, pager commands, tee, compressors and archivers (which modes only
read), and tar's old-style bundled options."""

from __future__ import annotations

import fnmatch
import os
import re
from collections.abc import Callable

from swebash.safety.classify import envflow, roles, scripts
from swebash.safety.classify.checks import read_path, write_target
from swebash.safety.classify.grammar import Spec
from swebash.safety.classify.model import Findings
from swebash.safety.classify.parser import Arg, Parsed
from swebash.safety.paths import secret_reason

# --------------------------------------------------------------------------- search


def pattern_first(p: Parsed, *explicit: str) -> list[Arg]:
    """The operands after the pattern (none is the pattern when -e/-f gave it)."""
    operands = list(p.operands)
    if operands and not p.has(*explicit):
        operands.pop(0)
    return operands


def grep(f: Findings, p: Parsed, depth: int) -> None:
    recursive = p.has("-r", "-R", "--recursive", "--dereference-recursive") or \
        "recurse" in p.values("-d", "--directories")
    paths = pattern_first(p, "-e", "--regexp", "-f", "--file")
    for arg in paths:
        roles.check(f, p.name, "t" if recursive else "r", arg.text, arg.dynamic, depth)
    if recursive and not paths:
        roles.tree(f, p.name, ".", hidden=True)


def rg(f: Findings, p: Parsed, depth: int) -> None:
    """ripgrep, ag and ack always search trees; dot-files only with --hidden or -uu."""
    if p.name.startswith("ack") and not p.has("--noenv"):
        f.ask(f"{p.name}: reads .ackrc files, which can set a pager to run")
    unrestricted = sum(1 for u in p.options if u.opt.name in ("-u", "--unrestricted"))
    hidden = unrestricted >= (1 if p.name == "ag" else 2) or p.has(
        "--hidden", "-.", "--no-ignore-hidden")
    listing = p.has("--files", "--type-list", "-g" if p.name == "ag" else "--files")
    paths = list(p.operands) if listing else pattern_first(
        p, "-e", "--regexp", "-f", "--file")
    for arg in paths:
        if arg.dynamic:
            roles.check(f, p.name, "t", arg.text, True, depth)
            continue
        read_path(f, arg.text)
        roles.tree(f, p.name, arg.text, hidden=hidden)
    if not paths:
        roles.tree(f, p.name, ".", hidden=hidden)


FOUND = "./found-file"
SECRET_SAMPLES = (".env", ".env.local", "id_rsa", "id_ed25519", "server.key", "key.pem",
                  ".npmrc", ".netrc", "credentials", "terraform.tfstate", ".bash_history",
                  ".envrc", ".pgpass", "secrets.yaml", ".vault-token", ".git-credentials")


def find(f: Findings, p: Parsed, depth: int) -> None:
    """Each -exec/-execdir/-ok command is judged with ``{}`` standing for a found file: a
    harmless name when find's tests rule out secrets, else a path known only at run time."""
    carriers = [u for u in p.options if u.opt.role == "x"]
    if carriers:
        starts = [a for a in p.operands if a.index < p.ranges[0][0]][:1]
        wide(f, "find", [a.text for a in starts] or ["."])
    for used, (start, end) in zip(carriers, p.ranges, strict=False):
        if end >= len(p.argv):
            f.ask(f"find: {used.spelled} without an end")
        tests = p.argv[1:start - 1]
        harmless = harmless_matches(f, tests, p.dynamic[1:start - 1])
        inner = [FOUND if w == "{}" and harmless else w for w in p.argv[start:end]]
        inner_dyn = [d or "{}" in w for w, d in zip(inner, p.dynamic[start:end], strict=True)]
        if not inner:
            f.ask(f"find: {used.spelled} without a command")
        else:
            f.judge(f, inner, inner_dyn, depth)


def wide(f: Findings, name: str, roots: list[str]) -> None:
    """A command run on every file under a root that holds your home is dangerous."""
    for root in roots:
        if any(roles.tree_scope(f, root, cwd) != "open" for cwd in f.cwds or [f.cwd]):
            f.ask(f"{name}: runs a command on files across your home directory", True)
            return


def fd(f: Findings, p: Parsed, depth: int) -> None:
    if p.ranges:
        roots = [a.text for a in p.operands[1:]] + p.values("--search-path",
                                                            "--base-directory")
        wide(f, p.name, roots or ["."])


def harmless_matches(f: Findings, tests: list[str], dyn: list[bool]) -> bool:
    """``find DIRS -name PATTERN -exec cat {} ;``: the files ``{}`` stands for cannot be
    secrets when the start points are inside the project and every name pattern (ANDed, no
    ``-o``) excludes secret names."""
    if any(dyn) or any(t in ("-o", "-or", "!", "-not", "-L", "-follow") for t in tests):
        return False
    patterns = [tests[k + 1] for k, t in enumerate(tests[:-1]) if t in ("-name", "-iname")]
    starts = [t for t in tests if not t.startswith(("-", "(", "!", ")"))][:1]
    if not patterns or any(s.startswith(("/", "~")) or ".." in s for s in starts):
        return False
    for pattern in patterns:
        sample = re.sub(r"\[.*?\]|[*?]", "x", pattern)
        if secret_reason("/p/" + sample, f.home) or any(
                fnmatch.fnmatch(secret, pattern) for secret in SECRET_SAMPLES):
            return False
    return True


LISTERS = frozenset({"find", "gfind", "fd", "fdfind", "ls", "locate", "plocate", "tree",
                     "grep", "rg", "ag", "git", "cat", "printf", "echo"})


def feed_kind(f: Findings, argv: list[str]) -> str:
    """What a pipeline stage feeding ``xargs`` lists: "harmless" names, names of "secret"
    files (under a secret directory or the home), or "unknown"."""
    if harmless_lister(f, argv):
        return "harmless"
    if argv and os.path.basename(argv[0]) in LISTERS:
        for word in argv[1:]:
            if word.startswith("-"):
                continue
            for cwd in f.cwds or [f.cwd]:
                path = word.rstrip("/*") or "/"
                if secret_reason(os.path.join(cwd, os.path.expanduser(path)), f.home) or \
                        roles.tree_scope(f, path, cwd) == "home":
                    return "secret"
    return "unknown"


def harmless_lister(f: Findings, argv: list[str]) -> bool:
    """A pipeline stage whose output lines are file names that cannot be secrets:
    ``find . -name '*.py'``, ``fd -e py``, ``git ls-files '*.py'`` (each pattern excludes
    secret names, nothing outside the project)."""
    if not argv:
        return False
    name = os.path.basename(argv[0])
    words = argv[1:]
    if name in ("find", "gfind") and not {"-exec", "-execdir", "-ok", "-okdir", "-delete",
                                          "-fprint", "-fprintf", "-fls"} & set(words):
        return harmless_matches(f, words, [False] * len(words))
    if name in ("fd", "fdfind"):
        extensions = [words[k + 1] for k, w in enumerate(words[:-1])
                      if w in ("-e", "--extension")]
        rest = [w for k, w in enumerate(words) if not w.startswith("-") and
                (k == 0 or words[k - 1] not in ("-e", "--extension", "-t", "--type"))]
        return bool(extensions) and not any(w.startswith(("/", "~")) or ".." in w
                                            for w in rest[1:]) and all(
            harmless_matches(f, [".", "-name", f"*.{e}"], [False] * 3) for e in extensions)
    if name == "git" and words[:1] == ["ls-files"]:
        patterns = [w for w in words[1:] if not w.startswith("-")]
        return bool(patterns) and all(
            harmless_matches(f, [".", "-name", p.lstrip("./")], [False] * 3)
            for p in patterns)
    return False


# --------------------------------------------------------------------------- filters

JQ_LOADS = re.compile(r"\b(load(_str|_xml|_props|_base64|_file)?|include|import)\b")
JQ_LOAD_PATH = re.compile(r"\bload\w*\s*\(\s*\"([^\"]+)\"")
JQ_ENV = re.compile(r"\$ENV\b|\benv\b|\bstrenv\b|\$__prog_args")


def jq(f: Findings, p: Parsed, depth: int) -> None:
    """jq and yq: the filter is the first operand (unless -f gave one); it may load files
    (``load("x")``, ``include``) or read the environment; the other operands are files."""
    operands = list(p.operands)
    if p.name == "yq" and operands and operands[0].text in ("eval", "e", "eval-all", "ea"):
        operands.pop(0)
    filters = p.values("--expression")
    if not p.has("-f", "--from-file") and operands and not filters:
        first = operands.pop(0)
        if first.dynamic:
            f.ask(f"{p.name}: runs a filter built at run time")
        filters = [first.text]
    for text in filters:
        for path in JQ_LOAD_PATH.findall(text):
            read_path(f, path)
        if JQ_LOADS.search(text):
            f.ask(f"{p.name}: the filter loads other files")
        if JQ_ENV.search(text):
            whole = re.search(r"(\$ENV|\benv)(?!\s*\.\s*\w)", text)
            secret = any(envflow.is_secret(n, f) for n in re.findall(
                r"(?:\$ENV|\benv)\s*\.\s*(\w+)", text))
            f.ask(f"{p.name}: the filter reads " + ("secret environment variables, which it "
                  "can reshape" if whole or secret else "environment variables"),
                  bool(whole or secret))
    positional = p.has("--args", "--jsonargs")
    for arg in operands:
        if not positional:
            roles.check(f, p.name, "r", arg.text, arg.dynamic, depth)


MLR_RUNS = re.compile(r"\b(system|exec|os_type|hostname)\s*\(|--prepipe|--prepipex")
MLR_WRITES = re.compile(r"\b(tee|emit[p1f]?|print[n]?|eprint[n]?|dump|edump)\s*>|"
                        r"^(tee|split|case|nothing)$|^-I$|^--from-file|^--ofmt-file|"
                        r"^-[fs]$|^--(load|mload)$")


def mlr(f: Findings, p: Parsed, depth: int) -> None:
    """Miller: its DSL can run commands (``system``, ``exec``) and redirect output; the
    main options can pre-pipe input through a command. Any other word that names a file is
    read through the path guard."""
    for arg in p.operands:
        if arg.dynamic:
            f.ask("mlr: an argument known only at run time")
            continue
        if MLR_RUNS.search(arg.text):
            f.ask("mlr: runs a command", True)
        elif MLR_WRITES.search(arg.text):
            f.ask("mlr: writes files or rewrites them in place")
        elif not arg.text.startswith("-") and " " not in arg.text and "$" not in arg.text:
            read_path(f, arg.text)


PAGER_COMMAND = re.compile(r"^\+(G|F|g|\d+[gG%]?|[/?][^!|\x00-\x1f]*)$")


def pager(f: Findings, p: Parsed, depth: int) -> None:
    """less/more ``+cmd`` runs a pager command at start: only moves and searches pass."""
    for arg in p.operands:
        if arg.text.startswith("+") and (arg.dynamic or not PAGER_COMMAND.match(arg.text)):
            f.ask(f"{p.name}: runs a pager command at start (+…)", True)


def tee(f: Findings, p: Parsed, depth: int) -> None:
    append = p.has("-a", "--append")
    targets = [a for a in p.operands if a.text not in roles.STD_STREAMS or a.dynamic]
    if targets:
        f.ask("tee: writes files")
    for arg in targets:
        if arg.dynamic:
            f.ask("tee: writes a file named only at run time", True)
        else:
            write_target(f, arg.text, "tee", overwrite_is_dangerous=not append)


# --------------------------------------------------------------------------- archives


def compress(f: Findings, p: Parsed, depth: int) -> None:
    """Listing, testing, writing to stdout or filtering stdin only reads; keeping the
    original writes a new file; anything else replaces files (overwriting the output when
    it exists, deleting the input)."""
    if p.has("-c", "--stdout", "--to-stdout", "-l", "--list", "-t", "--test") or \
            all(a.text == "-" for a in p.operands):
        return
    if p.has("-k", "--keep") and not p.has("-f", "--force"):
        f.ask(f"{p.name}: writes the (de)compressed file next to the original")
        return
    f.ask(f"{p.name}: replaces files with their (de)compressed form (it may overwrite one)",
          True)


TAR_MODES = {"-c": "create", "--create": "create", "-x": "extract", "--extract": "extract",
             "--get": "extract", "-t": "list", "--list": "list", "-d": "list", "--diff": "list",
             "--compare": "list", "-r": "create", "--append": "create", "-u": "create",
             "--update": "create", "-A": "create", "--catenate": "create",
             "--concatenate": "create", "--delete": "create", "--test-label": "list"}


def tar(f: Findings, p: Parsed, depth: int) -> None:
    modes = {TAR_MODES[u.opt.name] for u in p.options if u.opt.name in TAR_MODES}
    archives = p.values("-f", "--file")
    for archive in archives:
        if ":" in archive.split("/", 1)[0] and not p.has("--force-local"):
            f.ask("tar: a host:file archive is reached through a remote shell", True)
    if modes == {"list"}:
        for archive in archives:
            read_path(f, archive)
        return
    if modes == {"extract"}:
        for archive in archives:
            read_path(f, archive)
        if p.has("-O", "--to-stdout"):
            return
        f.ask("tar: extracts files (they may overwrite existing ones)", True)
        if p.has("-P", "--absolute-names"):
            f.ask("tar: writes to the absolute paths the archive names", True)
        for target in p.values("-C", "--directory") or ["."]:
            write_target(f, target, "tar", overwrite_is_dangerous=False)
        return
    if modes == {"create"}:
        f.ask("tar: creates or changes an archive")
        for archive in archives:
            if archive != "-":
                write_target(f, archive, "tar")
        for arg in p.operands:
            roles.check(f, "tar", "t", arg.text, arg.dynamic, depth)
        return
    f.ask("tar: no single mode (list, extract or create)")


def tar_prep(spec: Spec, argv: list[str], dynamic: list[bool]
             ) -> tuple[list[str], list[bool]]:
    """``tar tvf a.tar``: an old-style first word bundles options, each value-taking letter
    taking the next word in turn: rewritten as ``tar -t -v -f a.tar``."""
    if len(argv) < 2 or argv[1].startswith("-") or dynamic[1]:
        return argv, dynamic
    words, dyn = [argv[0]], [dynamic[0]]
    rest, rest_dyn = argv[2:], dynamic[2:]
    for letter in argv[1]:
        words.append("-" + letter)
        dyn.append(False)
        opt = spec.shorts.get(letter)
        if opt is not None and opt.takes == 1 and rest:
            words.append(rest.pop(0))
            dyn.append(rest_dyn.pop(0))
    return words + rest, dyn + rest_dyn


def unzip(f: Findings, p: Parsed, depth: int) -> None:
    if p.name == "unzip" and not p.has("-l", "-v", "-t", "-z", "-Z", "-Z1", "-p", "-c"):
        f.ask("unzip: extracts files" + ("" if p.has("-n") else
                                         " (they may overwrite existing ones)"),
              not p.has("-n"))
        for target in p.values("-d") or ["."]:
            write_target(f, target, "unzip", overwrite_is_dangerous=False)


def zip_(f: Findings, p: Parsed, depth: int) -> None:
    recursive = p.has("-r", "-R", "--recurse-paths")
    for arg in p.operands[1:]:
        roles.check(f, p.name, "t" if recursive else "r", arg.text, arg.dynamic, depth)


def archive_reads(f: Findings, p: Parsed, depth: int) -> None:
    for arg in p.operands[1:]:
        roles.check(f, p.name, "t", arg.text, arg.dynamic, depth)


def cpio(f: Findings, p: Parsed, depth: int) -> None:
    for archive in p.values("-F", "-I", "-O", "--file"):
        if ":" in archive.split("/", 1)[0] and not p.has("--force-local"):
            f.ask("cpio: a host:file archive is reached through a remote shell", True)
        elif not p.has("-o", "--create"):
            read_path(f, archive)
    if p.has("-t", "--list"):
        pass
    elif p.has("-i", "--extract", "-p", "--pass-through"):
        f.ask("cpio: extracts or copies files (they may overwrite existing ones)", True)
    elif not p.has("-t", "--list"):
        f.ask("cpio: not listing an archive (-t)")


def ar(f: Findings, p: Parsed, depth: int) -> None:
    """``ar t lib.a``: the first word is the operation (``t`` and ``p`` only read)."""
    operands = list(p.operands)
    letters = {u.opt.name[1] for u in p.options if u.opt.name in ("-t", "-p", "-x")}
    if operands and not p.argv[1].startswith("-") and not operands[0].dynamic:
        letters |= set(operands.pop(0).text)
    if "x" in letters:
        f.ask(f"{p.name}: extracts files (they may overwrite existing ones)", True)
    elif not letters & set("tp") or letters & set("rqdmsb"):
        f.ask(f"{p.name}: changes an archive")
    for arg in operands[:1]:
        roles.check(f, p.name, "r", arg.text, arg.dynamic, depth)


def pdf(f: Findings, p: Parsed, depth: int) -> None:
    if p.name in ("pdfimages", "pdftohtml"):
        f.ask(f"{p.name}: writes files")
    for arg in p.operands[1:]:
        if arg.text != "-":
            roles.check(f, p.name, "w", arg.text, arg.dynamic, depth)


def exiftool(f: Findings, p: Parsed, depth: int) -> None:
    """exiftool's advanced formatting ``${TAG;EXPR}`` evaluates Perl."""
    if any("${" in w and ";" in w for w in p.argv[1:]):
        f.ask("exiftool: a format evaluates Perl code", True)


HOOKS: dict[str, Callable[[Findings, Parsed, int], None]] = {
    "exiftool": exiftool,
    "grep": grep, "rg": rg, "find": find, "fd": fd, "jq": jq, "mlr": mlr, "pager": pager,
    "tee": tee,    "compress": compress, "tar": tar, "unzip": unzip, "zip": zip_,
    "archive_reads": archive_reads, "cpio": cpio, "ar": ar, "pdf": pdf,
    "sed": scripts.sed, "awk": scripts.awk,
}
