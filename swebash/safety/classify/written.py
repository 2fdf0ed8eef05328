"""Running what the same command line wrote or downloaded.

Design note. The problem: each part of ``curl -o x.sh https://… && bash x.sh`` is only a
question on its own — a download to a file, a script run — so ``--yes`` runs both, and with
them code nobody has seen. The same holds for ``echo … > f; . f``, ``tar xf a.tar &&
./configure``, ``git clone URL d && make -C d`` and for a build file written and then handed
to the tool that runs what it says (``package.json`` then ``npm install``, ``Makefile`` then
``make``, ``conftest.py`` then ``pytest``). What does not work: matching the line's text (the
file can be named anything, written by any of a dozen programs). The approach: every write
this line makes is left as a fact in ``Findings.notes`` — files written (redirects, ``tee``,
``cp``, ``curl -o``, ``wget``, ``dd of=``) and directories filled with unseen content
(``tar x``, ``unzip``, ``git clone``) — and every later command that runs a file (as its
program, as the script of a shell or interpreter, ``source``) or a tool whose build file it
is, is dangerous when what it runs is among those facts.
"""

from __future__ import annotations

import os
import posixpath
import re

from swebash.safety.classify.model import Findings, base, positional
from swebash.safety.classify.tables import INTERPRETERS, SHELLS
from swebash.safety.paths import expand, within

WRITTEN = "written"  # Findings.notes: absolute paths of files this line writes
UNPACKED = "unpacked"  # Findings.notes: directories it fills with content nobody has seen
REASON = "runs what it just downloaded/wrote"

# options of shells and interpreters whose next word is a value, not the script
VALUE_OPTIONS = frozenset({"-o", "-O", "+O", "-W", "-X", "-I", "-M", "-r", "--require",
                           "--rcfile", "--init-file", "-x"})
INLINE_CODE = frozenset({"-c", "-e", "-E", "--eval", "-p", "--print"})
# tools that run what a build or manifest file in their directory says: the file names, and
# the verbs that run it (None: any use)
PACKAGE_VERBS = frozenset({"i", "install", "ci", "add", "run", "run-script", "test", "t", "tst",
                           "start", "restart", "stop", "exec", "x", "rebuild", "pack",
                           "publish", "dlx", "build", "dev"})
CARGO_VERBS = frozenset({"build", "b", "run", "r", "test", "t", "check", "c", "bench", "install",
                         "doc", "clippy", "fix", "publish", "package"})
PYTHON_FILES = ("setup.py", "pyproject.toml", "setup.cfg")
MANIFESTS: dict[str, tuple[tuple[str, ...], frozenset[str] | None]] = {
    "npm": (("package.json", ".npmrc"), PACKAGE_VERBS),
    "pnpm": (("package.json", ".npmrc"), PACKAGE_VERBS),
    "yarn": (("package.json", ".npmrc", ".yarnrc", ".yarnrc.yml"), PACKAGE_VERBS),
    "bun": (("package.json", "bunfig.toml"), PACKAGE_VERBS),
    "make": (("Makefile", "makefile", "GNUmakefile"), None),
    "gmake": (("Makefile", "makefile", "GNUmakefile"), None),
    "cargo": (("Cargo.toml", "build.rs", ".cargo/config.toml"), CARGO_VERBS),
    "cmake": (("CMakeLists.txt",), None),
    "rake": (("Rakefile",), None),
    "just": (("justfile", "Justfile", ".justfile"), None),
    "gradle": (("build.gradle", "build.gradle.kts", "settings.gradle"), None),
    "mvn": (("pom.xml",), None),
    "tox": (("tox.ini",), None),
    "nox": (("noxfile.py",), None),
    "pytest": (("conftest.py", "pytest.ini"), None),
    "bundle": (("Gemfile",), None),
    "composer": (("composer.json",), None),
    "poetry": (("pyproject.toml",), None),
    "uv": (("pyproject.toml",), frozenset({"run", "sync", "build", "pip", "tool"})),
    "direnv": ((".envrc",), None),
    "git": ((".git/config", ".gitattributes", ".gitmodules"), None),
}
INFO = frozenset({"--version", "-V", "--help", "-h", "help", "version"})
# besides shells and the interpreters table: programs whose first operand is a script to run
SCRIPT_RUNNERS = frozenset({"source", ".", "perl", "node", "php", "expect"})
TEST_FILE = re.compile(r"(^|/)(test_[^/]*\.py|[^/]*_test\.py|conftest\.py)$")
ARCHIVES = frozenset({"tar", "bsdtar", "gtar", "unzip", "7z", "7za", "unrar", "cpio"})
CURL_VALUES = set("HdXuAebcTFwxmrKECYyzPQtU")


def note_write(f: Findings, path: str) -> None:
    """A file the line writes (a redirect's target, a download)."""
    if path and path not in ("-", "/dev/null", "/dev/stdout", "/dev/stderr"):
        f.notes.setdefault(WRITTEN, set()).add(expand(path, here(f), f.home))


