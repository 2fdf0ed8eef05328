"""Rules for "read-only" programs that can still execute or write: find, fd, sort, pagers,
recursive search, archivers' listing modes, and the data table of options that write or run a
program (``OPTION_RULES``). sed and awk live in ``scripts.py``."""

from __future__ import annotations

import fnmatch
import os
import re

from swebash.safety.checks import read_path
from swebash.safety.model import Findings, flags, long_option, positional
from swebash.safety.paths import expand, secret_reason, within

# program → (options, reason, dangerous). Short options match inside clusters (`-uo out`),
# long ones also abbreviated (`--compress-prog`).
OPTION_RULES: dict[str, tuple[tuple[tuple[str, ...], str, bool], ...]] = {
    "sort": ((("-o", "--output"), "writes its output to a file", False),
             (("--compress-program",), "runs a compression program", True)),
    "tree": ((("-o", "-R"), "writes its output to files", False),),
    "ag": ((("--pager",), "runs the pager it is given", True),),
    "sdiff": ((("-o", "--output"), "writes a merged file", False),),
    "shuf": ((("-o", "--output"), "writes its output to a file", False),),
    "iconv": ((("-o", "--output"), "writes its output to a file", False),),
    "man": ((("-P", "--pager", "-H", "--html", "-p", "--preprocessor", "-C", "--config-file",
              "-X", "--gxditview"), "runs a pager, browser or preprocessor it is given", True),),
    "less": ((("-o", "-O", "--log-file", "--LOG-FILE"), "writes a log file", False),
             (("-k", "--lesskey-file", "--lesskey-src"), "loads key bindings", False)),
    "bat": ((("--pager",), "runs the pager it is given", True),),
    "batcat": ((("--pager",), "runs the pager it is given", True),),
    "date": ((("-s", "--set"), "sets the clock", False),),
    "dmesg": ((("-c", "-C", "--clear", "--read-clear", "-n", "--console-level", "-D", "-E",
                "--console-off", "--console-on"), "changes or clears the kernel log", True),),
    "journalctl": ((("--rotate", "--vacuum-size", "--vacuum-time", "--vacuum-files", "--flush",
                     "--sync", "--relinquish-var", "--smart-relinquish-var", "--setup-keys",
                     "--update-catalog"), "changes or deletes the journal", True),),
    "yq": ((("-i", "--inplace"), "edits a file in place", False),),
    "file": ((("-C", "--compile"), "writes a compiled magic file", False),),
    "ss": ((("-K", "--kill"), "kills sockets", True),),
    "cloc": ((("--report-file", "--out", "--sql", "--write-lang-def", "--to"),
              "writes a report file", False),),
    "scc": ((("-o", "--output"), "writes a report file", False),),
    "rg": ((("--pre", "--hostname-bin"), "runs a command it is given", True),),
    "ps": (),
    "hostname": ((("-F", "--file", "-b", "--boot"), "sets the host name", False),),
}
# options taking a value, so a value is not mistaken for a cluster of flags
SHORT_VALUES = {"sort": "kotSTy", "tree": "oLPIH", "sdiff": "ow", "shuf": "oinr",
                "iconv": "oft", "man": "PHpCMSLmeKRTEX", "less": "oOkbhjpPxyz#",
                "rg": "efgtTmACBEMjrd", "date": "dfrsI", "yq": "oIp", "hostname": "F",
                "cloc": "", "scc": "fo", "dmesg": "nfls", "journalctl": "nupbtIFSUoDMg"}


def option_rules(f: Findings, name: str, argv: list[str], dyn: list[bool], depth: int) -> None:
    if name in ("rg", "ag"):
        recursive_search(f, name, argv, dyn, depth)
    rules = OPTION_RULES.get(name, ())
    values = SHORT_VALUES.get(name, "")
    for arg in argv[1:]:
        if arg == "--":
            break
        for options, reason, dangerous in rules:
            if hit(arg, options, values):
                f.ask(f"{name}: {reason}", dangerous)
    if name == "hostname" and positional(argv[1:]):
        f.ask("hostname: sets the host name")
    if name == "ps" and any(not a.startswith("-") and "e" in a for a in argv[1:]):
        f.ask("ps e: shows every process's environment, secrets included")


def hit(arg: str, options: tuple[str, ...], values: str) -> bool:
    if arg.startswith("--"):
        return long_option(arg, *[o for o in options if o.startswith("--")])
    if not arg.startswith("-") or arg == "-":
        return False
    short = {o[1] for o in options if len(o) == 2}
    for ch in arg[1:]:
        if ch in short:
            return True
        if ch in values:
            return False  # the rest of the cluster is this option's value
    return False


