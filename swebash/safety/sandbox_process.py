"""swebash's end of the supervisor (``sandbox_supervisor``): start it, ask it for processes.

The supervisor is started once per swebash process, lazily (the first command, or the warm-up
after the first prompt), as ``python -I`` with the standard library only. A reader thread takes
its messages — a command started, failed to start, or ended (with its status and the writes
the audit saw refused) — and completes the matching ``SupervisedProcess``. Closing the socket
(``close()``, or swebash dying however it dies) makes the supervisor end every command.

A supervisor that died (killed, out of memory) is started again by the next command. Its death
is known from its process (``_Link.dead``), not from its socket: the helpers it forked hold the
socket until they have ended its commands and said so, so for a moment a command's record has
ended while the socket still looks open — a command sent then would go nowhere.
"""

from __future__ import annotations

import contextlib
import errno
import json
import os
import socket
import subprocess
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
        self.prepared = False  # it ran in a sandbox built ahead of time (bubblewrap)
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
    def _started(self, pid: int, prepared: bool = False) -> None:
        self.pid = pid
        self.prepared = prepared
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


class _Link:
    """One run of the supervisor process: its socket, the process, the commands it was asked
    for. A restarted supervisor is a new link, so what the old one's reader thread does when
    it ends (fail its commands, wake who waits for it) never reaches the new one's."""

    def __init__(self, sock: socket.socket, proc: subprocess.Popen[bytes]) -> None:
        self.sock = sock
        self.proc = proc
        self.pending: dict[int, SupervisedProcess] = {}
        self.ready = threading.Event()  # said ready, or ended
        self.ended = False  # its reader saw the end of the socket
        # (pid, channel) of the helper the supervisor forked for the next command: a request
        # goes straight to it, then the supervisor is told it was taken
        self.spare: tuple[int, socket.socket] | None = None

    def dead(self) -> bool:
        """The process has exited. Its socket can still look open for a moment: the helpers it
        forked hold it until they have ended the commands (and said so)."""
        return self.proc.poll() is not None


