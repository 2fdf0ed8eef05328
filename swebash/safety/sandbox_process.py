"""swebash's end of the supervisor (``sandbox_supervisor``): start it, ask it for processes.

The supervisor is started once per swebash process, lazily (the first command, or the warm-up
after the first prompt), as ``python -I`` with the standard library only. A reader thread takes
its messages — a command started, failed to start, or ended (with its status and the writes
the audit saw refused) — and completes the matching ``SupervisedProcess``. Closing the socket
(``close()``, or swebash dying however it dies) makes the supervisor end every command.
"""

from __future__ import annotations

import contextlib
import errno
import json
import os
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import IO, Any

from swebash.safety import sandbox_wire as wire
from swebash.safety.sandbox_confine import Confinement

START_TIMEOUT = 15.0
REPLY_TIMEOUT = 15.0


@dataclass(frozen=True)
class Netns:
    """The proxy's network namespace (bubblewrap): a listener on its loopback."""

    listener: socket.socket
    port: int
    paths: tuple[str, str]  # /proc/HOLDER/ns/user and …/net, for launchers


class SupervisedProcess:
    """A command started by the supervisor; ``Popen``'s vocabulary where it applies."""

    def __init__(self, supervisor: Supervisor, ident: int, stdout: IO[bytes],
                 stderr: IO[bytes]) -> None:
        self.supervisor = supervisor
        self.id = ident
        self.pid = 0
        self.stdout: IO[bytes] | None = stdout
        self.stderr: IO[bytes] | None = stderr
        self.returncode: int | None = None
        self.denied: tuple[str, ...] = ()  # writes the sandbox refused (its audit)
        self.started = time.monotonic()
        self.ended: float | None = None
        self._reply = threading.Event()
        self._done = threading.Event()
        self._error: OSError | None = None

    def poll(self) -> int | None:
        return self.returncode

    def wait(self, timeout: float | None = None) -> int:
        if not self._done.wait(timeout):
            raise subprocess.TimeoutExpired("sandboxed command", timeout or 0)
        assert self.returncode is not None
        return self.returncode

    def kill(self) -> None:
        """End the command and everything it started, now."""
        if self.returncode is None:
            self.supervisor.kill(self.id)

    def communicate(self) -> tuple[bytes, bytes]:
        out = self.stdout.read() if self.stdout is not None else b""
        err = self.stderr.read() if self.stderr is not None else b""
        self.wait()
        self.close_pipes()
        return out, err

    def close_pipes(self) -> None:
        for pipe in (self.stdout, self.stderr):
            if pipe is not None:
                with contextlib.suppress(OSError):
                    pipe.close()

    # the reader thread's side
    def _started(self, pid: int) -> None:
        self.pid = pid
        self._reply.set()

    def _failed(self, error: OSError) -> None:
        self._error = error
        self._exited(127, ())
        self._reply.set()

    def _exited(self, status: int, denied: Sequence[str]) -> None:
        self.denied = tuple(denied)
        self.ended = time.monotonic()
        self.returncode = status
        self._done.set()


