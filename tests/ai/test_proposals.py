"""`??` and `?fix` proposals are taken whole: a loop, a fenced block or a COMMAND value over
several lines is never cut to its first line, and the prose around it is the explanation."""

from __future__ import annotations

import pytest

from swebash.ai.prompts import parse_translation, translate_system_prompt
from swebash.errors import AiError

LOOP = 'for f in *.txt; do\n  mv "$f" "${f%.txt}.md"\ndone'


@pytest.mark.parametrize("reply", [
    f"COMMAND:\n```bash\n{LOOP}\n```\nEXPLANATION: renames them",
    f"COMMAND: {LOOP}\nEXPLANATION: renames them",
    f"**COMMAND:**\n```sh\n{LOOP}\n```\n**EXPLANATION:** renames them",
    f"```bash\n{LOOP}\n```\nrenames them",
])
def test_multi_line_command_is_whole(reply: str) -> None:
    assert parse_translation(reply) == (LOOP, "renames them")


def test_fenced_reply_keeps_the_prose_around_it_as_the_explanation() -> None:
    reply = (f"The files keep their names but change extension:\n\n```bash\n{LOOP}\n```\n\n"
             "Run it in the directory that holds them.")
    command, explanation = parse_translation(reply)
    assert command == LOOP
    assert explanation == ("The files keep their names but change extension:\n"
                           "Run it in the directory that holds them.")


def test_indentation_inside_a_script_is_kept_and_prompts_are_dropped() -> None:
    reply = "```bash\n$ cd /tmp\n$ ls -la\n```"
    assert parse_translation(reply)[0] == "cd /tmp\nls -la"
    here_doc = "cat <<'EOF' > x.py\ndef f():\n    return 1\nEOF"
    assert parse_translation(f"COMMAND:\n```\n{here_doc}\n```")[0] == here_doc


@pytest.mark.parametrize("reply,command", [
    ("COMMAND: `ls -la`\nEXPLANATION: lists", "ls -la"),
    ("ls -la", "ls -la"),
    ("$ git status", "git status"),
])
def test_one_line_forms(reply: str, command: str) -> None:
    assert parse_translation(reply)[0] == command


@pytest.mark.parametrize("reply", ["", "COMMAND:\nEXPLANATION: nothing", "```bash\n\n```"])
def test_no_command_is_a_clear_error(reply: str) -> None:
    with pytest.raises(AiError, match="did not return a command"):
        parse_translation(reply)


def test_the_prompt_asks_for_the_whole_command() -> None:
    prompt = translate_system_prompt("/tmp")
    assert "as many lines as it needs" in prompt and "one line" not in prompt.split("```")[1]
