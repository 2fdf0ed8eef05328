"""A person at a terminal: the installed swebash in a real pty (pexpect), the screen read
through a terminal emulator (pyte), keys typed one string at a time."""

from __future__ import annotations

import os
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pexpect
import pyte
import pytest

from tests.fakes.server import FakeServer

SWEBASH = str(Path(sys.executable).parent / "swebash")


class Term:
    def __init__(self, env: dict[str, str], args: list[str] | None = None, rows: int = 30,
                 cols: int = 110, cwd: str | None = None, program: str = SWEBASH) -> None:
        self.screen = pyte.Screen(cols, rows)
        self.stream = pyte.ByteStream(self.screen)
        self.raw = b""
        self.child = pexpect.spawn(program, args or [], env=env, dimensions=(rows, cols),
                                   cwd=cwd)

    def pump(self, timeout: float = 0.05) -> None:
        try:
            data = self.child.read_nonblocking(65536, timeout)
        except (pexpect.TIMEOUT, pexpect.EOF):
            return
        self.raw += data
        self.stream.feed(data)

    def text(self) -> str:
        return "\n".join(line.rstrip() for line in self.screen.display)

    def cursor_line(self) -> str:
        return str(self.screen.display[self.screen.cursor.y])

    def wait_for(self, check: Callable[[Term], bool], timeout: float = 15.0,
                 what: str = "condition") -> float:
        started = time.monotonic()
        while True:
            self.pump()
            if check(self):
                return time.monotonic() - started
            if time.monotonic() - started > timeout:
                raise AssertionError(f"timed out waiting for {what}; screen:\n{self.text()}")
            if not self.child.isalive():
                self.pump()
                if check(self):
                    return time.monotonic() - started
                raise AssertionError(f"swebash exited waiting for {what}; screen:\n"
                                     f"{self.text()}")

    def at_prompt(self) -> bool:
        line = self.cursor_line()[: self.screen.cursor.x]
        return line.endswith(("$ ", "# "))

    def wait_prompt(self, timeout: float = 15.0) -> float:
        return self.wait_for(Term.at_prompt, timeout, "the prompt")

    def wait_text(self, needle: str, timeout: float = 15.0) -> float:
        return self.wait_for(lambda t: needle in t.text(), timeout, repr(needle))

    def send(self, keys: str) -> None:
        self.child.send(keys)

    def run(self, line: str, timeout: float = 15.0) -> None:
        """Type ``line`` + Enter at the prompt and wait for the next prompt."""
        self.wait_prompt()
        head = line[:12]

        def echoed(t: Term) -> int:  # rows where the prompt shows the typed line
            return sum(1 for row in t.screen.display
                       if f"$ {head}" in row or f"# {head}" in row)

        seen = echoed(self)
        self.send(line + "\r")
        self.wait_for(lambda t: echoed(t) > seen and t.at_prompt(), timeout,
                      f"the prompt after {line!r}")

    def exit_status(self, timeout: float = 10.0) -> int:
        self.child.expect(pexpect.EOF, timeout=timeout)
        self.child.close()
        status = self.child.exitstatus
        return -1 if status is None else int(status)

    def close(self) -> None:
        if self.child.isalive():
            self.child.terminate(force=True)


@pytest.fixture
def term_env(hermetic_env: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items()
           if not k.startswith(("SWEBASH_", "OPENAI", "ANTHROPIC", "GEMINI", "OLLAMA"))}
    env.update({"PROMPT_TOOLKIT_NO_CPR": "1", "TERM": "xterm-256color", "LANG": "C.UTF-8",
                "HOME": str(hermetic_env), "NO_COLOR": "1",
                "SWEBASH_SYSTEM_DIR": os.environ["SWEBASH_SYSTEM_DIR"]})
    return env


@pytest.fixture
def spawn(term_env: dict[str, str]) -> Iterator[Callable[..., Term]]:
    terms: list[Term] = []

    def make(args: list[str] | None = None, env: dict[str, str] | None = None,
             cwd: str | None = None) -> Term:
        term = Term({**term_env, **(env or {})}, args, cwd=cwd)
        terms.append(term)
        return term

    yield make
    for term in terms:
        term.close()


@pytest.fixture
def ai_env(server: FakeServer) -> dict[str, str]:
    """The environment that points swebash at the local OpenAI-protocol server (no retries)."""
    return {"OPENAI_API_KEY": "sk-test-not-a-real-key-000000", "SWEBASH_AI_PROVIDER": "openai",
            "OPENAI_BASE_URL": server.url + "/v1", "SWEBASH_AI_MAX_RETRIES": "0"}
