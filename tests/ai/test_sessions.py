"""Stored conversations: one JSONL file each, written as exchanges commit, torn lines skipped,
compaction markers honoured on resume, a size cap and a retention limit."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

from swebash.ai.compaction import needs_compaction
from swebash.ai.platform import AiPlatform
from swebash.ai.service import DefaultAiService
from swebash.ai.sessions import SUMMARY_QUESTION, RecordedConversation, SessionStore, read_session
from swebash.api import ChatRequest
from swebash.config import AiConfig, SessionsConfig
from swebash.providers.base import AssistantMessage, ToolCall, ToolResultMessage, UserMessage
from swebash.providers.fake import ScriptedProvider, Turn
from tests.ai.fakes import PatternRedactor, RuleGate, registry


def store(tmp_path: Path, **kw: int) -> SessionStore:
    return SessionStore(tmp_path / "sessions", SessionsConfig(**kw))  # type: ignore[arg-type]


def exchange(n: int, size: int = 10) -> list[UserMessage | AssistantMessage | ToolResultMessage]:
    call = ToolCall(f"c{n}", "filesystem", '{"path": "."}')
    return [UserMessage(f"question {n} " + "q" * size), AssistantMessage("", (call,)),
            ToolResultMessage(f"c{n}", "filesystem", '{"ok": true}'),
            AssistantMessage(f"answer {n}")]


def test_exchanges_are_written_as_they_commit_and_read_back(tmp_path: Path) -> None:
    conv = RecordedConversation(store(tmp_path), lambda: "/proj")
    assert conv.path is None  # no file for a conversation with nothing in it
    conv.add_exchange(exchange(1))
    assert conv.path is not None and conv.path.stat().st_mode & 0o777 == 0o600
    conv.add_exchange(exchange(2))
    loaded = read_session(conv.path)
    assert loaded is not None and loaded.exchanges == conv.exchanges
    assert loaded.info.cwd == "/proj" and loaded.info.turns == 2
    assert loaded.info.first_question.startswith("question 1")


def test_a_torn_last_line_is_skipped(tmp_path: Path) -> None:
    conv = RecordedConversation(store(tmp_path), lambda: "/proj")
    conv.add_exchange(exchange(1))
    assert conv.path is not None
    with open(conv.path, "a", encoding="utf-8") as handle:
        handle.write('{"type": "exchange", "messages": [{"role": "us')  # killed mid-write
    loaded = read_session(conv.path)
    assert loaded is not None and len(loaded.exchanges) == 1


def test_compaction_marker_gives_the_same_history_on_resume(tmp_path: Path) -> None:
    st = store(tmp_path)
    conv = RecordedConversation(st, lambda: "/proj")
    for n in range(1, 5):
        conv.add_exchange(exchange(n))
    conv.compact("- the user asked four things", keep=1)
    conv.add_exchange(exchange(5))
    assert conv.exchanges[0] == [UserMessage(SUMMARY_QUESTION),
                                 AssistantMessage("- the user asked four things")]
    again = RecordedConversation(st, lambda: "/elsewhere")
    info = st.sessions()[0]
    assert info.turns == 6  # 4 summarised (one kept, written again) + 1 kept + 1 new
    assert again.resume(info) is None
    assert again.messages() == conv.messages()
    again.add_exchange(exchange(6))  # a resumed conversation goes on in the same file
    assert again.path == conv.path and len(st.sessions()) == 1


def test_size_cap_rewrites_the_file_from_memory(tmp_path: Path) -> None:
    st = store(tmp_path, max_bytes=20_000)
    conv = RecordedConversation(st, lambda: "/proj", budget=8_000)
    for n in range(40):
        conv.add_exchange(exchange(n, size=900))
    assert conv.path is not None and conv.path.stat().st_size < 20_000 + 2_000
    loaded = read_session(conv.path)
    assert loaded is not None and loaded.exchanges[-1] == conv.exchanges[-1]
    assert loaded.info.cwd == "/proj"


def test_retention_keeps_the_newest(tmp_path: Path) -> None:
    st = store(tmp_path, keep=3)
    for n in range(5):
        conv = RecordedConversation(st, lambda: "/proj")
        conv.add_exchange(exchange(n))
        conv.path = conv.path.rename(conv.path.with_name(f"2026010{n}-000000-x.jsonl")) \
            if conv.path else None
    names = [p.name for p in st.files()]
    assert len(names) <= 4 and names[0].startswith("20260104")
    RecordedConversation(st, lambda: "/proj").add_exchange(exchange(9))
    assert len(st.files()) == 3


def test_platform_resume_list_and_continue(tmp_path: Path) -> None:
    st = store(tmp_path)
    first = RecordedConversation(st, lambda: "/a")
    first.add_exchange(exchange(1))
    platform = AiPlatform(RecordedConversation(st, lambda: "/b"), st, None)
    assert platform.continue_last("/b") == ("no earlier conversation in /b to continue; "
                                           "starting a new one")
    assert platform.continue_last("/a") is None
    assert platform.conversation.messages() == first.messages()
    listing = platform.list_sessions()
    assert listing[0].startswith("*  1") and "/a" in listing[0] and "question 1" in listing[0]
    assert "give a number from 1 to 1" in platform.resume("7")
    assert "resumed the conversation" in platform.resume("1")
    # "last" is the conversation before the current one; here the current one is the only one
    assert platform.resume("last") == "no earlier conversation to resume"


def test_disabled_store_writes_nothing(tmp_path: Path) -> None:
    st = SessionStore(tmp_path / "sessions", SessionsConfig(enabled=False))
    conv = RecordedConversation(st, lambda: "/proj")
    conv.add_exchange(exchange(1))
    assert not (tmp_path / "sessions").exists()
    assert "not stored" in AiPlatform(conv, st, None).list_sessions()[0]


def test_service_compacts_a_long_conversation_with_the_model(tmp_path: Path) -> None:
    st = store(tmp_path, compact_after_bytes=2_000)
    conv = RecordedConversation(st, lambda: "/proj", budget=60_000)
    for n in range(6):
        conv.add_exchange(exchange(n, size=500))
    assert needs_compaction(conv, 2_000)
    provider = ScriptedProvider([Turn("- earlier: six questions"), Turn("fresh answer")])
    svc = DefaultAiService(config=AiConfig(provider="openai", model="m"),
                           provider_factory=lambda _: provider, registry=registry(),
                           gate=RuleGate(), redactor=PatternRedactor(), conversation=conv,
                           compact_after_bytes=2_000)
    reply = asyncio.run(svc.chat(ChatRequest("next"))).reply
    assert reply == "fresh answer"
    assert "summarise" in provider.sent[0].system and provider.sent[0].tools == []
    sent = provider.sent[1].messages
    assert sent[0] == UserMessage(SUMMARY_QUESTION) and sent[1] == AssistantMessage(
        "- earlier: six questions")
    assert conv.path is not None
    kinds = [json.loads(line)["type"] for line in conv.path.read_text().splitlines()]
    assert kinds.count("compaction") == 1
    resumed = RecordedConversation(st, lambda: "/x")
    assert resumed.resume(st.sessions()[0]) is None and resumed.messages() == conv.messages()
