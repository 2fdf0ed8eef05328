"""Tiny pty driver shared by the benchmarks (no pytest, no terminal emulator: raw bytes)."""

from __future__ import annotations

import os
import pty
import select
import signal
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SWEBASH = str(Path(sys.executable).parent / "swebash")
PROMPT_ENDS = (b"$ ", b"# ")


class Pty:
    def __init__(self, argv: list[str], env: dict[str, str] | None = None) -> None:
        self.out = b""
        self.started = time.monotonic()
        pid, fd = pty.fork()
        if pid == 0:
            os.execvpe(argv[0], argv, {**os.environ, **(env or {})})
        self.pid, self.fd = pid, fd

    def read_until(self, predicate: object, timeout: float = 10.0) -> float:
        """Seconds since spawn when ``predicate(output)`` first held."""
        assert callable(predicate)
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if predicate(self.out):
                return time.monotonic() - self.started
            ready, _, _ = select.select([self.fd], [], [], 0.005)
            if ready:
                try:
                    self.out += os.read(self.fd, 65536)
                except OSError:
                    break
        raise TimeoutError(f"output so far: {self.out[-300:]!r}")

    def send(self, data: bytes) -> None:
        os.write(self.fd, data)

    def close(self) -> None:
        """Hang up like a closing window (swebash removes its temp dir), then make sure."""
        try:
            os.kill(self.pid, signal.SIGHUP)
            deadline = time.monotonic() + 3
            while time.monotonic() < deadline:
                if os.waitpid(self.pid, os.WNOHANG)[0]:
                    break
                time.sleep(0.02)
            else:
                os.kill(self.pid, signal.SIGKILL)
                os.waitpid(self.pid, 0)
        except OSError:
            pass
        os.close(self.fd)


def prompt_shown(out: bytes) -> bool:
    return out.rstrip(b"\x1b[K0123456789;?hlm").endswith(PROMPT_ENDS) or any(
        out.endswith(end) for end in PROMPT_ENDS)


def median_ms(samples: list[float]) -> float:
    return statistics.median(samples) * 1000


def quiet_env(home: str) -> dict[str, str]:
    return {"HOME": home, "PROMPT_TOOLKIT_NO_CPR": "1", "TERM": "xterm", "NO_COLOR": "1",
            "PS1": "$ "}
