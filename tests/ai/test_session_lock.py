"""Pruning (`[sessions] keep`) never deletes a conversation a running swebash holds: not from
this process, not from several other processes starting conversations at once."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from swebash.ai.platform import AiPlatform
from swebash.ai.session_lock import LIVE_DIR, LiveMark, remove_unless_live
from swebash.ai.sessions import RecordedConversation, SessionStore
from swebash.config import SessionsConfig
from tests.ai.test_sessions import exchange

ROOT = str(Path(__file__).resolve().parents[2])


def store(directory: Path, keep: int = 1) -> SessionStore:
    return SessionStore(directory, SessionsConfig(keep=keep))


def test_a_held_conversation_survives_pruning_and_is_pruned_once_let_go(tmp_path: Path) -> None:
    directory = tmp_path / "sessions"
    live = RecordedConversation(store(directory), lambda: "/live")
    live.add_exchange(exchange(1))
    held = live.path
    assert held is not None
    for n in range(3):  # later runs, each starting a conversation with keep = 1
        RecordedConversation(store(directory), lambda: "/other").add_exchange(exchange(n))
    assert held.exists()
    live.add_exchange(exchange(2))  # still its file: the exchange lands there
    assert [i.turns for i in store(directory).sessions() if i.path == held] == [2]
    platform = AiPlatform(live, live.store, None)
    platform.close()  # the shell exits
    RecordedConversation(store(directory), lambda: "/other").add_exchange(exchange(9))
    assert not held.exists()
    assert len(store(directory).files()) == 1
    assert [p.name for p in (directory / LIVE_DIR).iterdir()] == []  # no lock files left


def test_resume_takes_the_hold_and_reset_lets_go(tmp_path: Path) -> None:
    directory = tmp_path / "sessions"
    first = RecordedConversation(store(directory, keep=5), lambda: "/a")
    first.add_exchange(exchange(1))
    first.release()
    assert first.path is not None
    other = RecordedConversation(store(directory, keep=5), lambda: "/b")
    info = other.store.sessions()[0]
    assert other.resume(info) is None
    assert not remove_unless_live(first.path)  # held by `other` now
    other.reset()
    assert remove_unless_live(first.path) and not first.path.exists()
    assert other.resume(info) == "it was deleted meanwhile"


def test_two_holders_of_one_conversation_keep_it_until_both_let_go(tmp_path: Path) -> None:
    path = tmp_path / "s" / "x.jsonl"
    path.parent.mkdir()
    path.write_text("{}\n")
    one, two = LiveMark(path, must_exist=True), LiveMark(path, must_exist=True)
    one.release()
    assert not remove_unless_live(path)
    two.release()
    assert remove_unless_live(path) and not path.exists()


RUNNER = """
import sys
from pathlib import Path
from swebash.ai.sessions import RecordedConversation, SessionStore
from swebash.config import SessionsConfig
from tests.ai.test_sessions import exchange
for n in range(12):
    conv = RecordedConversation(SessionStore(Path(sys.argv[1]), SessionsConfig(keep=1)),
                                lambda: "/run")
    conv.add_exchange(exchange(n))
    conv.add_exchange(exchange(n + 100))
    conv.release()
"""


def test_several_processes_pruning_at_once_never_take_a_held_one(tmp_path: Path) -> None:
    directory = tmp_path / "sessions"
    live = RecordedConversation(store(directory), lambda: "/live")
    live.add_exchange(exchange(1))
    runs = [subprocess.Popen([sys.executable, "-c", RUNNER, str(directory)], cwd=ROOT)
            for _ in range(4)]
    for n in range(2, 8):  # the live shell keeps writing meanwhile
        live.add_exchange(exchange(n))
    assert all(run.wait(120) == 0 for run in runs)
    assert live.path is not None and live.path.exists()
    mine = [i for i in store(directory).sessions() if i.path == live.path]
    assert len(mine) == 1 and mine[0].turns == 7
    last = RecordedConversation(store(directory), lambda: "/last")
    last.add_exchange(exchange(0))
    last.release()
    # keep = 1: the newest and the held one; no lock file left behind by the others
    assert {p.name for p in store(directory).files()} == {last.path.name, live.path.name}
    assert sorted(p.stem for p in (directory / LIVE_DIR).iterdir()) == [live.path.stem]