class Supervisor:
    """One supervisor process for this swebash (started again when it died); thread-safe."""

    def __init__(self, *, netns: bool = False, offline: bool = False) -> None:
        self.want_netns = netns
        self.want_offline = offline
        self.netns: Netns | None = None
        self.netns_error = ""
        self.offline = False  # a shared namespace for network "off" exists (bubblewrap)
        self._lock = threading.RLock()  # (re-entered: start() hangs up a dead link under it)
        self._send_lock = threading.Lock()
        self._link: _Link | None = None
        self._next = 0
        # bubblewrap: the helper lent next builds the last command's sandbox at once, and the
        # next request with that same confinement finds it built (sandbox_command.Prepared)
        self.prepare = True
        self.prepared_used = 0  # commands that found their sandbox built
        self._prepare_for: dict[str, Any] | None = None

    # ------------------------------------------------------------------ lifecycle

    def start(self) -> _Link:
        """Start the supervisor unless it runs (again, when it died); its link. Raises OSError
        when it cannot start."""
        with self._lock:
            link, fresh = self._link, False
            if link is not None and link.dead():
                self._link = None
                self._hang_up(link)  # its reader ends, failing what it still had
                link = None
            if link is None:
                link, fresh = self._launch(), True
                self._link = link
        if fresh:
            threading.Thread(target=self._read, args=(link,), name="swebash-supervisor",
                             daemon=True).start()
        if not link.ready.wait(START_TIMEOUT):
            self.close()
            raise OSError(errno.ETIMEDOUT, "the sandbox supervisor did not start")
        return link

    def _launch(self) -> _Link:
        """Start the process (under the lock)."""
        ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        ours.set_inheritable(False)
        options = json.dumps({"netns": self.want_netns, "offline": self.want_offline})
        try:
            proc = subprocess.Popen(
                [*wire.python_main("sandbox_supervisor"), str(theirs.fileno()), options],
                pass_fds=(theirs.fileno(),), stdin=subprocess.DEVNULL,
                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                start_new_session=True, close_fds=True)
        except BaseException:
            ours.close()
            raise
        finally:
            theirs.close()
        return _Link(ours, proc)

    def _hang_up(self, link: _Link) -> None:
        self._drop_spare(link)  # it reads end of file and exits
        with contextlib.suppress(OSError):
            link.sock.shutdown(socket.SHUT_RDWR)

    def _drop_spare(self, link: _Link) -> None:
        with self._lock:
            spare, link.spare = link.spare, None
        if spare is not None:
            spare[1].close()

    def close(self) -> None:
        """End every command and the supervisor (idempotent)."""
        with self._lock:
            link, self._link = self._link, None
        if link is not None:
            self._hang_up(link)  # the supervisor reads end of file; the reader closes it
            with contextlib.suppress(subprocess.TimeoutExpired):
                link.proc.wait(3)
        if self.netns is not None:
            self.netns.listener.close()
            self.netns = None

    @property
    def pid(self) -> int | None:
        link = self._link
        return link.proc.pid if link is not None else None

    # ------------------------------------------------------------------ commands

    def spawn(self, argv: Sequence[str], cwd: str, env: Mapping[str, str],
              confine: Confinement, write_map: Mapping[str, Any] | None = None,
              ignore_exe: Sequence[str] = (), net: Mapping[str, Any] | None = None
              ) -> SupervisedProcess:
        """Start ``argv`` (output on pipes, stdin /dev/null, own session), confined."""
        link = self.start()
        out_r, out_w = os.pipe()
        err_r, err_w = os.pipe()
        with self._lock:
            self._next += 1
            ident = self._next
            proc = SupervisedProcess(self, ident, os.fdopen(out_r, "rb", buffering=0),
                                     os.fdopen(err_r, "rb", buffering=0))
            if not link.ended:  # (else nobody would ever complete it)
                link.pending[ident] = proc
        message = {"op": "spawn", "id": ident, "argv": list(argv), "cwd": cwd,
                   "env": dict(env), "confine": confine.to_json(),
                   "write_map": dict(write_map) if write_map else None,
                   "ignore_exe": list(ignore_exe), "net": dict(net) if net else None}
        if confine.backend == "bwrap" and not confine.netns_paths:
            with self._lock:
                self._prepare_for = self._prepare_message(str(message["confine"]), cwd)
        try:
            if link.ended:
                raise OSError(errno.EPIPE, "the sandbox supervisor ended")
            if not self._to_spare(link, message, [out_w, err_w]):
                self._send(link, message, [out_w, err_w])
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

    def prepare_for(self, confine: Confinement, cwd: str) -> None:
        """Have the sandbox of a command with ``confine`` in ``cwd`` built now (bubblewrap), by
        the helper lent to swebash, or else by the next one."""
        if not self.prepare or confine.backend != "bwrap" or confine.netns_paths:
            return
        message = self._prepare_message(confine.to_json(), cwd)
        with self._lock:
            if self._prepare_for == message:
                return  # built, or being built, already
            self._prepare_for = message
            link = self._link
            spare = link.spare if link is not None else None
            if spare is not None:
                with contextlib.suppress(OSError):
                    wire.send(spare[1], message)

    @staticmethod
    def _prepare_message(confine: str, cwd: str) -> dict[str, Any]:
        return {"op": "prepare", "cwd": cwd, "confine": confine, "env": {"PATH": os.defpath}}

    def kill(self, ident: int) -> None:
        link = self._link
        if link is not None and ident in link.pending:
            with contextlib.suppress(OSError):
                self._send(link, {"op": "kill", "id": ident}, [])

    def _to_spare(self, link: _Link, message: dict[str, Any], fds: list[int]) -> bool:
        """Hand the request to the waiting helper; False when there is none (or it is gone:
        the supervisor then forks one for it)."""
        with self._lock:
            spare, link.spare = link.spare, None
        if spare is None:
            return False
        pid, channel = spare
        try:
            wire.send(channel, message, fds)
        except OSError:
            return False
        finally:
            channel.close()
        self._send(link, {"op": "taken", "pid": pid, "id": message["id"]}, [])
        return True

    def _send(self, link: _Link, message: dict[str, Any], fds: list[int]) -> None:
        with self._send_lock:
            wire.send(link.sock, message, fds)

    # ------------------------------------------------------------------ the reader thread

    def _read(self, link: _Link) -> None:
        while True:
            try:
                message, fds = wire.receive(link.sock)
            except (OSError, ValueError):
                message, fds = None, []
            if message is None:
                break
            self._dispatch(link, message, fds)
        # the supervisor is gone: so are its commands
        self._drop_spare(link)
        with self._lock:
            pending, link.pending = link.pending, {}
            link.ended = True
            if self._link is link:
                self._link = None
        link.sock.close()
        for proc in pending.values():
            if not proc._reply.is_set():
                proc._failed(OSError(errno.EPIPE, "the sandbox supervisor ended"))
            elif proc.returncode is None:
                proc._exited(-9, ())
        link.ready.set()  # (whoever waits for this one to start: it will not)

    def _dispatch(self, link: _Link, message: dict[str, Any], fds: list[int]) -> None:
        op = message.get("op")
        if op == "ready":
            if "netns_port" in message and fds:
                holder = int(message["holder"])
                self.netns = Netns(socket.socket(fileno=fds.pop(0)), int(message["netns_port"]),
                                   (f"/proc/{holder}/ns/user", f"/proc/{holder}/ns/net"))
            self.netns_error = str(message.get("netns_error", ""))
            self.offline = bool(message.get("offline"))
            link.ready.set()
        elif op == "spare" and fds:
            channel = socket.socket(fileno=fds.pop(0))
            channel.set_inheritable(False)
            with self._lock:
                prepare = self._prepare_for if self.prepare else None
                if prepare is not None:
                    with contextlib.suppress(OSError):
                        wire.send(channel, prepare)  # (before it is lent: it comes first)
                old, link.spare = link.spare, (int(message.get("pid", 0)), channel)
            if old is not None:
                old[1].close()
        for fd in fds:
            os.close(fd)
        with self._lock:
            proc = link.pending.get(int(message.get("id", 0)))
        if proc is None:
            return
        if op == "started":
            proc._started(int(message["pid"]), bool(message.get("prepared")))
            if proc.prepared:
                self.prepared_used += 1
        elif op == "error":
            proc._failed(OSError(int(message.get("errno") or 0) or errno.EPERM,
                                 str(message.get("message", "cannot start"))))
            with self._lock:
                link.pending.pop(proc.id, None)
        elif op == "exit":
            proc._exited(int(message["status"]), message.get("denied") or ())
            with self._lock:
                link.pending.pop(proc.id, None)