def note_unpacked(f: Findings, directory: str) -> None:
    f.notes.setdefault(UNPACKED, set()).add(expand(directory or ".", here(f), f.home))


def here(f: Findings) -> str:
    return f.cwds[-1] if f.cwds else f.cwd


def line_command(f: Findings, argv: list[str]) -> None:
    """One judged command of the line (wrappers peeled): does it run what the line wrote?
    Then: what does it write for the commands after it?"""
    if not argv:
        return
    if f.notes.get(WRITTEN) or f.notes.get(UNPACKED):
        ran = runs_written(f, argv)
        if ran:
            f.ask(f"{REASON} ({ran[:40]})", True)
    writes(f, argv)


def produced(f: Findings, path: str) -> bool:
    """``path`` is a file this line wrote or lies in a directory it unpacked."""
    full = expand(path, here(f), f.home)
    written = f.notes.get(WRITTEN, set())
    if full in written or any(within(full, d) for d in f.notes.get(UNPACKED, ())):
        return True
    # after a `cd` to somewhere unknown, a relative name may be any of them
    return f.cwds is None and not os.path.isabs(path) and any(
        w.endswith("/" + path.lstrip("./")) for w in written)


def runs_written(f: Findings, argv: list[str]) -> str | None:
    name = base(argv[0])
    args = argv[1:]
    if "/" in argv[0] and produced(f, argv[0]):
        return argv[0]
    if name in ("python", "python3") and args[:2] == ["-m", "pip"]:
        name, args = "pip", args[2:]
    if name in ("python", "python3") and args[:1] == ["-m"] and len(args) > 1 and \
            args[1] in MANIFESTS:
        name, args = args[1], args[2:]
    if name in SHELLS or name in INTERPRETERS or name in SCRIPT_RUNNERS:
        script = script_of(name, args)
        if script is not None and produced(f, script):
            return script
    if name in ("pip", "pip3") or (name == "uv" and args[:1] == ["pip"]):
        return pip_source(f, args[1:] if name == "uv" else args)
    return manifest_run(f, name, args)


def script_of(name: str, args: list[str]) -> str | None:
    """The file a shell or interpreter runs (``python -m mod``: ``mod.py``)."""
    skip = False
    for k, arg in enumerate(args):
        if skip:
            skip = False
            continue
        if arg in INLINE_CODE or (arg.startswith("-") and not arg.startswith("--") and
                                  name in SHELLS and "c" in arg[1:]):
            return None
        if arg == "-m" and k + 1 < len(args):
            return args[k + 1].replace(".", "/") + ".py"
        if arg in VALUE_OPTIONS:
            skip = True
            continue
        if arg == "--" or not arg.startswith(("-", "+")):
            rest = args[k + 1:] if arg == "--" else args[k:]
            return rest[0] if rest else None
    return None


def pip_source(f: Findings, args: list[str]) -> str | None:
    if "install" not in args and "wheel" not in args and "download" not in args:
        return None
    values = [args[k + 1] for k, a in enumerate(args[:-1])
              if a in ("-r", "-c", "-e", "--requirement", "--constraint", "--editable")]
    for target in values + [a for a in positional(args) if a not in ("install", "wheel")]:
        if "://" in target:
            continue
        if produced(f, target) or any(produced(f, posixpath.join(target, m))
                                      for m in PYTHON_FILES):
            return target
    return None


def manifest_run(f: Findings, name: str, args: list[str]) -> str | None:
    if name == "gradlew":
        name = "gradle"
    entry = MANIFESTS.get(name)
    if entry is None or (args and args[0] in INFO):
        return None
    files, verbs = entry
    verb = next((a for a in args if not a.startswith("-")), None)
    if verbs is not None and verb not in verbs and not (name == "yarn" and verb is None):
        return None
    directory = "."
    for k, arg in enumerate(args[:-1]):
        if arg in ("-C", "--directory", "--prefix", "--cwd", "--manifest-path"):
            directory = args[k + 1]
            if arg == "--manifest-path":
                directory = posixpath.dirname(directory) or "."
        elif arg in ("-f", "--file", "--makefile") and name in ("make", "gmake") and \
                produced(f, args[k + 1]):
            return args[k + 1]
    if name == "pytest":  # it imports every test file it is given or collects
        named = next((a for a in positional(args) if produced(f, a.split("::", 1)[0])), None)
        if named:
            return named
        top = expand(directory, here(f), f.home)
        for path in sorted(f.notes.get(WRITTEN, ())):
            if TEST_FILE.search(path) and within(path, top):
                return posixpath.basename(path)
    if name == "git":  # anything under .git/ (hooks, config) runs on a later git command
        git_dir = expand(posixpath.join(directory, ".git"), here(f), f.home)
        if any(within(w, git_dir) for w in f.notes.get(WRITTEN, ())):
            return ".git/"
    for file in files:
        if produced(f, posixpath.join(directory, file)):
            return file
    return None


# --------------------------------------------------------------------------- writes


WRITERS = frozenset({"tee", "cp", "mv", "install", "ln", "rsync", "scp", "curl", "wget", "dd",
                     "git"}) | ARCHIVES


