"""Answers you can steer, as a person sees them: whole multi-line proposals from `??`/`?fix`,
honest interrupts at y/N, and errors that tell the truth — the installed swebash in a pty, the
screen read through pyte, the model behind the local OpenAI-protocol server."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

from tests.e2e.conftest import Term
from tests.fakes.server import FakeServer

Spawn = Callable[..., Term]

LOOP = 'for f in *.txt; do\n  echo "seen-$f"\ndone'


def test_multi_line_proposal_is_whole_and_enter_runs_all_of_it(
        spawn: Spawn, server: FakeServer, ai_env: dict[str, str], tmp_path: Path,
        hermetic_env: Path) -> None:
    for name in ("a.txt", "b.txt"):
        (tmp_path / name).write_text("")
    server.script({"text": f"COMMAND:\n```bash\n{LOOP}\n```\nEXPLANATION: prints every name"})
    term = spawn(env=ai_env, cwd=str(tmp_path))
    term.wait_prompt()
    term.send("?? say each txt file\r")
    term.wait_for(lambda t: "done" in t.cursor_line(), what="the whole loop in the buffer")
    screen = term.text()
    assert "# prints every name" in screen
    assert 'echo "seen-$f"' in screen and "for f in *.txt; do" in screen
    assert "seen-a.txt" not in screen  # placed, not run
    term.send("\x1b[A\x05 edited")  # ↑ to the middle line, End, type: it is a buffer
    term.wait_for(lambda t: 'echo "seen-$f" edited' in t.text(), what="the edit")
    term.send("\r")
    term.wait_text("seen-b.txt edited")
    term.wait_prompt()
    screen = term.text()
    assert "seen-a.txt edited" in screen
    rows = screen.rstrip().split("\n")
    assert rows[-2] == "seen-b.txt edited" and rows[-1].rstrip().endswith(("$", "#"))
    term.run("echo next-line-runs")  # no continuation prompt was left to swallow it
    assert "\nnext-line-runs" in term.text()
    history = (hermetic_env / ".local/state/swebash/history").read_text()
    edited = LOOP.replace('"seen-$f"', '"seen-$f" edited')
    entry = "\n".join("+" + line for line in edited.split("\n")) + "\n"
    assert entry in history and history.count("+for f in") == 1  # one entry, whole


def test_fenced_fix_keeps_its_explanation(spawn: Spawn, server: FakeServer,
                                          ai_env: dict[str, str]) -> None:
    server.script({"text": "The command name is misspelled.\n\n```bash\necho fixed-it\n"
                           "echo and-more\n```\n\nBoth lines print."})
    term = spawn(env=ai_env)
    term.run("ehco fixed-it")
    term.wait_prompt()
    term.send("?fix\r")
    term.wait_for(lambda t: "echo and-more" in t.cursor_line(), what="the fix in the prompt")
    screen = term.text()
    assert "# The command name is misspelled." in screen and "# Both lines print." in screen
    assert "echo fixed-it" in screen
    request = json.dumps(server.requests[-1].body)
    assert "ehco fixed-it" in request


def tool(command: str) -> list[list[str]]:
    return [["execute_command", json.dumps({"command": command})]]


def test_ctrl_c_at_a_question_ends_the_turn_and_a_cut_tool_stays_visible(
        spawn: Spawn, server: FakeServer, ai_env: dict[str, str], tmp_path: Path) -> None:
    (tmp_path / "build").mkdir()
    server.script({"tools": tool("rm -rf build")}, {"text": "never requested"})
    term = spawn(env=ai_env, cwd=str(tmp_path))  # NO_COLOR=1 (the fixture)
    term.wait_prompt()
    term.send("? clean the build\r")
    term.wait_text("[y/N]")
    assert "⚠ DANGEROUS run: rm -rf build" in term.text()  # a word, not only red
    term.send("\x03")
    term.wait_text("stopped — the turn ends here")
    term.wait_prompt()
    assert len(server.requests) == 1  # the model was not asked again
    assert (tmp_path / "build").exists()
    assert "[130]" in term.cursor_line()
    # a tool cut by Ctrl-C while it runs stays on screen with its command
    server.replies.get_nowait()  # drop the unused reply
    server.script({"tools": tool("sleep 30")}, {"text": "Both were stopped."})
    term.send("? wait a while\r")
    term.wait_text("running $ sleep 30")
    term.send("\x03")
    term.wait_text("answer cancelled")
    term.wait_prompt()
    screen = term.text()
    assert "sleep 30" in screen.split("? wait a while")[-1] and "interrupted" in screen
    term.run("? what happened")
    term.wait_text("Both were stopped.")
    sent = json.dumps(server.requests[-1].body["messages"])
    assert "UserStopped" in sent and "stopped this turn at a confirmation" in sent
    assert "Interrupted" in sent and "sleep 30" in sent


def test_errors_tell_the_truth(spawn: Spawn, server: FakeServer, ai_env: dict[str, str]) -> None:
    server.script(*[{"status": 500, "retry_after": 0.4}] * 3,
                  {"text": "Answer after three retries."},
                  {"status": 429, "error_type": "insufficient_quota",
                   "error_code": "insufficient_quota",
                   "message": "You exceeded your current quota, please check your plan."},
                  {"text": "The first part was seen and then", "chunks": 4, "cut_after": 4},
                  {"text": "Noted."})
    term = spawn(env={**ai_env, "SWEBASH_AI_MAX_RETRIES": "3"})
    term.wait_prompt()
    term.send("? first\r")
    term.wait_text("retry 2 in")  # the notice is one live line while it waits
    assert term.text().count("retry") == 1
    term.wait_text("Answer after three retries.")
    term.wait_prompt()
    assert "retry" not in term.text()  # gone once the answer started
    term.run("? second")
    screen = term.text()
    assert "out of quota or credit (429 insufficient_quota)" in screen
    assert "rate limited" not in screen and len(server.requests) == 5  # not retried
    term.run("? third")
    term.wait_text("broke off")
    term.run("? fourth")
    cut = next(m for m in server.requests[-1].body["messages"]
               if m["role"] == "assistant" and "first part" in (m["content"] or ""))
    assert cut["content"].startswith("The first part was seen")
    assert "[this answer was cut off here:" in cut["content"]


def test_a_killed_mcp_server_shows_exited_and_comes_back_quietly_and_builtins(
        spawn: Spawn, server: FakeServer, ai_env: dict[str, str], hermetic_env: Path,
        tmp_path: Path) -> None:
    import os
    import signal

    from tests.e2e.test_platform_e2e import configure_mcp, gone

    pidfile = tmp_path / "mcp.pid"
    configure_mcp(hermetic_env, pidfile)
    echo = [["mcp__srv__echo", '{"text": "hello"}']]
    server.script({"tools": echo}, {"text": "First call answered."},
                  {"tools": echo}, {"text": "Second call answered."})
    term = spawn(env=ai_env, cwd=str(tmp_path))
    term.run("? call the server")
    term.wait_text("First call answered.")
    first = int(pidfile.read_text())
    os.kill(first, signal.SIGKILL)
    term.wait_for(lambda t: gone(pidfile), what="the server to die")
    term.run("ai mcp")
    assert "srv  exited" in term.text() and "srv  ready" not in term.text()
    term.run("? call it again")
    term.wait_text("Second call answered.")
    assert "exited during the call" not in term.text()
    assert "echo: hello" in json.dumps(server.requests[-1].body["messages"][-1])
    assert int(pidfile.read_text()) != first
    # the ai builtins around it say things right
    term.run("ai sessions")
    assert "  2 turns  " in term.text()
    term.run("ai resume last")  # the only conversation is this one: nothing earlier
    assert "no earlier conversation to resume" in term.text()
    term.run("ai help")
    assert "?fix [HINT]" in term.text()


def test_a_multi_line_proposal_in_c_mode_is_printed_whole(server: FakeServer,
                                                          ai_env: dict[str, str]) -> None:
    from tests.e2e.test_ai_e2e import run_swebash

    server.script({"text": f"Loop over them:\n```bash\n{LOOP}\n```\nEach name is printed."})
    result = run_swebash(["-c", "?? say each txt file"], ai_env)
    assert result.returncode == 0 and result.stdout == LOOP + "\n"
    assert result.stderr == "# Loop over them:\n# Each name is printed.\n"


def test_ctrl_c_at_the_network_question_ends_the_turn(
        spawn: Spawn, server: FakeServer, ai_env: dict[str, str], tmp_path: Path) -> None:
    # The sandbox's proxy asks about a new domain from its own thread while the command
    # waits: Ctrl-C there stops the turn like at any other y/N — the command is cut and stays
    # on screen with its mark, and the model is not asked again.
    from tests.safety.sandbox_fixtures import WebServer, available

    if available("bwrap") is not None and available("landlock") is not None:
        import pytest

        pytest.skip("no sandbox backend works on this machine")
    web = WebServer({"/": b"never fetched"})
    command = f"curl -sS -m 30 http://ask.localhost:{web.port}/"
    server.script({"tools": tool(command)}, {"text": "never requested"})
    try:
        term = spawn(env={**ai_env, "SWEBASH_AI_TOOLS_CONFIRM": "false"}, cwd=str(tmp_path))
        term.wait_prompt()
        term.send("? fetch it\r")
        # the gate asks first: a loopback name reaches this machine's own services
        term.wait_for(lambda t: "DANGEROUS" in t.text(), what="the gate's question")
        term.send("y")
        term.wait_for(lambda t: "reach ask.localhost?" in t.text(), what="the domain question")
        term.send("\x03")
        term.wait_text("stopped — the turn ends here")
        term.wait_prompt(timeout=10)  # not after curl's 30 s
    finally:
        web.close()
    screen = term.text().split("? fetch it")[-1]
    assert "curl -sS -m 30" in screen and "interrupted" in screen
    assert "[130]" in term.cursor_line()
    assert len(server.requests) == 1 and web.hits == []


def test_code_in_colour_copies_clean_and_esc_at_a_question_ends_the_turn(
        term_env: dict[str, str], server: FakeServer, ai_env: dict[str, str],
        tmp_path: Path) -> None:
    # In colour (truecolor, as most terminals are) a code block's rows hold exactly the code:
    # no cell has a background, no row starts with a pad. Esc at a y/N stops the turn as Ctrl-C.
    (tmp_path / "build").mkdir()
    code = "def f(x):\n    return x + 1"
    server.script({"text": f"Like this:\n\n```python\n{code}\n```\n\nand `ls /nope` inline."},
                  {"tools": tool("rm -rf build")}, {"text": "never requested"})
    env = {**term_env, **ai_env, "COLORTERM": "truecolor"}
    env.pop("NO_COLOR")
    term = Term(env, cwd=str(tmp_path))
    try:
        term.run("? show me")
        rows = term.text().splitlines()
        label = rows.index("── python")
        assert rows[label + 1:label + 4] == [*code.split("\n"), "──"]
        inline = next(n for n, row in enumerate(rows) if row.startswith("and ls /nope"))
        for y in (label + 1, label + 2, inline):
            assert {cell.bg for cell in term.screen.buffer[y].values()} <= {"default"}
        assert any(cell.fg != "default" for cell in term.screen.buffer[label + 1].values())
        term.send("? clean the build\r")
        term.wait_text("[y/N]")
        term.send("\x1b")
        term.wait_text("stopped — the turn ends here")
        term.wait_prompt()
        assert len(server.requests) == 2 and (tmp_path / "build").exists()
        assert "[130]" in term.cursor_line()
    finally:
        term.close()
