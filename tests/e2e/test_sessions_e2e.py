"""Stored conversations with the installed swebash: a shell's conversation outlives `-c` runs
beside it that prune (`[sessions] keep = 1`), and damaged files are named, not fatal."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

from tests.e2e.conftest import Term
from tests.e2e.test_ai_e2e import run_swebash
from tests.fakes.server import FakeServer

Spawn = Callable[..., Term]


def sessions_dir(home: Path) -> Path:
    return home / ".local" / "state" / "swebash" / "sessions"


def test_a_live_shells_conversation_survives_c_runs_that_prune(
        spawn: Spawn, server: FakeServer, ai_env: dict[str, str], hermetic_env: Path,
        tmp_path: Path) -> None:
    config = hermetic_env / ".config" / "swebash"
    config.mkdir(parents=True, exist_ok=True)
    (config / "config.toml").write_text("[sessions]\nkeep = 1\n")
    server.script({"text": "Noted: OSPREY."})
    term = spawn(env=ai_env, cwd=str(tmp_path))
    term.run("? remember OSPREY")
    term.wait_text("Noted: OSPREY.")
    mine = [p for p in sessions_dir(hermetic_env).glob("*.jsonl")]
    assert len(mine) == 1
    for n in range(3):  # other runs beside the shell, each starting a conversation
        server.script({"text": f"side answer {n}"})
        side = run_swebash(["-c", f"? side question {n}"], ai_env, cwd=tmp_path)
        assert side.returncode == 0, side.stderr
    assert mine[0].exists()
    server.script({"text": "Still here."})
    term.run("? still there?")
    term.wait_text("Still here.")
    sent = json.dumps(server.requests[-1].body["messages"])
    assert "remember OSPREY" in sent and "side question" not in sent
    listing = run_swebash(["-c", "ai sessions"], ai_env, cwd=tmp_path).stdout
    assert "remember OSPREY" in listing and "  2 turns" in listing
    term.send("exit\r")
    assert term.exit_status() == 0
    server.script({"text": "after"})
    assert run_swebash(["-c", "? after"], ai_env, cwd=tmp_path).returncode == 0
    assert not mine[0].exists()  # let go at exit: pruned like any other


def test_damaged_files_are_named_once_and_the_good_ones_listed(
        ai_env: dict[str, str], hermetic_env: Path, tmp_path: Path) -> None:
    directory = sessions_dir(hermetic_env)
    directory.mkdir(parents=True)
    turn = {"type": "exchange", "time": 1.0,
            "messages": [{"role": "user", "text": "\x1b]0;owned\x07good question"},
                         {"role": "assistant", "text": "a"}]}
    for name, started, cwd in (("a-good", 1763900000.0, "/work/\x1b[31mred"),
                               ("b-text", "yesterday", "/x"), ("c-null", None, "/x"),
                               ("d-huge", 1e300, "/x")):
        meta = {"type": "meta", "version": 1, "cwd": cwd, "started": started}
        (directory / f"{name}.jsonl").write_text(
            json.dumps(meta) + "\n" + (json.dumps(turn) + "\n") * 3)
    result = run_swebash(["-c", "ai sessions"], ai_env, cwd=tmp_path)
    assert result.returncode == 0 and "Traceback" not in result.stderr
    assert "internal error" not in result.stderr
    warnings = result.stderr.splitlines()
    assert len(warnings) == 3, result.stderr
    for name in ("b-text", "c-null", "d-huge"):
        assert sum(name in w for w in warnings) == 1
    assert result.stdout.count("\n") == 1 and "3 turns" in result.stdout
    assert "\x1b" not in result.stdout + result.stderr
    assert "/work/\\x1b[31mred" in result.stdout and "\\x1b]0;owned\\x07good" in result.stdout
    resumed = run_swebash(["-c", "ai resume 1"], ai_env, cwd=tmp_path)
    assert "resumed the conversation" in resumed.stdout and len(
        resumed.stderr.splitlines()) == 3
