"""Hooks of development tools: which Python modules only read (``-m json.tool``) and which
are other programs (``-m pip`` is judged as pip); scripts and inline code; compilers' and
build tools' read-only forms and the options that load plugins or wrapper programs; the
check modes of linters and formatters; editors given commands; package managers' verbs the
grammar leaves to a hook."""

from __future__ import annotations

import re
from collections.abc import Callable

from swebash.safety.classify import roles
from swebash.safety.classify.checks import class_path, code_files, code_from, read_path
from swebash.safety.classify.model import Findings
from swebash.safety.classify.parser import Parsed, split_words
from swebash.safety.paths import expand, within

# python -m MODULE: modules that only print something about files or the system
PY_READS = frozenset({"json.tool", "platform", "sysconfig", "this", "calendar", "tokenize",
                      "ast", "dis", "tabnanny", "pyclbr", "uuid", "quopri", "pickletools",
                      "site", "base64", "mimetypes", "locale", "encodings", "sre_constants",
                      "filecmp", "sndhdr", "imghdr", "keyword", "token", "zipfile",
                      "tarfile", "inspect", "pip"})
PY_DANGER = {"http.server": "listens for connections (serves files to the network)",
             "SimpleHTTPServer": "listens for connections (serves files to the network)",
             "smtpd": "runs a mail server", "xmlrpc.server": "runs a server",
             "timeit": "runs the code it is given", "code": "runs code from its input",
             "asyncio": "runs code from its input", "pty": "spawns a shell",
             "ftplib": "talks to a server", "smtplib": "sends mail",
             "webbrowser": "opens it in another program, outside the sandbox",
             "antigravity": "opens it in another program, outside the sandbox"}
PY_PROGRAMS = frozenset({"pip", "mypy", "black", "ruff", "isort", "flake8", "pylint",
                         "pytest", "pycodestyle", "pydocstyle", "yapf", "autopep8",
                         "pyflakes", "bandit", "vulture", "venv", "virtualenv", "pipx",
                         "poetry", "uv", "twine", "build", "tox", "nox", "coverage",
                         "unittest", "doctest", "pydoc", "ensurepip", "compileall",
                         "py_compile", "cProfile", "profile", "trace", "pdb"})


def python(f: Findings, p: Parsed, depth: int) -> None:
    """``-c`` is a dangerous option in the grammar; ``-m`` names a module: read-only ones
    pass, programs (pip, mypy…) are judged as those programs, servers are dangerous."""
    module = next(iter(p.values("-m")), None)
    if module is not None:
        index = next((k for k, w in enumerate(p.argv) if w == module), len(p.argv) - 1)
        args = p.argv[index + 1:]
        dyn = p.dynamic[index + 1:]
        if module in PY_DANGER:
            f.ask(f"python -m {module}: {PY_DANGER[module]}", True)
        elif module in PY_PROGRAMS:
            f.judge(f, [module, *args], [False, *dyn], depth)
        elif module in ("zipfile", "tarfile") and not (args[:1] in (["-l"], ["-t"]) or
                                                       args[:1] in (["--list"], ["--test"])):
            f.ask(f"python -m {module}: creates or extracts an archive")
        elif module not in PY_READS:
            f.ask(f"python -m {module[:30]}: runs a module")
        else:
            for arg, d in zip(args, dyn, strict=True):
                if not arg.startswith("-"):
                    roles.check(f, "python", "r", arg, d, depth)
        return
    if p.has("-c"):
        return
    if p.has("-i"):
        f.ask("python: starts an interactive session")
    operands = [a.text for a in p.operands]
    if operands[:1] and operands[0].endswith("setup.py") and \
            set(operands[1:]) & {"upload", "register", "upload_docs"}:
        f.ask("python setup.py upload: publishes a package to an index", True)
    script(f, p, depth)


# the options by which an interpreter without a grammar of its own is given code inline
INLINE_OPTIONS = frozenset({"-c", "-e", "--eval", "-eval", "--expr", "--execute", "-x",
                            "--command", "-exec", "--exec", "-E"})


