"""Files swebash rewrites stay what the user made them: a symlink (stow, chezmoi) stays a link
and its target gets the new text, permissions stay, no temp file is left, and an append by
another process that waits for the rewrite lands in the new file, not in the replaced one."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

from swebash.ai.sessions import RecordedConversation, SessionStore
from swebash.config import SessionsConfig
from swebash.durable import append_whole, rewrite_atomic, rewrite_locked
from swebash.providers.base import AssistantMessage, UserMessage
from swebash.safety.rulesfile import append_rules, remove_rule


def linked(tmp_path: Path, name: str, text: str = "") -> tuple[Path, Path]:
    """A file ``name`` that is a symlink into a dotfiles repository."""
    repo = tmp_path / "dotfiles"
    repo.mkdir(exist_ok=True)
    target = repo / name
    target.write_text(text)
    link = tmp_path / "config" / name
    link.parent.mkdir(exist_ok=True)
    link.symlink_to(target)
    return link, target


def only(directory: Path) -> list[str]:
    return sorted(p.name for p in directory.iterdir())


def test_rewrite_follows_the_symlink_and_keeps_the_mode(tmp_path: Path) -> None:
    link, target = linked(tmp_path, "notes", "old\n")
    target.chmod(0o640)
    rewrite_atomic(link, b"new\n")
    assert link.is_symlink() and os.readlink(link) == str(target)
    assert target.read_text() == "new\n" and target.stat().st_mode & 0o777 == 0o640
    assert only(target.parent) == ["notes"]


def test_an_append_waiting_for_a_rewrite_lands_in_the_new_file(tmp_path: Path) -> None:
    path = tmp_path / "log"
    path.write_bytes(b"a\nb\n")
    appender: list[subprocess.Popen[bytes]] = []

    def change(data: bytes) -> bytes:
        # another process appends while this one holds the lock: it must wait, then find
        # that the file it locked was replaced, and append to the new one
        appender.append(subprocess.Popen([sys.executable, "-c", (
            "import sys; from pathlib import Path; from swebash.durable import append_whole;"
            "append_whole(Path(sys.argv[1]), b'from-the-other\\n')"), str(path)]))
        time.sleep(0.5)
        assert path.read_bytes() == b"a\nb\n"  # still waiting for the lock
        return data.replace(b"a\n", b"")

    rewrite_locked(path, change)
    assert appender[0].wait(10) == 0
    assert path.read_bytes() == b"b\nfrom-the-other\n"
    append_whole(path, b"c\n")
    assert path.read_bytes() == b"b\nfrom-the-other\nc\n"


def test_ai_rules_rm_on_a_symlinked_rules_toml(tmp_path: Path) -> None:
    link, target = linked(tmp_path, "rules.toml")
    append_rules(link, ['[[rule]]\nprefix = "make test"\n', '[[rule]]\nprefix = "ls -la"\n'])
    assert "removed rule 1" in remove_rule(link, 1)
    assert link.is_symlink() and os.readlink(link) == str(target)
    assert "ls -la" in target.read_text() and "make test" not in target.read_text()
    assert only(target.parent) == ["rules.toml"]


def test_a_symlinked_conversation_file_over_its_cap_stays_a_link(tmp_path: Path) -> None:
    store = SessionStore(tmp_path / "sessions", SessionsConfig(max_bytes=20_000))
    conv = RecordedConversation(store, lambda: "/proj", budget=8_000)
    conv.add_exchange([UserMessage("first"), AssistantMessage("one")])
    assert conv.path is not None
    repo = tmp_path / "dotfiles"
    repo.mkdir()
    target = repo / conv.path.name
    conv.path.rename(target)
    conv.path.symlink_to(target)
    for n in range(30):  # over max_bytes: the file is rewritten from memory
        conv.add_exchange([UserMessage(f"question {n} " + "q" * 900), AssistantMessage("a")])
    assert conv.path.is_symlink() and target.stat().st_size < 22_000
    assert only(repo) == [target.name]
