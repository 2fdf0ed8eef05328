"""A ShellSession whose user terminal is a pipe (keys in) and a file (screen out), so the
session tests run anywhere; the e2e tests drive a real terminal."""

from __future__ import annotations

import os
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from swebash.shell.session import ShellSession


class Harness:
    def __init__(self, session: ShellSession, screen: Path, keys: int) -> None:
        self.session = session
        self.screen = screen
        self.keys = keys

    def run(self, line: str) -> tuple[int, str]:
        start = self.screen.stat().st_size
        record = self.session.run(line)
        return record.exit_status, self.screen.read_bytes()[start:].decode()

    def press(self, data: bytes, after: float) -> None:
        threading.Timer(after, lambda: os.write(self.keys, data)).start()


@pytest.fixture
def shell(tmp_path: Path, hermetic_env: Path) -> Iterator[Harness]:
    rc = hermetic_env / ".swebashrc"
    rc.write_text("greet() { echo \"hello $1\"; }\n_mycomp() { COMPREPLY=(alpha beta); }\n"
                  "complete -F _mycomp mytool\nmytool() { :; }\n")
    session = ShellSession.start(rcfile=rc, cwd=str(tmp_path))
    screen = tmp_path / "screen"
    screen.write_bytes(b"")
    out_fd = os.open(screen, os.O_WRONLY | os.O_APPEND)
    keys_read, keys_write = os.pipe()
    session.stdin_fd, session.stdout_fd = keys_read, out_fd
    session.wait_ready()
    yield Harness(session, screen, keys_write)
    session.close()
    for fd in (out_fd, keys_read, keys_write):
        os.close(fd)