def script(f: Findings, p: Parsed, depth: int) -> None:
    """An interpreter given a script runs it; given nothing it reads code from its input."""
    if any(u.opt.effect is not None for u in p.options):
        return  # inline code or a preload: already dangerous
    if p.spec.raw and any(w in INLINE_OPTIONS or w.startswith(("--eval=", "--expr="))
                          for w in p.argv[1:]):
        f.ask(f"{p.name}: runs inline code", True)  # `guile -c`, `irb -e`, `sbcl --eval`
        return
    operands = p.operands if not p.spec.raw else [
        a for a in p.operands if not a.text.startswith("-")]
    if not operands:
        f.ask(f"{p.name}: starts an interpreter (it runs whatever it reads)", True)
        return
    first = operands[0]
    if first.dynamic:
        f.ask(f"{p.name}: runs a script named only at run time", True)
    elif "://" in first.text:
        f.ask(f"{p.name}: runs code fetched from a URL", True)
    elif first.text in ("-", "/dev/stdin") or first.text.startswith("/dev/fd/"):
        f.ask(f"{p.name}: runs code from its input")
    elif p.has("-c", "--check", "--syntax-check", "-l") and p.name in ("node", "nodejs",
                                                                       "ruby", "php"):
        read_path(f, first.text)  # a syntax check reads the file, runs nothing
    else:
        f.ask(f"{p.name}: runs a program")
        if not p.has("-m"):
            code_from(f, p.name, first.text)


COMPILER_INFO = re.compile(r"^(--version|-v|--help|-dumpmachine|-dumpversion|"
                           r"-dumpfullversion|-dumpspecs|-print-[\w-]+(=.*)?|--print-[\w-]+"
                           r"(=.*)?|-###|-Q|--target-help|-E|-dM|-P|-x|c|c\+\+|-|-fsyntax-only"
                           r"|-std=.*|-[IDU].*|-W.*|-m[\w=-]+|-O.?|-g\w*|-f(?!plugin)[\w=-]+"
                           r"|-march=.*|-include|-isystem|-iquote|--sysroot=.*)$")
COMPILER_DANGER = re.compile(r"^(-wrapper|-fplugin|-B|-specs|-fuse-ld=[./~]|-plugin|"
                             r"--plugin|-Wl,.*plugin|-load|-Xclang|-iplugindir|-fprofile-)")


def compiler(f: Findings, p: Parsed, depth: int) -> None:
    words = p.argv[1:]
    if any(COMPILER_DANGER.match(w) for w in words):
        f.ask(f"{p.name}: loads a plugin or runs a program it is given", True)
    outputs = [words[k + 1] for k, w in enumerate(words[:-1]) if w == "-o"] + \
        [w[2:] for w in words if w.startswith("-o") and len(w) > 2]
    for output in outputs:
        roles.check(f, p.name, "w", output, False, depth)
    if any(w.startswith("@") for w in words):
        f.ask(f"{p.name}: reads options from a file")
    inputs = [a for a in p.operands if not a.text.startswith("-") and a.text not in
              ("c", "c++") and a.text not in outputs]
    for arg in inputs:
        roles.check(f, p.name, "r", arg.text, arg.dynamic, depth)
    only_info = all(COMPILER_INFO.match(w) or w in outputs for w in words) and (
        not inputs or "-E" in words or "-fsyntax-only" in words) and not outputs
    if not only_info:
        f.ask(f"{p.name}: compiles or links code")


def rustc(f: Findings, p: Parsed, depth: int) -> None:
    words = p.argv[1:]
    if any(re.match(r"^-C\s*(linker|link-arg|link-args|llvm-args)|^-Clinker|^-Clink", w)
           or (w == "-C" and k + 1 < len(words) and
               words[k + 1].startswith(("linker", "link-arg", "llvm-args")))
           for k, w in enumerate(words)):
        f.ask("rustc: runs the linker or program it is given", True)
    if not all(re.match(r"^(--version|-V|-vV|--print(=.*)?|--explain|--help|-h)$", w) or
               (k > 0 and words[k - 1] in ("--print", "--explain")) for k, w in
               enumerate(words)):
        f.ask("rustc: compiles code")


JAVA_DANGER = re.compile(r"^(-agentpath|-agentlib|-javaagent|-XX:On|-XX:\+?StartFlightRec|"
                         r"-J-javaagent|-J-agent|-Djava\.security\.manager=|-J-XX:On)")


