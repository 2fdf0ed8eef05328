"""Shared pieces of the sandbox tests: a canary world in tmp_path, a TCP listener on 127.0.0.1,
and one way to run a command through the real ``execute_command`` tool.

Every payload is harmless (cat, touch, echo, a connect to our own listener) and aims at canary
files inside the test's temp dir; HOME is a temp dir (tests/conftest.py), so the "secrets" are
canaries too.
"""

from __future__ import annotations

import asyncio
import json
import os
import socket
import subprocess
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from swebash.config import SandboxConfig, ToolConfig
from swebash.safety import sandbox_bwrap, sandbox_landlock
from swebash.safety.sandbox import OsSandbox
from swebash.tools.base import ToolContext
from swebash.tools.exec import ExecuteCommandTool

CANARY = "CANARY-7f3a"
PREPARED = False  # run(): in a sandbox prepared ahead of time (the "bwrap-prepared" backend)


@dataclass
class World:
    home: Path
    work: Path  # a git working tree (the writable root)
    outside: Path  # a directory next to it: readable, never writable
    env: dict[str, str]


def make_world(tmp_path: Path) -> World:
    home = Path(os.environ["HOME"])
    for rel in (".ssh/id_ed25519", ".aws/credentials", ".netrc", ".bash_history"):
        path = home / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(f"{CANARY} {rel}\n")
    (home / ".ssh/id_ed25519.pub").write_text("ssh-ed25519 AAAA public\n")
    work = tmp_path / "work"
    (work / ".git/hooks").mkdir(parents=True)
    (work / ".git/config").write_text("[core]\n")
    (work / "src").mkdir()
    (work / "src/app.py").write_text("print('hello')\n")
    (work / ".env").write_text(f"TOKEN={CANARY}\n")
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "canary.txt").write_text(f"{CANARY} outside\n")
    env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": str(home),
           "TMPDIR": os.environ.get("TMPDIR", "/tmp"), "LANG": "C.UTF-8"}
    return World(home, work, outside, env)


def available(backend: str) -> str | None:
    """None when ``backend`` works on this machine, else why not (for a skip message)."""
    if backend == "off":
        return None
    if backend == "bwrap":
        return sandbox_bwrap.probe(False)
    return None if sandbox_landlock.abi_version() >= 4 else "no Landlock ABI >= 4 here"


def make_sandbox(world: World, backend: str, *, network: str = "off",
                 mode: str = "auto", allow: tuple[str, ...] = (),
                 state_dir: Path | None = None) -> OsSandbox:
    """``backend`` "off" is the sandbox switched off (still supervised)."""
    if backend == "off":
        mode, backend = "off", "auto"
    config = world.home / ".config"
    return OsSandbox(SandboxConfig(mode=mode, backend=backend, network=network,
                                   allow_domains=allow),
                     home=str(world.home), environ=world.env,
                     protect=(config / "swebash", world.home / ".local/state/swebash"),
                     state_dir=state_dir)


def run(command: str, world: World, sandbox: OsSandbox | None, *,
        cwd: Path | None = None, timeout: int = 20, keep: bool = False) -> dict[str, Any]:
    """Run ``command`` through the real tool; the parsed result plus ``blocked``. The sandbox
    is closed afterwards unless ``keep``."""
    ctx = ToolContext(cwd=str(cwd or world.work), env=world.env, config=ToolConfig(),
                      sandbox=sandbox)

    async def go() -> dict[str, Any]:
        output = await ExecuteCommandTool().execute(
            {"command": command, "timeout_seconds": timeout}, ctx)
        result: dict[str, Any] = json.loads(output.content)
        result["blocked"] = output.sandbox_blocked
        return result

    try:
        if not (PREPARED and sandbox is not None and sandbox.backend() == "bwrap"):
            return asyncio.run(go())
        used = prepare(sandbox, world, cwd or world.work)
        result = asyncio.run(go())
        assert sandbox.supervisor().prepared_used == used + 1, "not run in the prepared sandbox"
        return result
    finally:
        if sandbox is not None and not keep:
            sandbox.close()


def prepare(sandbox: OsSandbox, world: World, cwd: Path) -> int:
    """Run a command in ``cwd`` and wait until the supervisor has lent the helper that builds
    its sandbox again; how many commands have used a prepared one so far."""
    process = sandbox.spawn(["true"], str(cwd), world.env)
    process.communicate()
    sandbox.finished(process)
    supervisor = sandbox.supervisor()
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        link = supervisor._link
        if link is not None and link.spare is not None:
            break
        time.sleep(0.01)
    return supervisor.prepared_used