def writes(f: Findings, argv: list[str]) -> None:
    name = base(argv[0])
    args = argv[1:]
    if name == "tee":
        for arg in positional(args):
            note_write(f, arg)
    elif name in ("cp", "mv", "install", "ln", "rsync", "scp"):
        copies(f, args)
    elif name == "curl":
        curl(f, args)
    elif name == "wget":
        wget(f, args)
    elif name == "dd":
        for arg in args:
            if arg.startswith("of="):
                note_write(f, arg[3:])
    elif name in ARCHIVES:
        unpacks(f, name, args)
    elif name == "git" and "clone" in args[:3]:
        rest = positional(args[args.index("clone") + 1:])
        if rest:
            target = rest[1] if len(rest) > 1 else \
                posixpath.basename(rest[0].rstrip("/")).removesuffix(".git")
            note_unpacked(f, target)


RECURSIVE = re.compile(r"^(-[a-zA-Z]*[rRa][a-zA-Z]*|--recursive|--archive)$")


def copies(f: Findings, args: list[str]) -> None:
    target = next((args[k + 1] for k, a in enumerate(args[:-1])
                   if a in ("-t", "--target-directory")), None)
    target = target or next((a.split("=", 1)[1] for a in args
                             if a.startswith("--target-directory=")), None)
    operands = positional(args)
    if target is None and len(operands) >= 2:
        target, operands = operands[-1], operands[:-1]
    if target is None:
        return
    note_write(f, target)
    if any(RECURSIVE.match(a) for a in args):
        note_unpacked(f, target)  # a tree copied in: whatever it holds
    for source in operands:
        note_write(f, posixpath.join(target, posixpath.basename(source.rstrip("/"))))


def curl(f: Findings, args: list[str]) -> None:
    remote = False
    urls = [a for a in args if "://" in a]
    directory = "."
    k = 0
    while k < len(args):
        arg = args[k]
        if arg in ("--output", "-o") and k + 1 < len(args):
            note_write(f, posixpath.join(directory, args[k + 1]))
            k += 2
            continue
        if arg == "--output-dir" and k + 1 < len(args):
            directory = args[k + 1]
        elif arg in ("--remote-name", "--remote-name-all"):
            remote = True
        elif arg.startswith("-") and not arg.startswith("--"):
            for j, ch in enumerate(arg[1:], 1):
                if ch == "O":
                    remote = True
                elif ch == "o":
                    value = arg[j + 1:] or (args[k + 1] if k + 1 < len(args) else "")
                    note_write(f, value)
                    k += 0 if arg[j + 1:] else 1
                    break
                elif ch in CURL_VALUES:
                    k += 0 if arg[j + 1:] else 1
                    break
        k += 1
    if remote:
        for url in urls:
            note_download(f, directory, url)


def wget(f: Findings, args: list[str]) -> None:
    output = None
    directory = "."
    for k, arg in enumerate(args):
        following = args[k + 1] if k + 1 < len(args) else ""
        if arg in ("-O", "--output-document"):
            output = following
        elif arg.startswith("--output-document="):
            output = arg.split("=", 1)[1]
        elif arg.startswith("-") and not arg.startswith("--") and "O" in arg:
            output = arg.split("O", 1)[1] or following  # `-O f`, `-Of`, `-qO f`, `-qO-`
        elif arg in ("-P", "--directory-prefix"):
            directory = following
        elif arg.startswith("--directory-prefix="):
            directory = arg.split("=", 1)[1]
    if output is not None:
        note_write(f, output)
        return
    for url in (a for a in args if "://" in a):
        note_download(f, directory, url)


def note_download(f: Findings, directory: str, url: str) -> None:
    """The file a download keeps under the URL's own name (``index.html`` for none)."""
    name = posixpath.basename(url.split("://", 1)[1].split("?", 1)[0].rstrip("/"))
    note_write(f, posixpath.join(directory, name or "index.html"))


def unpacks(f: Findings, name: str, args: list[str]) -> None:
    """An archive extracted: its content is unknown, so the whole target directory is."""
    directory = "."
    extracting = name not in ("tar", "bsdtar", "gtar")
    if name in ("7z", "7za", "unrar"):
        extracting = bool(args) and args[0] in ("x", "e")
    for k, arg in enumerate(args):
        following = args[k + 1] if k + 1 < len(args) else "."
        if name in ("tar", "bsdtar", "gtar"):
            if arg in ("--extract", "--get") or (not arg.startswith("--") and "x" in arg
                                                  and (k == 0 or arg.startswith("-"))):
                extracting = True
            if arg in ("-C", "--directory"):
                directory = following
            elif arg.startswith("--directory="):
                directory = arg.split("=", 1)[1]
        elif name == "unzip" and arg == "-d":
            directory = following
        elif name in ("7z", "7za") and arg.startswith("-o"):
            directory = arg[2:] or "."
    if name == "unzip" and {"-l", "-v", "-t", "-Z", "-p", "-z"} & set(args):
        extracting = False  # lists, tests or prints to stdout
    if extracting:
        note_unpacked(f, directory)