def java(f: Findings, p: Parsed, depth: int) -> None:
    words = p.argv[1:]
    if any(JAVA_DANGER.match(w) for w in words):
        f.ask(f"{p.name}: loads an agent or runs a command on an event", True)
    for k, word in enumerate(words):  # the code it runs: a jar, a class path, a source file
        dyn = p.dynamic[k + 2] if k + 2 < len(p.dynamic) else False
        if word in ("-jar", "-cp", "-classpath", "--class-path", "-p", "--module-path") \
                and k + 1 < len(words):
            class_path(f, p.name, words[k + 1], dyn)
        elif word.startswith(("--class-path=", "--module-path=")):
            class_path(f, p.name, word.split("=", 1)[1], p.dynamic[k + 1])
        elif not word.startswith("-") and word.endswith(".java"):
            code_from(f, p.name, word, p.dynamic[k + 1])
    if not all(w in ("-version", "--version", "-showversion", "--show-version", "-help",
                     "--help", "-h", "-X", "--help-extra", "-fullversion",
                     "--full-version", "--list-modules") or w.startswith("-XshowSettings")
               for w in words):
        f.ask(f"{p.name}: " + ("compiles code (annotation processors run)"
                               if p.name == "javac" else "runs a program"))


def tsc(f: Findings, p: Parsed, depth: int) -> None:
    words = set(p.argv[1:])
    info = words <= {"--version", "-v", "--help", "-h", "--all", "--showConfig"}
    checks = "--noEmit" in words and not words & {"-w", "--watch", "-b", "--build",
                                                   "--generateTrace", "--outDir",
                                                   "--outFile", "--declarationDir"}
    if not (info or checks):
        f.ask("tsc: compiles and writes output")
    for k, word in enumerate(p.argv[1:-1], 1):  # where the output goes: outside, dangerous
        if word in ("--outFile", "--outDir", "--out", "--declarationDir", "--tsBuildInfoFile"):
            roles.check(f, "tsc", "a", p.argv[k + 1], p.dynamic[k + 1], depth, quiet=True)


def dotnet(f: Findings, p: Parsed, depth: int) -> None:
    words = p.argv[1:]
    if words not in (["--info"], ["--version"], ["--list-sdks"], ["--list-runtimes"],
                     ["-h"], ["--help"]):
        f.ask(f"dotnet: {'builds or runs the project' if words else 'runs .NET'}")
    if (words[:2] in (["tool", "install"], ["tool", "update"]) and (
            "-g" in words or "--global" in words or "--tool-path" in words)) or \
            words[:2] in (["workload", "install"], ["workload", "update"],
                          ["new", "install"], ["nuget", "push"]):
        f.ask(f"dotnet {' '.join(words[:2])}: installs for your whole account or "
              "publishes", True)


def make(f: Findings, p: Parsed, depth: int) -> None:
    words = p.argv[1:]
    if words and all(w in ("-v", "--version", "-h", "--help") for w in words):
        return
    for k, word in enumerate(words):
        if word.startswith(("-E", "--eval")):
            f.ask(f"{p.name}: evaluates makefile code it is given", True)
        elif word in ("-f", "--file", "--makefile") and k + 1 < len(words) and \
                words[k + 1] in ("-", "/dev/stdin"):
            f.ask(f"{p.name}: runs a makefile read from its input", True)
        elif word in ("-f", "--file", "--makefile", "-C", "--directory") and \
                k + 1 < len(words):  # a makefile, or the directory whose makefile runs
            code_from(f, p.name, words[k + 1], p.dynamic[k + 2])
        elif word.startswith(("--file=", "--makefile=")) or \
                (word.startswith("-f") and len(word) > 2 and not word.startswith("--")):
            code_from(f, p.name, word.split("=", 1)[-1] if "=" in word else word[2:],
                      p.dynamic[k + 1])
        elif re.match(r"^(SHELL|MAKESHELL|\.SHELLFLAGS|MAKEFLAGS|MAKEFILES)=", word):
            f.ask(f"{p.name}: sets {word.split('=', 1)[0]}, which changes what runs", True)
    f.ask(f"{p.name}: runs the Makefile's commands")


CMAKE_E_READ = frozenset({"capabilities", "echo", "echo_append", "environment", "sha1sum",
                          "sha224sum", "sha256sum", "sha384sum", "sha512sum", "md5sum",
                          "compare_files", "cat", "true", "false"})


