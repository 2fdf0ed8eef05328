r"""sed scripts and awk programs, read the way sed and awk read them.

A sed script is walked command by command — addresses (``1``, ``$``, ``/re/``, ``\,re,``,
``0~3``, ``!``), blocks, labels, ``s`` and ``y`` with any delimiter — and only commands that
print, delete or move text pass; ``e``, ``s///e``, ``w``/``W``, ``s///w``, ``r``/``R`` or a
command it does not know report a problem. An awk program passes only without ``system``,
pipes, ``getline``, ``@`` (``@load``, indirect calls) or a ``>`` after print/printf (a ``>``
in a condition or inside parentheses compares); program text given by ``-e``/``--source`` is
checked too, and ``-f``/``-i``/``-l``/``-E`` (code from files or extensions) are dangerous.
"""

from __future__ import annotations

import re

from swebash.safety.model import Findings, long_option, positional

# --------------------------------------------------------------------------- sed

SED_PURE = set("pdDnNPqQ=lhHgGxzF")  # commands that only print, delete or move text


def sed(f: Findings, name: str, argv: list[str], dyn: list[bool], depth: int) -> None:
    scripts: list[str] = []
    i = 1
    files_from_script = False
    while i < len(argv):
        arg = argv[i]
        if arg == "--":
            break
        if arg in ("-e", "--expression") and i + 1 < len(argv):
            scripts.append(argv[i + 1])
            i += 2
            continue
        if arg.startswith("--expression="):
            scripts.append(arg.split("=", 1)[1])
        elif arg.startswith("-e") and not arg.startswith("--"):
            scripts.append(arg[2:])
        elif arg in ("-f", "--file") or arg.startswith(("--file=", "-f")):
            files_from_script = True
        elif long_option(arg, "--in-place") or (re.fullmatch(r"-[a-zA-Z]*i.*", arg)
                                                and not arg.startswith("--")):
            f.ask("sed: rewrites files in place", True)
        elif arg.startswith("-") and not re.fullmatch(
                r"-[nErsuzl0-9]+|--(quiet|silent|regexp-extended|separate|unbuffered|"
                r"null-data|posix|debug|sandbox|line-length=\d+|follow-symlinks)", arg):
            f.ask(f"sed: unfamiliar option {arg.split('=', 1)[0]}")
        i += 1
    if files_from_script:
        f.ask("sed: runs a script file")
    if not scripts and not files_from_script:
        scripts = positional(argv[1:])[:1]
    for script in scripts:
        problem = sed_problem(script)
        if problem:
            f.ask(f"sed: {problem[0]}", problem[1])


def sed_problem(script: str) -> tuple[str, bool] | None:
    """Walk a sed script command by command; anything but pure text commands is reported."""
    i, n = 0, len(script)
    while i < n:
        ch = script[i]
        if ch in " \t\n;{}!":
            i += 1
            continue
        if ch.isdigit() or ch in "$,~+":
            i += 1
            continue
        if ch in "/\\":
            delim = ch if ch == "/" else (script[i + 1] if i + 1 < n else "")
            i = skip_delimited(script, i + (1 if ch == "/" else 2), delim)
            if i < 0:
                return "has an address it cannot read", False
            while i < n and script[i] in "IM":
                i += 1
            continue
        if ch == "#":
            i = script.find("\n", i)
            i = n if i < 0 else i
            continue
        if ch == ":":
            i = end_of_line(script, i)
            continue
        if ch in "bTt":
            i = end_of_line(script, i + 1, stop=";}")
            continue
        if ch in SED_PURE:
            i += 1
            continue
        if ch in "aic":
            i = end_of_line(script, i + 1)
            continue
        if ch in "sy":
            if i + 1 >= n:
                return "has a command it cannot read", False
            delim = script[i + 1]
            if delim in "\\\n":
                return "has a command it cannot read", False
            j = skip_delimited(script, i + 2, delim)
            j = skip_delimited(script, j, delim) if j >= 0 else -1
            if j < 0:
                return "has a command it cannot read", False
            k = j
            while k < n and script[k] not in ";}\n":
                k += 1
            if ch == "s":
                fl = script[j:k]
                if "e" in fl:
                    return "script executes commands (s///e)", True
                if "w" in fl or "W" in fl:
                    return "script writes files (s///w)", False
                if not re.fullmatch(r"[gpiImM0-9 \t]*", fl):
                    return "has a command it cannot read", False
            i = k
            continue
        if ch == "e":
            return "script executes commands (e)", True
        if ch in "wW":
            return "script writes files (w)", False
        if ch in "rR":
            return "script reads another file (r)", False
        if ch == "v":
            i = end_of_line(script, i + 1, stop=";}")
            continue
        return f"has a command it does not model ({ch})", False
    return None


