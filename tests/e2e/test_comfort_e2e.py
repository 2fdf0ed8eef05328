"""The comfort features as a person sees them: the installed swebash in a pty, the screen read
through pyte — history suggestions, colouring, `!!`/`!$`, the user's PS1 and PROMPT_COMMAND,
and `?fix` against the local OpenAI-protocol server."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.e2e.conftest import Term
from tests.fakes.server import FakeServer

Spawn = Callable[..., Term]


def test_history_suggestion_while_typing_a_prefix(spawn: Spawn) -> None:
    term = spawn()
    term.run("echo suggestion-target-42")
    term.wait_prompt()
    term.send("echo sugg")
    term.wait_for(lambda t: "echo suggestion-target-42" in t.cursor_line(),
                  what="the suggestion after the cursor")
    # the suggestion is after the cursor: only "echo sugg" was typed
    assert term.screen.cursor.x == term.cursor_line().index("echo sugg") + len("echo sugg")
    term.send("\x1b[C\r")  # → accepts, Enter runs
    term.wait_for(lambda t: t.text().count("suggestion-target-42") >= 4, what="second run")


def test_history_suggestion_from_a_previous_session(spawn: Spawn, hermetic_env: Path) -> None:
    history = hermetic_env / ".local/state/swebash/history"
    history.parent.mkdir(parents=True, exist_ok=True)
    history.write_text("\n# 2026-01-01\n+printf 'stored-%s\\n' line\n")
    term = spawn()
    term.wait_prompt()
    term.send("printf 'st")
    term.wait_for(lambda t: "printf 'stored-%s\\n' line" in t.cursor_line(),
                  what="the stored line suggested")


def fg_of(term: Term, needle: str) -> str:
    row = term.screen.cursor.y
    line = term.cursor_line()
    if needle not in line:  # (the line editor taking over from the first prompt redraws it)
        return "default"
    return str(term.screen.buffer[row][line.index(needle)].fg)


def test_unknown_command_coloured_differently_from_ls(spawn: Spawn) -> None:
    term = spawn(env={"NO_COLOR": ""})
    term.wait_prompt()
    term.send("ls | gti status")
    term.wait_for(lambda t: "ls | gti status" in t.cursor_line(), what="typed line")
    term.wait_for(lambda t: fg_of(t, "gti") != "default", what="colouring")
    assert fg_of(term, "ls") != fg_of(term, "gti")
    assert fg_of(term, "gti") == "red"
    assert b"\x1b[" in term.raw


def test_no_colour_with_no_color(spawn: Spawn) -> None:
    term = spawn()  # NO_COLOR=1 from the fixture
    term.wait_prompt()
    term.send("gti status")
    term.wait_for(lambda t: "gti status" in t.cursor_line(), what="typed line")
    assert fg_of(term, "gti") == "default"


def test_bang_bang_and_bang_dollar(spawn: Spawn, hermetic_env: Path) -> None:
    term = spawn()
    term.run("echo alpha beta")
    term.run("!!")
    screen = term.text()
    assert screen.count("alpha beta") >= 4  # typed, echoed by bash-style expansion, output x2
    term.run("echo last=!$")
    term.wait_text("last=beta")
    history = (hermetic_env / ".local/state/swebash/history").read_text()
    assert "+echo last=beta" in history and "!$" not in history


def test_event_not_found_and_set_plus_h(spawn: Spawn) -> None:
    term = spawn()
    term.run("echo first")
    term.run("!nosuchthing")
    term.wait_text("bash: !nosuchthing: event not found")
    term.run("set +H")
    term.run("echo wow!!x")
    term.wait_text("wow!!x")


def wait_line_start(term: Term, prefix: str) -> None:
    term.wait_for(lambda t: t.cursor_line().startswith(prefix), what=f"prompt {prefix!r}")


def test_ps1_from_swebashrc_is_the_prompt(spawn: Spawn, hermetic_env: Path,
                                          tmp_path: Path) -> None:
    (hermetic_env / ".swebashrc").write_text("PS1='myps1 \\W> '\n")
    work = tmp_path / "projdir"
    work.mkdir()
    term = spawn(cwd=str(work))
    wait_line_start(term, "myps1 projdir> ")
    term.send("cd ..\r")
    wait_line_start(term, f"myps1 {tmp_path.name}> ")


def test_prompt_command_setting_ps1_runs_before_each_prompt(spawn: Spawn,
                                                            hermetic_env: Path) -> None:
    (hermetic_env / ".swebashrc").write_text(
        "n=0\nPROMPT_COMMAND='s=$?; n=$((n+1)); PS1=\"pc$n:$s \\$ \"'\n")
    term = spawn()
    wait_line_start(term, "pc1:0 ")
    term.send("false\r")
    wait_line_start(term, "pc2:1 ")
    term.send("PS1=ignored-by-the-next-prompt-command\r")
    wait_line_start(term, "pc3:0 ")
    term.send("\r")  # an empty line runs PROMPT_COMMAND again, as in bash
    wait_line_start(term, "pc4:")


@pytest.mark.parametrize("keys", ["?fix\r", "\x18\x06"])
def test_fix_puts_the_corrected_command_in_the_prompt(spawn: Spawn, server: FakeServer,
                                                      keys: str) -> None:
    server.script({"text": "COMMAND: git status\nEXPLANATION: gti is a typo for git"})
    env = {"OPENAI_API_KEY": "sk-test-not-a-real-key-000000",
           "SWEBASH_AI_PROVIDER": "openai", "OPENAI_BASE_URL": server.url + "/v1",
           "SWEBASH_AI_MAX_RETRIES": "0"}
    term = spawn(env=env)
    term.run("gti status")
    term.wait_text("command not found")
    term.wait_prompt()
    term.send(keys)
    term.wait_for(lambda t: t.cursor_line().rstrip().endswith(("$ git status",
                                                               "# git status")),
                  what="the fix in the prompt")
    assert "gti is a typo for git" in term.text()
    request = json.dumps(server.requests[-1].body)
    assert "gti status" in request and "127" in request


def test_prompt_framework_style_init(spawn: Spawn, hermetic_env: Path) -> None:
    # what starship/oh-my-posh inits do: a precmd prepended to PROMPT_COMMAND, and a PS1 that
    # runs a command substitution each time it is drawn
    (hermetic_env / ".swebashrc").write_text(
        'fake_precmd() { FAKE_STATUS=$?; FAKE_N=$((FAKE_N+1)); }\n'
        'PROMPT_COMMAND="fake_precmd;${PROMPT_COMMAND}"\n'
        "PS1='$(echo \"fk[$FAKE_STATUS]#$FAKE_N\") > '\n")
    term = spawn()
    wait_line_start(term, "fk[0]#1 > ")
    term.send("false\r")
    wait_line_start(term, "fk[1]#2 > ")


def test_coloured_multiline_ps1(spawn: Spawn, hermetic_env: Path, tmp_path: Path) -> None:
    (hermetic_env / ".swebashrc").write_text(
        "PS1='\\[\\e[32m\\]top \\W\\[\\e[0m\\]\\nbottom> '\n")
    work = tmp_path / "here"
    work.mkdir()
    term = spawn(env={"NO_COLOR": ""}, cwd=str(work))
    wait_line_start(term, "bottom> ")
    row = term.screen.cursor.y - 1
    assert term.screen.display[row].startswith("top here")
    assert term.screen.buffer[row][0].fg == "green"


def write_config(home: Path, text: str) -> None:
    config = home / ".config/swebash/config.toml"
    config.parent.mkdir(parents=True, exist_ok=True)
    config.write_text(text)


def test_rprompt(spawn: Spawn, hermetic_env: Path) -> None:
    write_config(hermetic_env, '[prompt]\nrprompt = "rp<{status}>"\n')
    term = spawn()
    term.run("false")
    term.wait_for(lambda t: t.cursor_line().rstrip().endswith("rp<1>"), what="the rprompt")


def test_transient_prompt(spawn: Spawn, hermetic_env: Path) -> None:
    write_config(hermetic_env, "[prompt]\ntransient = true\n")
    term = spawn()
    term.run("echo transient-check")
    rows = [row.rstrip() for row in term.screen.display]
    assert any(row in ("$ echo transient-check", "# echo transient-check") for row in rows)
    assert "@" in term.cursor_line()  # the live prompt is the full one


def test_alt_right_accepts_one_word_and_end_the_rest(spawn: Spawn) -> None:
    term = spawn()
    term.run("echo one two three")
    term.wait_prompt()
    term.send("echo o")
    term.wait_for(lambda t: "echo one two three" in t.cursor_line(), what="the suggestion")
    term.send("\x1b[1;3C\r")  # Alt-→ takes "ne", Enter runs "echo one"
    term.wait_for(lambda t: any(row.rstrip() == "one" for row in t.screen.display),
                  what="only the first word accepted")
    term.wait_prompt()
    term.send("echo one t")
    term.wait_for(lambda t: "echo one two three" in t.cursor_line(), what="the suggestion")
    term.send("\x1b[F\r")  # End takes the whole suggestion
    term.wait_for(lambda t: sum(row.rstrip() == "one two three" for row in t.screen.display)
                  >= 2, what="the whole line run")