def waiters(cwd: Path) -> list[int]:
    """The waiting sandboxes prepared in ``cwd`` (other tests may run beside this one): the
    waiter itself, not bubblewrap, whose command line names it too."""
    found = []
    for pid in processes_with("sandbox_waiter import main"):
        try:
            exe = os.path.basename(os.readlink(f"/proc/{pid}/exe"))
            if not exe.startswith("bwrap") and \
                    os.readlink(f"/proc/{pid}/cwd") == str(cwd.resolve()):
                found.append(pid)
        except OSError:
            continue
    return found


def wait_for_waiter(cwd: Path) -> None:
    deadline = time.monotonic() + 10
    while not waiters(cwd) and time.monotonic() < deadline:
        time.sleep(0.01)
    assert waiters(cwd), f"no sandbox prepared in {cwd}"


def processes_with(marker: str) -> list[int]:
    """Pids of processes whose command line holds ``marker``."""
    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/cmdline", "rb") as handle:
                if marker.encode() in handle.read():
                    found.append(int(entry))
        except OSError:
            continue
    return found


def wait_gone(marker: str, seconds: float = 10.0) -> list[int]:
    """Wait (bounded) for every process holding ``marker`` to end; the ones still there."""
    deadline = time.monotonic() + seconds
    while (left := processes_with(marker)) and time.monotonic() < deadline:
        time.sleep(0.05)
    return left


class Listener:
    """A TCP listener on 127.0.0.1 that counts the connections it accepted."""

    def __init__(self) -> None:
        self.sock = socket.socket()
        self.sock.bind(("127.0.0.1", 0))
        self.sock.listen(8)
        self.sock.settimeout(0.2)
        self.port = self.sock.getsockname()[1]
        self.accepted = 0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._serve, daemon=True)
        self._thread.start()

    def _serve(self) -> None:
        while not self._stop.is_set():
            try:
                conn, _ = self.sock.accept()
            except OSError:
                continue
            self.accepted += 1
            conn.close()

    def close(self) -> None:
        self._stop.set()
        self._thread.join()
        self.sock.close()


def listener() -> Iterator[Listener]:
    server = Listener()
    try:
        yield server
    finally:
        server.close()


def connect_command(port: int) -> str:
    return ("python3 -c \"import socket; socket.create_connection(('127.0.0.1', "
            f"{port}), timeout=3); print('connected')\"")


def git_available() -> bool:
    try:
        return subprocess.run(["git", "--version"], capture_output=True,
                              check=False).returncode == 0
    except OSError:
        return False


class WebServer:
    """A small HTTP server on 127.0.0.1 serving fixed paths (an index, a wheel, a page)."""

    def __init__(self, routes: dict[str, bytes]) -> None:
        import http.server

        pages = routes
        self.hits: list[str] = []
        hits = self.hits

        class Handler(http.server.BaseHTTPRequestHandler):
            def do_GET(self) -> None:
                hits.append(self.path)
                body = pages.get(self.path)
                self.send_response(200 if body is not None else 404)
                kind = "text/html" if self.path.endswith("/") else "application/octet-stream"
                self.send_header("Content-Type", kind)
                self.send_header("Content-Length", str(len(body or b"")))
                self.end_headers()
                self.wfile.write(body or b"")

            def log_message(self, *args: object) -> None:
                pass

        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.port = self.server.server_address[1]
        self._thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self._thread.start()

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()


def tiny_wheel(name: str = "canarypkg", version: str = "1.0") -> tuple[str, bytes]:
    """(file name, bytes) of a pure-Python wheel that installs ``name/__init__.py``."""
    import base64
    import hashlib
    import io
    import zipfile

    files = {f"{name}/__init__.py": f"VALUE = {CANARY!r}\n".encode(),
             f"{name}-{version}.dist-info/METADATA":
                 f"Metadata-Version: 2.1\nName: {name}\nVersion: {version}\n".encode(),
             f"{name}-{version}.dist-info/WHEEL":
                 b"Wheel-Version: 1.0\nGenerator: test\nRoot-Is-Purelib: true\nTag: py3-none-any\n"}
    record = ""
    for path, data in files.items():
        digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
        record += f"{path},sha256={digest},{len(data)}\n"
    record += f"{name}-{version}.dist-info/RECORD,,\n"
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        for path, data in files.items():
            archive.writestr(path, data)
        archive.writestr(f"{name}-{version}.dist-info/RECORD", record)
    return f"{name}-{version}-py3-none-any.whl", buffer.getvalue()
