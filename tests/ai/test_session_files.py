"""Damaged conversation files: every field is checked on reading, a bad file is left out of
`ai sessions` / `ai resume` with one warning naming it (the good ones still listed and
resumable), and what a listing prints of a file is inert."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from swebash.ai.platform import AiPlatform
from swebash.ai.session_file import BadSessionFile, load_session
from swebash.ai.sessions import RecordedConversation, SessionStore
from swebash.config import SessionsConfig

META: dict[str, Any] = {"type": "meta", "version": 1, "cwd": "/proj", "started": 1763900000.0}
TURN: dict[str, Any] = {"type": "exchange", "time": 1763900001.0, "messages": [
    {"role": "user", "text": "how big is it"},
    {"role": "assistant", "text": "", "tool_calls": [
        {"id": "c1", "name": "filesystem", "arguments": "{}"}]},
    {"role": "tool", "call_id": "c1", "name": "filesystem", "content": "{}", "is_error": False},
    {"role": "assistant", "text": "small"}]}
BIG = "x" * 10_000_000  # a 10 MB field


def with_field(record: dict[str, Any], path: str, value: Any) -> dict[str, Any]:
    """``record`` (deep-copied) with the field at ``path`` ("messages.1.tool_calls") set."""
    copy = json.loads(json.dumps(record))
    *parents, last = path.split(".")
    target: Any = copy
    for key in parents:
        target = target[int(key)] if isinstance(target, list) else target[key]
    if isinstance(target, list):
        target[int(last)] = value
    elif value is DELETE:
        del target[last]
    else:
        target[last] = value
    return dict(copy)


DELETE = object()
NAN = float("nan")

# (what is wrong, meta, exchange) — each makes the whole file untrustworthy
BAD: list[tuple[str, dict[str, Any], dict[str, Any]]] = [
    ("started text", with_field(META, "started", "yesterday"), TURN),
    ("started null", with_field(META, "started", None), TURN),
    ("started 1e300", with_field(META, "started", 1e300), TURN),
    ("started NaN", with_field(META, "started", NAN), TURN),
    ("started -inf", with_field(META, "started", float("-inf")), TURN),
    ("started negative", with_field(META, "started", -5), TURN),
    ("started boolean", with_field(META, "started", True), TURN),
    ("started 400 digits", with_field(META, "started", 10 ** 400), TURN),
    ("started missing", with_field(META, "started", DELETE), TURN),
    ("cwd a number", with_field(META, "cwd", 7), TURN),
    ("cwd null", with_field(META, "cwd", None), TURN),
    ("cwd relative", with_field(META, "cwd", "proj"), TURN),
    ("cwd 10 MB", with_field(META, "cwd", "/" + BIG), TURN),
    ("cwd a list", with_field(META, "cwd", ["/proj"]), TURN),
    ("version text", with_field(META, "version", "1"), TURN),
    ("version from the future", with_field(META, "version", 2), TURN),
    ("messages text", META, with_field(TURN, "messages", "hello")),
    ("messages empty", META, with_field(TURN, "messages", [])),
    ("message a number", META, with_field(TURN, "messages.0", 5)),
    ("user text a number", META, with_field(TURN, "messages.0.text", 5)),
    ("user text 10 MB", META, with_field(TURN, "messages.0.text", BIG)),
    ("tool_calls text", META, with_field(TURN, "messages.1.tool_calls", "ls")),
    ("call id a number", META, with_field(TURN, "messages.1.tool_calls.0.id", 1)),
    ("call arguments an object", META,
     with_field(TURN, "messages.1.tool_calls.0.arguments", {"a": 1})),
    ("is_error text", META, with_field(TURN, "messages.2.is_error", "yes")),
    ("unknown role", META, with_field(TURN, "messages.3.role", "wizard")),
    ("opens with the assistant", META, with_field(TURN, "messages.0",
                                                  {"role": "assistant", "text": "hi"})),
    ("a result without its call", META, with_field(TURN, "messages.2.call_id", "c9")),
    ("exchange time NaN", META, with_field(TURN, "time", NAN)),
    ("exchange fields null", META, {"type": "exchange", "messages": None, "time": "soon"}),
]


def write(directory: Path, name: str, *records: Any) -> Path:
    directory.mkdir(parents=True, exist_ok=True)
    path = directory / name
    path.write_text("".join(json.dumps(r) + "\n" for r in records))
    return path


def platform(directory: Path, warnings: list[str]) -> AiPlatform:
    store = SessionStore(directory, SessionsConfig(), report=warnings.append)
    return AiPlatform(RecordedConversation(store, lambda: "/elsewhere"), store, None)


@pytest.mark.parametrize(("why", "meta", "turn"), BAD, ids=[b[0] for b in BAD])
def test_a_bad_field_skips_that_file_with_one_warning_and_keeps_the_rest(
        tmp_path: Path, why: str, meta: dict[str, Any], turn: dict[str, Any]) -> None:
    directory = tmp_path / "sessions"
    good = write(directory, "20250101-000000-aaaaaa.jsonl", META, TURN)
    bad = write(directory, "20250102-000000-bbbbbb.jsonl", meta, turn, turn)
    with pytest.raises(BadSessionFile):
        load_session(bad)
    warnings: list[str] = []
    shown = platform(directory, warnings)
    listing = shown.list_sessions()
    assert len(listing) == 1 and "/proj" in listing[0] and "how big is it" in listing[0]
    assert len(warnings) == 1 and str(bad) in warnings[0], warnings
    assert len(warnings[0]) < 300  # one line, not the 10 MB field
    assert "resumed the conversation" in shown.resume("1")
    assert shown.conversation.path == good
    assert shown.continue_last("/proj") is None


def test_a_line_that_is_not_an_object_or_not_first_a_meta_is_refused(tmp_path: Path) -> None:
    for records in ([META, [1, 2]], [TURN, META], [META, {"type": "wizardry"}], [TURN]):
        path = write(tmp_path, "x.jsonl", *records)
        with pytest.raises(BadSessionFile):
            load_session(path)


def test_torn_lines_anywhere_are_skipped_and_the_next_append_starts_a_new_line(
        tmp_path: Path) -> None:
    directory = tmp_path / "sessions"
    path = write(directory, "20250101-000000-aaaaaa.jsonl", META, TURN)
    with open(path, "ab") as handle:  # killed mid-write, then garbage and a deep nest
        handle.write(b"[" * 100_000 + b"\n\xff\xfe not json\n" + json.dumps(TURN).encode()
                     + b'\n{"type": "exchange", "messages": [{"role": "us')
    loaded = load_session(path)
    assert loaded.info.turns == 2 and not loaded.clean_end
    store = SessionStore(directory, SessionsConfig())
    conv = RecordedConversation(store, lambda: "/proj")
    assert conv.resume(loaded.info) is None
    conv.add_exchange(conv.exchanges[0])
    again = load_session(path)
    assert again.info.turns == 3 and again.clean_end  # the new exchange was not glued on


def test_a_huge_file_is_refused_without_reading_it(tmp_path: Path) -> None:
    path = write(tmp_path, "x.jsonl", META, TURN)
    with open(path, "ab") as handle:
        handle.truncate(70 << 20)  # sparse: 70 MB of NULs
    with pytest.raises(BadSessionFile, match="larger than 64 MB"):
        load_session(path)


def test_escape_sequences_in_cwd_and_question_are_shown_not_obeyed(tmp_path: Path) -> None:
    directory = tmp_path / "sessions"
    cwd = "/tmp/\x1b]52;c;ZWNobyBoaQ==\x07evil\u202etxt.sh"
    question = "\x1b[2J\x1b[31mwipe\x1b[0m the \u202escreen\r"
    write(directory, "20250101-000000-aaaaaa.jsonl", with_field(META, "cwd", cwd),
          with_field(TURN, "messages.0.text", question))
    warnings: list[str] = []
    shown = platform(directory, warnings)
    listing = "\n".join(shown.list_sessions())
    resumed = shown.resume("1")
    for text in (listing, resumed):
        assert "\x1b" not in text and "\u202e" not in text and "\x07" not in text
        assert "\r" not in text
        assert "\\x1b]52;c;ZWNobyBoaQ==\\x07evil\\u202etxt.sh" in text
        assert "\\x1b[2J\\x1b[31mwipe\\x1b[0m the \\u202escreen" in text
    assert not warnings
    odd = write(directory, "\x1b[31mred.jsonl", {"type": "meta"})
    shown.list_sessions()
    assert len(warnings) == 1 and "\x1b" not in warnings[0] and "\\x1b[31mred" in warnings[0]
    odd.unlink()


def test_an_unreadable_file_is_named_once(tmp_path: Path) -> None:
    directory = tmp_path / "sessions"
    write(directory, "20250101-000000-aaaaaa.jsonl", META, TURN)
    (directory / "20250102-000000-dir.jsonl").mkdir()  # read() fails: an OSError
    warnings: list[str] = []
    assert len(platform(directory, warnings).list_sessions()) == 1
    assert len(warnings) == 1 and "20250102-000000-dir.jsonl" in warnings[0]