def cmake(f: Findings, p: Parsed, depth: int) -> None:
    words = p.argv[1:]
    if not words or all(w.startswith(("--version", "--help", "-h", "--list-presets",
                                      "--system-information")) for w in words):
        return
    if words[0] == "-E" and len(words) > 1:
        command = words[1]
        if command in CMAKE_E_READ:
            if command in ("cat", "sha256sum", "md5sum", "sha1sum", "sha512sum",
                           "compare_files"):
                for path in words[2:]:
                    read_path(f, path)
            return
        if command in ("rm", "remove", "remove_directory"):
            f.ask(f"cmake -E {command}: deletes files", True)
        elif command in ("env", "chdir", "time"):
            rest = words[2:]
            while rest and command == "env" and ("=" in rest[0] or rest[0].startswith("-")):
                rest = rest[1:]
            if command == "chdir" and rest:
                rest = rest[1:]
            if rest:
                f.judge(f, rest, [False] * len(rest), depth)
            return
        f.ask(f"cmake -E {command[:20]}: changes files")
        return
    if "-P" in words:
        f.ask("cmake -P: runs a CMake script (it can run commands)")
        at = words.index("-P")
        if at + 1 < len(words):
            code_from(f, "cmake -P", words[at + 1], p.dynamic[at + 2])
    else:
        f.ask("cmake: configures or builds the project (its CMake code runs)")


def ninja(f: Findings, p: Parsed, depth: int) -> None:
    words = p.argv[1:]
    tools = [words[k + 1] for k, w in enumerate(words[:-1]) if w == "-t"]
    if any(t in ("clean", "cleandead") for t in tools):
        f.ask("ninja: deletes build outputs", True)
        return
    reads = ("targets", "commands", "query", "graph", "deps", "rules", "inputs", "compdb",
             "list", "missingdeps", "multi-inputs")
    if (tools and all(t in reads for t in tools)) or "-n" in words:
        return
    f.ask("ninja: builds the project (its commands run)")


# Even the listing forms of these load the project's code (a justfile's backticks, a
# Taskfile's `sh:` variables, tox's provisioning, mise's env scripts): only what reads no
# project file passes.
BUILD_LISTS = {"pre-commit": ("--version",)}
# Toolchain managers: installing or choosing a version for the whole account.
BUILD_GLOBAL = {"mise": ("install", "i", "use", "u", "global", "plugins", "plugin",
                         "self-update", "upgrade", "up", "implode", "link", "settings"),
                "asdf": ("install", "global", "plugin", "plugin-add", "plugin-update",
                         "update", "reshim", "set")}


# build tasks that send what was built to an index or a server: `mvn deploy`, `gradle
# publish`, `hatch publish`, `sbt publishSigned`, `lerna publish`, `:app:uploadArchives`
PUBLISH_TASK = re.compile(r"^(\S*:)?(publish\w*|upload\w*|deploy|release:perform|"
                          r"nexus-staging:\w+|hex\.publish)$")
LOCAL_TASK = re.compile(r"(?i)(MavenLocal|publishLocal|publishM2)$")


def build(f: Findings, p: Parsed, depth: int) -> None:
    words = p.argv[1:]
    name = p.name.lstrip("./")
    listing = BUILD_LISTS.get(name)
    if listing and words and words[0] in listing:
        return
    if any(w.startswith(("exec:", "-Dexec.")) or w in ("-I", "--init-script", "-e")
           for w in words):
        f.ask(f"{name}: runs a program or script it is given", True)
    verb = next((w for w in words if not w.startswith("-")), "")
    published = [w for w in words if PUBLISH_TASK.match(w) and not LOCAL_TASK.search(w)]
    if published:
        f.ask(f"{name}: publishes a package ({published[0][:24]})", True)
    if verb in BUILD_GLOBAL.get(name, ()) and not (verb in ("use", "u") and not (
            {"-g", "--global"} & set(words))):
        f.ask(f"{name} {verb}: installs or switches toolchains for your whole account",
              True)
    f.ask(f"{name}: builds or runs the project's code")


EDITOR_RUNS = re.compile(r"(!|\bsystem\b|\bshell\b|\bcall\b|\bpy(thon)?3?\b|\blua\b|"
                         r"\bperl\b|\bruby\b|\btcl\b|\bterm(inal)?\b|\bread\s*!|\bw\s*!|"
                         r"shell-command|call-process|start-process)")


