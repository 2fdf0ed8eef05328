"""AI inside the shell, end to end: the installed swebash in a pty (or piped / -c), talking to
the local OpenAI-protocol server through the real SDK."""

from __future__ import annotations

import json
import os
import subprocess
from collections.abc import Callable
from pathlib import Path

import pyte
import pytest

from tests.e2e.conftest import SWEBASH, Term
from tests.fakes.server import FakeServer

Spawn = Callable[..., Term]


def tool(command: str) -> list[list[str]]:
    return [["execute_command", json.dumps({"command": command})]]


def test_question_with_tool_call_shows_panel_then_answer(spawn: Spawn, server: FakeServer,
                                                         ai_env: dict[str, str],
                                                         tmp_path: Path) -> None:
    (tmp_path / "alpha.txt").write_text("")
    server.script({"tools": tool("ls")}, {"text": "You have **one** file: alpha.txt."})
    term = spawn(env=ai_env, cwd=str(tmp_path))
    term.run("? what files are here")
    screen = term.text()
    assert "$ ls" in screen and "exit 0" in screen
    assert "You have one file: alpha.txt." in screen
    assert screen.index("$ ls") < screen.index("You have one file")


@pytest.mark.parametrize("key,survives", [("n", True), ("y", False)])
def test_dangerous_command_asks_inline(spawn: Spawn, server: FakeServer,
                                       ai_env: dict[str, str], tmp_path: Path, key: str,
                                       survives: bool) -> None:
    (tmp_path / "build").mkdir()
    server.script({"tools": tool("rm -rf build")}, {"text": "Handled."})
    term = spawn(env=ai_env, cwd=str(tmp_path))
    term.wait_prompt()
    term.send("? clean the build\r")
    term.wait_text("[y/N]")
    assert "rm -rf build" in term.text() and "deletes files recursively" in term.text()
    term.send(key)
    term.wait_text("Handled.")
    term.wait_prompt()
    assert (tmp_path / "build").exists() is survives
    result = json.dumps(server.requests[-1].body["messages"][-1])
    assert ("declined" in result) is survives


def test_ctrl_c_mid_stream_returns_to_a_working_prompt(spawn: Spawn, server: FakeServer,
                                                       ai_env: dict[str, str]) -> None:
    server.script({"text": "word " * 300, "chunks": 300, "delay": 0.03},
                  {"text": "Second answer."})
    term = spawn(env=ai_env)
    term.wait_prompt()
    term.send("? tell me a long story\r")
    term.wait_text("word word word")
    term.send("\x03")
    term.wait_prompt(timeout=10)
    term.run("echo after-cancel")
    assert "after-cancel" in term.text()
    term.run("? again")
    assert "Second answer." in term.text()
    # The model is told what the user saw of the cut answer, marked as interrupted.
    messages = server.requests[-1].body["messages"]
    cut = next(m for m in messages if m["role"] == "assistant")
    assert cut["content"].startswith("word word word")
    assert cut["content"].endswith("[interrupted by the user at this point]")


def test_double_question_puts_the_command_in_the_prompt(spawn: Spawn, server: FakeServer,
                                                        ai_env: dict[str, str],
                                                        hermetic_env: Path) -> None:
    server.script({"text": "COMMAND: echo translated-$((40+2))\nEXPLANATION: prints a value"})
    term = spawn(env=ai_env)
    term.wait_prompt()
    term.send("?? print the answer\r")
    term.wait_for(lambda t: "echo translated-$((40+2))" in t.cursor_line(), what="buffer")
    assert "translated-42" not in term.text()  # placed, not run
    term.send("\r")
    term.wait_text("translated-42")
    term.wait_prompt()
    history = (hermetic_env / ".local/state/swebash/history").read_text()
    assert "echo translated-$((40+2))" in history and "?? print the answer" not in history


