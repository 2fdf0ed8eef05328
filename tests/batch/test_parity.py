"""Non-interactive modes produce the same stdout, stderr and exit status as bash.

Each script runs three ways through the installed swebash (``-c``, ``FILE``, piped stdin) and
the same three ways through bash; every pair must match exactly.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

SWEBASH = str(Path(sys.executable).parent / "swebash")

SCRIPTS = {
    "echo": "echo hello world",
    "exit_status": "echo before; exit 7",
    "unknown_command": "nosuchcommand-xyz arg; echo after $?",
    "here_doc": "cat <<EOF\nline 1\n  indented $((1+2))\nEOF\ncat <<'RAW'\n$HOME stays\nRAW",
    "here_doc_dash": "cat <<-EOF\n\ttabbed\n\tEOF",
    "for_loop": "for i in 1 2 3; do echo \"i=$i\"; done",
    "while_loop": "n=0; while [ $n -lt 3 ]; do n=$((n+1)); echo $n; done",
    "until_loop": "n=3; until [ $n -eq 0 ]; do echo $n; n=$((n-1)); done",
    "function": "greet() { echo \"hi $1\"; return 3; }\ngreet you; echo rc=$?",
    "trap_exit": "trap 'echo trapped' EXIT; echo body",
    "trap_err": "set -E; trap 'echo err at $LINENO' ERR; false; echo next",
    "set_e": "set -e\necho one\nfalse\necho never",
    "pipefail": "set -o pipefail; false | true; echo status=$?",
    "no_pipefail": "false | true; echo status=$?",
    "subshell": "x=outer; (x=inner; echo $x); echo $x",
    "arrays": "a=(one two three); echo ${#a[@]} ${a[1]}; declare -A m=([k]=v); echo ${m[k]}",
    "case": "for w in apple kiwi; do case $w in a*) echo A;; *) echo other;; esac; done",
    "stderr": "echo to-err >&2; echo to-out",
    "positional": "set -- a 'b c' d; echo $#; for x in \"$@\"; do echo \"[$x]\"; done",
    "syntax_error": "echo ok\nif then fi\necho after",
    "read_stdin_lines": "while read -r l; do echo \"got $l\"; done <<< $'x\\ny'",
    "arithmetic": "echo $(( 6 * 7 )) $(( 2 ** 10 ))",
    "command_substitution": "v=$(echo nested $(echo deep)); echo \"$v\"",
    "brace_expansion": "echo {a,b}{1,2} file{1..3}.txt",
    "exit_in_function": "f() { exit 4; }; f; echo unreachable",
    "unset_var_error": "set -u; echo $NOPE_UNSET_VAR; echo after",
    "kill_self": "echo before; kill -TERM $$; echo after",
    "question_mark_glob": "cd \"$(mktemp -d)\" && touch a b && echo ? && echo ??",
}


def run(argv: list[str], stdin: str | None = None, cwd: Path | None = None
        ) -> tuple[str, str, int]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("SWEBASH")}
    result = subprocess.run(argv, input=stdin, capture_output=True, text=True, timeout=60,
                            cwd=cwd, env=env, check=False)
    return result.stdout, result.stderr, result.returncode


@pytest.mark.parametrize("name", sorted(SCRIPTS))
def test_c_file_and_piped_match_bash(name: str, tmp_path: Path) -> None:
    script = SCRIPTS[name]
    path = tmp_path / f"{name}.sh"
    path.write_text(script + "\n")
    assert run([SWEBASH, "-c", script, "arg0", "x"]) == run(["bash", "-c", script, "arg0", "x"])
    assert run([SWEBASH, str(path), "p1"]) == run(["bash", str(path), "p1"])
    assert run([SWEBASH], stdin=script + "\n") == run(["bash"], stdin=script + "\n")


def test_corpus_is_big_enough() -> None:
    assert len(SCRIPTS) >= 20


def test_piped_ai_line_runs_in_order(tmp_path: Path) -> None:
    script = "echo first\n? what now\necho last\n"
    out, err, status = run([SWEBASH], stdin=script)
    assert out.splitlines()[0] == "first" and out.splitlines()[-1] == "last"
    assert "AI is not configured" in err
    assert status == 0  # the last command's status, like bash


def test_piped_ai_line_inside_here_doc_is_data(tmp_path: Path) -> None:
    script = "cat <<EOF\n? not a question\nEOF\n"
    assert run([SWEBASH], stdin=script) == run(["bash"], stdin=script)


def test_c_ai_line_without_configuration_fails_in_one_line() -> None:
    out, err, status = run([SWEBASH, "-c", "? hello"])
    assert out == "" and status == 2
    assert err.count("\n") == 1 and "AI is not configured" in err and "Traceback" not in err


def test_version_help_and_bad_option() -> None:
    out, _, status = run([SWEBASH, "--version"])
    assert status == 0 and out.startswith("swebash ")
    out, _, status = run([SWEBASH, "--help"])
    assert status == 0 and "?? TASK" in out and "-c COMMAND" in out
    _, err, status = run([SWEBASH, "--bogus"])
    assert status == 2 and err.strip() == "swebash: unknown option --bogus (try swebash --help)"


def test_policy_subcommand() -> None:
    out, _, status = run([SWEBASH, "policy", "check", "--json", "--", "rm -rf /"])
    assert status == 0 and '"dangerous": true' in out


def test_importing_the_shell_loads_no_ai_sdk() -> None:
    code = ("import sys, swebash.cli, swebash.interactive.repl, swebash.shell.session;"
            "print(sorted(m for m in ('openai', 'anthropic', 'httpx', 'rich') "
            "if m in sys.modules))")
    out, _, _ = run([sys.executable, "-c", code])
    assert out.strip() == "[]"


def test_s_with_arguments_sets_positional_parameters_like_bash(tmp_path: Path) -> None:
    script = 'echo "$#:$1 $2"\n'
    ours = run([SWEBASH, "-s", "A", "B"], stdin=script, cwd=tmp_path)
    theirs = run(["bash", "-s", "A", "B"], stdin=script, cwd=tmp_path)
    assert ours == theirs
    assert "2:A B" in str(ours)
