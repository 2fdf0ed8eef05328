"""`swebash policy check [--json] -- CMD…` and `swebash policy check-path [--write] [--json] PATH`.

Prints the gate's decision, the dangerous flag and the reasons; exits 0 whatever the verdict
(2 on a usage error), so users can inspect and debug their [policy] rules.
"""

from __future__ import annotations

import json
import os
import sys

from swebash import config as config_mod
from swebash.api import Verdict
from swebash.errors import SwebashError

USAGE = ("usage: swebash policy check [--json] -- COMMAND...\n"
         "       swebash policy check-path [--write] [--json] PATH")


def print_verdict(verdict: Verdict, as_json: bool) -> None:
    if as_json:
        print(json.dumps(verdict.to_json()))
        return
    from swebash.safety.display import make_visible

    flag = " (dangerous)" if verdict.dangerous else ""
    print(f"decision: {verdict.decision}{flag}")
    for reason in verdict.reasons:
        print(f"  - {make_visible(reason)}")


def main(argv: list[str]) -> int:
    if not argv or argv[0] in ("-h", "--help", "help"):
        print(USAGE)
        return 0 if argv else 2
    action, args = argv[0], argv[1:]
    options = args[: args.index("--")] if "--" in args else args
    as_json = "--json" in options
    try:
        cfg = config_mod.load()
    except SwebashError as exc:
        print(f"swebash: {exc}", file=sys.stderr)
        return 2
    from swebash.safety.gate import DefaultGate

    gate = DefaultGate(cfg.policy, home=str(cfg.paths.home))
    cwd = os.getcwd()
    if action == "check":
        words = args[args.index("--") + 1:] if "--" in args else [
            a for a in args if a != "--json"]
        if not words:
            print(f"swebash policy: no command given\n{USAGE}", file=sys.stderr)
            return 2
        print_verdict(gate.check_command(" ".join(words), cwd), as_json)
        return 0
    if action == "check-path":
        paths = [a for a in args if a not in ("--json", "--write", "--")]
        if len(paths) != 1:
            print(f"swebash policy: give exactly one path\n{USAGE}", file=sys.stderr)
            return 2
        print_verdict(gate.check_path(paths[0], cwd, write="--write" in options), as_json)
        return 0
    print(f"swebash policy: unknown action '{action}'\n{USAGE}", file=sys.stderr)
    return 2


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
