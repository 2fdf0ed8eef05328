"""The completion scripts for the swebash command itself load and complete."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def bash_complete(line: str) -> list[str]:
    script = (f"source {ROOT / 'completions/swebash.bash'}\n"
              f"COMP_WORDS=({line}); COMP_CWORD=$(( ${{#COMP_WORDS[@]}} - 1 ))\n"
              "[[ $COMP_LINE == *' ' ]] || true\n_swebash\nprintf '%s\\n' \"${COMPREPLY[@]}\"\n")
    out = subprocess.run(["bash", "-c", script], capture_output=True, text=True, check=True)
    return out.stdout.split()


def test_bash_completion_of_options_and_policy() -> None:
    assert "--norc" in bash_complete("swebash --n")
    assert bash_complete("swebash policy ch") == ["check", "check-path"]
    assert "--write" in bash_complete("swebash policy check-path --w")


@pytest.mark.parametrize("shell,script", [("zsh", "_swebash"), ("fish", "swebash.fish")])
def test_zsh_and_fish_scripts_parse(shell: str, script: str) -> None:
    if not shutil.which(shell):
        pytest.skip(f"{shell} is not installed (.ci/run installs it)")
    subprocess.run([shell, "-n", str(ROOT / "completions" / script)], check=True)


def test_fish_completes_options_for_real(tmp_path: Path) -> None:
    if not shutil.which("fish"):
        pytest.skip("fish is not installed (.ci/run installs it)")
    script = (f"source {ROOT / 'completions/swebash.fish'}; "
              "complete -C 'swebash --yes-d'; complete -C 'swebash policy '")
    out = subprocess.run(["fish", "--no-config", "-c", script], capture_output=True, text=True,
                         env={"HOME": str(tmp_path), "PATH": "/usr/bin:/bin"}, timeout=30)
    words = [line.split("\t")[0] for line in out.stdout.splitlines()]
    assert "--yes-dangerous" in words and "check" in words and "check-path" in words


@pytest.mark.parametrize("name", ["swebash.bash", "_swebash", "swebash.fish"])
def test_all_options_are_offered(name: str) -> None:
    text = (ROOT / "completions" / name).read_text()
    for option in ("norc", "login", "yes-dangerous", "version", "policy", "check-path"):
        assert option in text, (name, option)
