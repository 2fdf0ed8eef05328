"""AGENTS.md files: git root down to the cwd, root first; CLAUDE.md/GEMINI.md fallbacks; the
user's own file; a visible budget; redaction; read afresh for each question."""

from __future__ import annotations

from pathlib import Path

from swebash.ai.instructions import load_instructions
from swebash.ai.service import DefaultAiService
from swebash.config import AiConfig
from swebash.providers.fake import ScriptedProvider
from tests.ai.fakes import FakeTerminal, PatternRedactor, RuleGate, registry


def project(tmp_path: Path) -> Path:
    root = tmp_path / "repo"
    (root / ".git").mkdir(parents=True)
    (root / "a" / "b").mkdir(parents=True)
    (root / "AGENTS.md").write_text("ROOT RULES\n")
    (root / "a" / "CLAUDE.md").write_text("CLAUDE IN A\n")
    (root / "a" / "GEMINI.md").write_text("GEMINI IN A (not used: CLAUDE.md comes first)\n")
    (root / "a" / "b" / "AGENTS.md").write_text("B RULES\n")
    (root / "a" / "b" / "CLAUDE.md").write_text("not used: AGENTS.md exists here\n")
    return root


def test_root_first_with_fallbacks_and_the_user_file(tmp_path: Path) -> None:
    root = project(tmp_path)
    user = tmp_path / "user-AGENTS.md"
    user.write_text("MY OWN RULES\n")
    found = load_instructions(str(root / "a" / "b"), user, 32768)
    assert [Path(f.path).name for f in found.files] == ["user-AGENTS.md", "AGENTS.md",
                                                        "CLAUDE.md", "AGENTS.md"]
    text = found.text
    assert (text.index("MY OWN RULES") < text.index("ROOT RULES") < text.index("CLAUDE IN A")
            < text.index("B RULES"))
    assert "not used" not in text and not found.cut
    assert "SOME TEXT WAS CUT" not in found.describe()


def test_outside_git_only_the_cwd_counts(tmp_path: Path) -> None:
    (tmp_path / "AGENTS.md").write_text("PARENT\n")
    (tmp_path / "here").mkdir()
    (tmp_path / "here" / "AGENTS.md").write_text("HERE\n")
    found = load_instructions(str(tmp_path / "here"), None, 32768)
    assert "HERE" in found.text and "PARENT" not in found.text


def test_budget_keeps_the_nearest_files_whole_and_cuts_the_farthest(tmp_path: Path) -> None:
    root = project(tmp_path)
    (root / "AGENTS.md").write_text("R" * 100)
    user = tmp_path / "user-AGENTS.md"
    user.write_text("MY OWN RULES\n")
    found = load_instructions(str(root / "a" / "b"), user, 105)
    assert found.cut
    used = [(Path(f.path).name if f.path == str(user) else Path(f.path).parent.name, f.used,
             f.size, f.skipped) for f in found.files]
    # b (the cwd) and a whole, the root cut to what is left, the user's file left out
    assert used == [("user-AGENTS.md", 0, 13, True), ("repo", 85, 100, False),
                    ("a", 12, 12, False), ("b", 8, 8, False)]
    assert "B RULES" in found.text and "CLAUDE IN A" in found.text
    assert "R" * 85 + "\n[… cut: over the instructions budget]" in found.text
    text = found.text  # still shown root first, so the most specific rules come last
    assert text.index("RRR") < text.index("CLAUDE IN A") < text.index("B RULES")
    description = found.describe()
    assert "SOME TEXT WAS CUT" in description and "cut to 85 of 100 bytes" in description
    assert "left out: over budget" in description
    notice = found.cut_notice()
    assert f"{root / 'AGENTS.md'} cut to 85 of 100 bytes" in notice
    assert f"{user} left out" in notice and "B RULES" not in notice


def test_the_question_says_once_that_instructions_were_cut(tmp_path: Path) -> None:
    import asyncio

    from swebash.api import ChatRequest, Notice
    from swebash.config import ToolConfig

    root = project(tmp_path)
    (root / "AGENTS.md").write_text("R" * 100)
    cfg = AiConfig(provider="openai", model="m", instructions_budget=50,
                   tools=ToolConfig(enable_fs=False, enable_exec=False, enable_web=False))
    svc = DefaultAiService(config=cfg, provider_factory=lambda _: ScriptedProvider(),
                           registry=registry(cfg.tools), gate=RuleGate(),
                           redactor=PatternRedactor(),
                           terminal=FakeTerminal(where=str(root / "a" / "b")))

    def notices() -> list[str]:
        async def go() -> list[str]:
            return [e.text async for e in svc.chat_stream(ChatRequest("q"))
                    if isinstance(e, Notice)]
        return asyncio.run(go())

    first = notices()
    assert len(first) == 1 and "cut to 30 of 100 bytes" in first[0]
    assert notices() == []  # said once
    (root / "AGENTS.md").write_text("short\n")
    assert notices() == []  # nothing cut now
    (root / "AGENTS.md").write_text("R" * 100)
    assert len(notices()) == 1  # cut again: said again


def test_secrets_are_redacted_and_edits_apply_at_once(tmp_path: Path) -> None:
    root = project(tmp_path)
    svc = DefaultAiService(config=AiConfig(provider="openai", model="m"),
                           provider_factory=lambda _: ScriptedProvider(), registry=registry(),
                           gate=RuleGate(), redactor=PatternRedactor(),
                           terminal=FakeTerminal(where=str(root / "a" / "b")))
    (root / "AGENTS.md").write_text("use key sk-ABCDEFGHIJKLMNOPQRS\n")
    context = svc.describe_context()
    assert "sk-ABCDEFGHIJKLMNOPQRS" not in context and "[REDACTED:openai-key]" in context
    assert "Project instructions (" in context and str(root / "AGENTS.md") in context
    (root / "AGENTS.md").write_text("NEW ROOT RULES\n")
    assert "NEW ROOT RULES" in svc.system_prompt("")
