"""Waiting on a model server as a person meets it: Ctrl-C always gives the prompt back (also when
swebash was started with SIGINT ignored, as `cmd &` in a script does), and `-c` gives up on a
server that sends nothing useful after the configured timeout, in one line, without retrying."""

from __future__ import annotations

import subprocess
from collections.abc import Callable

import pytest

from tests.e2e.conftest import SWEBASH, Term
from tests.fakes.server import FakeServer

Spawn = Callable[..., Term]


@pytest.mark.parametrize("stall", [{"silent": True}, {"text": "x" * 400, "trickle": 0.2}],
                         ids=["silent", "trickle"])
def test_ctrl_c_cancels_a_stalled_answer_when_started_with_sigint_ignored(
        stall: dict[str, object], server: FakeServer, ai_env: dict[str, str],
        term_env: dict[str, str]) -> None:
    server.script(stall, {"text": "Second answer."})
    # `trap "" INT` then exec: swebash starts with SIGINT ignored, as a background launch does
    term = Term({**term_env, **ai_env}, ["-c", f'trap "" INT; exec {SWEBASH}'],
                program="/bin/bash")
    try:
        term.wait_prompt()
        term.send("? are you there\r")
        term.wait_for(lambda t: len(server.requests) == 1, 15, "the request")
        term.send("\x03")
        term.wait_prompt(timeout=10)
        term.run("? again")
        assert "Second answer." in term.text()
        assert "Traceback" not in term.text()
    finally:
        term.close()


@pytest.mark.parametrize("stall", [{"silent": True}, {"keepalive": 0.1},
                                   {"text": "x" * 400, "trickle": 0.2}],
                         ids=["silent", "keepalives", "trickle"])
def test_c_gives_up_after_the_timeout_in_one_line(stall: dict[str, object],
                                                  server: FakeServer, ai_env: dict[str, str],
                                                  term_env: dict[str, str]) -> None:
    server.script(stall, stall, stall, stall)
    env = {**term_env, **ai_env, "SWEBASH_AI_TIMEOUT": "1.5", "SWEBASH_AI_MAX_RETRIES": "3"}
    done = subprocess.run([SWEBASH, "-c", "? are you there"], env=env, capture_output=True,
                          text=True, timeout=60)
    assert done.returncode == 1
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and "sent nothing useful for 1.5 s (SWEBASH_AI_TIMEOUT)" in lines[0], \
        done.stderr
    assert len(server.requests) == 1  # not retried: the same wait again would double it


def test_piped_question_with_invalid_utf8_is_answered(server: FakeServer,
                                                      ai_env: dict[str, str],
                                                      term_env: dict[str, str]) -> None:
    server.script({"text": "answered"})
    done = subprocess.run([SWEBASH], input=b"? what is caf\xe9 \xff\n", env={**term_env, **ai_env},
                          capture_output=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert b"answered" in done.stdout and b"surrogates" not in done.stderr
    assert "caf\ufffd \ufffd" in str(server.requests[-1].body)


def test_c_refuses_a_redirect_to_another_host(server: FakeServer, ai_env: dict[str, str],
                                              term_env: dict[str, str]) -> None:
    other = FakeServer().start()
    try:
        server.script({"redirect": other.url + "/v1/chat/completions"})
        done = subprocess.run([SWEBASH, "-c", "? my private question"],
                              env={**term_env, **ai_env}, capture_output=True, text=True,
                              timeout=60)
    finally:
        other.stop()
    assert done.returncode == 1
    (line,) = done.stderr.strip().splitlines()
    assert "redirected the request to" in line and "not followed" in line
    assert other.requests == []