def test_why_did_that_fail_sends_the_failed_output(spawn: Spawn, server: FakeServer,
                                                   ai_env: dict[str, str]) -> None:
    server.script({"text": "Because the directory does not exist."})
    term = spawn(env=ai_env)
    term.run("ls /definitely/missing/dir")
    term.run("? why did that fail")
    assert "Because the directory does not exist." in term.text()
    system = json.dumps(server.requests[-1].body["messages"][0])
    assert "ls /definitely/missing/dir" in system and "No such file or directory" in system
    assert "exit 2" in system


def test_ai_builtins(spawn: Spawn, server: FakeServer, ai_env: dict[str, str]) -> None:
    term = spawn(env=ai_env)
    term.run("ai status")
    assert "provider:  openai" in term.text() and "reachable: yes" in term.text()
    term.run("ai help")
    assert "ai explain CMD" in term.text()
    term.run("ai bogus")
    assert "unknown command 'bogus'" in term.text()


def run_swebash(args: list[str], env: dict[str, str], stdin: str = "",
                cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    full = {k: v for k, v in os.environ.items() if not k.startswith(("SWEBASH", "OPENAI"))}
    full.update(env)
    return subprocess.run([SWEBASH, *args], input=stdin, capture_output=True, text=True,
                          env=full, cwd=cwd, timeout=60, check=False)


def test_c_question_prints_plain_text(server: FakeServer, ai_env: dict[str, str],
                                      tmp_path: Path) -> None:
    server.script({"tools": tool("echo hi")}, {"text": "The **answer** is 42."})
    result = run_swebash(["-c", "? what is it"], ai_env, cwd=tmp_path)
    assert result.returncode == 0
    assert result.stdout == "The **answer** is 42.\n" and "\x1b" not in result.stdout
    assert "[tool] $ echo hi" in result.stderr


def test_piped_mode_refuses_what_the_gate_would_ask(server: FakeServer,
                                                    ai_env: dict[str, str],
                                                    tmp_path: Path) -> None:
    (tmp_path / "target").mkdir()
    server.script({"tools": tool("rm -rf target")}, {"text": "I was not allowed to."})
    result = run_swebash([], ai_env, stdin="echo start\n? clean up\necho end\n", cwd=tmp_path)
    assert (tmp_path / "target").exists()
    assert result.stdout.splitlines() == ["start", "I was not allowed to.", "end"]
    refused = json.dumps(server.requests[-1].body["messages"][-1])
    assert "non-interactive" in refused
    # stderr says why, on the line of the call, not "failed: failed · 1 line".
    note = next(line for line in result.stderr.splitlines() if "✗" in line)
    assert note.startswith("[tool] ✗ not confirmed: ") and "deletes files" in note
    assert "failed: failed" not in result.stderr


def test_yes_approves_ask_but_not_dangerous(server: FakeServer, ai_env: dict[str, str],
                                            tmp_path: Path) -> None:
    (tmp_path / "keep").mkdir()
    server.script({"tools": tool("touch created-by-ai")}, {"text": "done"},
                  {"tools": tool("rm -rf keep")}, {"text": "refused"})
    assert run_swebash(["--yes", "-c", "? make a file"], ai_env, cwd=tmp_path).returncode == 0
    assert (tmp_path / "created-by-ai").exists()
    run_swebash(["--yes", "-c", "? delete keep"], ai_env, cwd=tmp_path)
    assert (tmp_path / "keep").exists()


def test_yes_does_not_run_a_program_the_classifier_does_not_know(
        server: FakeServer, ai_env: dict[str, str], tmp_path: Path) -> None:
    """An unknown program is dangerous for --yes (nothing says what it does); --yes-dangerous
    runs it, and so does a rule in rules.toml that vouches for it. Payload: touch."""
    tree = tmp_path / "tree"
    (tree / "bin").mkdir(parents=True)
    tool_file = tree / "bin" / "mytool"
    tool_file.write_text('#!/bin/sh\ntouch "$1"\n')
    tool_file.chmod(0o755)
    env = {**ai_env, "PATH": f"{tree / 'bin'}:{os.environ['PATH']}"}
    server.script({"tools": tool("mytool made-1")}, {"text": "refused"},
                  {"tools": tool("mytool made-2")}, {"text": "done"},
                  {"tools": tool("mytool made-3")}, {"text": "done"})
    result = run_swebash(["--yes", "-c", "? run it"], env, cwd=tree)
    assert not (tree / "made-1").exists()
    note = next(line for line in result.stderr.splitlines() if "✗" in line)
    assert "not a program the classifier knows" in note
    run_swebash(["--yes-dangerous", "-c", "? run it"], env, cwd=tree)
    assert (tree / "made-2").exists()
    rules = Path(os.environ["XDG_CONFIG_HOME"]) / "swebash" / "rules.toml"
    rules.parent.mkdir(parents=True, exist_ok=True)
    rules.write_text('[[rule]]\nprefix = ["mytool"]\ndecision = "allow"\n')
    assert run_swebash(["-c", "? run it"], env, cwd=tree).returncode == 0
    assert (tree / "made-3").exists()


def test_piped_stdin_is_context_for_c_question(server: FakeServer,
                                               ai_env: dict[str, str]) -> None:
    server.script({"text": "Add greeting function"})
    result = run_swebash(["-c", "? write a commit message"], ai_env,
                         stdin="+def greet():\n+    return 'hi'\n")
    assert result.returncode == 0 and "Add greeting function" in result.stdout
    user = json.dumps(server.requests[-1].body["messages"][-1])
    assert "def greet" in user


def test_provider_failure_is_one_line_and_nonzero(server: FakeServer,
                                                  ai_env: dict[str, str]) -> None:
    server.script({"status": 500, "message": "boom"})
    result = run_swebash(["-c", "? anything"], ai_env)
    assert result.returncode == 1
    assert "server error (500)" in result.stderr and "Traceback" not in result.stderr
    assert result.stderr.strip().count("\n") == 0


def test_translate_in_c_mode(server: FakeServer, ai_env: dict[str, str]) -> None:
    server.script({"text": "COMMAND: du -sh * | sort -h\nEXPLANATION: sizes, sorted"})
    result = run_swebash(["-c", "?? biggest things here"], ai_env)
    assert result.returncode == 0 and result.stdout == "du -sh * | sort -h\n"


def test_ai_autocomplete_ghost_text_accepted_with_right_arrow(spawn: Spawn, server: FakeServer,
                                                              ai_env: dict[str, str]) -> None:
    server.script({"text": "git status --short"})
    term = spawn(env={**ai_env, "SWEBASH_AI_AUTOCOMPLETE": "true"})
    term.wait_prompt()
    term.send("git st")
    term.wait_for(lambda t: "git status --short" in t.cursor_line(), what="ghost text")
    assert len(server.requests) == 1
    term.send("\x1b[C")  # right arrow accepts the suggestion
    term.send("\x1b[D")  # and moving left proves it is now real text, not a ghost
    term.wait_for(lambda t: t.screen.cursor.x == t.cursor_line().rstrip().index("--short") + 6,
                  what="accepted suggestion")


# --------------------------------------------------------------------------- what a person sees


def full_text(term: Term) -> list[str]:
    """Scrollback and screen of a Term whose screen is a pyte HistoryScreen."""
    screen = term.screen
    assert isinstance(screen, pyte.HistoryScreen)
    rows = ["".join(line[x].data for x in range(screen.columns)).rstrip()
            for line in screen.history.top]
    return rows + [row.rstrip() for row in screen.display]


def history_term(env: dict[str, str], cols: int, cwd: str | None = None) -> Term:
    term = Term(env, cols=cols, rows=30, cwd=cwd)
    term.screen = pyte.HistoryScreen(cols, 30, history=10_000, ratio=0.001)
    term.stream = pyte.ByteStream(term.screen)
    return term


@pytest.mark.parametrize("cols", [110, 50])
def test_a_long_streamed_answer_equals_one_render(term_env: dict[str, str], server: FakeServer,
                                                  ai_env: dict[str, str], cols: int) -> None:
    from tests.render.screen import LONG_ANSWER, render_once, replay

    server.script({"text": LONG_ANSWER, "chunks": -(-len(LONG_ANSWER) // 8), "delay": 0.02})
    # in /, so the prompt and the question fit on one row at 50 columns wherever the checkout is
    term = history_term({**term_env, **ai_env}, cols, cwd="/")
    try:
        term.wait_prompt()
        term.send("? why doesn't git push work\r")  # an apostrophe: sent at once, no `>`
        term.wait_text("That's all", timeout=60)
        term.wait_prompt(timeout=30)
        rows = full_text(term)
        while rows and not rows[-1]:
            rows.pop()
        expected = replay(render_once(LONG_ANSWER, cols, 30), cols, 30)
        start = rows.index(expected[0])  # the title, right below the question
        assert rows[start - 1].endswith("work")
        assert sum("? why doesn" in row for row in rows) == 1  # not doubled in scrollback
        answer = rows[start:len(rows) - 1]  # up to the next prompt
        while answer and not answer[-1]:
            answer.pop()
        assert answer == expected
        assert b"\x1b[?2026h" in term.raw  # frames are synchronized updates
    finally:
        term.close()


def test_translate_warns_about_a_dangerous_proposal(spawn: Spawn, server: FakeServer,
                                                    ai_env: dict[str, str],
                                                    tmp_path: Path) -> None:
    # The proposal is never run (no Enter is pressed); even so it only names a canary dir.
    (tmp_path / "canary").mkdir()
    server.script({"text": "COMMAND: rm -rf canary/*\nEXPLANATION: deletes the canary's files"},
                  {"text": "COMMAND: frobnicate --all\nEXPLANATION: a tool it does not know"})
    term = spawn(env=ai_env, cwd=str(tmp_path))
    term.wait_prompt()
    term.send("?? clean up files that don't matter\r")
    term.wait_text("dangerous")
    term.wait_for(lambda t: t.cursor_line().rstrip().endswith("# rm -rf canary/*"),
                  what="buffer")
    rows = term.text().splitlines()
    warning = next(i for i, row in enumerate(rows) if "dangerous" in row)
    assert rows[warning].startswith("⚠ dangerous: ")
    assert "deletes files recursively" in rows[warning]
    assert "rm -rf" not in rows[warning]  # the reasons do not repeat the command
    assert "rm -rf canary/*" in rows[warning + 1]  # the next prompt holds it, unrun
    term.send("\x03")  # abandon the line: nothing is run
    term.wait_prompt()
    assert (tmp_path / "canary").is_dir()
    # a program the classifier only does not know is no warning of danger (the person reads
    # and runs their own line; --yes is what "unknown" guards against)
    term.send("?? use frobnicate\r")
    term.wait_for(lambda t: t.cursor_line().rstrip().endswith("# frobnicate --all"),
                  what="second proposal")
    assert term.text().count("⚠") == 1
    term.send("\x03")
    term.wait_prompt()


def test_a_failing_tool_shows_a_cross_and_its_last_line(spawn: Spawn, server: FakeServer,
                                                        ai_env: dict[str, str],
                                                        tmp_path: Path) -> None:
    server.script({"tools": tool("cat missing-file.txt")}, {"text": "It is missing."})
    term = spawn(env=ai_env, cwd=str(tmp_path))
    term.run("? show me the file")
    screen = term.text()
    assert "✗ $ cat missing-file.txt · exit 1" in screen and "✓" not in screen
    assert "No such file or directory" in screen
    assert screen.index("$ cat missing-file.txt") < screen.index("No such file")


def test_a_dangerous_prompt_names_the_command_at_most_twice(spawn: Spawn, server: FakeServer,
                                                            ai_env: dict[str, str],
                                                            tmp_path: Path) -> None:
    (tmp_path / "build").mkdir()
    server.script({"tools": tool("rm -rf build")}, {"text": "Left it alone."})
    term = spawn(env=ai_env, cwd=str(tmp_path))
    term.wait_prompt()
    term.send("? clean the build\r")
    term.wait_text("[y/N]")
    assert term.text().count("rm -rf build") <= 2
    term.send("a")  # not offered at a dangerous prompt: says why and asks again
    term.wait_text("not offered")
    term.send("n")
    term.wait_text("Left it alone.")
    term.wait_prompt()
    assert (tmp_path / "build").exists()


def test_escape_sequences_from_the_model_never_reach_the_terminal(spawn: Spawn,
                                                                  server: FakeServer,
                                                                  ai_env: dict[str, str]) -> None:
    hostile = ("Look: \x1b]52;c;cm0gLXJmIH4=\x07 \x1b]8;;http://x.invalid\x1b\\link\x1b]8;;"
               "\x1b\\ \x1b[8mhidden\x1b[0m \x1b[2J end of answer.")
    server.script({"text": hostile, "chunks": 9})
    term = spawn(env=ai_env)
    term.run("? say something")
    assert "end of answer." in term.text()
    for sequence in (b"\x1b]52", b"\x1b]8;", b"\x1b[8m", b"\x1b[2J"):
        assert sequence not in term.raw


def test_edit_file_that_cannot_apply_is_not_asked_and_errs_once(spawn: Spawn,
                                                                server: FakeServer,
                                                                ai_env: dict[str, str],
                                                                tmp_path: Path) -> None:
    (tmp_path / "app.py").write_text("x = 1\n")
    edit = json.dumps({"path": "app.py", "old_text": "y = 2", "new_text": "y = 3"})
    server.script({"tools": [["edit_file", edit]]}, {"text": "The text was not there."})
    term = spawn(env=ai_env, cwd=str(tmp_path))
    term.run("? change y")
    screen = term.text()
    assert "[y/N" not in screen  # never asked about an edit that cannot apply
    assert screen.count("old_text not found") == 1
    assert "✗" in screen and (tmp_path / "app.py").read_text() == "x = 1\n"


def test_parallel_calls_are_each_labelled(spawn: Spawn, server: FakeServer,
                                          ai_env: dict[str, str], tmp_path: Path) -> None:
    calls = [["execute_command", json.dumps({"command": f"echo part{i}"})] for i in range(3)]
    server.script({"tools": calls}, {"text": "All three ran."})
    term = spawn(env=ai_env, cwd=str(tmp_path))
    term.run("? run three things")
    rows = term.text().splitlines()
    for i in range(3):
        header = next(n for n, row in enumerate(rows) if f"$ echo part{i} · " in row)
        assert rows[header].startswith("✓ $ echo part") and "exit 0" in rows[header]
        assert rows[header + 1] == f"  part{i}"  # its output right below its command
    assert not any(row.startswith(("╭", "│", "╰")) for row in rows)  # compact: no boxes


def test_compact_tools_parallel_results_clean_code_and_links(spawn: Spawn, server: FakeServer,
                                                             ai_env: dict[str, str],
                                                             tmp_path: Path) -> None:
    # Issue 18 in one session: a fast call's result is on screen while a slow one runs; the
    # answer's code block is on rows of its own with nothing around the code; a link keeps
    # its URL (no OSC 8 here: NO_COLOR, and xterm is not known to show them).
    calls = [["execute_command", json.dumps({"command": "sleep 3; echo slow"})],
             ["execute_command", json.dumps({"command": "echo fast"})]]
    answer = ("Both ran. To list it:\n\n```bash\nls -la /tmp/x\n```\n\n"
              "See the [packaging guide](https://packaging.python.org/en/latest/) for more.")
    server.script({"tools": calls}, {"text": answer, "chunks": 9})
    term = spawn(env=ai_env, cwd=str(tmp_path))
    term.wait_prompt()
    term.send("? run both\r")
    # the fast result and the slow call's live line together (the live line is redrawn just
    # after the result is printed: a read between the two frames sees only the first)
    term.wait_for(lambda t: "✓ $ echo fast" in t.text() and
                  "running $ sleep 3; echo slow" in t.text(), what="fast done, slow running")
    assert "✓ $ sleep" not in term.text()
    term.wait_text("packaging.python.org", timeout=30)
    term.wait_prompt()
    rows = term.text().splitlines()
    fast = next(i for i, row in enumerate(rows) if row.startswith("✓ $ echo fast"))
    slow = next(i for i, row in enumerate(rows) if row.startswith("✓ $ sleep 3"))
    assert fast < slow  # drawn in the order they finished
    label = rows.index("── bash")
    assert rows[label + 1:label + 3] == ["ls -la /tmp/x", "──"]  # the code, exactly
    link = "See the packaging guide (https://packaging.python.org/en/latest/) for more."
    assert link in rows
    assert b"\x1b]8;" not in term.raw


def test_the_status_of_a_question_is_what_dollar_question_mark_says(spawn: Spawn,
                                                                    server: FakeServer,
                                                                    ai_env: dict[str, str]) -> None:
    server.script({"status": 500, "message": "boom"}, {"text": "fine."})
    term = spawn(env=ai_env)
    term.run("? this one fails")
    term.run("echo status=$?")
    assert "status=1" in term.text()
    term.run("? this one works")
    term.run("echo status=$?")
    assert "status=0" in term.text()


def test_a_secret_exported_at_the_prompt_never_reaches_the_model(
        spawn: Spawn, server: FakeServer, ai_env: dict[str, str], tmp_path: Path) -> None:
    """swebash learned its secrets from its own environment at start; a token exported in the
    shell later is seen by the commands the AI runs, so it is redacted from what they print
    and from the terminal context (the export line itself) as well."""
    secret = "tok-" + "7f3a9c" * 4
    server.script({"tools": tool("printenv SERVICE_TOKEN; echo done-$((6*7))")},
                  {"text": "Printed it."})
    term = spawn(env=ai_env, cwd=str(tmp_path))
    term.run(f"export SERVICE_TOKEN={secret}")
    term.send("? show me my token\r")
    # printing a secret variable is dangerous (issue 16): a person says yes to it
    term.wait_text("[y/N]")
    assert "uses the secret variable SERVICE_TOKEN" in term.text()
    term.send("y")
    term.wait_text("Printed it.")
    term.wait_prompt()
    sent = json.dumps([request.body for request in server.requests])
    assert "done-42" in sent  # the tool's output did reach the model
    assert secret not in sent
    assert "[REDACTED:SERVICE_TOKEN]" in sent


def test_a_password_in_a_file_never_reaches_the_model(
        spawn: Spawn, server: FakeServer, ai_env: dict[str, str], tmp_path: Path) -> None:
    """Values given to secret-named keys are redacted wherever they are written: a compose
    file a tool reads, and a config printed at the prompt before the question (the terminal
    context). The rest of the file reaches the model as it is."""
    (tmp_path / "compose.yml").write_text(
        "services:\n  db:\n    image: postgres:16\n    environment:\n"
        "      POSTGRES_PASSWORD: Tr0ub4dor-3x\n      POSTGRES_URL: postgres://app:"
        "c0rrect-h0rse@db/app\n")
    (tmp_path / "app.env").write_text("STRIPE_KEY=rk_live_9f8e7d6c5b4a\nDEBUG=1\n")
    server.script({"tools": tool("cat compose.yml")}, {"text": "Read it."})
    term = spawn(env=ai_env, cwd=str(tmp_path))
    term.run("cat app.env")
    term.run("? what database does this use")
    assert "Read it." in term.text()
    sent = json.dumps([request.body for request in server.requests])
    assert "image: postgres:16" in sent and "DEBUG=1" in sent  # the rest is read as it is
    for value in ("Tr0ub4dor-3x", "c0rrect-h0rse", "rk_live_9f8e7d6c5b4a"):
        at = sent.find(value)
        assert at < 0, sent[max(0, at - 300):at + 40]
    assert "POSTGRES_PASSWORD: [REDACTED:value]" in sent
