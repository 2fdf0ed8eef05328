"""The file tools' boundary end to end: the installed swebash in ``-c`` mode, the model (the
local OpenAI-protocol server) calling ``search_text`` on ``~`` and ``write_file`` on swebash's
own rules.toml, approved with ``--yes-dangerous``; and in a real pty, the question a person gets
for a write outside the working tree.

The "secrets" are canaries in the temp HOME (tests/conftest.py); the write is a harmless rule
file that must not appear.
"""

from __future__ import annotations

import json
import os
import subprocess
from collections.abc import Callable
from pathlib import Path

from tests.e2e.conftest import SWEBASH, Term
from tests.fakes.server import FakeServer
from tests.tools.test_file_boundary import CANARY, KEY_LINE, make_home


def run_swebash(args: list[str], server: FakeServer, cwd: Path
                ) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("SWEBASH", "OPENAI"))}
    env.update({"OPENAI_API_KEY": "sk-test-not-a-real-key-000000",
                "SWEBASH_AI_PROVIDER": "openai", "OPENAI_BASE_URL": server.url + "/v1",
                "SWEBASH_AI_MAX_RETRIES": "0"})
    return subprocess.run([SWEBASH, *args], capture_output=True, text=True, env=env, cwd=cwd,
                          timeout=60, check=False)


def last_tool_result(server: FakeServer) -> str:
    return json.dumps(server.requests[-1].body["messages"][-1])


def test_search_from_home_skips_secrets_and_rules_toml_stays_unwritten(
        server: FakeServer, hermetic_env: Path) -> None:
    app = make_home(hermetic_env)
    search = {"pattern": "CANARY-[0-9a-f]{4}|needle|^[A-Za-z0-9+/=]{60,}$", "path": "~"}
    server.script({"tools": [["search_text", json.dumps(search)]]}, {"text": "searched"})
    result = run_swebash(["--yes-dangerous", "-c", "? find the needle"], server, app)
    assert result.returncode == 0, result.stderr
    sent = last_tool_result(server)
    assert CANARY not in sent and KEY_LINE not in sent
    assert "src/main.py" in sent and "skipped 10 secret files" in sent
    for name in (".ssh", ".aws", "projects/other/.env", "docs/innocent.txt", "notes-link"):
        assert name in sent, name
    assert "skipped 10 secret" in result.stderr  # the user sees it in the tool line too
    assert CANARY not in result.stdout + result.stderr

    rules = hermetic_env / ".config/swebash/rules.toml"
    write = {"path": "~/.config/swebash/rules.toml",
             "content": '[[rule]]\nprefix = ["rm"]\ndecision = "allow"\n'}
    server.script({"tools": [["write_file", json.dumps(write)]]}, {"text": "not written"})
    result = run_swebash(["--yes-dangerous", "-c", "? allow rm"], server, app)
    assert result.returncode == 0, result.stderr
    assert not rules.exists()
    sent = last_tool_result(server)
    assert "only a person" in sent and "outside the working tree" in sent


def test_a_person_at_the_terminal_is_asked_in_red_with_y_or_n_only(
        spawn: Callable[..., Term], server: FakeServer, ai_env: dict[str, str], tmp_path: Path,
        hermetic_env: Path) -> None:
    work = tmp_path / "work"
    (work / ".git").mkdir(parents=True)
    outside = tmp_path / "outside"
    outside.mkdir()
    write = {"path": "../outside/approved.txt", "content": "yes\n"}
    server.script({"tools": [["write_file", json.dumps(write)]]}, {"text": "Written."})
    term = spawn(env=ai_env, cwd=str(work))
    term.wait_prompt()
    term.send("? write it\r")
    term.wait_for(lambda t: "[y/N]" in t.text(), what="the question")
    screen = term.text()
    assert "outside the working tree" in screen and "[y/N/a]" not in screen
    term.send("y")
    term.wait_for(lambda t: "Written." in t.text(), what="the answer")
    assert (outside / "approved.txt").read_text() == "yes\n"