SKIP_DIRS = frozenset({".git", "node_modules", ".venv", "venv", "__pycache__", "target", "dist",
                       "build", ".tox", ".mypy_cache", ".cache"})
MAX_WALK = 3000


def recursive_search(f: Findings, name: str, argv: list[str], dyn: list[bool],
                     depth: int) -> None:
    """grep -r, and rg/ag with hidden files on, read every file under their directories:
    a tree that holds a secret file leaks it line by line."""
    opts = flags(argv[1:])
    if name in ("rg", "ag"):
        hidden = bool(opts & {"--hidden", "-.", "--unrestricted", "--no-ignore-hidden"}) or \
            any(re.fullmatch(r"-u{2,}", a) for a in argv[1:])
        if not hidden:
            return
    elif not (opts & {"-r", "-R", "--recursive", "--dereference-recursive"} or any(
            a in ("--directories=recurse",) for a in argv)):
        return
    words = positional(argv[1:])
    explicit = any(a in ("-e", "-f", "--regexp", "--file") or a.startswith(
        ("--regexp=", "--file=")) for a in argv[1:])
    dirs = words if explicit else words[1:]
    for d, word in zip(dyn[1:], argv[1:], strict=True):
        if d and word in dirs:
            f.ask(f"{name}: searches a directory known only at run time")
    for directory in [d for d in dirs if not any(
            x and y == d for x, y in zip(dyn, argv, strict=True))] or ["."]:
        root = os.path.realpath(expand(directory, f.cwd, f.home))
        if within(os.path.realpath(f.home), root) or root == "/":
            f.deny(f"{name}: searches a tree that holds your secrets ({directory})")
            return
        seen = 0
        for top, subdirs, files in os.walk(root):
            subdirs[:] = [s for s in subdirs if s not in SKIP_DIRS]
            for entry in files + subdirs:
                seen += 1
                reason = secret_reason(os.path.join(top, entry), f.home)
                if reason:
                    f.ask(f"{name}: searches a tree that holds a {reason}", True)
                    return
            if seen > MAX_WALK:
                break


def pager(f: Findings, name: str, argv: list[str], dyn: list[bool], depth: int) -> None:
    """less/more: ``+cmd`` runs a pager command at start (``+!sh`` runs a shell)."""
    option_rules(f, name, argv, dyn, depth)
    if any(a.startswith("+") and a not in ("+F", "+G") for a in argv[1:]):
        f.ask(f"{name}: runs a pager command at start (+…)", True)


XXD_VALUES = frozenset({"-l", "-s", "-c", "-g", "-o", "-n", "-len", "-seek", "-cols",
                        "-groupsize", "-offset", "-name"})


def xxd(f: Findings, name: str, argv: list[str], dyn: list[bool], depth: int) -> None:
    """xxd [options] [infile [outfile]]: a second file operand is written."""
    files, i = [], 1
    while i < len(argv):
        arg = argv[i]
        if arg in XXD_VALUES:
            i += 2
            continue
        if not arg.startswith("-") or arg == "-":
            files.append(arg)
        i += 1
    if len(files) > 1:
        f.ask(f"{name}: writes its output to a file")


COMPRESSORS = frozenset({"gzip", "gunzip", "bzip2", "bunzip2", "xz", "unxz", "zstd", "unzstd",
                         "lz4", "lzma", "7z", "7za", "brotli"})


def compressor(f: Findings, name: str, argv: list[str], dyn: list[bool], depth: int) -> None:
    """Listing, testing or writing to stdout only reads; anything else replaces files."""
    opts = flags(argv[1:])
    if name.startswith("7z"):
        if argv[1:2] not in (["l"], ["t"]):
            f.ask(f"{name}: creates or extracts an archive")
        return
    if not opts & {"-l", "--list", "-t", "--test", "-c", "--stdout", "--to-stdout"}:
        f.ask(f"{name}: replaces files with their (de)compressed form")


def writes_second_file(f: Findings, name: str, argv: list[str], dyn: list[bool],
                       depth: int) -> None:
    """uniq IN OUT, xxd IN OUT: a second file operand is an output."""
    if len(positional(argv[1:])) > 1:
        f.ask(f"{name}: writes its output to a file")


