"""Waiting on a stalled model server (issue 19).

* Ctrl-C → prompt while the server is silent, and while it trickles one byte at a time, in the
  installed swebash on a pty — started normally and started with SIGINT ignored (`trap "" INT;
  exec swebash`, as a background launch does). Target < 1 s (bash gives its prompt back at once).
* How long `swebash -c '? …'` takes to fail on a trickle with the default settings (the old
  figure for a silent server was 247 s: the read timeout once per retry).
"""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.dirname(HERE))

from _pty import SWEBASH, Pty, quiet_env  # noqa: E402

from tests.fakes.server import FakeServer  # noqa: E402

STALLS = {"silent": {"silent": True}, "trickle": {"text": "x" * 2000, "trickle": 0.5}}


def ai_env(server: FakeServer, home: str) -> dict[str, str]:
    return {**quiet_env(home), "OPENAI_API_KEY": "sk-bench-000000000000",
            "OPENAI_BASE_URL": server.url + "/v1", "SWEBASH_AI_PROVIDER": "openai"}


def ctrl_c_to_prompt(server: FakeServer, home: str, stall: dict[str, object],
                     ignored: bool) -> float:
    server.script(stall)
    seen = len(server.requests)
    argv = (["/bin/bash", "-c", f'trap "" INT; exec {SWEBASH}'] if ignored else [SWEBASH])
    term = Pty(argv, ai_env(server, home))
    try:
        term.read_until(lambda out: b"\x1b[?2004h" in out)  # the line editor is live
        term.send(b"? are you there\r")
        deadline = time.monotonic() + 20
        while len(server.requests) == seen and time.monotonic() < deadline:
            time.sleep(0.005)
        time.sleep(0.3)  # well into the wait
        mark = len(term.out)
        sent = time.monotonic()
        term.send(b"\x03")
        term.read_until(lambda out: b"\x1b[?2004h" in out[mark:], timeout=30)  # editor live
        return time.monotonic() - sent
    finally:
        term.close()


def c_fails_on_trickle(server: FakeServer, home: str) -> tuple[float, int]:
    server.script(*[STALLS["trickle"]] * 4)
    env = {**os.environ, **ai_env(server, home)}
    for name in ("SWEBASH_AI_TIMEOUT", "SWEBASH_AI_DEADLINE", "SWEBASH_AI_MAX_RETRIES"):
        env.pop(name, None)
    started = time.monotonic()
    done = subprocess.run([SWEBASH, "-c", "? are you there"], env=env, capture_output=True,
                          timeout=900, check=False)
    return time.monotonic() - started, done.returncode


def main() -> None:
    server = FakeServer().start()
    try:
        with tempfile.TemporaryDirectory() as home:
            for name, stall in STALLS.items():
                for ignored in (False, True):
                    runs = [ctrl_c_to_prompt(server, home, stall, ignored) for _ in range(3)]
                    how = "started with SIGINT ignored" if ignored else "started normally"
                    print(f"Ctrl-C → prompt, {name} server, {how}: "
                          f"{statistics.median(runs) * 1000:.0f} ms median of 3 "
                          f"(target < 1000 ms)")
            seconds, status = c_fails_on_trickle(server, home)
            print(f"-c on a 2 byte/s trickle, default settings: fails after {seconds:.1f} s "
                  f"(exit {status}; SWEBASH_AI_TIMEOUT defaults to 60 s; was never, and 247 s "
                  f"for a silent server)")
    finally:
        server.stop()


if __name__ == "__main__":
    main()