def editor(f: Findings, p: Parsed, depth: int) -> None:
    words = p.argv[1:]
    if words[:1] in (["tunnel"], ["serve-web"], ["remote-tunnel"]):
        f.ask(f"{p.name}: opens a tunnel through which another machine runs commands here",
              True)
    runs = [w for k, w in enumerate(words) if w.startswith("+") or (k and words[k - 1] in (
        "-c", "--cmd", "--eval", "--exec", "-e", "-ex"))]
    loads = [words[k + 1] for k, w in enumerate(words[:-1]) if w in (
        "-S", "-u", "--init-file", "-l", "--load", "-x", "--script", "-s", "--speller",
        "--rcfile", "-f", "--funcall", "-batch", "--batch", "-U", "-i")] + [
        w for w in words if w.startswith(("--speller=", "--rcfile=", "--load=", "--eval=",
                                          "--init-file="))]
    if any(w.startswith(("--install-extension", "--uninstall-extension",
                         "--extensions-dir", "--extensionDevelopmentPath")) for w in words):
        f.ask(f"{p.name}: installs or loads editor extensions (their code runs)", True)
    if any(EDITOR_RUNS.search(w) for w in runs) or [
            w for w in loads if w not in ("NONE", "NORC", "NOPLUGIN")] or \
            any(w.startswith(("--eval", "--batch", "-batch")) for w in words) or \
            (p.name in ("vim", "vi", "nvim", "ex", "view") and any(
                re.fullmatch(r"-[a-zA-Z]*[sE][a-zA-Z]*", w) for w in words)):
        f.ask(f"{p.name}: runs commands or loads scripts from its arguments", True)
    f.ask(f"{p.name}: opens an editor")
    for k, word in enumerate(words):  # a file opened is written when saved
        if not word.startswith(("-", "+")) and (k == 0 or not words[k - 1].startswith("-")) \
                and word.startswith(("/", "~", "..")):
            roles.check(f, p.name, "a", word, p.dynamic[k + 1], depth, quiet=True)


FIXES = frozenset({"-w", "--write", "-i", "--in-place", "--fix", "--unsafe-fixes",
                   "--add-noqa", "--watch", "-a", "--aggressive", "-o", "--output-file",
                   "--output", "--tee", "--write-changes", "--fix-only", "--overwrite",
                   "--apply", "-W"})
CHECKS = frozenset({"--check", "--diff", "-l", "-d", "--dry-run", "-n", "--list",
                    "--check-only", "--list-different", "-c", "--verify"})
CODE_CONFIG = frozenset({"mypy", "pylint", "eslint", "prettier"})


# a checker's option that names a program it runs (`actionlint -shellcheck=PATH`,
# `-pyflakes=PATH`, `--*-executable`, `--*-command`) or plugins it loads
LINTER_RUNS = re.compile(r"^--?(shellcheck|pyflakes|[\w-]*(executable|binary|command|cmd|"
                         r"exec|program|plugins?|hook))$")


def linter(f: Findings, p: Parsed, depth: int) -> None:
    words = {w.split("=", 1)[0] for w in p.argv[1:]}
    runs = sorted(w for w in words if LINTER_RUNS.match(w))
    if runs:
        f.ask(f"{p.name}: runs or loads the program its option names ({runs[0][:24]})", True)
    if words & FIXES or words & {"--report-path", "--report", "--sarif-file"}:
        f.ask(f"{p.name}: may rewrite files")
    report_files(f, p, depth)
    for arg in p.operands:
        if not arg.text.startswith("-") and not arg.dynamic:
            read_path(f, arg.text)


# options that name a report or cache a checker writes (`mypy --junit-xml F`, `--html-report D`)
REPORT_OPTION = re.compile(r"^(--([\w-]+-report|junit-xml|cache-dir|output-file|output|"
                           r"outfile|log-file|report-path|report|report-file|sarif-file|out)|"
                           r"-o)$")


def report_files(f: Findings, p: Parsed, depth: int) -> None:
    words = p.argv[1:]
    for k, word in enumerate(words):
        name, equals, value = word.partition("=")
        if not equals:
            value = words[k + 1] if k + 1 < len(words) else ""
        if value and REPORT_OPTION.match(name):
            roles.check(f, p.name, "a", value, p.dynamic[k + 1 + (not equals)], depth,
                        quiet=True)


