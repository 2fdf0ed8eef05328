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

import functools
import re

from swebash.safety.classify import envflow, roles
from swebash.safety.classify.checks import code_from
from swebash.safety.classify.model import Findings
from swebash.safety.classify.parser import Parsed

# --------------------------------------------------------------------------- sed

SED_PURE = set("pdDnNPqQ=lhHgGxzF")  # commands that only print, delete or move text


def sed(f: Findings, p: Parsed, depth: int) -> None:
    """The script comes from -e/--expression, -f (a file: not seen), or the first operand;
    every other operand is a file read."""
    scripts = p.values("-e", "--expression")
    operands = list(p.operands)
    if p.has("-f", "--file"):
        f.ask("sed: runs a script file it is given")
        for script in p.values("-f", "--file"):  # GNU sed's `e` runs commands
            code_from(f, "sed -f", script)
    elif not scripts and operands:
        first = operands.pop(0)
        if first.dynamic:
            f.ask("sed: runs a script built at run time", True)
        scripts = [first.text]
    for script in scripts:
        problem = sed_problem(script)
        if problem:
            f.ask(f"sed: {problem[0]}", problem[1])
    for arg in operands:
        roles.check(f, "sed", "r", arg.text, arg.dynamic, depth)


@functools.lru_cache(maxsize=256)
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

AWK_CODE = re.compile(r"system\s*\(|\||getline|>|@")
ASSIGNMENT = re.compile(r"^[A-Za-z_]\w*=")


def awk(f: Findings, p: Parsed, depth: int) -> None:
    """The program comes from -e/--source or the first operand (-f/-i/-l/-E are dangerous
    options in the grammar); later operands are files read or ``var=value`` assignments."""
    texts = p.values("-e", "--source")
    operands = list(p.operands)
    if not texts and not p.has("-f", "--file"):
        if not operands:
            f.ask(f"{p.name}: no program text")
            return
        first = operands.pop(0)
        if first.dynamic:
            f.ask(f"{p.name}: runs a program built at run time", True)
            return
        texts = [first.text]
    for program in texts:
        if awk_runs(program):
            f.ask(f"{p.name}: program may run commands or write files", True)
        keys = re.findall(r"ENVIRON\s*\[\s*\"?(\w*)", program)
        if re.search(r"\bin\s+ENVIRON\b", program) or any(
                not key or envflow.is_secret(key, f) for key in keys):
            f.ask(f"{p.name}: the program reads secret environment variables (it can reshape "
                  "them past redaction)", True)
    for arg in operands:
        if not arg.dynamic and ASSIGNMENT.match(arg.text):
            continue
        roles.check(f, p.name, "r", arg.text, arg.dynamic, depth)


@functools.lru_cache(maxsize=256)
def awk_runs(program: str) -> bool:
    """``system``, pipes, ``getline``, ``@`` directives or a ``>`` after print/printf: the
    program can run commands or write files."""
    # `x=1` operands are assignments; strip comparisons like `NR>1` inside a pattern
    stripped = re.sub(r'"(\\.|[^"\\])*"', '""', program)
    stripped = re.sub(r"(?<![\w)\]])/(\\.|[^/\\\n])*/", "//", stripped)
    stripped = stripped.replace("||", " ").replace("&&", " ")
    return bool(AWK_CODE.search(strip_comparisons(stripped)))


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