def find(f: Findings, name: str, argv: list[str], dyn: list[bool], depth: int) -> None:
    i = 1
    while i < len(argv):
        arg = argv[i]
        if arg == "-delete":
            f.ask("find: deletes files", dangerous=True)
        elif arg in ("-exec", "-execdir", "-ok", "-okdir"):
            end = i + 1
            while end < len(argv) and argv[end] not in (";", "+"):
                end += 1
            if end >= len(argv):
                f.ask(f"find: {arg} without an end")
            unknown = not harmless_matches(f, argv[1:i], dyn[1:i])
            # a found file stands in for `{}`: a harmless name when find's tests rule out
            # secrets, else a value known only at run time
            inner = [FOUND if a == "{}" and not unknown else a for a in argv[i + 1:end]]
            inner_dyn = [d or "{}" in a for a, d in zip(inner, dyn[i + 1:end], strict=True)]
            if inner:
                f.judge(f, inner, inner_dyn, depth)
            i = end
        elif arg in ("-fprint", "-fprint0", "-fprintf", "-fls"):
            f.ask(f"find: writes a file ({arg})")
        elif arg in ("-files0-from",) and i + 1 < len(argv):
            read_path(f, argv[i + 1])
        i += 1


FOUND = "./found-file"
SECRET_SAMPLES = (".env", ".env.local", "id_rsa", "id_ed25519", "server.key", "key.pem",
                  ".npmrc", ".netrc", "credentials", "terraform.tfstate", ".bash_history",
                  ".envrc", ".pgpass", "secrets.yaml", ".vault-token", ".git-credentials")


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


FD_VALUES = frozenset({"-e", "--extension", "-t", "--type", "-E", "--exclude", "-d",
                       "--max-depth", "--min-depth", "--exact-depth", "-S", "--size",
                       "--changed-within", "--changed-before", "-o", "--owner", "-j",
                       "--threads", "--max-results", "-c", "--color", "--ignore-file",
                       "--search-path", "--base-directory", "--path-separator", "--format"})


def fd(f: Findings, name: str, argv: list[str], dyn: list[bool], depth: int) -> None:
    i = 1
    while i < len(argv):
        arg = argv[i]
        if arg in ("-x", "--exec", "-X", "--exec-batch") or arg.startswith(("--exec=",)):
            end = i + 1
            while end < len(argv) and argv[end] != ";":
                end += 1
            inner = argv[i + 1:end]
            inner_dyn = [d or "{" in a for a, d in zip(inner, dyn[i + 1:end], strict=True)]
            if not inner:
                f.ask("fd: runs a command for every file")
            else:
                f.judge(f, [*inner, "{}"], [*inner_dyn, True], depth)
            i = end + 1
            continue
        if re.fullmatch(r"-[a-zA-Z]*[xX]", arg):
            f.ask("fd: runs a command for every file")
        i += 2 if arg in FD_VALUES else 1


def tar(f: Findings, name: str, argv: list[str], dyn: list[bool], depth: int) -> None:
    """Only listing (-t) and comparing (-d) are read-only; some options run programs."""
    words = argv[1:]
    letters = set()
    if words and not words[0].startswith("-"):
        letters |= set(words[0])
    opts = flags(words)
    letters |= {o[1] for o in opts if len(o) == 2}
    longs = {o for o in opts if o.startswith("--")}
    runs = [w for w in words if long_option(w, "--to-command", "--use-compress-program",
                                            "--checkpoint-action", "--info-script",
                                            "--new-volume-script", "--rmt-command",
                                            "--rsh-command", "--index-file")]
    if runs or "I" in letters or "F" in letters:
        f.ask("tar: runs a program given as an option", True)
    archive = next((words[k + 1] for k, w in enumerate(words[:-1]) if w in ("-f", "--file")
                    or (w.startswith("-") and not w.startswith("--") and w.endswith("f"))), "")
    if ":" in archive.split("/", 1)[0] and "--force-local" not in words:
        f.ask("tar: a host:file archive is reached through a remote shell", True)
    listing = ("t" in letters or "d" in letters or any(
        long_option(w, "--list", "--diff", "--compare") for w in longs))
    if not listing or letters & set("cxruA") or any(
            long_option(w, "--create", "--extract", "--get", "--append", "--update",
                        "--delete", "--concatenate", "--catenate") for w in longs):
        f.ask("tar: creates or extracts an archive")


def unzip(f: Findings, name: str, argv: list[str], dyn: list[bool], depth: int) -> None:
    opts = {o[1] for o in flags(argv[1:]) if len(o) == 2}
    if not opts & set("lvtZpc") and name != "zipinfo":
        f.ask(f"{name}: extracts files")


JQ_READS = re.compile(r"\b(load(_str|_xml|_props|_base64|_file)?|include|import|"
                      r"input_filename|\$__prog_args)\b")


def jq(f: Findings, name: str, argv: list[str], dyn: list[bool], depth: int) -> None:
    if any(JQ_READS.search(a) for a in argv[1:] if not a.startswith("-")):
        f.ask(f"{name}: the filter loads other files")
    for i, arg in enumerate(argv[:-2]):
        if arg in ("--rawfile", "--slurpfile"):
            read_path(f, argv[i + 2])
    if name == "yq":
        option_rules(f, name, argv, dyn, depth)