def skip_delimited(script: str, i: int, delim: str) -> int:
    """Index after the next unescaped ``delim`` from ``i`` (-1 when there is none)."""
    n = len(script)
    while i < n:
        if script[i] == "\\":
            i += 2
            continue
        if script[i] == delim:
            return i + 1
        if script[i] == "\n" and delim != "\n":
            return -1
        i += 1
    return -1


def end_of_line(script: str, i: int, stop: str = "") -> int:
    n = len(script)
    while i < n and script[i] != "\n" and script[i] not in stop:
        if script[i] == "\\":
            i += 1
        i += 1
    return i


# --------------------------------------------------------------------------- awk

AWK_VALUES = ("-v", "-F", "-f", "-i", "-l", "-E", "-W", "--assign", "--field-separator",
              "--file", "--include", "--load", "--exec", "-o", "-p", "--dump-variables",
              "--profile", "--pretty-print")
AWK_CODE = re.compile(r"system\s*\(|\||getline|>|@")
SAFE_AWK_OPTIONS = re.compile(r"-[vF].+|--(assign|field-separator)=.*|--posix|--traditional|"
                              r"--re-interval|--characters-as-bytes|--sandbox|-[bcNrSsPt]+")


def awk(f: Findings, name: str, argv: list[str], dyn: list[bool], depth: int) -> None:
    i, program = 1, None
    while i < len(argv):
        arg = argv[i]
        if arg == "--":
            i += 1
            break
        if not arg.startswith("-") or arg == "-":
            break
        if arg in ("-f", "--file", "-i", "--include", "-l", "--load", "-E", "--exec") or \
                long_option(arg, "--file", "--include", "--load", "--exec") or \
                re.fullmatch(r"-[filE].+", arg):
            f.ask(f"{name}: runs awk code from a file or extension ({arg[:12]})", True)
            return
        if arg in ("-e", "--source"):  # gawk: program text given as an option
            program = (program or "") + "\n" + (argv[i + 1] if i + 1 < len(argv) else "")
            i += 2
            continue
        if arg.startswith("--source=") or (arg.startswith("-e") and not arg.startswith("--")):
            text = arg.split("=", 1)[1] if arg.startswith("--") else arg[2:]
            program = (program or "") + "\n" + text
            i += 1
            continue
        if arg in AWK_VALUES:
            if arg in ("-o", "-p", "--dump-variables", "--profile", "--pretty-print"):
                f.ask(f"{name}: writes a file ({arg})")
            i += 2
            continue
        if not SAFE_AWK_OPTIONS.fullmatch(arg):
            f.ask(f"{name}: unfamiliar option {arg.split('=', 1)[0]}")
        i += 1
    if i < len(argv) and program is None:
        program = argv[i]
        if dyn[i]:
            f.ask(f"{name}: runs a program built at run time", True)
            return
    if program is None:
        f.ask(f"{name}: no program text")
        return
    # `x=1` operands are assignments; strip comparisons like `NR>1` inside a pattern
    stripped = re.sub(r'"(\\.|[^"\\])*"', '""', program)
    stripped = re.sub(r"(?<![\w)\]])/(\\.|[^/\\\n])*/", "//", stripped)
    stripped = stripped.replace("||", " ").replace("&&", " ")
    if AWK_CODE.search(strip_comparisons(stripped)):
        f.ask(f"{name}: program may run commands or write files", True)


def strip_comparisons(program: str) -> str:
    """``NR>1`` and ``$3 > 100`` in a pattern or condition compare; ``print … >`` writes.
    A ``>`` not preceded on its statement by print/printf, or inside parentheses, compares."""
    program = program.replace(">=", " ")
    for _ in range(50):
        stripped = re.sub(r"\([^()]*\)", "()", program)
        if stripped == program:
            break
        program = stripped
    out = []
    for statement in re.split(r"([;{}\n])", program):
        if re.search(r"\bprintf?\b", statement):
            out.append(statement)
        else:
            out.append(statement.replace(">=", " ").replace(">", " "))
    return "".join(out)