def formatter(f: Findings, p: Parsed, depth: int) -> None:
    words = {w.split("=", 1)[0] for w in p.argv[1:]}
    name = p.name
    if name in CODE_CONFIG:
        f.ask(f"{name}: loads the project's configuration and plugins (they can run code)")
        report_files(f, p, depth)
        return
    if name == "ruff":
        verb = next((a.text for a in p.operands if not a.text.startswith("-")), "check")
        if verb not in ("check", "format", "rule", "linter", "config", "version", "clean",
                        "server", "analyze", "help"):
            verb = "check"
        reads = verb in ("check", "version", "rule", "linter", "config") or (
            verb == "format" and bool(words & CHECKS))
        if reads and not words & FIXES:
            return
    elif name in ("deno", "cargo") or p.verbs:
        if words & {"--check"}:
            return
    elif (not words & FIXES and words & CHECKS) or (name == "pyright" and not words & FIXES):
        return
    f.ask(f"{name}: may rewrite files")


def npm_audit(f: Findings, p: Parsed, depth: int) -> None:
    if p.operands:
        f.ask("npm audit fix: changes packages")


SECRET_KEY = re.compile(r"(?i)(auth|token|password|passwd|secret|cert|key|credential)")


def npm_config_get(f: Findings, p: Parsed, depth: int) -> None:
    if any(SECRET_KEY.search(a.text) for a in p.operands):
        f.ask(f"{p.name} config: prints a credential", True)


def config_set(f: Findings, p: Parsed, depth: int) -> None:
    """poetry/bundle/composer/conda config: a key reads, a key and a value set — and a
    package manager's settings name its sources, mirrors, paths and hooks, which decide
    what code runs."""
    words = p.argv[1:]
    if len(p.operands) > 1 or p.has("--unset", "--add", "--set", "--remove",
                                     "--remove-key", "--append", "--prepend") or any(
            w.split("=", 1)[0] in ("--add", "--set", "--append", "--prepend", "--remove",
                                   "--remove-key") for w in words) or (
            p.operands and p.operands[0].text in ("set", "unset")):
        f.ask(f"{p.name} config: changes where it gets code from or how it runs it", True)
    elif any(SECRET_KEY.search(a.text) for a in p.operands):
        f.ask(f"{p.name} config: prints a credential", True)


def deno_remote(f: Findings, p: Parsed, depth: int) -> None:
    if any("://" in a.text for a in p.operands):
        f.ask("deno: runs code fetched from a URL", True)
    runner_files(f, p)


def go_exec(f: Findings, p: Parsed, depth: int) -> None:
    if any(w.startswith(("-toolexec", "-exec", "-vettool", "--toolexec", "--exec"))
           for w in p.argv):
        f.ask("go: runs the program it is given", True)
    runner_files(f, p)


def runner_files(f: Findings, p: Parsed, depth: int = 0) -> None:
    """``go run /tmp/x.go``, ``bun run ~/Downloads/x.ts``: the files after the verb."""
    start = p.after_verb()
    code_files(f, " ".join([p.name, *p.verbs]), p.argv[start:], p.dynamic[start:])


def rpm(f: Findings, p: Parsed, depth: int) -> None:
    for fmt in p.values("--qf", "--queryformat"):
        if "%{lua" in fmt or "%(" in fmt:
            f.ask("rpm: the query format runs code", True)
    if not p.has("-q", "--query", "-V", "--verify", "-K", "--checksig", "-qa"):
        f.ask("rpm: installs or changes packages (not a query)",
              p.has("-i", "-U", "-F", "--install", "--upgrade", "--freshen", "--reinstall"))


def pacman(f: Findings, p: Parsed, depth: int) -> None:
    options = "".join(w[1:] for w in p.argv[1:] if re.fullmatch(r"-[a-zA-Z]+", w))
    longs = {w for w in p.argv[1:] if w.startswith("--")}
    if options[:1] == "R" or "--remove" in longs:
        f.ask(f"{p.name}: removes packages", True)
        return
    if longs - {"--version", "--help", "--query", "--info", "--list", "--search",
                "--deptest", "--color", "--noconfirm", "--quiet"}:
        f.ask(f"{p.name}: an option that is not a query")
        return
    op = options[:1]
    rest = set(options[1:])
    if op in ("Q", "T", "V") or "--query" in longs or "--version" in longs:
        return
    if op in ("S", "F") and rest and rest <= set("silgpq") and "y" not in rest:
        return
    f.ask(f"{p.name}: installs, upgrades or syncs packages for the whole system (code from "
          "a download runs)", op in ("S", "U") or bool(longs & {"--sync", "--upgrade"}))


