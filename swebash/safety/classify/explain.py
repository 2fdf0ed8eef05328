"""``swebash policy check --explain``: how each simple command of a line was read — which
grammar, which verbs, what each option and operand was taken to be. For users checking a
verdict and for anyone adding a program's grammar."""

from __future__ import annotations

from swebash.safety.classify.model import base, show
from swebash.safety.classify.parser import parse
from swebash.safety.classify.registry import lookup
from swebash.safety.classify.walker import classify

ROLE_NAMES = {"r": "file read", "m": "file summarised", "n": "name", "t": "tree read",
              "w": "file written", "a": "file created", "d": "file deleted",
              "c": "shell code", "x": "command", "u": "URL", "h": "host",
              "e": "assignment", "p": "text"}


def explain(command: str, cwd: str, home: str) -> list[str]:
    lines: list[str] = []
    for argv in classify(command, cwd, home).commands:
        name = base(argv[0]) if argv else ""
        spec = lookup(name)
        if spec is None:
            lines.append(f"{show(argv, 60)}: no grammar for {name} (asks)")
            continue
        parsed = parse(spec, argv, [False] * len(argv), name)
        lines.append(show(argv, 60) + (f"  [verbs: {' '.join(parsed.verbs)}]"
                                       if parsed.verbs else ""))
        for used in parsed.options:
            what = used.opt.effect.reason if used.opt.effect else "read-only"
            value = f" {used.value[:30]}" if used.value is not None else ""
            role = f", value: {ROLE_NAMES[used.opt.role]}" if used.value is not None else ""
            lines.append(f"    option {used.spelled}{value}: {what}{role}")
        for arg in parsed.operands:
            lines.append(f"    operand {arg.text[:40]}: {ROLE_NAMES[arg.role]}")
        if parsed.command is not None:
            lines.append(f"    runs: {show(argv[parsed.command:], 50)}")
        for problem in parsed.problems:
            lines.append(f"    problem: {problem}")
        if spec.raw or parsed.spec.raw:
            lines.append("    (its words are read by a program-specific check)")
    return lines
