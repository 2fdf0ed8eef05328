"""The `ai` builtins say things right: `ai resume` / `ai resume last` mean the conversation
before this one, counts have their plural, and `ai help` names every command there is."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from swebash.api import ChatRequest
from swebash.host import builtins as ai_builtins
from swebash.providers.fake import Turn
from tests.host.test_builtins_platform import Host


@pytest.fixture
def host(tmp_path: Path) -> Iterator[Host]:
    made = Host(tmp_path, None)
    made.provider.turns = [Turn("a1"), Turn("b1"), Turn("b2"), Turn("c1")]
    yield made
    made.loop.close()


def ask(host: Host, question: str) -> None:
    host.run_sync(host.engine.chat(ChatRequest(question)))


def test_resume_last_is_the_conversation_before_this_one(
        host: Host, capsys: pytest.CaptureFixture[str]) -> None:
    ask(host, "older topic ALPHA")
    assert ai_builtins.run(host, "ai reset") == 0
    ask(host, "current topic BETA")  # asked in this shell: now the newest stored one
    capsys.readouterr()
    assert ai_builtins.run(host, "ai resume last") == 0
    out = capsys.readouterr().out
    assert "resumed" in out and "older topic ALPHA" in out
    messages = str(host.engine.conversation.messages())
    assert "ALPHA" in messages and "BETA" not in messages
    assert ai_builtins.run(host, "ai reset") == 0
    ask(host, "third topic GAMMA")
    capsys.readouterr()
    assert ai_builtins.run(host, "ai resume") == 0  # the default is the same: not GAMMA
    assert "current topic BETA" in capsys.readouterr().out


def test_resume_last_with_only_the_current_conversation(
        host: Host, capsys: pytest.CaptureFixture[str]) -> None:
    assert ai_builtins.run(host, "ai resume last") == 0
    assert "no stored conversations to resume" in capsys.readouterr().out
    ask(host, "the only one")
    assert ai_builtins.run(host, "ai resume last") == 0
    assert "no earlier conversation to resume" in capsys.readouterr().out


def test_counts_have_their_plural(host: Host, capsys: pytest.CaptureFixture[str]) -> None:
    ask(host, "one question")
    ai_builtins.run(host, "ai reset")
    ask(host, "two questions")
    ask(host, "and the second")
    capsys.readouterr()
    assert ai_builtins.run(host, "ai sessions") == 0
    rows = capsys.readouterr().out.splitlines()
    assert "  2 turns  " in rows[0] and "  1 turn   " in rows[1]
    assert "1 turns" not in "\n".join(rows)
    assert ai_builtins.run(host, "ai resume 2") == 0
    assert "(1 turn)" in capsys.readouterr().out


def test_stats_say_1_call() -> None:
    import io
    from contextlib import redirect_stdout

    from swebash.api import AiStats, ToolStats

    out = io.StringIO()
    with redirect_stdout(out):
        ai_builtins.print_stats(AiStats(1, 1, 1, 0, 0, {"ls": ToolStats(1, 1, 0, 4.0),
                                                          "cat": ToolStats(2, 2, 0, 4.0)}))
    text = out.getvalue()
    assert "1 call," in text and "2 calls," in text and "1 calls" not in text


def test_help_names_every_command() -> None:
    help_text = ai_builtins.HELP
    for name in ai_builtins.SUBCOMMANDS:
        assert f"ai {name}" in help_text, name
    for form in ("? QUESTION", "?? TASK", "?fix", "Ctrl-X Ctrl-F", "Alt-E"):
        assert form in help_text, form