class Supervisor:
    """One supervisor process for this swebash; thread-safe."""

    def __init__(self, *, netns: bool = False) -> None:
        self.want_netns = netns
        self.netns: Netns | None = None
        self.netns_error = ""
        self._lock = threading.Lock()
        self._send_lock = threading.Lock()
        self._sock: socket.socket | None = None
        self._proc: subprocess.Popen[bytes] | None = None
        self._pending: dict[int, SupervisedProcess] = {}
        self._next = 0
        self._ready = threading.Event()

    # ------------------------------------------------------------------ lifecycle

    def start(self) -> None:
        """Start the supervisor unless it runs; raises OSError when it cannot start."""
        with self._lock:
            if self._sock is not None:
                ours = None  # started (maybe by another thread, still starting): wait below
            else:
                ours = self._launch()
        if ours is not None:
            threading.Thread(target=self._read, args=(ours,), name="swebash-supervisor",
                             daemon=True).start()
        if not self._ready.wait(START_TIMEOUT):
            self.close()
            raise OSError(errno.ETIMEDOUT, "the sandbox supervisor did not start")

    def _launch(self) -> socket.socket:
        """Start the process (under the lock); its socket, for the reader thread."""
        ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        ours.set_inheritable(False)
        parent = os.path.dirname(os.path.dirname(os.path.dirname(
            os.path.abspath(wire.__file__))))
        boot = (f"import sys; sys.path.insert(0, {parent!r}); "
                "from swebash.safety.sandbox_supervisor import main; main()")
        options = json.dumps({"netns": self.want_netns})
        try:
            self._proc = subprocess.Popen(
                [sys.executable, "-I", "-c", boot, str(theirs.fileno()), options],
                pass_fds=(theirs.fileno(),), stdin=subprocess.DEVNULL,
                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                start_new_session=True, close_fds=True)
        finally:
            theirs.close()
        self._ready.clear()
        self._sock = ours
        return ours

    def close(self) -> None:
        """End every command and the supervisor (idempotent)."""
        with self._lock:
            sock, proc = self._sock, self._proc
            self._sock = self._proc = None
        if sock is not None:
            with contextlib.suppress(OSError):
                sock.shutdown(socket.SHUT_RDWR)
            sock.close()
        if proc is not None:
            with contextlib.suppress(subprocess.TimeoutExpired):
                proc.wait(3)
        if self.netns is not None:
            self.netns.listener.close()
            self.netns = None

    @property
    def pid(self) -> int | None:
        return self._proc.pid if self._proc is not None else None

    # ------------------------------------------------------------------ commands

    def spawn(self, argv: Sequence[str], cwd: str, env: Mapping[str, str],
              confine: Confinement, write_map: Mapping[str, Any] | None = None,
              ignore_exe: Sequence[str] = (), net: Mapping[str, Any] | None = None
              ) -> SupervisedProcess:
        """Start ``argv`` (output on pipes, stdin /dev/null, own session), confined."""
        self.start()
        out_r, out_w = os.pipe()
        err_r, err_w = os.pipe()
        with self._lock:
            self._next += 1
            ident = self._next
            proc = SupervisedProcess(self, ident, os.fdopen(out_r, "rb", buffering=0),
                                     os.fdopen(err_r, "rb", buffering=0))
            self._pending[ident] = proc
        message = {"op": "spawn", "id": ident, "argv": list(argv), "cwd": cwd,
                   "env": dict(env), "confine": confine.to_json(),
                   "write_map": dict(write_map) if write_map else None,
                   "ignore_exe": list(ignore_exe), "net": dict(net) if net else None}
        try:
            self._send(message, [out_w, err_w])
        except OSError:
            proc.close_pipes()
            raise
        finally:
            os.close(out_w)
            os.close(err_w)
        if not proc._reply.wait(REPLY_TIMEOUT):
            proc.close_pipes()
            raise OSError(errno.ETIMEDOUT, "the sandbox supervisor did not answer")
        if proc._error is not None:
            proc.close_pipes()
            raise proc._error
        return proc

    def kill(self, ident: int) -> None:
        with contextlib.suppress(OSError):
            self._send({"op": "kill", "id": ident}, [])

    def _send(self, message: dict[str, Any], fds: list[int]) -> None:
        sock = self._sock
        if sock is None:
            raise OSError(errno.EPIPE, "the sandbox supervisor is not running")
        with self._send_lock:
            wire.send(sock, message, fds)

    # ------------------------------------------------------------------ the reader thread

    def _read(self, sock: socket.socket) -> None:
        while True:
            try:
                message, fds = wire.receive(sock)
            except (OSError, ValueError):
                message, fds = None, []
            if message is None:
                break
            self._dispatch(message, fds)
        # the supervisor is gone: so are its commands
        with self._lock:
            pending, self._pending = self._pending, {}
            if self._sock is sock:
                self._sock = None
        for proc in pending.values():
            if not proc._reply.is_set():
                proc._failed(OSError(errno.EPIPE, "the sandbox supervisor ended"))
            elif proc.returncode is None:
                proc._exited(-9, ())
        self._ready.set()

    def _dispatch(self, message: dict[str, Any], fds: list[int]) -> None:
        op = message.get("op")
        if op == "ready":
            if "netns_port" in message and fds:
                holder = int(message["holder"])
                self.netns = Netns(socket.socket(fileno=fds.pop(0)), int(message["netns_port"]),
                                   (f"/proc/{holder}/ns/user", f"/proc/{holder}/ns/net"))
            self.netns_error = str(message.get("netns_error", ""))
            self._ready.set()
        for fd in fds:
            os.close(fd)
        with self._lock:
            proc = self._pending.get(int(message.get("id", 0)))
        if proc is None:
            return
        if op == "started":
            proc._started(int(message["pid"]))
        elif op == "error":
            proc._failed(OSError(int(message.get("errno") or 0) or errno.EPERM,
                                 str(message.get("message", "cannot start"))))
            with self._lock:
                self._pending.pop(proc.id, None)
        elif op == "exit":
            proc._exited(int(message["status"]), message.get("denied") or ())
            with self._lock:
                self._pending.pop(proc.id, None)