def nix_env(f: Findings, p: Parsed, depth: int) -> None:
    words = set(p.argv[1:])
    if words & {"-e", "--uninstall", "--delete-generations", "--rollback"}:
        f.ask("nix-env: removes packages or generations", True)
    elif not words & {"-q", "--query", "--list-generations", "--version"}:
        f.ask("nix-env: installs or changes the packages of your account", True)


PIP_VALUES = frozenset({"-r", "--requirement", "-c", "--constraint", "-e", "--editable",
                        "-t", "--target", "--prefix", "--root", "-i", "--index-url",
                        "--extra-index-url", "-f", "--find-links", "--platform",
                        "--python-version", "--implementation", "--abi", "--upgrade-strategy",
                        "--src", "-C", "--config-settings", "--global-option",
                        "--no-binary", "--only-binary", "--progress-bar", "--report",
                        "--trusted-host", "--cert", "--client-cert", "--cache-dir", "--log",
                        "--timeout", "--retries", "--exists-action", "--proxy",
                        "--keyring-provider", "--python", "-p", "--group", "--extra",
                        "--dest", "-d", "--root-user-action", "--override", "--with"})
OUTSIDE_VENV = ("--user", "--break-system-packages", "--root", "--prefix", "--target", "-t",
                "--system", "--home", "--install-option")
VENV_BIN = re.compile(r"(^|/)(\.?venv|\.?env|\.tox/[^/]+|\.nox/[^/]+|virtualenvs?/[^/]+|"
                      r"envs/[^/]+|\.direnv/[^/]+)/(bin|Scripts)/[^/]+$")


def install_words(p: Parsed) -> tuple[list[str], list[str]]:
    """(options, package operands) after the install verb: option values are skipped."""
    return split_words(p.argv[p.after_verb():], PIP_VALUES)


def local_package(word: str) -> bool:
    return "/" in word or word.startswith(".") or word.endswith((".whl", ".tar.gz", ".zip"))


def pip_install(f: Findings, p: Parsed, depth: int) -> None:
    """Installing from an index, a URL or a VCS address given on the command line trusts a
    source nobody vetted; installing outside a virtual environment (``--user``,
    ``--target``, ``--break-system-packages``) or a package named from the index with a pip
    that is not a virtual environment's changes the system or the account."""
    words = p.argv[p.after_verb():] if p.verbs else []
    if any(w.split("=", 1)[0] in ("-i", "--index-url", "--extra-index-url", "-f",
                                  "--find-links", "--trusted-host") or w.startswith("-i")
           or re.match(r"^(git\+|hg\+|svn\+|bzr\+|https?://|file:)", w) for w in words):
        f.ask(f"{p.name} {p.verbs[-1]}: installs from a source given on the command line",
              True)
    if p.verbs[-1:] != ["install"]:
        return
    options, packages = install_words(p)
    if set(options) & set(OUTSIDE_VENV):
        f.ask(f"{p.name} install: installs outside a virtual environment (for the system "
              "or your account)", True)
    elif not VENV_BIN.search(p.argv[0]) and any(not local_package(w) for w in packages):
        f.ask(f"{p.name} install: installs a package from the index into the environment "
              "this pip belongs to (the system's or your account's unless a virtual "
              "environment is active)", True)


def uv_pip_install(f: Findings, p: Parsed, depth: int) -> None:
    options, packages = install_words(p)
    if set(options) & set(OUTSIDE_VENV) or set(options) & {"-i", "--index-url",
                                                          "--extra-index-url", "-f",
                                                          "--find-links"} or any(
            re.match(r"^(git\+|https?://|file:)", w) for w in packages):
        f.ask("uv pip: installs outside the project's environment or from a source given "
              "on the command line", True)


JS_GLOBAL = re.compile(r"^(-g|--global|--location=global|-[a-zA-Z]*g[a-zA-Z]*)$")


