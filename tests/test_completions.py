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


def test_zsh_and_fish_scripts_parse() -> None:
    if shutil.which("zsh"):
        subprocess.run(["zsh", "-n", str(ROOT / "completions/_swebash")], check=True)
    if shutil.which("fish"):
        subprocess.run(["fish", "-n", str(ROOT / "completions/swebash.fish")], check=True)
    text = (ROOT / "completions/swebash.fish").read_text()
    assert "complete -c swebash" in text and "--yes-dangerous" in (
        ROOT / "completions/_swebash").read_text()


@pytest.mark.parametrize("name", ["swebash.bash", "_swebash", "swebash.fish"])
def test_all_options_are_offered(name: str) -> None:
    text = (ROOT / "completions" / name).read_text()
    for option in ("norc", "login", "yes-dangerous", "version", "policy", "check-path"):
        assert option in text, (name, option)
