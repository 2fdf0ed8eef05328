"""`swebash policy check [--json] [--explain] [--cwd DIR] [--] CMD…`,
`swebash policy check-path [--write] [--json] [--] PATH` and `swebash policy rules`.

Prints the gate's decision, the dangerous flag and the reasons, applying rules.toml and the
[policy] rules of config.toml; a refused or broken rule is one line on stderr. Only classifies:
nothing is run. Exits 0 whatever the verdict (2 on a usage error), so users can inspect and
debug their rules.
"""

from __future__ import annotations

import argparse
import json
import os
import sys

from swebash import config as config_mod
from swebash.api import Verdict
from swebash.errors import SwebashError


class UsageError(Exception):
    pass


class Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # type: ignore[override]
        raise UsageError(message)


def build_parser() -> Parser:
    parser = Parser(prog="swebash policy", add_help=True,
                    description="Show what the safety gate decides (nothing is run).")
    sub = parser.add_subparsers(dest="action", parser_class=Parser)
    check = sub.add_parser("check", help="classify a command line")
    check.add_argument("--json", action="store_true", help="print the verdict as JSON")
    check.add_argument("--cwd", help="judge as if run in this directory")
    check.add_argument("--explain", action="store_true",
                       help="also show how each simple command was parsed")
    check.add_argument("command", nargs=argparse.REMAINDER, help="the command line")
    path = sub.add_parser("check-path", help="judge reading or writing a path")
    path.add_argument("--json", action="store_true")
    path.add_argument("--write", action="store_true", help="judge writing instead of reading")
    path.add_argument("--cwd")
    path.add_argument("path", nargs="*")
    sub.add_parser("rules", help="list the rules in rules.toml")
    return parser


def print_verdict(verdict: Verdict, as_json: bool) -> None:
    if as_json:
        print(json.dumps(verdict.to_json()))
        return
    from swebash.visible import make_visible

    flag = " (dangerous: not known to the classifier)" if verdict.unknown else \
        " (dangerous)" if verdict.dangerous else ""
    print(f"decision: {verdict.decision}{flag}")
    for reason in verdict.reasons:
        print(f"  - {make_visible(reason)}")


def operands(words: list[str]) -> list[str]:
    return list(words[1:] if words[:1] == ["--"] else words)


def main(argv: list[str]) -> int:
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
    except UsageError as exc:
        print(f"swebash policy: {exc}\n{parser.format_usage().rstrip()}", file=sys.stderr)
        return 2
    if args.action is None:
        print(parser.format_help().rstrip())
        return 2
    try:
        cfg = config_mod.load()
    except SwebashError as exc:
        print(f"swebash: {exc}", file=sys.stderr)
        return 2
    from swebash.safety.gate import DefaultGate

    gate = DefaultGate(cfg.policy, home=str(cfg.paths.home), rules_file=cfg.paths.rules_file)
    for note in gate.notes():
        print(f"swebash: {note}", file=sys.stderr)
    if args.action == "rules":
        for rule in gate.rule_set().rules:
            print(rule.describe())
        return 0
    cwd = os.path.abspath(args.cwd) if getattr(args, "cwd", None) else os.getcwd()
    if args.action == "check":
        words = operands(args.command)  # after `--` every word is the command's
        if not words:
            print("swebash policy: no command given", file=sys.stderr)
            return 2
        line = " ".join(words)
        print_verdict(gate.check_command(line, cwd), args.json)
        if args.explain and not args.json:
            from swebash.safety.classify.explain import explain

            print("parsed:")
            for text in explain(line, cwd, gate.home):
                print(f"  {text}")
        return 0
    paths = args.path  # argparse honours `--`: `check-path -- --json` judges a path "--json"
    if len(paths) != 1:
        print("swebash policy: give exactly one path", file=sys.stderr)
        return 2
    print_verdict(gate.check_path(paths[0], cwd, write=args.write), args.json)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