def js_global(f: Findings, p: Parsed, depth: int) -> None:
    """npm/pnpm/bun install, link and update: ``-g`` (before or after the verb), a
    ``--prefix`` outside the project or a registry given inline install for the whole
    account or from an unvetted source; ``npm link`` alone links into the global tree."""
    words = p.argv[1:]
    verb = p.verbs[-1] if p.verbs else ""
    after = p.argv[p.argv.index(verb) + 1:] if verb in p.argv else []
    if any(JS_GLOBAL.match(w) for w in words if not w.startswith("--") or "global" in w) \
            or any(w == "--location" and k + 1 < len(words) and words[k + 1] == "global"
                   for k, w in enumerate(words)):
        f.ask(f"{p.name} {verb}: installs packages for your whole account (-g)", True)
    for k, word in enumerate(words):
        if word.split("=", 1)[0] in ("--prefix", "--registry", "--dir", "-C") and (
                "=" in word or k + 1 < len(words)):
            value = word.split("=", 1)[1] if "=" in word else words[k + 1]
            if word.startswith("--registry") or not within(
                    expand(value, f.cwd, f.home), f.work_tree()):
                f.ask(f"{p.name} {verb}: installs outside the project or from a registry "
                      "given inline", True)
    if p.name == "npm" and verb in ("link", "ln") and not [w for w in after
                                                             if not w.startswith("-")]:
        f.ask("npm link: links the project into your global packages", True)


def gem_sources(f: Findings, p: Parsed, depth: int) -> None:
    if any(w.startswith(("-a", "--add", "-r", "--remove", "-c", "--clear-all", "-u",
                         "--update", "-f", "--force")) for w in p.argv[2:]) or \
            any(not a.text.startswith("-") for a in p.operands):
        f.ask("gem sources: changes where gems are installed from", True)


SYSTEM_READS = {"emerge": ("--search", "-s", "--searchdesc", "-S", "--pretend", "-p",
                           "--info", "--version"),
                "opkg": ("list", "list-installed", "info", "status", "find", "files",
                         "search", "whatdepends"),
                "guix": ("search", "show", "describe", "package --list-installed",
                         "--version"),
                "mas": ("list", "search", "info", "outdated", "account", "version"),
                "pkgin": ("list", "ls", "search", "se", "show-deps", "sd", "avail", "av"),
                "eopkg": ("list-installed", "li", "info", "search", "sr"),
                "swupd": ("bundle-list", "search", "info"),
                "pkcon": ("search", "get-details", "get-packages", "resolve"),
                "cpanm": ("--info", "--look", "--installdeps"),
                "cpan": ("-l", "-D", "-O", "-a")}


def system_install(f: Findings, p: Parsed, depth: int) -> None:
    words = p.argv[1:]
    reads = SYSTEM_READS.get(p.name, ())
    if words and (words[0] in reads or " ".join(words[:2]) in reads):
        return
    removes = any(w in ("remove", "uninstall", "--unmerge", "-C", "--depclean", "erase",
                        "autoremove", "purge", "-R") for w in words)
    f.ask(f"{p.name}: removes packages" if removes else
          f"{p.name}: installs or upgrades packages for the whole system (code from a "
          "download runs)", True)


def apt_options(f: Findings, p: Parsed, depth: int) -> None:
    if any(w in ("-o", "-c") or w.startswith(("-o", "--option", "-c", "--config-file"))
           for w in p.argv[1:]):
        f.ask(f"{p.name}: sets apt options (hooks run programs)", True)


HOOKS: dict[str, Callable[[Findings, Parsed, int], None]] = {
    "pip_install": pip_install, "apt_options": apt_options, "uv_pip_install": uv_pip_install,
    "js_global": js_global, "gem_sources": gem_sources, "system_install": system_install,
    "python": python, "script": script, "compiler": compiler, "rustc": rustc, "java": java,
    "tsc": tsc, "dotnet": dotnet, "make": make, "cmake": cmake, "ninja": ninja,
    "build": build, "editor": editor, "linter": linter, "formatter": formatter,
    "npm_audit": npm_audit, "npm_config_get": npm_config_get, "poetry_config": config_set,
    "conda_config": config_set, "bundle_config": config_set, "composer_config": config_set,
    "deno_remote": deno_remote, "go_exec": go_exec, "rpm": rpm, "pacman": pacman,
    "runner_files": runner_files,
    "nix_env": nix_env,
}
